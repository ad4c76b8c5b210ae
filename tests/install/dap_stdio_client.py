#!/usr/bin/env python3
"""A small DAP client for tests/install/fresh_checks.sh: starts the installed `glreplay dap --stdio`
on a glmark2 capture (with nothing in its environment but DISPLAY), sets a breakpoint on line 22 of
glmark2's light-basic.vert (`Color = vec4(diffuse * MaterialDiffuse.rgb, ...)`, bound by the file's
text, which glmark2 prefixes with #defines), hit 50, and checks the stop: reason breakpoint, the top
frame on that line of that file, the locals N, L and diffuse with diffuse = max(dot(N, L), 0) as
GLSL line 21 computed it, and an `evaluate` of the same expression in the stopped lane.

usage: dap_stdio_client.py GLREPLAY DISPLAY_NUMBER CAPTURE SHADER_FILE"""
import json
import re
import subprocess
import sys
import threading

LINE = 22


class Dap:
    def __init__(self, argv, env):
        self.p = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
        self.seq = 0
        self.msgs = []
        self.cv = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        f = self.p.stdout
        while True:
            head = b''
            while not head.endswith(b'\r\n\r\n'):
                c = f.read(1)
                if not c:
                    with self.cv:
                        self.msgs.append(None)
                        self.cv.notify_all()
                    return
                head += c
            n = int(re.search(rb'Content-Length:\s*(\d+)', head, re.I).group(1))
            msg = json.loads(f.read(n))
            with self.cv:
                self.msgs.append(msg)
                self.cv.notify_all()

    def wait(self, pred, what, timeout=300):
        with self.cv:
            while True:
                for i, m in enumerate(self.msgs):
                    if m is None:
                        raise AssertionError('the adapter exited while waiting for %s' % what)
                    if pred(m):
                        return self.msgs.pop(i)
                if not self.cv.wait(timeout):
                    raise AssertionError('no %s in %d s' % (what, timeout))

    def send(self, cmd, args=None):
        self.seq += 1
        body = json.dumps({'seq': self.seq, 'type': 'request', 'command': cmd, 'arguments': args or {}}).encode()
        self.p.stdin.write(b'Content-Length: %d\r\n\r\n' % len(body) + body)
        self.p.stdin.flush()
        return self.seq

    def response(self, seq):
        m = self.wait(lambda m: m.get('type') == 'response' and m.get('request_seq') == seq, 'response %d' % seq)
        assert m['success'], '%s failed: %s' % (m.get('command'), m.get('message'))
        return m

    def request(self, cmd, args=None):
        return self.response(self.send(cmd, args))

    def event(self, name):
        return self.wait(lambda m: m.get('type') == 'event' and m.get('event') == name, 'event ' + name)


def floats(text):
    return [float(x) for x in re.findall(r'-?\d+(?:\.\d+)?(?:[eE][-+]?\d+)?', text.split('(', 1)[-1])]


def main():
    glreplay, disp, cap, shader = sys.argv[1:5]
    d = Dap([glreplay, 'dap', '--stdio', cap], {'DISPLAY': ':' + disp})
    try:
        d.request('initialize', {'clientID': 'fresh-checks', 'adapterID': 'glreplay', 'linesStartAt1': True,
                                 'columnsStartAt1': True, 'pathFormat': 'path'})
        attach = d.send('attach', {})
        d.event('initialized')
        r = d.request('setBreakpoints', {'source': {'path': shader},
                                         'breakpoints': [{'line': LINE, 'hitCondition': '== 50'}]})
        bp = r['body']['breakpoints'][0]
        assert bp.get('verified') and bp.get('line') == LINE, 'breakpoint: %s' % bp
        d.request('configurationDone')
        d.response(attach)
        ev = d.event('stopped')['body']
        assert ev['reason'] == 'breakpoint', 'stopped: %s' % ev
        threads = d.request('threads')['body']['threads']
        frames = d.request('stackTrace', {'threadId': ev.get('threadId', threads[0]['id'])})['body']['stackFrames']
        top = frames[0]
        assert top['line'] == LINE and top['source'].get('path') == shader, 'top frame: %s' % top
        scopes = d.request('scopes', {'frameId': top['id']})['body']['scopes']
        loc = next(s for s in scopes if s['name'] == 'Locals')
        vals = {v['name']: v['value'] for v in d.request('variables', {'variablesReference': loc['variablesReference']})['body']['variables']}
        n, l, diffuse = floats(vals['N']), floats(vals['L']), floats(vals['diffuse'])
        assert len(n) == 3 and len(l) == 3 and len(diffuse) == 1, 'locals: %s' % vals
        want = max(sum(a * b for a, b in zip(n, l)), 0.0)
        assert abs(diffuse[0] - want) < 1e-4, 'diffuse %s, max(dot(N, L), 0) = %s' % (diffuse, want)
        r = d.request('evaluate', {'expression': 'max(dot(N, L), 0.0)', 'frameId': top['id'], 'context': 'watch'})
        got = floats(r['body']['result'])
        assert got and abs(got[0] - diffuse[0]) < 1e-4, 'evaluate: %s' % r['body']['result']
        print('fresh_checks: dap --stdio: stopped at hit 50 of %s:%d (%s); N %s, L %s, diffuse %s'
              % (shader.rsplit('/', 1)[-1], LINE, threads[0]['name'], vals['N'], vals['L'], vals['diffuse']))
        d.send('disconnect', {})
        d.p.stdin.close()
        d.p.wait(30)
        return 0
    except (AssertionError, KeyError, StopIteration, ValueError, IndexError) as e:
        print('dap_stdio_client: FAIL: %r' % e, file=sys.stderr)
        return 1
    finally:
        if d.p.poll() is None:
            d.p.kill()


if __name__ == '__main__':
    sys.exit(main())
