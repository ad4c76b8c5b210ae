#!/usr/bin/env python3
"""Issue 14's live-attach acceptance on a real program: one running glxgears (mesa-utils, GLX) or
samples/gles3_egl (--sample: EGL on an X window) under the shim, attached to CYCLES times over its
socket, each session ending a way chosen at random (seeded):

  disconnect  initialize, attach, configurationDone, a few requests, `disconnect` at a random moment
  terminate   the same, then `terminate` (a `terminated` event) and the client closes its socket
  kill9       a client process (python) is killed with SIGKILL at a random moment after its
              session was answered (the capture, the first replayed pass, its requests)
  sigstop     a client process is stopped with SIGSTOP at a random moment, then killed with SIGKILL
              a random while later (the program stays paused meanwhile)
  early       (only with --kinds) the client hangs up 0-80 ms after its `initialize` was answered:
              inside the first replayed pass's set-up most of the time, the slowest driver calls

The program's first replayed pass starts at once (GLREPLAY_LIVE_FIRST_PASS_MS=0), so the random
endings fall inside it often: the worst case for resuming. For every session:
  * it was answered: the initialize response (success) and the `initialized` event arrived;
  * the program resumed within one frame period of the session's end: from the client's end (its
    disconnect/terminate answered, or the SIGKILL) until the paused render thread went back to the
    program (the shim logs that moment on the monotonic clock at GLREPLAY_LOG=info: "the program
    resumes at T s"), at most one frame period: the program's own, measured before the first attach
    (its frames per second from `status`), or 16.7 ms (60 Hz) when it runs faster than that
    (unthrottled glxgears draws a frame in under a millisecond: no attainable bar, nor a frame a
    user sees), plus twice the scheduler's lateness measured meanwhile (a thread of this test sleeps
    1 ms at a time and records how late it wakes: on a loaded machine every thread wakes late, and
    the resume takes two wake-ups, the shim's watcher and the program's render thread); and its
    frame counter moves again;
  * afterwards no extra thread (/proc/PID/task), descriptor (/proc/PID/fd) or file in the socket
    directory is left, against what is there after the first session. The program runs with the
    socket server's default idle timeout (30 s), so a connection kept open (by the server, or by
    one of this test's own clients: see dap_bench_client.hang_up) is caught within the 5 s the
    check waits instead of being closed by a shorter timer first.
At the end, the program's frames drawn after the first session (dumped by frametime.so, which also
gives glxgears a clock that advances a fixed step per swap) are byte-identical to the same frames of
a run without glreplay.

usage: live_acceptance.py --shim LIB --frametime SO (--glxgears PATH | --sample PATH) [--cycles N] [--seed S]
DISPLAY must be set (xvfb-run). Prints one line per cycle and a summary with the figures."""
import argparse
import json
import os
import random
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))
import dap_bench_client as dap  # noqa: E402

FRAME_60HZ = 1 / 60.0
SIZE = 96                 # glxgears window (-geometry): small, so frames are quick
DUMP_EVERY = 250          # frametime dumps every 250th frame (at most 64 of them)
KINDS = ['disconnect', 'terminate', 'kill9', 'sigstop']
ALL_KINDS = KINDS + ['early']


