#!/usr/bin/env python3
"""Tessellation in the GPU model against llvmpipe, end to end on real shader_runner tests:
piglit's own tessellation tests and this folder's (every spacing, both windings, point mode,
isolines, default levels without a control shader). Each runs under the shim
(`glreplay capture --frame 0 -- shader_runner T -auto -fbo`, EGL surfaceless), must give the
same verdict as natively, and `glreplay model --compare --json` must pass: every target after
every draw and the reference image at >= 99.9 %, no failed, skipped or unsupported draw.
Usage: check_tess.py --glreplay CLI --runner SHADER_RUNNER [TEST ...]
(TEST: a .shader_test path, or a path under piglit's tests/spec)."""
import argparse
import json
import os
import re
import subprocess
import sys
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument('--glreplay', required=True)
ap.add_argument('--runner', required=True)
ap.add_argument('tests', nargs='+')
args = ap.parse_args()
spec = os.path.join(os.path.dirname(os.path.dirname(args.runner)), 'tests', 'spec')
env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl')
failures = 0
with tempfile.TemporaryDirectory() as d:
    for t in args.tests:
        path = t if os.path.exists(t) else os.path.join(spec, t)
        name = os.path.basename(path)
        if not os.path.exists(path):
            print('FAIL %s: no such test' % t)
            failures += 1
            continue
        cmd = [args.runner, path, '-auto', '-fbo']
        native = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
        want = re.findall(r'PIGLIT: \{"result": "(\w+)" \}', native.stdout)
        if want != ['pass']:
            print('FAIL %s: llvmpipe itself does not pass it: %s' % (name, want))
            failures += 1
            continue
        cap = os.path.join(d, name + '.glcap')
        r = subprocess.run([args.glreplay, 'capture', '--frame', '0', '--out', cap, '--'] + cmd,
                           env=env, capture_output=True, text=True, timeout=60)
        got = re.findall(r'PIGLIT: \{"result": "(\w+)" \}', r.stdout + r.stderr)
        if r.returncode != 0 or got != want or not os.path.exists(cap):
            print('FAIL %s: capture rc %d, verdict %s:\n%s' % (name, r.returncode, got, r.stderr[-500:]))
            failures += 1
            continue
        m = subprocess.run([args.glreplay, 'model', cap, '--compare', '--json'], env=env,
                           capture_output=True, text=True, timeout=120)
        try:
            rep = json.loads(m.stdout)
        except ValueError:
            print('FAIL %s: model rc %d, no JSON report: %s' % (name, m.returncode, m.stderr[-500:]))
            failures += 1
            continue
        tot = rep.get('totals', {})
        draws = tot.get('draws', 0)
        bad = [k for k in ('draws_failed', 'draws_with_unsupported') if tot.get(k)]
        if m.returncode != 0 or rep.get('result') != 'pass' or bad or not draws:
            print('FAIL %s: model --compare rc %d, result %s, draws %s, %s:\n%s' %
                  (name, m.returncode, rep.get('result'), draws, bad, m.stdout[-1500:]))
            failures += 1
            continue
        print('%s: llvmpipe pass, %d draw(s), model --compare: pass' % (name, draws))
sys.exit(1 if failures else 0)
