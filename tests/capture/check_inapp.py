#!/usr/bin/env python3
"""The in-application capture API: under the shim the bracketed work is written to a .glcap
(a valid container: magic, and the shim reports it); without the shim the calls are no-ops and the
program prints the same output."""
import os
import subprocess
import sys
import tempfile

prog, shim = sys.argv[1:3]
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
print('in-app capture OK:', native.stdout.strip())
