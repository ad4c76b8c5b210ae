#!/usr/bin/env python3
"""Debugger benchmark: DAP continue -> stopped on a lit_mesh capture (docs/BENCHMARKS.md,
"Debugger: time to a stop").

Captures frames 0-2 of lit_mesh at --size (default 1280x720) under the shim, serves the capture with
`glreplay dap --socket`, and measures, from the moment the request is written to the moment the
`stopped` event arrives:

  early     configurationDone -> stopped, one new session per sample: a new pass to an early hit
            (1, 51, 101, ...) of mesh.frag:27, in the first draw's fragment shader
  resumed   continue -> stopped, same breakpoint with hitCondition "% K" (K spreads the stops over
            the first draw): every continue goes on from the previous stop (the suspended pass)
  fresh     continue -> stopped after the breakpoints changed (a second breakpoint toggled in
            sky.frag): a new pass over the frame to the next stop, spread over the first draw
  worst     continue -> stopped to the last hit of the last draw (sky.frag:18, the sky is drawn last):
            a new pass over the whole capture (breakpoints changed between the stops), one session
            per sample
  next      next -> stopped from a breakpoint stop in the first draw and from each step after it
            (--steps per stop, over the stops of the `resumed` series' breakpoint)
  stepIn    stepIn -> stopped, the same way
  end       the step that runs past the end of the invocation (stepOut repeated from the stop until
            the server says the invocation finished): the last one's time
  back      stepBack -> stopped after those steps (the kept stops)
  back_model stepBack -> stopped from the breakpoint's stop itself (nothing kept before it: a pass of
            the model finds the lane's previous statement)
The step series need a server that advertises supportsStepBack for `back`; an older server gets
the others only (--glreplay of an older build gives the "before" figures).

Prints a table (median, min, max, count per series; and the median CPU time the server used per
sample, which a loaded machine inflates less than the wall time) and a JSON line. Timings are never asserted:
exit 0 when every stop arrived where expected. Needs an X display (re-runs itself under xvfb-run
when DISPLAY is unset)."""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dap_bench_client as dap  # noqa: E402


def loadavg():
    try:
        with open('/proc/loadavg') as f:
            return ' '.join(f.read().split()[:3])
    except OSError:
        return '?'


# The server's pid (set in main) and the CPU seconds it used during the last measured request: the
# model runs on one thread, so on a loaded machine this is nearer to what an idle one would take
# than the wall time.
SERVER = {'pid': None, 'last_cpu': float('nan')}


