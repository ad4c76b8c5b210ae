#!/usr/bin/env python3
"""A sample pointed at a missing shader folder must exit 1 with a clear message naming the
file it could not open (needs a display: shaders load after the context exists)."""
import subprocess
import sys

exe, name = sys.argv[1], sys.argv[2]
p = subprocess.run([exe, "--frames", "1", "--size", "32x32", "--shader-dir", "/nonexistent-glr"],
                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=60)
err = p.stderr.decode(errors="replace")
if p.returncode != 1 or "/nonexistent-glr/" + name + "/" not in err or "cannot open" not in err:
    print("FAIL: status %d, stderr %r" % (p.returncode, err), file=sys.stderr)
    sys.exit(1)
print("ok: %s reports the missing shader file" % name)
