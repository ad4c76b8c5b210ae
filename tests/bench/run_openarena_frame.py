#!/usr/bin/env python3
"""GPU model benchmark on a real game frame: OpenArena's GL2 renderer (issue 17's openarena row;
docs/BENCHMARKS.md, "Session 16: OpenArena GL2 frame (oa18)").

Captures a gameplay frame of OpenArena's timedemo under the shim (the recipe of docs/FIDELITY.md,
"Real GLSL games: OpenArena's GL2 renderer": `+set cl_renderer opengl2 +set com_hunkmegs 256`,
800x600, `+timedemo 1 +demo demo088-test1`; needs DISPLAY, e.g. under xvfb-run), prints the frame's
draws and fragments (`glreplay model --json`), then times, side by side in interleaved rounds, the
model with and without the timing model against llvmpipe on the same frame (`glreplay model
--benchmark` prints both; tests/bench/run_model_frame.py does the rounds). Timings are printed, never
asserted. Exits 77 (skipped) with a message when openarena is not installed.

    xvfb-run -a -s "-screen 0 1280x1024x24" python3 tests/bench/run_openarena_frame.py \\
        --glreplay build/ui_ipc/cli/glreplay --shim build/shim/libglreplay.so \\
        --dir /tmp/oa [--frames 600,300] [--runs 3] [--baseline OTHER/glreplay] [--instructions]

A capture already in --dir (openarena_gl2_fN.glcap) is reused; delete it for a fresh one.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'support'))
from game_capture import capture_game  # noqa: E402

OPENARENA_ARGS = ['+set', 'cl_renderer', 'opengl2', '+set', 'com_hunkmegs', '256', '+set', 'r_mode', '-1',
                  '+set', 'r_customwidth', '800', '+set', 'r_customheight', '600',
                  '+timedemo', '1', '+demo', 'demo088-test1']


def find_openarena(given):
    for path in [given, shutil.which('openarena'), '/usr/games/openarena']:
        if path and os.path.exists(path):
            return path
    return None


def frame_stats(glreplay, capture):
    """(draws, fragment lanes) of the captured frame from `glreplay model --json --no-timing`."""
    p = subprocess.run([glreplay, 'model', capture, '--json', '--no-timing'], stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        sys.exit('run_openarena_frame: glreplay model --json failed (%d): %s' % (p.returncode, p.stderr[-600:]))
    totals = json.loads(p.stdout).get('totals', {})
    return totals.get('draws', 0), totals.get('fs_lanes', 0)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--glreplay', required=True, help='the glreplay CLI to measure')
    ap.add_argument('--shim', required=True, help='libglreplay.so, for the capture')
    ap.add_argument('--dir', required=True, help='where the captures are written (and reused)')
    ap.add_argument('--frames', default='600', help='comma-separated frame numbers to capture (default 600)')
    ap.add_argument('--runs', type=int, default=3, help='rounds per configuration (default 3)')
    ap.add_argument('--baseline', help='a second glreplay (e.g. before a change), alternated with the first')
    ap.add_argument('--instructions', action='store_true',
                    help='count instructions under callgrind (one run each) instead of timing')
    ap.add_argument('--openarena', help='the openarena launcher (default: from PATH or /usr/games)')
    a = ap.parse_args()
    game = find_openarena(a.openarena)
    if not game:
        print('run_openarena_frame: skipped: openarena not found (Debian package openarena, tests/packages.txt)')
        return 77
    for path in [a.glreplay, a.shim] + ([a.baseline] if a.baseline else []):
        if not os.path.exists(path):
            sys.exit('run_openarena_frame: %s: no such file' % path)
    os.makedirs(a.dir, exist_ok=True)
    for frame in [int(f) for f in a.frames.split(',')]:
        cap = os.path.join(a.dir, 'openarena_gl2_f%d.glcap' % frame)
        if not os.path.exists(cap):
            home = os.path.join(a.dir, 'home')
            os.makedirs(home, exist_ok=True)
            ok, msg = capture_game([game] + OPENARENA_ARGS, os.path.abspath(a.shim), frame, cap, timeout=600,
                                   home=home)
            print('run_openarena_frame: %s' % msg, flush=True)
            if not ok:
                return 1
        draws, frags = frame_stats(a.glreplay, cap)
        print('run_openarena_frame: %s: %d draws, %d fragment lanes shaded' % (os.path.basename(cap), draws, frags), flush=True)
        cmd = [sys.executable, os.path.join(HERE, 'run_model_frame.py'), '--glreplay', a.glreplay, '--capture', cap,
               '--frame', str(frame), '--runs', str(a.runs)]
        cmd += (['--baseline', a.baseline] if a.baseline else []) + (['--instructions'] if a.instructions else [])
        p = subprocess.run(cmd)
        if p.returncode != 0:
            return p.returncode
    return 0


if __name__ == '__main__':
    sys.exit(main())
