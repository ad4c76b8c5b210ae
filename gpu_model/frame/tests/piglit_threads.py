#!/usr/bin/env python3
"""Byte-identity of the GPU model on several threads over piglit shader tests (not a meson test:
minutes; run by hand, results in docs/BENCHMARKS.md).

  piglit_threads.py --glreplay G [--match REGEX] [--threads N] [--timeout S] [--timing]
                    [--baseline G0]

For each spec/**/*.shader_test whose path under spec/ matches REGEX (default
'^glsl-1\\.10/execution/'): capture frame 0 (`glreplay capture`, shader_runner -auto -fbo on
surfaceless EGL), then `glreplay model --no-timing --json --png DIR` with --threads 1 and
--threads N (default 2); the exit status, the JSON report without its "*seconds" keys and every
PNG file must be identical (with --timing also the timing model's totals line of
`--benchmark`: texture lines and hits, warp-cycles per state). Prints one line per difference and a summary (tests compared,
captures that failed, draws threaded).

--timing runs both with the timing model (without --no-timing). --baseline G0 runs the
one-thread side with another binary G0 (e.g. the build before a timing-model change: with
--timing --threads 1 it checks that the change left every report and image as they were)."""
import argparse
import filecmp
import glob
import json
import os
import re
import subprocess
import sys
import tempfile

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"


def strip_seconds(o):
    if isinstance(o, dict):
        return {k: strip_seconds(v) for k, v in o.items() if not k.endswith("seconds")}
    if isinstance(o, list):
        return [strip_seconds(x) for x in o]
    return o


def model(glreplay, cap, png, threads, timeout, timing):
    try:
        p = subprocess.run([glreplay, "model", cap] + ([] if timing else ["--no-timing"]) +
                           ["--json", "--png", png, "--threads", str(threads)], stdout=subprocess.PIPE,
                           stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout", None
    try:
        return p.returncode, strip_seconds(json.loads(p.stdout))
    except ValueError:
        return p.returncode, None


def threaded(glreplay, cap, threads, timeout, timing):
    """Draws threaded and (timing model) its totals line, which the JSON report leaves out."""
    try:
        p = subprocess.run([glreplay, "model", cap] + ([] if timing else ["--no-timing"]) +
                           ["--benchmark", "--threads", str(threads)],
                           stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, timeout=timeout)
    except subprocess.TimeoutExpired:
        return 0, None
    m = re.search(rb"(\d+) draws threaded", p.stdout)
    t = re.search(rb"benchmark: timing model: .*", p.stdout)
    return (int(m.group(1)) if m else 0), (t.group(0) if t else None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--match", default=r"^glsl-1\.10/execution/")
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--timeout", type=int, default=60)
    ap.add_argument("--timing", action="store_true", help="with the timing model")
    ap.add_argument("--baseline", help="glreplay binary for the one-thread side")
    a = ap.parse_args()
    a.glreplay = os.path.abspath(a.glreplay)   # the steps run in per-test folders
    base = os.path.abspath(a.baseline) if a.baseline else a.glreplay
    spec = os.path.join(PIGLIT, "tests", "spec")
    tests = sorted(t for t in glob.glob(os.path.join(spec, "**", "*.shader_test"), recursive=True)
                   if re.search(a.match, os.path.relpath(t, spec)))
    env = dict(os.environ, PIGLIT_PLATFORM="surfaceless_egl", EGL_PLATFORM="surfaceless")
    compared = no_capture = differ = draws_thr = 0
    with tempfile.TemporaryDirectory() as tmp:
        for i, t in enumerate(tests):
            rel = os.path.relpath(t, spec)
            d = os.path.join(tmp, str(i))
            os.mkdir(d)
            cap = os.path.join(d, "c.glcap")
            try:
                subprocess.run([a.glreplay, "capture", "--frame", "0", "--out", cap, "--",
                                os.path.join(PIGLIT, "bin", "shader_runner"), t, "-auto", "-fbo"],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               timeout=a.timeout, cwd=d)
            except subprocess.TimeoutExpired:
                pass
            if not os.path.exists(cap):
                no_capture += 1
                continue
            r1 = model(base, cap, os.path.join(d, "p1"), 1, a.timeout, a.timing)
            rn = model(a.glreplay, cap, os.path.join(d, "pn"), a.threads, a.timeout, a.timing)
            compared += 1
            why = None
            if r1[0] != rn[0]:
                why = "exit status %s vs %s" % (r1[0], rn[0])
            elif r1[1] != rn[1]:
                why = "JSON reports differ"
            else:
                p1, pn = os.path.join(d, "p1"), os.path.join(d, "pn")
                f1 = sorted(os.listdir(p1)) if os.path.isdir(p1) else []
                fn = sorted(os.listdir(pn)) if os.path.isdir(pn) else []
                if f1 != fn:
                    why = "image sets differ"
                else:
                    _, mis, err = filecmp.cmpfiles(p1, pn, f1, shallow=False)
                    if mis or err:
                        why = "images differ: %s" % (mis + err)[:3]
            if not why:
                n, totals = threaded(a.glreplay, cap, a.threads, a.timeout, a.timing)
                # the timing model's texture lines/hits and stall totals (--benchmark)
                base_totals = threaded(base, cap, 1, a.timeout, a.timing)[1] if a.timing else None
                if base_totals is not None and base_totals != totals:   # (a baseline may lack it)
                    why = "timing model totals differ"
                else:
                    draws_thr += n
            if why:
                differ += 1
                print("DIFF %s: %s" % (rel, why), flush=True)
            subprocess.run(["rm", "-rf", d])
    print("%d tests matched, %d compared (1%s vs %d threads, %s), %d without a capture, "
          "%d differ; %d draws ran threaded in the identical ones" %
          (len(tests), compared, " (baseline)" if a.baseline else "", a.threads,
           "timing model" if a.timing else "--no-timing", no_capture, differ, draws_thr))
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
