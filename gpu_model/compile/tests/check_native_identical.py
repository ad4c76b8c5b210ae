#!/usr/bin/env python3
"""Compiled runs (GLREPLAY_MODEL_COMPILE=1, gpu_model/compile) must leave every observable output of
the model as the interpreter gives it.

Captures piglit shader_runner tests under the shim (EGL surfaceless; a compute shader, a loop with
continue, a shadow sampler, a sampler in a struct whose fragment shader stores with helper lanes to
leave out, a fragment loop with arithmetic chains) and, when glmark2 is installed and a display is
there, glmark2's phong scene; then runs gpu_model/timing/tests/check_timing_identical.py's `record`
(model --json minus seconds, every --png image, --trace-hash, profile with counters, PC samples,
edges, trace buffers and the Perfetto output) once with the interpreter and once with compiled runs,
and compares them. Fails when they differ, or when nothing was compiled (no object in the cache).

    check_native_identical.py --glreplay build/ui_ipc/cli/glreplay
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
CHECK = os.path.join(HERE, "..", "..", "timing", "tests", "check_timing_identical.py")
PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
TESTS = [
    ("barrier", "arb_compute_shader/execution/simple-barrier-atomics.shader_test"),
    ("loopcont", "glsl-1.30/execution/fs-loop-cont-else-bug.shader_test"),
    ("shadow", "glsl-1.30/execution/fs-texture-sampler2dshadow-03.shader_test"),
    ("s2dstruct", "arb_gl_spirv/execution/uniform/sampler2d-struct.shader_test"),
    ("fsloop", "glsl-1.10/execution/glsl-fs-if-nested-loop.shader_test"),
    ("openmix", "glsl-1.10/execution/fs-open-coded-mix-float.shader_test"),
    ("mix", "../../generated_tests/spec/glsl-1.10/execution/built-in-functions/fs-mix-vec4-vec4-float.shader_test"),
    ("fract", "../../generated_tests/spec/glsl-1.10/execution/built-in-functions/fs-fract-vec4.shader_test"),
]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--glreplay", required=True)
    args = ap.parse_args()
    runner = os.path.join(PIGLIT, "bin", "shader_runner")
    if not os.path.exists(runner) or not shutil.which("cc"):
        print("piglit's shader_runner or a C compiler is missing: skipped")
        return 77
    with tempfile.TemporaryDirectory() as tmp:
        caps = os.path.join(tmp, "caps")
        os.makedirs(caps)
        env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
        for name, test in TESTS:
            path = os.path.join(PIGLIT, "tests", "spec", test)
            if not os.path.exists(path):
                print("FAIL: no piglit test %s" % path)
                return 1
            p = subprocess.run([args.glreplay, "capture", "--frame", "0", "--out", os.path.join(caps, name + ".glcap"),
                                "--", runner, path, "-auto", "-fbo"], env=env, capture_output=True, text=True,
                               timeout=120)
            if p.returncode != 0:
                print("FAIL: capture of %s: %s" % (test, p.stderr[-400:]))
                return 1
        glmark2 = shutil.which("glmark2")
        if glmark2 and os.environ.get("DISPLAY"):
            p = subprocess.run([args.glreplay, "capture", "--frame", "3", "--out", os.path.join(caps, "phong.glcap"),
                                "--", glmark2, "-s", "320x240", "-b", "shading:shading=phong:nframes=5"],
                               capture_output=True, text=True, timeout=120)
            if p.returncode != 0:
                print("FAIL: glmark2 capture: %s" % p.stderr[-400:])
                return 1
        print("captures:", " ".join(sorted(os.listdir(caps))))
        cache = os.path.join(tmp, "compiled")
        outs = []
        for compiled in ("0", "1"):
            e = dict(os.environ, GLREPLAY_MODEL_COMPILE=compiled, GLREPLAY_MODEL_COMPILE_CACHE=cache)
            os.makedirs(cache, exist_ok=True)
            p = subprocess.run([sys.executable, CHECK, "record", "--glreplay", args.glreplay, "--dir", caps], env=e,
                               capture_output=True, text=True, timeout=1200)
            if p.returncode != 0:
                print("FAIL: record (compiled=%s): %s" % (compiled, (p.stdout + p.stderr)[-800:]))
                return 1
            path = os.path.join(tmp, "out%s.md5" % compiled)
            with open(path, "w") as fh:
                fh.write(p.stdout)
            outs.append(path)
        objects = [f for f in os.listdir(cache) if f.endswith(".so")]
        if not objects:
            print("FAIL: nothing was compiled (no object in %s)" % cache)
            return 1
        p = subprocess.run([sys.executable, CHECK, "compare", outs[0], outs[1]], capture_output=True, text=True)
        print(p.stdout.strip())
        if p.returncode != 0:
            print("FAIL: compiled runs changed the outputs above")
            return 1
        print("%d compiled objects; outputs identical with and without compiled runs" % len(objects))
    return 0


if __name__ == "__main__":
    sys.exit(main())