def server_cpu():
    try:
        with open('/proc/%d/stat' % SERVER['pid']) as f:
            fields = f.read().rsplit(')', 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')
    except (OSError, TypeError, ValueError, IndexError):
        return float('nan')


def stop_desc(msg):
    return msg['body'].get('description', '')


def measure_continue(c, expect_draw=None):
    c.drop_events()
    cpu0 = server_cpu()
    seq, t = c.send('continue', {'threadId': 1})
    c.response(seq)
    t_stop, ev = c.wait_event('stopped', after=t)
    SERVER['last_cpu'] = server_cpu() - cpu0
    desc = stop_desc(ev)
    if expect_draw is not None and ('draw %d ' % expect_draw) not in desc:
        raise dap.DapError('stopped outside draw %d: %s' % (expect_draw, desc))
    return (t_stop - t) * 1e3, desc


def measure(c, cmd):
    """A stepping request -> its stopped event: (ms, the event's body)."""
    c.drop_events()
    cpu0 = server_cpu()
    seq, t = c.send(cmd, {'threadId': 1})
    c.response(seq)
    t_stop, ev = c.wait_event('stopped', after=t)
    SERVER['last_cpu'] = server_cpu() - cpu0
    return (t_stop - t) * 1e3, ev['body']


FINISHED = 'the focused invocation finished'


def record(res, k, ms):
    """A sample of series k: wall ms, and the server's CPU ms for it under k + '_cpu'."""
    res[k].append(ms)
    res.setdefault(k + '_cpu', []).append(SERVER['last_cpu'] * 1e3)


def step_series(a, sock, mesh, step, res, want):
    c = dap.connect(sock)
    init = c.request('initialize', {'clientID': 'glreplay-bench', 'adapterID': 'glreplay', 'linesStartAt1': True,
                                    'columnsStartAt1': True, 'pathFormat': 'path'})
    can_back = bool(init['body'].get('supportsStepBack'))
    aseq, _ = c.send('attach', {})
    c.wait_event('initialized')
    dap.set_breakpoints(c, {mesh: [{'line': 27, 'hitCondition': '%% %d' % step}]})
    cseq, t = c.send('configurationDone', {})
    c.response(cseq)
    c.response(aseq)
    c.wait_event('stopped', after=t)
    for _ in range(max(1, a.stops // 2)):
        if can_back and 'back_model' in want:
            ms, body = measure(c, 'stepBack')   # from the breakpoint's stop: through the model
            record(res, 'back_model', ms)
            measure(c, 'next')                  # back to the breakpoint's stop
        for kind in ('next', 'stepIn'):
            moved = 0
            for _ in range(a.steps):
                ms, body = measure(c, kind)
                if body.get('description') == FINISHED:
                    break
                record(res, kind, ms)
                moved += 1
            if can_back and 'back' in want:
                for _ in range(moved):
                    ms, body = measure(c, 'stepBack')
                    record(res, 'back', ms)
        if 'end' in want:
            for _ in range(64):
                ms, body = measure(c, 'stepOut')
                if body.get('description') == FINISHED:
                    record(res, 'end', ms)
                    break
        measure_continue(c, expect_draw=0)
    c.close()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--sample', required=True, help='the lit_mesh executable')
    ap.add_argument('--shader-dir', required=True, help='samples/shaders/lit_mesh')
    ap.add_argument('--size', default='1280x720')
    ap.add_argument('--stops', type=int, default=12, help='stops per first-draw series')
    ap.add_argument('--worst', type=int, default=10, help='worst-case stops')
    ap.add_argument('--keep', help='keep the capture in this file')
    ap.add_argument('--capture', help='use this capture instead of making one (same figures across builds)')
    ap.add_argument('--steps', type=int, default=6, help='steps per stop in the step series')
    ap.add_argument('--only', help='comma-separated series to run (default: all)')
    a = ap.parse_args()
    if not os.environ.get('DISPLAY'):
        xr = shutil.which('xvfb-run')
        if not xr:
            print('bench_dap_stop: no DISPLAY and no xvfb-run', file=sys.stderr)
            return 77
        os.execvp(xr, [xr, '-a', '-s', '-screen 0 1920x1080x24', sys.executable] + sys.argv)

    tmp = tempfile.mkdtemp(prefix='glr-dapbench-')
    srv = None
    try:
        cap = os.path.join(tmp, 'lit_mesh.glcap')
        if a.capture:
            shutil.copyfile(a.capture, cap)
        else:
            r = subprocess.run([a.glreplay, 'capture', '--frame', '0', '--count', '3', '--out', cap, '--',
                                a.sample, '--size', a.size, '--frames', '5'], capture_output=True, text=True,
                               timeout=300)
            if r.returncode != 0:
                print('bench_dap_stop: capture failed:\n' + r.stdout + r.stderr, file=sys.stderr)
                return 1
        if a.keep:
            shutil.copyfile(cap, a.keep)
        mesh = os.path.join(a.shader_dir, 'mesh.frag')
        sky = os.path.join(a.shader_dir, 'sky.frag')
        # The sky line's hits over the capture: the last one is the worst case.
        r = subprocess.run([a.glreplay, 'debug', cap, '--break', sky + ':18', '--hit', '1000000000000'],
                           capture_output=True, text=True, timeout=600)
        m = re.search(r'\((\d+) invocations reached it', r.stderr)
        if not m:
            print('bench_dap_stop: cannot count the hits of sky.frag:18:\n' + r.stderr, file=sys.stderr)
            return 1
        last_hit = int(m.group(1))
        # The first draw's hits of mesh.frag:27: the first-draw series spread their stops over it.
        r = subprocess.run([a.glreplay, 'debug', cap, '--break', mesh + ':27', '--hit', '1000000000000', '--draw', '0'],
                           capture_output=True, text=True, timeout=600)
        m = re.search(r'\((\d+) invocations reached it', r.stderr)
        if not m:
            print('bench_dap_stop: cannot count the hits of mesh.frag:27 in draw 0:\n' + r.stderr, file=sys.stderr)
            return 1
        step = max(1, int(m.group(1)) // (2 * a.stops + 4))

        sock = os.path.join(tmp, 's.sock')
        srv = subprocess.Popen([a.glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
        SERVER['pid'] = srv.pid
        series = ('early', 'resumed', 'fresh', 'worst', 'next', 'stepIn', 'end', 'back', 'back_model')
        res = {k: [] for k in series}
        want = set(a.only.split(',')) if a.only else set(series)

        # New passes to early hits of the first draw, one session each.
        for i in range(a.stops if 'early' in want else 0):
            c = dap.connect(sock)
            cpu0 = server_cpu()
            t = dap.start_session(c, {mesh: [{'line': 27, 'hitCondition': '== %d' % (1 + 50 * i)}]})
            t_stop, ev = c.wait_event('stopped', after=t)
            SERVER['last_cpu'] = server_cpu() - cpu0
            if 'draw 0 ' not in stop_desc(ev) or 'hit %d ' % (1 + 50 * i) not in stop_desc(ev):
                raise dap.DapError('early stop not at hit %d of draw 0: %s' % (1 + 50 * i, stop_desc(ev)))
            record(res, 'early', (t_stop - t) * 1e3)
            c.close()

        # First draw: resumed continues, then new passes after the breakpoints changed.
        c = dap.connect(sock)
        t = dap.start_session(c, {mesh: [{'line': 27, 'hitCondition': '%% %d' % step}]})
        t_stop, ev = c.wait_event('stopped', after=t)
        if 'draw 0 ' not in stop_desc(ev):
            raise dap.DapError('first stop not in draw 0: ' + stop_desc(ev))
        c.request('threads')
        for _ in range(a.stops if want & {'resumed', 'fresh'} else 0):
            ms, _ = measure_continue(c, expect_draw=0)
            record(res, 'resumed', ms)
        hit = step * (a.stops + 2)
        for i in range(a.stops if 'fresh' in want else 0):
            hit += step
            dap.set_breakpoints(c, {mesh: [{'line': 27, 'hitCondition': '== %d' % hit}],
                                    sky: [{'line': 18, 'hitCondition': '== %d' % (last_hit + 1)}] if i % 2 == 0 else []})
            ms, desc = measure_continue(c, expect_draw=0)
            if 'hit %d ' % hit not in desc:
                raise dap.DapError('expected hit %d: %s' % (hit, desc))
            record(res, 'fresh', ms)
        c.close()

        # Worst case: the last hit of the last draw, a new pass over the whole capture.
        # Steps from breakpoint stops spread over the first draw.
        if want & {'next', 'stepIn', 'end', 'back', 'back_model'}:
            step_series(a, sock, mesh, step, res, want)

        for _ in range(a.worst if 'worst' in want else 0):
            c = dap.connect(sock)
            t = dap.start_session(c, {sky: [{'line': 18}]})
            c.wait_event('stopped', after=t)
            dap.set_breakpoints(c, {sky: [{'line': 18, 'hitCondition': '== %d' % last_hit}],
                                    mesh: [{'line': 27, 'hitCondition': '== 1000000000'}]})
            ms, desc = measure_continue(c)
            if 'hit %d ' % last_hit not in desc:
                raise dap.DapError('expected the last hit %d: %s' % (last_hit, desc))
            record(res, 'worst', ms)
            c.close()

        print('DAP continue -> stopped, lit_mesh %s, frames 0-2, load average %s' % (a.size, loadavg()))
        print('%-10s %10s %10s %10s %6s %12s' % ('series', 'median ms', 'min ms', 'max ms', 'n', 'cpu med ms'))
        summary = {'size': a.size, 'last_hit': last_hit, 'loadavg': loadavg()}
        for k in series:
            v = res[k]
            if not v:
                continue
            cpu = statistics.median(res[k + '_cpu'])
            print('%-10s %10.1f %10.1f %10.1f %6d %12.1f' % (k, statistics.median(v), min(v), max(v), len(v), cpu))
            summary[k] = {'median_ms': round(statistics.median(v), 1), 'min_ms': round(min(v), 1),
                          'max_ms': round(max(v), 1), 'n': len(v), 'cpu_median_ms': round(cpu, 1)}
        print(json.dumps(summary))
        return 0
    except (dap.DapError, OSError, subprocess.TimeoutExpired) as e:
        print('bench_dap_stop: FAIL: %s' % e, file=sys.stderr)
        return 1
    finally:
        if srv:
            srv.terminate()
            try:
                srv.wait(10)
            except subprocess.TimeoutExpired:
                srv.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
