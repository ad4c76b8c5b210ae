#!/usr/bin/env python3
"""Captures of programs that never swap (Debian's piglit shader_runner, run as piglit runs it with
-auto -fbo): the capture is written at exit with the framebuffer the
program drew into as end images; the test's result line is the same as without the shim; `glreplay
info` lists the images and `glreplay replay --verify` checks each of them ("end of frame ...
matches the reference") and exits 0.
Usage: check_end_images.py SHADER_RUNNER SHIM GLREPLAY (needs DISPLAY)."""
import os
import re
import subprocess
import sys
import tempfile

runner, shim, cli = sys.argv[1:4]
spec = os.path.join(os.path.dirname(os.path.dirname(runner)), 'tests', 'spec')
tests = [os.path.join(spec, 'glsl-1.10', 'execution', 'chained-assignment.shader_test'),
         os.path.join(spec, 'glsl-1.30', 'execution', 'fs-isinf-vec4.shader_test')]
failures = 0
with tempfile.TemporaryDirectory() as d:
    for t in [t for t in tests if os.path.exists(t)]:
        # In its window (no -fbo) shader_runner draws into the default framebuffer and exits
        # without a swap; the shim does not read a window at exit (it may be gone): not kept.
        for mode in (['-fbo'],):
            name = '%s %s' % (os.path.basename(t), mode[0] if mode else 'window')
            cmd = [runner, t, '-auto'] + mode
            native = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            want = re.findall(r'PIGLIT: \{"result": "\w+" \}', native.stdout)
            out = os.path.join(d, 'cap.glcap')
            if os.path.exists(out):
                os.unlink(out)
            env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='0', GLREPLAY_CAPTURE_OUT=out)
            shimmed = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=60)
            got = re.findall(r'PIGLIT: \{"result": "\w+" \}', shimmed.stdout)
            if got != want or shimmed.returncode != native.returncode:
                print('FAIL %s: result under the shim %s (rc %d), natively %s (rc %d)\n%s%s' %
                      (name, got, shimmed.returncode, want, native.returncode, shimmed.stdout[-2000:],
                       shimmed.stderr[-2000:]))
                failures += 1
                continue
            info = subprocess.run([cli, 'info', out], capture_output=True, text=True)
            m = re.search(r'reference images: (\d+)', info.stdout)
            if info.returncode != 0 or not m or int(m.group(1)) == 0:
                print('FAIL %s: no end image kept: %s' % (name, info.stdout[-300:] + info.stderr))
                failures += 1
                continue
            rep = subprocess.run([cli, 'replay', out, '--verify'], capture_output=True, text=True, timeout=120)
            ends = rep.stdout.count('end of frame')
            if rep.returncode != 0 or ends != int(m.group(1)) or 'DIFFERS' in rep.stdout:
                print('FAIL %s: replay --verify rc %d, %d of %s end images checked:\n%s%s' %
                      (name, rep.returncode, ends, m.group(1), rep.stdout[-800:], rep.stderr[-300:]))
                failures += 1
                continue
            print('%s: %s, %s end images, replay --verify: PASS' % (name, want[0] if want else '?', m.group(1)))
sys.exit(1 if failures else 0)
