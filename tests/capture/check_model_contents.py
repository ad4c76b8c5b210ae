#!/usr/bin/env python3
"""`glreplay model --compare` on a capture taken from a later frame of a program that draws over
what earlier frames left without clearing it: the model starts from the snapshot's saved pixels
(RESOURCE_BLOB contents: the window's colour and depth/stencil, renderbuffers, every sample of
multisample renderbuffers and textures; gpu_model/frame/gmf_initial_contents.c). Every comparison
(after each draw/clear, and each swapped frame against the captured image and the driver) must agree
on >= 99.9% of the pixels; without the contents such captures scored ~25-90%.
Usage: check_model_contents.py PROG SHIM GLREPLAY FRAMES CAPTURE_RANGE"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay, frames, captured = sys.argv[1:6]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
name = os.path.basename(prog)
first, last = (int(x) for x in captured.split('-'))
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'later.glcap')
    run = subprocess.run([prog, frames], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=captured,
                                                  GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(out):
        sys.exit('%s under the shim failed: %s %s' % (name, run.stdout, run.stderr))
    with open(out, 'rb') as f:
        if b'"initial_state":"snapshot"' not in f.read():
            sys.exit('the capture of frames %s has no snapshot' % captured)
    model = subprocess.run([glreplay, 'model', out, '--compare'], env=env, capture_output=True, text=True)
    print(model.stdout, model.stderr)
    if model.returncode != 0 or 'compare: PASS' not in model.stdout:
        sys.exit('model --compare failed')
    shown = [int(f) for f in re.findall(r'^frame (\d+) \(', model.stdout, re.M)]
    if shown != list(range(first, last + 1)):
        sys.exit('expected the swaps of frames %s, got %r' % (captured, shown))
    # every comparison: after each draw/clear, each swap, each target's summary (not the PASS line)
    lines = [l for l in model.stdout.splitlines() if re.match(r'(draw|clear|frame|target) ', l)]
    scores = [float(s) for l in lines for s in re.findall(r'([0-9.]+)%', l)]
    if not scores or min(scores) < 99.9:
        sys.exit('a comparison agrees on less than 99.9%%: lowest %s%%' % (min(scores) if scores else None))
print('%s from frames %s in the model: OK (%d comparisons, lowest %.4f%%)' % (name, captured, len(scores), min(scores)))
