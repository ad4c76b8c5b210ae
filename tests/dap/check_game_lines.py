#!/usr/bin/env python3
"""Lines as the program's text numbers them, on a real game: OpenArena's GL2 renderer (ioquake3)
prepends a prelude to each shader and then `#line 0`, so glslang's numbering after the directive
repeats the prelude's. A mid-run frame is captured (tests/support/game_capture.py); the source of a
fragment shader with a `#line` is read over DAP (`glreplay dap --stdio`, request `source`); then
`glreplay debug` on the physical line of its last `gl_FragColor` statement must stop on that line
with that statement shown (the model numbered it 31 before, and answered "no code on this line").
Usage: check_game_lines.py SHIM GLREPLAY OPENARENA"""
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from game_capture import capture_game  # noqa: E402

shim, cli, game = sys.argv[1:4]


def dap_sources(cap, refs):
    """The text of the shaders with these sourceReferences, from a `glreplay dap --stdio` session."""
    msgs = [('initialize', {'adapterID': 'glreplay'})] + [('source', {'sourceReference': r}) for r in refs] + \
           [('disconnect', {})]
    data = b''
    for i, (cmd, args) in enumerate(msgs):
        body = json.dumps({'seq': i + 1, 'type': 'request', 'command': cmd, 'arguments': args}).encode()
        data += b'Content-Length: %d\r\n\r\n' % len(body) + body
    out = subprocess.run([cli, 'dap', '--stdio', cap], input=data, capture_output=True, timeout=120).stdout
    texts = {}
    while out:
        m = re.match(rb'Content-Length: (\d+)\r\n\r\n', out)
        if not m:
            break
        n = int(m.group(1))
        msg = json.loads(out[m.end():m.end() + n])
        out = out[m.end() + n:]
        if msg.get('command') == 'source' and msg.get('success'):
            texts[refs[msg['request_seq'] - 2]] = msg['body']['content']
    return texts


with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, 'oa.glcap')
    ok, msg = capture_game([game, '+set', 'cl_renderer', 'opengl2', '+set', 's_initsound', '0', '+timedemo', '1',
                            '+demo', 'demo088-test1'], shim, 100, cap, timeout=200)
    if not ok:
        sys.exit('FAIL: ' + msg)
    print(msg)
    listing = subprocess.run([cli, 'debug', cap, '--list'], capture_output=True, text=True).stdout
    shaders = re.findall(r'^\s*(\d+)\s+(\S+\.frag)\s+FS of', listing, re.M)
    texts = dap_sources(cap, [int(n) for n, _ in shaders[:8]])
    target = None
    for n, name in shaders[:8]:
        lines = texts.get(int(n), '').split('\n')
        directive = [i for i, l in enumerate(lines) if l.strip().startswith('#line')]
        frag = [i for i, l in enumerate(lines) if 'gl_FragColor' in l and not l.strip().startswith('#')]
        if directive and frag and frag[-1] > directive[0]:
            target = (name, frag[-1] + 1, lines[frag[-1]].strip(), directive[0] + 1)
            break
    if not target:
        sys.exit('FAIL: no fragment shader with a #line and a later gl_FragColor among %s' % shaders[:8])
    name, line, text, dline = target
    r = subprocess.run([cli, 'debug', cap, '--break', '%s:%d' % (name, line), '--no-timing', '--timeout', '240'],
                       capture_output=True, text=True, timeout=300)
    head = r.stdout.split('\n')[:4]
    if r.returncode != 0 or '%s:%d (' % (name, line) not in head[0] or text not in '\n'.join(head):
        sys.exit('FAIL: breakpoint on %s:%d (%s; #line on line %d) did not stop there:\n%s%s' %
                 (name, line, text, dline, r.stdout[-800:], r.stderr[-400:]))
    print('PASS: %s has #line on line %d; a breakpoint on line %d (%s) stops there:\n%s' %
          (name, dline, line, text, '\n'.join(head)))
