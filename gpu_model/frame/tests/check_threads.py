#!/usr/bin/env python3
"""The GPU model on several threads gives the single-thread run's results, byte for byte.

  check_threads.py --glreplay G --shim S --samples DIR [--glmark2 SCENE ...]

Captures frames 0-2 of the samples (lit_mesh, multipass, instanced, gles3_egl, legacy_gl21) at
160x90, frame 0 of piglit's arb_texture_barrier-texture-halves-ping-pong-operation-chain (every
draw samples the texture it renders to: a feedback loop; its target is not written as PNG, so
only its report and thread count are compared) and frame 3 of glmark2 scenes (160x120;
skipped when glmark2 is missing), then runs
`glreplay model --json --png DIR` on each with --threads 1 and 2:
  * without the timing model (--no-timing: the draws that can run threaded do), and on
    lit_mesh and multipass also with 3 threads and
  * with the timing model and --trace-hash (every draw falls back to one thread: the observer
    and the timing model see one global instruction order), and with the timing model alone
    on every capture (a worker runs each warp of a draw that allows it from launch to end
    ahead of its launch, gmf_threads.c "the timing model's warps on workers"; on lit_mesh and
    multipass also with 3 threads),
and requires the same JSON report (every key but the wall-clock "*seconds" ones), the same set of
PNG files with identical bytes, and the same instruction trace hash; with the timing model
also the same totals line of `--benchmark` (texture lines and hits, warp-cycles per state:
not in the report). `--benchmark --threads 2`
must report threaded draws on every capture but the feedback loop, both with --no-timing and
with the timing model (the comparison would otherwise compare one thread with itself; a draw
with a feedback loop never threads with the timing model), GLREPLAY_MODEL_THREADS=2 must
thread as --threads 2 does, and a bad
GLREPLAY_MODEL_THREADS value or --threads value is one error line with exit status 2.
Needs DISPLAY (the e2e suite runs under Xvfb)."""
import argparse
import filecmp
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def strip_seconds(o):
    """The report without wall-clock times, the only values that may differ between runs."""
    if isinstance(o, dict):
        return {k: strip_seconds(v) for k, v in o.items() if not k.endswith("seconds")}
    if isinstance(o, list):
        return [strip_seconds(x) for x in o]
    return o


def run(args, cmd, env=None, timeout=300):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env, timeout=timeout)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def model(args, cap, png, threads, extra, env=None):
    cmd = [args.glreplay, "model", cap, "--json", "--png", png] + extra
    if threads:
        cmd += ["--threads", str(threads)]
    rc, out, err = run(args, cmd, env)
    if rc not in (0, 1):
        fail("%s exited %d: %s" % (" ".join(cmd), rc, err[-400:]))
    try:
        return rc, json.loads(out)
    except ValueError as e:
        fail("invalid JSON from %s: %s" % (" ".join(cmd), e))


def same_pngs(d0, d1, what, need_images=True):
    f0 = sorted(os.listdir(d0)) if os.path.isdir(d0) else []
    f1 = sorted(os.listdir(d1)) if os.path.isdir(d1) else []
    if not f0 and need_images:
        fail("%s: no image written" % what)
    if f0 != f1:
        fail("%s: different image sets: %s" % (what, sorted(set(f0) ^ set(f1))[:5]))
    _, mismatch, errors = filecmp.cmpfiles(d0, d1, f0, shallow=False)
    if mismatch or errors:
        fail("%s: images differ: %s" % (what, (mismatch + errors)[:5]))
    return len(f0)


def threaded_draws(args, cap, extra_env=None, threads_opt=True, timing=False, threads=2):
    """Draws run threaded, from --benchmark's report line; with the timing model also its
    totals line (instructions, lanes, texture requests/lines/hits, warp-cycles per state)."""
    cmd = [args.glreplay, "model", cap, "--benchmark"] + ([] if timing else ["--no-timing"])
    if threads_opt:
        cmd += ["--threads", str(threads)]
    env = dict(os.environ, **(extra_env or {}))
    rc, out, err = run(args, cmd, env)
    m = re.search(r"benchmark: model threads (\d+): (\d+) draws threaded, (\d+) on one thread", out)
    if rc not in (0, 1) or not m:
        fail("%s: no thread report (rc %d): %s %s" % (" ".join(cmd), rc, out[-300:], err[-300:]))
    if timing:
        t = re.search(r"benchmark: timing model: .*", out)
        if not t:
            fail("%s: no timing model totals: %s" % (" ".join(cmd), out[-300:]))
        return int(m.group(1)), int(m.group(2)), int(m.group(3)), t.group(0)
    return int(m.group(1)), int(m.group(2)), int(m.group(3))


