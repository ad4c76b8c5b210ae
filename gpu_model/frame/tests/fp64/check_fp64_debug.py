#!/usr/bin/env python3
"""Doubles in the shader debugger: a double variable shows as its double value (gm_type_desc
width -> shadow sh_type width -> sh_format_value / the DAP evaluator), not as two floats.

Captures frame 0 of fp64_sample (EGL surfaceless) and stops on the fragment shader's last line
(a file holding that line: breakpoints bind by text), where the locals are
  dvec3 dcol (flat varying), double dw (flat varying), dmat2 dm (flat varying),
  double t = dcol.x * 1.0e7 + dw, dvec3 f, double det = determinant(dm).
Checks, with `glreplay debug --json` and text output (draw 0, pixel 20,20: the first
triangle, whose provoking vertex is the sample's third dvec4 row) and then over DAP:
  * the types read double / dvec3 / dmat2 and the values are doubles: t equals
    dcol.x * 1e7 + dw computed here from the shown dcol and dw to 1e-6 (float precision at 7e6 is
    0.5), dcol.x = 0.7071067811865 * 1.0000001 to 1e-15;
  * DAP Locals show the same; evaluate `t`, `dcol.y`, `-dm[1]` keep the double value and type;
    `t + 1.0` computes in float (type float).

Usage: check_fp64_debug.py GLREPLAY SHIM FP64_SAMPLE BENCH_DIR"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

FRAG_LINE = ("  o = vec4(vec3(f), float(fract(t)) * 0.5 + "
             "float(clamp(det, -1.0LF, 1.0LF)) * 0.25 + 0.25);\n")


def nums(text):
    return [float(x) for x in re.findall(r'-?\d+(?:\.\d+)?(?:e[-+]?\d+)?', text.split('(', 1)[-1])]


def check_values(where, types, values):
    """types/values: name -> text. Asserts the doubles' types and values."""
    for name, want in (('t', 'double'), ('dw', 'double'), ('dcol', 'dvec3'), ('dm', 'dmat2'),
                       ('det', 'double')):
        if name in types:
            assert types[name] == want, '%s: %s has type %r' % (where, name, types[name])
    dcol, dw, t = nums(values['dcol']), nums(values['dw']), nums(values['t'])
    assert len(dcol) == 3 and len(dw) == 1 and len(t) == 1, \
        '%s: dcol %r dw %r t %r' % (where, values['dcol'], values['dw'], values['t'])
    want = dcol[0] * 1.0e7 + dw[0]
    assert abs(t[0] - want) < 1e-6, '%s: t = %r, expected %.17g' % (where, values['t'], want)
    assert len(nums(values['dm'])) == 4, '%s: dm = %r' % (where, values['dm'])
    return dcol, t[0]


def cli_checks(glreplay, cap, frag):
    p = subprocess.run([glreplay, 'debug', cap, '--break', frag + ':1', '--draw', '0',
                        '--pixel', '20,20', '--json'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=120)
    assert p.returncode == 0, 'glreplay debug --json: rc %d %s' % (p.returncode, p.stderr.decode())
    snap = json.loads(p.stdout)
    types = {v['name']: v['type'] for v in snap['variables']}
    values = {v['name']: v.get('value', '') for v in snap['variables']}
    dcol, t = check_values('debug --json', types, values)
    want_x = 0.7071067811865 * 1.0000001
    assert abs(dcol[0] - want_x) < 1e-15, 'dcol.x = %.17g, expected %.17g' % (dcol[0], want_x)
    p = subprocess.run([glreplay, 'debug', cap, '--break', frag + ':1', '--draw', '0',
                        '--pixel', '20,20'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=120)
    text = p.stdout.decode()
    m = re.search(r'^\s*double\s+t\s+= (\S+)$', text, re.M)
    assert p.returncode == 0 and m and abs(float(m.group(1)) - t) < 1e-6, \
        'glreplay debug text: no "double t = %.17g" line in:\n%s' % (t, text[:1500])
    print('check_fp64_debug: glreplay debug shows double t = %s, dcol.x = %.17g' % (m.group(1), dcol[0]))


def dap_checks(glreplay, cap, frag, tmp, dap):
    sock = os.path.join(tmp, 'dap.sock')
    srv = subprocess.Popen([glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.DEVNULL)
    try:
        c = dap.connect(sock)
        tick = dap.start_session(c, {frag: [{'line': 1}]})
        ev = c.wait_event('stopped', after=tick)[1]
        assert ev['body']['reason'] == 'breakpoint', 'stopped: %s' % ev['body']
        st = c.request('stackTrace', {'threadId': 1})['body']['stackFrames']
        scopes = c.request('scopes', {'frameId': st[0]['id']})['body']['scopes']
        loc = [s for s in scopes if s['name'] == 'Locals']
        assert loc, 'no Locals scope: %s' % [s['name'] for s in scopes]
        vs = c.request('variables', {'variablesReference': loc[0]['variablesReference']})['body']['variables']
        values = {v['name']: v['value'] for v in vs}
        types = {v['name']: v['type'] for v in vs if 'type' in v}
        dcol, t = check_values('DAP Locals', types, values)

        def ev_(expr):
            r = c.request('evaluate', {'expression': expr, 'frameId': st[0]['id'], 'context': 'watch'})
            return r['body']['result'], r['body'].get('type', '')
        got, ty = ev_('t')
        assert abs(nums(got)[0] - t) < 1e-6 and ty == 'double', 'evaluate t: %r %r' % (got, ty)
        got, ty = ev_('dcol.y')
        assert nums(got)[0] == dcol[1] and ty == 'double', 'evaluate dcol.y: %r %r' % (got, ty)
        dm = nums(values['dm'])
        got, ty = ev_('-dm[1]')
        assert nums(got) == [-dm[2], -dm[3]] and ty == 'dvec2', 'evaluate -dm[1]: %r %r' % (got, ty)
        got, ty = ev_('t + 1.0')
        assert ty == 'float' and abs(nums(got)[0] - (t + 1)) < 1.0, 'evaluate t + 1.0: %r %r' % (got, ty)
        c.close()
        print('check_fp64_debug: DAP Locals t = %s, evaluate dcol.y = %.17g' % (values['t'], dcol[1]))
    finally:
        srv.terminate()
        try:
            srv.wait(10)
        except subprocess.TimeoutExpired:
            srv.kill()


def main():
    glreplay, shim, exe, bench = sys.argv[1:5]
    sys.path.insert(0, bench)
    import dap_bench_client as dap
    tmp = tempfile.mkdtemp(prefix='glr-fp64-')
    os.chmod(tmp, 0o700)
    try:
        cap = os.path.join(tmp, 'fp64.glcap')
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES='0', GLREPLAY_CAPTURE_OUT=cap,
                   LD_PRELOAD=shim, EGL_PLATFORM='surfaceless')
        p = subprocess.run([exe, '--frames', '1'], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            raise AssertionError('capture failed: %s' % p.stderr.decode()[-400:])
        frag = os.path.join(tmp, 'fp64.frag')
        with open(frag, 'w') as f:
            f.write(FRAG_LINE)
        cli_checks(glreplay, cap, frag)
        dap_checks(glreplay, cap, frag, tmp, dap)
        print('check_fp64_debug: all checks passed')
        return 0
    except (AssertionError, dap.DapError, OSError, subprocess.TimeoutExpired, KeyError,
            ValueError, IndexError) as e:
        print('check_fp64_debug: FAIL: %r' % e, file=sys.stderr)
        return 1
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
