#!/usr/bin/env python3
"""Tests of `glreplay capture`, `glreplay info` and `glreplay replay` (stdlib only).

  check_replay.py sample --glreplay G [--first N] --count K [--xfail CAUSE] -- APP ARGS
      capture frames N..N+K-1 of APP (N 0: from context creation; later: with the initial-state
      snapshot), check `info` (text and --json), then
      `replay --verify --loop 3` must pass. With --xfail the verification step is known to fail
      for CAUSE: the script then exits 1 only when it fails cleanly (exit 1, no crash), and 0 with
      "UNEXPECTED" when it passes or breaks another way (meson's should_fail flags both).
  check_replay.py synthetic --glreplay G --synth S
      a hand-made capture (no shim, no X): verify, loop, PNGs, a wrong reference pixel found.
  check_replay.py corrupt --glreplay G --edit E (--synth S | --capture F | -- APP ARGS)
      missing, truncated, bit-flipped and semantically broken captures: `info` and `replay`
      must print exactly one "glreplay: ..." line and exit with status 2, never crash.
"""
import argparse
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print('FAIL: ' + msg, flush=True)


def run(cmd, timeout=120, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout,
                          env=env, universal_newlines=True, errors='replace')


def describe(p):
    return 'exit %d\n--- stdout\n%s--- stderr\n%s' % (p.returncode, p.stdout[-3000:], p.stderr[-3000:])


# ---------------------------------------------------------------- info checks

def check_info(glreplay, cap):
    p = run([glreplay, 'info', cap])
    if p.returncode != 0 or 'calls:' not in p.stdout or 'contexts:' not in p.stdout:
        fail('info %s: %s' % (cap, describe(p)))
        return None
    p = run([glreplay, 'info', cap, '--json'])
    if p.returncode != 0:
        fail('info --json %s: %s' % (cap, describe(p)))
        return None
    try:
        j = json.loads(p.stdout)
    except ValueError as e:
        fail('info --json is not JSON: %s\n%s' % (e, p.stdout[:2000]))
        return None
    for key in ('file', 'program', 'frames', 'initial_state', 'contexts', 'calls', 'draws', 'clears',
                'shaders', 'resources', 'sections', 'reference_images'):
        if key not in j:
            fail('info --json lacks "%s"' % key)
            return None
    per = j['calls']['per_command']
    if sum(c['count'] for c in per) != j['calls']['total']:
        fail('info --json: per-command counts do not add up to the total')
    if not j['contexts'] or j['calls']['total'] <= 0:
        fail('info --json: no contexts or no calls')
    n_img_sections = sum(1 for s in j['sections'] if s['type'] == 'REFERENCE_IMAGE')
    # Frames kept only as a hash (GLREPLAY_CAPTURE_IMAGES) are image sections too.
    n_refs = len(j['reference_images']) + len(j.get('reference_hashes', []))
    if n_img_sections != n_refs:
        fail('info --json: %d image sections but %d reference images and hashes' % (n_img_sections, n_refs))
    if j['draws'] > j['calls']['total'] or j['clears'] > j['calls']['total']:
        fail('info --json: more draws/clears than calls')
    # --top limits the text listing, --top 0 lists every command.
    p = run([glreplay, 'info', cap, '--top', '0'])
    listed = sum(1 for line in p.stdout.splitlines() if line.startswith('  ') and line.split()[0].isdigit()
                 and len(line.split()) == 2)
    if p.returncode != 0 or listed != j['calls']['distinct_commands']:
        fail('info --top 0 lists %d commands, --json says %d' % (listed, j['calls']['distinct_commands']))
    return j


# ---------------------------------------------------------------- sample

