#!/usr/bin/env python3
"""fork / exec / exit-from-a-thread under the shim (see progs/forkexec.c).

usage: check_forkexec.py --shim LIB -- FORKEXEC GL_PROGRAM

The program runs natively, under the shim (GLREPLAY_LOG=info) and under the shim with
GLREPLAY_DISABLE=1, with EGL_PLATFORM=surfaceless and no DISPLAY. Every run must exit 42 with the
same stdout. In the shim run every process that loaded the shim prints one summary: the GL child,
the exiting child (a copy of the parent at fork time), the exec'd program and the parent, each with
its own pid and the frames/contexts it made.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import e2e_util as U  # noqa: E402

PID_RE = re.compile(r"^forkexec: pid (\S+) (\d+)$", re.M)

# role -> expected (frames, contexts, alive)
EXPECTED = {
    "gl-child": (2, 1, 0),
    "exit-child": (2, 1, 1),    # forked after the parent drew 2 frames, context still alive
    "exec-child": (3, 1, 0),    # the exec'd route program draws 3 frames
    "parent": (2, 1, 1),        # exits from a second thread with its context alive
}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    U.check(len(cmd) == 2, "usage: check_forkexec.py --shim LIB -- FORKEXEC GL_PROGRAM")
    runs = {}
    for mode in (U.NATIVE, U.SHIM, U.DISABLED):
        env = U.mode_env(mode, a.shim, {"EGL_PLATFORM": "surfaceless"}, unset=("DISPLAY",))
        res = U.run(cmd, env, timeout=60)
        U.check(res.returncode == 42, "expected exit status 42\n" + U.describe(res, "forkexec (%s run)" % mode))
        runs[mode] = res
    for mode in (U.SHIM, U.DISABLED):
        U.check(runs[mode].stdout == runs[U.NATIVE].stdout,
                "stdout of the %s run differs from the native run:\n--- native ---\n%s--- %s ---\n%s"
                % (mode, runs[U.NATIVE].stdout, mode, runs[mode].stdout))
    shim = runs[U.SHIM]
    pids = {role: int(pid) for role, pid in PID_RE.findall(shim.stderr)}
    U.check(set(pids) == set(EXPECTED), "expected pid lines for %s, got %s" % (sorted(EXPECTED), pids))
    sums = {s["pid"]: s for s in U.parse_summaries(shim.stderr)}
    U.check(len(U.parse_summaries(shim.stderr)) == len(EXPECTED),
            "expected %d summaries (one per process), got %d\n%s"
            % (len(EXPECTED), len(U.parse_summaries(shim.stderr)), U.describe(shim, "forkexec (shim run)")))
    bad = []
    for role, (frames, contexts, alive) in EXPECTED.items():
        s = sums.get(pids[role])
        if s is None:
            bad.append("%s (pid %d): no summary" % (role, pids[role]))
        elif (s["frames"], s["contexts"], s["alive"]) != (frames, contexts, alive):
            bad.append("%s: expected frames %d, contexts %d, alive %d; summary %s"
                       % (role, frames, contexts, alive, s))
    U.check(not bad, "per-process summaries are wrong:\n  " + "\n  ".join(bad))
    U.check(not U.parse_summaries(runs[U.DISABLED].stderr), "GLREPLAY_DISABLE=1 printed summaries")
    print("forkexec: exit 42 and identical stdout in all runs; 4 processes, 4 correct summaries")


if __name__ == "__main__":
    U.main_guard(main)
