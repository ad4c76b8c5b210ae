#!/usr/bin/env python3
"""Two windows without sharing: xscreensaver's `hypertorus --pair` draws into two windows, each
with its own context in its own share group, swapped in turn. A mid-run frame must hold one frame
of each window (frames are counted on the first window that swaps; the other window's swap inside
the frame is recorded too), the snapshot must hold the objects of both share groups (each read on
a context of its group), and `glreplay replay --verify` must match both windows' reference images
exactly with no bad call. Before: the frame ended at whichever window swapped next and the second
group's objects were missing (170,274 pixels of one window differed).
Usage: check_two_windows.py --shim SHIM --glreplay CLI -- PROG ARGS"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from game_capture import capture_game  # noqa: E402

ap = argparse.ArgumentParser()
ap.add_argument('--shim', required=True)
ap.add_argument('--glreplay', required=True)
ap.add_argument('prog', nargs=argparse.REMAINDER)
a = ap.parse_args()
prog = a.prog[1:] if a.prog and a.prog[0] == '--' else a.prog
if not os.path.exists(prog[0]):
    sys.exit('FAIL: %s not found (Debian package xscreensaver-gl, tests/packages.txt)' % prog[0])

with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, 'pair.glcap')
    ok, msg = capture_game(prog, a.shim, 8, cap, 60)
    if not ok:
        sys.exit('FAIL: ' + msg)
    info = subprocess.run([a.glreplay, 'info', cap], capture_output=True, text=True, timeout=60)
    groups = re.findall(r'context (\d+): .*share group (\d+)', info.stdout)
    if len(groups) != 2 or len({g for _, g in groups}) != 2:
        sys.exit('FAIL: expected two contexts in two share groups:\n' + info.stdout[-1500:])
    if 'frames: 8-8 (2 swaps)' not in info.stdout:
        sys.exit('FAIL: frame 8 should hold one swap of each window:\n' + info.stdout[-1500:])
    r = subprocess.run([a.glreplay, 'replay', cap, '--verify'], capture_output=True, text=True, timeout=120)
    print(r.stdout.strip())
    matched = {c for c in re.findall(r'frame 8 \(context (\d+), \d+x\d+\): matches the reference', r.stdout)}
    bad = re.search(r'(\d+) bad', r.stdout)
    if r.returncode != 0 or len(matched) != 2 or not bad or bad.group(1) != '0' or \
            'verify: PASS: 2 frame images checked, 0 differ' not in r.stdout:
        sys.exit('FAIL: both windows of frame 8 must replay exactly:\n%s%s' % (r.stdout[-1500:], r.stderr[-500:]))
    print('PASS: %s: frame 8 of both windows replays exactly (%s)' % (' '.join(prog), msg))
