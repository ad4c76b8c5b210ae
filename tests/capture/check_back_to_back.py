#!/usr/bin/env python3
"""Two captures back to back do not block the program: GLREPLAY_CAPTURE_FRAMES=0-4 ends a capture at
frame 4's swap, and right after it the program starts a second one (glreplay_capture_begin, the
in-app API) while the first file is still being written. The writer is made slow on purpose
(GLREPLAY_CAPTURE_TEST_WRITER_DELAY_MS=2000 before it finishes each file): a begin that waited for
the first file, as it did before the writer queue, takes over 2 s; queued, it takes the time of a
snapshot. Both files are then complete and `glreplay replay --verify` passes on each.
usage: check_back_to_back.py RECORD_COST SHIM GLREPLAY_CLI"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, cli = sys.argv[1:4]
DELAY_MS = 2000
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
for k in list(env):
    if k.startswith('GLREPLAY_'):
        del env[k]
with tempfile.TemporaryDirectory() as tmp:
    a, b = os.path.join(tmp, 'a.glcap'), os.path.join(tmp, 'b.glcap')
    run = subprocess.run([prog, '--frames', '10', '--calls', '20000', '--inapp-begin', '4', b],
                         env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='0-4', GLREPLAY_CAPTURE_OUT=a,
                                  GLREPLAY_CAPTURE_TEST_WRITER_DELAY_MS=str(DELAY_MS), GLREPLAY_LOG='info'),
                         capture_output=True, text=True, timeout=120)
    if run.returncode != 0:
        sys.exit('record_cost failed: %s' % run.stderr[-800:])
    m = re.search(r'record_cost_inapp begin_ns=(\d+) rc=(-?\d+)', run.stdout)
    if not m or m.group(2) != '0':
        sys.exit('the second capture did not start: %s %s' % (run.stdout, run.stderr[-800:]))
    begin_ms = int(m.group(1)) / 1e6
    print('glreplay_capture_begin while the first file is written: %.1f ms (writer delay %d ms)'
          % (begin_ms, DELAY_MS))
    if begin_ms >= DELAY_MS / 2:
        sys.exit('the second capture waited for the first file (%.0f ms)' % begin_ms)
    if run.stderr.count('capture: wrote') != 2:
        sys.exit('expected two files written: %s' % run.stderr[-800:])
    for path, frames in ((a, '0-4'), (b, '5-10')):
        info = subprocess.run([cli, 'info', path], capture_output=True, text=True)
        if info.returncode != 0 or ('frames: %s ' % frames) not in info.stdout:
            sys.exit('%s: not the frames %s: %s %s' % (path, frames, info.stdout[:300], info.stderr[-300:]))
        rep = subprocess.run([cli, 'replay', path, '--verify'], env=env, capture_output=True, text=True)
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
            sys.exit('%s: replay --verify failed: %s %s' % (path, rep.stdout[-500:], rep.stderr[-300:]))
        print('%s: %s' % (os.path.basename(path), rep.stdout.strip().splitlines()[-1]))
