#!/usr/bin/env python3
"""Tests of `glreplay report` in a real browser (Debian's chromium, headless; stdlib only).

  check_report.py --glreplay G --chromium C --sample S --shaders DIR [--glmark2 P]

1. The lit_mesh sample (a real GLFW program under the shim): captured, reported with --profile,
   the page loaded from disk in headless Chromium, whose page script (index.html?selftest) clicks
   every draw, clear and blit in the event list and writes what it showed into the DOM
   (--dump-dom). Checked against the capture (`glreplay info --json`) and the sample's shader
   files: the event count and names, a loaded thumbnail for every draw, the shader sources of the
   selected draws, the model's agreement, the profile's plots and hot lines.
2. glmark2 (a real program, its texture scene) with its data folder copied and every fragment
   shader given a hostile comment (`</script><script>...`, an `<img onerror>`): the source must show
   as text, no script beyond the page's own may run, and the scene's texture shows as an image.
2b. glmark2's desktop scene (render to texture): the textures a draw samples, as the driver holds
   them before it, are shown and equal the render target an earlier event drew.
3. A screenshot of the layout (chromium --screenshot): the asked size and not blank.
4. Bad input: a missing, a truncated and a non-capture file, an --out that is a file, a non-empty
   foreign folder: one "glreplay: ..." line and exit status 2.
"""
import argparse
import html
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

FAILURES = []
INJECT = ('// </script><script>window.__glrPwned=1;alert(1)</script>'
          '<img src=x onerror="window.__glrPwned=1"> & done')


def fail(msg):
    FAILURES.append(msg)
    print('FAIL: ' + msg, flush=True)


def run(cmd, timeout=120, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                          env=env, universal_newlines=True, errors='replace')


def describe(p):
    return 'exit %d\n--- stdout\n%s--- stderr\n%s' % (p.returncode, p.stdout[-2000:], p.stderr[-2000:])


def chromium(args, tmp, url, timeout=90):
    prof = tempfile.mkdtemp(prefix='chr', dir=tmp)
    cmd = [ARGS.chromium, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
           '--user-data-dir=' + prof] + args + [url]
    return run(cmd, timeout=timeout)


def selftest(tmp, index):
    """The page's self-test result (the JSON its script wrote into #selftest)."""
    p = chromium(['--virtual-time-budget=60000', '--dump-dom'], tmp, 'file://' + index + '?selftest')
    m = re.search(r'<pre id="selftest">(.*?)</pre>', p.stdout, re.S)
    if p.returncode != 0 or not m:
        fail('chromium gave no self-test result for %s: %s' % (index, describe(p)))
        return None, p.stdout
    return json.loads(html.unescape(m.group(1))), p.stdout


def report(tmp, cap, out, extra=()):
    p = run([ARGS.glreplay, 'report', cap, '--out', out] + list(extra), timeout=300)
    if p.returncode != 0 or not os.path.exists(os.path.join(out, 'index.html')):
        fail('report %s: %s' % (cap, describe(p)))
        return False
    print(p.stdout.strip(), flush=True)
    return True


def info(cap):
    p = run([ARGS.glreplay, 'info', cap, '--json', '--top', '0'])
    return json.loads(p.stdout)


