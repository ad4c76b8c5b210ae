#!/usr/bin/env python3
"""e2e test of doubles in the GPU model's frame layer: double vertex attributes (gmf_vertex.c)
and flat double varyings (gmf_program.c add_chunks).

Runs fp64_sample under the shim (frames 0-1 captured), then `glreplay model --compare --json`
with and without the timing model, and requires: every draw ran (none failed), no draw noted
anything (a "64-bit vertex attribute" note meant the attribute was not fetched), every
comparison after each draw and at each swap agrees with llvmpipe >= --min.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def check(args, cap, extra):
    p = subprocess.run([args.glreplay, "model", cap, "--compare", "--json"] + extra,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
    if p.returncode not in (0, 1):
        fail("glreplay model exited %d: %s" % (p.returncode, p.stderr.decode()[-500:]))
    rep = json.loads(p.stdout)
    name = "fp64_sample" + "".join(" " + e for e in extra)
    draws = [e for e in rep["events"] if e["kind"] == "draw"]
    worst = 1.0
    for e in draws:
        if e["unsupported"]:
            fail("%s: draw %d (%s): %s" % (name, e["index"], e["command"],
                                           "; ".join(e["unsupported"])))
        if e.get("failed") or not e.get("fs_lanes"):
            fail("%s: draw %d failed or shaded nothing" % (name, e["index"]))
        for c in e["compare"]:
            worst = min(worst, c["agreement"])
            if c["agreement"] < args.min:
                fail("%s: draw %d (record %d, %s) target %s agrees at %.4f%%" %
                     (name, e["index"], e["record"], e["command"], c["target"],
                      100 * c["agreement"]))
    frames = [c["agreement"] for s in rep["swaps"] for c in s.get("compare", [])]
    if len(draws) != 6 or rep["totals"]["draws_failed"] or len(frames) != 2:
        fail("%s: %d draws (%d failed), %d frames compared" %
             (name, len(draws), rep["totals"]["draws_failed"], len(frames)))
    if min(frames) < args.min or p.returncode != 0:
        fail("%s: a frame agrees at %.4f%% (rc %d)" % (name, 100 * min(frames), p.returncode))
    print("%s: %d draws, worst draw %.4f%%, worst frame %.4f%%" %
          (name, len(draws), 100 * worst, 100 * min(frames)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--min", type=float, default=0.999)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "fp64.glcap")
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0-1", GLREPLAY_CAPTURE_OUT=cap,
                   LD_PRELOAD=args.shim, EGL_PLATFORM="surfaceless")
        p = subprocess.run([args.sample, "--frames", "3"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            fail("capture failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-500:]))
        for extra in ([], ["--no-timing"]):
            check(args, cap, extra)
    print("PASS")


if __name__ == "__main__":
    main()
