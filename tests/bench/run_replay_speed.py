#!/usr/bin/env python3
"""Replay speed against the program's own frame rate, and capture size against the resources the
frame uses (docs/BENCHMARKS.md, "Replay speed"). Stdlib only; needs an X server (DISPLAY) for the
programs; the replays run headless.

For every program:
  (a) its own steady-state frame rate: samples: (140 - 20) frames / (time of --frames 140 minus
      time of --frames 20), and the CPU time of those 120 frames (all the program's threads);
      glmark2: the FPS it prints for the scene;
  (b) samples: a capture of those very frames (20-139, one capture of 120 frames) replayed with
      `glreplay replay F --loop N --benchmark`: steady-state frames per second (passes per second
      x frames per pass, the reset between passes included) and CPU time per frame, against (a).
      The same frames on both sides matter: a sample's animation makes some frames far dearer
      than others (legacy_gl21's frame 20 costs about 1.2x the mean of frames 20-139), so one replayed
      frame against the program's mean over 120 frames compares different work. glmark2 (time-
      based animation, no frame count): one frame (10) replayed, against its FPS.
      Rounds alternate (a) and (b) so both see the same machine load; the table gives medians
      over --rounds and the range of the per-round ratios;
  (c) one mid-run frame (samples: frame 20; glmark2: frame 10) replayed alone, passes per second
      (what `--loop` gives a user), and for comparison the same with GLREPLAY_FULL_RESTORE=1
      (contexts recreated and everything restored before every pass, as the replayer did before
      the pass reset);
  (d) the one-frame capture's file size and uncompressed size (`glreplay info --json` sections)
      against the bytes of the initial-state buffers and textures bound where the frame draws (the
      replayer's "frame uses" line).
Every capture is also checked with `--loop 3 --verify` (column "verify").

  run_replay_speed.py --glreplay G --samples DIR [--glmark2 PATH] [--size WxH] [--loop N]
                      [--rounds R] [--only NAME,...] [--quick]
--loop N: passes of a one-frame replay; a capture of K frames replays max(2, N / K) passes after
its first.
Exit status 0 when every row was measured and verified, 1 otherwise.
"""
import argparse
import json
import os
import re
import resource
import shutil
import subprocess
import sys
import tempfile
import time

SAMPLES = ['lit_mesh', 'multipass', 'instanced', 'gles3_egl', 'legacy_gl21', 'shared_threads']
GLMARK2_SCENES = ['build', 'texture', 'shading']


def run(cmd, env=None, timeout=600):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True,
                          errors='replace', env=env, timeout=timeout)


def timed(cmd, env=None):
    """(wall seconds, CPU seconds of the child and all its threads, stdout)."""
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    p = run(cmd, env=env)
    t = time.monotonic() - t0
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(cmd), p.returncode, (p.stdout + p.stderr)[-800:]))
    cpu = (r1.ru_utime + r1.ru_stime) - (r0.ru_utime + r0.ru_stime)
    return t, cpu, p.stdout


class NoisyMeasurement(RuntimeError):
    """The machine was too busy for the difference of two runs to show the frames' cost."""


def sample_fps(exe, size, lo, hi):
    """(frames per second, CPU ms per frame) of the program's frames lo..hi-1: the start-up cost
    cancels out in the difference of the two runs."""
    for attempt in range(3):   # a busy machine can hide the difference: again
        try:
            t_lo, c_lo, _ = timed([exe, '--frames', str(lo), '--size', size])
            t_hi, c_hi, _ = timed([exe, '--frames', str(hi), '--size', size])
        except RuntimeError:
            if attempt == 2:   # e.g. the X server refused a connection once: again
                raise
            continue
        if t_hi > t_lo:
            return (hi - lo) / (t_hi - t_lo), 1e3 * max(c_hi - c_lo, 0.0) / (hi - lo)
    raise NoisyMeasurement('%s: --frames %d did not take longer than --frames %d (three tries: the machine is '
                           'too busy to measure)' % (exe, hi, lo))


