#!/usr/bin/env python3
"""tests/capture/default_texture.c captured at a later frame (its texture, given to name 0 at
start-up, is in the snapshot): `glreplay replay --verify --gl-errors` matches the reference image
and reports no GL error (glGetError between glBegin and glEnd would raise one, blamed on glEnd).
Usage: PROG SHIM GLREPLAY"""
import os
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '4'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'f.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='2',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
    rep = subprocess.run([glreplay, 'replay', out, '--verify', '--gl-errors'], env=env, capture_output=True,
                         text=True)
    text = rep.stdout + rep.stderr
    print(text[-3000:])
    if rep.returncode != 0 or 'verify: PASS' not in text or 'frame 2' not in text:
        sys.exit('replay --verify of frame 2 did not pass (the default texture lost?)')
    if 'GL error' in text:
        sys.exit('replay --gl-errors reported GL errors')
print('default texture and glBegin/glEnd replay: OK')
