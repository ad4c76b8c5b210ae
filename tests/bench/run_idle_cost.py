#!/usr/bin/env python3
"""Idle cost of the glreplay shim: runs the idle_cost program natively, under the shim and under
`apitrace trace` in interleaved rounds, and prints the median ns/call of each configuration, the ns
each interposer adds per call and the ratio to native.

Interleaving (native, shim, apitrace, shim with GLREPLAY_LOG=info, native, ...) spreads slow phases of
a shared machine over every configuration instead of one. Nothing is built here; nothing is asserted
about timings. The script fails (exit 1) only when a run fails, prints malformed output, or the call
path is not the one the configuration claims (e.g. the shim was not loaded).

Usage: run_idle_cost.py --program build/tests/bench/idle_cost --shim build/shim/libglreplay.so
                        [--calls 5] [--reps 3] [--rounds 5] [--apitrace PATH|none] [--no-info]
"""
import argparse
import os
import re
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile

CALLS = ["glUniform4f", "glBindTexture", "glBindVertexArray", "mixed"]
# ns_per_call: best whole repetition; best_slice_ns: fastest 10k-call slice (see idle_cost.c).
METRICS = ("ns_per_call", "best_slice_ns")
NUM = re.compile(r"^[0-9]+(\.[0-9]+)?$")
SIGNED = re.compile(r"^-?[0-9]+(\.[0-9]+)?$")
# In-process comparison of the bound entry point with the real one (see idle_cost_paired.c).
PAIRED_CALLS = ["glUniform4f", "glBindTexture", "glBindVertexArray"]
PAIRED_METRICS = ("best_bound_ns", "best_real_ns", "added_ns", "median_pair_added_ns")


def fail(msg):
    print("run_idle_cost: error: " + msg, file=sys.stderr)
    sys.exit(1)


def parse_output(text, label):
    """The program's key=value lines -> (facts dict, {call: {metric: ns}}). Fails on bad format."""
    facts, results, paired, done = {}, {}, {}, False
    for line in text.splitlines():
        if not line.startswith("idle_cost"):
            continue  # interposers print their own banners
        try:
            tokens = shlex.split(line)
        except ValueError as e:
            fail(f"{label}: unparsable line {line!r}: {e}")
        kind, pairs = tokens[0], tokens[1:]
        kv = {}
        for p in pairs:
            if "=" not in p:
                fail(f"{label}: token without '=' in {line!r}")
            k, v = p.split("=", 1)
            kv[k] = v
        if kind == "idle_cost":
            facts.update(kv)
        elif kind == "idle_cost_result":
            for key in ("call", "calls", "reps") + METRICS:
                if key not in kv:
                    fail(f"{label}: result line lacks {key}: {line!r}")
            for m in METRICS:
                if not NUM.match(kv[m]) or float(kv[m]) <= 0:
                    fail(f"{label}: {m} is not a positive number: {line!r}")
            if not kv["calls"].isdigit() or int(kv["calls"]) <= 0:
                fail(f"{label}: calls is not a positive integer: {line!r}")
            results[kv["call"]] = {m: float(kv[m]) for m in METRICS}
        elif kind == "idle_cost_paired":
            for key in ("call", "bound", "real") + PAIRED_METRICS:
                if key not in kv:
                    fail(f"{label}: paired line lacks {key}: {line!r}")
            for m in PAIRED_METRICS:
                if not SIGNED.match(kv[m]):
                    fail(f"{label}: {m} is not a number: {line!r}")
            paired[kv["call"]] = {m: float(kv[m]) for m in PAIRED_METRICS}
            paired[kv["call"]]["bound"] = kv["bound"]
        elif kind == "idle_cost_done":
            done = True
        else:
            fail(f"{label}: unknown line kind {kind!r}")
    if not done:
        fail(f"{label}: no idle_cost_done line (the program stopped early)")
    missing = [c for c in CALLS if c not in results]
    if missing:
        fail(f"{label}: no result for {', '.join(missing)}")
    missing = [c for c in PAIRED_CALLS if c not in paired]
    if missing:
        fail(f"{label}: no paired result for {', '.join(missing)}")
    for key in ("renderer", "version", "library"):
        if key not in facts:
            fail(f"{label}: no {key}= fact line")
    return facts, results, paired


def clean_env(extra):
    env = dict(os.environ)
    # Native must be native and the shim idle: drop anything that would preload or wake it.
    for k in ("LD_PRELOAD", "GLREPLAY_LOG", "GLREPLAY_DISABLE", "GLREPLAY_CAPTURE_FRAMES",
              "GLREPLAY_CAPTURE_OUT"):
        env.pop(k, None)
    env["EGL_PLATFORM"] = "surfaceless"
    env.update(extra)
    return env


