#!/usr/bin/env python3
"""What preloading a library costs a program that never uses GL: runs PROGRAM (default /bin/true)
N times per configuration -- no preload, the reference --passthrough (the build gives a C-only
pass-through of every entry point the shim exports, gen_passthrough.py: each forwards its
arguments to the next definition, found with dlsym(RTLD_NEXT) at its first call), the shim, the
shim with GLREPLAY_DISABLE=1, and any --lib NAME=PATH given (the two-function passthrough.c, an
older shim) -- and prints
per exec: wall time and CPU time (user+sys, getrusage of the waited child); and the peak and
current resident size of rss_probe (a tiny GL-free program that reads its own /proc/self/status). Configurations alternate inside each round so a loaded machine slows them all alike; the
median of the rounds is printed. Figures go to docs/BENCHMARKS.md; nothing is asserted.

Usage: bench_exec_overhead.py --shim SHIM --passthrough LIB --probe RSS_PROBE [--lib NAME=PATH ...]
                              [--program PROG] [--runs N] [--rounds R]"""
import argparse
import os
import subprocess
import statistics
import sys
import time


def run_once(argv, env):
    t0 = time.perf_counter()
    pid = os.posix_spawn(argv[0], argv, env)
    _, status, ru = os.wait4(pid, 0)
    wall = time.perf_counter() - t0
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit('%s exited with %d under %s' % (argv[0], os.waitstatus_to_exitcode(status), env.get('LD_PRELOAD')))
    return wall, ru.ru_utime + ru.ru_stime


def probe_rss(probe, env):
    out = subprocess.run([probe], env=env, check=True, capture_output=True, text=True).stdout.split()
    return int(out[0]), int(out[1])


def exported_functions(lib):
    return sum(1 for l in subprocess.run(['nm', '-D', '--defined-only', lib], check=True, capture_output=True,
                                         text=True).stdout.splitlines() if l.split()[-2] == 'T')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shim', required=True)
    ap.add_argument('--passthrough', required=True)
    ap.add_argument('--probe', required=True)
    ap.add_argument('--lib', action='append', default=[], help='NAME=PATH: another preload library to compare')
    ap.add_argument('--program', default='/bin/true')
    ap.add_argument('--runs', type=int, default=200)
    ap.add_argument('--rounds', type=int, default=5)
    a = ap.parse_args()

    ref_name = 'C pass-through, %d functions' % exported_functions(a.passthrough)
    base = {k: v for k, v in os.environ.items() if not k.startswith('GLREPLAY_') and k != 'LD_PRELOAD'}
    configs = [('none', dict(base)),
               (ref_name, dict(base, LD_PRELOAD=os.path.abspath(a.passthrough))),
               ('shim', dict(base, LD_PRELOAD=os.path.abspath(a.shim))),
               ('shim, GLREPLAY_DISABLE=1', dict(base, LD_PRELOAD=os.path.abspath(a.shim), GLREPLAY_DISABLE='1'))]
    for spec in a.lib:
        name, _, path = spec.partition('=')
        configs.append((name, dict(base, LD_PRELOAD=os.path.abspath(path))))
    argv = [a.program]
    results = {name: {'wall': [], 'cpu': [], 'rss': []} for name, _ in configs}
    for name, env in configs:   # warm the page cache
        run_once(argv, env)
    for _ in range(a.rounds):
        for name, env in configs:
            walls, cpus = [], []
            for _ in range(a.runs):
                w, c = run_once(argv, env)
                walls.append(w)
                cpus.append(c)
            results[name]['wall'].append(statistics.mean(walls))
            results[name]['cpu'].append(statistics.mean(cpus))
            results[name]['rss'].append(probe_rss(a.probe, env))

    print('%s, %d runs x %d rounds (median of the rounds' % (a.program, a.runs, a.rounds) +
          "' means), per exec:")
    print('| preload | wall ms | CPU ms | CPU vs pass-through | probe peak RSS KiB | RSS KiB | peak RSS vs pass-through |')
    print('|---|---|---|---|---|---|---|')
    ref = results[ref_name]
    ref_cpu = statistics.median(ref['cpu'])
    ref_hwm = statistics.median(h for h, _ in ref['rss'])
    for name, _ in configs:
        r = results[name]
        wall, cpu = statistics.median(r['wall']), statistics.median(r['cpu'])
        hwm, rss = statistics.median(h for h, _ in r['rss']), statistics.median(x for _, x in r['rss'])
        print('| %s | %.3f | %.3f | %+.0f %% | %d | %d | %+.1f %% |' % (
            name, wall * 1e3, cpu * 1e3, (cpu / ref_cpu - 1) * 100, hwm, rss, (hwm / ref_hwm - 1) * 100))
    return 0


if __name__ == '__main__':
    sys.exit(main())
