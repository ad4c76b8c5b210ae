#!/usr/bin/env python3
"""The preloaded shim's two stages (shim/stage_abi.h): stage 1 (libglreplay.so) loads stage 2
(libglreplay-core.so) only when it is needed, and without stage 2 the program still runs.

usage: check_stages.py --shim LIB --core-mapped CORE_MAPPED -- GL_PROGRAM

- /bin/true under the shim: stage 2 is not loaded (LD_DEBUG=files), nothing is printed;
  with GLREPLAY_LOG=info it is loaded at start and prints its exit summary.
- GL_PROGRAM (EGL surfaceless, no DISPLAY) under the shim: stage 2 is loaded and the program's
  stdout and exit status are the native run's.
- CORE_MAPPED (progs/core_mapped.c, links libEGL) reads its own /proc/self/maps: under the shim
  stage 2 is there at the start of main already (loaded in stage 1's constructor, not at a first
  GL call that might come from a signal handler); with GLREPLAY_DISABLE=1 it is never there, even
  after EGL calls, and the output is the native run's.
- Stage 1 copied alone into an empty directory: GL_PROGRAM still runs as natively, with one error
  line naming the missing file; /bin/true prints nothing.
"""
import argparse
import os
import shutil
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "support"))
import e2e_util as U  # noqa: E402

STAGE2 = "libglreplay-core.so"


def env_for(preload, extra=None):
    env = U.base_env(dict(extra or {}, EGL_PLATFORM="surfaceless"), unset=("DISPLAY",))
    if preload:
        env["LD_PRELOAD"] = preload
    return env


def loads_stage2(res):
    return any("file=" in l and STAGE2 in l for l in res.stderr.splitlines())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shim", required=True)
    ap.add_argument("--core-mapped", required=True)
    ap.add_argument("cmd", nargs=argparse.REMAINDER)
    a = ap.parse_args()
    cmd = a.cmd[1:] if a.cmd[:1] == ["--"] else a.cmd
    U.check(len(cmd) == 1, "usage: check_stages.py --shim LIB --core-mapped CORE_MAPPED -- GL_PROGRAM")
    shim = os.path.abspath(a.shim)
    true = shutil.which("true") or "/bin/true"

    res = U.run([true], env_for(shim, {"LD_DEBUG": "files"}))
    U.check(res.returncode == 0 and not loads_stage2(res) and "glreplay" not in res.stderr.replace(shim, ""),
            "a program without GL loaded stage 2 or printed something\n" + U.describe(res, "true"))
    res = U.run([true], env_for(shim, {"GLREPLAY_LOG": "info"}))
    U.check(res.returncode == 0 and len(U.parse_summaries(res.stderr)) == 1,
            "GLREPLAY_LOG=info did not start stage 2 at start\n" + U.describe(res, "true"))

    native = U.run(cmd, env_for(None))
    U.check(native.returncode == 0, U.describe(native, "native run"))
    res = U.run(cmd, env_for(shim, {"LD_DEBUG": "files"}))
    U.check(res.returncode == 0 and res.stdout == native.stdout and loads_stage2(res),
            "under the shim the GL program did not load stage 2 or differs from the native run\n"
            + U.describe(res, "shim run"))

    core_mapped = [os.path.abspath(a.core_mapped)]
    native_cm = U.run(core_mapped, env_for(None))
    U.check(native_cm.returncode == 0 and "core at start: no" in native_cm.stdout, U.describe(native_cm, "core_mapped native"))
    res = U.run(core_mapped, env_for(shim))
    U.check(res.returncode == 0 and "core at start: yes\n" in res.stdout,
            "a program linking libEGL did not find stage 2 loaded at the start of main\n" + U.describe(res, "core_mapped"))
    res = U.run(core_mapped, env_for(shim, {"GLREPLAY_DISABLE": "1"}))
    U.check(res.returncode == 0 and res.stdout == native_cm.stdout and not res.stderr,
            "with GLREPLAY_DISABLE=1 stage 2 was loaded, or the program differs from the native run\n"
            + U.describe(res, "core_mapped, GLREPLAY_DISABLE=1") + "\nnative:\n" + native_cm.stdout)
    res = U.run(cmd, env_for(shim, {"GLREPLAY_DISABLE": "1", "LD_DEBUG": "files"}))
    U.check(res.returncode == 0 and res.stdout == native.stdout and not loads_stage2(res),
            "with GLREPLAY_DISABLE=1 the GL program loaded stage 2 or differs from the native run\n"
            + U.describe(res, "shim run, GLREPLAY_DISABLE=1"))

    with tempfile.TemporaryDirectory(prefix="glr-stages-") as d:
        alone = os.path.join(d, os.path.basename(shim))
        shutil.copy(shim, alone)
        res = U.run(cmd, env_for(alone))
        errors = [l for l in res.stderr.splitlines() if l.startswith("glreplay:")]
        U.check(res.returncode == 0 and res.stdout == native.stdout,
                "without stage 2 the GL program differs from the native run\n" + U.describe(res, "stage 1 alone"))
        U.check(len(errors) == 1 and errors[0].startswith("glreplay: error:") and STAGE2 in errors[0],
                "without stage 2: expected one error line naming %s, got %s" % (STAGE2, errors))
        res = U.run([true], env_for(alone))
        U.check(res.returncode == 0 and not res.stderr, U.describe(res, "true with stage 1 alone"))
    print("stage 2: not loaded by true, loaded at start by a program linking GL, never with GLREPLAY_DISABLE=1;"
          " stage 1 alone passes calls through")


if __name__ == "__main__":
    U.main_guard(main)