def run_config(cfg, args, tracedir, round_no):
    prog = [args.program, "--calls", str(args.calls), "--reps", str(args.reps)]
    label = f"{cfg} (round {round_no})"
    trace = None
    if cfg == "native":
        cmd, env = prog, clean_env({})
    elif cfg == "shim":
        cmd, env = prog, clean_env({"LD_PRELOAD": args.shim})
    elif cfg == "shim_log_info":
        cmd, env = prog, clean_env({"LD_PRELOAD": args.shim, "GLREPLAY_LOG": "info"})
    elif cfg == "shim_record":
        # A capture from frame 0: the program never swaps, so every call of the run is recorded.
        trace = os.path.join(tracedir, f"idle_cost_{round_no}.glcap")
        cmd, env = prog, clean_env({"LD_PRELOAD": args.shim, "GLREPLAY_CAPTURE_FRAMES": "0",
                                    "GLREPLAY_CAPTURE_OUT": trace, "GLREPLAY_CAPTURE_MAX_MB": "8192",
                                    "GLREPLAY_LOG": "warn"})
    elif cfg == "apitrace":
        trace = os.path.join(tracedir, f"idle_cost_{round_no}.trace")
        cmd, env = [args.apitrace, "trace", "--api", "egl", "-o", trace] + prog, clean_env({})
    else:
        raise AssertionError(cfg)
    try:
        p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           universal_newlines=True, timeout=args.timeout)
    except subprocess.TimeoutExpired:
        fail(f"{label}: timed out after {args.timeout} s")
    finally:
        if trace and os.path.exists(trace):
            os.unlink(trace)  # traces of millions of calls are large
    if p.returncode != 0:
        fail(f"{label}: exit code {p.returncode}\n{p.stderr.strip()}")
    facts, results, paired = parse_output(p.stdout, label)
    check_call_path(cfg, facts["library"], p.stderr, label)
    for k in PAIRED_CALLS:
        if paired[k]["bound"] != facts["library"]:
            fail(f"{label}: paired {k} is bound to {paired[k]['bound']}, glUniform4f to {facts['library']}")
    return facts, results, paired


def check_call_path(cfg, library, stderr, label):
    """The program reports which library its glUniform4f binds to: check it matches cfg."""
    base = os.path.basename(library)
    shim_base = os.path.basename(args_global.shim)
    if cfg == "native" and base == shim_base:
        fail(f"{label}: glUniform4f binds to the shim in the native run")
    if cfg in ("shim", "shim_log_info", "shim_record") and os.path.realpath(library) != os.path.realpath(args_global.shim):
        fail(f"{label}: glUniform4f binds to {library}, not the shim {args_global.shim}")
    if cfg == "apitrace" and "trace" not in base:
        fail(f"{label}: glUniform4f binds to {library}, not an apitrace wrapper")
    if cfg == "shim_log_info":
        # The slow path counted the calls: the exit summary lists glUniform4f.
        if not re.search(r"^glreplay: info: +[0-9]+ glUniform4f$", stderr, re.M):
            fail(f"{label}: no glUniform4f count in the GLREPLAY_LOG=info summary")


def fmt(x, digits=1):
    return f"{x:.{digits}f}"


