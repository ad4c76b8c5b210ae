#!/usr/bin/env python3
"""Fidelity of the GPU model on piglit's *binary* tests (the fixed-function, pixel-path and
legacy tests are C programs, not shader_test files, so piglit_fidelity.py does not reach them).
Each selected binary runs as `glreplay capture --frame 0 --out T.glcap -- BIN -auto -fbo`
(PIGLIT_PLATFORM=surfaceless_egl), then `glreplay model T.glcap --compare`. Buckets:
  agree        model --compare passes (every comparison >= 99.9 %, nothing unsupported)
  differs      it fails with every draw modelled
  unsupported  some draw or command is reported unsupported (the first note is the reason)
  no-draws     neither the model nor the capture has a draw or clear: nothing to compare (a test
               whose only drawing command is a GL error, such as a glCopyPixels GL refuses);
               excluded from the rate "of those that draw", never counted as agreeing
  native       the test does not pass natively under the shim (skip/fail/no verdict)
  no-capture   no capture was written (the program never swapped, or crashed)
Prints one line per test and a table per bucket and per name prefix (gl-1.0, gl-2.0, ...).
Standard library only. Run with -j 1 on a shared machine."""
import argparse
import concurrent.futures
import json
import os
import re
import signal
import subprocess
import sys
import tempfile

DEFAULT_MATCH = (r'fog|texenv|texgen|light|alphatest|point|sprite|clip|material|combine|^gl-1\.|'
                 r'^gl-2\.[01]-|bitmap|drawpix|copypix|rasterpos|windowpos|aniso')


def run_one(glreplay, binary, timeout):
    name = os.path.basename(binary)
    env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl', EGL_PLATFORM='surfaceless')
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, 't.glcap')
        # its own process group: on a timeout the test program is stopped too, not only glreplay
        # (a piglit binary left running keeps its ~2 GB and a core)
        p = subprocess.Popen([glreplay, 'capture', '--frame', '0', '--out', cap, '--', binary, '-auto', '-fbo'],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, cwd=d,
                             start_new_session=True)
        try:
            so, se = p.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            os.killpg(p.pid, signal.SIGKILL)
            p.communicate()
            return name, 'no-capture', 'capture timed out'
        out = so + se
        verdict = re.search(r'PIGLIT: \{"result": "(\w+)"', out)
        if not os.path.exists(cap):
            return name, 'no-capture', (verdict.group(1) if verdict else 'no verdict') + ', no capture'
        if not verdict or verdict.group(1) != 'pass':
            return name, 'native', verdict.group(1) if verdict else 'no verdict'
        try:
            m = subprocess.run([glreplay, 'model', cap, '--compare', '--no-timing'], capture_output=True,
                               text=True, timeout=timeout, env=env, cwd=d)
        except subprocess.TimeoutExpired:
            return name, 'differs', 'model timed out'
        mo = m.stdout + m.stderr
        s = re.search(r'model: (\d+) draws \((\d+) with unsupported features, (\d+) failed\), (\d+) clears', mo)
        if 'compare: PASS' in mo and m.returncode == 0:
            return name, 'agree', ''
        note = re.search(r'^unsupported: ([^\n]*)', mo, re.M)
        if (s and int(s.group(2)) > 0) or note:
            return name, 'unsupported', note.group(1)[:140] if note else 'unsupported features'
        if s and int(s.group(1)) == 0 and int(s.group(4)) == 0:
            # only when the capture has none either: a model that dropped draws differs
            i = subprocess.run([glreplay, 'info', cap], capture_output=True, text=True, timeout=timeout,
                               env=env, cwd=d)
            dr = re.search(r'^draws: (\d+)', i.stdout, re.M)
            cl = re.search(r'^clears: (\d+)', i.stdout, re.M)
            if dr and cl and int(dr.group(1)) == 0 and int(cl.group(1)) == 0:
                return name, 'no-draws', 'nothing to compare'
            return name, 'differs', 'the model ran no draw or clear; the capture has %s draws, %s clears' % (
                dr.group(1) if dr else '?', cl.group(1) if cl else '?')
        worst = re.search(r'compare: FAIL: ([^\n]*)', mo)
        return name, 'differs', (worst.group(1)[:140] if worst else mo.strip().splitlines()[-1][:140] if mo.strip() else 'no output')


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--piglit', default='/usr/lib/x86_64-linux-gnu/piglit')
    ap.add_argument('--match', default=DEFAULT_MATCH, help='regex over binary names (default: fixed function and pixel paths)')
    ap.add_argument('-j', '--jobs', type=int, default=1)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--json', help='write every result here')
    ap.add_argument('--expect-agree', action='store_true',
                    help='exit 1 unless every selected binary agrees (a regression test over a list)')
    a = ap.parse_args()
    a.glreplay = os.path.abspath(a.glreplay)
    bindir = os.path.join(a.piglit, 'bin')
    if not os.path.isdir(bindir):
        sys.exit('no piglit binaries in %s (Debian package piglit)' % bindir)
    names = sorted(n for n in os.listdir(bindir) if re.search(a.match, n))
    results = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as ex:
        for name, bucket, why in ex.map(lambda n: run_one(a.glreplay, os.path.join(bindir, n), a.timeout), names):
            print('%-11s %s%s' % (bucket, name, ('  ' + why) if why else ''), flush=True)
            results.append({'test': name, 'bucket': bucket, 'reason': why})
    buckets = {}
    for r in results:
        buckets[r['bucket']] = buckets.get(r['bucket'], 0) + 1
    print('\n| bucket | tests |\n|---|---|')
    for b in ('agree', 'differs', 'unsupported', 'no-draws', 'native', 'no-capture'):
        print('| %s | %d |' % (b, buckets.get(b, 0)))
    drawn = sum(buckets.get(b, 0) for b in ('agree', 'differs', 'unsupported'))
    if drawn:
        print('\nagree: %d of the %d that pass natively, capture and draw (%.1f %%); %d draw nothing' %
              (buckets.get('agree', 0), drawn, 100.0 * buckets.get('agree', 0) / drawn, buckets.get('no-draws', 0)))
    prefixes = {}
    for r in results:
        m = re.match(r'(gl-\d\.\d|arb_\w+?|ext_\w+?|nv_\w+?)-', r['test'])
        p = m.group(1) if m else '(other)'
        row = prefixes.setdefault(p, {})
        row[r['bucket']] = row.get(r['bucket'], 0) + 1
    print('\n| prefix | agree | differs | unsupported | no-draws | native | no-capture |\n|---|---|---|---|---|---|---|')
    for p in sorted(prefixes):
        row = prefixes[p]
        print('| %s | %s |' % (p, ' | '.join(str(row.get(b, 0)) for b in
                                          ('agree', 'differs', 'unsupported', 'no-draws', 'native', 'no-capture'))))
    if a.json:
        with open(a.json, 'w') as f:
            json.dump(results, f, indent=1)
    if a.expect_agree:
        bad = [r['test'] for r in results if r['bucket'] != 'agree']
        if not results or bad:
            sys.exit('not agreeing: %s' % (', '.join(bad) if bad else 'no binary matched'))


if __name__ == '__main__':
    main()
