#!/usr/bin/env python3
"""E2e test of one sample program (needs an X display, e.g. under xvfb-run).

Runs the sample twice with frame dumps and checks: exit status 0, the exact stdout line
"<name>: N frames", well-formed PAM dumps of the requested size, byte-identical dumps across
the two runs (animation depends only on the frame index), and that the images are neither blank
nor static. Exits non-zero with a message on the first failure.
"""
import argparse
import os
import subprocess
import sys
import tempfile


def fail(msg):
    print("FAIL: " + msg, file=sys.stderr)
    sys.exit(1)


def read_pam(path):
    with open(path, "rb") as f:
        data = f.read()
    end = data.find(b"ENDHDR\n")
    if not data.startswith(b"P7\n") or end < 0:
        fail("%s: not a PAM file" % path)
    fields = {}
    for line in data[3:end].decode("ascii").splitlines():
        key, _, value = line.partition(" ")
        fields[key] = value
    w, h = int(fields.get("WIDTH", 0)), int(fields.get("HEIGHT", 0))
    if fields.get("DEPTH") != "4" or fields.get("MAXVAL") != "255" or \
            fields.get("TUPLTYPE") != "RGB_ALPHA":
        fail("%s: unexpected PAM header %r" % (path, fields))
    pixels = data[end + len(b"ENDHDR\n"):]
    if len(pixels) != w * h * 4:
        fail("%s: %d pixel bytes for %dx%d" % (path, len(pixels), w, h))
    return w, h, pixels


def run_once(exe, name, frames, size, dump_list, dump_dir, extra):
    cmd = [exe, "--frames", str(frames), "--size", size, "--dump-frames", dump_list,
           "--dump-dir", dump_dir] + extra
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    sys.stderr.write(p.stderr.decode(errors="replace"))
    if p.returncode != 0:
        fail("%s exited with %d" % (" ".join(cmd), p.returncode))
    expected = "%s: %d frames\n" % (name, frames)
    if p.stdout.decode() != expected:
        fail("stdout was %r, expected %r" % (p.stdout.decode(), expected))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("exe")
    ap.add_argument("name")
    ap.add_argument("--frames", type=int, default=4)
    ap.add_argument("--size", default="67x41")  # odd width: checks pack alignment 1
    ap.add_argument("extra", nargs="*")
    a = ap.parse_args()
    if "DISPLAY" not in os.environ:
        fail("DISPLAY is not set: run the e2e suite under xvfb-run")
    w, h = (int(v) for v in a.size.split("x"))
    first, last = 0, a.frames - 1
    dump_list = "%d,%d" % (first, last)

    with tempfile.TemporaryDirectory(prefix="sample-" + a.name + "-") as tmp:
        dirs = [os.path.join(tmp, "run%d" % i) for i in (1, 2)]
        for d in dirs:
            run_once(a.exe, a.name, a.frames, a.size, dump_list, d, a.extra)
        names = ["frame_%04d.pam" % first, "frame_%04d.pam" % last]
        for d in dirs:
            found = sorted(os.listdir(d))
            if found != sorted(names):
                fail("%s holds %r, expected %r" % (d, found, names))
        images = {}
        for n in names:
            paths = [os.path.join(d, n) for d in dirs]
            blobs = [open(p, "rb").read() for p in paths]
            if blobs[0] != blobs[1]:
                fail("%s differs between two runs (animation must depend only on the frame "
                     "index)" % n)
            pw, ph, pixels = read_pam(paths[0])
            if (pw, ph) != (w, h):
                fail("%s is %dx%d, expected %dx%d" % (n, pw, ph, w, h))
            distinct = {pixels[i:i + 4] for i in range(0, len(pixels), 4)}
            if len(distinct) < 8:
                fail("%s has only %d distinct colours: nothing was drawn?" % (n, len(distinct)))
            images[n] = pixels
        if images[names[0]] == images[names[1]]:
            fail("frames %d and %d are identical: the animation did not advance" % (first, last))
    print("ok: %s, %d frames at %s, dumps identical across runs" % (a.name, a.frames, a.size))


if __name__ == "__main__":
    main()
