#!/usr/bin/env python3
"""A real program drawing in immediate mode through a GLSL program: piglit's gl-2.0-large-point-fs
(glBegin(GL_POINTS) .. glEnd with a fragment shader, -auto -fbo on surfaceless EGL) captured, and
`glreplay model --compare` runs its glEnd as a draw with no unsupported feature, agreeing with the
driver and the captured image at >= 99.9%.
With a second piglit binary (gl-1.0-bitmap-heart-dance: glRasterPos + glBitmap), the model draws
each glBitmap as a draw (gpu_model/frame/gmf_rasterpix.c) with nothing unsupported, and agrees. With a third
(gl-1.0-dlist-materials: glMaterial between the vertices of a glBegin/glEnd, which Mesa turns into
per-vertex attributes), the model gives the fixed-function vertex stage those materials per vertex
(ff_vmat_* attributes) and agrees.
Usage: GLREPLAY PIGLIT_TEST_BINARY [PIGLIT_BITMAP_BINARY [PIGLIT_MATERIALS_BINARY]]"""
import os
import re
import subprocess
import sys
import tempfile

glreplay, test = sys.argv[1:3]
bitmap = sys.argv[3] if len(sys.argv) > 3 else None
materials = sys.argv[4] if len(sys.argv) > 4 else None
env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl')
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'p.glcap')
    cap = subprocess.run([glreplay, 'capture', '--frame', '0', '--out', out, '--', test, '-auto', '-fbo'],
                         env=env, capture_output=True, text=True, timeout=90)
    print(cap.stdout[-1000:], cap.stderr[-1000:])
    if '"result": "pass"' not in cap.stdout or not os.path.exists(out):
        sys.exit('the test did not pass under capture, or wrote no capture')
    model = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                           text=True, timeout=90)
    print(model.stdout[-3000:], model.stderr[-1000:])
    if model.returncode != 0 or 'compare: PASS' not in model.stdout:
        sys.exit('model --compare did not pass')
    if not re.search(r'^draw \d+ \(record \d+, glEnd, program [1-9]', model.stdout, re.M):
        sys.exit('no glEnd draw with a GLSL program in the model')
    if not re.search(r'^model: \d+ draws \(0 with unsupported features, 0 failed\)', model.stdout, re.M):
        sys.exit('a draw was unsupported or failed')
    if bitmap:
        out = os.path.join(d, 'b.glcap')
        subprocess.run([glreplay, 'capture', '--frame', '0', '--out', out, '--', bitmap, '-auto', '-fbo'], env=env,
                       capture_output=True, text=True, timeout=90)
        model = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                               text=True, timeout=90)
        if model.returncode != 0 or 'compare: PASS' not in model.stdout:
            sys.exit('model --compare of the bitmaps did not pass:\n%s' % model.stdout[-2000:])
        if not re.search(r'^draw \d+ \(record \d+, glBitmap', model.stdout, re.M):
            sys.exit('no glBitmap draw in the model:\n%s' % model.stdout[-2000:])
        if not re.search(r'^model: \d+ draws \(0 with unsupported features, 0 failed\)', model.stdout, re.M):
            sys.exit('a bitmap draw was unsupported or failed')
    if materials:
        out = os.path.join(d, 'm.glcap')
        subprocess.run([glreplay, 'capture', '--frame', '0', '--out', out, '--', materials, '-auto', '-fbo'], env=env,
                       capture_output=True, text=True, timeout=90)
        model = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                               text=True, timeout=90)
        if model.returncode != 0 or 'compare: PASS' not in model.stdout:
            sys.exit('model --compare of per-vertex materials did not pass:\n%s' % model.stdout[-2000:])
        if not re.search(r'^model: 8 draws \(0 with unsupported features, 0 failed\)', model.stdout, re.M):
            sys.exit('the eight material draws did not all run:\n%s' % model.stdout[-2000:])
print('piglit immediate mode in the GPU model: OK')
