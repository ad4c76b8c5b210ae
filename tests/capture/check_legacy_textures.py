#!/usr/bin/env python3
"""Snapshot of legacy texture formats (legacy_textures.c): textures of internal format 3, 4 and
GL_RGB5 are read back, so a capture of frame 2 replays exactly; the one texture of a format the
snapshot cannot read back is reported by default (one error line when the capture is written,
`glreplay info`'s "snapshot losses", a warning from `replay`).
Usage: check_legacy_textures.py PROGRAM GLREPLAY gl.xml (needs DISPLAY)."""
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'support'))
import gl_enums  # noqa: E402

prog, cli, gl_xml = sys.argv[1:4]
lost_format = gl_enums.load(gl_xml)['GL_RGB10_A2UI']
with tempfile.TemporaryDirectory() as d:
    cap = os.path.join(d, 'lt.glcap')
    r = subprocess.run([cli, 'capture', '--frame', '2', '--out', cap, '--', prog], capture_output=True, text=True,
                       timeout=120)
    if r.returncode != 0:
        sys.exit('FAIL: capture: %s' % r.stderr[-800:])
    if 'snapshot: 1 content could not be kept (first: texture 4 level 0 (format 0x%x)' % lost_format not in r.stderr:
        sys.exit('FAIL: the lost GL_RGB10_A2UI texture was not reported by default:\n%s' % r.stderr[-800:])
    info = subprocess.run([cli, 'info', cap], capture_output=True, text=True)
    if 'snapshot losses: 1 contents' not in info.stdout:
        sys.exit('FAIL: info does not list the loss:\n%s' % info.stdout)
    rep = subprocess.run([cli, 'replay', cap, '--verify'], capture_output=True, text=True, timeout=120)
    print(rep.stdout.strip())
    if rep.returncode != 0 or 'verify: PASS' not in rep.stdout or ' 0 bad' not in rep.stdout:
        sys.exit('FAIL: the legacy textures do not replay exactly:\n%s%s' % (rep.stdout, rep.stderr))
    if 'its snapshot could not keep 1 content' not in rep.stderr:
        sys.exit('FAIL: replay does not warn of the loss:\n%s' % rep.stderr)
    print('PASS: formats 3, 4, GL_RGB5 read back; the unreadable one reported by capture, info and replay')
