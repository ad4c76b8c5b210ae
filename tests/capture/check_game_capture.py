#!/usr/bin/env python3
"""A real game's mid-run frame: the game runs under the shim (needs DISPLAY) until the capture of
frame N is written (the writer renames the file into place when it is complete), then it is
stopped; `glreplay replay --verify` must replay the frame exactly (its reference image, 0 pixels
different) with no bad call. Catches what the snapshot at frame N misses on a real program
(e.g. neverball's 8x anisotropic textures, lost while the snapshot read anisotropy only on GL 4.6).
Usage: check_game_capture.py --shim SHIM --glreplay CLI --frame N [--timeout S] -- GAME ARGS"""
import argparse
import os
import re
import signal
import subprocess
import sys
import tempfile
import time

ap = argparse.ArgumentParser()
ap.add_argument('--shim', required=True)
ap.add_argument('--glreplay', required=True)
ap.add_argument('--frame', type=int, required=True)
ap.add_argument('--timeout', type=float, default=120)
ap.add_argument('game', nargs=argparse.REMAINDER)
a = ap.parse_args()
game = a.game[1:] if a.game and a.game[0] == '--' else a.game

with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, 'game.glcap')
    env = dict(os.environ, LD_PRELOAD=a.shim, GLREPLAY_CAPTURE_FRAMES=str(a.frame), GLREPLAY_CAPTURE_OUT=cap,
               HOME=d, SDL_AUDIODRIVER='dummy')
    p = subprocess.Popen(game, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, start_new_session=True)
    t0 = time.monotonic()
    while not os.path.exists(cap) and p.poll() is None and time.monotonic() - t0 < a.timeout:
        time.sleep(0.2)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        _, err = p.communicate()
    if not os.path.exists(cap):
        sys.exit('FAIL: frame %d of %s was not captured within %.0f s (exit %s): %s' %
                 (a.frame, game[0], a.timeout, p.returncode, err.decode(errors='replace')[-600:]))
    r = subprocess.run([a.glreplay, 'replay', cap, '--verify'], capture_output=True, text=True, timeout=300)
    print(r.stdout.strip())
    bad = re.search(r'(\d+) bad', r.stdout)
    if r.returncode != 0 or 'verify: PASS' not in r.stdout or not bad or bad.group(1) != '0':
        sys.exit('FAIL: %s frame %d does not replay exactly:\n%s%s' % (game[0], a.frame, r.stdout[-1500:], r.stderr[-500:]))
    print('PASS: %s frame %d replays exactly (%.0f s to capture)' % (game[0], a.frame, time.monotonic() - t0))
