#!/usr/bin/env python3
"""A program that tests last frame's queries (conditional rendering, a query buffer read by a
shader): its frames captured from frame 0 and from later frames (the results then predate the
capture) replay pixel-exactly, in a loop (the pass reset makes the kept results again), without a
warning; the program behaves identically with and without the shim; `glreplay state` shows the kept
results."""
import json
import os
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '8'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
with tempfile.TemporaryDirectory() as d:
    for frames in ('0-1', '3-4', '4-6'):
        out = os.path.join(d, 'q%s.glcap' % frames)
        run = subprocess.run([prog, '8'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                     GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        for mode in ({}, {'GLREPLAY_FULL_RESTORE': '1'}):
            rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '3'], env=dict(env, **mode),
                                 capture_output=True, text=True)
            print(rep.stdout, rep.stderr)
            if rep.returncode != 0 or 'verify: PASS' not in rep.stdout or ' 0 bad' not in rep.stdout:
                sys.exit('replay of frames %s (%s) failed' % (frames, mode))
            if 'warning' in rep.stderr:
                sys.exit('replay of frames %s warned: %s' % (frames, rep.stderr))
        if frames != '0-1':
            st = subprocess.run([glreplay, 'state', out, '--event', '0', '--json'], env=env, capture_output=True,
                                text=True)
            if st.returncode != 0:
                sys.exit('state: %s' % st.stderr)
            queries = json.loads(st.stdout)['state'].get('queries', [])
            print('queries at the frame start:', queries)
            kept = [q for q in queries if 'result' in q]
            # two sets of three queries, all ended in the two frames before the capture
            if len(kept) != 6 or {q['target'] for q in kept} != {'GL_SAMPLES_PASSED', 'GL_PRIMITIVES_GENERATED',
                                                                 'GL_ANY_SAMPLES_PASSED'}:
                sys.exit('state: expected 6 kept query results, got %s' % queries)
print('query results: OK')
