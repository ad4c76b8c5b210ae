#!/usr/bin/env python3
"""e2e: a program's capture runs in the GPU model and on llvmpipe in lock step.

  check_copies.py --glreplay G --shim S --exe PROGRAM --frames A-B [--min F] [--no-timing]
                  [--reference] -- ARGS

PROGRAM ARGS runs under the shim with EGL surfaceless and frames A-B captured (a later frame
starts from the shim's snapshot: query results and buffer contents an earlier frame left), then
`glreplay model --compare --json` must show: every comparison after each draw and clear and at
each swap agrees with llvmpipe >= --min (default 0.999), every frame compared, no draw failed,
and no event reported anything the model does not do (the GPU-side copies, read-backs, uploads
from buffers, queries and conditional rendering the programs use are modelled:
gpu_model/frame/gmf_copies.c, gmf_pixels.c, gmf_queries.c). --reference compares the model's
frames with the frames the program itself rendered on llvmpipe (kept in the capture) instead of a
driver replay, for calls a replayer cannot issue.
Exit 1 with the reason otherwise."""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--exe", required=True)
    ap.add_argument("--frames", default="0-1")
    ap.add_argument("--min", type=float, default=0.999)
    ap.add_argument("--no-timing", action="store_true")
    ap.add_argument("--reference", action="store_true")
    ap.add_argument("args", nargs="*")
    a = ap.parse_args()
    name = os.path.basename(a.exe)
    if not os.path.exists(a.exe):
        fail("%s not built" % a.exe)
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, name + ".glcap")
        env = dict(os.environ, EGL_PLATFORM="surfaceless", GLREPLAY_CAPTURE_FRAMES=a.frames,
                   GLREPLAY_CAPTURE_OUT=cap, LD_PRELOAD=a.shim)
        p = subprocess.run([a.exe] + a.args, env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=120)
        if p.returncode != 0 or not os.path.exists(cap):
            fail("capture of %s failed (rc %d): %s" % (name, p.returncode, p.stderr.decode()[-500:]))
        cmd = [a.glreplay, "model", cap, "--json"] + ([] if a.reference else ["--compare"]) + \
              (["--no-timing"] if a.no_timing else [])
        p = subprocess.run(cmd, env=dict(os.environ, EGL_PLATFORM="surfaceless"),
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        if p.returncode not in (0, 1):
            fail("glreplay model exited %d: %s" % (p.returncode, p.stderr.decode()[-500:]))
        try:
            rep = json.loads(p.stdout)
        except ValueError as e:
            fail("glreplay model --json printed invalid JSON (%s)" % e)
    t = rep["totals"]
    worst = 1.0
    for e in rep["events"]:
        for c in e["compare"]:
            worst = min(worst, c["agreement"])
            if c["agreement"] < a.min:
                fail("%s: %s %d (record %d, %s) target %s agrees at %.4f%%" %
                     (name, e["kind"], e["index"], e["record"], e["command"], c["target"],
                      100 * c["agreement"]))
        if e["unsupported"]:
            fail("%s: record %d (%s) reports: %s" % (name, e["record"], e["command"],
                                                     "; ".join(e["unsupported"])))
    frames = [c["agreement"] for s in rep["swaps"] for c in s.get("compare", [])]
    if a.reference:
        frames = [s["reference_agreement"] for s in rep["swaps"] if "reference_agreement" in s]
    if t["draws"] == 0 or t["draws_failed"] or not frames or len(frames) != t["swaps"]:
        fail("%s: %d draws (%d failed), %d swaps, %d frames compared" %
             (name, t["draws"], t["draws_failed"], t["swaps"], len(frames)))
    if min(frames) < a.min or p.returncode != 0:
        fail("%s: a frame agrees at %.4f%% (rc %d)" % (name, 100 * min(frames), p.returncode))
    print("%s%s: %d draws, %d clears, %d swaps; worst comparison %.4f%%, worst frame %.4f%%" %
          (name, " --no-timing" if a.no_timing else "", t["draws"], t["clears"], t["swaps"],
           100 * worst, 100 * min(frames)))
    print("PASS")


if __name__ == "__main__":
    main()
