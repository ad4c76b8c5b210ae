#!/usr/bin/env python3
"""Generates a header-only glad 2 GL loader at build time (Debian package python3-glad).

usage: gen_glad.py OUTPUT_HEADER

Runs `python3 -m glad` (with the interpreter running this script, which must have the glad module)
for OpenGL 3.3 core, no extensions, with glad's internal loader, and writes the single generated
header to OUTPUT_HEADER. Generated code is never committed.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: gen_glad.py OUTPUT_HEADER")
    out = sys.argv[1]
    with tempfile.TemporaryDirectory() as tmp:
        cmd = [sys.executable, "-m", "glad", "--quiet", "--reproducible", "--api", "gl:core=3.3",
               "--extensions", "", "--out-path", tmp, "c", "--loader", "--header-only"]
        r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        header = os.path.join(tmp, "include", "glad", "gl.h")
        if r.returncode != 0 or not os.path.isfile(header):
            sys.exit("gen_glad.py: glad failed (%s):\n%s" % (" ".join(cmd), r.stdout))
        shutil.copyfile(header, out)


if __name__ == "__main__":
    main()
