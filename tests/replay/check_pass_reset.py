#!/usr/bin/env python3
"""The reset between replay passes (replay/player/pass_reset.h), stdlib only.

  check_pass_reset.py --glreplay G --frame N [--count K] --expect kept|full [--reason TEXT]
                      [--no-images] -- APP ARGS

Captures frames N..N+K-1 of APP (a mid-run capture: it carries the initial-state snapshot), then:
  - `replay --loop 4 --benchmark` must report how passes after the first start: "kept" (contexts
    and objects kept, only what the frame changed reset) or "full" (everything restored, with a
    reason containing TEXT);
  - `replay --loop 4 --verify` must pass: every pass gives the reference images, so the reset put
    back everything the frame changed (unless --no-images: the capture has no swap, then the replay
    must just run);
  - the same with GLREPLAY_FULL_RESTORE=1 (the old way) must pass too, and --benchmark must say so.
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

FAILURES = []


def fail(msg):
    FAILURES.append(msg)
    print('FAIL: ' + msg, flush=True)


def run(cmd, env=None):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          errors='replace', env=env, timeout=300)


def describe(p):
    return 'exit %d\n--- stdout\n%s--- stderr\n%s' % (p.returncode, p.stdout[-3000:], p.stderr[-3000:])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--frame', type=int, required=True)
    ap.add_argument('--count', type=int, default=1)
    ap.add_argument('--expect', choices=['kept', 'full'], required=True)
    ap.add_argument('--reason', default='')
    ap.add_argument('--no-images', action='store_true')
    ap.add_argument('app', nargs='+')
    a = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix='glr-pass-reset-') as tmp:
        cap = os.path.join(tmp, 'f.glcap')
        p = run([a.glreplay, 'capture', '--frame', str(a.frame), '--count', str(a.count), '--out', cap, '--'] + a.app)
        if p.returncode != 0:
            fail('capture: ' + describe(p))
            return 1
        p = run([a.glreplay, 'replay', cap, '--loop', '4', '--benchmark'])
        if p.returncode != 0:
            fail('replay --benchmark: ' + describe(p))
            return 1
        kept = re.search(r'^reset: passes after the first keep contexts and objects; .*$', p.stdout, re.M)
        full = re.search(r'^reset: full restore before every pass: (.*)$', p.stdout, re.M)
        steady = re.search(r'^benchmark: steady state: 3 passes in .* passes/s .*\((kept objects|contexts recreated)',
                           p.stdout, re.M)
        if a.expect == 'kept' and not kept:
            fail('expected the passes to keep contexts and objects:\n' + p.stdout)
        if a.expect == 'full' and (not full or a.reason not in full.group(1)):
            fail('expected a full restore before every pass because "%s":\n%s' % (a.reason, p.stdout))
        if not steady or (steady.group(1) == 'kept objects') != (a.expect == 'kept'):
            fail('--benchmark printed no (or the wrong) steady-state line:\n' + p.stdout)
        else:
            print('ok  ' + (kept.group(0) if kept else full.group(0)))
        for label, env in (('kept', None), ('full restore', dict(os.environ, GLREPLAY_FULL_RESTORE='1'))):
            if a.no_images:
                p = run([a.glreplay, 'replay', cap, '--loop', '4'], env=env)
                good = p.returncode == 0 and 'replay: 4 passes' in p.stdout
            else:
                p = run([a.glreplay, 'replay', cap, '--loop', '4', '--verify'], env=env)
                good = (p.returncode == 0 and 'verify: PASS' in p.stdout and 'passes identical' in p.stdout and
                        'frame images checked' in p.stdout)
            if not good:
                fail('replay --loop 4 %s(%s): %s' % ('' if a.no_images else '--verify ', label, describe(p)))
            else:
                print('ok  replay --loop 4 (%s): %s' % (label, p.stdout.strip().splitlines()[-1]))
        if a.expect == 'kept':
            p = run([a.glreplay, 'replay', cap, '--loop', '2', '--benchmark'],
                    env=dict(os.environ, GLREPLAY_FULL_RESTORE='1'))
            if 'reset: full restore before every pass: asked for' not in p.stdout:
                fail('GLREPLAY_FULL_RESTORE=1 must restore everything: ' + describe(p))
    if FAILURES:
        print('%d failure(s)' % len(FAILURES))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
