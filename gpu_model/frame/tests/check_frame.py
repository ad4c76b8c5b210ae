#!/usr/bin/env python3
"""End-to-end checks of the GPU model's frame runner (`glreplay model`) on real captures.

  check_frame.py --glreplay G --shim S --samples DIR samples NAME [--min F]
  check_frame.py --glreplay G --shim S --samples DIR determinism NAME
  check_frame.py --glreplay G --shim S glmark2 SCENE
  check_frame.py --glreplay G bad-input

samples: NAME runs under the shim (frames 0-2 captured, 160x90), `glreplay model --compare --json`
replays the capture on the driver (llvmpipe) and in the model in lock step; every frame image
(swap) must agree with the driver at >= --min (default 0.999) of pixels within 1/255, every draw
must run. Actual agreements are printed. Samples named compute* (built next to this script,
gpu_model/frame/tests/compute_sample.c) are compared twice, with and without the timing model
(--no-timing), and every compute dispatch must run without a note.
determinism: two model runs of one capture give the same warp instruction trace (hash of draw,
stage, warp, pc, line, active mask), byte-identical images and the same per-draw reports, cycle
counts of the timing model included (every draw with fragments has cycles > 0); a third run with
--no-timing (executor alone) issues as many instructions and writes byte-identical images.
glmark2: a scene captured from frame 0 (glmark2 -s 160x120 -b SCENE:duration=0.2) is compared
the same way and must pass `--compare` outright (every comparison >= 99.9 %, no failed or
unsupported draw, every reference compared); exit 77 (skipped) when the capture holds no draw.
With --frames N (one frame), frame N of the scene is captured instead (glmark2 runs N+1 frames:
nframes=N+1, so scenes too slow for a duration still reach it) and must pass the same way; such a
mid-run capture starts from the shim's snapshot, and a capture without draws is a failure.
hollow: a frame with unmodelled draws (glBitmap) must fail `--compare` with its reasons.
bad-input: a missing and a corrupt capture give one error line and exit status 2.
Needs DISPLAY (the e2e suite runs under Xvfb)."""
import argparse
import filecmp
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def capture(args, tmp, cmd, frames, name):
    out = os.path.join(tmp, name + ".glcap")
    env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES=frames, GLREPLAY_CAPTURE_OUT=out,
               LD_PRELOAD=args.shim)
    p = subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90)
    if p.returncode != 0 or not os.path.exists(out):
        fail("capture of %s failed (rc %d): %s" % (name, p.returncode, p.stderr.decode()[-500:]))
    return out


def model(args, cap, *extra):
    p = subprocess.run([args.glreplay, "model", cap, "--json"] + list(extra), stdout=subprocess.PIPE,
                       stderr=subprocess.PIPE, timeout=300)
    if p.returncode not in (0, 1):
        fail("glreplay model %s exited %d: %s" % (cap, p.returncode, p.stderr.decode()[-500:]))
    try:
        return p.returncode, json.loads(p.stdout)
    except ValueError as e:
        fail("glreplay model --json printed invalid JSON (%s): %r" % (e, p.stdout[:200]))


def summarize(name, rep):
    frames = [c["agreement"] for s in rep["swaps"] for c in s.get("compare", [])]
    draws = [c["agreement"] for e in rep["events"] for c in e["compare"]]
    notes = sorted({u for e in rep["events"] for u in e["unsupported"]})
    t = rep["totals"]
    print("%s: %d draws, %d clears, %d swaps; frames vs llvmpipe: min %.4f%% over %d; "
          "after each draw/clear: min %.4f%% over %d comparisons" %
          (name, t["draws"], t["clears"], t["swaps"], 100 * min(frames or [1]), len(frames),
           100 * min(draws or [1]), len(draws)))
    for tg in rep["targets"]:
        print("  target %s: %d comparisons, min %.4f%%, final %.4f%%" %
              (tg["target"], tg["comparisons"], 100 * tg["min_agreement"],
               100 * tg["final_agreement"]))
    for n in notes:
        print("  unsupported: " + n)
    return frames, draws


def check_samples(args):
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(args.samples, args.name)
        frames_arg = args.frames or "0-2"
        last = int(frames_arg.split("-")[-1])
        cap = capture(args, tmp, [exe, "--frames", str(last + 2), "--size", "160x90"], frames_arg, args.name)
        # Compute samples also run with the executor alone (--no-timing): workgroups then run
        # in lock-step phases to each barrier instead of through the timing model.
        variants = [[], ["--no-timing"]] if args.name.startswith("compute") else [[]]
        for extra in variants:
            check_capture(args, cap, extra)
        print("PASS")


