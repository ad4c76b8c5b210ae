#!/usr/bin/env python3
"""Checks that a change to the timing model left everything observable byte-identical.

A speed-up of the timing model (gpu_model/timing) must not change the issue order, cycles,
stall reasons, counters or trace buffers. This script runs one glreplay binary over a set of
captures and writes the md5 of every observable output (66 files over the six default
captures on 2026-11-28: tim17 counted 42 before every draw's image was one file):
  - `model --json` (minus the wall-clock `*seconds` fields), `model --trace-hash`, every
    `model --png` image;
  - `profile --json --counters`, with and without `--pc-sampling 64 --edges 16`;
  - on the small captures (those under --small-below bytes of model work, by default the piglit
    and glmark2 ones): `profile --json --trace-buffers all --trace-out F.jsonl` and the Perfetto
    (Chrome Trace Event JSON) `profile --out` with counters and PC samples.

Usage:
  make the captures once (lit_mesh frames 0-2 at 640x360, glmark2 phong frame 3 and
  texture-filter=linear frame 5 at 320x240, three piglit shader_runner tests):
    check_timing_identical.py make-captures --glreplay build/ui_ipc/cli/glreplay \
        --shim build/shim/libglreplay.so --samples build/samples --dir /tmp/tcaps
  record a binary's outputs (BASE first, built from the commit you start from):
    check_timing_identical.py record --glreplay BASE/ui_ipc/cli/glreplay --dir /tmp/tcaps > base.md5
    check_timing_identical.py record --glreplay build/ui_ipc/cli/glreplay --dir /tmp/tcaps > new.md5
  compare (exit 1 and the differing files when they differ):
    check_timing_identical.py compare base.md5 new.md5
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

# The report without its wall-clock times: the one definition, with the threads check.
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "frame", "tests"))
from check_threads import strip_seconds  # noqa: E402

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
PIGLIT_TESTS = [
    ("barrier", "arb_compute_shader/execution/simple-barrier-atomics.shader_test"),
    ("loopcont", "glsl-1.30/execution/fs-loop-cont-else-bug.shader_test"),
    ("shadow", "glsl-1.30/execution/fs-texture-sampler2dshadow-03.shader_test"),
]
GLMARK2_SCENES = [("phong", "shading:shading=phong", 3), ("texture", "texture:texture-filter=linear", 5)]
# The big capture gets no trace-buffer / Perfetto files (they are hundreds of MB for lit360).
BIG = ("lit360",)


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, env=None, timeout=900):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=timeout)
    return p.returncode, p.stdout, p.stderr.decode(errors="replace")


def make_captures(args):
    os.makedirs(args.dir, exist_ok=True)
    out = os.path.join(args.dir, "lit360.glcap")
    env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0-2", GLREPLAY_CAPTURE_OUT=out, LD_PRELOAD=args.shim)
    p = subprocess.run([os.path.join(args.samples, "lit_mesh"), "--frames", "3", "--size", "640x360"],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0 or not os.path.exists(out):
        fail("capture of lit_mesh failed: %s" % p.stderr.decode()[-400:])
    glmark2 = shutil.which("glmark2")
    for name, scene, frame in GLMARK2_SCENES if glmark2 else []:
        out = os.path.join(args.dir, name + ".glcap")
        rc, _, err = run([args.glreplay, "capture", "--frame", str(frame), "--out", out, "--", glmark2,
                          "-s", "320x240", "-b", "%s:nframes=%d" % (scene, frame + 2)], timeout=120)
        if rc != 0 or not os.path.exists(out):
            fail("glmark2 %s capture failed (rc %d): %s" % (scene, rc, err[-400:]))
    if not glmark2:
        print("glmark2 not found: its captures are not made", file=sys.stderr)
    runner = os.path.join(PIGLIT, "bin", "shader_runner")
    for name, test in PIGLIT_TESTS if os.path.exists(runner) else []:
        out = os.path.join(args.dir, name + ".glcap")
        env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
        rc, _, err = run([args.glreplay, "capture", "--frame", "0", "--out", out, "--", runner,
                          os.path.join(PIGLIT, "tests", "spec", test), "-auto", "-fbo"], env, timeout=120)
        if rc != 0 or not os.path.exists(out):
            fail("piglit %s capture failed (rc %d): %s" % (name, rc, err[-400:]))
    print("captures in %s: %s" % (args.dir, " ".join(sorted(os.listdir(args.dir)))))


def md5(data):
    return hashlib.md5(data).hexdigest()


def json_md5(stdout, what):
    try:
        return md5(json.dumps(strip_seconds(json.loads(stdout)), sort_keys=True).encode())
    except ValueError:
        fail("%s: not JSON: %r" % (what, stdout[:200]))


def checked(cmd, env):
    rc, out, err = run(cmd, env)
    # model exits 1 when the model and the driver disagree: still an output to compare
    if rc not in (0, 1):
        fail("%s exited %d: %s" % (" ".join(cmd), rc, err[-400:]))
    return out


def record(args):
    env = dict(os.environ, MESA_SHADER_CACHE_DISABLE="true", LP_NUM_THREADS="0")
    g = args.glreplay
    caps = sorted(f for f in os.listdir(args.dir) if f.endswith(".glcap"))
    if not caps:
        fail("no .glcap in %s (run make-captures first)" % args.dir)
    lines = []
    with tempfile.TemporaryDirectory() as tmp:
        for f in caps:
            name = f[:-len(".glcap")]
            cap = os.path.join(args.dir, f)
            pngdir = os.path.join(tmp, name + "_png")
            os.makedirs(pngdir)
            out = checked([g, "model", cap, "--json", "--png", pngdir], env)
            lines.append((name + " model.json", json_md5(out, name + " model --json")))
            for root, _, files in sorted(os.walk(pngdir)):
                for img in sorted(files):
                    path = os.path.join(root, img)
                    with open(path, "rb") as fh:
                        lines.append((name + " png " + os.path.relpath(path, pngdir), md5(fh.read())))
            out = checked([g, "model", cap, "--trace-hash"], env)
            # the text report says the model's wall-clock seconds: left out
            out = re.sub(rb"[0-9.]+ s in the model", b"S s in the model", out)
            lines.append((name + " trace-hash", md5(out)))
            out = checked([g, "profile", cap, "--json", "--counters"], env)
            lines.append((name + " profile.json", json_md5(out, name + " profile --json")))
            out = checked([g, "profile", cap, "--json", "--counters", "--pc-sampling", "64", "--edges", "16"],
                          env)
            lines.append((name + " profile-pc.json", json_md5(out, name + " profile --pc-sampling")))
            if name in BIG:
                continue
            tb = os.path.join(tmp, name + "_tb.jsonl")
            out = checked([g, "profile", cap, "--json", "--trace-buffers", "all", "--trace-out", tb], env)
            lines.append((name + " profile-tb.json", json_md5(out, name + " profile --trace-buffers")))
            with open(tb, "rb") as fh:
                lines.append((name + " trace-buffers.jsonl", md5(fh.read())))
            pf = os.path.join(tmp, name + "_trace.json")
            checked([g, "profile", cap, "--counters", "--pc-sampling", "64", "--out", pf], env)
            with open(pf, "rb") as fh:
                lines.append((name + " perfetto.json", md5(fh.read())))
    for what, h in lines:
        print("%s  %s" % (h, what))
    print("%d files" % len(lines), file=sys.stderr)


def load(path):
    d = {}
    with open(path) as fh:
        for line in fh:
            if line.strip():
                h, what = line.rstrip("\n").split("  ", 1)
                d[what] = h
    return d


def compare(args):
    a, b = load(args.a), load(args.b)
    if not a:
        fail("%s is empty" % args.a)
    bad = [w for w in sorted(set(a) | set(b)) if a.get(w) != b.get(w)]
    for w in bad:
        print("differs: %s (%s / %s)" % (w, a.get(w, "missing"), b.get(w, "missing")))
    if bad:
        fail("%d of %d files differ" % (len(bad), len(a)))
    print("identical: %d files" % len(a))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    m = sub.add_parser("make-captures")
    m.add_argument("--glreplay", required=True)
    m.add_argument("--shim", required=True)
    m.add_argument("--samples", required=True)
    m.add_argument("--dir", required=True)
    r = sub.add_parser("record")
    r.add_argument("--glreplay", required=True)
    r.add_argument("--dir", required=True)
    c = sub.add_parser("compare")
    c.add_argument("a")
    c.add_argument("b")
    args = ap.parse_args()
    {"make-captures": make_captures, "record": record, "compare": compare}[args.cmd](args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
