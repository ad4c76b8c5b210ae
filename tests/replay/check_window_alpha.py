#!/usr/bin/env python3
"""A window with alpha replays on a pbuffer with alpha (issue 13 §5).

piglit's shader_runner without -fbo draws into its GLX window, whose visual has 8 alpha bits
under Xvfb, and `probe rgba` reads alpha back (glsl-1.10 chained-assignment reads 0.75). The
program never swaps (-auto), so no reference image tells whether the window had alpha; the shim
records the window's alpha bits in METADATA ("alpha_bits") and the replay picks its pbuffer by
them. Before, the replay's pbuffer had no alpha and read 1.0: the read-back differed.
Usage: check_window_alpha.py --glreplay CLI (needs DISPLAY)"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
TEST = "spec/glsl-1.10/execution/chained-assignment.shader_test"

ap = argparse.ArgumentParser()
ap.add_argument("--glreplay", required=True)
a = ap.parse_args()
if not os.environ.get("DISPLAY"):
    sys.exit("FAIL: needs an X server (run under xvfb-run)")
env = {k: v for k, v in os.environ.items() if not k.startswith("GLREPLAY_")}
with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, "w.glcap")
    r = subprocess.run([a.glreplay, "capture", "--frame", "0", "--out", cap, "--",
                        os.path.join(PIGLIT, "bin", "shader_runner"), os.path.join(PIGLIT, "tests", TEST), "-auto"],
                       env=env, capture_output=True, text=True, timeout=60)
    if r.returncode != 0 or '"result": "pass"' not in r.stdout + r.stderr or not os.path.exists(cap):
        sys.exit(f"FAIL: capture of {TEST} in its window: rc {r.returncode}: {r.stderr[-400:]}")
    v = subprocess.run([a.glreplay, "replay", cap, "--verify"], env=env, capture_output=True, text=True, timeout=60)
    print(v.stdout.strip())
    m = re.search(r"verify: read-backs: (\d+) checked, (\d+) differ", v.stdout)
    if v.returncode != 0 or not m or m.group(1) == "0" or m.group(2) != "0":
        sys.exit("FAIL: the window's rgba probe does not read back the same on the replay's pbuffer")
    print(f"PASS: {TEST} in a window with alpha: the probe reads the same alpha on replay")
