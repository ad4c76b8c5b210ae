#!/usr/bin/env python3
"""Issue 13's piglit acceptance on a seeded sample of piglit shader tests (a measurement, run by
hand): each test runs natively and under the shim capturing frame 0 (`shader_runner T -auto -fbo`,
which never swaps); the capture must change neither the result nor the output, `glreplay replay
--verify` must report 0 bad calls and check something real (read-backs the program made, or the
end images of a capture without a swap), and pass.
Usage: piglit_verify_sample.py --shim SHIM --glreplay CLI [--sample N] [--seed S]"""
import argparse
import glob
import os
import random
import re
import subprocess
import tempfile

ap = argparse.ArgumentParser()
ap.add_argument('--shim', required=True)
ap.add_argument('--glreplay', required=True)
ap.add_argument('--sample', type=int, default=40)
ap.add_argument('--seed', type=int, default=13)
ap.add_argument('--piglit', default='/usr/lib/x86_64-linux-gnu/piglit')
a = ap.parse_args()
runner = os.path.join(a.piglit, 'bin', 'shader_runner')
tests = sorted(glob.glob(os.path.join(a.piglit, 'tests', 'spec', '**', '*.shader_test'), recursive=True))
sample = random.Random(a.seed).sample(tests, a.sample)
env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl', EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
counts = {}


def bucket(name, test, why=''):
    counts[name] = counts.get(name, 0) + 1
    print('%-14s %s %s' % (name, os.path.relpath(test, os.path.join(a.piglit, 'tests', 'spec')), why), flush=True)


for t in sample:
    try:
        nat = subprocess.run([runner, t, '-auto', '-fbo'], env=env, capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired:
        bucket('native-timeout', t)
        continue
    res = re.search(r'"result": "(\w+)"', nat.stdout)
    if not res or res.group(1) != 'pass':
        bucket('not-pass', t, res.group(1) if res else 'rc %d' % nat.returncode)
        continue
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, 'c.glcap')
        under = subprocess.run([runner, t, '-auto', '-fbo'], env=dict(env, LD_PRELOAD=a.shim, GLREPLAY_CAPTURE_FRAMES='0',
                               GLREPLAY_CAPTURE_OUT=cap), capture_output=True, text=True, timeout=120)
        if under.returncode != nat.returncode or under.stdout != nat.stdout:
            bucket('CHANGED', t, 'rc %d vs %d' % (under.returncode, nat.returncode))
            continue
        if not os.path.exists(cap):
            bucket('NOT-CAPTURED', t, under.stderr.strip()[-200:])
            continue
        rep = subprocess.run([a.glreplay, 'replay', cap, '--verify'], env=env, capture_output=True, text=True, timeout=120)
        out = rep.stdout
        bad = re.search(r'(\d+) missing, (\d+) bad', out)
        imgs = re.search(r'verify: \w+: (\d+) frame images? checked', out)
        rbs = re.search(r'read-backs: (\d+) checked', out)
        n_img = int(imgs.group(1)) if imgs else 0
        n_rb = int(rbs.group(1)) if rbs else 0
        if not bad or bad.group(2) != '0':
            bucket('BAD-CALLS', t, bad.group(0) if bad else (out + rep.stderr)[-200:])
        elif n_img + n_rb == 0:
            bucket('NOTHING-CHECKED', t, (out + rep.stderr).strip().replace('\n', ' | ')[-300:])
        elif rep.returncode != 0 or 'verify: PASS' not in out:
            bucket('VERIFY-FAIL', t, (out + rep.stderr).strip().replace('\n', ' | ')[-300:])
        else:
            bucket('ok', t, '%d images, %d read-backs checked' % (n_img, n_rb))
print('summary: ' + ', '.join('%s %d' % kv for kv in sorted(counts.items())))
