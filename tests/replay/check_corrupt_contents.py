#!/usr/bin/env python3
"""Corrupt snapshot contents that are GL calls (RESOURCE_BLOB kind 4, a display list; kind 7, a
compatibility context's fixed-function state): a capture whose blob of either kind holds junk
(checksums made valid again, so only the content is wrong) replays with one clear warning naming
what was not restored, never crashes (--verify fails where the lost lists draw), and `info` still
reads it.

Usage: check_corrupt_contents.py PROG SHIM GLREPLAY GLCAP_EDIT   (PROG: tests/capture/legacy_arrays)"""
import os
import subprocess
import sys
import tempfile

prog, shim, glreplay, edit = sys.argv[1:5]
env = dict(os.environ, EGL_PLATFORM='surfaceless')
env.pop('DISPLAY', None)


def uvar(d, p):
    v = s = 0
    while True:
        b = d[p]
        p += 1
        v |= (b & 0x7f) << s
        s += 7
        if b < 0x80:
            return v, p


with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, 'c.glcap')
    run = subprocess.run([prog, '7', 'lists'], env=dict(env, LD_PRELOAD=shim, GLREPLAY_CAPTURE_FRAMES='4-5',
                                                      GLREPLAY_CAPTURE_OUT=cap), capture_output=True, text=True)
    if run.returncode != 0 or not os.path.exists(cap):
        sys.exit('capture failed: %s' % run.stderr)
    idx = os.path.join(d, 'idx.bin')
    subprocess.run([edit, '--extract', cap, '4:0', idx], check=True)
    data = open(idx, 'rb').read()
    p = 0
    _, p = uvar(data, p)
    _, p = uvar(data, p)
    n, p = uvar(data, p)
    sections = {}
    for k in range(n):
        fields = []
        for _ in range(9):
            v, p = uvar(data, p)
            fields.append(v)
        sections.setdefault(fields[0], (k + 1, fields[8]))   # kind -> (section id, size)
    expect = {4: 'display list', 7: 'fixed-function state not restored'}
    for kind, words in expect.items():
        if kind not in sections:
            sys.exit('the capture has no RESOURCE_BLOB of kind %d: %s' % (kind, sorted(sections)))
        sid, size = sections[kind]
        junk = os.path.join(d, 'junk%d.bin' % kind)
        with open(junk, 'wb') as f:
            f.write(b'\xff' * size)
        bad = os.path.join(d, 'bad%d.glcap' % kind)
        subprocess.run([edit, cap, bad, '--replace', '4:%d' % sid, junk], check=True)
        rep = subprocess.run([glreplay, 'replay', bad, '--verify', '--loop', '2'], env=env, capture_output=True,
                             text=True, timeout=120)
        print(rep.stdout[-1500:], rep.stderr[-1500:])
        # Lists draw in this frame, so without them --verify fails; the program's fixed-function
        # state is GL's defaults, so the frame may still match: either way no crash.
        if rep.returncode not in ((1,) if kind == 4 else (0, 1)):
            sys.exit('kind %d junk: replay exit status %d' % (kind, rep.returncode))
        if not any(words in l and 'corrupt' in l for l in rep.stderr.splitlines()):
            sys.exit('kind %d junk: no warning naming the corrupt %s' % (kind, words))
        info = subprocess.run([glreplay, 'info', bad], env=env, capture_output=True, text=True, timeout=60)
        if info.returncode != 0:
            sys.exit('kind %d junk: info failed: %s' % (kind, info.stderr))
print('corrupt list and fixed-function contents: OK')