def glmark2_fps(glmark2, scene, size, duration):
    p = run([glmark2, '-s', size, '-b', '%s:duration=%g' % (scene, duration)])
    m = re.search(r'FPS: *([0-9.]+)', p.stdout)
    if p.returncode != 0 or not m:
        raise RuntimeError('glmark2 %s: exit %d: %s' % (scene, p.returncode, (p.stdout + p.stderr)[-500:]))
    return float(m.group(1)), None


def parse_benchmark(text):
    out = {'text': text}
    m = re.search(r'benchmark: steady state: .*?: ([0-9.]+) passes/s .*?\(([^:]*): ([0-9.]+) ms per pass\)', text)
    if not m:
        raise RuntimeError('replay --benchmark printed no steady-state line:\n' + text[-800:])
    out['pps'] = float(m.group(1))
    out['mode'] = 'kept' if m.group(2).startswith('kept') else 'full'
    out['reset_ms'] = float(m.group(3))
    m = re.search(r'reset: full restore before every pass: (.*)', text)
    out['why'] = m.group(1) if m else ''
    m = re.search(r'frame uses: (\d+) buffers \((\d+) bytes\), (\d+) textures \((\d+) bytes\)', text)
    out['used_bytes'] = int(m.group(2)) + int(m.group(4)) if m else None
    return out


def replay_benchmark(glreplay, cap, loop, full):
    env = dict(os.environ)
    if full:
        env['GLREPLAY_FULL_RESTORE'] = '1'
    return parse_benchmark(timed([glreplay, 'replay', cap, '--loop', str(loop), '--benchmark'], env=env)[2])


def replay_frames(glreplay, cap, frames, passes):
    """(steady-state frames per second, CPU ms per frame) of a capture of `frames` frames replayed
    `passes` times: the CPU of passes 2..N is the difference with a one-pass run (set-up and first
    pass, with its shader compilation, cancel out)."""
    _, c1, _ = timed([glreplay, 'replay', cap, '--loop', '1', '--benchmark'])
    _, cn, text = timed([glreplay, 'replay', cap, '--loop', str(passes), '--benchmark'])
    b = parse_benchmark(text)
    return b['pps'] * frames, 1e3 * max(cn - c1, 0.0) / ((passes - 1) * frames)


def verify(glreplay, cap):
    p = run([glreplay, 'replay', cap, '--loop', '3', '--verify'])
    return p.returncode == 0 and 'verify: PASS' in p.stdout


def capture(glreplay, first, count, cap, app):
    p = run([glreplay, 'capture', '--frame', str(first), '--count', str(count), '--out', cap, '--'] + app)
    if p.returncode != 0:
        raise RuntimeError('capture: exit %d: %s' % (p.returncode, (p.stdout + p.stderr)[-800:]))


def sizes(glreplay, cap):
    p = run([glreplay, 'info', cap, '--json'])
    j = json.loads(p.stdout)
    raw = sum(s.get('unpacked_bytes', s['uncompressed_bytes']) for s in j['sections'])
    return os.path.getsize(cap), raw


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def kib(n):
    return '-' if n is None else '%.0f' % (n / 1024.0)


def opt(v, fmt):
    return '-' if v is None else fmt % v


