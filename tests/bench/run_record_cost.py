#!/usr/bin/env python3
"""What recording costs the program, everything included (issue 17 §3): runs record_cost natively,
under the shim idle, under the shim recording and under `apitrace trace`, in interleaved rounds,
and prints medians per configuration:

  cpu_ms      user+system CPU of the whole process (every thread, the capture's writer thread and
              the file write at the capture's end or at exit included), from wait4()
  wall_ms     the process from start to exit (exit waits for the capture file)
  loop_ms     the frame loop on the program's thread
  loop_cpu_ms the CPU time of the program's thread in that loop (without the capture writer thread)
  max_frame   the slowest frame on the program's thread (the capture's last swap shows here when
              its file is written on the program's thread)
  median_frame
  file_kb     the capture or trace file
  rss_mb      the process's peak resident memory (wait4's ru_maxrss: a long capture whose stream
              stays in memory shows here)
and, against native, the CPU added per recorded call (cpu difference / recorded calls), the same
for the program's thread alone (loop_cpu difference / recorded calls) and the file bytes per
recorded frame.

The shim records frames 0..F-3 (the capture ends two frames before the program does, so its end is
inside the timed loop); apitrace traces every frame. Nothing is asserted about timings; the script
fails only when a run fails or prints malformed output.

Usage: run_record_cost.py --program build/tests/bench/record_cost --shim build/shim/libglreplay.so
           [--frames 30] [--calls 20000] [--rounds 3] [--apitrace PATH|none] [--images ends|all|none]
           [--label NAME=SHIM ...]   (more shims to compare, e.g. an older build)
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
import time

from bench_labels import parse_labels

RESULT = re.compile(r"^record_cost_result loop_ns=([0-9]+) max_frame_ns=([0-9]+) median_frame_ns=([0-9]+) "
                    r"max_frame=([0-9]+) loop_cpu_ns=([0-9]+)$", re.M)
HEAD = re.compile(r"^record_cost frames=([0-9]+) calls_per_frame=([0-9]+) ", re.M)


def fail(msg):
    print("run_record_cost: error: " + msg, file=sys.stderr)
    sys.exit(1)


def run(cmd, env, out_file):
    """(exit status, stdout, stderr, wall seconds, peak RSS in KiB) of one run."""
    with tempfile.TemporaryFile() as fo, tempfile.TemporaryFile() as fe:
        t0 = time.monotonic()
        p = subprocess.Popen(cmd, env=env, stdout=fo, stderr=fe)
        _, status, ru = os.wait4(p.pid, 0)
        wall = time.monotonic() - t0
        p.returncode = os.waitstatus_to_exitcode(status)
        fo.seek(0)
        fe.seek(0)
        return (p.returncode, fo.read().decode(errors="replace"), fe.read().decode(errors="replace"), wall,
                ru.ru_maxrss)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--program", required=True)
    ap.add_argument("--shim", required=True)
    ap.add_argument("--frames", type=int, default=30)
    ap.add_argument("--calls", type=int, default=20000)
    ap.add_argument("--size", default="640x360")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--apitrace", default=shutil.which("apitrace") or "none")
    ap.add_argument("--images", default="ends")
    ap.add_argument("--glreplay", help="verify each shim capture with `glreplay replay --verify` (not timed)")
    ap.add_argument("--label", action="append", default=[], help="NAME=SHIM: another shim to record with")
    a = ap.parse_args()
    if a.frames < 4:
        fail("--frames must be at least 4")
    tmp = tempfile.mkdtemp(prefix="record_cost.")
    base = dict(os.environ)
    for k in list(base):
        if k.startswith("GLREPLAY_"):
            del base[k]
    shims = parse_labels(("shim", a.shim), a.label, "SHIM", fail)
    rec_frames = a.frames - 2
    configs = [("native", None, {}, None)]
    for name, path in shims:
        if name == "shim":
            configs.append(("shim idle", path, {}, None))
        configs.append((f"{name} recording", path, {"GLREPLAY_CAPTURE_FRAMES": f"0-{rec_frames - 1}",
                                                     "GLREPLAY_CAPTURE_IMAGES": a.images}, "glcap"))
    if a.apitrace != "none":
        configs.append(("apitrace trace", None, {}, "trace"))
    prog = [a.program, "--frames", str(a.frames), "--calls", str(a.calls), "--size", a.size]
    results = {c[0]: [] for c in configs}
    calls_per_frame = None
    for rnd in range(a.rounds):
        for name, shim, extra, kind in configs:
            env = dict(base)
            env.update(extra)
            out_file = os.path.join(tmp, f"out.{kind}") if kind else None
            if out_file and os.path.exists(out_file):
                os.unlink(out_file)
            cmd = list(prog)
            if shim:
                env["LD_PRELOAD"] = shim
                env["GLREPLAY_CAPTURE_OUT"] = out_file or ""
            if kind == "trace":
                cmd = [a.apitrace, "trace", "-o", out_file] + prog
            # CPU of the reaped child and its children (apitrace's wrapper), microsecond resolution.
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            rc, out, err, wall, rss = run(cmd, env, out_file)
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            if rc != 0:
                fail(f"{name}: exit {rc}: {err.strip()[-500:]}")
            m, h = RESULT.search(out), HEAD.search(out)
            if not m or not h:
                fail(f"{name}: malformed output: {out[-300:]!r}")
            calls_per_frame = int(h.group(2))
            cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
            size = os.path.getsize(out_file) if out_file and os.path.exists(out_file) else 0
            if kind and size == 0:
                fail(f"{name}: no output file was written")
            if kind == "glcap" and a.glreplay and rnd == 0:
                v = subprocess.run([a.glreplay, "replay", out_file, "--verify"], env=base, capture_output=True, text=True)
                if v.returncode != 0 or f"{rec_frames} frame images checked, 0 differ" not in v.stdout:
                    fail(f"{name}: the capture does not verify: {v.stdout.strip()[-400:]} {v.stderr.strip()[-300:]}")
            results[name].append({"cpu_ms": cpu * 1e3, "wall_ms": wall * 1e3, "loop_ms": int(m.group(1)) / 1e6,
                                  "loop_cpu_ms": int(m.group(5)) / 1e6,
                                  "max_frame_ms": int(m.group(2)) / 1e6, "median_frame_ms": int(m.group(3)) / 1e6,
                                  "file_kb": size / 1024.0, "rss_mb": rss / 1024.0})
        print(f"round {rnd + 1}/{a.rounds} done", file=sys.stderr)
    cols = ["cpu_ms", "wall_ms", "loop_ms", "loop_cpu_ms", "max_frame_ms", "median_frame_ms", "file_kb", "rss_mb"]
    med = {n: {c: statistics.median(r[c] for r in rs) for c in cols} for n, rs in results.items()}
    print(f"record_cost: {a.frames} frames of {calls_per_frame} calls at {a.size}, {a.rounds} rounds (medians); "
          f"the shim records frames 0-{rec_frames - 1}, apitrace every frame; GLREPLAY_CAPTURE_IMAGES={a.images}")
    print(f"| configuration | {' | '.join(cols)} | CPU ns added per recorded call | program thread CPU ns added "
          f"per recorded call | file bytes per frame |")
    print("|---|" + "---|" * (len(cols) + 3))
    nat = med["native"]
    for name, _, _, kind in configs:
        m = med[name]
        frames = rec_frames if kind == "glcap" else a.frames
        added = (m["cpu_ms"] - nat["cpu_ms"]) * 1e6 / (frames * calls_per_frame) if kind else float("nan")
        thread = (m["loop_cpu_ms"] - nat["loop_cpu_ms"]) * 1e6 / (frames * calls_per_frame) if kind else float("nan")
        per_frame = m["file_kb"] * 1024 / frames if kind else float("nan")
        cells = " | ".join(f"{m[c]:.1f}" for c in cols)
        print(f"| {name} | {cells} | {added:.1f} | {thread:.1f} | {per_frame:.0f} |")
    shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    main()
