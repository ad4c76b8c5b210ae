#!/usr/bin/env python3
"""replay --verify of read-backs and of frames kept only as a hash (issue 13 defect 3, issue 17 §3).

1. piglit shader_runner tests (-auto -fbo: they never swap; their probes are glReadPixels) are
   captured headless (waffle surfaceless EGL) and must verify with every read-back compared and
   matching, one line each.
2. The same capture with one read-back's recorded hash changed (as if the program had read other
   bytes) must fail verification, naming that read-back.
3. A multi-frame capture of record_cost (EGL pbuffer) keeps full images of its first and last
   frames and hashes of the others (GLREPLAY_CAPTURE_IMAGES default); it verifies, and with one
   hash changed it must fail, saying that only a hash is kept.

Usage: check_verify_readback.py --glreplay CLI --edit GLCAP_EDIT --shim SHIM --record-cost PROG
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
TESTS = [
    # probe rgb: four 12-byte glReadPixels of one pixel (the bytes are kept)
    "spec/glsl-1.10/execution/uniform-array-resizing.shader_test",
    # probe rect rgba and probe all: larger reads (hashes only)
    "spec/glsl-1.50/execution/compatibility/clipping/vs-gs-clip-vertex-primitives-triangle-strip.shader_test",
    "spec/arb_shader_storage_buffer_object/execution/basic.shader_test",
    # piglit programs: glGetTexImage into a pixel pack buffer (cube faces), occlusion query results
    "bin:cubemap-getteximage-pbo",
    "bin:arb_occlusion_query2-render",
]


def run(cmd, env=None, timeout=60):
    return subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=timeout)


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def corrupt_readback(edit, cap, out, tmp):
    """Flips a bit of the first read-back description in the command stream (a kept byte, or the hash)."""
    raw = os.path.join(tmp, "stream.bin")
    r = run([edit, "--extract", cap, "5:0", raw])
    if r.returncode != 0:
        fail(f"extract: {r.stderr}")
    data = bytearray(open(raw, "rb").read())
    # blob: uvar (17 + n + 1) | flags (HASHED, optional BYTES) | u64 size | u64 hash | bytes
    m = re.search(rb"[\x01\x03]([\x01-\xff][\x00-\xff]\x00\x00\x00\x00\x00\x00)", bytes(data))
    pos = None
    while m:
        flags = data[m.start()]
        size = int.from_bytes(data[m.start() + 1:m.start() + 9], "little")
        total = 17 + (size if flags & 2 else 0)
        if data[m.start() - 1] == total + 1 and (flags & 2 == 0 or size <= 64):
            pos = m.start()
            break
        m = re.compile(rb"[\x01\x03]([\x01-\xff][\x00-\xff]\x00\x00\x00\x00\x00\x00)").search(bytes(data), m.start() + 1)
    if pos is None:
        fail("no read-back description found in the command stream")
    # A byte the program read (kept for small reads), else the hash: either is what verify compares.
    data[pos + 17 if data[pos] & 2 else pos + 9] ^= 0x01
    open(raw, "wb").write(data)
    r = run([edit, cap, out, "--replace", "5:0", raw])
    if r.returncode != 0:
        fail(f"replace: {r.stderr}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--edit", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--record-cost", required=True)
    a = ap.parse_args()
    if not os.path.exists(os.path.join(PIGLIT, "bin", "shader_runner")):
        fail("piglit is not installed (Debian package piglit, tests/packages.txt)")
    env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
    for k in [k for k in env if k.startswith("GLREPLAY_")]:
        del env[k]
    tmp = tempfile.mkdtemp(prefix="verify_readback.")
    first_cap = None
    for t in TESTS:
        cap = os.path.join(tmp, os.path.basename(t) + ".glcap")
        prog = [os.path.join(PIGLIT, "bin", t[4:])] if t.startswith("bin:") else \
            [os.path.join(PIGLIT, "bin", "shader_runner"), os.path.join(PIGLIT, "tests", t)]
        r = run([a.glreplay, "capture", "--frame", "0", "--out", cap, "--"] + prog + ["-auto", "-fbo"], env)
        if r.returncode != 0 or '"result": "pass"' not in r.stdout + r.stderr:
            fail(f"capture of {t}: rc {r.returncode}: {r.stderr[-400:]}")
        v = run([a.glreplay, "replay", cap, "--verify"], env)
        lines = [l for l in v.stdout.splitlines() if l.startswith("read-back at record")]
        m = re.search(r"verify: read-backs: (\d+) checked, (\d+) differ, (\d+) not compared", v.stdout)
        if v.returncode != 0 or not m or int(m.group(1)) == 0 or m.group(2) != "0" or \
                not lines or not all(l.endswith(": matches") for l in lines):
            fail(f"verify of {t}: rc {v.returncode}\n{v.stdout[-1500:]}")
        kinds = sorted(set(re.sub(r"record \d+ ", "", l) for l in lines))
        print(f"ok: {t}: {m.group(1)} read-backs match ({'; '.join(kinds)})")
        first_cap = first_cap or cap
    bad = os.path.join(tmp, "corrupt.glcap")
    corrupt_readback(a.edit, first_cap, bad, tmp)
    v = run([a.glreplay, "replay", bad, "--verify"], env)
    if v.returncode != 1 or "DIFFERS" not in v.stdout or not re.search(r"read-backs: \d+ checked, 1 differ", v.stdout):
        fail(f"a corrupted read-back was not caught: rc {v.returncode}\n{v.stdout[-1500:]}")
    print("ok: a read-back whose recorded result was changed fails verification: " +
          next(l for l in v.stdout.splitlines() if "DIFFERS" in l))

    # Many frames: full images of the ends, hashes between.
    cap = os.path.join(tmp, "frames.glcap")
    e = dict(env, LD_PRELOAD=a.shim, GLREPLAY_CAPTURE_FRAMES="0-5", GLREPLAY_CAPTURE_OUT=cap)
    r = run([a.record_cost, "--frames", "8", "--calls", "300", "--size", "64x48"], e)
    if r.returncode != 0 or not os.path.exists(cap):
        fail(f"record_cost capture: rc {r.returncode}: {r.stderr[-400:]}")
    info = run([a.glreplay, "info", cap])
    if "reference images: 2" not in info.stdout or "reference hashes (frames kept only as a hash of their image): 4" \
            not in info.stdout:
        fail(f"expected 2 images and 4 hashes:\n{info.stdout[-800:]}")
    v = run([a.glreplay, "replay", cap, "--verify"], env)
    if v.returncode != 0 or v.stdout.count("matches the reference hash (no image stored)") != 4 or \
            "6 frame images checked, 0 differ" not in v.stdout:
        fail(f"verify of the multi-frame capture:\n{v.stdout[-1500:]}")
    print("ok: frames 0-5: images of frames 0 and 5, hashes of 1-4, all verified")
    raw = os.path.join(tmp, "hash.bin")
    if run([a.edit, "--extract", cap, "7:2", raw]).returncode != 0:
        fail("cannot extract REFERENCE_IMAGE 2")
    d = bytearray(open(raw, "rb").read())
    if len(d) != 40 or int.from_bytes(d[0:4], "little") != 3:
        fail(f"REFERENCE_IMAGE 2 is not a hash-only section (layout 3, 40 bytes): {len(d)} bytes")
    d[32] ^= 0x80
    open(raw, "wb").write(d)
    bad = os.path.join(tmp, "hash_bad.glcap")
    if run([a.edit, cap, bad, "--replace", "7:2", raw]).returncode != 0:
        fail("cannot replace REFERENCE_IMAGE 2")
    v = run([a.glreplay, "replay", bad, "--verify"], env)
    if v.returncode != 1 or "keeps only a hash" not in v.stdout or "1 differ" not in v.stdout:
        fail(f"a changed frame hash was not caught:\n{v.stdout[-1500:]}")
    print("ok: a changed frame hash fails verification")


if __name__ == "__main__":
    main()