def print_table(title, metric, configs, med):
    print()
    print(title + ":")
    head = ["call", "native", "shim", "shim +ns", "shim ratio"]
    if "apitrace" in configs:
        head += ["apitrace", "apitrace +ns", "apitrace ratio"]
    if "shim_log_info" in configs:
        head += ["shim LOG=info", "LOG=info +ns"]
    if "shim_record" in configs:
        head += ["shim recording", "recording +ns"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for k in CALLS:
        n, sh = med["native"][k][metric], med["shim"][k][metric]
        row = [k, fmt(n), fmt(sh), fmt(sh - n, 2), fmt(sh / n, 3)]
        if "apitrace" in configs:
            a = med["apitrace"][k][metric]
            row += [fmt(a), fmt(a - n), fmt(a / n, 2)]
        if "shim_log_info" in configs:
            i = med["shim_log_info"][k][metric]
            row += [fmt(i), fmt(i - n, 2)]
        if "shim_record" in configs:
            i = med["shim_record"][k][metric]
            row += [fmt(i), fmt(i - n, 2)]
        print("| " + " | ".join(row) + " |")


def print_paired_table(configs, pmed):
    print()
    print("in-process, bound entry point vs the real one in alternating 10k-call slices "
          "(native: both are the same function, a control); median per-pair added ns "
          "(fastest-slice difference in brackets):")
    names = {"native": "native (control)", "shim": "shim", "apitrace": "apitrace",
             "shim_log_info": "shim LOG=info", "shim_record": "shim recording"}
    head = ["call"] + [names[c] + " +ns" for c in configs]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---" for _ in head) + "|")
    for k in PAIRED_CALLS:
        row = [k] + [f"{fmt(pmed[c][k]['median_pair_added_ns'], 2)} ({fmt(pmed[c][k]['added_ns'], 2)})"
                     for c in configs]
        print("| " + " | ".join(row) + " |")


def main():
    global args_global
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--program", required=True, help="the idle_cost executable")
    ap.add_argument("--shim", required=True, help="libglreplay.so")
    ap.add_argument("--calls", type=float, default=5.0, help="millions of calls per loop (default 5)")
    ap.add_argument("--reps", type=int, default=3, help="repetitions per loop in a run, best kept")
    ap.add_argument("--rounds", type=int, default=5, help="interleaved rounds; medians are reported")
    ap.add_argument("--apitrace", default="apitrace", help="apitrace executable, or 'none' to skip")
    ap.add_argument("--no-info", action="store_true", help="skip the GLREPLAY_LOG=info round")
    ap.add_argument("--no-record", action="store_true", help="skip the recording (capture) round")
    ap.add_argument("--timeout", type=int, default=900, help="seconds per run")
    args = ap.parse_args()
    args_global = args
    for what, path in (("--program", args.program), ("--shim", args.shim)):
        if not os.path.isfile(path):
            fail(f"{what} {path}: no such file")
    args.program = os.path.abspath(args.program)
    args.shim = os.path.abspath(args.shim)
    if not os.access(args.program, os.X_OK):
        fail(f"--program {args.program}: not executable")
    if not (args.calls > 0 and args.reps >= 1 and args.rounds >= 1):
        fail("--calls must be > 0, --reps and --rounds >= 1")

    configs = ["native", "shim"]
    apitrace = None
    if args.apitrace != "none":
        apitrace = shutil.which(args.apitrace)
        if apitrace:
            args.apitrace = apitrace
            configs.append("apitrace")
        else:
            print(f"run_idle_cost: note: {args.apitrace} not found; apitrace column skipped")
    if not args.no_info:
        configs.append("shim_log_info")
    if not args.no_record:
        configs.append("shim_record")

    samples = {c: {k: {m: [] for m in METRICS} for k in CALLS} for c in configs}
    psamples = {c: {k: {m: [] for m in PAIRED_METRICS} for k in PAIRED_CALLS} for c in configs}
    facts = {}
    tracedir = tempfile.mkdtemp(prefix="glreplay_bench_")
    try:
        for r in range(1, args.rounds + 1):
            for cfg in configs:
                f, res, pres = run_config(cfg, args, tracedir, r)
                if cfg == "native":
                    facts = f
                for k in CALLS:
                    for m in METRICS:
                        samples[cfg][k][m].append(res[k][m])
                for k in PAIRED_CALLS:
                    for m in PAIRED_METRICS:
                        psamples[cfg][k][m].append(pres[k][m])
                print(f"round {r} {cfg}: " + " ".join(
                    f"{k}={res[k]['ns_per_call']:.2f}/{res[k]['best_slice_ns']:.2f}" for k in CALLS),
                    flush=True)
    finally:
        shutil.rmtree(tracedir, ignore_errors=True)

    med = {c: {k: {m: statistics.median(samples[c][k][m]) for m in METRICS} for k in CALLS}
           for c in configs}
    print()
    print(f"renderer: {facts.get('renderer')}; GL_VERSION: {facts.get('version')}")
    print(f"{args.calls:g} M calls per loop, {args.reps} repetition(s) per run, median of {args.rounds} "
          f"interleaved round(s); ns per call")
    print_table("best whole repetition (ns_per_call)", "ns_per_call", configs, med)
    print_table("fastest 10k-call slice (best_slice_ns)", "best_slice_ns", configs, med)
    pmed = {c: {k: {m: statistics.median(psamples[c][k][m]) for m in PAIRED_METRICS}
                for k in PAIRED_CALLS} for c in configs}
    print_paired_table(configs, pmed)
    # Machine-readable summary, one line per configuration, call and metric.
    for c in configs:
        for k in CALLS:
            for m in METRICS:
                v, n = med[c][k][m], med["native"][k][m]
                print(f"idle_cost_median config={c} call={k} metric={m} ns_per_call={v:.3f} "
                      f"added_ns={v - n:.3f} ratio={v / n:.4f}")
        for k in PAIRED_CALLS:
            print(f"idle_cost_paired_median config={c} call={k} " +
                  " ".join(f"{m}={pmed[c][k][m]:.3f}" for m in PAIRED_METRICS))
    return 0


args_global = None

if __name__ == "__main__":
    sys.exit(main())
