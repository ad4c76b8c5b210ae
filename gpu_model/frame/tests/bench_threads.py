#!/usr/bin/env python3
"""Wall time of the GPU model on 1 and N threads, interleaved rounds (a benchmark, not a test).

  bench_threads.py --glreplay G [--rounds R] [--threads N] [--timing] CAPTURE...

Each round runs `glreplay model CAPTURE --json --no-timing --threads T` for T = 1 then N (the
order alternates between rounds) and reads the report's totals.model_seconds (wall time of the
frame's events) and the child's CPU time (user + system). Prints per capture the medians and
the ratio wall(1) / wall(N), and the load average before and after: on a shared machine only
the ratios mean something. --timing keeps the timing model (every draw then runs on one thread:
the ratio shows the cost of having threads configured)."""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys


def one(glreplay, cap, threads, timing):
    cmd = [glreplay, "model", cap, "--json", "--threads", str(threads)]
    if not timing:
        cmd.append("--no-timing")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=900)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode not in (0, 1):
        sys.exit("%s exited %d" % (" ".join(cmd), p.returncode))
    t = json.loads(p.stdout)["totals"]
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return t["model_seconds"], cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timing", action="store_true")
    ap.add_argument("captures", nargs="+")
    a = ap.parse_args()
    print("load average before: %.2f %.2f %.2f" % os.getloadavg())
    for cap in a.captures:
        res = {1: [], a.threads: []}
        for r in range(a.rounds):
            order = (1, a.threads) if r % 2 == 0 else (a.threads, 1)
            for t in order:
                res[t].append(one(a.glreplay, cap, t, a.timing))
        w1 = statistics.median(x[0] for x in res[1])
        wn = statistics.median(x[0] for x in res[a.threads])
        c1 = statistics.median(x[1] for x in res[1])
        cn = statistics.median(x[1] for x in res[a.threads])
        per_round = [x1[0] / xn[0] for x1, xn in zip(res[1], res[a.threads]) if xn[0] > 0]
        print("%s: model wall median 1 thread %.3f s, %d threads %.3f s: speedup %.2fx "
              "(per round %s); process CPU median %.2f s vs %.2f s" %
              (os.path.basename(cap), w1, a.threads, wn, w1 / wn if wn else 0.0,
               " ".join("%.2f" % x for x in per_round), c1, cn))
    print("load average after: %.2f %.2f %.2f" % os.getloadavg())


if __name__ == "__main__":
    main()
