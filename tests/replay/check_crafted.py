#!/usr/bin/env python3
"""Crafted captures (synth_capture --crafted KIND): records that claim more than they carry or
more than the driver takes, huge draws and targets. `glreplay replay`, `model`, `debug`, `profile`,
`info` and `state` on each: no crash, each run ends within 10 s and under 1 GiB of memory, exit 0,
1 or 2 (a corrupt capture, docs/REPLAY.md) with a one-line error for 1 and 2 (for `replay`'s exit 1,
one reported skip a line); the replay skips
exactly the hostile calls, counted, each with a one-line reason, and exits 1 for them (a replay
with refused calls is not the captured frame).
Usage: check_crafted.py GLREPLAY SYNTH_CAPTURE"""
import os
import resource
import subprocess
import sys
import tempfile

glreplay, synth = sys.argv[1:3]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
# kind -> (refused calls, what the one-line reason must say); refused 0: the capture contradicts
# itself, so every verb that loads its stream refuses the file (exit 2, that one line).
CASES = {
    'map-overflow': (0, 'mapped buffer data claims a 1048576-byte mapping; the stream mapped 16 bytes'),
    'map-whole-overflow': (1, 'buffer mapping records: 65536 bytes at offset 0 of a 16-byte mapping'),
    'map-stale': (1, 'buffer mapping records: mapped buffer data for a mapping the replay does not have'),
    'map-stale-delete': (1, 'buffer mapping records: mapped buffer data for a mapping the replay does not have'),
    'bufferdata-short': (1, 'glBufferData: data: the call reads 268435456 bytes, 16 recorded'),
    'teximage-short': (1, 'glTexImage2D: pixels: the call reads 16777216 bytes, 16 recorded'),
    'uniform-short': (1, 'glUniform4fv: value: the call reads 16777216 bytes, 16 recorded'),
    'gen-overflow': (2, 'glGenBuffers: buffers of 1048576 names, 1 recorded'),
    'pointer-no-blob': (1, 'glBufferSubData: data: the call reads 16 bytes, 0 recorded'),
    'teximage-huge': (1, "glTexImage2D: width 1073741824 is beyond the replay driver's limit"),
    'string-count': (1, 'glShaderSource: count 1000 is larger than the 1 recorded strings'),
    'draw-huge': (1, "glDrawArraysInstanced: 3 vertices x 2147483647 instances is over the replay's budget"),
    # 4 GiB of RGBA32F: the driver refuses it (GL_OUT_OF_MEMORY), the model reports the clear.
    'target-huge': (None, ''),
}
LIMIT_S, LIMIT_KB = 10, 1 << 20
failures = []


def reported_skips(stderr):
    """Whether stderr is one reported skip a line (replay, exit 1: one line per refused command)."""
    lines = stderr.strip().splitlines()
    return bool(lines) and all(l.startswith('glreplay: warning: ') and l.endswith(' not replayed)') for l in lines)


def run(args, what):
    # ru_maxrss of RUSAGE_CHILDREN is the largest of the children waited for so far: the runs are
    # sequential, so a rise past the limit names the run that passed it.
    try:
        p = subprocess.run(args, env=env, capture_output=True, text=True, timeout=LIMIT_S)
    except subprocess.TimeoutExpired:
        failures.append('%s: no answer within %d s' % (what, LIMIT_S))
        return None
    peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    if peak > LIMIT_KB:
        failures.append('%s: %d MiB of memory (limit %d MiB)' % (what, peak >> 10, LIMIT_KB >> 10))
    if p.returncode < 0 or p.returncode not in (0, 1, 2):
        failures.append('%s: exit status %d (crash?)\n%s' % (what, p.returncode, p.stderr[-2000:]))
    elif p.returncode in (1, 2) and len(p.stderr.strip().splitlines()) != 1 and not (
            p.returncode == 1 and args[1] == 'replay' and reported_skips(p.stderr)):
        failures.append('%s: exit %d without a one-line error:\n%s' % (what, p.returncode, p.stderr))
    return p


with tempfile.TemporaryDirectory() as d:
    for kind, (refused, reason) in CASES.items():
        path = os.path.join(d, kind + '.glcap')
        gen = subprocess.run([synth, path, '--crafted', kind], capture_output=True, text=True)
        if gen.returncode != 0:
            sys.exit('synth_capture --crafted %s failed: %s' % (kind, gen.stderr))
        rep = run([glreplay, 'replay', path], kind + ': replay')
        if rep is None or refused is None:
            pass
        elif not refused:
            if rep.returncode != 2 or reason not in rep.stderr:
                failures.append('%s: replay did not refuse the file with "%s":\n%s%s' % (
                    kind, reason, rep.stdout, rep.stderr))
            print('%s: %s' % (kind, rep.stderr.strip()))
        else:
            if rep.returncode != 1 or ' %d bad' % refused not in rep.stdout or reason not in rep.stderr:
                failures.append('%s: replay did not skip %d call(s) with "%s" and exit 1 (exit %d):\n%s%s' % (
                    kind, refused, reason, rep.returncode, rep.stdout, rep.stderr))
            print('%s: %s' % (kind, rep.stderr.strip().replace('\n', ' | ')))
        for verb in (['info', path], ['info', path, '--json'], ['state', path, '--event', '14'], ['model', path],
                     ['debug', path, '--break', '1:1'],
                     ['profile', path, '--out', os.path.join(d, 'trace.json')]):
            run([glreplay] + verb, '%s: %s' % (kind, ' '.join(verb[:1] + verb[2:])))
if failures:
    sys.exit('\n'.join(failures))
print('crafted captures: %d kinds, each skipped with its reason (exit 1) or refused, no crash' % len(CASES))