def cmd_sample(a):
    tmp = tempfile.mkdtemp(prefix='glr-replay-test-')
    try:
        cap = os.path.join(tmp, 'c.glcap')
        p = run([a.glreplay, 'capture', '--frame', str(a.first), '--count', str(a.count), '--out', cap, '--'] + a.app)
        phase_a_ok = p.returncode == 0 and os.path.exists(cap)
        if not phase_a_ok:
            fail('capture: %s' % describe(p))
        j = check_info(a.glreplay, cap) if phase_a_ok else None
        phase_a_ok = phase_a_ok and j is not None and not FAILURES
        # Phase B: what the capture must hold to replay, and the replay itself.
        b_problems = []
        crashed = False
        if phase_a_ok:
            want_state = 'default' if a.first == 0 else 'snapshot'
            if j['initial_state'] != want_state:
                b_problems.append('initial_state is %s, expected %s' % (j['initial_state'], want_state))
            if j['frames']['first'] != a.first:
                b_problems.append('the capture starts at frame %d, not %d' % (j['frames']['first'], a.first))
            n_refs = len(j['reference_images']) + len(j.get('reference_hashes', []))
            if j['frames']['swaps'] != a.count or n_refs != a.count:
                b_problems.append('expected %d swaps and reference images, the capture has %d and %d (end: see '
                                  'GLREPLAY_LOG=info)' % (a.count, j['frames']['swaps'], n_refs))
            p = run([a.glreplay, 'replay', cap, '--verify', '--loop', '3'])
            print(p.stdout, end='')
            print(p.stderr, end='', file=sys.stderr)
            if p.returncode not in (0, 1):
                crashed = True
                b_problems.append('replay: %s' % describe(p))
            elif p.returncode != 0:
                b_problems.append('replay --verify failed')
            elif 'verify: PASS' not in p.stdout or 'passes identical' not in p.stdout:
                b_problems.append('replay: no PASS line: %s' % describe(p))
            if p.returncode == 0 and p.stdout.count('matches the reference') != a.count:
                b_problems.append('replay: expected %d "matches the reference" lines' % a.count)
        if a.xfail:
            if not phase_a_ok or crashed:
                print('UNEXPECTED: this known-failure test broke in another way (see above); known cause: %s' % a.xfail)
                return 0
            if not b_problems:
                print('UNEXPECTED PASS: the known failure (%s) is gone: remove --xfail/should_fail' % a.xfail)
                return 0
            print('expected failure (%s): %s' % (a.xfail, '; '.join(b_problems)))
            return 1
        for m in b_problems:
            fail(m)
        return 1 if FAILURES else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------- synthetic

def synth_verifies(a, tmp, env, option, replay_args, want, what, also=()):
    """A two-frame synthetic capture made with `option` replays with --verify and prints `want`
    (and each of `also`); `what` says what a failure means."""
    path = os.path.join(tmp, option.strip('-') + '.glcap')
    p = run([a.synth, path, '--frames', '2', option])
    if p.returncode != 0:
        fail('synth_capture %s: %s' % (option, describe(p)))
        return
    p = run([a.glreplay, 'replay', path, '--verify'] + replay_args, env=env)
    if p.returncode != 0 or any(w not in p.stdout for w in (want,) + tuple(also)):
        fail(what + ': ' + describe(p))


