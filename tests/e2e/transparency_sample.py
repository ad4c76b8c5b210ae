#!/usr/bin/env python3
"""Transparency on a sample program: the frames it dumps itself (--dump-frames) and its stdout and
exit status are identical without the shim, under the shim (GLREPLAY_LOG=info) and under the shim
with GLREPLAY_DISABLE=1; the shim's summary counts one frame per swap.

usage: transparency_sample.py --shim LIB --frames N --dump 0,4 --expect-frames K -- SAMPLE [ARGS]

K is the number of swaps the sample makes: N, plus one for GLFW programs (GLFW 3.3 swaps once when
it creates a double-buffered window).
"""
import argparse
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import e2e_util as U  # noqa: E402


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("--frames", type=int, default=6)
    ap.add_argument("--dump", default="0,4")
    ap.add_argument("--size", default="67x45")
    ap.add_argument("--expect-frames", type=int, required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    U.check(cmd, "no sample given")
    name = os.path.basename(cmd[0])
    expect_dumps = ["frame_%04d.pam" % int(f) for f in a.dump.split(",")]
    with tempfile.TemporaryDirectory(prefix="glr-e2e-") as tmp:
        results = {}
        for mode in (U.NATIVE, U.SHIM, U.DISABLED):
            out = os.path.join(tmp, mode)
            os.mkdir(out)
            full = cmd + ["--frames", str(a.frames), "--size", a.size, "--dump-frames", a.dump, "--dump-dir", out]
            res = U.run(full, U.mode_env(mode, a.shim), timeout=60)
            U.check(res.returncode == 0, U.describe(res, "%s (%s run)" % (name, mode)))
            results[mode] = res
        for mode in (U.SHIM, U.DISABLED):
            U.check(results[mode].stdout == results[U.NATIVE].stdout,
                    "%s: stdout differs between the native and %s runs:\n--- native ---\n%s--- %s ---\n%s"
                    % (name, mode, results[U.NATIVE].stdout, mode, results[mode].stdout))
            U.compare_dump_dirs(os.path.join(tmp, U.NATIVE), os.path.join(tmp, mode),
                                "%s native vs %s" % (name, mode), expect_dumps)
    s = U.one_summary(results[U.SHIM], name + " (shim run)")
    swaps = s["counts"].get("glXSwapBuffers", 0) + s["counts"].get("eglSwapBuffers", 0)
    U.check(s["frames"] == a.expect_frames and swaps == a.expect_frames,
            "%s: expected %d frames and swaps, the summary has frames %d and %d swap calls"
            % (name, a.expect_frames, s["frames"], swaps))
    U.check(not U.parse_summaries(results[U.DISABLED].stderr),
            "%s: GLREPLAY_DISABLE=1 still printed a summary" % name)
    print("%s: dumps %s, stdout and exit status identical in native, shim and disabled runs; "
          "%d frames counted" % (name, ", ".join(expect_dumps), s["frames"]))


if __name__ == "__main__":
    U.main_guard(main)
