#!/usr/bin/env python3
"""A fixed-function program drawing from client arrays (tests/capture/ff_pipeline.c: lighting of
every light kind, colour material, separate specular, two-sided lighting, flat shading, texture
environments with GL_COMBINE, sphere-map generation, fog modes, alpha test, attenuated points, a
user clip plane, a GLSL fragment shader on the fixed vertex stage), captured from frame 0 and from
a later frame: `glreplay model --compare` passes, every draw runs generated fixed-function stages
with fragments, and no draw or event is reported unsupported.
Usage: PROG SHIM GLREPLAY"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '5'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    for frames in ('0', '3'):
        out = os.path.join(d, 'f%s.glcap' % frames)
        run = subprocess.run([prog, '5'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                   GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        mod = subprocess.run([glreplay, 'model', out, '--compare'], env=env, capture_output=True, text=True)
        print(mod.stdout[-5000:], mod.stderr[-2000:])
        if mod.returncode != 0 or 'compare: PASS' not in mod.stdout:
            sys.exit('frame %s: model --compare did not pass' % frames)
        m = re.search(r'(\d+) with unsupported features, (\d+) failed', mod.stdout)
        if not m or m.groups() != ('0', '0') or 'unsupported:' in mod.stdout or 'not modelled' in mod.stdout:
            sys.exit('frame %s: something was reported unsupported or failed' % frames)
        draws = re.findall(r'^draw \d+ \(record \d+, \w+, program (\d+), fbo \d+\): (\d+) fragments', mod.stdout, re.M)
        if len(draws) != 4 or any(int(n) == 0 for _, n in draws):
            sys.exit('frame %s: expected 4 draws with fragments, got %s' % (frames, draws))
        if [p for p, _ in draws].count('0') != 3:
            sys.exit('frame %s: expected 3 fully fixed-function draws and 1 mixed, got %s' % (frames, draws))
print('fixed-function pipeline in the GPU model: OK')
