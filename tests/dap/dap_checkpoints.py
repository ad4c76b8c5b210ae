#!/usr/bin/env python3
"""Per-draw checkpoints change nothing a pass finds (debugger/dbg_ckpt.h, issue 17 §2).

Captures two glmark2 scenes (`ideas`: 180 draws; `shadow`: a depth pass into a texture, then the
lit scene) and a piglit test (arb_shader_image_load_store write-to-rendered-image: a draw into an
FBO texture, image stores, image loads), and runs test_dap_ckpt on each: passes started at a
checkpoint (hit N of a breakpoint in a late draw, a step back, replay + steps, debug this pixel)
against the same passes from the frame's first draw (every lane's variables, the other resident
warps, hit and instruction numbers, stop keys), and the model run from a checkpoint against a run
from the start (every context's images after each later draw, totals, timing-model cycles).
`ideas` once more with a 2 MiB budget: checkpoints are dropped and the results stay the same.

Also samples/multipass (render targets sampled by a later pass; locals not yet written at a stop
show what earlier warps left in the pooled warp's registers, which a checkpoint keeps).

Usage: dap_checkpoints.py GLREPLAY TEST_DAP_CKPT MULTIPASS (needs glmark2 and an X display or xvfb-run,
and Debian's piglit)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

PIGLIT = '/usr/lib/x86_64-linux-gnu/piglit'
PIGLIT_TEST = 'arb_shader_image_load_store/execution/write-to-rendered-image.shader_test'


def run_check(exe, cap, env=None):
    p = subprocess.run([exe, cap], capture_output=True, text=True, timeout=120, env=env)
    sys.stdout.write(p.stdout)
    if p.returncode != 0:
        raise AssertionError('%s on %s: exit %d\n%s' % (exe, cap, p.returncode, p.stderr[-3000:]))
    return p.stdout


def main():
    glreplay, exe, multipass = sys.argv[1:4]
    glmark2 = shutil.which('glmark2')
    if not glmark2:
        print('glmark2 not found (Debian package glmark2-x11, tests/packages.txt)')
        return 77
    tmp = tempfile.mkdtemp(prefix='glr-ckpt-')
    os.chmod(tmp, 0o700)
    try:
        caps = []
        for scene in ('ideas', 'shadow'):
            cap = os.path.join(tmp, scene + '.glcap')
            r = subprocess.run([glreplay, 'capture', '--frame', '3', '--out', cap, '--', glmark2, '-s', '160x120',
                                '-b', scene + ':nframes=6'], capture_output=True, text=True, timeout=120)
            assert r.returncode == 0 and os.path.exists(cap), 'glmark2 %s capture: %s' % (scene, r.stderr[-400:])
            caps.append(cap)
        spec = os.path.join(PIGLIT, 'tests', 'spec', PIGLIT_TEST)
        assert os.path.exists(spec), '%s is missing (Debian package piglit)' % spec
        cap = os.path.join(tmp, 'piglit.glcap')
        env = dict(os.environ, PIGLIT_PLATFORM='surfaceless_egl', EGL_PLATFORM='surfaceless')
        r = subprocess.run([glreplay, 'capture', '--frame', '0', '--out', cap, '--',
                            os.path.join(PIGLIT, 'bin', 'shader_runner'), spec, '-auto', '-fbo'],
                           env=env, capture_output=True, text=True, timeout=90)
        assert r.returncode == 0 and os.path.exists(cap), 'piglit capture: %s' % r.stderr[-400:]
        caps.append(cap)
        # samples/multipass: a scene pass into two FBO attachments, then a post pass sampling them;
        # its stops show locals not yet written (what earlier warps left in the warp's registers)
        cap = os.path.join(tmp, 'multipass.glcap')
        r = subprocess.run([glreplay, 'capture', '--frame', '1', '--out', cap, '--', multipass, '--size', '160x90',
                            '--frames', '3'], capture_output=True, text=True, timeout=90)
        assert r.returncode == 0 and os.path.exists(cap), 'multipass capture: %s' % r.stderr[-400:]
        caps.append(cap)
        for c in caps:
            run_check(exe, c)
        env = dict(os.environ, GLREPLAY_DAP_CHECKPOINT_MIB='2')
        out = run_check(exe, caps[0], env)
        m = re.search(r'(\d+) draws, (\d+) checkpoints kept \(([\d.]+) MiB\)', out)
        assert m, 'no checkpoint count in the output'
        draws, kept, mib = int(m.group(1)), int(m.group(2)), float(m.group(3))
        assert 2 <= kept < draws and mib <= 2.0, \
            'a 2 MiB budget kept %d checkpoints (%.1f MiB) of %d draws' % (kept, mib, draws)
        print('dap_checkpoints: OK (%d captures; with a 2 MiB budget %d of %d checkpoints kept)' %
              (len(caps), kept, draws))
        return 0
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