def check_common(res, cap, name):
    """What every report page must show, against `glreplay info --json` of the capture."""
    inf = info(cap)
    per = {c['name']: c['count'] for c in inf['calls']['per_command']}
    if res['events_total'] != inf['calls']['records']:
        fail('%s: page shows %d events, the capture has %d records' % (name, res['events_total'], inf['calls']['records']))
    for cmd in per:
        if cmd not in res['names']:
            fail('%s: command %s of the capture is not among the page\'s event names' % (name, cmd))
    draws = sum(n for c, n in per.items() if (c.startswith('glDraw') and not c.startswith('glDrawBuffer'))
                or c.startswith('glMultiDraw'))
    clears = per.get('glClear', 0)
    blits = sum(n for c, n in per.items() if c.startswith('glBlit'))
    if res['filtered_rows'] != draws + clears + blits or len(res['visited']) != draws + clears + blits:
        fail('%s: %d draws/clears/blits listed, %d visited; the capture has %d draws, %d clears, %d blits'
             % (name, res['filtered_rows'], len(res['visited']), draws, clears, blits))
    if res['rows_in_dom'] >= res['events_total'] and res['events_total'] > 40:
        fail('%s: the list is not virtualized: %d rows in the DOM for %d events' % (name, res['rows_in_dom'], res['events_total']))
    for v in res['visited']:
        if v.get('error'):
            fail('%s: event %d: %s' % (name, v['record'], v['error']))
            continue
        kind = 'draw' if 'glDraw' in v['title'] else 'clear' if 'glClear' in v['title'] else 'blit'
        if not v['title'].startswith('event %d: ' % v['record']) or '(%s,' % kind not in v['title']:
            fail('%s: event %d shows the title %r' % (name, v['record'], v['title']))
        if not v['shot'] or not (0 < v['shot_w'] <= 160 and 0 < v['shot_h'] <= 160):
            fail('%s: event %d (%s): no thumbnail (%s, %dx%d)' % (name, v['record'], v['title'], v['shot'], v['shot_w'], v['shot_h']))
        if v['state'] < 200:
            fail('%s: event %d: no API state shown' % (name, v['record']))
        if not v.get('state_matches_detail'):
            fail('%s: event %d: the state rebuilt from data/s differs from the state stored for it' % (name, v['record']))
        if kind == 'draw' and not v['shaders']:
            fail('%s: draw %d: no shader source shown' % (name, v['record']))
        if v['texture_images'] != v['texture_images_loaded']:
            fail('%s: event %d: %d of %d texture images did not load' % (name, v['record'], v['texture_images'] - v['texture_images_loaded'], v['texture_images']))
    if res['pwned']:
        fail('%s: a script from the capture ran in the page' % name)
    expected = {'report.js', 'data/info.js', 'data/events.js', 'data/programs.js', 'data/model.js', 'data/profile.js', 'data/dtex.js'}
    for s in res['script_srcs']:
        if s is None or (s not in expected and not re.fullmatch(r'data/[ds]/\d+\.js', s)):
            fail('%s: unexpected script in the page: %r' % (name, s))


def json_diff(a, b, path=()):
    """The changed paths from a to b, by the rule the report uses (report_states.c): objects key by
    key, lists of equal length element by element, anything else as one value."""
    if isinstance(a, dict) and isinstance(b, dict):
        out = []
        for k in a:
            out += json_diff(a[k], b[k], path + (k,)) if k in b else [path + (k,)]
        return out + [path + (k,) for k in b if k not in a]
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        return [p for i in range(len(a)) for p in json_diff(a[i], b[i], path + (i,))]
    return [] if a == b else [path]


def state_json(cap, event, ctx):
    p = run([ARGS.glreplay, 'state', cap, '--event', str(event), '--context', str(ctx), '--json'])
    return json.loads(p.stdout)['state'] if p.returncode == 0 else None


def close(a, b):
    return abs(a - b) <= 1e-4 * max(1.0, abs(b))


def call_check(call, st):
    """What the state after a call must hold, read from the call's own arguments (the text the page
    shows for it). None when the call is not one of those checked here, else (ok, what)."""
    m = re.fullmatch(r'(\w+)\((.*)\)', call)
    if not m:
        return None
    fn, args = m.group(1), [a.strip() for a in m.group(2).split(',')] if m.group(2) else []
    try:
        if fn == 'glUseProgram':
            return (st['program'] or {}).get('name', 0) == int(args[0]), 'program.name'
        if fn == 'glBindVertexArray':
            return (st['vertex_array'] or {}).get('name') == int(args[0]), 'vertex_array.name'
        if fn == 'glDepthFunc':
            return st['depth']['func'] == args[0], 'depth.func'
        if fn == 'glViewport':
            return [int(x) for x in args] == [int(x) for x in st['viewport']], 'viewport'
        caps = {'GL_DEPTH_TEST': lambda: st['depth']['test'], 'GL_CULL_FACE': lambda: st['raster']['cull'],
                'GL_BLEND': lambda: st['blend']['per_draw_buffer'][0]['enabled'], 'GL_STENCIL_TEST': lambda: st['stencil']['test']}
        if fn in ('glEnable', 'glDisable') and args[0] in caps:
            return caps[args[0]]() == (fn == 'glEnable'), args[0]
        if fn == 'glBindTexture':
            return any(t['target'] == args[0] and t['texture'] == int(args[1]) for t in st['textures']) or int(args[1]) == 0, 'textures'
        if re.fullmatch(r'glUniform[1-4]f', fn):
            u = next(u for u in st['program']['uniforms'] if u['location'] == int(args[0]))
            return all(close(a, float(x)) for a, x in zip(u['value'], args[1:])) and len(u['value']) == len(args) - 1, 'uniform %s' % args[0]
    except (KeyError, StopIteration, ValueError, TypeError, IndexError) as e:
        return False, 'state lacks what %s sets (%r)' % (fn, e)
    return None


