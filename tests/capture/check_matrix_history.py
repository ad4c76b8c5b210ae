#!/usr/bin/env python3
"""Mesa's classification of the modelview (translation, rotation, ... or "general") survives
glLoadIdentity and chooses the routine that computes its inverse. matrix_history.c starts each
frame with glLoadIdentity + glTranslatef + glRotatef and writes the low bits of
gl_ModelViewMatrixInverse as colours; its captures of a mid-run frame must replay pixel-exactly
(before replay/restore_matrix_class.c: 3712 of 4096 pixels differed, the restored modelview stayed
"general" through the frame's glLoadIdentity). The program's output under the shim is its own.
Usage: PROG SHIM GLREPLAY"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('LD_PRELOAD', None)
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('matrix_history natively: exit %d: %s' % (native.returncode, native.stderr))
with tempfile.TemporaryDirectory() as d:
    for frames in ('0', '3', '2-4'):
        out = os.path.join(d, 'mh%s.glcap' % frames)
        run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                   GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('frames %s: the run under the shim differs: %r vs %r\n%s' % (frames, run.stdout, native.stdout,
                                                                                 run.stderr))
        rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '2'], env=env, capture_output=True,
                             text=True)
        print('frames %s:' % frames, rep.stdout.strip().splitlines()[-2:])
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout or \
                not re.search(r'read-backs: [1-9]\d* checked, 0 differ', rep.stdout):
            sys.exit('frames %s: replay differs from the program\n%s%s' % (frames, rep.stdout[-1500:], rep.stderr[-800:]))
    # The same capture through `glreplay run --frame N --out F`: the program is exec'd (its output
    # and status are its own) and a detached helper says the verdict on stderr after its end.
    out = os.path.join(d, 'run3.glcap')
    run = subprocess.run([glreplay, 'run', '--frame', '3', '--out', out, '--', prog, '6'], env=env,
                         capture_output=True, text=True, timeout=60)
    if run.returncode != 0 or run.stdout != native.stdout or 'captured frames 3-3 into %s' % out not in run.stderr:
        sys.exit('glreplay run --frame 3: exit %d, stdout %r (natively %r), stderr %r'
                 % (run.returncode, run.stdout, native.stdout, run.stderr))
    rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
    if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
        sys.exit('glreplay run --frame 3: its capture does not replay exactly\n%s' % rep.stdout[-1500:])
print('matrix classification kept across the restore; glreplay run --frame captures it: OK')
