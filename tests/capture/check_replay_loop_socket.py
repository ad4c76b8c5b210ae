#!/usr/bin/env python3
"""The in-process replay loop requested over the program's socket (shim/ipc.c): `loop N` and
`capture COUNT PATH loop N` reply once the passes ran in the program's window; bad requests get an
error; the program keeps running and answering, and exits normally.
usage: check_replay_loop_socket.py SAMPLE SHIM"""
import os
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import e2e_util  # noqa: E402

sample, shim = sys.argv[1:3]


def ask(path, line, timeout=120):
    return e2e_util.ask_socket(path, line, timeout)


failures = []
with tempfile.TemporaryDirectory() as d:
    sock = os.path.join(d, 'run', 'app.sock')
    out = os.path.join(d, 'two.glcap')
    env = dict((k, v) for k, v in os.environ.items() if not k.startswith('GLREPLAY_'))
    env.update(LD_PRELOAD=shim, GLREPLAY_SOCKET=sock, GLREPLAY_LOG='info', GLREPLAY_REPLAY_LOOP_VERIFY='1')
    err_path = os.path.join(d, 'stderr.txt')
    with open(err_path, 'w') as err_file:
        prog = subprocess.Popen([sample, '--frames', '1000000', '--size', '96x64'], env=env,
                                stdout=subprocess.DEVNULL, stderr=err_file, text=True)
        try:
            for _ in range(200):
                if os.path.exists(sock):
                    break
                time.sleep(0.05)
            else:
                sys.exit('socket never appeared')
            r = ask(sock, 'loop 3')
            if not r.startswith('ok loop 3 passes '):
                failures.append('loop 3 reply: %r' % r)
            elif os.path.exists(r.split(' ', 4)[4]):
                failures.append('the private capture file of `loop 3` was left behind: %r' % r)
            r = ask(sock, 'capture 2 %s loop 2' % out)
            if r != 'ok loop 2 passes %s' % out or not os.path.getsize(out):
                failures.append('capture 2 PATH loop 2 reply: %r' % r)
            for bad in ('loop', 'loop x', 'loop 0', 'loop -3', 'loop 100001', 'capture 1 %s loop' % out,
                        'capture 1 %s loop y' % out, 'capture 1 loop 2'):
                r = ask(sock, bad)
                if not r.startswith('error'):
                    failures.append('%r got %r, expected an error' % (bad, r))
            r = ask(sock, 'status')
            if not r.startswith('ok pid %d' % prog.pid):
                failures.append('status after the loops: %r' % r)
            if prog.poll() is not None:
                failures.append('the program died (exit %s)' % prog.returncode)
        finally:
            if prog.poll() is None:
                prog.terminate()
            prog.wait(timeout=60)
    log = open(err_path).read()
    # Two loops ran: 3 passes of one frame, then 2 passes of two frames, each image verified.
    if 'replay loop: 3 passes ran' not in log or 'replay loop: 2 passes ran' not in log:
        failures.append('the log does not show both loops:\n' + log[-2000:])
    if log.count('identical to reference') != 3 + 2 * 2 or 'differs' in log or 'abandoned' in log:
        failures.append('expected 7 verified frame images and no trouble:\n' + log[-2000:])

for f in failures:
    print('FAIL: ' + f)
if failures:
    sys.exit('%d failure(s)' % len(failures))
print('replay loop over the socket: all checks passed')
