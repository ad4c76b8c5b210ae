#!/usr/bin/env python3
"""End-to-end check of the exact-size trace buffers on a real capture.

  check_tracebuf.py --glreplay G --samples DIR --e2e EXE --dump EXE SAMPLE TYPES
  check_tracebuf.py --glreplay G --e2e EXE --dump EXE --glmark2 SCENE TYPES

Captures frame 1 of a sample (160x90), or frame 3 of a glmark2 scene (160x120, 1 s), both starting from
the shim's initial-state snapshot, with `glreplay capture` (the shim preloaded), then runs
EXE (gmt_test_tracebuf_e2e) on it: two frame-runner passes with the tracebuf hooks, exact
buffers, merged trace == single-buffer reference, file round trip. Also checks the JSON lines
file parses line by line and that the dump tool refuses a truncated copy of the binary file
with one error line. Needs DISPLAY (the e2e suite runs under Xvfb). A glmark2 capture without a
draw is skipped (exit 77; frame 0 would be glmark2's probe context, which never draws)."""
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
    ap.add_argument("--samples")
    ap.add_argument("--glmark2", action="store_true", help="NAME is a glmark2 scene")
    ap.add_argument("--e2e", required=True)
    ap.add_argument("--dump", required=True)
    ap.add_argument("name")
    ap.add_argument("types")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, args.name + ".glcap")
        if args.glmark2:
            app = ["glmark2", "-s", "160x120", "-b", args.name + ":duration=1.0"]
            frame = "3"
        else:
            app = [os.path.join(args.samples, args.name), "--frames", "3", "--size", "160x90"]
            frame = "1"
        p = subprocess.run([args.glreplay, "capture", "--frame", frame, "--out", cap, "--"] + app,
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        if p.returncode != 0 or not os.path.exists(cap):
            fail("capture of %s failed (rc %d): %s" % (args.name, p.returncode,
                                                        p.stderr.decode()[-500:]))
        p = subprocess.run([args.e2e, cap, args.types, tmp, args.dump], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=300)
        sys.stdout.write(p.stdout.decode())
        if p.returncode == 77 and args.glmark2:
            sys.exit(77)
        if p.returncode != 0:
            fail("%s exited %d" % (args.e2e, p.returncode))
        with open(os.path.join(tmp, "trace.jsonl")) as f:
            lines = f.read().splitlines()
        head = json.loads(lines[0])
        recs = [json.loads(l) for l in lines[1:]]
        if head.get("format") != "gmt_tracebuf" or len(recs) != sum(head["records"].values()):
            fail("JSON lines header %r does not match %d records" % (lines[0][:200], len(recs)))
        keys = [(r["warp"], r["seq"]) for r in recs]
        if keys != sorted(keys) or len(set(keys)) != len(keys):
            fail("JSON lines records are not in (warp, seq) order")
        types = {r["type"] for r in recs}
        print("JSON lines: %d records of types %s" % (len(recs), sorted(types)))
        binf = os.path.join(tmp, "trace.gmtb")
        with open(binf, "rb") as f:
            data = f.read()
        bad = os.path.join(tmp, "bad.gmtb")
        with open(bad, "wb") as f:
            f.write(data[:len(data) // 2])
        p = subprocess.run([args.dump, bad], stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
        err = p.stderr.decode().strip()
        if p.returncode != 2 or "truncated" not in err or len(err.splitlines()) != 1:
            fail("dump of a truncated file: rc %d, %r" % (p.returncode, err))
    print("ok")


if __name__ == "__main__":
    main()
