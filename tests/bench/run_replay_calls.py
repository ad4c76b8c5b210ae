#!/usr/bin/env python3
"""Replay of a call-heavy frame against glretrace, side by side (issue 17 §4; docs/BENCHMARKS.md,
"Replay of call-heavy frames").

One frame of tests/bench/record_cost (--calls cheap state calls: glUniform4f, glBindTexture,
glBindVertexArray in turn, one draw, a swap) is recorded twice: by the shim (frame 1 of 3, a .glcap)
and by `apitrace trace --api egl` (trimmed with `apitrace trim --frames=0-1`, so that its last
frame is that frame: glretrace's --loop repeats the last frame). Then, in interleaved rounds:

  glreplay replay F.glcap --loop N --benchmark            (EGL surfaceless, headless)
  eglretrace --headless -b --loop=N T.trace               (WAFFLE_PLATFORM=surfaceless_egl)

each with a small and a large N. The CPU time of a repeated pass is the difference between the two
runs' CPU times (user + system of the process and its threads, from wait4) divided by the
difference of the pass counts, so start-up, loading and the first frames cancel out; it is given
per call (ns) and as glreplay / glretrace. The program's own frame is measured in the same rounds:
record_cost's CPU time of its frame loop on its thread (loop_cpu_ns) per frame and call, natively.

--callgrind counts instructions instead of CPU time (valgrind --tool=callgrind, every thread,
LP_NUM_THREADS=0 so that llvmpipe runs on the replayer's thread, MESA_SHADER_CACHE_DISABLE=true):
the same differences, exact and independent of the machine's load, one round.

Nothing is asserted about timings; the script fails only when a tool is missing (exit 77 for
apitrace/eglretrace, so meson can skip) or a run fails or prints malformed output.

Usage: run_replay_calls.py --glreplay build/ui_ipc/cli/glreplay --shim build/shim/libglreplay.so
           --program build/tests/bench/record_cost [--calls 60000] [--loops 2,20] [--rounds 5]
           [--label NAME=GLREPLAY ...]   (more glreplay binaries in the same rounds, e.g. a base)
           [--callgrind]                 (instructions instead of CPU time)
"""
import argparse
import os
import re
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile

from bench_labels import parse_labels

RESULT = re.compile(r"^record_cost_result .*loop_cpu_ns=([0-9]+)$", re.M)
COLLECTED = re.compile(r"Collected : ([0-9]+)")
PASSES = re.compile(r"^replay: ([0-9]+) passes; per pass ([0-9]+) calls: ([0-9]+) ok", re.M)


def fail(msg, code=1):
    print("run_replay_calls: " + msg, file=sys.stderr)
    sys.exit(code)


