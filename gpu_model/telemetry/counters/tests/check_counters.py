#!/usr/bin/env python3
"""End-to-end test of the counters on a real capture.

  check_counters.py --driver gmt_e2e_counters --shim libglreplay.so --samples DIR NAME
  check_counters.py --driver gmt_e2e_counters --shim libglreplay.so --glmark2 SCENE

Runs sample NAME under the shim (frames 0-1 captured from context creation, 160x90) or
glmark2's SCENE (frame 0, 160x120, duration 0.2 s; exit 77, skipped, when that capture holds
no draw), then
gmt_e2e_counters runs the capture through the frame runner with the counters' hooks and checks
the invariants and the agreement with the timing model's and the runner's totals (see
e2e_counters.c). Needs DISPLAY (the e2e suite runs under Xvfb)."""
import argparse
import os
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--driver", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--samples")
    ap.add_argument("--glmark2", action="store_true", help="NAME is a glmark2 scene")
    ap.add_argument("name")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, args.name + ".glcap")
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0" if args.glmark2 else "0-1",
                   GLREPLAY_CAPTURE_OUT=cap, LD_PRELOAD=args.shim)
        if args.glmark2:
            cmd = ["glmark2", "-s", "160x120", "-b", args.name + ":duration=0.2"]
        else:
            cmd = [os.path.join(args.samples, args.name), "--frames", "3", "--size", "160x90"]
        p = subprocess.run(cmd, env=env,
                           stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            print("FAIL: capture of %s failed (rc %d): %s" %
                  (args.name, p.returncode, p.stderr.decode(errors="replace")[-500:]))
            return 1
        p = subprocess.run([args.driver, cap], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                           timeout=200)
        out = p.stdout.decode(errors="replace")
        print(out)
        if p.returncode == 77:
            return 77
        if p.returncode != 0 or not out.rstrip().endswith("PASS"):
            print("FAIL: %s exited %d" % (os.path.basename(args.driver), p.returncode))
            return 1
        # Bad input gives one clear error and status 2, never a crash.
        bad = os.path.join(tmp, "bad.glcap")
        with open(cap, "rb") as f:
            data = f.read()
        with open(bad, "wb") as f:
            f.write(data[: len(data) // 2])
        for path in (bad, os.path.join(tmp, "missing.glcap")):
            p = subprocess.run([args.driver, path], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               timeout=60)
            if p.returncode != 2 or not p.stderr.strip():
                print("FAIL: %s on a bad capture: exit %d, stderr %r" %
                      (os.path.basename(args.driver), p.returncode, p.stderr[-300:]))
                return 1
        return 0


if __name__ == "__main__":
    sys.exit(main())
