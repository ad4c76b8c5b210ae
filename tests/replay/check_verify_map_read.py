#!/usr/bin/env python3
"""replay --verify of reads through buffer mappings (issue 13 §3).

piglit's `probe ssbo` maps the shader storage buffer for reading (glMapBufferRange with
GL_MAP_READ_BIT) and reads the value itself: no GL call returns it. The shim records what the
mapping held right after the map call (a GLR_PSEUDO_MAP_READ record); `replay --verify` compares
the replay's mapping of the same call.

1. arb_shader_storage_buffer_object/execution/indirect (-auto -fbo, waffle surfaceless): its two
   `probe ssbo uint N 20` reads (shader_runner maps the 4 bytes at offset 20: `val`, which the
   fragment shader wrote) are compared and match, one line each.
2. The same capture with the first mapping's recorded value changed (1 -> 0, as if the program had
   read another value) fails verification, naming that read.

Usage: check_verify_map_read.py --glreplay CLI --edit GLCAP_EDIT
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
TEST = "spec/arb_shader_storage_buffer_object/execution/indirect.shader_test"


def run(cmd, env=None, timeout=60):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--edit", required=True)
    a = ap.parse_args()
    if not os.path.exists(os.path.join(PIGLIT, "bin", "shader_runner")):
        fail("piglit is not installed (Debian package piglit, tests/packages.txt)")
    env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
    for k in [k for k in env if k.startswith("GLREPLAY_")]:
        del env[k]
    tmp = tempfile.mkdtemp(prefix="verify_map_read.")
    cap = os.path.join(tmp, "indirect.glcap")
    prog = [os.path.join(PIGLIT, "bin", "shader_runner"), os.path.join(PIGLIT, "tests", TEST), "-auto", "-fbo"]
    r = run([a.glreplay, "capture", "--frame", "0", "--out", cap, "--"] + prog, env)
    if r.returncode != 0 or '"result": "pass"' not in r.stdout + r.stderr:
        fail(f"capture of {TEST}: rc {r.returncode}: {r.stderr[-400:]}")
    v = run([a.glreplay, "replay", cap, "--verify"], env)
    lines = [l for l in v.stdout.splitlines() if l.startswith("read through a mapping at record")]
    if v.returncode != 0 or len(lines) != 2 or not all(l.endswith("(4 bytes): matches") for l in lines):
        fail(f"verify of {TEST}: rc {v.returncode}, expected two 4-byte mapping reads that match\n{v.stdout[-1500:]}")
    print(f"ok: {TEST}: " + "; ".join(lines))

    # The first probe read val == 1: its read-back description is
    # flags (hashed | bytes) | u64 size 4 | u64 hash | the 4 bytes.
    raw = os.path.join(tmp, "stream.bin")
    if run([a.edit, "--extract", cap, "5:0", raw]).returncode != 0:
        fail("cannot extract the command stream")
    data = bytearray(open(raw, "rb").read())
    head = bytes([3]) + struct.pack("<Q", 4)
    pos = [m.start() + 17 for m in re.finditer(re.escape(head), bytes(data))
           if bytes(data[m.start() + 17:m.start() + 21]) == struct.pack("<i", 1)]
    if len(pos) != 1:
        fail(f"expected one recorded 4-byte read holding 1 (the first probe), found {len(pos)}")
    data[pos[0]] ^= 0x01   # 1 -> 0
    open(raw, "wb").write(data)
    bad = os.path.join(tmp, "corrupt.glcap")
    if run([a.edit, cap, bad, "--replace", "5:0", raw]).returncode != 0:
        fail("cannot replace the command stream")
    v = run([a.glreplay, "replay", bad, "--verify"], env)
    differs = [l for l in v.stdout.splitlines() if "read through a mapping" in l and "DIFFERS" in l]
    if v.returncode != 1 or len(differs) != 1 or not re.search(r"read-backs: \d+ checked, 1 differ", v.stdout):
        fail(f"a changed mapping read was not caught: rc {v.returncode}\n{v.stdout[-1500:]}")
    print("ok: a mapping read whose recorded bytes were changed fails verification: " + differs[0])


if __name__ == "__main__":
    main()
