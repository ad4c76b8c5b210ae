#!/usr/bin/env python3
"""The in-process replay loop (docs/REPLAY.md, "In-process replay loop"), triggered by
GLREPLAY_REPLAY_LOOP with GLREPLAY_CAPTURE_FRAMES, on one GLFW sample (lit_mesh: GLX, gles3_egl:
EGL, shared_threads: a frame drawn by two threads' contexts), under the Xvfb the runner provides.

Checks:
- the program's dumped frames (before, at and after the looped frame) are byte-identical to a run
  without the shim: the program continues exactly as if nothing happened;
- the log says the passes ran, and with GLREPLAY_REPLAY_LOOP_VERIFY=1 every pass's back buffer,
  read right before its swap, is identical to the captured reference image, with the pass reset
  (passes after the first keep the loop context) and with GLREPLAY_FULL_RESTORE=1 (every pass on
  a fresh context);
- that check can fail: replaying the frame without its draws (a test switch) makes it report
  "differs";
- the window shows the loop's frames while the program is paused (read from the X server with
  window_grab during a pass's pause: the looped frame normally, something else when the draws are
  skipped);
- the debugger's way of running the loop (no pass count, a keep_going callback);
- failure path: a context version the driver lacks (a test switch) abandons the loop with one log
  line and the program continues unchanged.
usage: check_replay_loop.py SAMPLE SHIM WINDOW_GRAB"""
import os
import re
import subprocess
import sys
import tempfile
import time

sample, shim, window_grab = sys.argv[1:4]
label = os.path.basename(sample)
FRAMES = 6
SIZE = '160x120'
# GLFW swaps once inside glfwCreateWindow, so sample frame N is the shim's frame N + 1: capturing
# shim frame 3 loops sample frame 2 (docs: samples/README.md).
CAPTURE = 3
LOOPED_SAMPLE_FRAME = CAPTURE - 1
failures = []


def fail(msg):
    failures.append(msg)
    print('FAIL: ' + msg)


def sample_args(dump_dir):
    return ['--frames', str(FRAMES), '--size', SIZE, '--dump-frames', ','.join(str(i) for i in range(FRAMES)),
            '--dump-dir', dump_dir]


