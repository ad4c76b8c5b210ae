#!/usr/bin/env python3
"""ARB assembly programs end to end on Debian's piglit: each test runs under the shim
(`glreplay capture --frame 0`), the GPU model must agree with llvmpipe on every target
(`glreplay model --compare --json`, no failed or unsupported draw), and `glreplay debug` must stop
at a line of an ARB fragment program with the program's temporaries shown as variables.

With --snap-arb, also a mid-run frame (3) of tests/snapshot/snap_arb, whose ARB programs exist
only in the capture's initial-state snapshot: the model must agree with llvmpipe there too.

Usage: check_arbasm.py --cli GLREPLAY [--piglit DIR] [--snap-arb PATH]
Headless: piglit on waffle's surfaceless EGL (PIGLIT_PLATFORM), no X server needed."""
import argparse
import json
import os
import subprocess
import sys
import tempfile

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
# Real piglit programs: a fragment program with ALU on one temporary (both stages ARB), KIL,
# TXP on a 2D texture, CMP, a vertex program with ADDRESS-relative reads of program.env
# (fragment stage fixed function) and of program.local.
TESTS = [
    "arb_fragment_program/fdo30337a.shader_test",
    "arb_fragment_program/kil-swizzle.shader_test",
    "arb_fragment_program/texturing/txp-2d.shader_test",
    "arb_fragment_program/fp-cmp.shader_test",
    "arb_vertex_program/vp-arl-env-array.shader_test",
    "arb_vertex_program/vp-arl-local-array.shader_test",
]


def run(cmd, env=None, timeout=120):
    return subprocess.run(cmd, env=env, timeout=timeout, capture_output=True, text=True)


def capture(cli, piglit, test, out, env):
    shader_runner = os.path.join(piglit, "bin", "shader_runner")
    path = os.path.join(piglit, "tests", "spec", test)
    if not os.path.exists(path):
        sys.exit(f"FAIL: {path} is missing (Debian package piglit)")
    r = run([cli, "capture", "--frame", "0", "--out", out, "--", shader_runner, path, "-auto", "-fbo"], env)
    if r.returncode != 0 or not os.path.exists(out):
        sys.exit(f"FAIL: capture of {test}: rc {r.returncode}\n{r.stderr}")
    if '"result": "pass"' not in r.stdout + r.stderr:
        sys.exit(f"FAIL: {test} does not pass natively under the shim:\n{r.stdout}{r.stderr}")


def check_model(cli, test, cap):
    r = run([cli, "model", cap, "--compare", "--json"])
    try:
        rep = json.loads(r.stdout)
    except ValueError:
        sys.exit(f"FAIL: model --json of {test} is not JSON (rc {r.returncode}):\n{r.stdout}{r.stderr}")
    if r.returncode != 0:
        sys.exit(f"FAIL: {test}: the model disagrees with llvmpipe (rc {r.returncode}):\n{r.stdout[:3000]}")
    text = json.dumps(rep)
    # The report must show draws run on the model, none failed or unsupported, and comparisons
    # made (a "pass" that compared nothing proves nothing).
    totals = rep["totals"]
    draws, failed, unsupported = totals["draws"], totals["draws_failed"], totals["draws_with_unsupported"]
    if rep.get("result") != "pass" or not rep.get("comparisons") or rep.get("failing_comparisons"):
        sys.exit(f"FAIL: {test}: comparison result {rep.get('result')}:\n{text[:3000]}")
    if not draws or failed or unsupported:
        sys.exit(f"FAIL: {test}: draws {draws}, failed {failed}, unsupported {unsupported}:\n{text[:3000]}")
    print(f"ok   {test}: {draws} draw(s) modelled, model agrees with llvmpipe")


def check_debug(cli, cap):
    lst = run([cli, "debug", cap, "--list"])
    frag = [ln.split()[1] for ln in lst.stdout.splitlines() if ln.split()[1:2] and ln.split()[1].startswith("arbfp")]
    if not frag:
        sys.exit(f"FAIL: debug --list shows no ARB fragment program:\n{lst.stdout}{lst.stderr}")
    # fdo30337a.shader_test's fragment program: line 7 is "ADD color.x, color.x, color.x;"
    r = run([cli, "debug", cap, "--break", f"{frag[0]}:7", "--json"])
    try:
        snap = json.loads(r.stdout)
    except ValueError:
        sys.exit(f"FAIL: debug --json is not JSON (rc {r.returncode}):\n{r.stdout}{r.stderr}")
    if snap.get("line") != 7:
        sys.exit(f"FAIL: debug stopped at line {snap.get('line')}, not 7")
    var = {v["name"]: v for v in snap.get("variables", [])}
    color = var.get("color")
    # Before line 7 runs, MOV color, {0.1, 0.4, 0.8, 1.0} (line 6) has: every lane holds it.
    if not color or not color["value"].startswith("vec4(0.100000001, 0.400000006, 0.800000012, 1"):
        sys.exit(f"FAIL: the ARB temporary 'color' is not shown with its value: {color}")
    lanes = color.get("lanes", [])
    if len(lanes) != 32 or any(v != color["value"] for v in lanes):
        sys.exit(f"FAIL: 'color' is not shown per lane with the same value: {color}")
    print(f"ok   debug stops at {frag[0]}:7 with TEMP color = {color['value']} on every lane")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--piglit", default=PIGLIT)
    ap.add_argument("--snap-arb", help="tests/snapshot/snap_arb: a mid-run frame is modelled too")
    a = ap.parse_args()
    env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
    with tempfile.TemporaryDirectory() as d:
        for i, t in enumerate(TESTS):
            cap = os.path.join(d, f"t{i}.glcap")
            capture(a.cli, a.piglit, t, cap, env)
            check_model(a.cli, t, cap)
            if i == 0:
                check_debug(a.cli, cap)
        if a.snap_arb:
            cap = os.path.join(d, "snap_arb.glcap")
            r = run([a.cli, "capture", "--frame", "3", "--out", cap, "--", a.snap_arb, "--frames", "6"], env)
            if r.returncode != 0 or not os.path.exists(cap):
                sys.exit(f"FAIL: capture of snap_arb frame 3: rc {r.returncode}\n{r.stderr}")
            check_model(a.cli, "snap_arb frame 3 (programs from the initial-state snapshot)", cap)
    print("PASS")


if __name__ == "__main__":
    main()
