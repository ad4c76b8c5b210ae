#!/usr/bin/env python3
"""Benchmark of `glreplay report`: the time to write the report of a capture, and the time the page
takes to open in headless Chromium (from disk), repeated. Prints its figures (docs/BENCHMARKS.md).

  bench_report.py --glreplay G CAPTURE [--chromium C] [--runs N] [--no-model] [--profile] [--select K]

"open" is the page's own measure: navigation start to the event list shown and the first draw
selected (performance.now() in report.js, written to body[data-ready-ms]); "browser" is the wall
time of the whole `chromium --headless --dump-dom` run (browser start and exit included).
With --select K the page opens with event K selected (index.html?select=K) instead of the first
draw, and "state" is the time from selecting it to its API state shown (its chunk of data/s loaded,
the state rebuilt from the changes, rendered with the event's changes highlighted).
"""
import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--chromium', default='/usr/bin/chromium')
    ap.add_argument('--runs', type=int, default=5)
    ap.add_argument('--no-model', action='store_true')
    ap.add_argument('--profile', action='store_true')
    ap.add_argument('--select', type=int)
    ap.add_argument('capture')
    a = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix='glr-report-bench-')
    try:
        out = tmp + '/report'
        cmd = [a.glreplay, 'report', a.capture, '--out', out]
        cmd += ['--no-model'] if a.no_model else []
        cmd += ['--profile'] if a.profile else []
        t0 = time.monotonic()
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True)
        gen = time.monotonic() - t0
        if p.returncode != 0:
            sys.exit('report failed: ' + p.stderr)
        print(p.stdout.strip())
        size = subprocess.run(['du', '-sh', out], stdout=subprocess.PIPE, universal_newlines=True).stdout.split()[0]
        states = subprocess.run(['du', '-sh', out + '/data/s'], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                universal_newlines=True).stdout.split()
        print('generate: %.2f s, folder %s%s' % (gen, size, ', states (data/s) %s' % states[0] if states else ''))
        opens, walls, states = [], [], []
        url = 'file://' + out + '/index.html' + ('?select=%d' % a.select if a.select is not None else '')
        for i in range(a.runs):
            t0 = time.monotonic()
            p = subprocess.run([a.chromium, '--headless', '--disable-gpu', '--no-sandbox', '--no-first-run',
                                '--user-data-dir=' + tmp + '/prof%d' % i, '--dump-dom', url],
                               stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, universal_newlines=True, timeout=120)
            walls.append(time.monotonic() - t0)
            m = re.search(r'data-ready-ms="(\d+)"', p.stdout)
            rows = len(re.findall(r'class="row', p.stdout))
            if not m or 'id="d-title">event' not in p.stdout:
                sys.exit('run %d: the page did not open (no ready mark or no selected event)' % i)
            opens.append(int(m.group(1)))
            sm = re.search(r'data-state-ms="(\d+)"', p.stdout)
            if a.select is not None:
                if not sm or 'class="chg"' not in p.stdout and 'nothing in the API state' not in p.stdout:
                    sys.exit('run %d: the state of event %d was not shown' % (i, a.select))
                states.append(int(sm.group(1)))
            print('run %d: open %d ms, browser %.2f s, %d list rows in the DOM%s' % (
                i + 1, opens[-1], walls[-1], rows, ', state %d ms' % states[-1] if states else ''))
        opens.sort()
        walls.sort()
        states.sort()
        if states:
            print('state of event %d: median %d ms (min %d, max %d)' % (a.select, states[len(states) // 2], states[0], states[-1]))
        print('open: median %d ms (min %d, max %d); browser: median %.2f s' % (opens[len(opens) // 2], opens[0], opens[-1],
                                                                         walls[len(walls) // 2]))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    main()
