#!/usr/bin/env python3
"""Initial-state snapshot time, configurations side by side (issue 17 §5): runs bench_snapshot under
each configuration in interleaved rounds and prints, per configuration, the medians of the shim's
own "read in S s" figure (the snapshot's read-back on the program's thread, wall time), of the swap
that started the capture (the snapshot plus everything else at that swap) and of the CPU time the
program's thread spent in that swap (steady on a loaded machine where wall times are not).

A configuration is NAME=SHIM.so[,VAR=VALUE...]: e.g. `pbo=build/shim/libglreplay.so`,
`sync=build/shim/libglreplay.so,GLREPLAY_SNAPSHOT_PBO=0`, `old=/tmp/old/libglreplay.so`.
Nothing is asserted about timings; the script fails when a run fails or prints no figure.

Usage: run_snapshot.py --bench build/tests/bench/bench_snapshot [--mib 256] [--rounds 5] CONFIG...
"""
import argparse
import os
import re
import statistics
import subprocess
import sys

READ = re.compile(r"bytes of contents read in ([0-9.]+) s")
SWAP = re.compile(r"frame 1 \(snapshot\) ([0-9.]+) s \(CPU of the program's thread ([0-9.]+) s\)")


def run(bench, mib, shim, env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    p = subprocess.run([bench, shim, str(mib)], env=env, capture_output=True, text=True, timeout=300)
    out = p.stdout + p.stderr
    r, s = READ.search(out), SWAP.search(out)
    if p.returncode != 0 or not r or not s:
        sys.exit(f"run_snapshot: {shim} {env_extra}: failed (rc {p.returncode}):\n{out[-2000:]}")
    return float(r.group(1)), float(s.group(1)), float(s.group(2))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bench", required=True)
    ap.add_argument("--mib", type=int, default=256)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("configs", nargs="+")
    a = ap.parse_args()
    configs = []
    for c in a.configs:
        name, _, rest = c.partition("=")
        parts = rest.split(",")
        if not name or not parts[0]:
            sys.exit(f"run_snapshot: bad configuration {c!r} (NAME=SHIM.so[,VAR=VALUE...])")
        env = dict(p.split("=", 1) for p in parts[1:])
        configs.append((name, parts[0], env))
    res = {name: ([], [], []) for name, _, _ in configs}
    for _ in range(a.rounds):
        for name, shim, env in configs:
            for column, v in zip(res[name], run(a.bench, a.mib, shim, env)):
                column.append(v)
    print(f"| configuration | read_s median (min-max) | swap_s median | swap CPU of the program's thread, s, median (min-max) |")
    print("|---|---|---|---|")
    for name, _, _ in configs:
        r, s, c = res[name]
        print(f"| {name} | {statistics.median(r):.3f} ({min(r):.3f}-{max(r):.3f}) | {statistics.median(s):.3f} | "
              f"{statistics.median(c):.3f} ({min(c):.3f}-{max(c):.3f}) |")


if __name__ == "__main__":
    main()
