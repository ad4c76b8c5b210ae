#!/usr/bin/env python3
"""Programs loaded with glProgramBinary (tests/capture/program_binary.c, as Qt 5 programs do from
their second run on):
 - under the shim without GLREPLAY_NO_PROGRAM_BINARY the program loads its binaries exactly as
   natively, and a captured frame (which creates a program from a binary in the frame) replays with
   `replay --verify` passing on the same driver; with the program sources cache off
   (GLREPLAY_PROGRAM_CACHE=0) `model` reports the program as loaded with glProgramBinary (no
   sources), with it on (a directory) the binary the program read back was kept with its sources
   (a 0600 file in a 0700 directory), the program loaded from it has them and `model --compare`
   passes; a corrupted cache file is ignored (no sources, no crash, the same output);
 - with GLREPLAY_NO_PROGRAM_BINARY=1 the program is offered no binary format, every glProgramBinary
   fails with GL_LINK_STATUS false and no GL error, the program compiles from source, draws the same
   pixels, and its captured frame passes both `replay --verify` and `model --compare` (the model has
   the sources).
Usage: PROG SHIM GLREPLAY"""
import os
import re
import subprocess
import sys
import tempfile

prog, shim, glreplay = sys.argv[1:4]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)
env.pop('GLREPLAY_NO_PROGRAM_BINARY', None)
env['GLREPLAY_PROGRAM_CACHE'] = '0'   # each part below says where the cache is
native = subprocess.run([prog, '4'], env=env, capture_output=True, text=True)
if native.returncode != 0:
    sys.exit('native run failed: %s' % native.stderr)
if 'program_binary: 4 of 4 programs loaded from a binary' not in native.stderr:
    sys.exit('the driver offers no program binaries: nothing to test (%s)' % native.stderr)


def verify(out):
    rep = subprocess.run([glreplay, 'replay', out, '--verify'], env=env, capture_output=True, text=True)
    print(rep.stdout[-2000:], rep.stderr[-2000:])
    m = re.search(r'verify: PASS: (\d+) frame images? checked, 0 differ, 0 unmatched', rep.stdout)
    if rep.returncode != 0 or not m or int(m.group(1)) != 2:
        sys.exit('replay --verify of %s failed (exit %d)' % (out, rep.returncode))


with tempfile.TemporaryDirectory() as d:
    # Binaries loaded under the shim: the program behaves as natively, the frame replays.
    out = os.path.join(d, 'bin.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='1-2',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout or run.stderr != native.stderr:
        sys.exit('run under the shim differs: %r %r vs %r %r' % (run.stdout, run.stderr, native.stdout, native.stderr))
    verify(out)
    # Without sources the model says why (and --compare fails, as it must).
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    if mod.returncode != 1 or 'loaded with glProgramBinary' not in mod.stdout + mod.stderr:
        sys.exit('model on a program loaded from a binary: exit %d, no clear report\n%s%s'
                 % (mod.returncode, mod.stdout[-2000:], mod.stderr[-1000:]))
    # The program sources cache: the binaries read back keep their sources, the programs loaded
    # from them get them back, the model runs them.
    cache = os.path.join(d, 'cache', 'programs')
    out = os.path.join(d, 'cached.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_PROGRAM_CACHE=cache,
                                               GLREPLAY_CAPTURE_FRAMES='1-2', GLREPLAY_CAPTURE_OUT=out),
                         capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout or run.stderr != native.stderr:
        sys.exit('run with the program cache differs: %r %r' % (run.stdout, run.stderr))
    files = sorted(os.listdir(cache)) if os.path.isdir(cache) else []
    if not files or not all(f.endswith('.glps') for f in files):
        sys.exit('the program cache kept nothing: %r' % files)
    if os.stat(cache).st_mode & 0o777 != 0o700 or any(
            os.stat(os.path.join(cache, f)).st_mode & 0o777 != 0o600 for f in files):
        sys.exit('program cache permissions are not 0700/0600')
    verify(out)
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    print(mod.stdout[-1500:], mod.stderr[-1000:])
    if mod.returncode != 0 or not re.search(r'compare: PASS', mod.stdout):
        sys.exit('model --compare with the program cache failed (exit %d)' % mod.returncode)
    # Corrupted entries: ignored with a warning, the program runs as natively, no sources.
    for f in files:
        with open(os.path.join(cache, f), 'r+b') as fh:
            fh.seek(6)
            fh.write(b'\xff\xff\xff\xff')
    out = os.path.join(d, 'corrupt.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_PROGRAM_CACHE=cache,
                                               GLREPLAY_LOG='warn', GLREPLAY_CAPTURE_FRAMES='1-2',
                                               GLREPLAY_CAPTURE_OUT=out), capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run with a corrupted program cache differs: %r %r' % (run.stdout, run.stderr))
    if 'program cache' not in run.stderr:
        sys.exit('a corrupted program cache entry was not reported: %r' % run.stderr)
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    if mod.returncode != 1 or 'loaded with glProgramBinary' not in mod.stdout + mod.stderr:
        sys.exit('model after a corrupted cache entry: exit %d\n%s' % (mod.returncode, mod.stdout[-1500:]))
    # The opt-in: compiled from source, same pixels, sources in the capture for the model.
    out = os.path.join(d, 'src.glcap')
    run = subprocess.run([prog, '4'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_NO_PROGRAM_BINARY='1',
                                               GLREPLAY_CAPTURE_FRAMES='1-2', GLREPLAY_CAPTURE_OUT=out),
                         capture_output=True, text=True)
    if run.returncode != 0 or run.stdout != native.stdout:
        sys.exit('run with GLREPLAY_NO_PROGRAM_BINARY differs: %r vs %r\n%s' % (run.stdout, native.stdout, run.stderr))
    if 'program_binary: 0 of 4 programs loaded from a binary' not in run.stderr:
        sys.exit('GLREPLAY_NO_PROGRAM_BINARY=1 did not make the program compile from source: %s' % run.stderr)
    verify(out)
    mod = subprocess.run([glreplay, 'model', out, '--compare', '--no-timing'], env=env, capture_output=True,
                         text=True)
    print(mod.stdout[-3000:], mod.stderr[-2000:])
    if mod.returncode != 0 or not re.search(r'compare: PASS', mod.stdout):
        sys.exit('model --compare with GLREPLAY_NO_PROGRAM_BINARY failed (exit %d)' % mod.returncode)
print('ok')