def timed(cmd, env=None, callgrind=False):
    """(CPU seconds of the child and its threads, or with callgrind its instructions; stdout+stderr);
    fails on a non-zero exit."""
    if callgrind:
        env = dict(env or os.environ, LP_NUM_THREADS="0", MESA_SHADER_CACHE_DISABLE="true")
        cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + cmd
    r0 = resource.getrusage(resource.RUSAGE_CHILDREN)
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, universal_newlines=True,
                       errors="replace", env=env, timeout=900)
    r1 = resource.getrusage(resource.RUSAGE_CHILDREN)
    if p.returncode != 0:
        fail(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stdout[-2000:]}")
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    if callgrind:
        m = COLLECTED.findall(p.stdout)
        if not m:
            fail(f"valgrind printed no instruction count for {' '.join(cmd)}")
        return float(sum(int(x) for x in m)), p.stdout
    return cpu, p.stdout


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--program", required=True, help="tests/bench/record_cost")
    ap.add_argument("--calls", type=int, default=60000)
    ap.add_argument("--loops", default="2,20", help="small,large pass counts")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--callgrind", action="store_true", help="instructions (valgrind) instead of CPU time")
    ap.add_argument("--label", action="append", default=[], help="NAME=GLREPLAY, compared in the same rounds")
    a = ap.parse_args()
    apitrace, eglretrace = shutil.which("apitrace"), shutil.which("eglretrace")
    if not apitrace or not eglretrace:
        fail("apitrace/eglretrace not installed: skipped", 77)
    if a.callgrind and not shutil.which("valgrind"):
        fail("valgrind not installed: skipped", 77)
    if a.callgrind:
        a.rounds = 1
    try:
        lo, hi = (int(x) for x in a.loops.split(","))
    except ValueError:
        fail("--loops wants two pass counts, e.g. 2,20")
    if not 1 <= lo < hi:
        fail("--loops wants 1 <= small < large")
    glreplays = parse_labels(("glreplay", a.glreplay), a.label, "GLREPLAY", fail)

    tmp = tempfile.mkdtemp(prefix="replay_calls_")
    try:
        prog = [a.program, "--frames", "3", "--calls", str(a.calls)]
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="1", GLREPLAY_CAPTURE_OUT=os.path.join(tmp, "f1.glcap"),
                   LD_PRELOAD=a.shim)
        timed(prog, env)
        cap = os.path.join(tmp, "f1.glcap")
        if not os.path.exists(cap):
            fail("the shim wrote no capture")
        full, trim = os.path.join(tmp, "all.trace"), os.path.join(tmp, "f01.trace")
        timed([apitrace, "trace", "--api", "egl", "-o", full] + prog)
        timed([apitrace, "trim", "--frames=0-1", "-o", trim, full])
        renv = dict(os.environ, WAFFLE_PLATFORM="surfaceless_egl")

        cfgs = [(name, lambda n, g=g: [g, "replay", cap, "--loop", str(n), "--benchmark"], None)
                for name, g in glreplays]
        cfgs.append(("glretrace", lambda n: [eglretrace, "--headless", "-b", f"--loop={n}", trim], renv))
        per_pass = {name: [] for name, _, _ in cfgs}
        native = []
        unit = "M instr" if a.callgrind else "ms"
        for rnd in range(a.rounds):
            if a.callgrind:  # the program's own frames 1-2 against 1: one frame's instructions
                f1, _ = timed([a.program, "--frames", "1", "--calls", str(a.calls)], callgrind=True)
                f3, _ = timed(prog, callgrind=True)
                native.append((f3 - f1) / 2)
            else:
                _, out = timed(prog)
                m = RESULT.search(out)
                if not m:
                    fail("record_cost printed no result line:\n" + out[-1000:])
                native.append(int(m.group(1)) / 3 * 1e-9)  # CPU s per frame on the program's thread
            for name, cmd, cenv in cfgs:
                cpu = {}
                for n in (lo, hi):
                    cpu[n], out = timed(cmd(n), cenv, a.callgrind)
                    if name != "glretrace":
                        m = PASSES.search(out)
                        if not m or int(m.group(1)) != n or m.group(2) != m.group(3):
                            fail(f"{name}: replay did not report {n} clean passes:\n{out[-1000:]}")
                    elif "Rendered" not in out:
                        fail("eglretrace printed no 'Rendered N frames' line:\n" + out[-1000:])
                per_pass[name].append((cpu[hi] - cpu[lo]) / (hi - lo))
            print(f"round {rnd + 1}/{a.rounds}: " + ", ".join(
                f"{k} {v[-1] * (1e-6 if a.callgrind else 1e3):.2f} {unit}" for k, v in per_pass.items()),
                flush=True)

        calls = a.calls + 4
        if a.callgrind:
            print(f"\none frame of record_cost: {calls} calls; instructions per repeated pass = (--loop {hi} - "
                  f"--loop {lo}) / {hi - lo} (callgrind, every thread, LP_NUM_THREADS=0)")
            print("| replayer | M instructions per pass | instructions per call | / glretrace |")
            print("|---|---|---|---|")
            ref = per_pass["glretrace"][0]
            for name, v in per_pass.items():
                print(f"| {name} | {v[0] * 1e-6:.1f} | {v[0] / calls:.0f} | {v[0] / ref:.2f}x |")
            nat = native[0]
            print(f"| the program's own frame (natively, frames 1-2 against 1) | {nat * 1e-6:.1f} | "
                  f"{nat / calls:.0f} | {nat / ref:.2f}x |")
            return
        print(f"\none frame of record_cost: {calls} calls; CPU per repeated pass = (CPU of --loop {hi} - "
              f"CPU of --loop {lo}) / {hi - lo}; medians of {a.rounds} interleaved rounds; "
              f"load {os.getloadavg()[0]:.1f}")
        print("| replayer | CPU ms per pass (median, range) | ns per call | / glretrace |")
        print("|---|---|---|---|")
        ref = statistics.median(per_pass["glretrace"])
        for name, v in per_pass.items():
            med = statistics.median(v)
            print(f"| {name} | {med * 1e3:.2f} ({min(v) * 1e3:.2f}-{max(v) * 1e3:.2f}) | "
                  f"{med / calls * 1e9:.1f} | {med / ref:.2f}x |")
        nat = statistics.median(native)
        print(f"| the program's own frame (its thread, natively) | {nat * 1e3:.2f} | {nat / calls * 1e9:.1f} | "
              f"{nat / ref:.2f}x |")
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
