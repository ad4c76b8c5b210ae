#!/usr/bin/env python3
"""Runs the DAP server fuzz target's seed corpus (tests/fuzz/corpus/dap_server) against a capture
of a real program: the sample lit_mesh is captured under the shim first (frame 2), then every
corpus input is sent to a DAP session serving that capture (fuzz_dap_server.c). Exit 0 when every
input ran without a finding.
Usage: check_dap_corpus.py FUZZ_DAP_SERVER CORPUS_DIR LIT_MESH SHIM (needs DISPLAY)."""
import os
import subprocess
import sys
import tempfile

target, corpus, sample, shim = sys.argv[1:5]
with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, 'lit_mesh.glcap')
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='2', GLREPLAY_CAPTURE_OUT=cap)
    r = subprocess.run([sample, '--frames', '3', '--size', '160x90'], env=env, capture_output=True,
                       text=True, timeout=120)
    if r.returncode != 0 or not os.path.exists(cap):
        sys.exit('lit_mesh was not captured (rc %d): %s' % (r.returncode, r.stderr[-500:]))
    r = subprocess.run([target, corpus], env=dict(os.environ, GLREPLAY_FUZZ_CAPTURE=cap),
                       capture_output=True, text=True, timeout=280)
    print(r.stdout.strip())
    if r.returncode != 0:
        sys.exit('the DAP server corpus found a problem (rc %d):\n%s' % (r.returncode, r.stderr[-3000:]))