def check_capture(args, cap, extra):
    rc, rep = model(args, cap, "--compare", *extra)
    frames, _ = summarize(args.name + "".join(" " + e for e in extra), rep)
    t = rep["totals"]
    if t["draws"] == 0 or t["swaps"] == 0:
        fail("%s: no draws or swaps modelled" % args.name)
    if t["draws_failed"]:
        fail("%s: %d draws could not run in the model" % (args.name, t["draws_failed"]))
    # Compute dispatches run in the model (gmf_compute.c): none may fail or meet an
    # unsupported feature, and a sample that dispatches must show its dispatches.
    disp = [e for e in rep["events"] if e["command"].startswith("glDispatchCompute")]
    for e in disp:
        if e.get("failed") or e["unsupported"]:
            fail("%s: dispatch at record %d did not run in the model: %s" %
                 (args.name, e["record"], "; ".join(e["unsupported"]) or "failed"))
    if args.name.startswith("compute") and not disp:
        fail("%s: no compute dispatch modelled" % args.name)
    if len(frames) != t["swaps"]:
        fail("%s: %d of %d frames compared" % (args.name, len(frames), t["swaps"]))
    if min(frames) < args.min:
        fail("%s: a frame agrees with llvmpipe at %.4f%% < %.2f%%" %
             (args.name, 100 * min(frames), 100 * args.min))
    if args.min >= 0.999 and rc != 0:
        fail("%s: glreplay model --compare failed: %s" % (args.name, rep.get("fail_reasons")))


def check_determinism(args):
    with tempfile.TemporaryDirectory() as tmp:
        exe = os.path.join(args.samples, args.name)
        cap = capture(args, tmp, [exe, "--frames", "3", "--size", "160x90"], "0-2", args.name)
        runs = []
        for i in range(2):
            d = os.path.join(tmp, "png%d" % i)
            _, rep = model(args, cap, "--trace-hash", "--png", d)
            runs.append((d, rep))
        (d0, r0), (d1, r1) = runs
        t0, t1 = r0["trace"], r1["trace"]
        print("run 1: %d instructions, hash %s; run 2: %d instructions, hash %s; %d variable reads" %
              (t0["instructions"], t0["hash"], t1["instructions"], t1["hash"], t0["variable_reads"]))
        if t0["instructions"] == 0 or t0["variable_reads"] == 0:
            fail("the observer saw no instruction (or could not read a variable)")
        if t0 != t1:
            fail("two runs issued different warp instruction sequences")
        f0, f1 = sorted(os.listdir(d0)), sorted(os.listdir(d1))
        if not f0 or f0 != f1:
            fail("the runs wrote different image sets")
        match, mismatch, errors = filecmp.cmpfiles(d0, d1, f0, shallow=False)
        if mismatch or errors:
            fail("images differ between runs: %s" % (mismatch + errors)[:5])
        strip = lambda r: [{k: v for k, v in e.items() if k != "seconds"} for e in r["events"]]
        if strip(r0) != strip(r1):
            fail("per-draw reports differ between runs")
        draws = [e for e in r0["events"] if e["kind"] == "draw"]
        if not r0["totals"].get("timing") or not draws:
            fail("the timing model is not in use by default (or no draw ran)")
        for e in draws:
            if e["fs_lanes"] > 0 and (e.get("cycles", 0) <= 0 or e.get("fs_cycles", 0) <= 0):
                fail("draw %d has fragments but no cycle count: %s" % (e["index"], e))
        if r0["totals"]["cycles"] != sum(e["cycles"] for e in draws):
            fail("total cycles are not the sum of the draws' cycles")
        print("timing model: %d cycles over %d draws, identical in both runs" %
              (r0["totals"]["cycles"], len(draws)))
        # The executor alone must compute exactly the same images.
        d2 = os.path.join(tmp, "png_notiming")
        _, r2 = model(args, cap, "--trace-hash", "--png", d2, "--no-timing")
        if r2["totals"].get("timing") or any("cycles" in e for e in r2["events"]):
            fail("--no-timing still reports the timing model")
        if r2["trace"]["instructions"] != t0["instructions"]:
            fail("--no-timing issued %d instructions, the timing model %d" %
                 (r2["trace"]["instructions"], t0["instructions"]))
        if sorted(os.listdir(d2)) != f0:
            fail("--no-timing wrote a different image set")
        match, mismatch, errors = filecmp.cmpfiles(d0, d2, f0, shallow=False)
        if mismatch or errors:
            fail("images differ with --no-timing: %s" % (mismatch + errors)[:5])
        print("--no-timing: hash %s, images identical" % r2["trace"]["hash"])
        print("%d images identical; PASS" % len(f0))


