#!/usr/bin/env python3
"""Multisample contents in a mid-run capture (RESOURCE_BLOB kinds 5 and 6): msaa_contents draws
over its 4x renderbuffers (RGBA8, RGBA16F, depth24/stencil8) and its 4x R32UI texture every frame
without clearing them. A capture of frames 3-4 must keep every sample: the program behaves the same
under the shim, the snapshot logs no warning, `glreplay replay --verify --loop 3` passes with no
warning, and with GLREPLAY_RESTORE_CHECK=1 each restored object read back sample by sample equals
the captured bytes (every pass)."""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True)
if native.returncode != 0 or '0 state changes and 0 errors across swaps, error 0x0' not in native.stdout:
    sys.exit('native run failed: %s %s' % (native.stdout, native.stderr))
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'f34.glcap')
    run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='3-4',
                                               GLREPLAY_CAPTURE_OUT=out, GLREPLAY_LOG='warn'),
                         capture_output=True, text=True)
    print(run.stderr)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run under the shim differs: %r vs %r' % (run.stdout, native.stdout))
    if 'not kept' in run.stderr or 'snapshot:' in run.stderr:
        sys.exit('the snapshot warned: %s' % run.stderr)
    rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '3'],
                         env=dict(env, GLREPLAY_RESTORE_CHECK='1'), capture_output=True, text=True)
    print(rep.stdout, rep.stderr)
    if rep.returncode != 0 or 'verify: PASS' not in rep.stdout:
        sys.exit('replay --verify --loop 3 failed')
    if 'warning' in rep.stdout + rep.stderr:
        sys.exit('the replay warned')
    checks = re.findall(r'restore check: multisample (renderbuffer|texture) (\d+): (\d+) bytes, (\d+) differ',
                        rep.stderr)
    objects = set((kind, name) for kind, name, _, _ in checks)
    # three renderbuffers and one texture, restored (and checked) before each of the 3 passes
    if objects != {('renderbuffer', '1'), ('renderbuffer', '2'), ('renderbuffer', '3'), ('texture', '1')}:
        sys.exit('expected the 3 multisample renderbuffers and the texture to be restored, got %r' % sorted(objects))
    if len(checks) != 12 or any(diff != '0' for _, _, _, diff in checks):
        sys.exit('restored samples differ from the captured ones: %r' % checks)
print('multisample contents in a mid-run capture: OK')
