#!/usr/bin/env python3
"""Checks that a sample rejects bad command lines with a usage message and exit status 2,
before it touches the display, and accepts --help with status 0."""
import subprocess
import sys

BAD = [
    ["--bogus"],
    ["--frames"],
    ["--frames", "abc"],
    ["--frames", "0"],
    ["--frames", "-3"],
    ["--size", "640"],
    ["--size", "0x10"],
    ["--size", "10x"],
    ["--size", "99999x10"],
    ["--dump-frames", "1,,2", "--dump-dir", "/tmp"],
    ["--dump-frames", "x", "--dump-dir", "/tmp"],
    ["--dump-frames", "3"],  # no --dump-dir
    ["--dump-dir", ""],
    ["stray"],
]


def main():
    exe, name = sys.argv[1], sys.argv[2]
    failures = 0
    for args in BAD:
        p = subprocess.run([exe] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           timeout=30)
        err = p.stderr.decode(errors="replace")
        if p.returncode != 2 or "usage:" not in err or p.stdout:
            print("FAIL: %s %r -> status %d, stderr %r, stdout %r"
                  % (name, args, p.returncode, err, p.stdout), file=sys.stderr)
            failures += 1
    p = subprocess.run([exe, "--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=30)
    if p.returncode != 0 or b"--dump-frames" not in p.stdout:
        print("FAIL: %s --help -> status %d" % (name, p.returncode), file=sys.stderr)
        failures += 1
    if failures:
        sys.exit(1)
    print("ok: %s rejects %d bad command lines" % (name, len(BAD)))


if __name__ == "__main__":
    main()
