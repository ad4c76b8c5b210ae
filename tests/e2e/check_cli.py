#!/usr/bin/env python3
"""The glreplay CLI: --help, `run` (preloads the shim, propagates the exit status), bad usage.

usage: check_cli.py --cli GLREPLAY --sample SAMPLE
"""
import argparse
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import e2e_util as U  # noqa: E402


def one_line_error(res, what, status=None):
    U.check(res.returncode != 0 if status is None else res.returncode == status,
            "%s: expected %s\n%s" % (what, "a non-zero exit" if status is None else "exit %d" % status,
                                     U.describe(res, what)))
    lines = [l for l in res.stderr.splitlines() if l.strip()]
    U.check(len(lines) == 1 and lines[0].startswith("glreplay: "),
            "%s: expected one 'glreplay: ...' error line on stderr\n%s" % (what, U.describe(res, what)))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--sample", required=True)
    a = ap.parse_args()
    env = U.base_env()
    cli = a.cli

    res = U.run([cli, "--help"], env)
    U.check(res.returncode == 0, U.describe(res, "glreplay --help"))
    U.check("glreplay run" in res.stdout, "--help does not list 'run':\n" + res.stdout)

    res = U.run([cli], env)
    U.check(res.returncode != 0, "glreplay without a command must fail\n" + U.describe(res, "glreplay"))

    # run: the sample gets the shim (its summary appears) and behaves as when run directly.
    with tempfile.TemporaryDirectory(prefix="glr-cli-") as tmp:
        args = ["--frames", "3", "--size", "40x30", "--dump-frames", "2"]
        os.mkdir(os.path.join(tmp, "d"))
        os.mkdir(os.path.join(tmp, "r"))
        direct = U.run([a.sample] + args + ["--dump-dir", os.path.join(tmp, "d")], env)
        U.check(direct.returncode == 0, U.describe(direct, "sample run directly"))
        env_info = dict(env, GLREPLAY_LOG="info")
        res = U.run([cli, "run", "--", a.sample] + args + ["--dump-dir", os.path.join(tmp, "r")], env_info)
        U.check(res.returncode == 0, U.describe(res, "glreplay run -- sample"))
        U.check(res.stdout == direct.stdout, "glreplay run changed the sample's stdout:\n--- direct ---\n%s"
                "--- run ---\n%s" % (direct.stdout, res.stdout))
        s = U.one_summary(res, "glreplay run -- sample")
        U.check(s["frames"] >= 3 and s["contexts"] >= 1, "the shim saw no frames in glreplay run: %s" % s)
        U.compare_dump_dirs(os.path.join(tmp, "d"), os.path.join(tmp, "r"), "sample direct vs glreplay run")

    # Exit statuses pass through: the program's own (the CLI execs it).
    for code in (0, 3, 77):
        res = U.run([cli, "run", "--", "sh", "-c", "exit %d" % code], env)
        U.check(res.returncode == code, "glreplay run -- sh -c 'exit %d' gave %d" % (code, res.returncode))
    res = U.run([a.sample, "--frames", "x"], env)
    bad_status = res.returncode
    U.check(bad_status != 0, "the sample accepted --frames x")
    res = U.run([cli, "run", "--", a.sample, "--frames", "x"], env)
    U.check(res.returncode == bad_status, "a failing sample exits %d directly but %d under glreplay run"
            % (bad_status, res.returncode))
    # A program killed by a signal dies of it under glreplay run too (the CLI execs the program:
    # the caller sees the same death, and signals to the process group arrive once).
    res = U.run([cli, "run", "--", "sh", "-c", "kill -TERM $$"], env)
    U.check(res.returncode == -15, "a program killed by SIGTERM gave %d, expected death by SIGTERM (-15)"
            % res.returncode)
    res = U.run([cli, "run", "--", "sh", "-c", "echo $$"], env)
    pid_line = [l for l in res.stderr.splitlines() if "(pid " in l]
    # No process stands between the caller and the program: a signal sent to the process group
    # (Ctrl-C, `timeout`) reaches the program once, not once more through a forwarding parent.
    U.check(pid_line and ("(pid %s)" % res.stdout.strip()) in pid_line[0],
            "glreplay run must run the program in its own process (pid printed %r, program's %r)"
            % (pid_line, res.stdout.strip()))

    # Bad usage: non-zero with one clear line.
    one_line_error(U.run([cli, "frobnicate"], env), "glreplay frobnicate")
    one_line_error(U.run([cli, "run"], env), "glreplay run (no program)")
    one_line_error(U.run([cli, "run", "--"], env), "glreplay run -- (no program)")
    one_line_error(U.run([cli, "run", "--bogus", "--", "true"], env), "glreplay run --bogus")
    one_line_error(U.run([cli, "run", "--", "true"], dict(env, GLREPLAY_SHIM="/nonexistent/libglreplay.so")),
                   "glreplay run with GLREPLAY_SHIM pointing nowhere")
    res = U.run([cli, "run", "--", "/nonexistent/program"], env)
    U.check(res.returncode == 127, "running a missing program gave %d, expected 127" % res.returncode)
    U.check(any("/nonexistent/program" in l for l in res.stderr.splitlines()),
            "no error naming the missing program:\n" + res.stderr)
    print("glreplay CLI: --help, run (shim preloaded, output and frames unchanged, statuses "
          "propagated), bad usage all behave")


if __name__ == "__main__":
    U.main_guard(main)
