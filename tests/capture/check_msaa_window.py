#!/usr/bin/env python3
"""A multisampled window (EGL pbuffer with EGL_SAMPLES 4): the capture records the window's sample
count in METADATA, `glreplay replay --verify` replays on a 4x pbuffer and matches the captured image,
and `glreplay model --compare` draws into a 4x default framebuffer and agrees with both the driver
and the captured image (>= 99.9%; single-sampled it agreed on ~98%)."""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '4'], env=env, capture_output=True, text=True)
if native.returncode != 0 or '4 samples' not in native.stdout or 'error 0x0' not in native.stdout:
    sys.exit('native run failed (no 4x pbuffer?): %s %s' % (native.stdout, native.stderr))
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'w2.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='2',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
    with open(out, 'rb') as f:
        if b'"samples":4' not in f.read():
            sys.exit('METADATA does not record the window\'s 4 samples')
    rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
    print(rep.stdout, rep.stderr)
    if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
        sys.exit('replay --verify of the 4x window failed')
    model = subprocess.run([glreplay, 'model', out, '--compare'], env=env, capture_output=True, text=True)
    print(model.stdout, model.stderr)
    if model.returncode != 0 or 'compare: PASS' not in model.stdout:
        sys.exit('model --compare failed')
    m = re.search(r'frame 2 \(context 1, 64x48\): reference ([0-9.]+)% driver ([0-9.]+)%', model.stdout)
    if not m or float(m.group(1)) < 99.9 or float(m.group(2)) < 99.9:
        sys.exit('the model\'s swapped image does not agree with the captured image and the driver')
print('multisampled window in the model: OK')