def cmd_synthetic(a):
    tmp = tempfile.mkdtemp(prefix='glr-replay-test-')
    try:
        env = dict(os.environ)
        env.pop('DISPLAY', None)  # the replay must not need X
        good = os.path.join(tmp, 'good.glcap')
        bad = os.path.join(tmp, 'bad.glcap')
        for path, extra in ((good, []), (bad, ['--wrong-pixel'])):
            p = run([a.synth, path, '--frames', '3', '--size', '32x16'] + extra)
            if p.returncode != 0:
                fail('synth_capture: ' + describe(p))
                return 1
        j = check_info(a.glreplay, good)
        # Exact counts of the hand-made capture: per frame glViewport, glClearColor, glClear, swap.
        if j:
            per = {c['name']: c['count'] for c in j['calls']['per_command']}
            want = {'glViewport': 3, 'glClearColor': 3, 'glClear': 3}
            if per != want or j['calls']['total'] != 9 or j['clears'] != 3 or j['draws'] != 0 or \
                    j['frames']['swaps'] != 3 or j['calls']['records'] != 14 or len(j['reference_images']) != 3 or \
                    j['contexts'][0]['profile'] != 'core' or j['initial_state'] != 'default':
                fail('info --json counts of the synthetic capture: %s' % json.dumps(j)[:1500])
        pngs = os.path.join(tmp, 'png')
        p = run([a.glreplay, 'replay', good, '--verify', '--loop', '3', '--png', pngs, '--benchmark'], env=env)
        if p.returncode != 0 or 'verify: PASS: 9 frame images checked' not in p.stdout:
            fail('replay of the synthetic capture: ' + describe(p))
        if 'passes/s' not in p.stdout:
            fail('--benchmark printed no passes/s: ' + describe(p))
        names = sorted(os.listdir(pngs)) if os.path.isdir(pngs) else []
        clears = [n for n in names if n.endswith('_glClear.png')]
        swaps = [n for n in names if n.endswith('_swap.png')]
        if len(clears) != 3 or len(swaps) != 3:
            fail('--png wrote %s' % names)
        for n in names:
            with open(os.path.join(pngs, n), 'rb') as f:
                head = f.read(24)
            if head[:8] != b'\x89PNG\r\n\x1a\n' or struct.unpack('>II', head[16:24]) != (32, 16):
                fail('%s is not a 32x16 PNG' % n)
        # The same capture with its command stream packed (compression 2, format 1.1, as the shim
        # writes it): the same calls and records, and it verifies.
        packed = os.path.join(tmp, 'packed.glcap')
        p = run([a.synth, packed, '--frames', '3', '--size', '32x16', '--packed'])
        if p.returncode != 0:
            fail('synth_capture --packed: ' + describe(p))
        else:
            jp = check_info(a.glreplay, packed)
            if j and jp and (jp['calls'] != j['calls'] or jp['frames'] != j['frames']):
                fail('info --json of the packed capture differs: %s' % json.dumps(jp)[:1500])
            p = run([a.glreplay, 'replay', packed, '--verify', '--loop', '2'], env=env)
            if p.returncode != 0 or 'verify: PASS: 6 frame images checked' not in p.stdout:
                fail('replay of the packed synthetic capture: ' + describe(p))
        p = run([a.glreplay, 'replay', bad, '--verify'], env=env)
        want = '1 pixels differ; first at (3, 2)'
        if p.returncode != 1 or want not in p.stdout or 'verify: FAIL' not in p.stdout:
            fail('a wrong reference pixel must fail verification at (3, 2): ' + describe(p))
        # The same replay on EGL_EXT_platform_device's device 0 (Mesa's software device here; a
        # vendor driver's GPU elsewhere) instead of Mesa's surfaceless platform.
        denv = dict(env, GLREPLAY_EGL_DEVICE='0')
        p = run([a.glreplay, 'replay', good, '--verify'], env=denv)
        if p.returncode != 0 or 'verify: PASS: 3 frame images checked' not in p.stdout:
            fail('replay on EGL device 0: ' + describe(p))
        for bad_dev, want in (('99', 'GLREPLAY_EGL_DEVICE=99: EGL lists'), ('gpu', 'not a device number')):
            p = run([a.glreplay, 'replay', good], env=dict(env, GLREPLAY_EGL_DEVICE=bad_dev))
            errs = [l for l in p.stderr.splitlines() if l.startswith('glreplay:')]
            if p.returncode == 0 or len(errs) != 1 or want not in errs[0]:
                fail('GLREPLAY_EGL_DEVICE=%s must give one error line: %s' % (bad_dev, describe(p)))
        # An offscreen EGL program that draws into a pbuffer, never swaps and releases its context
        # before exiting (here: the replayer itself, captured under the shim): the pbuffer's last
        # image is the capture's reference, so --verify has something to check.
        self_cap = os.path.join(tmp, 'replayer.glcap')
        p = run([a.glreplay, 'capture', '--frame', '0', '--out', self_cap, '--', a.glreplay, 'replay', good], env=env)
        if p.returncode != 0:
            fail('capture of the replayer: ' + describe(p))
        else:
            p = run([a.glreplay, 'replay', self_cap, '--verify'], env=env)
            if p.returncode != 0 or 'verify: PASS: 1 frame images checked' not in p.stdout:
                fail('a pbuffer program released before exit must keep its image: ' + describe(p))
        # Client vertex arrays: the captured pointer is dead; only the recorded data can draw the quad.
        ca = os.path.join(tmp, 'client.glcap')
        p = run([a.synth, ca, '--frames', '2', '--client-array'])
        if p.returncode != 0:
            fail('synth_capture --client-array: ' + describe(p))
        else:
            p = run([a.glreplay, 'replay', ca, '--verify', '--loop', '2'], env=env)
            if p.returncode != 0 or 'verify: PASS: 4 frame images checked' not in p.stdout:
                fail('replay with client arrays: ' + describe(p))
            j = check_info(a.glreplay, ca)
            if j and (j['draws'] != 2 or j['clears'] != 2 or j['resources']['client_array_records'] != 2 or
                      j['contexts'][0]['profile'] != 'compatibility'):
                fail('info --json counts of the client-array capture: %s' % json.dumps(j)[:1500])
        # A capture from a driver that numbered the uniforms differently (its glGetUniformLocation
        # said 5 and 9): the replay maps them to this driver's locations.
        synth_verifies(a, tmp, env, '--foreign-locations', ['--loop', '2'], 'verify: PASS: 4 frame images checked',
                       'uniform locations of another driver must be mapped')
        # A call the driver rejected earlier in the frame (its error left pending) must not make
        # the index buffer look unbound to the replayer's size checks (seen on NVIDIA's driver).
        synth_verifies(a, tmp, env, '--pending-error', [], 'verify: PASS: 2 frame images checked',
                       'an error left pending must not refuse the next indexed draw', also=(' 0 bad',))
        # capture: a program that never makes a GL context writes nothing, which is an error.
        out = os.path.join(tmp, 'none.glcap')
        p = run([a.glreplay, 'capture', '--frame', '0', '--out', out, '--', sys.executable, '-c', 'pass'], env=env)
        if p.returncode != 1 or os.path.exists(out) or 'was not written' not in p.stderr:
            fail('capture of a program without GL must fail: ' + describe(p))
        for args in (['--out', out, '--', 'true'], ['--frame', 'x', '--out', out, '--', 'true'],
                     ['--frame', '0', '--count', '0', '--out', out, '--', 'true'], ['--frame', '0', '--out', out]):
            p = run([a.glreplay, 'capture'] + args, env=env)
            if p.returncode != 2 or not single_error_line(p.stderr):
                fail('capture %s: expected a usage error: %s' % (args, describe(p)))
        # Without --verify the same replay succeeds (differences are only judged when asked).
        p = run([a.glreplay, 'replay', bad], env=env)
        if p.returncode != 0:
            fail('replay without --verify: ' + describe(p))
        for args in (['--loop', '0'], ['--loop'], ['--bogus'], [], ['--png']):
            p = run([a.glreplay, 'replay'] + ([good] if args != [] else []) + args, env=env)
            if p.returncode != 2 or not single_error_line(p.stderr):
                fail('replay %s: expected a usage error: %s' % (args, describe(p)))
        return 1 if FAILURES else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


