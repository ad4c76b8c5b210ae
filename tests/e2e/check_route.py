#!/usr/bin/env python3
"""Loader-route test driver: one test program, three runs.

usage: check_route.py --shim LIBGLREPLAY [--env K=V]... [--no-x] [--shim-stderr REGEX]...
                      -- PROGRAM [ARGS]

1. native (no preload), 2. under the shim with GLREPLAY_LOG=info, 3. under the shim with
GLREPLAY_DISABLE=1. Every run must exit 0 with the same stdout. The shim run must print exactly one
summary that agrees with the program's "expect ..." lines (at least one), and its stderr must match
every --shim-stderr regex (checked in the shim run only: facts that differ by design without it).
The disabled run must print no summary (pure pass-through). --no-x removes DISPLAY, proving the
program needs no X server.
"""
import argparse
import os
import re
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import e2e_util as U  # noqa: E402


def parse_args():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("--env", action="append", default=[])
    ap.add_argument("--no-x", action="store_true")
    ap.add_argument("--shim-stderr", action="append", default=[])
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    if a.cmd and a.cmd[0] == "--":
        a.cmd = a.cmd[1:]
    if not a.cmd:
        ap.error("no program given")
    return a


def main():
    a = parse_args()
    extra = dict(kv.split("=", 1) for kv in a.env)
    unset = ("DISPLAY",) if a.no_x else ()
    name = os.path.basename(a.cmd[0])
    runs = {}
    for mode in (U.NATIVE, U.SHIM, U.DISABLED):
        env = U.mode_env(mode, a.shim, extra, unset)
        res = U.run(a.cmd, env, timeout=a.timeout)
        what = "%s (%s run)" % (name, mode)
        U.check(res.returncode == 0, "expected exit 0\n" + U.describe(res, what))
        runs[mode] = res
    native = runs[U.NATIVE].stdout
    for mode in (U.SHIM, U.DISABLED):
        U.check(runs[mode].stdout == native, "%s: stdout of the %s run differs from the native run:\n"
                "--- native ---\n%s--- %s ---\n%s" % (name, mode, native, mode, runs[mode].stdout))
    expectations = U.parse_expectations(native)
    U.check(expectations, "%s printed no 'expect' lines; nothing to check" % name)
    summary = U.one_summary(runs[U.SHIM], name + " (shim run)")
    U.check_expectations(summary, expectations, name)
    for rx in a.shim_stderr:
        U.check(re.search(rx, runs[U.SHIM].stderr, re.M),
                "%s: shim run stderr does not match /%s/\n%s" % (name, rx, U.describe(runs[U.SHIM], name)))
    U.check(not U.parse_summaries(runs[U.DISABLED].stderr),
            "%s: GLREPLAY_DISABLE=1 still printed a summary (not a pass-through)" % name)
    print("%s: %d expectations met; stdout identical in native, shim and disabled runs"
          % (name, len(expectations)))


if __name__ == "__main__":
    U.main_guard(main)