def measure(a, name, tmp):
    """One row: see the module docstring."""
    cap = os.path.join(tmp, name.replace(':', '_') + '.glcap')
    row = {'name': name}
    if name.startswith('glmark2:'):
        scene = name.split(':', 1)[1]
        measure_program = lambda: glmark2_fps(a.glmark2, scene, a.size, 2.0 if not a.quick else 0.5)
        app = [a.glmark2, '-s', a.size, '-b', '%s:duration=%g' % (scene, 1.0)]
        frame, window = 10, None
    else:
        exe = os.path.join(a.samples, name)
        lo, hi = (20, 140) if not a.quick else (5, 25)
        measure_program = lambda: sample_fps(exe, a.size, lo, hi)
        frame, window = lo, (lo, hi)
        app = [exe, '--frames', str(hi + 2), '--size', a.size]
    capture(a.glreplay, frame, 1, cap, app)
    row['file'], row['raw'] = sizes(a.glreplay, cap)
    if window:
        wcap = os.path.join(tmp, name + '_window.glcap')
        count = window[1] - window[0]
        capture(a.glreplay, window[0], count, wcap, app)
        passes = 1 + max(2, a.loop // count)
    # Rounds alternate the program and the replay, so both see the same load (the machine is
    # shared); the figures are medians over the rounds, the ratio the median of the per-round
    # ratios.
    fps, pcpu, rfps, rcpu, ratios, one, last = [], [], [], [], [], [], None
    for _ in range(a.rounds):
        f, c = measure_program()
        fps.append(f)
        pcpu.append(c)
        last = replay_benchmark(a.glreplay, cap, a.loop, False)
        one.append(last['pps'])
        if window:
            g, rc = replay_frames(a.glreplay, wcap, count, passes)
            rfps.append(g)
            rcpu.append(rc)
        else:
            rfps.append(last['pps'])
        ratios.append(rfps[-1] / f)
    row.update(fps=median(fps), rfps=median(rfps), ratio=median(ratios), one=median(one),
               pcpu=median(pcpu) if window else None, rcpu=median(rcpu) if window else None,
               mode=last['mode'], reset_ms=last['reset_ms'], why=last['why'], used=last['used_bytes'],
               ratio_range=(min(ratios), max(ratios)), frames=('%d-%d' % (window[0], window[1] - 1)) if window
               else str(frame))
    row['old_pps'] = replay_benchmark(a.glreplay, cap, min(a.loop, 6), True)['pps']
    row['verify'] = verify(a.glreplay, cap) and (not window or verify(a.glreplay, wcap))
    return row


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--glreplay', required=True)
    ap.add_argument('--samples', required=True, help='folder with the built samples')
    ap.add_argument('--glmark2', default=shutil.which('glmark2'))
    ap.add_argument('--size', default='640x360')
    ap.add_argument('--loop', type=int, default=100)
    ap.add_argument('--rounds', type=int, default=5, help='program/replay measurement rounds per row')
    ap.add_argument('--only', default='', help='comma list of names (samples or glmark2:SCENE)')
    ap.add_argument('--quick', action='store_true', help='smoke run: lit_mesh only, short loops')
    a = ap.parse_args()
    names = SAMPLES + ['glmark2:' + s for s in GLMARK2_SCENES]
    if a.quick:
        names, a.loop, a.rounds, a.size = ['lit_mesh'], 4, 1, '160x120'
    if a.only:
        names = [n for n in a.only.split(',') if n]
    if not a.glmark2:
        names = [n for n in names if not n.startswith('glmark2:')]
    tmp = tempfile.mkdtemp(prefix='glr-replay-speed-')
    rows, ok = [], True
    try:
        for name in names:
            try:
                row = measure(a, name, tmp)
                ok = ok and row['verify']
            except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
                row = {'name': name, 'error': str(e).strip().splitlines()[-1] if str(e).strip() else repr(e)}
                # A smoke run checks the harness, not the machine: noise it reports, other errors fail.
                ok = ok and a.quick and isinstance(e, NoisyMeasurement)
            rows.append(row)
            print('measured %s' % name, file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('replay speed (%s, --loop %d, steady state incl. the reset between passes) and capture size' %
          (a.size, a.loop))
    print('| program | frames | own fps | replay fps | ratio (min-max) | own CPU ms/frame | replay CPU ms/frame | '
          'one frame passes/s | full restore passes/s | reset | reset ms/pass | file KiB | uncompressed KiB | '
          'frame uses KiB | verify |')
    print('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        if 'error' in r:
            print('| %s | error: %s |' % (r['name'], r['error'][:200]))
            continue
        print('| %s | %s | %.1f | %.1f | %.2fx (%.2f-%.2f) | %s | %s | %.1f | %.1f | %s | %.2f | %s | %s | %s | %s |' % (
            r['name'], r['frames'], r['fps'], r['rfps'], r['ratio'], r['ratio_range'][0], r['ratio_range'][1],
            opt(r['pcpu'], '%.2f'), opt(r['rcpu'], '%.2f'), r['one'], r['old_pps'],
            'kept objects' if r['mode'] == 'kept' else 'full (%s)' % r['why'], r['reset_ms'], kib(r['file']),
            kib(r['raw']), kib(r['used']), 'PASS' if r['verify'] else 'FAIL'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
