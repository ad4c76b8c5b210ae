#!/usr/bin/env python3
"""A program writing through a persistent coherent mapping every frame: its frames captured from
frame 0 and from a later frame (the mapping then predates the capture) replay pixel-exactly, in a
loop. Also: the program behaves identically with and without the shim."""
import os
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '8'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    for frames in ('0-2', '4-5'):
        out = os.path.join(d, 'p%s.glcap' % frames)
        run = subprocess.run([prog, '8'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                     GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '3'], env=env,
                             capture_output=True, text=True)
        print(rep.stdout, rep.stderr)
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
            sys.exit('replay of frames %s failed' % frames)
        info = subprocess.run([glreplay, 'info', out], env=env, capture_output=True, text=True).stdout
        print(info)
print('persistent coherent mapping: OK')
