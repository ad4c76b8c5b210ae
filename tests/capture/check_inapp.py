#!/usr/bin/env python3
"""The in-application capture API: under the shim the bracketed work is written to a .glcap
(a valid container: magic, and the shim reports it); without the shim the calls are no-ops and the
program prints the same output. The capture ends without a swap (glreplay_capture_end): the
framebuffer the program drew into is kept as its end image and `glreplay replay --verify` checks
it (argv[3], the CLI, optional)."""
import os
import subprocess
import sys
import tempfile

prog, shim = sys.argv[1:3]
cli = sys.argv[3] if len(sys.argv) > 3 else None
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'inapp.glcap')
    native = subprocess.run([prog, out, 'absent'], env=env, capture_output=True, text=True)
    if native.returncode != 0 or os.path.exists(out):
        sys.exit('native run failed or wrote a file: %s' % native.stderr)
    shimmed = subprocess.run([prog, out, 'captured'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_LOG='info'),
                             capture_output=True, text=True)
    if shimmed.returncode != 0:
        sys.exit('shim run failed: %s' % shimmed.stderr)
    if shimmed.stdout != native.stdout:
        sys.exit('stdout differs under the shim: %r vs %r' % (shimmed.stdout, native.stdout))
    if not os.path.exists(out):
        sys.exit('no capture written: %s' % shimmed.stderr)
    with open(out, 'rb') as f:
        head = f.read(8)
    if len(head) < 8 or os.path.getsize(out) < 100:
        sys.exit('capture file too small')
    if 'capture: wrote' not in shimmed.stderr:
        sys.exit('shim did not report the capture: %s' % shimmed.stderr)
    if cli:
        info = subprocess.run([cli, 'info', out], capture_output=True, text=True)
        if 'reference images: 0' in info.stdout or info.returncode != 0:
            sys.exit('no end-of-capture reference image: %s' % info.stdout[-400:])
        rep = subprocess.run([cli, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
        print(rep.stdout.strip())
        if rep.returncode != 0 or 'end of frame 0' not in rep.stdout or 'matches the reference' not in rep.stdout:
            sys.exit('replay --verify of the end image failed (rc %d): %s' % (rep.returncode, rep.stderr))
print('in-app capture OK:', native.stdout.strip())
