#!/usr/bin/env python3
"""Debugger benchmark: the live program's frame rate while a DAP client sends 100 requests per
second to its socket, against no client (docs/BENCHMARKS.md, "Debugger: time to a stop").

Runs lit_mesh under the shim (LD_PRELOAD) at --size on the X display, and reads its frame counter
through the shim's line protocol (`status` -> "ok pid P frames N") at the start and end of each
window; the frame rate of a window is frames / seconds. Windows:

  none     no client connected (before the client attaches and after it disconnects)
  quiet    a DAP client attached and stopped at a breakpoint (mesh.frag:27, hit 1), silent
  load     the same client sending 100 requests/s round-robin: threads, stackTrace, evaluate

quiet and load windows alternate (--rounds), so slow drifts of the machine's load hit both.
Prints the frame rate of each series and the frames per CPU second of the program (on a shared
machine the scheduler's share moves the frame rate more than the client does), the ratios
load/none and load/quiet of both, the requests answered, and a JSON line. Timings are never asserted: exit 0 when the program ran, the
client stopped and got its answers."""
import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import dap_bench_client as dap  # noqa: E402


def loadavg():
    try:
        with open('/proc/loadavg') as f:
            return ' '.join(f.read().split()[:3])
    except OSError:
        return '?'


def frames(sock_path):
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(10)
    s.connect(sock_path)
    s.sendall(b'status\n')
    buf = b''
    while not buf.endswith(b'\n'):
        chunk = s.recv(4096)
        if not chunk:
            break
        buf += chunk
    s.close()
    words = buf.decode().split()
    if len(words) < 5 or words[0] != 'ok':
        raise dap.DapError('bad status reply: %r' % buf)
    return int(words[4]), time.monotonic()


def cpu_seconds(pid):
    """user + system CPU time of the whole process (all its threads)."""
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf('SC_CLK_TCK')


def window(sock_path, seconds, pid):
    """(frames per second, frames per CPU second of the program) over one window."""
    f0, t0 = frames(sock_path)
    c0 = cpu_seconds(pid)
    time.sleep(seconds)
    f1, t1 = frames(sock_path)
    c1 = cpu_seconds(pid)
    return (f1 - f0) / (t1 - t0), (f1 - f0) / max(c1 - c0, 1e-3)


