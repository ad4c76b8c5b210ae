#!/usr/bin/env python3
"""Issue 13's acceptance on real Debian programs (a measurement, not a suite test: the programs are
not in tests/packages.txt). Each program runs under the shim in Xvfb (DISPLAY must be set) until a
mid-run frame is captured (tests/support/game_capture.py), then `glreplay replay --verify` checks
the frame: the line printed per program gives the verify result, the bad calls and the pixels that
differ from the captured reference images. Stellarium runs twice in one HOME: its first run fills
Qt's binary cache and glreplay's program sources cache, the second (captured) loads every program
with glProgramBinary.
Usage: debian_programs.py --shim SHIM --glreplay CLI [--only NAME ...] [--keep DIR]"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
from game_capture import capture_game  # noqa: E402

# name -> (argv, frame, runs before the captured one)
PROGRAMS = {
    'neverball': (['/usr/games/neverball', '-l', 'map-easy/easy.sol'], 60, 0),
    'pink-pony': (['/usr/games/pink-pony'], 5, 0),
    'trigger-rally': (['/usr/games/trigger-rally'], 60, 0),
    'chromium-bsu': (['/usr/games/chromium-bsu'], 60, 0),
    'armagetronad': (['/usr/games/armagetronad'], 60, 0),
    'stellarium': (['/usr/bin/stellarium'], 10, 1),
    'teeworlds': (['/usr/games/teeworlds'], 60, 0),
    'hypertorus --pair': (['/usr/libexec/xscreensaver/hypertorus', '--pair'], 20, 0),
}

ap = argparse.ArgumentParser()
ap.add_argument('--shim', required=True)
ap.add_argument('--glreplay', required=True)
ap.add_argument('--only', nargs='*')
ap.add_argument('--keep', help='copy each capture here')
ap.add_argument('--timeout', type=float, default=150)
ap.add_argument('--frame', type=int, help='capture this frame instead of the table\'s')
a = ap.parse_args()
a.shim = os.path.abspath(a.shim)
# OpenAL Soft's null device: Trigger Rally refuses to start without an audio device.
os.environ['ALSOFT_DRIVERS'] = 'null'

for name, (argv, frame, warmups) in PROGRAMS.items():
    if a.only and name.split()[0] not in a.only:
        continue
    frame = a.frame or frame
    if not os.path.exists(argv[0]):
        print('%s: not installed (%s)' % (name, argv[0]), flush=True)
        continue
    with tempfile.TemporaryDirectory() as home:
        cap = os.path.join(home, 'frame.glcap')
        t0 = time.monotonic()
        for _ in range(warmups):
            # A run that captures nothing (a frame it never reaches) and ends after 100 s: long
            # enough here for Stellarium to link its programs and read back their binaries.
            capture_game(argv, a.shim, 1000000, os.path.join(home, 'warm.glcap'), 100, home=home)
        ok, msg = capture_game(argv, a.shim, frame, cap, a.timeout, home=home)
        if not ok:
            print('%s: CAPTURE FAILED: %s' % (name, msg.replace('\n', ' | ')[:500]), flush=True)
            continue
        if a.keep:
            os.makedirs(a.keep, exist_ok=True)
            shutil.copy(cap, os.path.join(a.keep, name.split()[0] + '.glcap'))
        try:
            r = subprocess.run([a.glreplay, 'replay', cap, '--verify'], capture_output=True, text=True, timeout=600)
            out = r.stdout + r.stderr
        except subprocess.TimeoutExpired:
            print('%s: replay --verify did not end within 600 s' % name, flush=True)
            continue
        bad = re.search(r'(\d+) bad', out)
        px = sum(int(m) for m in re.findall(r'(\d+) pixels differ', out))
        verdict = re.search(r'verify: (\w+)', out)
        print('%s: frame %d, verify %s, %s bad calls, %d pixels differ (%.0f s); %s' % (
            name, frame, verdict.group(1) if verdict else '? (exit %d)' % r.returncode,
            bad.group(1) if bad else '?', px, time.monotonic() - t0,
            ' | '.join(l.strip() for l in out.splitlines() if 'differ' in l or 'warning' in l or 'error' in l)[:900]),
            flush=True)
