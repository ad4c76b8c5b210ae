#!/usr/bin/env python3
"""Replay speed against the program's own frame rate, and capture size against the resources the
frame uses (docs/BENCHMARKS.md, "Replay speed"). Stdlib only; needs an X server (DISPLAY) for the
programs; the replays run headless.

For every program:
  (a) its own steady-state frame rate: samples: (140 - 20) frames / (time of --frames 140 minus
      time of --frames 20); glmark2: the FPS it prints for the scene;
  (b) `glreplay replay F --loop N --benchmark` of a capture of one mid-run frame: the steady-state
      passes per second including the reset between passes, and the ratio (b)/(a). Rounds
      alternate (a) and (b) so both see the same machine load; the table gives medians over
      --rounds and the range of the per-round ratios; for comparison
      the same with GLREPLAY_FULL_RESTORE=1 (contexts recreated and everything restored before every
      pass, as the replayer did before the pass reset);
  (c) the capture's file size and uncompressed size (`glreplay info --json` sections) against the
      bytes of the initial-state buffers and textures bound where the frame draws (the replayer's
      "frame uses" line).
Every replay is also checked with `--loop 3 --verify` (column "verify").

  run_replay_speed.py --glreplay G --samples DIR [--glmark2 PATH] [--size WxH] [--loop N]
                      [--rounds R] [--only NAME,...] [--quick]
Exit status 0 when every row was measured and verified, 1 otherwise.
"""
import argparse
import json
import os
import re
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


def timed(cmd):
    t0 = time.monotonic()
    p = run(cmd)
    t = time.monotonic() - t0
    if p.returncode != 0:
        raise RuntimeError('%s: exit %d: %s' % (' '.join(cmd), p.returncode, p.stderr[-500:]))
    return t