def check_states(res, cap, name, against_cli, min_checked, cli_stride=1):
    """The state shown at events other than draws: parsed back from the page's text, it holds what
    the call's arguments set; the highlighted changes are there; with against_cli, the state equals
    `glreplay state --event K+1` (the state after event K) and the changes listed equal the
    difference between `--event K` and `--event K+1` (at every cli_stride-th event: two runs of
    glreplay each)."""
    calls = res.get('visited_calls') or []
    if not calls:
        fail('%s: the self-test visited no event other than draws, clears and blits' % name)
        return
    semantic = compared = 0
    for v in calls:
        rec = v['record']
        if v.get('error') or v['state'] is None:
            fail('%s: event %d (%s): no parsable state shown: %r' % (name, rec, v.get('call'), v.get('error') or v.get('state_title')))
            continue
        if not v['draw_sections_hidden']:
            fail('%s: event %d: the draw sections show at a %s' % (name, rec, v['call']))
        if any(c[3] != '(none)' for c in v['changes']) and not v['highlighted']:
            fail('%s: event %d (%s): changes listed, none highlighted' % (name, rec, v['call']))
        if not v['changes'] and 'nothing' not in v['changes_note']:
            fail('%s: event %d: neither changes nor a note: %r' % (name, rec, v['changes_note']))
        chk = call_check(v['call'], v['state'])
        if chk is not None:
            semantic += 1
            if not chk[0]:
                fail('%s: event %d %s: the state shown after it does not hold %s' % (name, rec, v['call'], chk[1]))
        if against_cli and calls.index(v) % cli_stride == 0:
            after, before = state_json(cap, rec + 1, v['ctx']), state_json(cap, rec, v['ctx'])
            if after is None or before is None:
                fail('%s: glreplay state --event %d/%d --context %s failed' % (name, rec, rec + 1, v['ctx']))
                continue
            compared += 1
            if after != v['state']:
                fail('%s: event %d (%s): the page shows a state other than glreplay state --event %d' % (name, rec, v['call'], rec + 1))
            want = sorted(json.dumps(list(p)) for p in json_diff(before, after))
            got = sorted(json.dumps(c[0]) for c in v['changes'])
            if want != got:
                fail('%s: event %d (%s): changes shown %s, glreplay state differs in %s' % (name, rec, v['call'], got, want))
    if semantic < min_checked:
        fail('%s: only %d events of the kinds whose arguments are checked (bind, use, uniform, enable, ...)' % (name, semantic))
    print('%s: state at %d other events (%d checked against the call\'s arguments, %d against glreplay state)'
          % (name, len(calls), semantic, compared), flush=True)


def shown_sources(res):
    out = []
    for v in res['visited']:
        out += [s['text'] for s in v['shaders']]
    return out


