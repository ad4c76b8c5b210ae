#!/usr/bin/env python3
"""Programs loaded with glProgramBinary (tests/capture/program_binary.c, as Qt 5 programs do from
their second run on):
 - under the shim without GLREPLAY_NO_PROGRAM_BINARY the program loads its binaries exactly as
   natively, and a captured frame (which creates a program from a binary in the frame) replays with
   `replay --verify` passing on the same driver, while `model` reports the program as loaded with
   glProgramBinary (no sources);
 - with GLREPLAY_NO_PROGRAM_BINARY=1 the program is offered no binary format, every glProgramBinary
   fails with GL_LINK_STATUS false and no GL error, the program compiles from source, draws the same
   pixels, and its captured frame passes both `replay --verify` and `model --compare` (the model has
   the sources).
Usage: PROG SHIM GLREPLAY"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
env.pop('GLREPLAY_NO_PROGRAM_BINARY', None)
native = subprocess.run([prog, '4'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
if 'program_binary: 4 of 4 programs loaded from a binary' not in native.stderr:
    sys.exit('the driver offers no program binaries: nothing to test (%s)' % native.stderr)


def verify(out):
    rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
    print(rep.stdout[-2000:], rep.stderr[-2000:])
    m = re.search(r'verify: PASS: (\d+) frame images? checked, 0 differ, 0 unmatched', rep.stdout)
    if rep.returncode != 0 or not m or int(m.group(1)) != 2:
        sys.exit('replay --verify of %s failed (exit %d)' % (out, rep.returncode))


with tempfile.TemporaryDirectory() as d:
    # Binaries loaded under the shim: the program behaves as natively, the frame replays.
    out = os.path.join(d, 'bin.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='1-2',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout or run.stderr != native.stderr:
        sys.exit('run under the shim differs: %r %r vs %r %r' % (run.stdout, run.stderr, native.stdout, native.stderr))
    verify(out)
    # Without sources the model says why (and --compare fails, as it must).
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    if mod.returncode != 1 or 'loaded with glProgramBinary' not in mod.stdout + mod.stderr:
        sys.exit('model on a program loaded from a binary: exit %d, no clear report\n%s%s'
                 % (mod.returncode, mod.stdout[-2000:], mod.stderr[-1000:]))
    # The opt-in: compiled from source, same pixels, sources in the capture for the model.
    out = os.path.join(d, 'src.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_NO_PROGRAM_BINARY='1',
                                               GLREPLAY_CAPTURE_FRAMES='1-2', GLREPLAY_CAPTURE_OUT=out),
                         capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run with GLREPLAY_NO_PROGRAM_BINARY differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
    if 'program_binary: 0 of 4 programs loaded from a binary' not in run.stderr:
        sys.exit('GLREPLAY_NO_PROGRAM_BINARY=1 did not make the program compile from source: %s' % run.stderr)
    verify(out)
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    print(mod.stdout[-3000:], mod.stderr[-2000:])
    if mod.returncode != 0 or not re.search(r'compare: PASS', mod.stdout):
        sys.exit('model --compare with GLREPLAY_NO_PROGRAM_BINARY failed (exit %d)' % mod.returncode)
print('ok')