# ---------------------------------------------------------------- corrupt

def single_error_line(stderr):
    lines = [l for l in stderr.splitlines() if l.strip()]
    return len(lines) == 1 and lines[0].startswith('glreplay: ')


def expect_clean_error(glreplay, path, what, expect=None):
    env = dict(os.environ)
    env.pop('DISPLAY', None)
    for verb in (['info'], ['info', '--json'], ['replay', '--verify']):
        p = run([glreplay] + verb[:1] + [path] + verb[1:], env=env, timeout=60)
        ok = p.returncode == 2 and single_error_line(p.stderr) and (expect is None or expect in p.stderr)
        if not ok:
            fail('%s: glreplay %s must give one "glreplay: ..." line%s and exit 2: %s' % (
                what, ' '.join(verb), (' containing "%s"' % expect) if expect else '', describe(p)))
        elif verb == ['info']:
            print('ok  %-44s %s' % (what, p.stderr.strip()))


def section_table(data):
    count, = struct.unpack_from('<I', data, 20)
    table_off, = struct.unpack_from('<Q', data, 24)
    entry, = struct.unpack_from('<I', data, 32)
    secs = []
    for i in range(count):
        t, comp, _fl, sid, off, stored = struct.unpack_from('<HBBIQQ', data, table_off + i * entry)
        secs.append({'index': i, 'type': t, 'id': sid, 'offset': off, 'stored': stored})
    return table_off, count * entry, secs


TYPE_NAMES = {1: 'METADATA', 3: 'INITIAL_STATE', 4: 'RESOURCE_BLOB', 5: 'COMMAND_STREAM', 7: 'REFERENCE_IMAGE'}