def compare_capture(args, tmp, name, cap, full):
    """full: also 3 threads, and the timing model with --trace-hash (one thread by design)."""
    draws = None
    # "timing": the timing model without an observer, where warps run ahead of their issue
    # (across texture fetches where gmf_tex_ahead.c allows it), on workers with 2 threads.
    modes = [("no-timing", ["--no-timing"])] + ([("timing+trace", ["--trace-hash"])] if full else []) + \
        [("timing", [])]
    for mode, extra in modes:
        ref = None
        for threads in ((1, 2, 3) if mode != "timing+trace" and full else (1, 2)):
            png = os.path.join(tmp, "%s_%s_%d" % (name, mode, threads))
            rc, rep = model(args, cap, png, threads, extra)
            rep = strip_seconds(rep)
            if ref is None:
                ref = (rc, rep, png)
                draws = len([e for e in rep["events"] if e["kind"] == "draw"])
                if draws == 0:
                    fail("%s: the capture has no draw" % name)
                continue
            what = "%s %s, 1 vs %d threads" % (name, mode, threads)
            if rc != ref[0]:
                fail("%s: exit status %d vs %d" % (what, ref[0], rc))
            if rep != ref[1]:
                diff = [i for i, (a, b) in enumerate(zip(ref[1]["events"], rep["events"])) if a != b]
                fail("%s: JSON reports differ (events %s; totals equal: %s)" %
                     (what, diff[:5], ref[1]["totals"] == rep["totals"]))
            if "trace-hash" in " ".join(extra) and (rep.get("trace") != ref[1].get("trace") or
                                                   not rep.get("trace", {}).get("instructions")):
                fail("%s: trace hash differs or is empty" % what)
            # the feedback capture's target (a float texture) is not written as PNG
            n = same_pngs(ref[2], png, what, need_images="feedback" not in name)
        print("%s %s: %d draws, %d images, reports identical with 1 to %d threads" %
              (name, mode, draws, n, threads))
    nthr, thr, single = threaded_draws(args, cap)
    if nthr != 2 or thr == 0:
        fail("%s: --threads 2 --no-timing ran %d draws threaded (threads %d)" % (name, thr, nthr))
    print("%s: %d of %d draws threaded without the timing model" % (name, thr, thr + single))
    # The timing model's texture lines, hits and stall totals are not in the JSON report
    # (and a cache that holds every line hides lost lines from the cycles): compared here.
    _, _, _, tm1 = threaded_draws(args, cap, timing=True, threads=1)
    nthr, thr, single, tm2 = threaded_draws(args, cap, timing=True)
    if tm1 != tm2:
        fail("%s: timing model totals differ, 1 vs 2 threads:\n  %s\n  %s" % (name, tm1, tm2))
    if "feedback" in name:
        if thr:
            fail("%s: %d draws threaded with the timing model (a feedback loop)" % (name, thr))
    elif nthr != 2 or thr == 0:
        fail("%s: --threads 2 with the timing model ran %d draws threaded (threads %d)" %
             (name, thr, nthr))
    print("%s: %d of %d draws threaded with the timing model, its totals identical" %
          (name, thr, thr + single))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--glmark2", action="append", default=[])
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        caps = []
        for name in ("lit_mesh", "multipass", "instanced", "gles3_egl", "legacy_gl21"):
            out = os.path.join(tmp, name + ".glcap")
            env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0-2", GLREPLAY_CAPTURE_OUT=out,
                       LD_PRELOAD=args.shim)
            p = subprocess.run([os.path.join(args.samples, name), "--frames", "3", "--size", "160x90"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=90)
            if p.returncode != 0 or not os.path.exists(out):
                fail("capture of %s failed: %s" % (name, p.stderr.decode()[-400:]))
            caps.append((name, out))
        glmark2 = shutil.which("glmark2")
        for scene in args.glmark2 if glmark2 else []:
            out = os.path.join(tmp, "glmark2_%s.glcap" % re.sub(r"\W", "_", scene))
            rc, _, err = run(args, [args.glreplay, "capture", "--frame", "3", "--out", out, "--", glmark2,
                                    "-s", "160x120", "-b", scene + ":nframes=5"], timeout=120)
            if rc != 0 or not os.path.exists(out):
                fail("glmark2 %s capture failed (rc %d): %s" % (scene, rc, err[-400:]))
            caps.append(("glmark2 " + scene, out))
        # A feedback loop: each draw samples one half of the texture it renders into (the
        # threaded draw then reads that texture only in serial sections).
        pig = "/usr/lib/x86_64-linux-gnu/piglit/bin/arb_texture_barrier-texture-halves-ping-pong-operation-chain"
        if os.path.exists(pig):
            out = os.path.join(tmp, "feedback.glcap")
            env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
            rc, _, err = run(args, [args.glreplay, "capture", "--frame", "0", "--out", out, "--", pig,
                                    "-auto", "-fbo"], env, timeout=120)
            if rc != 0 or not os.path.exists(out):
                fail("piglit texture-halves capture failed (rc %d): %s" % (rc, err[-400:]))
            caps.insert(2, ("piglit texture-halves (feedback loop)", out))
        if args.glmark2 and not glmark2:
            print("glmark2 not found: its scenes are not checked")
        for i, (name, cap) in enumerate(caps):
            compare_capture(args, tmp, name, cap, full=i in (0, 1))

        cap = caps[0][1]
        nthr, thr, _ = threaded_draws(args, cap, {"GLREPLAY_MODEL_THREADS": "2"}, threads_opt=False)
        if nthr != 2 or thr == 0:
            fail("GLREPLAY_MODEL_THREADS=2: %d threads, %d draws threaded" % (nthr, thr))
        nthr, thr, _ = threaded_draws(args, cap, {"GLREPLAY_MODEL_THREADS": "1"}, threads_opt=False)
        if nthr != 1 or thr != 0:
            fail("GLREPLAY_MODEL_THREADS=1: %d threads, %d draws threaded" % (nthr, thr))
        print("GLREPLAY_MODEL_THREADS=2 threads, =1 does not")
        for env, opt in (({"GLREPLAY_MODEL_THREADS": "lots"}, []), ({}, ["--threads", "0"]),
                         ({}, ["--threads", "65"])):
            rc, out, err = run(args, [args.glreplay, "model", cap] + opt, dict(os.environ, **env))
            lines = [l for l in err.splitlines() if l.strip()]
            if rc != 2 or len(lines) != 1 or out:
                fail("bad thread count %s %s: exit %d, stderr %r" % (env, opt, rc, err[-300:]))
            print("bad thread count %s%s: %s" % (" ".join("%s=%s" % kv for kv in env.items()),
                                                  " ".join(opt), lines[0]))
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