def check_glmark2(args):
    frame = 0
    if args.frames is not None:
        if not args.frames.isdigit():
            fail("glmark2 mode takes one frame number in --frames, not %r" % args.frames)
        frame = int(args.frames)
    with tempfile.TemporaryDirectory() as tmp:
        # A mid-run frame: glmark2 renders exactly frame+1 frames, however slow the scene is on
        # llvmpipe (terrain and refract draw only 2 frames in 0.5 s at 320x240).
        length = "nframes=%d" % (frame + 1) if frame else "duration=0.2"
        cmd = ["glmark2", "-s", "160x120", "-b", args.name + ":" + length]
        cap = capture(args, tmp, cmd, str(frame), "glmark2_frame%d" % frame)
        rc, rep = model(args, cap, "--compare")
        if rep["totals"]["draws"] == 0 and frame:
            fail("the capture of frame %d of glmark2 %s holds no draw" % (frame, args.name))
        if rep["totals"]["draws"] == 0:
            print("SKIP: the capture of glmark2 %s holds no draw: the shim ends a capture when the "
                  "first context is destroyed and glmark2 destroys a probe context before drawing "
                  "(known, tests/replay/meson.build)" % args.name)
            sys.exit(77)
        summarize("glmark2 " + args.name, rep)
        # `model --compare` fails for any comparison below 99.9 %, any failed, skipped or
        # unsupported draw, any record the driver side could not replay and any reference image
        # it could not compare: the scene must pass on all of them.
        reasons = rep.get("fail_reasons") or "exit status %d" % rc
        if (rc != 0 or rep.get("result") != "pass") and frame and pixels_only(reasons):
            # glmark2 animates by time: a loaded machine reaches frame N later in the animation.
            # Some views of terrain differ from llvmpipe in a few pixels of its noise passes
            # (99.89-100 %, docs/FIDELITY.md), so a frame that fails on pixels alone is captured
            # once more; a systematic difference fails both captures.
            print("glmark2 %s: first capture below the bar (%s); capturing frame %d again" %
                  (args.name, reasons, frame))
            cap = capture(args, tmp, cmd, str(frame), "glmark2_frame%d_again" % frame)
            rc, rep = model(args, cap, "--compare")
            summarize("glmark2 " + args.name + " (again)", rep)
            reasons = rep.get("fail_reasons") or "exit status %d" % rc
        if rc != 0 or rep.get("result") != "pass":
            fail("glmark2 %s: glreplay model --compare failed: %s" % (args.name, reasons))
        print("PASS")


def pixels_only(reasons):
    """Whether --compare failed only on comparisons below the bar (no failed, skipped or
    unsupported draw, every record replayed)."""
    text = str(reasons)
    return "below" in text and not any(w in text for w in ("failed in the model", "unsupported", "skipped",
                                                            "could not", "not compared"))


def check_hollow(args):
    """A frame the model cannot run entirely must fail `--compare`, whatever its pixels say:
    piglit's dlist-fdo31590 draws with evaluators (glEvalCoord1f in a display list), which the
    model reports by name as not modelled. --compare must exit 1, say why, and never print PASS
    (glxgears, gl-1.0-bitmap-heart-dance and gl-1.0-rendermode-feedback, which served here
    before, are modelled now: tests/capture/check_glxgears_model.py, check_piglit_immediate.py,
    the pixel-path list of tests/capture/meson.build)."""
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "unmodelled.glcap")
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0", GLREPLAY_CAPTURE_OUT=cap, LD_PRELOAD=args.shim)
        p = subprocess.run([args.unmodelled, "-auto"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=60)
        if not os.path.exists(cap):
            fail("capture of %s failed (rc %d): %s" % (args.unmodelled, p.returncode, p.stderr.decode()[-500:]))
        rc, rep = model(args, cap, "--compare")
        reasons = rep.get("fail_reasons", "")
        print("%s: exit %d, result %s: %s" % (os.path.basename(args.unmodelled), rc, rep.get("result"), reasons))
        if rc != 1 or rep.get("result") != "fail":
            fail("a frame with unmodelled draws passed --compare")
        if "unsupported" not in reasons:
            fail("the failure does not name the unsupported features: %r" % reasons)
        p = subprocess.run([args.glreplay, "model", cap, "--compare"], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, timeout=300)
        text = p.stdout.decode()
        if p.returncode != 1 or "compare: FAIL:" not in text or "PASS" in text:
            fail("text output: exit %d, %r" % (p.returncode, text[-400:]))
        print("PASS")


def check_bad_input(args):
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "corrupt.glcap")
        with open(bad, "wb") as f:
            f.write(b"\x89GLCAP\r\n" + b"\x01\x00\x00\x00" + os.urandom(200))
        for path in (os.path.join(tmp, "missing.glcap"), bad):
            p = subprocess.run([args.glreplay, "model", path], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, timeout=30)
            err = p.stderr.decode().strip()
            if p.returncode != 2 or not err or "\n" in err:
                fail("glreplay model %s: rc %d, stderr %r" % (path, p.returncode, err))
            print("%s: %s" % (os.path.basename(path), err))
        p = subprocess.run([args.glreplay, "model", "--bogus"], stderr=subprocess.PIPE, timeout=30)
        if p.returncode != 2:
            fail("an unknown option must exit 2")
        print("PASS")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--shim")
    ap.add_argument("--samples")
    ap.add_argument("--min", type=float, default=0.999)
    ap.add_argument("--unmodelled", help="a piglit binary the model reports unmodelled draws of (mode hollow)")
    ap.add_argument("--frames", help="frames to capture (default 0-2; later frames start from the snapshot)")
    ap.add_argument("mode", choices=["samples", "determinism", "glmark2", "hollow", "bad-input"])
    ap.add_argument("name", nargs="?")
    args = ap.parse_args()
    {"samples": check_samples, "determinism": check_determinism, "glmark2": check_glmark2,
     "hollow": check_hollow, "bad-input": check_bad_input}[args.mode](args)


if __name__ == "__main__":
    main()
