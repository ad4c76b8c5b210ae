#!/usr/bin/env python3
"""Checks the generated shim against the registry XML, independently of the generator:
every <command> of gl.xml, glx.xml and egl.xml is exported by libglreplay.so, and the shim exports
nothing else but dlopen (its only non-registry entry point)."""
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

shim, *xmls = sys.argv[1:]
names = set()
for x in xmls:
    for cmd in ET.parse(x).getroot().iter('command'):
        proto = cmd.find('proto')
        if proto is not None:
            names.add(proto.find('name').text)
out = subprocess.run(['nm', '-D', '--defined-only', shim], capture_output=True, text=True, check=True).stdout
exported = {l.split()[-1].split('@')[0] for l in out.splitlines() if re.search(r' [TW] ', l)}
missing = sorted(names - exported)
# dlopen and the in-application capture API (shim/include/glreplay_app.h) are the only others.
extra = sorted(exported - names - {'dlopen', '_init', '_fini', 'glreplay_capture_begin', 'glreplay_capture_end'})
ok = True
if missing:
    print('missing wrappers (%d): %s' % (len(missing), ' '.join(missing[:20])))
    ok = False
if extra:
    print('unexpected exports (%d): %s' % (len(extra), ' '.join(extra[:20])))
    ok = False
if len(names) < 3000:
    print('registry parse found only %d commands' % len(names))
    ok = False
print('%d registry commands, %d exported' % (len(names), len(exported)))
sys.exit(0 if ok else 1)