class Fail(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise Fail(msg)


def status(sock_path):
    """(frames, paused) from the program's line server."""
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(20)
    s.connect(sock_path)
    s.sendall(b'status\n')
    data = b''
    while b'\n' not in data:
        d = s.recv(4096)
        if not d:
            break
        data += d
    s.close()
    words = data.decode().split()
    check(len(words) >= 5 and words[0] == 'ok' and words[3] == 'frames', 'status reply: %r' % data)
    return int(words[4]), (int(words[6]) if len(words) >= 7 and words[5] == 'paused' else -1)


def frame_moves_after(sock_path, t_end, timeout=10.0):
    """Seconds from t_end (time.monotonic()) until the program's frame counter first moves, polled
    every millisecond from now on (a round trip on the socket each: an upper bound)."""
    f0, _ = status(sock_path)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        f, _ = status(sock_path)
        if f > f0:
            return time.monotonic() - t_end
        time.sleep(0.001)
    raise Fail('the program swaps no frame within %.0f s of the session end' % timeout)


def resume_times(log_path):
    """The monotonic times the shim says the paused program resumed, in order."""
    out = []
    with open(log_path) as f:
        for line in f:
            if 'replay loop: the program resumes at ' in line:
                words = line.split('resumes at ')[1].split()
                inner = float(words[4]) / 1000 if len(words) > 4 and words[5:6] == ['ms'] else 0.0
                out.append((float(words[0]), inner))
    return out


def resumed_at(log_path, k, timeout=15.0):
    """The k-th resume (0-based): its time, and how long after the session's end reached the shim's
    replay loop (the render thread's own part), waiting for the line to be written."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        times = resume_times(log_path)
        if len(times) > k:
            return times[k]
        time.sleep(0.01)
    raise Fail('the shim logged no resume of the paused program (%d so far)' % len(resume_times(log_path)))


SAMPLER = r"""
import sys, time
while True:
    t0 = time.monotonic()
    time.sleep(0.001)
    t1 = time.monotonic()
    if t1 - t0 > 0.0015:
        sys.stdout.write("%.6f %.6f\n" % (t1, t1 - t0 - 0.001))
        sys.stdout.flush()
"""


class Lateness:
    """A process of its own (no lock shared with this one) that sleeps 1 ms at a time and reports
    each wake-up later than 0.5 ms: (wake time, how late)."""
    def __init__(self):
        self.samples = []
        self.p = subprocess.Popen([sys.executable, '-c', SAMPLER], stdout=subprocess.PIPE, text=True)
        self.t = threading.Thread(target=self.read, daemon=True)
        self.t.start()

    def read(self):
        for line in self.p.stdout:
            t, late = line.split()
            self.samples.append((float(t), float(late)))

    def worst(self, start, end):
        time.sleep(0.01)   # its report of that moment may still be on the way
        return max([late for t, late in list(self.samples) if start <= t <= end] or [0.0])

    def close(self):
        self.p.kill()
        self.p.wait()


def resources(pid, sock_dir):
    return (len(os.listdir('/proc/%d/task' % pid)), len(os.listdir('/proc/%d/fd' % pid)),
            ' '.join(sorted(os.listdir(sock_dir))))


def settled(pid, sock_dir, base, what):
    now = None
    for _ in range(200):
        now = resources(pid, sock_dir)
        if now[0] <= base[0] and now[1] <= base[1] and now[2] == base[2]:
            return now
        time.sleep(0.025)
    links = []
    for fd in sorted(os.listdir('/proc/%d/fd' % pid), key=int):
        try:
            links.append('%s->%s' % (fd, os.readlink('/proc/%d/fd/%s' % (pid, fd))))
        except OSError:
            pass
    # Who holds the other end of a socket left open (the kernel's table of Unix sockets).
    peers = ''
    if shutil.which('ss'):
        inodes = [l.split('socket:[')[1].rstrip(']') for l in links if 'socket:[' in l]
        table = subprocess.run(['ss', '-xpn'], capture_output=True, text=True).stdout.splitlines()
        peers = '\n'.join(l for l in table if any(i in l for i in inodes))
    raise Fail('%s: left behind: threads, fds, files %r (after the first session: %r); fds now: %s\n%s'
               % (what, now, base, ' '.join(links), peers))


def answered(c):
    """initialize, attach, configurationDone; checks the answer (response and `initialized`)."""
    r = c.request('initialize', {'clientID': 'live-acceptance', 'adapterID': 'glreplay', 'linesStartAt1': True,
                                 'columnsStartAt1': True, 'pathFormat': 'path'})
    check(r.get('success'), 'initialize answered with success')
    aseq, _ = c.send('attach', {})
    c.wait_event('initialized', timeout=30)
    c.request('configurationDone', {})
    c.response(aseq)


# A client process for the endings by signal: it prints "answered" once initialize and
# `initialized` arrived, then keeps asking (threads, loadedSources) until it is stopped or killed.
CHILD = r'''
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
seq = 0
def send(cmd, args=None):
    global seq
    seq += 1
    b = json.dumps({"seq": seq, "type": "request", "command": cmd, "arguments": args or {}}).encode()
    s.sendall(b"Content-Length: %d\r\n\r\n" % len(b) + b)
send("initialize", {"adapterID": "glreplay"})
buf = b""
while not (b'"command": "initialize"' in buf or b'"command":"initialize"' in buf) or b'"initialized"' not in buf:
    if b'"initialize"' in buf and b'"success":false' in buf.replace(b" ", b""):
        sys.exit(3)
    d = s.recv(65536)
    if not d:
        sys.exit(2)
    buf += d
print("answered", flush=True)
send("attach"); send("configurationDone")
s.setblocking(False)
while True:
    send("threads"); send("loadedSources")
    try:
        while s.recv(65536):
            pass
    except BlockingIOError:
        pass
    time.sleep(0.05)
'''


def session(kind, sock_path, rng):
    """Runs one session; returns (t_end: time.monotonic() of the session's end, dying: how long a
    killed client took to be gone after the signal (its exit closes its socket: the program cannot
    see the end earlier), note)."""
    if kind == 'early':
        c = dap.connect(sock_path, timeout=60)
        try:
            r = c.request('initialize', {'clientID': 'live-acceptance', 'adapterID': 'glreplay'})
            check(r.get('success'), 'initialize answered with success')
            wait = rng.uniform(0, 0.08)
            time.sleep(wait)
        finally:
            t_end = time.monotonic()   # the hang-up starts now
            c.hang_up()
        return t_end, 0.0, 'hung up %d ms after the answer' % (wait * 1000)
    if kind in ('disconnect', 'terminate'):
        c = dap.connect(sock_path, timeout=60)
        try:
            answered(c)
            wait = rng.uniform(0, 1.0)
            time.sleep(wait)
            c.request('threads', {})
            if kind == 'disconnect':
                c.request('disconnect', {})
            else:
                seq, _ = c.send('terminate', {})
                c.wait_event('terminated', timeout=30)
                c.response(seq, check=False)
            t_end = time.monotonic()
        finally:
            c.hang_up()
        return t_end, 0.0, '%s after %d ms' % (kind, wait * 1000)
    child = subprocess.Popen([sys.executable, '-c', CHILD, sock_path], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
    try:
        line = child.stdout.readline()
        check(line.strip() == 'answered', 'the %s client\'s session was not answered (exit %s): %s'
              % (kind, child.poll(), child.stderr.read() if child.poll() is not None else ''))
        at = rng.uniform(0, 1.5)
        time.sleep(at)
        if kind == 'kill9':
            child.kill()
            t_end = time.monotonic()
            note = 'killed %d ms after the answer' % (at * 1000)
        else:
            child.send_signal(signal.SIGSTOP)
            held = rng.uniform(0, 1.0)
            time.sleep(held)
            child.kill()
            t_end = time.monotonic()
            note = 'stopped %d ms after the answer, killed %d ms later' % (at * 1000, held * 1000)
        check(child.wait(10) == -signal.SIGKILL, 'the client was killed, not gone by itself')
        return t_end, time.monotonic() - t_end, note
    finally:
        if child.poll() is None:
            child.kill()
            child.wait()


def display_and_seed(name, seed):
    """(seed, its random.Random), or None (a SKIP line printed) without an X display. A seed of
    None is taken from the clock (printed with the results, so a failure can be rerun)."""
    if not os.environ.get('DISPLAY'):
        print('%s: SKIP: no DISPLAY' % name)
        return None
    seed = seed if seed is not None else int(time.time()) % 100000
    return seed, random.Random(seed)


def frame_period(sock_path):
    f0, _ = status(sock_path)
    t0 = time.monotonic()
    time.sleep(1.0)
    f1, _ = status(sock_path)
    check(f1 > f0, 'the program swaps frames before the first attach')
    return (time.monotonic() - t0) / (f1 - f0)


def dumps_after(dump_dir, after):
    out = []
    for name in os.listdir(dump_dir):
        if name.startswith('frame_') and name.endswith('.pam'):
            k = int(name[6:-4])
            if k > after:
                out.append(k)
    return sorted(out)


def program_argv(a, frames, dump_dir):
    """The program's command line: glxgears, or a sample (samples/) running "for ever". A sample
    dumps `frames` itself (--dump-frames: its own frame index, which depends on nothing else);
    glxgears gets frametime.so for that (program_env)."""
    if a.sample:
        return [a.sample, '--frames', '100000000', '--size', '%dx%d' % (SIZE, SIZE),
                '--dump-frames', ','.join(map(str, frames)), '--dump-dir', dump_dir]
    return [a.glxgears, '-geometry', '%dx%d' % (SIZE, SIZE)]


def program_env(a, frames, dump_dir, shim):
    """glxgears: frametime first (the program's swaps go through it: its clock and frame count;
    the replay loop's swaps, the shim's real functions resolved after the shim, do not). A sample
    (GLFW: it dlopens the GL libraries, which frametime would take from the shim) runs under the
    shim alone, or nothing for the reference run."""
    if a.sample:
        env = dict(os.environ)
        env.pop('LD_PRELOAD', None)
        if shim:
            env['LD_PRELOAD'] = a.shim
        return env
    return dict(os.environ, LD_PRELOAD='%s %s' % (a.frametime, a.shim) if shim else a.frametime,
                FRAMETIME_DUMP_FRAMES=','.join(map(str, frames)), FRAMETIME_DUMP_DIR=dump_dir)


def reference(a, frames, tmp):
    """The same frames drawn by the program without glreplay (frametime only)."""
    ref = os.path.join(tmp, 'ref')
    os.mkdir(ref)
    p = subprocess.Popen(program_argv(a, frames, ref), env=program_env(a, frames, ref, False),
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    last = os.path.join(ref, 'frame_%04d.pam' % frames[-1])
    try:
        deadline = time.monotonic() + 300
        while not os.path.exists(last) and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.3)   # the dump is written before the swap: let it finish
    finally:
        p.kill()
        p.wait()
    check(os.path.exists(last), 'the run without glreplay dumped no frame %d' % frames[-1])
    return ref


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shim', required=True)
    ap.add_argument('--frametime', required=True)
    prog = ap.add_mutually_exclusive_group(required=True)
    prog.add_argument('--glxgears', help='glxgears (GLX)')
    prog.add_argument('--sample', help='a sample program of samples/ (gles3_egl: EGL)')
    ap.add_argument('--cycles', type=int, default=8)
    ap.add_argument('--seed', type=int, default=None)
    ap.add_argument('--kinds', default=','.join(KINDS), help='the endings to choose from (%s)' % ', '.join(ALL_KINDS))
    a = ap.parse_args()
    kinds = a.kinds.split(',')
    if not kinds or any(k not in ALL_KINDS for k in kinds):
        ap.error('--kinds: a comma-separated list of %s' % ', '.join(ALL_KINDS))
    seeded = display_and_seed('live_acceptance', a.seed)
    if not seeded:
        return 77
    seed, rng = seeded
    tmp = tempfile.mkdtemp(prefix='glr-live-acc-')
    sock_dir = os.path.join(tmp, 's')
    os.mkdir(sock_dir, 0o700)
    sock_path = os.path.join(sock_dir, 'live.sock')
    dump_dir = os.path.join(tmp, 'dumps')
    os.mkdir(dump_dir)
    dumps = [DUMP_EVERY * (k + 1) for k in range(64)]
    env = dict(program_env(a, dumps, dump_dir, True), GLREPLAY_SOCKET=sock_path, GLREPLAY_LOG='info',
               GLREPLAY_LIVE_FIRST_PASS_MS='0', GLREPLAY_LIVE_IDLE_S='5')
    log_path = os.path.join(tmp, 'program.log')
    log = open(log_path, 'w')
    env.pop('GLREPLAY_IPC_IDLE_S', None)   # the server's own default: no shorter timer hides a leak
    app = subprocess.Popen(program_argv(a, dumps, dump_dir), env=env, stdout=log, stderr=subprocess.STDOUT)
    t_start = time.monotonic()
    figures = {k: [] for k in kinds}
    lateness = Lateness()
    try:
        for _ in range(300):
            if os.path.exists(sock_path):
                break
            time.sleep(0.05)
        check(os.path.exists(sock_path), 'the program did not open the shim\'s socket')
        own_period = frame_period(sock_path)
        period = max(own_period, FRAME_60HZ)
        base = None
        first_frame_after = None
        worst = 0.0
        for i in range(a.cycles):
            kind = rng.choice(kinds)
            t0 = time.monotonic()
            try:
                t_end, dying, note = session(kind, sock_path, rng)
                next_frame = frame_moves_after(sock_path, t_end)
                log.flush()
                at, inner = resumed_at(log_path, i)
                resumed = at - t_end
            except (Fail, dap.DapError, OSError) as e:
                raise Fail('cycle %d (%s): %s' % (i, kind, e))
            if base is None:
                time.sleep(0.3)
                base = resources(app.pid, sock_dir)
                check(base[2] == 'live.sock', 'files in the socket directory after the first session: %s' % base[2])
                first_frame_after = status(sock_path)[0]
                now = base
            else:
                now = settled(app.pid, sock_dir, base, 'cycle %d (%s)' % (i, kind))
            figures[kind].append(resumed * 1000)
            worst = max(worst, resumed)
            late = lateness.worst(t_end, t_end + max(resumed, 0) + 0.002)
            allowed = period + 2 * late + dying
            print('cycle %d: %s (%s): %.0f ms; the program resumed %.1f ms after the end (%.1f after the end reached '
                  'the replay loop; allowed %.1f: a frame %.1f + 2 x scheduler lateness %.1f + the killed client\'s '
                  'exit %.1f), its frame counter moved within %.1f ms; threads %d, fds %d'
                  % (i, kind, note, (time.monotonic() - t0) * 1000, resumed * 1000, inner * 1000, allowed * 1000,
                     period * 1000, late * 1000, dying * 1000, next_frame * 1000, now[0], now[1]), flush=True)
            check(resumed <= allowed, 'cycle %d (%s): the program resumed %.1f ms after the session\'s end: more '
                  'than one frame period (%.1f ms) plus twice the scheduler\'s lateness meanwhile (%.1f ms) plus the '
                  'killed client\'s exit (%.1f ms)' % (i, kind, resumed * 1000, period * 1000, late * 1000,
                                                       dying * 1000))
        check(app.poll() is None, 'the program exited')
        frames_now = status(sock_path)[0]
        done = [k for k in dumps_after(dump_dir, first_frame_after) if k < frames_now - 1]
        check(done, 'no frame dumped after the first session (frames %d..%d)' % (first_frame_after, frames_now))
        pick = sorted({done[0], done[-1]})
        ref = reference(a, pick, tmp)
        for k in pick:
            name = 'frame_%04d.pam' % k
            with open(os.path.join(dump_dir, name), 'rb') as f:
                mine = f.read()
            with open(os.path.join(ref, name), 'rb') as f:
                theirs = f.read()
            check(len(mine) > SIZE * SIZE * 4, '%s is a whole dump' % name)
            check(mine == theirs, 'frame %d of the program differs from the same frame drawn without glreplay' % k)
        log.flush()
        with open(log_path) as f:
            text = f.read()
        check('did not resume' not in text, 'the shim says a paused program did not resume')
        spread = ', '.join('%s %d: %s ms' % (k, len(v), '%.1f..%.1f (median %.1f)' % (min(v), max(v), statistics.median(v))
                                            if v else '-') for k, v in figures.items())
        # Sessions that ended while a fresh pass was being set up (on its own thread): the case
        # the resume bound is hardest for.
        in_setup = text.count('the set-up finishes on a thread of its own')
        print('live_acceptance: %d sessions on one %s (seed %d), its frame period %.2f ms (bar %.1f ms); '
              'resumed after the session\'s end: %s; worst %.1f ms; %d ended during a pass\'s set-up; frames %s '
              'byte-identical to a run without glreplay; %.0f s: all checks passed'
              % (a.cycles, os.path.basename(a.sample or a.glxgears), seed, own_period * 1000, period * 1000, spread,
                 worst * 1000, in_setup, ', '.join(map(str, pick)), time.monotonic() - t_start))
        return 0
    except Fail as e:
        if os.environ.get('LIVE_ACCEPTANCE_GDB') and app.poll() is None and shutil.which('gdb'):
            # Where the program's threads are (a session that does not let go, a pass that hangs).
            g = subprocess.run(['gdb', '-p', str(app.pid), '-batch', '-ex', 'thread apply all bt 12'],
                               capture_output=True, text=True, timeout=120)
            print(g.stdout[-12000:])
        log.flush()
        with open(log_path) as f:
            tail = f.read()[-3000:]
        print('live_acceptance: FAIL (seed %d): %s\n--- the program\'s log (end) ---\n%s' % (seed, e, tail))
        return 1
    finally:
        lateness.close()
        if app.poll() is None:
            app.terminate()
            try:
                app.wait(10)
            except subprocess.TimeoutExpired:
                app.kill()
                app.wait()
        log.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
