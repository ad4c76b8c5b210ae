#!/usr/bin/env python3
"""A context created and first made current on the main thread, then rendered with on another
thread (tests/capture/thread_render.c, as Teeworlds does): frames captured mid-run carry the
render thread's client arrays and the reference image of each swap, so `glreplay replay --verify`
compares and passes, and `glreplay model --compare` passes. The program's output is the same with
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
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)

with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 't.glcap')
    run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='2-3',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
    info = subprocess.run([glreplay, 'info', out], env=env, capture_output=True, text=True)
    print(info.stdout[-3000:], info.stderr[-1000:])
    rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
    print(rep.stdout[-3000:], rep.stderr[-2000:])
    if rep.returncode != 0:
        sys.exit('replay --verify failed (exit %d)' % rep.returncode)
    # Both swaps' reference images must have been compared (none lost to an undescribed thread).
    m = re.search(r'verify: PASS: (\d+) frame images? checked, 0 differ, 0 unmatched', rep.stdout)
    if not m or int(m.group(1)) != 2:
        sys.exit('replay --verify did not check the 2 reference images')
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    print(mod.stdout[-3000:], mod.stderr[-2000:])
    if mod.returncode != 0:
        sys.exit('model --compare failed (exit %d)' % mod.returncode)
    draws = [l for l in mod.stdout.splitlines() if re.match(r'draw \d+ ', l)]
    if len(draws) < 2 or any('unsupported' in l for l in draws):
        sys.exit('model: the render thread\'s draws over client arrays were not modelled')
print('ok')
