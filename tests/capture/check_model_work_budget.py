#!/usr/bin/env python3
"""The GPU model's work budget on shaders that never end (Debian's piglit shader_runner runs them on
llvmpipe, which ends any loop after 65535 iterations):
- a small draw whose fragment shader loops for ever: `glreplay model --compare` finishes, agrees
  with the driver (the model ends the loop where llvmpipe does) and counts the ended loops;
- a full-window draw of it (minutes of model time): `model`, `debug` and `profile` with
  `--timeout 2` stop within seconds, say why on one line and exit 1.
Usage: check_model_work_budget.py SHADER_RUNNER SHIM GLREPLAY."""
import os
import subprocess
import sys
import tempfile
import time

runner, shim, cli = sys.argv[1:4]
SHADER = """[require]
GLSL >= 1.30

[vertex shader passthrough]

[fragment shader]
#version 130
uniform int n;
out vec4 color;
void main() {
  int c = 0;
  while (n >= 0) { c++; }
  int d = 0;
  for (int a = 0; a < 300; a++)
    for (int b = 0; b < 300; b++) d++;
  color = vec4(float(c & 255) / 255.0, float((c >> 8) & 255) / 255.0, float(d & 255) / 255.0, 1.0);
}

[test]
uniform int n 1
draw rect %s
"""
failures = 0


def fail(msg):
    global failures
    print('FAIL ' + msg)
    failures += 1


def capture(d, name, rect):
    test = os.path.join(d, name + '.shader_test')
    with open(test, 'w') as f:
        f.write(SHADER % rect)
    out = os.path.join(d, name + '.glcap')
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='0', GLREPLAY_CAPTURE_OUT=out,
               PIGLIT_PLATFORM='surfaceless_egl')
    r = subprocess.run([runner, test, '-auto', '-fbo'], env=env, capture_output=True, text=True, timeout=120)
    if not os.path.exists(out):
        fail('%s: not captured (rc %d): %s' % (name, r.returncode, (r.stdout + r.stderr)[-300:]))
        return None
    return out


with tempfile.TemporaryDirectory() as d:
    small = capture(d, 'small', '-1 -1 0.08 0.08')
    if small:
        r = subprocess.run([cli, 'model', small, '--compare'], capture_output=True, text=True, timeout=300)
        if r.returncode != 0 or 'compare: PASS' not in r.stdout or 'shader loops ended at 65535' not in r.stdout:
            fail('small endless loop: model --compare rc %d:\n%s%s' % (r.returncode, r.stdout[-800:], r.stderr[-300:]))
        else:
            print('small endless loop: model agrees with llvmpipe; ' +
                  [l for l in r.stdout.splitlines() if l.startswith('loops:')][0])
    big = capture(d, 'big', '-1 -1 2 2')
    if big:
        shaders = subprocess.run([cli, 'debug', big, '--list'], capture_output=True, text=True).stdout
        fs = [l.split()[1] for l in shaders.splitlines() if 'FS of' in l]
        runs = [('model', [cli, 'model', big, '--timeout', '2'], 'model: stopped by the --timeout of 2 s'),
                ('profile', [cli, 'profile', big, '--out', os.path.join(d, 't.json'), '--timeout', '2'],
                 'stopped by the --timeout of 2 s'),
                ('debug', [cli, 'debug', big, '--break', '%s:6' % (fs[0] if fs else '?'), '--hit', '1000000',
                           '--timeout', '2'], 'debug: stopped by the --timeout of 2 s')]
        for name, cmd, want in runs:
            t0 = time.monotonic()
            r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            took = time.monotonic() - t0
            err = r.stderr.strip().splitlines()
            # The bound is generous (a loaded machine): without the budget these run for minutes.
            if r.returncode != 1 or not err or want not in err[-1] or took > 30:
                fail('%s --timeout 2: rc %d after %.1f s: %s' % (name, r.returncode, took, r.stderr[-400:]))
            else:
                print('%s --timeout 2: exit 1 after %.1f s: %s' % (name, took, err[-1]))
sys.exit(1 if failures else 0)
