#!/usr/bin/env python3
"""The debugger engine (libglreplay-engine.so) is loaded into the program only when a debugger
attaches: a sample under the shim runs and swaps with the engine absent from its mappings; a DAP
`initialize` over its socket loads it from the shim's directory (the program's maps then list it,
the client gets a response). With GLREPLAY_ENGINE naming a missing file the attach is refused with
a one-line output event and a terminated event, and the program goes on swapping, undisturbed.

Usage: check_engine_load.py SAMPLE SHIM"""
import json
import os
import socket
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import e2e_util  # noqa: E402

sample, shim = sys.argv[1:3]
ENGINE = 'libglreplay-engine.so'


def ask(path, line, timeout=30):
    return e2e_util.ask_socket(path, line, timeout)


def frames(sock):
    r = ask(sock, 'status').split()
    if r[:1] != ['ok'] or 'frames' not in r:
        sys.exit('status reply: %r' % r)
    return int(r[r.index('frames') + 1])


def dap_messages(sock, request, until_event, timeout=60):
    """Sends one framed request; returns the messages read until `until_event` or the close."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(sock)
    body = json.dumps(request).encode()
    s.sendall(b'Content-Length: %d\r\n\r\n' % len(body) + body)
    buf, msgs = b'', []
    deadline = time.time() + timeout
    while time.time() < deadline:
        while b'\r\n\r\n' in buf:
            head, rest = buf.split(b'\r\n\r\n', 1)
            n = int(head.split(b':')[1])
            if len(rest) < n:
                break
            msgs.append(json.loads(rest[:n]))
            buf = rest[n:]
            if msgs[-1].get('event') == until_event or (until_event == 'response' and msgs[-1].get('type') == 'response'):
                s.close()
                return msgs
        try:
            chunk = s.recv(65536)
        except socket.timeout:
            break
        if not chunk:
            break
        buf += chunk
    s.close()
    return msgs


def mapped(pid):
    with open('/proc/%d/maps' % pid) as f:
        return ENGINE in f.read()


def start(d, extra_env):
    sock = os.path.join(d, 'run', 'app.sock')
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_SOCKET=sock, GLREPLAY_LIVE_PAUSE='0', **extra_env)
    prog = subprocess.Popen([sample, '--frames', '100000', '--size', '64x64'], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    for _ in range(400):
        if os.path.exists(sock):
            return prog, sock
        time.sleep(0.05)
    prog.kill()
    sys.exit('socket never appeared')


def grows(sock):
    f0 = frames(sock)
    for _ in range(200):
        time.sleep(0.05)
        if frames(sock) > f0:
            return True
    return False


def stop(prog):
    prog.terminate()
    try:
        prog.wait(30)
    except subprocess.TimeoutExpired:
        prog.kill()
        prog.wait()
    return prog.stderr.read()


init = {'seq': 1, 'type': 'request', 'command': 'initialize', 'arguments': {'adapterID': 'glreplay'}}
with tempfile.TemporaryDirectory() as d:
    # 1. Missing engine: a clear refusal, the program unaffected.
    prog, sock = start(d, {'GLREPLAY_ENGINE': os.path.join(d, 'nowhere', ENGINE)})
    try:
        if not grows(sock):
            sys.exit('the program does not swap under the shim')
        msgs = dap_messages(sock, init, 'terminated')
        out = [m['body']['output'] for m in msgs if m.get('event') == 'output']
        if not out or 'cannot load the debugger engine' not in out[0] or out[0].count('\n') != 1:
            sys.exit('missing engine: expected one output line naming the engine, got %r' % msgs)
        if not msgs or msgs[-1].get('event') != 'terminated':
            sys.exit('missing engine: no terminated event: %r' % msgs)
        if mapped(prog.pid) or not grows(sock) or prog.poll() is not None:
            sys.exit('missing engine: the program was disturbed')
    finally:
        err = stop(prog)
    print('missing engine: %s' % out[0].strip())

with tempfile.TemporaryDirectory() as d:
    # 2. The engine beside the shim: not loaded until the attach, loaded by it.
    prog, sock = start(d, {})
    try:
        if not grows(sock):
            sys.exit('the program does not swap under the shim')
        if mapped(prog.pid):
            sys.exit('the engine is loaded before any debugger attached')
        msgs = dap_messages(sock, init, 'response')
        resp = [m for m in msgs if m.get('type') == 'response']
        if not resp or not resp[0].get('success'):
            sys.exit('attach: no successful initialize response: %r' % msgs)
        if not mapped(prog.pid):
            sys.exit('attach answered but %s is not mapped in the program' % ENGINE)
        if not grows(sock):
            sys.exit('the program stopped swapping after the attach')
    finally:
        err = stop(prog)
    if prog.returncode not in (0, -15):
        sys.exit('the program ended with %s: %s' % (prog.returncode, err[-500:]))
print('engine: loaded at the first attach only')
