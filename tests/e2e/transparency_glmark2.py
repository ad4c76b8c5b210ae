#!/usr/bin/env python3
"""Transparency on glmark2: byte-identical back buffers at fixed frames and identical stdout (with
the timing figures normalised) without and with the shim.

usage: transparency_glmark2.py --shim LIB --frametime FRAMETIME_SO --glmark2 PATH
                               [--scenes a,b,c] [--duration S] [--every N] [--size WxH]
                               [--shim-env K=V]...

glmark2 animates by wall-clock time, so every run preloads frametime.so (tests/support/), which
gives glmark2 a clock that advances a fixed step per swap and dumps the back buffer at every N-th
frame. Runs: native twice (the frames must already agree: proof that frametime made the program
deterministic, without which the comparison means nothing), then LD_PRELOAD="shim frametime"
with GLREPLAY_LOG=info. --shim-env adds variables to the shim run only; with --expect-mismatch the
test passes only if the native and shim frames then differ in their pixels (the self-test that
checks a deliberate difference is caught, and caught for the right reason).
"""
import argparse
import os
import re
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import e2e_util as U  # noqa: E402

TIMING_RE = re.compile(r"(FPS:|FrameTime:|Score:)\s*[0-9.]+")


def normalise(stdout):
    return TIMING_RE.sub(r"\1 N", stdout)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("--frametime", required=True)
    ap.add_argument("--glmark2", required=True)
    ap.add_argument("--scenes", default="build,texture,shading")
    ap.add_argument("--duration", default="0.1")
    ap.add_argument("--every", type=int, default=3)
    ap.add_argument("--size", default="96x64")
    ap.add_argument("--shim-env", action="append", default=[])
    ap.add_argument("--expect-mismatch", action="store_true")
    a = ap.parse_args()
    if not a.expect_mismatch:
        return compare(a)
    try:
        compare(a)
    except U.TestFailure as e:
        U.check("glmark2 native vs shim:" in str(e) and "differs between the runs" in str(e),
                "expected a pixel mismatch between the native and shim frames, got another failure: %s" % e)
        print("the deliberate difference was detected: %s" % e)
        return
    raise U.TestFailure("the shim run was deliberately perturbed (%s) but the frames compared equal"
                        % " ".join(a.shim_env))


def compare(a):
    scenes = a.scenes.split(",")
    cmd = [a.glmark2, "-s", a.size]
    for s in scenes:
        cmd += ["-b", "%s:duration=%s" % (s, a.duration)]
    # Each scene runs duration / 10 ms frames (+1); dump every N-th frame of the whole run.
    max_frames = len(scenes) * (int(float(a.duration) * 100) + 3)
    frames = ",".join(str(f) for f in range(0, max_frames, a.every))
    shim_extra = dict(kv.split("=", 1) for kv in a.shim_env)
    with tempfile.TemporaryDirectory(prefix="glr-glmark2-") as tmp:
        runs = {}
        for run in ("native1", "native2", "shim"):
            out = os.path.join(tmp, run)
            os.mkdir(out)
            extra = {"FRAMETIME_DUMP_FRAMES": frames, "FRAMETIME_DUMP_DIR": out, "FRAMETIME_STEP_US": "10000"}
            mode = U.SHIM if run == "shim" else U.NATIVE
            if run == "shim":
                extra.update(shim_extra)
            res = U.run(cmd, U.mode_env(mode, a.shim, extra, preload_after=[a.frametime]), timeout=120)
            U.check(res.returncode == 0, U.describe(res, "glmark2 (%s run)" % run))
            U.check("frametime:" not in res.stderr, "frametime reported a problem:\n" + res.stderr[-2000:])
            runs[run] = res
        for sc in scenes:
            U.check(re.search(r"^\[%s\] .*FPS:" % re.escape(sc), runs["native1"].stdout, re.M),
                    "glmark2 did not run scene %s:\n%s" % (sc, runs["native1"].stdout))
        names = U.compare_dump_dirs(os.path.join(tmp, "native1"), os.path.join(tmp, "native2"),
                                    "glmark2 native vs native (frametime determinism)")
        U.check(len(names) >= len(scenes), "only %d frames dumped for %d scenes" % (len(names), len(scenes)))
        # The frames must show something that moves, or identical dumps would prove little.
        bodies = set(U.read_pam(os.path.join(tmp, "native1", n))[3] for n in names)
        U.check(len(bodies) > len(names) // 2, "glmark2 frames barely change (%d distinct of %d)"
                % (len(bodies), len(names)))
        U.compare_dump_dirs(os.path.join(tmp, "native1"), os.path.join(tmp, "shim"), "glmark2 native vs shim")
    for run in ("native2", "shim"):
        U.check(normalise(runs[run].stdout) == normalise(runs["native1"].stdout),
                "glmark2 stdout (timing normalised) differs between native1 and %s:\n--- native1 ---\n%s--- %s ---\n%s"
                % (run, runs["native1"].stdout, run, runs[run].stdout))
    s = U.one_summary(runs["shim"], "glmark2 (shim run)")
    swaps = s["counts"].get("glXSwapBuffers", 0)
    U.check(s["frames"] == swaps and swaps > 0,
            "glmark2: summary frames %d but %d glXSwapBuffers calls" % (s["frames"], swaps))
    # glmark2 makes one GLX context for start-up and one per scene (it keeps the last one).
    U.check(s["contexts"] == len(scenes) + 1 and s["counts"].get("glXCreateNewContext", 0) == s["contexts"],
            "glmark2: expected %d contexts (start-up + one per scene), summary: %s" % (len(scenes) + 1, s))
    print("glmark2: %d scenes, %d frames dumped and identical natively and under the shim; "
          "%d frames counted" % (len(scenes), len(names), s["frames"]))


if __name__ == "__main__":
    U.main_guard(main)
