#!/usr/bin/env python3
"""End-to-end check of PC sampling and edge profiles on a real capture.

Captures frames 0..K-1 of a sample under the shim (`glreplay capture`, frame 0 so the capture
needs no initial-state snapshot), then runs gmt_pcsamp_capture on it, which runs the frame in
the GPU model with the samplers and checks their invariants (sample accounting, per-line sums,
flow conservation, B=C=1 sampled profile == exact) and that the B=1000 edge-profile error is at
most --max-error. Also checks the written outputs: JSON parses and has per-line data, the DOT
has a digraph per program stage, the annotated source shows source text.
Exit 0 pass, 1 fail."""
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
    ap.add_argument("--samples", required=True)
    ap.add_argument("--driver", required=True)
    ap.add_argument("--size", default="640x480")
    ap.add_argument("--count", type=int, default=4)
    ap.add_argument("--max-error", default="0.05")
    ap.add_argument("sample")
    a = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, a.sample + ".glcap")
        cmd = [a.glreplay, "capture", "--frame", "0", "--count", str(a.count), "--out", cap, "--",
               os.path.join(a.samples, a.sample), "--frames", str(a.count + 1), "--size", a.size]
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
        if p.returncode != 0 or not os.path.exists(cap):
            fail("capture failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-800:]))
        out = os.path.join(tmp, "out")
        os.mkdir(out)
        p = subprocess.run([a.driver, cap, "--size", a.size, "--out", out, "--max-error", a.max_error],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        sys.stdout.write(p.stdout.decode())
        sys.stdout.write(p.stderr.decode())
        if p.returncode != 0:
            fail("gmt_pcsamp_capture exit status %d" % p.returncode)
        with open(os.path.join(out, "profile.json")) as f:
            j = json.load(f)
        ps = j["pcsamp"]
        if ps["stats"]["total"] != ps["stats"]["samples"] + ps["stats"]["dropped"]:
            fail("pcsamp JSON: total != samples + dropped")
        lines = [l for p in ps["programs"] for l in p["lines"]]
        if not lines or not all("reasons" in l and l["samples"] > 0 for l in lines):
            fail("pcsamp JSON: no per-line data")
        if not any(p["path"] for p in ps["programs"]):
            fail("pcsamp JSON: no program has a path")
        ed = j["edges"]
        if ed["stats"]["error"] is None or not ed["programs"]:
            fail("edges JSON: no error or no program")
        with open(os.path.join(out, "edges.dot")) as f:
            dot = f.read()
        if dot.count("digraph ") != len(ed["programs"]) or "entry -> b0" not in dot:
            fail("DOT: expected one digraph per program stage with an entry edge")
        with open(os.path.join(out, "annotated.txt")) as f:
            ann = f.read()
        if "void main" not in ann or " | " not in ann:
            fail("annotated source: no source text")
        with open(os.path.join(out, "hotspots.txt")) as f:
            hot = f.read()
        if "scheduler states" not in hot:
            fail("hotspot table missing")
    print("PASS")


if __name__ == "__main__":
    main()
