#!/usr/bin/env python3
"""The generators refuse a gl_annotations.txt line they cannot honour, with one line naming it:
an unknown gen word, an offset: of a parameter that is no pointer or of an unknown kind, a second
gen line, a uniform_location without a location parameter, a format_class of an unknown enum or
class, a second class for one value. Then the file as it stands is accepted.
Usage: check_gen_annotations.py gen_registry.py gen_format_classes.py gl_annotations.txt gl.xml glx.xml egl.xml"""
import os
import subprocess
import sys
import tempfile

gen_registry, gen_formats, annotations, gl, glx, egl = sys.argv[1:7]
BAD_GEN = [
    ('glFlush gen bogus', "unknown or repeated gen word 'bogus'"),
    ('glFlush gen offset:x:indices', 'offset:PARAM:KIND of a pointer parameter'),
    ('glViewport gen offset:x:indices', 'offset:PARAM:KIND of a pointer parameter'),
    ('glGetIntegerv gen offset:data:nowhere', 'offset:PARAM:KIND of a pointer parameter'),
    ('glDrawArrays gen note_draw', 'a second gen line for glDrawArrays'),
    ('glFlush gen uniform_location', 'uniform_location: glFlush has no location parameter'),
    ('glFlush gen links:nothing', "unknown or repeated gen word 'links:nothing'"),
]
BAD_FORMAT = [
    ('GL_NOT_AN_ENUM format_class RGBA', 'GL_NOT_AN_ENUM is no 32-bit enum of gl.xml'),
    ('GL_RGB8 format_class GREEN', 'expected ENUM format_class RGBA|ALPHA|INTENSITY'),
    ('GL_ALPHA8_EXT format_class ALPHA', 'has the value of GL_ALPHA8, classed already'),
]
failures = 0
with tempfile.TemporaryDirectory() as d:
    base = open(annotations).read()

    def run(extra, cmd):
        path = os.path.join(d, 'a.txt')
        with open(path, 'w') as f:
            f.write(base + extra + '\n')
        return subprocess.run(cmd(path), capture_output=True, text=True)

    def dispatch(path):
        return [sys.executable, gen_registry, 'dispatch', gl, glx, egl] + \
            [os.path.join(d, n) for n in ('t.h', 'p.h', 'd.c')] + [path]

    def formats(path):
        return [sys.executable, gen_formats, gl, path, os.path.join(d, 'f.c')]

    for cases, cmd in ((BAD_GEN, dispatch), (BAD_FORMAT, formats)):
        for line, want in cases:
            r = run(line, cmd)
            ok = r.returncode != 0 and want in r.stderr and len(r.stderr.strip().splitlines()) == 1
            print('%s: %r -> %s' % ('ok' if ok else 'FAIL', line, r.stderr.strip()[-160:]))
            failures += not ok
        r = run('', cmd)
        print('%s: the file as it stands' % ('ok' if r.returncode == 0 else 'FAIL ' + r.stderr[-300:]))
        failures += r.returncode != 0
sys.exit(1 if failures else 0)
