#!/usr/bin/env python3
"""Tessellation in the GPU model against llvmpipe, end to end on real shader_runner tests:
piglit's own tessellation tests and this folder's (every spacing, both windings, point mode,
isolines, default levels without a control shader). Each runs under the shim
(`glreplay capture --frame 0 -- shader_runner T -auto -fbo`, EGL surfaceless), must give the
same verdict as natively, and `glreplay model --compare --json` must pass: every target after
every draw and the reference image at >= 99.9 %, no failed, skipped or unsupported draw.
For the first --debug-checks K tests also: the same without the timing model (--no-timing),
and the debugger stops in every tessellation shader (`glreplay debug --break ID:1`, moved to
its first line with code) with a snapshot of that stage.
With --exact, every compared target must agree on every pixel (subgroup tests, where one
wrong subgroup is a few pixels).
Usage: check_tess.py --glreplay CLI --runner SHADER_RUNNER [--debug-checks K] [--exact] TEST ...
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
ap.add_argument('--debug-checks', type=int, default=0)
ap.add_argument('--exact', action='store_true',
                help='every target must agree on every pixel (not only >= 99.9 %%)')
ap.add_argument('tests', nargs='+')
args = ap.parse_args()
spec = os.path.join(os.path.dirname(os.path.dirname(args.runner)), 'tests', 'spec')
env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl')
failures = 0
with tempfile.TemporaryDirectory() as d:
    for index, t in enumerate(args.tests):
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
        # draws, and compute dispatches (whose storage buffers --compare checks)
        draws = tot.get('draws', 0) + sum(1 for e in rep.get('events', []) if e.get('kind') == 'dispatch')
        bad = [k for k in ('draws_failed', 'draws_with_unsupported') if tot.get(k)]
        if m.returncode != 0 or rep.get('result') != 'pass' or bad or not draws:
            print('FAIL %s: model --compare rc %d, result %s, draws %s, %s:\n%s' %
                  (name, m.returncode, rep.get('result'), draws, bad, m.stdout[-1500:]))
            failures += 1
            continue
        inexact = [t for t in rep.get('targets', []) if t.get('min_agreement') != 1]
        if args.exact and (inexact or not rep.get('targets')):
            print('FAIL %s: not every pixel agrees: %s' % (name, inexact or 'no target compared'))
            failures += 1
            continue
        extra = ''
        if index < args.debug_checks:
            nt = subprocess.run([args.glreplay, 'model', cap, '--compare', '--no-timing'], env=env,
                                capture_output=True, text=True, timeout=120)
            if nt.returncode != 0:
                print('FAIL %s: model --compare --no-timing rc %d:\n%s' % (name, nt.returncode, nt.stdout[-800:]))
                failures += 1
                continue
            ls = subprocess.run([args.glreplay, 'debug', cap, '--list'], capture_output=True, text=True, timeout=60)
            shaders = re.findall(r'^\s*(\d+)\s+\S+\s+(TCS|TES) of program', ls.stdout, re.M)
            if len(shaders) < 1:
                print('FAIL %s: no tessellation shader listed by debug --list:\n%s' % (name, ls.stdout))
                failures += 1
                continue
            for sid, stage in shaders:
                dbg = subprocess.run([args.glreplay, 'debug', cap, '--break', sid + ':1', '--json'],
                                     capture_output=True, text=True, timeout=120)
                try:
                    snap = json.loads(dbg.stdout)
                except ValueError:
                    snap = {}
                if dbg.returncode != 0 or snap.get('stage') != stage or snap.get('hit') != 1:
                    print('FAIL %s: no stop in the %s (shader %s): rc %d %s' %
                          (name, stage, sid, dbg.returncode, (dbg.stdout + dbg.stderr)[-400:]))
                    failures += 1
                else:
                    extra += ', breakpoint in the %s hit (%s)' % (stage, snap.get('title'))
            extra += ', --no-timing: pass'
        print('%s: llvmpipe pass, %d draw(s)/dispatch(es), model --compare: pass%s' % (name, draws, extra))
sys.exit(1 if failures else 0)
