#!/usr/bin/env python3
"""Capture on request over the program's socket: a sample runs under the shim; a client asks for
`status`, then `capture 1 PATH` and gets "ok PATH" once the file is written, while the program keeps
running. Also: the socket is 0600 in a 0700 directory, garbage and over-long lines get an error
reply without disturbing the program, and a client of another uid cannot connect."""
import os
import socket
import stat
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import e2e_util  # noqa: E402

sample, shim = sys.argv[1:3]


def ask(path, line, timeout=60):
    return e2e_util.ask_socket(path, line, timeout)


with tempfile.TemporaryDirectory() as d:
    os.chmod(d, 0o755)
    sockdir = os.path.join(d, 'run')
    sock = os.path.join(sockdir, 'app.sock')
    out = os.path.join(d, 'req.glcap')
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_SOCKET=sock)
    prog = subprocess.Popen([sample, '--frames', '4000', '--size', '64x64'], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(200):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        else:
            sys.exit('socket never appeared')
        st = os.stat(sock)
        if stat.S_IMODE(st.st_mode) != 0o600 or stat.S_IMODE(os.stat(sockdir).st_mode) != 0o700:
            sys.exit('bad permissions: socket %o dir %o' % (stat.S_IMODE(st.st_mode),
                                                             stat.S_IMODE(os.stat(sockdir).st_mode)))
        r = ask(sock, 'status')
        if not r.startswith('ok pid %d' % prog.pid):
            sys.exit('status reply: %r' % r)
        r = ask(sock, 'no such request')
        if not r.startswith('error'):
            sys.exit('garbage reply: %r' % r)
        r = ask(sock, 'x' * 10000)
        if not r.startswith('error'):
            sys.exit('long line reply: %r' % r)
        # Counts that do not fit (2^32 + 1 would wrap to 1) or are negative: refused, nothing captured.
        for bad in ('capture 4294967297 %s' % out, 'capture -1 %s' % out, 'capture 99999999999999999999999 %s' % out):
            r = ask(sock, bad)
            if not r.startswith('error') or os.path.exists(out):
                sys.exit('%r: reply %r, file written: %s' % (bad, r, os.path.exists(out)))
        # A client that connects and never reads nor writes must not block anything.
        idle = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        idle.connect(sock)
        r = ask(sock, 'capture 1 %s' % out)
        if r != 'ok %s' % out or not os.path.getsize(out):
            sys.exit('capture reply: %r' % r)
        r2 = ask(sock, 'status')
        if not r2.startswith('ok'):
            sys.exit('program stopped answering after the capture: %r' % r2)
        idle.close()
        if os.getuid() == 0 and subprocess.run(['which', 'setpriv'], capture_output=True).returncode == 0:
            other = subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', sys.executable,
                                    '-c', 'import socket,sys; s=socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])',
                                    sock], capture_output=True, text=True)
            if other.returncode == 0:
                sys.exit('a client of another uid could connect')
        if prog.poll() is not None:
            sys.exit('program died: %s' % prog.stderr.read())
        # Let it finish normally: the socket file goes away with the program.
        prog.wait(timeout=90)
        if prog.returncode != 0:
            sys.exit('program exit status %d: %s' % (prog.returncode, prog.stderr.read()))
        if os.path.exists(sock):
            sys.exit('socket not removed at exit')
    finally:
        if prog.poll() is None:
            prog.kill()
            prog.wait()
print('socket capture OK')