def test_sample(tmp):
    cap = os.path.join(tmp, 'lit.glcap')
    p = run([ARGS.glreplay, 'capture', '--frame', '3', '--out', cap, '--', ARGS.sample, '--frames', '5'])
    if p.returncode != 0:
        fail('capture lit_mesh: ' + describe(p))
        return
    out = os.path.join(tmp, 'lit report')   # a space in the path: the page's URLs still resolve
    if not report(tmp, cap, out, ['--profile']):
        return
    res, dom = selftest(tmp, out + '/index.html')
    if not res:
        return
    check_common(res, cap, 'lit_mesh')
    check_states(res, cap, 'lit_mesh', against_cli=True, min_checked=20)
    # Every shader file of the program shows in full among the sources of the draws (the sample
    # prepends #version/#define lines).
    sources = shown_sources(res)
    for f in sorted(os.listdir(ARGS.shaders)):
        text = open(os.path.join(ARGS.shaders, f)).read()
        if not any(text in s for s in sources):
            fail('lit_mesh: the source of %s is not shown at any draw' % f)
    draws = [v for v in res['visited'] if 'glDraw' in v['title']]
    # The mesh draws read vertex buffers the capture uploaded: their first vertices are shown.
    if not any(re.search(r'#0: \(-?[0-9.]+, ', v['vertex']) for v in draws):
        fail('lit_mesh: no draw shows its first vertex values: %r' % [v['vertex'][:200] for v in draws])
    if not all('%' in v['model'] for v in draws):
        fail('lit_mesh: model agreement missing at a draw: %r' % [v['model'] for v in draws])
    if not any(sh['hot'] for v in draws for sh in v['shaders']):
        fail('lit_mesh: --profile marks no hot line in any draw\'s shader source')
    if res['profile_plots'] < 3 or res['profile_lines'] < 1:
        fail('lit_mesh: profile: %d plots, %d hot lines' % (res['profile_plots'], res['profile_lines']))
    print('lit_mesh: %d events, %d draws/clears visited, ready in %.0f ms, clicks %.0f ms'
          % (res['events_total'], len(res['visited']), res['ready_ms'], res['click_ms']), flush=True)
    # 3. The layout as a screenshot: the asked size, and not blank (the header band is there and
    # the page has many colours: thumbnails, text, tables).
    shot = os.path.join(tmp, 'shot.png')
    p = chromium(['--window-size=1280,900', '--virtual-time-budget=10000', '--screenshot=' + shot], tmp,
                 'file://' + out + '/index.html')
    if not os.path.exists(shot):
        fail('no screenshot: ' + describe(p))
        return
    w, h, px = read_png(shot)
    if (w, h) != (1280, 900):
        fail('screenshot is %dx%d, asked 1280x900' % (w, h))
    colours = set(px[i:i + 3] for i in range(0, len(px), 4 * 97))
    header = px[(10 * w + 300) * 4:(10 * w + 300) * 4 + 3]
    if len(colours) < 40 or header != bytes((0x26, 0x32, 0x38)):
        fail('screenshot looks blank: %d colours sampled, header pixel %r' % (len(colours), header))
    # The selected draw's thumbnail is on screen: near-black sky/ground pixels are not the page's.
    print('screenshot: %dx%d, %d colours sampled' % (w, h, len(colours)), flush=True)


def test_uploads(tmp):
    """lit_mesh's frame 1 creates its buffers and textures: at each upload the page shows the object
    the call wrote, after it, as the call's own arguments say (glBufferData's size, glTexImage2D's
    width and height, level 0 as an image of that size, glGenerateMipmap's levels); and the state
    at its events is checked as at frame 3's."""
    cap = os.path.join(tmp, 'lit1.glcap')
    p = run([ARGS.glreplay, 'capture', '--frame', '1', '--out', cap, '--', ARGS.sample, '--frames', '3'])
    if p.returncode != 0:
        fail('capture lit_mesh frame 1: ' + describe(p))
        return
    out = os.path.join(tmp, 'lit1')
    if not report(tmp, cap, out, ['--no-model']):
        return
    res, _ = selftest(tmp, out + '/index.html')
    if not res:
        return
    check_states(res, cap, 'lit_mesh frame 1', against_cli=True, min_checked=10, cli_stride=10)
    textures = buffers = mipmaps = 0
    for v in res['visited_calls']:
        m = re.fullmatch(r'(\w+)\((.*)\)', v['call'])
        if not m:
            continue
        fn, args = m.group(1), [a.strip() for a in m.group(2).split(',')]
        obj = v.get('object') or ''
        if fn == 'glTexImage2D' and args[1] == '0':
            textures += 1
            w, h = int(args[3]), int(args[4])
            if ' %dx%d,' % (w, h) not in obj or v.get('object_image') != [w, h]:
                fail('lit_mesh frame 1: event %d %s shows %r, image %r' % (v['record'], v['call'], obj, v.get('object_image')))
        elif fn == 'glBufferData':
            buffers += 1
            if ' %d bytes' % int(args[1]) not in obj:
                fail('lit_mesh frame 1: event %d %s shows %r' % (v['record'], v['call'], obj))
        elif fn == 'glGenerateMipmap':
            mipmaps += 1
            lv = re.search(r'(\d+) level', obj)
            if not lv or int(lv.group(1)) < 2:
                fail('lit_mesh frame 1: event %d %s shows %r' % (v['record'], v['call'], obj))
    if textures < 2 or buffers < 3 or mipmaps < 1:
        fail('lit_mesh frame 1: uploads checked: %d textures, %d buffers, %d mipmaps' % (textures, buffers, mipmaps))
    print('lit_mesh frame 1: the objects written by %d texture uploads, %d buffer uploads, %d glGenerateMipmap shown as their calls say'
          % (textures, buffers, mipmaps), flush=True)


