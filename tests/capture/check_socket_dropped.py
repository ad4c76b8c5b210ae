#!/usr/bin/env python3
"""A capture asked for over the socket and dropped while recording (here GLREPLAY_CAPTURE_MAX_MB=0:
the first record exceeds the budget) is ended at the next swap: the requester gets its "error" reply
at once, not when a deadline passes or the program exits, and the next request starts a new capture
(which is dropped the same way). The program runs on; nothing is written."""
import os
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
    sock = os.path.join(d, 'run', 'app.sock')
    out = os.path.join(d, 'dropped.glcap')
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_SOCKET=sock, GLREPLAY_CAPTURE_MAX_MB='0')
    # Far more frames than the test needs: the replies must come from the swaps, not the exit.
    prog = subprocess.Popen([sample, '--frames', '1000000', '--size', '64x64'], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    try:
        for _ in range(400):
            if os.path.exists(sock):
                break
            time.sleep(0.05)
        else:
            sys.exit('socket never appeared')
        for k in range(2):
            t0 = time.monotonic()
            r = ask(sock, 'capture 1 %s' % out)
            took = time.monotonic() - t0
            # 20 s: far above the one swap it takes, far below the request's own deadline.
            if not r.startswith('error') or took > 20 or os.path.exists(out):
                sys.exit('request %d: reply %r after %.1f s, file written: %s' % (k, r, took, os.path.exists(out)))
            print('request %d: %r after %.2f s' % (k, r, took))
        r = ask(sock, 'status')
        if not r.startswith('ok pid %d' % prog.pid):
            sys.exit('status after the dropped captures: %r' % r)
    finally:
        prog.terminate()
        _, err = prog.communicate(timeout=60)
    if err.count('nothing written (the capture exceeds GLREPLAY_CAPTURE_MAX_MB)') != 2:
        sys.exit('expected two dropped captures in the log: %s' % err[-800:])
    print('check_socket_dropped: two dropped captures answered at once; the program went on')