class Load:
    """Sends `rate` requests per second on a schedule (never waiting for answers) until stopped."""
    REQUESTS = (('threads', {}), ('stackTrace', {'threadId': 1}),
                ('evaluate', {'expression': 'v_world_pos.x', 'frameId': 1, 'context': 'watch'}))

    def __init__(self, client, rate):
        self.c = client
        self.period = 1.0 / rate
        self.stop_flag = threading.Event()
        self.sent = []   # (seq, time)
        self.th = threading.Thread(target=self.run, daemon=True)

    def run(self):
        i = 0
        nxt = time.monotonic()
        while not self.stop_flag.is_set():
            cmd, args = self.REQUESTS[i % len(self.REQUESTS)]
            seq, t = self.c.send(cmd, args)
            self.sent.append((seq, t))
            i += 1
            nxt += self.period
            d = nxt - time.monotonic()
            if d > 0:
                time.sleep(d)
            else:
                nxt = time.monotonic()

    def start(self):
        self.th.start()

    def stop(self):
        self.stop_flag.set()
        self.th.join()

    def answers(self):
        """The responses to the requests sent (waits for each)."""
        return [self.c.response(seq, check=False) for seq, _ in self.sent]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--shim', required=True)
    ap.add_argument('--sample', required=True, help='the lit_mesh executable')
    ap.add_argument('--shader-dir', required=True, help='samples/shaders/lit_mesh')
    ap.add_argument('--size', default='1280x720')
    ap.add_argument('--window', type=float, default=4.0, help='seconds per window')
    ap.add_argument('--rounds', type=int, default=3, help='quiet/load window pairs')
    ap.add_argument('--rate', type=float, default=100.0, help='requests per second')
    a = ap.parse_args()
    if not os.environ.get('DISPLAY'):
        xr = shutil.which('xvfb-run')
        if not xr:
            print('bench_dap_fps: no DISPLAY and no xvfb-run', file=sys.stderr)
            return 77
        os.execvp(xr, [xr, '-a', '-s', '-screen 0 1920x1080x24', sys.executable] + sys.argv)

    tmp = tempfile.mkdtemp(prefix='glr-dapfps-')
    os.chmod(tmp, 0o700)
    prog = None
    try:
        sock = os.path.join(tmp, 'p.sock')
        # GLREPLAY_LIVE_PAUSE=0: the program keeps running its own frames while the client is
        # attached (by default the shim pauses it at its swap and replays the captured frame), so
        # its frame counter measures what the client's requests cost the program.
        env = dict(os.environ, LD_PRELOAD=a.shim, GLREPLAY_SOCKET=sock, GLREPLAY_LIVE_PAUSE='0')
        prog = subprocess.Popen([a.sample, '--size', a.size, '--frames', '100000000'], env=env,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 30
        while not os.path.exists(sock):
            if prog.poll() is not None or time.monotonic() > deadline:
                raise dap.DapError('the program did not open its socket')
            time.sleep(0.05)
        time.sleep(1.0)   # warm up
        res = {'none': [], 'quiet': [], 'load': []}
        res['none'].append(window(sock, a.window, prog.pid))

        mesh = os.path.join(a.shader_dir, 'mesh.frag')
        c = dap.connect(sock)
        t0 = time.monotonic()
        t = dap.start_session(c, {mesh: [{'line': 27, 'hitCondition': '1'}]})
        c.wait_event('stopped', after=t)
        attach_ms = (time.monotonic() - t0) * 1e3
        c.request('threads')
        time.sleep(1.0)   # the runner prepares the next pass's run in the background: let it settle
        answered = failed = 0
        for _ in range(a.rounds):
            res['quiet'].append(window(sock, a.window, prog.pid))
            load = Load(c, a.rate)
            load.start()
            res['load'].append(window(sock, a.window, prog.pid))
            load.stop()
            for msg in load.answers():
                answered += 1
                failed += 0 if msg.get('success') else 1
        c.close()
        time.sleep(0.5)
        res['none'].append(window(sock, a.window, prog.pid))
        if prog.poll() is not None:
            raise dap.DapError('the program ended during the benchmark')

        fps = {k: statistics.mean(v[0] for v in res[k]) for k in res}
        per_cpu = {k: statistics.mean(v[1] for v in res[k]) for k in res}
        print('lit_mesh %s under the shim, frame rate per %.1f s window, load average %s' % (a.size, a.window, loadavg()))
        for k in ('none', 'quiet', 'load'):
            print('%-6s %s fps (mean %.1f); frames per CPU second of the program %.1f' %
                  (k, ' '.join('%.1f' % v[0] for v in res[k]), fps[k], per_cpu[k]))
        print('fps load/none %.3f  load/quiet %.3f; per CPU second load/none %.3f  load/quiet %.3f' %
              (fps['load'] / fps['none'], fps['load'] / fps['quiet'], per_cpu['load'] / per_cpu['none'],
               per_cpu['load'] / per_cpu['quiet']))
        print('requests answered %d (%d failed), attach to stopped %.0f ms' % (answered, failed, attach_ms))
        print(json.dumps({'size': a.size, 'loadavg': loadavg(),
                          'fps': {k: round(v, 2) for k, v in fps.items()},
                          'frames_per_cpu_s': {k: round(v, 2) for k, v in per_cpu.items()},
                          'ratio_load_none': round(fps['load'] / fps['none'], 3),
                          'ratio_load_quiet': round(fps['load'] / fps['quiet'], 3),
                          'cpu_ratio_load_none': round(per_cpu['load'] / per_cpu['none'], 3),
                          'cpu_ratio_load_quiet': round(per_cpu['load'] / per_cpu['quiet'], 3),
                          'requests': answered, 'failed': failed, 'attach_ms': round(attach_ms)}))
        if failed == answered:
            raise dap.DapError('no request was answered successfully')
        return 0
    except (dap.DapError, OSError) as e:
        print('bench_dap_fps: FAIL: %s' % e, file=sys.stderr)
        return 1
    finally:
        if prog and prog.poll() is None:
            prog.send_signal(signal.SIGTERM)
            try:
                prog.wait(10)
            except subprocess.TimeoutExpired:
                prog.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
