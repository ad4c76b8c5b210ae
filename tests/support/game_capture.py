"""Capturing a mid-run frame of a real game for the end-to-end tests: the game runs under the shim
(needs DISPLAY) until the capture of frame N is written (the writer renames the file into place
when it is complete), then it is stopped. Standard library only."""
import os
import signal
import subprocess
import tempfile
import time


def capture_game(game, shim, frame, out, timeout=120, home=None):
    """Runs `game` (argv list) until frame `frame` is captured into `out`. Returns (ok, message)."""
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES=str(frame), GLREPLAY_CAPTURE_OUT=out,
               HOME=home or os.path.dirname(out), SDL_AUDIODRIVER='dummy')
    # stderr goes to a file, not a pipe read only at the end: a program that logs more than a pipe
    # holds (Stellarium: 64 KiB of catalogue warnings at start) would block in write() for ever.
    errf = tempfile.TemporaryFile()
    p = subprocess.Popen(game, env=env, stdout=subprocess.DEVNULL, stderr=errf, start_new_session=True)
    t0 = time.monotonic()
    while not os.path.exists(out) and p.poll() is None and time.monotonic() - t0 < timeout:
        time.sleep(0.2)
    if p.poll() is None:
        os.killpg(p.pid, signal.SIGTERM)
    try:
        p.wait(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.wait()
    errf.seek(0)
    err = errf.read()
    errf.close()
    if not os.path.exists(out):
        return False, 'frame %d of %s was not captured within %.0f s (exit %s): %s' % (
            frame, game[0], timeout, p.returncode, err.decode(errors='replace')[-600:])
    return True, 'captured frame %d of %s in %.0f s' % (frame, game[0], time.monotonic() - t0)