def test_glmark2_hostile(tmp):
    data = os.path.join(tmp, 'glmark2-data')
    shutil.copytree('/usr/share/glmark2', data)
    shaders = os.path.join(data, 'shaders')
    for f in os.listdir(shaders):
        if f.endswith('.frag'):
            with open(os.path.join(shaders, f), 'a') as fh:
                fh.write('\n' + INJECT + '\n')
    cap = os.path.join(tmp, 'glmark2.glcap')
    p = run([ARGS.glreplay, 'capture', '--frame', '3', '--out', cap, '--', ARGS.glmark2, '--data-path', data,
             '-s', '160x120', '-b', 'texture:nframes=6'])
    if p.returncode != 0:
        fail('capture glmark2: ' + describe(p))
        return
    out = os.path.join(tmp, 'gm')
    if not report(tmp, cap, out):
        return
    # The data files carry the hostile text only as escapes: no '<', '>' or '&' in any of them.
    for folder in ('data', 'data/d'):
        for f in os.listdir(os.path.join(out, folder)):
            if f.endswith('.js'):
                text = open(os.path.join(out, folder, f), encoding='utf-8').read()
                if any(ch in text for ch in '<>&'):
                    fail('glmark2: %s/%s holds a raw markup character' % (folder, f))
    progs = open(os.path.join(out, 'data', 'programs.js'), encoding='utf-8').read()
    if '\\u003c/script\\u003e\\u003cscript\\u003ewindow.__glrPwned' not in progs:
        fail('glmark2: the hostile shader text is not in programs.js as escapes')
    res, dom = selftest(tmp, out + '/index.html')
    if not res:
        return
    check_common(res, cap, 'glmark2 texture')
    check_states(res, cap, 'glmark2 texture', against_cli=False, min_checked=1)
    draws = [v for v in res['visited'] if 'glDraw' in v['title']]
    if not draws or not any(INJECT in s['text'] for s in draws[0]['shaders'] if s['stage'] == 'GL_FRAGMENT_SHADER'):
        fail('glmark2: the hostile fragment shader text is not shown as text at the draw')
    if not any(v['texture_images_loaded'] for v in draws):
        fail('glmark2 texture: no texture image shown at its draw')
    if re.search(r'<img[^>]*src="x"', dom) or '<script>window.__glrPwned' in dom:
        fail('glmark2: markup from the capture reached the DOM as elements')
    print('glmark2 texture (hostile shaders): %d events, ready in %.0f ms' % (res['events_total'], res['ready_ms']),
          flush=True)


def test_glmark2_render_targets(tmp):
    """glmark2's desktop scene draws windows into framebuffer objects and then samples their textures:
    the state model has no contents for them, so only the driver pass (data/dtex) can picture them.
    Each driver image shown at a draw must load, and one of them must equal the thumbnail of an
    earlier event (the render target that drew it), pixel for pixel."""
    cap = os.path.join(tmp, 'desktop.glcap')
    p = run([ARGS.glreplay, 'capture', '--frame', '3', '--out', cap, '--', ARGS.glmark2, '-s', '160x120',
             '-b', 'desktop:nframes=6'])
    if p.returncode != 0:
        fail('capture glmark2 desktop: ' + describe(p))
        return
    out = os.path.join(tmp, 'desktop')
    if not report(tmp, cap, out, extra=('--no-model',)):
        return
    res, _ = selftest(tmp, out + '/index.html')
    if not res:
        return
    check_states(res, cap, 'glmark2 desktop', against_cli=True, min_checked=5, cli_stride=4)
    draws = [v for v in res['visited'] if 'glDraw' in v['title']]
    shown = [(v['record'], f) for v in draws for f in v.get('texture_images_driver', [])]
    if not shown or any(not f for _, f in shown):
        fail('glmark2 desktop: driver texture images missing or not loaded at draws: %r' % shown[:8])
        return
    thumbs = {}
    for name in os.listdir(os.path.join(out, 'thumbs')):
        rec = int(name.split('.')[0])
        thumbs[rec] = read_png(os.path.join(out, 'thumbs', name))
    matched = 0
    for rec, f in shown:
        img = read_png(os.path.join(out, f))
        if any(r < rec and t == img for r, t in thumbs.items()):
            matched += 1
    if not matched:
        fail('glmark2 desktop: no driver texture image equals the render target an earlier event drew')
    print('glmark2 desktop: %d driver texture images at %d draws, %d equal an earlier render target' % (
        len(shown), len(draws), matched), flush=True)