def cmd_corrupt(a):
    tmp = tempfile.mkdtemp(prefix='glr-replay-test-')
    try:
        src = os.path.join(tmp, 'src.glcap')
        if a.capture:
            shutil.copyfile(a.capture, src)
        elif a.app:
            p = run([a.glreplay, 'capture', '--frame', str(a.first), '--count', '2', '--out', src, '--'] + a.app)
            if p.returncode != 0:
                fail('capture: ' + describe(p))
                return 1
        else:
            p = run([a.synth, src, '--frames', '2'])
            if p.returncode != 0:
                fail('synth_capture: ' + describe(p))
                return 1
        data = open(src, 'rb').read()
        size = len(data)
        f = os.path.join(tmp, 'bad.glcap')

        def write(b):
            with open(f, 'wb') as out:
                out.write(b)

        expect_clean_error(a.glreplay, os.path.join(tmp, 'missing.glcap'), 'missing file')
        expect_clean_error(a.glreplay, tmp, 'a directory')
        write(b'')
        expect_clean_error(a.glreplay, f, 'empty file')
        write(b'{"format": "glreplay capture"}\n' * 10)
        expect_clean_error(a.glreplay, f, 'not a glcap file')
        for cut in sorted({1, 7, 8, 16, 63, 64, 65, size // 4, size // 2, size - 49, size - 48, size - 1}):
            if 0 < cut < size:
                write(data[:cut])
                expect_clean_error(a.glreplay, f, 'truncated at %d of %d' % (cut, size))
        write(data + b'\0' * 16)
        expect_clean_error(a.glreplay, f, 'trailing data')
        wrong = bytearray(data)
        struct.pack_into('<H', wrong, 8, 2)
        write(bytes(wrong))
        expect_clean_error(a.glreplay, f, 'format version 2.0', expect='version')
        table_off, table_len, secs = section_table(data)
        flips = [('header', o) for o in (0, 12, 20, 40, 56)]
        flips += [('section table', table_off + o) for o in (0, 4, 8, 16, table_len - 1)]
        for s in secs:
            name = '%s %d' % (TYPE_NAMES.get(s['type'], 'type %d' % s['type']), s['id'])
            for o in sorted({0, s['stored'] // 2, s['stored'] - 1}):
                flips.append((name, s['offset'] + o))
        for what, off in flips:
            b = bytearray(data)
            b[off] ^= 0x5A
            write(bytes(b))
            expect_clean_error(a.glreplay, f, 'byte flipped in %s (offset %d)' % (what, off))

        # Content errors behind valid checksums (rewritten with glcap_edit).
        meta_path = os.path.join(tmp, 'meta.json')
        if run([a.edit, '--extract', src, '1:0', meta_path]).returncode != 0:
            fail('glcap_edit --extract METADATA')
            return 1
        meta = json.load(open(meta_path))
        stream_path = os.path.join(tmp, 'stream.bin')
        if run([a.edit, '--extract', src, '5:0', stream_path]).returncode != 0:
            fail('glcap_edit --extract COMMAND_STREAM')
            return 1
        stream = open(stream_path, 'rb').read()
        img_ids = [s['id'] for s in secs if s['type'] == 7]

        def edited(what, expect=None, drop=(), replace=()):
            args = [a.edit, src, f]
            for key in drop:
                args += ['--drop', key]
            for key, content in replace:
                path = os.path.join(tmp, 'part-%d.bin' % len(args))
                with open(path, 'wb') as out:
                    out.write(content if isinstance(content, bytes) else content.encode())
                args += ['--replace', key, path]
            p = run(args)
            if p.returncode != 0:
                fail('glcap_edit for "%s": %s' % (what, describe(p)))
                return
            expect_clean_error(a.glreplay, f, what, expect)

        def meta_with(**changes):
            m = json.loads(json.dumps(meta))
            for k, v in changes.items():
                if k.startswith('ctx_'):
                    m['contexts'][0][k[4:]] = v
                elif v is None:
                    m.pop(k, None)
                else:
                    m[k] = v
            return json.dumps(m)

        edited('METADATA not JSON', 'JSON', replace=[('1:0', '{"format": "glreplay capture", ')])
        edited('METADATA a JSON array', replace=[('1:0', '[1, 2, 3]')])
        edited('METADATA wrong format', 'format', replace=[('1:0', meta_with(format='something else'))])
        edited('METADATA without contexts', 'contexts', replace=[('1:0', meta_with(contexts=None))])
        edited('initial_state not a string', 'initial_state', replace=[('1:0', meta_with(initial_state=3))])
        edited('unknown context api', 'api', replace=[('1:0', meta_with(ctx_api='wgl'))])
        edited('unknown profile_mask', 'profile_mask', replace=[('1:0', meta_with(ctx_profile_mask=7))])
        edited('unknown context flags', 'flags', replace=[('1:0', meta_with(ctx_flags=256))])
        edited('unknown GL version', 'version', replace=[('1:0', meta_with(ctx_major=9))])
        edited('context id not a number', 'id', replace=[('1:0', meta_with(ctx_id='one'))])
        dup = json.loads(meta_with())
        dup['contexts'].append(dup['contexts'][0])
        edited('context listed twice', 'twice', replace=[('1:0', json.dumps(dup))])
        nctx = json.loads(meta_with())
        nctx['contexts'][0]['id'] = 99
        edited('stream uses an unlisted context', 'context', replace=[('1:0', json.dumps(nctx))])
        edited('no METADATA', 'METADATA', drop=['1:0'])
        edited('no COMMAND_STREAM', 'COMMAND_STREAM', drop=['5:0'])
        edited('command stream cut inside a record', 'corrupt', replace=[('5:0', stream[:-3])])
        edited('command stream with garbage appended', 'corrupt', replace=[('5:0', stream + b'\x07\x00\x00\x00\xff\xff')])
        bad_len = bytearray(stream)
        struct.pack_into('<I', bad_len, 0, 0x7fffffff)
        edited('record longer than the stream', 'corrupt', replace=[('5:0', bytes(bad_len))])
        bad_cmd = bytearray(stream)
        bad_cmd[4:9] = b'\xff\xff\xff\xff\x0f'
        edited('unknown command id', 'corrupt', replace=[('5:0', bytes(bad_cmd))])
        if any(sec['type'] == 3 for sec in secs):
            # The snapshot is parsed by the replay only (replay/restore.c): `info` lists it as is.
            p = run([a.edit, src, f, '--replace', '3:0', meta_path])
            env = dict(os.environ)
            env.pop('DISPLAY', None)
            q = run([a.glreplay, 'replay', f, '--verify'], env=env)
            if p.returncode != 0 or q.returncode != 2 or not single_error_line(q.stderr):
                fail('INITIAL_STATE holding JSON text: replay must give one error line and exit 2: ' + describe(q))
            else:
                print('ok  %-44s %s' % ('INITIAL_STATE not a state', q.stderr.strip()))
        if img_ids:
            key = '7:%d' % img_ids[0]
            img_path = os.path.join(tmp, 'img.bin')
            run([a.edit, '--extract', src, key, img_path])
            img = open(img_path, 'rb').read()
            edited('reference image header cut', 'image', replace=[(key, img[:10])])
            v3 = bytearray(img)
            struct.pack_into('<I', v3, 0, 3)
            edited('reference image layout version 3', 'image', replace=[(key, bytes(v3))])
            # layout 2 (framebuffer and attachment after the 24-byte layout-1 header) naming a
            # framebuffer object's attachment that is no colour buffer
            body = img[24:] if struct.unpack_from('<I', img, 0)[0] == 1 else img[32:]
            att = bytearray(img[:24]) + struct.pack('<II', 1, 0x1234) + body
            struct.pack_into('<I', att, 0, 2)
            edited('reference image attachment not a colour buffer', 'image', replace=[(key, bytes(att))])
            edited('reference image missing pixels', 'image', replace=[(key, img[:-4])])
            huge = bytearray(img)
            struct.pack_into('<II', huge, 12, 70000, 70000)
            edited('reference image 70000x70000', 'image', replace=[(key, bytes(huge))])
        print('%d corruption cases, %d failures' % (len(flips) + 41, len(FAILURES)))
        return 1 if FAILURES else 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['sample', 'synthetic', 'corrupt'])
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--count', type=int, default=3)
    ap.add_argument('--first', type=int, default=0)
    ap.add_argument('--xfail')
    ap.add_argument('--synth')
    ap.add_argument('--edit')
    ap.add_argument('--capture')
    argv = sys.argv[1:]
    app = []
    if '--' in argv:
        app = argv[argv.index('--') + 1:]
        argv = argv[:argv.index('--')]
    try:
        a = ap.parse_args(argv)
    except SystemExit:
        # A known-failure test must not count a broken command line as its expected failure.
        return 0 if '--xfail' in argv else 2
    a.app = app
    return {'sample': cmd_sample, 'synthetic': cmd_synthetic, 'corrupt': cmd_corrupt}[a.mode](a)


if __name__ == '__main__':
    sys.exit(main())
