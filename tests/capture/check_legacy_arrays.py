#!/usr/bin/env python3
"""A GL 2.1-style program with fixed-function client arrays (and, with `lists`, display lists compiled
at start-up): its frames captured from frame 0 and from a later frame (the array state and the lists
then predate the capture) replay pixel-exactly, in a loop, and the program behaves identically with
and without the shim. With `model`, instead: `glreplay model --compare` on those captures agrees
>= 99.9% on every draw the GPU model supports (the shader draws reading gl_Vertex, gl_Color and
gl_MultiTexCoordN from client arrays, and the fixed-function draw over glInterleavedArrays inside
glPushClientAttrib/glPopClientAttrib with colour sum and fog from the fog coordinate array;
display-list calls are reported unsupported). With `lists` (not `model`), also: over the lists' memory cap the capture names the
lists it lacks.
Usage: PROG SHIM GLREPLAY [lists] [model]"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
lists = ['lists'] if 'lists' in sys.argv[4:] else []
model = 'model' in sys.argv[4:]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
native = subprocess.run([prog, '7'] + lists, env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)


def check_model(out, frames):
    run = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    print(run.stdout[-4000:], run.stderr[-2000:])
    if run.returncode not in (0, 1):
        sys.exit('model --compare on frames %s: exit status %d' % (frames, run.returncode))
    supported = fixed = 0
    for line in run.stdout.splitlines():
        m = re.match(r'draw \d+ \(record \d+, \w+, program (\d+)', line)
        if not m or 'unsupported' in line:
            continue
        if lists and frames == '0-1' and not fixed and 'glCallList,' in line and line.startswith('draw 0 '):
            # the list compiled with GL_COMPILE_AND_EXECUTE at start-up draws before the program's
            # first clear, over the window's undefined first contents: not comparable
            continue
        fixed += m.group(1) == '0'
        if 'FAILED' in line:
            sys.exit('model: a supported draw failed: %s' % line)
        for pct in re.findall(r'([0-9.]+)%', line):
            if float(pct) < 99.9:
                sys.exit('model: a supported draw disagrees with the driver: %s' % line)
        if int(re.search(r'(\d+) fragments', line).group(1)) > 0:
            supported += 1
    if supported < 2:
        sys.exit('model: the shader draws over legacy client arrays were not modelled (%d)' % supported)
    if fixed < 2:
        sys.exit('model: the fixed-function draws were not modelled (%d of 2 frames)' % fixed)


with tempfile.TemporaryDirectory() as d:
    for frames in ('0-1', '4-5'):
        out = os.path.join(d, 'l%s.glcap' % frames)
        run = subprocess.run([prog, '7'] + lists, env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                           GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        if model:
            check_model(out, frames)
            continue
        rep = subprocess.run([glreplay, 'replay', out, '--verify', '--loop', '3'], env=env,
                             capture_output=True, text=True)
        print(rep.stdout, rep.stderr)
        if rep.returncode != 0 or 'verify: PASS' not in rep.stdout or ' 0 bad' not in rep.stdout:
            sys.exit('replay of frames %s failed' % frames)
        if 'warning' in rep.stderr:
            sys.exit('replay of frames %s warned: %s' % (frames, rep.stderr))
        info = subprocess.run([glreplay, 'info', out, '--json'], env=env, capture_output=True, text=True)
        m = re.search(r'"client_array_records":\s*(\d+)', info.stdout)
        # per frame: 2 shader draws x 4 arrays (vertex, colour, 2 texture units) + the fixed-function
        # draw's 6 (colour, normal, vertex of glInterleavedArrays, secondary colour, fog coordinate,
        # and unit 1's texture coordinates, which glInterleavedArrays leaves enabled)
        # (with lists, a capture from frame 0 also holds the compilation of the list that draws from
        # two client arrays)
        want = 2 * 14 + (2 if lists and frames == '0-1' else 0)
        if not m or int(m.group(1)) != want:
            sys.exit('frames %s: expected %d client array records, info says %s' % (frames, want, m and m.group(1)))
    if lists and not model:
        # Over the lists' memory cap (0 MiB keeps none): the program runs unchanged, the capture says
        # which list it lacks, and its replay then differs (the kept lists are what replays right).
        out = os.path.join(d, 'capped.glcap')
        run = subprocess.run([prog, '7'] + lists, env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='4-5',
                                                           GLREPLAY_CAPTURE_OUT=out, GLREPLAY_LIST_MAX_MB='0'),
                             capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim with GLREPLAY_LIST_MAX_MB=0 differs: %r\n%s' % (run.stdout, run.stderr))
        if not re.search(r'display list \d+ of share group \d+ was not kept', run.stderr):
            sys.exit('lists over the cap: the capture did not say so: %r' % run.stderr)
        rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
        if rep.returncode == 0 or 'verify: FAIL' not in rep.stdout:
            sys.exit('lists over the cap: the replay should lack them and differ: %s' % rep.stdout)
print('legacy client arrays%s%s: OK' % (' and display lists' if lists else '', ' in the GPU model' if model else ''))
