#!/usr/bin/env python3
"""Frames drawn into a window replay on a pbuffer like the window (issue 13 §5).

piglit's shader_runner without -fbo draws into its GLX window: under Xvfb a visual with 8 alpha
bits and no depth or stencil buffer. The shim records the window's alpha, depth and stencil bits in
METADATA and the replay picks its pbuffer by them. Checked through piglit's own probes (-auto: the
program never swaps, its glReadPixels results are verified):
- chained-assignment probes alpha (0.75): a pbuffer without alpha read 1.0;
- vs-mat4 probes the whole window (a colour at 63.75/255): llvmpipe's linear rasterizer (8-bit
  fixed point, only on a framebuffer without depth/stencil buffer) rounds some 64x64 tiles to 63,
  the general path to 64; a pbuffer with a depth buffer (the old default) never takes the linear
  path, so 4 tiles (16,384 pixels) differed.
Usage: check_window_surface.py --glreplay CLI (needs DISPLAY)"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
TESTS = ["spec/glsl-1.10/execution/chained-assignment.shader_test", "spec/glsl-1.40/uniform_buffer/vs-mat4.shader_test"]

ap = argparse.ArgumentParser()
ap.add_argument("--glreplay", required=True)
a = ap.parse_args()
if not os.environ.get("DISPLAY"):
    sys.exit("FAIL: needs an X server (run under xvfb-run)")
env = {k: v for k, v in os.environ.items() if not k.startswith("GLREPLAY_")}
for test in TESTS:
    with tempfile.TemporaryDirectory() as d:
        cap = os.path.join(d, "w.glcap")
        r = subprocess.run([a.glreplay, "capture", "--frame", "0", "--out", cap, "--",
                            os.path.join(PIGLIT, "bin", "shader_runner"), os.path.join(PIGLIT, "tests", test), "-auto"],
                           env=env, capture_output=True, text=True, timeout=60)
        if r.returncode != 0 or '"result": "pass"' not in r.stdout + r.stderr or not os.path.exists(cap):
            sys.exit(f"FAIL: capture of {test} in its window: rc {r.returncode}: {r.stderr[-400:]}")
        v = subprocess.run([a.glreplay, "replay", cap, "--verify"], env=env, capture_output=True, text=True,
                           timeout=60)
        print(v.stdout.strip())
        m = re.search(r"verify: read-backs: (\d+) checked, (\d+) differ", v.stdout)
        if v.returncode != 0 or not m or m.group(1) == "0" or m.group(2) != "0":
            sys.exit(f"FAIL: {test}: the window's probes do not read back the same on the replay's pbuffer")
        print(f"PASS: {test} in its window: the probes read the same on replay")