def sample_fps(exe, size, rounds, lo, hi):
    """Frames per second of the program's steady state: the start-up cost cancels out. The median
    over rounds (the best of a difference of two noisy times would overestimate)."""
    fps = []
    for _ in range(rounds * 3):   # a busy machine can hide the difference: again
        t_lo = timed([exe, '--frames', str(lo), '--size', size])
        t_hi = timed([exe, '--frames', str(hi), '--size', size])
        if t_hi > t_lo:
            fps.append((hi - lo) / (t_hi - t_lo))
        if len(fps) == rounds:
            break
    if not fps:
        raise RuntimeError('%s: --frames %d did not take longer than --frames %d' % (exe, hi, lo))
    return sorted(fps)[len(fps) // 2]


def glmark2_fps(glmark2, scene, size, duration):
    p = run([glmark2, '-s', size, '-b', '%s:duration=%g' % (scene, duration)])
    m = re.search(r'FPS: *([0-9.]+)', p.stdout)
    if p.returncode != 0 or not m:
        raise RuntimeError('glmark2 %s: exit %d: %s' % (scene, p.returncode, (p.stdout + p.stderr)[-500:]))
    return float(m.group(1))


def replay_benchmark(glreplay, cap, loop, full):
    env = dict(os.environ)
    if full:
        env['GLREPLAY_FULL_RESTORE'] = '1'
    p = run([glreplay, 'replay', cap, '--loop', str(loop), '--benchmark'], env=env)
    if p.returncode != 0:
        raise RuntimeError('replay --benchmark: exit %d: %s' % (p.returncode, (p.stdout + p.stderr)[-800:]))
    out = {'text': p.stdout}
    m = re.search(r'benchmark: steady state: .*?: ([0-9.]+) passes/s .*?\(([^:]*): ([0-9.]+) ms per pass\)', p.stdout)
    if not m:
        raise RuntimeError('replay --benchmark printed no steady-state line:\n' + p.stdout[-800:])
    out['pps'] = float(m.group(1))
    out['mode'] = 'kept' if m.group(2).startswith('kept') else 'full'
    out['reset_ms'] = float(m.group(3))
    m = re.search(r'reset: full restore before every pass: (.*)', p.stdout)
    out['why'] = m.group(1) if m else ''
    m = re.search(r'frame uses: (\d+) buffers \((\d+) bytes\), (\d+) textures \((\d+) bytes\)', p.stdout)
    out['used_bytes'] = int(m.group(2)) + int(m.group(4)) if m else None
    return out


def verify(glreplay, cap):
    p = run([glreplay, 'replay', cap, '--loop', '3', '--verify'])
    return p.returncode == 0 and 'verify: PASS' in p.stdout


def sizes(glreplay, cap):
    p = run([glreplay, 'info', cap, '--json'])
    j = json.loads(p.stdout)
    raw = sum(s['uncompressed_bytes'] for s in j['sections'])
    return os.path.getsize(cap), raw


def median(v):
    v = sorted(v)
    return v[len(v) // 2] if len(v) % 2 else (v[len(v) // 2 - 1] + v[len(v) // 2]) / 2


def kib(n):
    return '-' if n is None else '%.0f' % (n / 1024.0)


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
            cap = os.path.join(tmp, name.replace(':', '_') + '.glcap')
            row = {'name': name}
            try:
                if name.startswith('glmark2:'):
                    scene = name.split(':', 1)[1]
                    measure_fps = lambda: glmark2_fps(a.glmark2, scene, a.size, 2.0 if not a.quick else 0.5)
                    app = [a.glmark2, '-s', a.size, '-b', '%s:duration=%g' % (scene, 1.0)]
                    frame = 10
                else:
                    exe = os.path.join(a.samples, name)
                    lo, hi = (20, 140) if not a.quick else (5, 65)
                    measure_fps = lambda: sample_fps(exe, a.size, 1, lo, hi)
                    frame = 20 if not a.quick else 5
                    app = [exe, '--frames', str(frame + 2), '--size', a.size]
                p = run([a.glreplay, 'capture', '--frame', str(frame), '--out', cap, '--'] + app)
                if p.returncode != 0:
                    raise RuntimeError('capture: exit %d: %s' % (p.returncode, (p.stdout + p.stderr)[-800:]))
                row['file'], row['raw'] = sizes(a.glreplay, cap)
                # Rounds alternate the program and the replay, so both see the same load (the
                # machine is shared); the figures are medians over the rounds, the ratio the median
                # of the per-round ratios.
                fps, pps, ratios, last = [], [], [], None
                for _ in range(a.rounds):
                    fps.append(measure_fps())
                    last = replay_benchmark(a.glreplay, cap, a.loop, False)
                    pps.append(last['pps'])
                    ratios.append(pps[-1] / fps[-1])
                row.update(fps=median(fps), pps=median(pps), ratio=median(ratios), mode=last['mode'],
                           reset_ms=last['reset_ms'], why=last['why'], used=last['used_bytes'],
                           ratio_range=(min(ratios), max(ratios)))
                row['old_pps'] = replay_benchmark(a.glreplay, cap, min(a.loop, 6), True)['pps']
                row['verify'] = verify(a.glreplay, cap)
                ok = ok and row['verify']
            except (RuntimeError, OSError, ValueError, subprocess.TimeoutExpired) as e:
                row['error'] = str(e).strip().splitlines()[-1] if str(e).strip() else repr(e)
                ok = False
            rows.append(row)
            print('measured %s' % name, file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    print('replay speed (%s, --loop %d, steady state incl. the reset between passes) and capture size' %
          (a.size, a.loop))
    print('| program | own fps | replay passes/s | ratio (min-max) | full restore passes/s | reset | reset ms/pass | '
          'file KiB | uncompressed KiB | frame uses KiB | verify |')
    print('|---|---|---|---|---|---|---|---|---|---|---|')
    for r in rows:
        if 'error' in r:
            print('| %s | error: %s |' % (r['name'], r['error'][:200]))
            continue
        print('| %s | %.1f | %.1f | %.2fx (%.2f-%.2f) | %.1f | %s | %.2f | %s | %s | %s | %s |' % (
            r['name'], r['fps'], r['pps'], r['ratio'], r['ratio_range'][0], r['ratio_range'][1], r['old_pps'],
            'kept objects' if r['mode'] == 'kept' else 'full (%s)' % r['why'], r['reset_ms'], kib(r['file']),
            kib(r['raw']), kib(r['used']), 'PASS' if r['verify'] else 'FAIL'))
    return 0 if ok else 1


if __name__ == '__main__':
    sys.exit(main())