def run(sample, dump_dir, env_extra):
    env = dict(os.environ)
    for k in list(env):
        if k.startswith('GLREPLAY_'):
            del env[k]
    env.update(env_extra)
    p = subprocess.run([sample] + sample_args(dump_dir), env=env, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stderr


def read_pam(path):
    with open(path, 'rb') as f:
        data = f.read()
    end = data.index(b'ENDHDR\n') + len(b'ENDHDR\n')
    hdr = dict(line.split(' ', 1) for line in data[:end].decode().splitlines()[1:-1])
    return int(hdr['WIDTH']), int(hdr['HEIGHT']), data[end:]


def rgb(pixels):
    return bytes(b for i, b in enumerate(pixels) if i % 4 != 3)


def same_frames(label, ref_dir, got_dir):
    for i in range(FRAMES):
        name = 'frame_%04d.pam' % i
        a, b = os.path.join(ref_dir, name), os.path.join(got_dir, name)
        if not os.path.exists(b):
            fail('%s: %s was not dumped' % (label, name))
            continue
        with open(a, 'rb') as fa, open(b, 'rb') as fb:
            if fa.read() != fb.read():
                fail('%s: %s differs from the run without the shim' % (label, name))


def loop_env(tmp, passes, extra=None):
    env = {'LD_PRELOAD': shim, 'GLREPLAY_LOG': 'info', 'GLREPLAY_CAPTURE_FRAMES': str(CAPTURE),
           'GLREPLAY_CAPTURE_OUT': os.path.join(tmp, 'loop.glcap'), 'GLREPLAY_REPLAY_LOOP': str(passes),
           'GLREPLAY_SOCKET': os.path.join(tmp, 'run', 's.sock')}
    env.update(extra or {})
    return env


def check_sample(sample, label, tmp):
    ref = os.path.join(tmp, label + '-ref')
    rc, err = run(sample, ref, {})
    if rc != 0:
        fail('%s without the shim: exit %d: %s' % (label, rc, err[-500:]))
        return ref

    # 5 passes with verification: each pass identical to the reference, program unchanged.
    got = os.path.join(tmp, label + '-loop')
    rc, err = run(sample, got, loop_env(tmp, 5, {'GLREPLAY_REPLAY_LOOP_VERIFY': '1'}))
    if rc != 0:
        fail('%s with the loop: exit %d: %s' % (label, rc, err[-1500:]))
    if 'replay loop: 5 passes ran' not in err:
        fail('%s: the log does not say 5 passes ran:\n%s' % (label, err[-1500:]))
    for i in range(1, 6):
        if 'replay loop: pass %d: frame %d: identical to reference' % (i, CAPTURE) not in err:
            fail('%s: pass %d not verified identical:\n%s' % (label, i, err[-1500:]))
    if 'differs' in err or 'abandoned' in err:
        fail('%s: unexpected loop trouble:\n%s' % (label, err[-1500:]))
    same_frames(label + ' with the loop', ref, got)

    # The debugger's way: no pass count, a keep_going callback that stops after 3 passes.
    got = os.path.join(tmp, label + '-keepgoing')
    rc, err = run(sample, got, loop_env(tmp, 3, {'GLREPLAY_REPLAY_LOOP_VERIFY': '1',
                                                 'GLREPLAY_REPLAY_LOOP_TEST_KEEP_GOING': '1'}))
    if rc != 0 or 'until told to stop' not in err or 'replay loop: 3 passes ran' not in err or \
            err.count('identical to reference') != 3:
        fail('%s with keep_going: exit %d:\n%s' % (label, rc, err[-1500:]))
    same_frames(label + ' with keep_going', ref, got)

    # Every pass from scratch (a fresh context and the whole initial state, no pass reset).
    got = os.path.join(tmp, label + '-full')
    rc, err = run(sample, got, loop_env(tmp, 2, {'GLREPLAY_REPLAY_LOOP_VERIFY': '1', 'GLREPLAY_FULL_RESTORE': '1'}))
    if rc != 0 or 'replay loop: 2 passes ran' not in err or err.count('identical to reference') != 2:
        fail('%s with full restores: exit %d:\n%s' % (label, rc, err[-1500:]))
    same_frames(label + ' with full restores', ref, got)

    # The verification is a real check: without its draws the replayed frame is wrong.
    got = os.path.join(tmp, label + '-nodraws')
    rc, err = run(sample, got, loop_env(tmp, 2, {'GLREPLAY_REPLAY_LOOP_VERIFY': '1',
                                                 'GLREPLAY_REPLAY_LOOP_TEST_SKIP_DRAWS': '1'}))
    if rc != 0:
        fail('%s with the draws skipped: exit %d: %s' % (label, rc, err[-1500:]))
    if not re.search(r'replay loop: pass 1: frame %d: differs from reference \(\d+ of \d+ pixels\)' % CAPTURE, err):
        fail('%s: verification did not see the wrong frame:\n%s' % (label, err[-1500:]))
    same_frames(label + ' with the draws skipped', ref, got)

    # Failure path: the driver refuses the loop context; the program continues unchanged.
    got = os.path.join(tmp, label + '-fail')
    rc, err = run(sample, got, loop_env(tmp, 5, {'GLREPLAY_REPLAY_LOOP_TEST_VERSION': '99.0'}))
    if rc != 0:
        fail('%s with an impossible loop context: exit %d: %s' % (label, rc, err[-1500:]))
    abandoned = [l for l in err.splitlines() if 'replay loop abandoned' in l]
    if len(abandoned) != 1 or '99.0' not in abandoned[0] or 'passes ran' in err:
        fail('%s: expected one "replay loop abandoned" line naming version 99.0:\n%s' % (label, err[-1500:]))
    same_frames(label + ' after a failed loop', ref, got)
    return ref


def private_display():
    """A private Xvfb for the window checks: on the shared one, other tests' windows (all at 0,0,
    no window manager) may cover ours, and X returns undefined contents for covered parts."""
    r, w = os.pipe()
    try:
        xvfb = subprocess.Popen(['Xvfb', '-displayfd', str(w), '-screen', '0', '640x480x24', '-nolisten', 'tcp'],
                                pass_fds=(w,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    except OSError:
        os.close(r)
        os.close(w)
        return None, None
    os.close(w)
    num = b''
    while not num.endswith(b'\n'):
        chunk = os.read(r, 16)
        if not chunk:
            break
        num += chunk
    os.close(r)
    if not num.strip().isdigit():
        xvfb.kill()
        xvfb.wait()
        return None, None
    return xvfb, ':' + num.decode().strip()


def grab_during_pause(tmp, ref_dir, skip_draws):
    """Runs the sample with a pause after its pass and reads its window during the pause."""
    got = os.path.join(tmp, 'window-%d' % skip_draws)
    extra = {'GLREPLAY_REPLAY_LOOP_VERIFY': '1', 'GLREPLAY_REPLAY_LOOP_DELAY_MS': '1500'}
    if skip_draws:
        extra['GLREPLAY_REPLAY_LOOP_TEST_SKIP_DRAWS'] = '1'
    env = dict((k, v) for k, v in os.environ.items() if not k.startswith('GLREPLAY_'))
    env.update(loop_env(tmp, 1, extra))
    xvfb, display = private_display()
    if display:
        env['DISPLAY'] = display
    try:
        return grab_in(tmp, ref_dir, skip_draws, got, env)
    finally:
        if xvfb:
            xvfb.terminate()
            xvfb.wait()


def grab_in(tmp, ref_dir, skip_draws, got, env):
    p = subprocess.Popen([sample] + sample_args(got), env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.PIPE, text=True)
    shot = os.path.join(tmp, 'window-%d.pam' % skip_draws)
    lines = []
    grabbed = None
    for line in p.stderr:
        lines.append(line)
        if grabbed is None and 'replay loop: pass 1: frame' in line:
            time.sleep(0.5)   # the pass swaps right after this line, then pauses 1.5 s
            grab_env = dict(os.environ, DISPLAY=env.get('DISPLAY', ''))   # not under the shim
            grabbed = subprocess.run([window_grab, str(p.pid), shot], capture_output=True, text=True, env=grab_env)
    p.wait(timeout=60)
    if grabbed is None or grabbed.returncode != 0:
        fail('window grab during the pause failed: %s\n%s' % (grabbed and grabbed.stderr, ''.join(lines)[-1500:]))
        return None
    if p.returncode != 0:
        fail('%s with a paused loop: exit %d' % (label, p.returncode))
    same_frames(label + ' with a paused loop', ref_dir, got)
    w, h, win = read_pam(shot)
    rw, rh, ref = read_pam(os.path.join(ref_dir, 'frame_%04d.pam' % LOOPED_SAMPLE_FRAME))
    if (w, h) != (rw, rh):
        fail('window is %dx%d, the frames %dx%d' % (w, h, rw, rh))
        return None
    return rgb(win) == rgb(ref)


with tempfile.TemporaryDirectory() as tmp:
    os.chmod(tmp, 0o700)
    ref = check_sample(sample, label, tmp)
    if os.path.exists(os.path.join(ref, 'frame_0000.pam')):
        shows_frame = grab_during_pause(tmp, ref, False)
        if shows_frame is False:
            fail('during the pause the window does not show the looped frame')
        shows_broken = grab_during_pause(tmp, ref, True)
        if shows_broken is True:
            fail('with the draws skipped the window still shows the program\'s frame: '
                 'the loop\'s swaps are not what the window shows')

if failures:
    sys.exit('%d failure(s)' % len(failures))
print('replay loop on %s: all checks passed' % label)
