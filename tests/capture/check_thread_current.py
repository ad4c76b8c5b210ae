#!/usr/bin/env python3
"""A context already current on a second thread when the capture starts
(tests/capture/thread_current.c): its first call of every frame adds a colour into a texture. The
capture of frames 2-3 must hold that texture as it was before the frame's first draw, so
`glreplay replay --verify` reads back exactly what the program read (before the fix the snapshot
was read after that draw, and the replay added it twice). The program's output is the same with
and without the shim.
Usage: PROG SHIM GLREPLAY"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True, timeout=30)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)

with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 't.glcap')
    run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='2-3',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True, timeout=30)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
    rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True, timeout=30)
    print(rep.stdout[-3000:], rep.stderr[-2000:])
    if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
        sys.exit('replay --verify failed (exit %d)' % rep.returncode)
    # The worker's two read-backs (one per captured frame) must have been compared.
    m = re.search(r'read-backs: (\d+) checked, 0 differ', rep.stdout)
    if not m or int(m.group(1)) < 2:
        sys.exit('replay --verify did not check the worker\'s read-backs')
    bad = re.search(r'(\d+) bad', rep.stdout)
    if not bad or bad.group(1) != '0':
        sys.exit('the replay refused calls')
print('ok')
