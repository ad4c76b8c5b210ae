#!/usr/bin/env python3
"""A real Qt 5 program whose GL programs come from binaries: Debian's qmlscene (Qt Quick's scene
graph caches every linked program with glGetProgramBinary in $XDG_CACHE_HOME/qtshadercache-* and
loads it with glProgramBinary from the second run on).
 - run 1 under glreplay: Qt compiles and caches its programs; glreplay's program sources cache keeps
   their sources by binary hash;
 - run 2, a mid-run frame (frame 30): every program comes from Qt's binary cache before the capture,
   so the snapshot holds them; `replay --verify` passes and `model --compare` passes (the model has
   the sources);
 - run 3, captured from the first frame: the binaries are loaded inside the captured frame; the
   capture's SHADER_SOURCES section gives the model their sources: both pass again;
 - run 4 with GLREPLAY_PROGRAM_CACHE=0: `replay --verify` still passes (the snapshot reloads the
   binaries), the model says the programs have no sources and `--compare` fails.
Usage: GLREPLAY QML_FILE (DISPLAY must be set; skipped when qmlscene is missing)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

glreplay, qml = sys.argv[1:3]
qmlscene = shutil.which('qmlscene') or '/usr/lib/qt5/bin/qmlscene'
if not os.path.exists(qmlscene):
    print('qmlscene is not installed (Debian package qmlscene): skipped')
    sys.exit(77)
if not os.environ.get('DISPLAY'):
    sys.exit('DISPLAY is not set')


def run(args, env, what, timeout=120):
    r = subprocess.run(args, env=env, capture_output=True, text=True, timeout=timeout)
    print('$ %s\n%s%s' % (' '.join(args[:4]), r.stdout[-1500:], r.stderr[-1500:]))
    return r


with tempfile.TemporaryDirectory() as d:
    env = dict(os.environ, XDG_CACHE_HOME=os.path.join(d, 'xdg'), XDG_RUNTIME_DIR=d,
               GLREPLAY_PROGRAM_CACHE=os.path.join(d, 'programs'), QT_QPA_PLATFORM='xcb',
               QT_LOGGING_RULES='qt.opengl.diskcache=true')
    # Run 1: Qt compiles and caches; glreplay keeps the sources of each binary Qt reads back.
    r = run([glreplay, 'run', '--', 'timeout', '3', qmlscene, qml], env, 'run 1')
    if 'Program binary not in cache, compiling' not in r.stderr:
        sys.exit('qmlscene did not compile and cache its programs (Qt disk cache off?)')
    kept = [f for f in os.listdir(os.path.join(d, 'programs')) if f.endswith('.glps')]
    if len(kept) < 2:
        sys.exit('the program sources cache kept %d entries' % len(kept))

    def check(cap, model_passes):
        v = run([glreplay, 'replay', cap, '--verify'], env, 'verify')
        if v.returncode != 0 or not re.search(r'verify: PASS: [1-9]\d* frame images? checked, 0 differ', v.stdout):
            sys.exit('replay --verify of %s failed' % cap)
        m = run([glreplay, 'model', cap, '--compare', '--no-timing'], env, 'model', timeout=300)
        if model_passes and (m.returncode != 0 or 'compare: PASS' not in m.stdout):
            sys.exit('model --compare of %s failed' % cap)
        if not model_passes and (m.returncode != 1 or 'loaded with glProgramBinary' not in m.stdout):
            sys.exit('model of %s without sources: exit %d, no clear report' % (cap, m.returncode))

    # Run 2: a mid-run frame; the programs were loaded from Qt's binaries before it.
    cap = os.path.join(d, 'mid.glcap')
    r = run([glreplay, 'capture', '--frame', '30', '--out', cap, '--', 'timeout', '8', qmlscene, qml], env, 'run 2')
    if 'Program binary not in cache' in r.stderr or not os.path.exists(cap):
        sys.exit('run 2 did not load every program from Qt\'s cache, or captured nothing')
    check(cap, True)
    # Run 3: the first frame; the binaries are loaded inside the captured frame.
    cap = os.path.join(d, 'first.glcap')
    run([glreplay, 'capture', '--frame', '0', '--out', cap, '--', 'timeout', '6', qmlscene, qml], env, 'run 3')
    info = run([glreplay, 'info', cap], env, 'info')
    if 'SHADER_SOURCES' not in info.stdout:
        sys.exit('the first frame\'s capture has no SHADER_SOURCES section')
    check(cap, True)
    # Run 4: the cache off: the replay still reloads the binaries; the model has no sources.
    cap = os.path.join(d, 'off.glcap')
    run([glreplay, 'capture', '--frame', '30', '--out', cap, '--', 'timeout', '8', qmlscene, qml],
        dict(env, GLREPLAY_PROGRAM_CACHE='0'), 'run 4')
    check(cap, False)
print('ok')
