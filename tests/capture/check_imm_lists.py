#!/usr/bin/env python3
"""Immediate mode and display lists in the GPU model (imm_lists.c): frames captured from frame 0
(the start-up lists are compiled inside the capture) and from a later frame (the snapshot keeps
them), run by `glreplay model --compare`: every glBegin/glEnd, glRect and every draw inside the
called lists (a self-calling list 64 levels deep, glCallLists over several name types, nested
lists, lists compiled inside the frame) is a modelled draw with no unsupported feature, and every
comparison with the driver agrees on >= 99.9% of the pixels. `glreplay info` counts the stream's
immediate-mode draws.
Usage: PROG SHIM GLREPLAY"""
import json
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('LD_PRELOAD', None)
native = subprocess.run([prog, '6'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('imm_lists failed natively: %s' % native.stderr)

# Per frame: 4 shapes + 2 rectangles + 1 glArrayElement fan + 1 triangle in the colour it left + 64 (self-calling list) + 2 + 1 + 2
# (glCallLists: lists 1 and 2, list 3, list 4 with list 2 nested) + 2 after the lists + 1 after the
# GL_COMPILE list (not executed while compiled) + 2 (GL_COMPILE_AND_EXECUTE) + 2 (its call).
DRAWS_PER_FRAME = 84
# glEnd and glRect records in the stream per frame (one inside each list compiled in the frame).
# (The glArrayElement draw is a fan, not a quad: llvmpipe splits an immediate-mode GL_QUADS quad
# along 1-3 in the program's run and in `glreplay replay`, as the model does, but along 0-2 when
# `model --compare` reads the driver's image back after every draw; see DESIGN.md.)
STREAM_DRAWS_PER_FRAME = 13

with tempfile.TemporaryDirectory() as d:
    for frames in ('0-1', '3-4'):
        out = os.path.join(d, 'i%s.glcap' % frames)
        run = subprocess.run([prog, '6'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=frames,
                                                    GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
        if run.returncode != 0 or run.stdout != native.stdout:
            sys.exit('run under the shim differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
        model = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env,
                               capture_output=True, text=True)
        print(model.stdout[-3000:], model.stderr[-2000:])
        if model.returncode != 0:
            sys.exit('model --compare on frames %s: exit status %d' % (frames, model.returncode))
        m = re.search(r'^model: (\d+) draws \((\d+) with unsupported features, (\d+) failed\)', model.stdout, re.M)
        if not m:
            sys.exit('model: no totals line')
        draws, unsup, failed = (int(x) for x in m.groups())
        if draws != 2 * DRAWS_PER_FRAME or unsup or failed:
            sys.exit('frames %s: expected %d modelled draws, none unsupported or failed; got %s' %
                     (frames, 2 * DRAWS_PER_FRAME, m.group(0)))
        lows = [float(x) for x in re.findall(r'([0-9.]+)%', model.stdout)]
        if not lows or min(lows) < 99.9:
            sys.exit('frames %s: a comparison below 99.9%%: %s' % (frames, min(lows) if lows else 'none'))
        # the self-calling list's 64 draws are one event of its glCallList record
        if not re.search(r'^draws (\d+)-(\d+) \(record \d+, glCallList,', model.stdout, re.M) or \
           not any(int(b) - int(a) + 1 == 64 for a, b in
                   re.findall(r'^draws (\d+)-(\d+) \(record \d+, glCallList,', model.stdout, re.M)):
            sys.exit('frames %s: no glCallList event with the 64 draws of the self-calling list' % frames)
        info = subprocess.run([glreplay, 'info', out], env=env, capture_output=True, text=True)
        m = re.search(r'^draws: (\d+)', info.stdout, re.M)
        # from frame 0 the stream also holds the start-up lists' compilation: 5 glEnd
        want = 2 * STREAM_DRAWS_PER_FRAME + (5 if frames == '0-1' else 0)
        if not m or int(m.group(1)) != want:
            sys.exit('frames %s: info counts %s draws, expected %d' % (frames, m and m.group(1), want))
        # `glreplay state` applies list contents when a list is called, not when it is compiled:
        # before the frame's glRecti the GL_COMPILE_AND_EXECUTE list has set (0, 1, 0.5); after its
        # glCallList of the GL_COMPILE list, (1, 0, 1); the draw after that GL_COMPILE list was
        # compiled still has the colour from before it.
        recs = [(int(r), cmd) for r, cmd in re.findall(r'^draws? [\d-]+ \(record (\d+), (\w+),', model.stdout, re.M)]
        # The glRecti is compiled into the GL_COMPILE_AND_EXECUTE list, so its (empty) draw runs when
        # Mesa's vbo save closes the vertex node: at the glCallList compiled after it (gmf_lists.c).
        # That event is the first glCallList after the frame's last glEnd; the glRecti precedes it.
        before_rect = max(r for r, cmd in recs if cmd == 'glEnd')
        rect = min(r for r, cmd in recs if cmd == 'glCallList' and r > before_rect) - 1

        def color(event):
            st = subprocess.run([glreplay, 'state', out, '--event', str(event), '--json'], env=env,
                                capture_output=True, text=True)
            return [round(x, 3) for x in json.loads(st.stdout)['state']['vertex_array']['legacy_current_values']['color']]
        got = (color(before_rect), color(rect), color(rect + 2))
        if got[0] == [1, 0, 1, 1] or got[1] != [0, 1, 0.5, 1] or got[2] != [1, 0, 1, 1]:
            sys.exit('frames %s: state inside display lists applied wrongly (colours %s)' % (frames, got))
        # the debugger stops in a draw inside the self-calling list (draws 7..70 of the frame)
        lst = subprocess.run([glreplay, 'debug', out, '--list'], env=env, capture_output=True, text=True)
        fs = re.search(r'^\s*\d+\s+(\S+\.frag)\s+FS of', lst.stdout, re.M)
        dbg = subprocess.run([glreplay, 'debug', out, '--break', '%s:4' % (fs and fs.group(1)), '--draw', '40'], env=env,
                             capture_output=True, text=True, timeout=120)
        if not fs or 'stopped at hit 1' not in dbg.stdout or 'thread: draw 40 ' not in dbg.stdout:
            sys.exit('frames %s: the debugger did not stop in draw 40 (inside a list): %s %s' %
                     (frames, dbg.stdout[-600:], dbg.stderr[-600:]))
print('immediate mode and display lists in the GPU model: OK')
