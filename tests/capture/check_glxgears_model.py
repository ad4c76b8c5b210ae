#!/usr/bin/env python3
"""glxgears (mesa-utils) in the GPU model: a mid-run frame (`glreplay capture --frame 10`), whose
draws are all glBegin/glEnd inside the three gear display lists compiled at start-up (kept by the
snapshot). `glreplay model` must find and run every one of them: three glCallList events of 6 draws
each (glxgears' gear(): front face, front teeth, back face, back teeth, outward faces, inside
cylinder), 18 draws in the totals, and no draw skipped for being immediate mode or inside a list;
the fixed-function lighting, flat shading and the projection from the snapshot are modelled, so
`model --compare` passes (every target after every draw agrees with llvmpipe at >= 99.9 %).
`glreplay info` counts the 18 draws inside the called lists. Needs an X server (xvfb-run).
Usage: GLREPLAY GLXGEARS"""
import os
import re
import subprocess
import sys
import tempfile
import time

glreplay, glxgears = sys.argv[1:3]
if not os.environ.get('DISPLAY'):
    print('no X server (DISPLAY unset): skipped')
    sys.exit(77)
with tempfile.TemporaryDirectory() as d:
    out = os.path.join(d, 'gears.glcap')
    cap = subprocess.Popen([glreplay, 'capture', '--frame', '10', '--out', out, '--', glxgears],
                           stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    deadline = time.time() + 60
    while not os.path.exists(out) and cap.poll() is None and time.time() < deadline:
        time.sleep(0.1)
    time.sleep(0.3)   # the file appears when it is complete (written then renamed)
    cap.terminate()   # forwarded to glxgears, which never exits by itself
    text = cap.communicate(timeout=30)[0]
    if not os.path.exists(out):
        sys.exit('no capture written: %s' % text)
    model = subprocess.run([glreplay, 'model', out, '--no-timing'], capture_output=True, text=True)
    print(model.stdout, model.stderr[-2000:])
    if model.returncode != 0:
        sys.exit('model: exit status %d' % model.returncode)
    events = re.findall(r'^draws (\d+)-(\d+) \(record \d+, glCallList,', model.stdout, re.M)
    if len(events) != 3 or any(int(b) - int(a) + 1 != 6 for a, b in events):
        sys.exit('expected three glCallList events of 6 draws each, got %s' % events)
    m = re.search(r'^model: (\d+) draws', model.stdout, re.M)
    if not m or int(m.group(1)) != 18:
        sys.exit('expected 18 draws in the model totals: %s' % (m and m.group(0)))
    for bad in ('not modelled', 'display list', 'glBegin', 'glEnd', 'not recorded'):
        if bad in model.stdout:
            sys.exit('a draw inside the lists was not run: %r in the output' % bad)
    cmp = subprocess.run([glreplay, 'model', out, '--compare'], capture_output=True, text=True)
    print(cmp.stdout[-600:])
    if cmp.returncode != 0 or 'compare: PASS' not in cmp.stdout:
        sys.exit('glxgears frame 10 does not agree with llvmpipe:\n%s%s' % (cmp.stdout[-1500:], cmp.stderr[-300:]))
    info = subprocess.run([glreplay, 'info', out], capture_output=True, text=True)
    print(info.stdout)
    m = re.search(r'^draws: (\d+)(.*)$', info.stdout, re.M)
    if not m or not re.search(r'and 18 inside the 3 called display lists', m.group(2)):
        sys.exit('info: draws inside the called lists not counted: %s' % (m and m.group(0)))
print('glxgears in the GPU model: OK (every draw modelled, --compare PASS)')