def test_bad_input(tmp):
    good = os.path.join(tmp, 'lit.glcap')
    truncated = os.path.join(tmp, 'trunc.glcap')
    if os.path.exists(good):
        with open(good, 'rb') as f:
            data = f.read()
        with open(truncated, 'wb') as f:
            f.write(data[:len(data) // 2])
    notcap = os.path.join(tmp, 'notcap.glcap')
    with open(notcap, 'w') as f:
        f.write('not a capture\n' * 10)
    afile = os.path.join(tmp, 'afile')
    open(afile, 'w').close()
    foreign = os.path.join(tmp, 'foreign')
    os.makedirs(foreign, exist_ok=True)
    open(os.path.join(foreign, 'keep.txt'), 'w').close()
    cases = [([os.path.join(tmp, 'missing.glcap'), '--out', os.path.join(tmp, 'o1')], 'missing capture'),
             ([notcap, '--out', os.path.join(tmp, 'o2')], 'not a capture'),
             ([good, '--out', afile], '--out is a file'),
             ([good, '--out', foreign], '--out is a foreign folder'),
             ([good], 'no --out'),
             ([good, '--out', os.path.join(tmp, 'o3'), '--thumb-size', '3'], 'bad --thumb-size')]
    if os.path.exists(truncated):
        cases.append(([truncated, '--out', os.path.join(tmp, 'o4')], 'truncated capture'))
    for args, what in cases:
        p = run([ARGS.glreplay, 'report'] + args)
        lines = [l for l in p.stderr.splitlines() if l.strip()]
        if p.returncode != 2 or len(lines) != 1 or not lines[0].startswith('glreplay: '):
            fail('%s: expected one error line and exit 2: %s' % (what, describe(p)))
    if os.listdir(foreign) != ['keep.txt']:
        fail('a foreign folder was written into: %r' % os.listdir(foreign))


def read_png(path):
    """Width, height and RGBA bytes of an 8-bit RGB or RGBA PNG (what chromium writes)."""
    with open(path, 'rb') as f:
        data = f.read()
    pos, idat, w = 8, b'', 0
    while pos < len(data):
        n, typ = struct.unpack('>I4s', data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b'IHDR':
            w, h, depth, ctype = struct.unpack('>IIBB', body[:10])
        elif typ == b'IDAT':
            idat += body
        pos += 12 + n
    bpp = {6: 4, 2: 3}[ctype]
    raw = zlib.decompress(idat)
    stride = w * bpp
    out, prev = bytearray(), bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif ft == 4:
                pa, pb, pc = abs(b - c), abs(a - c), abs(a + b - 2 * c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        prev = line
        for x in range(w):
            out += line[x * bpp:x * bpp + 3] + (bytes((line[x * bpp + 3],)) if bpp == 4 else b'\xff')
    return w, h, bytes(out)


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--chromium', default='/usr/bin/chromium')
    ap.add_argument('--sample', required=True)
    ap.add_argument('--shaders', required=True)
    ap.add_argument('--glmark2')
    ARGS = ap.parse_args()
    if not os.path.exists(ARGS.chromium):
        sys.exit('chromium not found at %s (Debian package chromium, tests/packages.txt)' % ARGS.chromium)
    tmp = tempfile.mkdtemp(prefix='glr-report-')
    try:
        test_sample(tmp)
        test_uploads(tmp)
        if ARGS.glmark2:
            test_glmark2_hostile(tmp)
            test_glmark2_render_targets(tmp)
        test_bad_input(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    if FAILURES:
        print('%d failure(s)' % len(FAILURES))
        return 1
    print('all report checks passed')
    return 0


if __name__ == '__main__':
    sys.exit(main())
