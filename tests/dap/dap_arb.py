#!/usr/bin/env python3
"""Breakpoints in an ARB fragment program over DAP (`glreplay dap`), on Debian's piglit.

Captures piglit's arb_fragment_program/fdo30337a.shader_test (shader_runner -auto -fbo, waffle's
surfaceless EGL: no X) and writes its fragment program to a file on disk: a breakpoint on the
file's line 7 ("ADD color.x, color.x, color.x;") binds by text to the captured ARB program.
Checks:
  * the stop (reason breakpoint) is on line 7 of that file;
  * Locals holds the ARB temporary `color` = {0.1, 0.4, 0.8, 1.0} (line 6 ran, line 7 not yet);
  * `next` moves to line 8 and `color` is then {0.2, 0.4, 0.8, 1.0} (the ADD ran);
  * evaluate of `color.x * 10.0` answers 2.

Usage: dap_arb.py GLREPLAY [PIGLIT_DIR]"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))
import dap_bench_client as dap  # noqa: E402

TEST = 'arb_fragment_program/fdo30337a.shader_test'


def floats(text):
    return [float(x) for x in re.findall(r'-?\d+(?:\.\d+)?(?:e-?\d+)?', text.split('(', 1)[-1])]


def fragment_program(path):
    """The [fragment program] section's text, up to and including END."""
    text = open(path).read()
    body = text.split('[fragment program]\n', 1)[1]
    return body[:body.index('END') + 3] + '\n'


def locals_of(c, tid=1):
    st = c.request('stackTrace', {'threadId': tid})['body']['stackFrames']
    assert st, 'no frames'
    scopes = c.request('scopes', {'frameId': st[0]['id']})['body']['scopes']
    loc = next(s for s in scopes if s['name'] == 'Locals')
    vs = c.request('variables', {'variablesReference': loc['variablesReference']})['body']['variables']
    return st[0], {v['name']: v['value'] for v in vs}


def close(v, want):
    return len(v) == len(want) and all(abs(a - b) < 1e-6 for a, b in zip(v, want))


def main():
    glreplay = sys.argv[1]
    piglit = sys.argv[2] if len(sys.argv) > 2 else '/usr/lib/x86_64-linux-gnu/piglit'
    tmp = tempfile.mkdtemp(prefix='glr-arb-')
    os.chmod(tmp, 0o700)
    srv = None
    try:
        spec = os.path.join(piglit, 'tests', 'spec', TEST)
        if not os.path.exists(spec):
            raise AssertionError('%s is missing (Debian package piglit)' % spec)
        cap = os.path.join(tmp, 'arb.glcap')
        env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl', EGL_PLATFORM='surfaceless')
        p = subprocess.run([glreplay, 'capture', '--frame', '0', '--out', cap, '--',
                            os.path.join(piglit, 'bin', 'shader_runner'), spec, '-auto', '-fbo'],
                           env=env, capture_output=True, timeout=90)
        assert p.returncode == 0 and os.path.exists(cap), 'capture failed: %s' % p.stderr.decode()[-400:]
        src = os.path.join(tmp, 'fdo30337a.fp')
        with open(src, 'w') as f:
            f.write(fragment_program(spec))
        lines = open(src).read().split('\n')
        assert lines[6].startswith('ADD color.x, color.x, color.x;'), 'line 7 is %r' % lines[6]

        sock = os.path.join(tmp, 's.sock')
        srv = subprocess.Popen([glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.DEVNULL)
        c = dap.connect(sock)
        t = dap.start_session(c, {src: [{'line': 7}]})
        ev = c.wait_event('stopped', after=t)[1]
        assert ev['body']['reason'] == 'breakpoint', 'stopped: %s' % ev['body']
        frame, loc = locals_of(c)
        assert frame['line'] == 7 and frame['source'].get('path') == src, 'top frame %s' % frame
        got = floats(loc.get('color', ''))
        assert close(got, [0.1, 0.4, 0.8, 1.0]), 'color = %r before line 7' % loc.get('color')

        c.request('next', {'threadId': 1})
        c.wait_event('stopped')
        frame, loc = locals_of(c)
        assert frame['line'] == 8, 'after next: line %s' % frame['line']
        got = floats(loc.get('color', ''))
        assert close(got, [0.2, 0.4, 0.8, 1.0]), 'color = %r after the ADD' % loc.get('color')
        r = c.request('evaluate', {'expression': 'color.x * 10.0', 'frameId': frame['id'], 'context': 'watch'})
        assert close(floats(r['body']['result']), [2.0]), 'evaluate: %s' % r['body']['result']
        c.close()
        print('dap_arb: stop at line 7 with TEMP color %s, next to line 8 with color.x = 0.2' % got)
        return 0
    except (AssertionError, dap.DapError, OSError, subprocess.TimeoutExpired, KeyError, ValueError,
            StopIteration, IndexError) as e:
        print('dap_arb: FAIL: %r' % e, file=sys.stderr)
        return 1
    finally:
        if srv:
            srv.terminate()
            try:
                srv.wait(10)
            except subprocess.TimeoutExpired:
                srv.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
