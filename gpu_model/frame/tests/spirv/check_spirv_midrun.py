#!/usr/bin/env python3
"""e2e test: a SPIR-V program captured mid-run (GL_ARB_gl_spirv in the snapshot).

spirv_sample links its SPIR-V program before its first frame and draws it every frame; frames
2-3 are captured, so the program exists only in the capture's initial state. Requires: the
headless replay restores it on the driver (glShaderBinary + glSpecializeShader) and reproduces
the captured frames (`glreplay replay --verify`, exit 0); the GPU model runs it from the
snapshot's modules and specialization constant: every draw agrees with llvmpipe >= --min, none
failed or reported unsupported, and both swaps are compared.
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
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "spirv.glcap")
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="2-3", GLREPLAY_CAPTURE_OUT=cap,
                   LD_PRELOAD=args.shim)
        p = subprocess.run([args.sample, "--frames", "5"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=90)
        if p.returncode == 77:
            print("SKIP: no GL_ARB_gl_spirv")
            sys.exit(77)
        if p.returncode != 0 or not os.path.exists(cap):
            fail("capture failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-500:]))
        p = subprocess.run([args.glreplay, "replay", cap, "--verify"], stdout=subprocess.PIPE,
                           stderr=subprocess.STDOUT, timeout=120)
        if p.returncode != 0:
            fail("replay --verify exited %d: %s" % (p.returncode, p.stdout.decode()[-800:]))
        p = subprocess.run([args.glreplay, "model", cap, "--compare", "--json"],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=300)
        if p.returncode not in (0, 1):
            fail("glreplay model exited %d: %s" % (p.returncode, p.stderr.decode()[-500:]))
        rep = json.loads(p.stdout)
        draws = [e for e in rep["events"] if e["kind"] == "draw"]
        if len(draws) != 4:
            fail("%d draws in the 2 captured frames, expected 4" % len(draws))
        for e in draws:
            if e.get("failed") or e["unsupported"]:
                fail("draw %d (%s) failed or unsupported: %s" %
                     (e["index"], e["command"], "; ".join(e["unsupported"])))
            for c in e["compare"]:
                if c["agreement"] < args.min:
                    fail("draw %d target %s agrees at %.4f%%" % (e["index"], c["target"],
                                                               100 * c["agreement"]))
        frames = [c["agreement"] for s in rep["swaps"] for c in s.get("compare", [])]
        if len(frames) != 2 or min(frames) < args.min or p.returncode != 0:
            fail("frames compared: %s (rc %d)" % (frames, p.returncode))
        print("4 draws agree, frames at %s" % ", ".join("%.4f%%" % (100 * f) for f in frames))
    print("PASS")


if __name__ == "__main__":
    main()
