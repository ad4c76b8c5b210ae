#!/usr/bin/env python3
"""e2e test of geometry shaders in the GPU model (gmf_geometry.c).

Runs gs_sample under the shim (frames 0-2 captured, 160x90), then `glreplay model --compare
--json` with and without the timing model, and requires: every draw ran (none failed), no draw
reported an unsupported feature (a geometry shader the model skipped is reported so), every
comparison after each draw and at each swap agrees with llvmpipe >= --min, and the draws
really went through a geometry shader (primitives counted). --draws: the draws expected in
the 3 captured frames (gs_sample: 21; layered_sample: 6, its window shows every layer of its
layered attachment, so the swap comparison covers them).
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


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--sample", required=True)
    ap.add_argument("--min", type=float, default=0.999)
    ap.add_argument("--draws", type=int, default=21)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "gs.glcap")
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0-2", GLREPLAY_CAPTURE_OUT=cap,
                   LD_PRELOAD=args.shim)
        p = subprocess.run([args.sample, "--frames", "4", "--size", "160x90"], env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            fail("capture failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-500:]))
        for extra in ([], ["--no-timing"]):
            p = subprocess.run([args.glreplay, "model", cap, "--compare", "--json"] + extra,
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
            if p.returncode not in (0, 1):
                fail("glreplay model exited %d: %s" % (p.returncode, p.stderr.decode()[-500:]))
            rep = json.loads(p.stdout)
            name = os.path.basename(args.sample) + "".join(" " + e for e in extra)
            t = rep["totals"]
            draws = [e for e in rep["events"] if e["kind"] == "draw"]
            worst = 1.0
            for e in draws:
                for c in e["compare"]:
                    worst = min(worst, c["agreement"])
                    if c["agreement"] < args.min:
                        fail("%s: draw %d (record %d, %s) target %s agrees at %.4f%%" %
                             (name, e["index"], e["record"], e["command"], c["target"],
                              100 * c["agreement"]))
                if e["unsupported"]:
                    fail("%s: draw %d (%s): %s" % (name, e["index"], e["command"],
                                                   "; ".join(e["unsupported"])))
                if e.get("failed"):
                    fail("%s: draw %d failed" % (name, e["index"]))
                if not e.get("primitives"):
                    fail("%s: draw %d produced no primitives" % (name, e["index"]))
            frames = [c["agreement"] for s in rep["swaps"] for c in s.get("compare", [])]
            if len(draws) != args.draws or t["draws_failed"] or t["swaps"] != 3 or len(frames) != 3:
                fail("%s: %d draws (%d failed), %d swaps, %d frames compared" %
                     (name, len(draws), t["draws_failed"], t["swaps"], len(frames)))
            if min(frames) < args.min or p.returncode != 0:
                fail("%s: a frame agrees at %.4f%% (rc %d)" % (name, 100 * min(frames), p.returncode))
            print("%s: %d draws, worst draw %.4f%%, worst frame %.4f%%" %
                  (name, len(draws), 100 * worst, 100 * min(frames)))
    print("PASS")


if __name__ == "__main__":
    main()
