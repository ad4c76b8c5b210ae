#!/usr/bin/env python3
"""Pixel transfer state around pixel rectangles in the GPU model (pixel_stencil.c): a stencil
glDrawPixels under GL_INDEX_SHIFT/OFFSET and GL_MAP_STENCIL (llvmpipe writes the indices as they
are), quads through stencil tests that show them, a scaled and biased RGBA glDrawPixels at 2x zoom
and its glCopyPixels, a texture uploaded (whole and a sub-image) under scale and bias. Frames captured from frame 0 and from frame 1 (the snapshot), run by
`glreplay model --compare`: nothing reported, every comparison at or above 99.9 %, and the program
prints the same checksum under the shim as without it.
Usage: PROG SHIM GLREPLAY"""
import os
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('LD_PRELOAD', None)
native = subprocess.run([prog, '3'], env=env, capture_output=True, text=True, timeout=60)
if native.returncode != 0:
    sys.exit('pixel_stencil failed natively: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    for frames in ('0-0', '1-1'):
        out = os.path.join(d, 'p%s.glcap' % frames)
        run = subprocess.run([prog, '3'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                    GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True,
                             timeout=60)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        model = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env,
                               capture_output=True, text=True, timeout=120)
        print(model.stdout[-2000:], model.stderr[-1000:])
        if model.returncode != 0 or 'compare: PASS' not in model.stdout or 'unsupported:' in model.stdout:
            sys.exit('frames %s: model --compare did not pass outright (exit %d)' % (frames, model.returncode))
print('pixel transfer around pixel rectangles in the GPU model: OK')
