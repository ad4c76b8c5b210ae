#!/usr/bin/env python3
"""A long capture (200 frames of 60,003 calls: ~215 MiB of raw command stream) keeps the program's
memory bounded: the recording thread hands its full stream blocks to the writer thread, which
compresses them into the file while the program records (shim/capture_async.c). Checked:
  - the capture is written although GLREPLAY_CAPTURE_MAX_MB (96) is below its raw stream: only the
    stream still held in memory counts against it (before streaming it was dropped);
  - the recording run's peak resident memory exceeds the shim-idle run's by less than 128 MiB (the
    writer queue's bound, 64 MiB, plus buffers and zstd), and by less than half the raw stream;
  - `glreplay replay --verify` replays all 200 frames and they match their references;
  - a second thread that records in the middle of a capture (40 frames, its context made at frame
    20, after ~24 MiB of stream went to the writer) ends the hand-over: the blocks already written
    and the merge of both threads' rest make one stream in call order, and all 40 frames verify;
  - records larger than the recorder moves (100,000-byte uploads, padded tags), streamed and
    merged, verify with their read-backs.
usage: check_long_capture.py RECORD_COST SHIM GLREPLAY_CLI"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, cli = sys.argv[1:4]
FRAMES, CALLS = 200, 60000
env = dict(os.environ, EGL_PLATFORM='surfaceless', LD_PRELOAD=shim)
env.pop('DISPLAY', None)
for k in list(env):
    if k.startswith('GLREPLAY_'):
        del env[k]


def peak_rss_kib(extra):
    """Runs the program under the shim and returns its peak RSS (KiB) and stderr."""
    pid = os.fork()
    if pid == 0:
        fd = os.open(os.devnull, os.O_WRONLY)
        os.dup2(fd, 1)
        errf = os.open(os.path.join(tmp, 'stderr.txt'), os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.dup2(errf, 2)
        os.execve(prog, [prog, '--frames', str(FRAMES), '--calls', str(CALLS)], dict(env, **extra))
    _, status, ru = os.wait4(pid, 0)
    with open(os.path.join(tmp, 'stderr.txt')) as f:
        err = f.read()
    if not os.WIFEXITED(status) or os.WEXITSTATUS(status) != 0:
        sys.exit('record_cost failed (status %d): %s' % (status, err[-600:]))
    return ru.ru_maxrss, err


with tempfile.TemporaryDirectory() as tmp:
    out = os.path.join(tmp, 'long.glcap')
    idle, _ = peak_rss_kib({})
    rec, err = peak_rss_kib({'GLREPLAY_CAPTURE_FRAMES': '0-%d' % (FRAMES - 1), 'GLREPLAY_CAPTURE_OUT': out,
                             'GLREPLAY_CAPTURE_MAX_MB': '96', 'GLREPLAY_LOG': 'info'})
    if not os.path.exists(out) or 'capture: wrote' not in err:
        sys.exit('the long capture was not written: %s' % err[-800:])
    info = subprocess.run([cli, 'info', out], capture_output=True, text=True)
    # Since format 1.1 the stream is packed before zstd: its raw size is what it unpacks to.
    m = re.search(r'COMMAND_STREAM\s+id 0\s+(\d+) bytes stored \(zstd(-packed)?\),\s+(\d+) uncompressed'
                  r'(, (\d+) unpacked)?', info.stdout)
    if info.returncode != 0 or not m or (m.group(2) and not m.group(5)):
        sys.exit('glreplay info failed: %s %s' % (info.stdout[-600:], info.stderr[-300:]))
    raw_kib = int(m.group(5) or m.group(3)) // 1024
    grown = rec - idle
    print('peak RSS: shim idle %d KiB, recording %d KiB (+%d KiB); raw command stream %d KiB, stored %d KiB'
          % (idle, rec, grown, raw_kib, int(m.group(1)) // 1024))
    if raw_kib < 150 * 1024:
        sys.exit('the raw stream (%d KiB) is too small for this test to mean anything' % raw_kib)
    if grown >= 128 * 1024 or grown * 2 >= raw_kib:
        sys.exit('recording grew the peak RSS by %d KiB: the stream is not bounded in memory' % grown)
    rep = subprocess.run([cli, 'replay', out, '--verify'], env=dict(env, LD_PRELOAD=''), capture_output=True,
                         text=True)
    last = rep.stdout.strip().splitlines()[-1:] or ['']
    if rep.returncode != 0 or not re.search(r'verify: PASS: %d frame images checked, 0 differ' % FRAMES, rep.stdout):
        sys.exit('replay --verify of the long capture failed: %s %s' % (rep.stdout[-600:], rep.stderr[-400:]))
    print(last[0])

    two = os.path.join(tmp, 'two.glcap')
    p = subprocess.run([prog, '--frames', '40', '--calls', str(CALLS), '--second-thread', '20'],
                       env=dict(env, GLREPLAY_CAPTURE_FRAMES='0-39', GLREPLAY_CAPTURE_OUT=two),
                       capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(two):
        sys.exit('the capture with a second thread failed: %s' % p.stderr[-600:])
    info = subprocess.run([cli, 'info', two], capture_output=True, text=True)
    if 'threads: 2' not in info.stdout or 'frames: 0-39 (40 swaps)' not in info.stdout:
        sys.exit('the capture with a second thread is not two threads over 40 frames: %s' % info.stdout[:600])
    rep = subprocess.run([cli, 'replay', two, '--verify'], env=dict(env, LD_PRELOAD=''), capture_output=True,
                         text=True)
    if rep.returncode != 0 or 'verify: PASS: 40 frame images checked, 0 differ' not in rep.stdout:
        sys.exit('replay --verify of the capture with a second thread failed: %s %s'
                 % (rep.stdout[-600:], rep.stderr[-400:]))
    print('second thread mid-capture: ' + rep.stdout.strip().splitlines()[-1])

    # Records over the recorder's 64 KiB move limit keep a padded 5-byte tag (shim/recorder.c): a
    # 100,000-byte upload each frame, read back in part, in streamed blocks and (after the second
    # thread's own upload at frame 6) in the merge of both threads' streams.
    up = os.path.join(tmp, 'upload.glcap')
    p = subprocess.run([prog, '--frames', '12', '--calls', str(CALLS), '--upload', '100000', '--second-thread', '6'],
                       env=dict(env, GLREPLAY_CAPTURE_FRAMES='0-11', GLREPLAY_CAPTURE_OUT=up),
                       capture_output=True, text=True)
    if p.returncode != 0 or not os.path.exists(up):
        sys.exit('the capture with large uploads failed: %s' % p.stderr[-600:])
    rep = subprocess.run([cli, 'replay', up, '--verify'], env=dict(env, LD_PRELOAD=''), capture_output=True,
                         text=True)
    if (rep.returncode != 0 or 'verify: PASS: 12 frame images checked, 0 differ' not in rep.stdout
            or 'verify: read-backs: 13 checked, 0 differ' not in rep.stdout):
        sys.exit('replay --verify of the capture with large uploads failed: %s %s'
                 % (rep.stdout[-600:], rep.stderr[-400:]))
    print('large uploads: ' + rep.stdout.strip().splitlines()[-1])
