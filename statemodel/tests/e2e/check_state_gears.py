#!/usr/bin/env python3
"""`glreplay state` names enums by the parameter's registry group, on a real program (stdlib only).

glxgears enables GL_LIGHTING and GL_LIGHT0. GL_LIGHT0 is 0x4000, as is GL_COLOR_BUFFER_BIT: a
name looked up by value alone called the enabled light a clear mask. Captures two frames of
glxgears under the shim, then checks the enabled capabilities at the last event in the text and
the --json output.

Usage: check_state_gears.py --shim LIB --glreplay EXE   (DISPLAY: the runner's X server)
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def fail(msg):
    sys.exit('check_state_gears: FAIL: ' + msg)


def capture_gears(shim, out):
    env = dict(os.environ, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='0-1', GLREPLAY_CAPTURE_OUT=out)
    p = subprocess.Popen(['glxgears'], env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         universal_newlines=True)
    deadline = time.monotonic() + 30
    # The writer renames the finished file into place: once it exists it is complete.
    while not os.path.exists(out) and p.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    if p.poll() is None:
        p.terminate()
    _, err = p.communicate(timeout=30)
    if not os.path.exists(out):
        fail('glxgears under the shim made no capture (status %s)\n%s' % (p.returncode, err))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--shim', required=True)
    ap.add_argument('--glreplay', required=True)
    args = ap.parse_args()
    if not shutil.which('glxgears'):
        print('check_state_gears: SKIP: glxgears (mesa-utils) is not installed')
        sys.exit(77)
    if not os.environ.get('DISPLAY'):
        fail('DISPLAY is not set (run under xvfb-run)')
    with tempfile.TemporaryDirectory(prefix='glr-gears-') as tmp:
        cap = os.path.join(tmp, 'gears.glcap')
        capture_gears(args.shim, cap)
        p = subprocess.run([args.glreplay, 'state', cap, '--event', '0', '--json'], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        if p.returncode != 0:
            fail('state --event 0 --json: status %d\n%s' % (p.returncode, p.stderr))
        last = json.loads(p.stdout)['events']
        p = subprocess.run([args.glreplay, 'state', cap, '--event', str(last), '--json'],
                           stdout=subprocess.PIPE, stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        if p.returncode != 0:
            fail('state --event %d --json: status %d\n%s' % (last, p.returncode, p.stderr))
        caps = [e.get('cap') for e in json.loads(p.stdout)['state']['enabled_caps']]
        for want in ('GL_LIGHTING', 'GL_LIGHT0', 'GL_DEPTH_TEST', 'GL_CULL_FACE'):
            if want not in caps:
                fail('--json enabled_caps at event %d lacks %s: %r' % (last, want, caps))
        if 'GL_COLOR_BUFFER_BIT' in caps:
            fail('--json enabled_caps names a clear mask: %r' % caps)
        p = subprocess.run([args.glreplay, 'state', cap, '--event', str(last)], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE, universal_newlines=True, timeout=60)
        if p.returncode != 0:
            fail('state --event %d: status %d\n%s' % (last, p.returncode, p.stderr))
        text = p.stdout
        if 'enabled_caps:' not in text:
            fail('text output lacks enabled_caps:\n%s' % text)
        shown = text[text.index('enabled_caps:'):]
        for want in ('cap: GL_LIGHTING\n', 'cap: GL_LIGHT0\n'):
            if want not in shown:
                fail('text enabled_caps lacks "%s":\n%s' % (want.strip(), shown))
        if 'GL_COLOR_BUFFER_BIT' in text:
            fail('text output names a clear mask:\n%s' % shown)
        print('check_state_gears: OK (event %d of glxgears: %s)' % (last, ', '.join(caps)))


if __name__ == '__main__':
    main()
