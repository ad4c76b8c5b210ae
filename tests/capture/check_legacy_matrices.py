#!/usr/bin/env python3
"""Legacy matrices set once at start-up: captures from frame 0 and from a later frame (whose
initial-state snapshot must carry the modelview stack with its pushed level, the projection and
the texture matrix) replay pixel-exactly in a loop, and the GPU model agrees with the driver on
them. The program behaves identically with and without the shim."""
import json
import os
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    for frames in ('0-1', '3-4'):
        out = os.path.join(d, 'm%s.glcap' % frames)
        run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                     GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '2'], env=env,
                             capture_output=True, text=True)
        print(rep.stdout, rep.stderr)
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
            sys.exit('replay of frames %s failed' % frames)
        mod = subprocess.run([glreplay, 'model', out, '--compare', '--json'], env=env, capture_output=True,
                             text=True)
        if mod.returncode != 0:
            sys.exit('model --compare of frames %s: exit %d\n%s%s' % (frames, mod.returncode, mod.stdout[-2000:],
                                                                      mod.stderr))
        doc = json.loads(mod.stdout)
        agree = [c['agreement'] for s in doc['swaps'] for c in s.get('compare', [])]
        print('model vs driver, frames %s: %s' % (frames, agree))
        if not agree or min(agree) < 0.999:
            sys.exit('the model disagrees with the driver on frames %s' % frames)
print('legacy matrices set once: OK')
