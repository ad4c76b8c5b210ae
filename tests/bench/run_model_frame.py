#!/usr/bin/env python3
"""GPU model benchmark: one whole frame (docs/BENCHMARKS.md, "GPU model: whole frames").

Runs `glreplay model CAPTURE --benchmark` several times, alternating the configurations in one
run so that a shared, noisy machine treats them alike: the timing model (default), without it
(`--no-timing`), and optionally the same with a second glreplay binary (`--baseline`, e.g. a
build before a change). For the chosen frame it prints the median (and range) of the model's
wall time, of llvmpipe's time for the same frame measured by the same command, their ratio, and
the process CPU time (user + system) of each whole run, which a loaded machine inflates less than
wall time. Timings are printed, never asserted.

    python3 tests/bench/run_model_frame.py --glreplay build/ui_ipc/cli/glreplay \\
        --capture lit720.glcap [--frame 2] [--runs 5] [--baseline OTHER/glreplay]

With --instructions it instead runs each configuration once under valgrind's callgrind and
prints the instructions of the whole `glreplay model CAPTURE` run (no --benchmark, so no
llvmpipe): a figure a loaded machine does not change, for before/after comparisons.

A 1280x720 lit_mesh capture: GLREPLAY_CAPTURE_FRAMES=0-2 GLREPLAY_CAPTURE_OUT=lit720.glcap
LD_PRELOAD=build/shim/libglreplay.so build/samples/lit_mesh --frames 4 --size 1280x720 (under X).
"""
import argparse
import os
import re
import resource
import statistics
import subprocess
import sys

FRAME_RE = re.compile(r'benchmark: frame (\d+): model ([0-9.]+) s, llvmpipe ([0-9.]+) s')


THREADED_RE = re.compile(r'benchmark: model threads \d+: (\d+) draws threaded, (\d+) on one thread')


def run_once(glreplay, capture, frame, timing, threads=None, threaded=None):
    """One `glreplay model --benchmark` run: (model s, llvmpipe s, cpu s) for the frame; the
    draws threaded and on one thread go into `threaded` (a dict) when given."""
    cmd = [glreplay, 'model', capture, '--benchmark'] + ([] if timing else ['--no-timing']) + \
        (['--threads', str(threads)] if threads else [])
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        sys.exit('run_model_frame: %s failed (%d):\n%s' % (' '.join(cmd), p.returncode, p.stdout[-2000:]))
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    m = THREADED_RE.search(p.stdout)
    if m and threaded is not None:
        threaded.update(threaded=int(m.group(1)), single=int(m.group(2)))
    for m in FRAME_RE.finditer(p.stdout):
        if int(m.group(1)) == frame:
            return float(m.group(2)), float(m.group(3)), cpu
    sys.exit('run_model_frame: no "benchmark: frame %d" line in the output of %s' % (frame, ' '.join(cmd)))


IREFS_RE = re.compile(r'I\s+refs:\s+([0-9,]+)')


def instructions(glreplay, capture, timing):
    """Instructions of one whole `glreplay model` run under callgrind (output file discarded)."""
    cmd = ['valgrind', '--tool=callgrind', '--callgrind-out-file=/dev/null', glreplay, 'model',
           capture] + ([] if timing else ['--no-timing'])
    p = subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    m = IREFS_RE.search(p.stderr)
    if p.returncode != 0 or not m:
        sys.exit('run_model_frame: %s failed (%d):\n%s' % (' '.join(cmd), p.returncode, p.stderr[-2000:]))
    return int(m.group(1).replace(',', ''))


def summary(values):
    return '%.3f (%.3f-%.3f)' % (statistics.median(values), min(values), max(values))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--glreplay', required=True, help='the glreplay CLI to measure')
    ap.add_argument('--capture', required=True, help='capture file (.glcap)')
    ap.add_argument('--frame', type=int, default=2, help='frame whose time is reported (default 2)')
    ap.add_argument('--runs', type=int, default=5, help='runs per configuration (default 5)')
    ap.add_argument('--baseline', help='a second glreplay (e.g. before a change), alternated with the first')
    ap.add_argument('--instructions', action='store_true',
                    help='count instructions under callgrind (one run each) instead of timing')
    ap.add_argument('--threads', help='comma-separated model thread counts (e.g. 1,2): the timing model '
                    'with each, alternated, plus --no-timing with the last')
    a = ap.parse_args()
    for path in [a.glreplay, a.capture] + ([a.baseline] if a.baseline else []):
        if not os.path.exists(path):
            sys.exit('run_model_frame: %s: no such file' % path)
    configs = [('timing model', a.glreplay, True, None), ('--no-timing', a.glreplay, False, None)]
    if a.threads:
        counts = [int(n) for n in a.threads.split(',')]
        configs = [('timing model, %d thread%s' % (n, 's' if n > 1 else ''), a.glreplay, True, n)
                   for n in counts] + [('--no-timing, %d threads' % counts[-1], a.glreplay, False, counts[-1])]
        if a.baseline:
            configs = [('baseline: ' + c[0], a.baseline) + c[2:] for c in configs[:-1]] + configs
    elif a.baseline:
        configs = [('baseline: timing model', a.baseline, True, None)] + configs + \
                  [('baseline: --no-timing', a.baseline, False, None)]
    if a.instructions:
        counts = {name: instructions(exe, a.capture, timing) for name, exe, timing, _ in configs}
        print('glreplay model %s, instructions of the whole run (callgrind)' % os.path.basename(a.capture))
        print('| configuration | instructions | vs first |')
        print('|---|---|---|')
        for name, _, _, _ in configs:
            print('| %s | %.3f G | %.3fx |' % (name, counts[name] / 1e9, counts[name] / counts[configs[0][0]]))
        return 0
    results = {name: [] for name, _, _, _ in configs}
    threaded = {name: {} for name, _, _, _ in configs}
    loads = [os.getloadavg()[0]]
    for i in range(a.runs):
        order = configs if i % 2 == 0 else configs[::-1]
        for name, exe, timing, threads in order:
            results[name].append(run_once(exe, a.capture, a.frame, timing, threads, threaded[name]))
            loads.append(os.getloadavg()[0])
    print('glreplay model %s --benchmark, frame %d, %d runs per configuration (alternating), '
          'load average %.1f-%.1f' % (os.path.basename(a.capture), a.frame, a.runs, min(loads), max(loads)))
    print('| configuration | model s: median (range) | llvmpipe s | ratio | CPU s per whole run | '
          'draws threaded |')
    print('|---|---|---|---|---|---|')
    for name, _, _, _ in configs:
        r = results[name]
        model = [x[0] for x in r]
        llvm = [x[1] for x in r]
        ratio = [x[0] / x[1] for x in r if x[1] > 0]
        thr = threaded[name]
        print('| %s | %s | %s | %s | %s | %s |' % (
            name, summary(model), summary(llvm), summary(ratio) if ratio else '-',
            summary([x[2] for x in r]),
            '%d of %d' % (thr['threaded'], thr['threaded'] + thr['single']) if thr else '-'))
    base = results[configs[0][0]]
    for name, _, _, _ in configs[1:]:
        r = results[name]
        print('%s / %s: model %.2fx, CPU %.2fx (medians)' % (
            name, configs[0][0], statistics.median([x[0] for x in r]) / statistics.median([x[0] for x in base]),
            statistics.median([x[2] for x in r]) / statistics.median([x[2] for x in base])))
    return 0


if __name__ == '__main__':
    sys.exit(main())
