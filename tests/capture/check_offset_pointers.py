#!/usr/bin/env python3
"""Pointer-or-offset parameters with a buffer bound (tests/capture/offset_pointers.c): the program
runs under the shim exactly as natively (the recorder reads no "client memory" at an offset), its
frames captured from frame 0 and from a later frame (initial-state snapshot) replay pixel-exactly,
no call is refused or listed as unsized, and every class of call is in the capture."""
import os
import re
import stat
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '3'], env=env, capture_output=True, text=True, timeout=60)
if native.returncode != 0:
    sys.exit('native run failed: %s%s' % (native.stdout, native.stderr))
CLASSES = ['glVertexAttribPointer', 'glVertexAttribIPointer', 'glVertexAttribLPointer', 'glVertexPointer',
           'glColorPointer', 'glDrawElements', 'glDrawRangeElements', 'glDrawElementsBaseVertex',
           'glDrawElementsInstancedBaseInstance', 'glDrawElementsInstancedBaseVertexBaseInstance',
           'glMultiDrawElements', 'glDrawArraysIndirect', 'glDrawElementsIndirect', 'glMultiDrawArraysIndirect',
           'glTexImage2D', 'glTexSubImage2D', 'glCompressedTexImage2D', 'glCompressedTexSubImage2D',
           'glDrawPixels', 'glBitmap', 'glPolygonStipple', 'glReadPixels', 'glGetTexImage', 'glGetQueryObjectuiv',
           'glGetUniformIndices', 'glNamedBufferData']
failures = []
with tempfile.TemporaryDirectory() as d:
    for frames in ('0', '1-2'):
        out = os.path.join(d, 'o%s.glcap' % frames)
        run = subprocess.run([prog, '3'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                     GLREPLAY_CAPTURE_OUT=out),
                             capture_output=True, text=True, timeout=60)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('frames %s: the program under the shim differs (exit %d): %r vs %r\n%s' % (
                frames, run.returncode, run.stdout, native.stdout, run.stderr))
        info = subprocess.run([glreplay, 'info', out, '--top', '0'], env=env, capture_output=True, text=True,
                              timeout=60)
        listed = set(re.findall(r'^\s+\d+\s+(gl\w+)$', info.stdout, re.M))
        # From frame 0 every call is in the stream; a later frame has the VAO set-up in its snapshot.
        missing = [c for c in CLASSES if c not in listed and (frames == '0' or 'VertexAttrib' not in c)]
        if info.returncode != 0 or missing:
            failures.append('frames %s: info exit %d, commands not captured: %s' % (frames, info.returncode, missing))
        if 'unsized' in info.stdout.lower():
            failures.append('frames %s: commands listed as unsized:\n%s' % (frames, info.stdout))
        rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True,
                             timeout=120)
        print(rep.stdout, rep.stderr)
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout or ' 0 bad' not in rep.stdout or \
                'warning' in rep.stderr:
            failures.append('frames %s: replay failed or refused calls:\n%s%s' % (frames, rep.stdout, rep.stderr))
    # A capture file outside the private directory is 0600 whatever the umask; a budget that is not
    # a number is refused with a log line and the default kept (the capture is still written).
    out = os.path.join(d, 'budget.glcap')
    old_umask = os.umask(0o022)
    try:
        run = subprocess.run([prog, '3'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='1',
                                                     GLREPLAY_CAPTURE_OUT=out, GLREPLAY_CAPTURE_MAX_MB='abc'),
                             capture_output=True, text=True, timeout=60)
    finally:
        os.umask(old_umask)
    if run.returncode != 0 or not os.path.exists(out):
        failures.append('GLREPLAY_CAPTURE_MAX_MB=abc: no capture written (exit %d)\n%s' % (run.returncode, run.stderr))
    elif stat.S_IMODE(os.stat(out).st_mode) != 0o600:
        failures.append('capture file mode %o, not 600' % stat.S_IMODE(os.stat(out).st_mode))
    if 'GLREPLAY_CAPTURE_MAX_MB=abc is not a number' not in run.stderr:
        failures.append('GLREPLAY_CAPTURE_MAX_MB=abc: no log line:\n%s' % run.stderr)
if failures:
    sys.exit('\n'.join(failures))
print('pointer-or-offset parameters with buffers bound: OK (%d commands)' % len(CLASSES))
