#!/usr/bin/env python3
"""End-to-end checks of `glreplay profile` (gpu_model/telemetry/profile) on a real capture.

  check_profile.py --glreplay G --samples DIR cli NAME
  check_profile.py --glreplay G bad-input
  check_profile.py --glreplay G glmark2 SCENE
  check_profile.py --glreplay G --samples DIR compute NAME

cli: NAME (a sample) is captured with `glreplay capture` (frames 1-2, 160x90), then profiled with
every method; the Chrome trace must be valid JSON whose traceEvents hold one complete slice per
draw of the frame (as `glreplay profile --json` counts them) with non-decreasing timestamps,
counter events, PC-sample instants with line and reason; the report must show the per-draw table,
the top lines with stall reasons and the counters; the SVG must be a drawing with the main
counters; `--json` must be strict JSON with the same draws, and two runs must give the same trace.
glmark2: glmark2's SCENE is captured at a later frame (so the capture starts from a snapshot) and
profiled with all four methods; their invariants are checked on the --json document: every
counter's per-context values sum to the global channel, PC samples + dropped = total with the
per-line samples adding up to the samples, exact edge counts conserve flow (entries = exits per
shader), trace buffers exactly full, and the Chrome trace is checked as above.
compute: NAME (a sample with compute dispatches) is captured and profiled with the counters: every
dispatch is a slice ("dispatch" in --json, the Chrome trace and the report's per-dispatch table) of
its context and program, no compute line is charged to context 0 / program 0, and every counter's
per-context values sum to the global channel.
bad-input: bad arguments exit 2 with a usage line; a missing or corrupt capture gives one error
line (exit 2). Needs DISPLAY (the e2e suite runs under Xvfb) for the capture."""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import xml.dom.minidom


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def run(cmd, timeout=300):
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=timeout)


def capture(args, tmp, name):
    out = os.path.join(tmp, name + ".glcap")
    exe = os.path.join(args.samples, name)
    p = run([args.glreplay, "capture", "--frame", "1", "--count", "2", "--out", out, "--",
             exe, "--frames", "4", "--size", "160x90"], timeout=120)
    if p.returncode != 0 or not os.path.exists(out):
        fail("glreplay capture of %s failed (rc %d): %s" % (name, p.returncode, p.stderr.decode()[-600:]))
    return out


def check_trace(path, n_draws):
    try:
        with open(path) as f:
            t = json.load(f)
    except ValueError as e:
        fail("the trace is not valid JSON: %s" % e)
    ev = t.get("traceEvents")
    if not isinstance(ev, list) or not ev:
        fail("the trace has no traceEvents")
    if "GHz" not in t.get("metadata", {}).get("clock", ""):
        fail("the trace metadata does not state the nominal clock")
    for e in ev:
        if e.get("ph") not in ("X", "C", "i", "M") or "pid" not in e:
            fail("malformed trace event %r" % e)
        if e["ph"] != "M" and not isinstance(e.get("ts"), (int, float)):
            fail("trace event without a numeric ts: %r" % e)
    draws = [e for e in ev if e["ph"] == "X" and e.get("cat") == "draw"]
    if len(draws) != n_draws:
        fail("%d draw slices in the trace, the frame has %d draws" % (len(draws), n_draws))
    if [e["args"]["draw"] for e in draws] != list(range(n_draws)):
        fail("the draw slices are not draws 0..%d in order" % (n_draws - 1))
    ts = [e["ts"] for e in draws]
    if any(b < a for a, b in zip(ts, ts[1:])):
        fail("draw slice timestamps decrease: %r" % ts[:20])
    for a, b in zip(draws, draws[1:]):
        if a["ts"] + a["dur"] > b["ts"] + 1e-6:
            fail("draw slices overlap: %s and %s" % (a["name"], b["name"]))
    if not any(e["dur"] > 0 for e in draws):
        fail("no draw slice has a duration")
    counters = {e["name"] for e in ev if e["ph"] == "C"}
    if not any("warp instructions" in n for n in counters):
        fail("no warp-instruction counter track: %s" % sorted(counters))
    if not any(n.startswith("inst_issued") for n in counters):
        fail("no counter track from the counters method: %s" % sorted(counters))
    # One track per GL context: each context's draws on its own tid, named; with several contexts
    # the main counters are also split per context.
    ctxs = sorted({e["args"]["context"] for e in draws})
    names = {e["tid"]: e["args"]["name"] for e in ev if e["ph"] == "M" and e["name"] == "thread_name"}
    for c in ctxs:
        if names.get(c) != "GL context %d" % c or any(e["tid"] != e["args"]["context"] for e in draws):
            fail("context %d has no track of its own" % c)
    if len(ctxs) > 1 and not any(n.startswith("ctx %d: " % ctxs[-1]) for n in counters):
        fail("several contexts but no per-context counter tracks")
    samples = [e for e in ev if e["ph"] == "i" and e.get("cat") == "pc_sample"]
    if not samples:
        fail("no PC-sample instants in the trace")
    for e in samples[:50]:
        if "line" not in e["args"] or "reason" not in e["args"]:
            fail("a PC-sample instant lacks line or reason: %r" % e)
    if not any(e["args"]["line"] > 0 for e in samples):
        fail("no PC sample has a source line")
    print("trace: %d events, %d draw slices on %d context tracks, %d counter tracks, %d PC-sample instants" %
          (len(ev), len(draws), len(ctxs), len(counters), len(samples)))
    return t


def check_cli(args):
    with tempfile.TemporaryDirectory() as tmp:
        cap = capture(args, tmp, args.name)
        p = run([args.glreplay, "profile", cap, "--json", "--counters", "--pc-sampling", "256"])
        if p.returncode != 0:
            fail("glreplay profile --json exited %d: %s" % (p.returncode, p.stderr.decode()[-600:]))
        try:
            doc = json.loads(p.stdout)
        except ValueError as e:
            fail("glreplay profile --json printed invalid JSON (%s)" % e)
        n_draws = doc["totals"]["draws"]
        if n_draws == 0:
            fail("the capture has no draws")
        if len([s for s in doc["slices"] if s["kind"] == "draw"]) != n_draws:
            fail("--json: slices do not match the draw count")
        if set(doc["methods"]) != {"counters", "pcsamp"}:
            fail("--json: methods %r, expected counters and pcsamp" % doc["methods"])
        if not any(l["samples"] > 0 for l in doc["lines"]):
            fail("--json: no line has PC samples")

        trace = os.path.join(tmp, "trace.json")
        svg = os.path.join(tmp, "plot.svg")
        dot = os.path.join(tmp, "cfg.dot")
        tbuf = os.path.join(tmp, "trace.gmtb")
        cmd = [args.glreplay, "profile", cap, "--out", trace, "--counters", "--pc-sampling", "256",
               "--annotate", "--edges", "64", "--edges-exact", "--dot", dot, "--trace-buffers", "bb,tex",
               "--trace-out", tbuf, "--plot", svg]
        p = run(cmd)
        report = p.stdout.decode()
        if p.returncode != 0:
            fail("glreplay profile exited %d: %s" % (p.returncode, p.stderr.decode()[-600:]))
        print(report)
        for must in ("per draw:", "top source lines", "samples", "counters (per GL context and global)",
                     "per-context blocks sum to the global channel: yes", "edge profiles", "trace buffers",
                     "annotated source"):
            if must not in report:
                fail("the report lacks %r" % must)
        rows = [l for l in report.splitlines() if l.strip() and l.split()[0].isdigit() and "  " in l]
        if len(rows) < n_draws:
            fail("the per-draw table has %d rows for %d draws" % (len(rows), n_draws))
        t1 = check_trace(trace, n_draws)
        with open(dot) as f:
            if not f.read().startswith("digraph"):
                fail("--dot did not write a DOT graph")
        if not os.path.exists(tbuf) or os.path.getsize(tbuf) == 0:
            fail("--trace-out wrote nothing")

        try:
            dom = xml.dom.minidom.parse(svg)
        except Exception as e:  # noqa: BLE001 - any parse error is a failure
            fail("the plot is not well-formed SVG: %s" % e)
        root = dom.documentElement
        if root.tagName != "svg" or not root.getElementsByTagName("polyline"):
            fail("the plot has no svg root or no polyline")
        text = open(svg).read()
        for name in ("warp instructions", "inst_issued", "warps_resident"):
            if name not in text:
                fail("the plot lacks the %r panel" % name)

        # Deterministic: the same run gives the same trace.
        trace2 = os.path.join(tmp, "trace2.json")
        p = run([a if a != trace else trace2 for a in cmd if a not in ("--plot", svg)])
        if p.returncode != 0:
            fail("second run exited %d" % p.returncode)
        with open(trace2) as f:
            if json.load(f) != t1:
                fail("two runs of the same profile gave different traces")
        print("PASS")


def check_invariants(doc):
    c = doc["counters"]
    for name, total in c["global"]["values"].items():
        per_ctx = sum(x["values"].get(name, 0) for x in c["contexts"])
        if per_ctx != total:
            fail("counter %s: contexts sum to %d, the global channel has %d" % (name, per_ctx, total))
    if not c["global"]["values"].get("inst_issued"):
        fail("the counters saw no instruction")
    if c["global"]["values"]["inst_issued"] != doc["totals"].get("warp_instructions", c["global"]["values"]["inst_issued"]):
        fail("inst_issued differs from the frame's warp instructions")
    ps = doc["pcsamp"]["stats"]
    if ps["samples"] + ps["dropped"] != ps["total"] or ps["samples"] == 0:
        fail("PC samples %d + dropped %d != total %d" % (ps["samples"], ps["dropped"], ps["total"]))
    if sum(ps["by_state"].values()) != ps["samples"]:
        fail("PC samples by state do not add up")
    if sum(l["samples"] for l in doc["lines"]) != ps["samples"]:
        fail("per-line PC samples (%d) do not add up to %d" % (sum(l["samples"] for l in doc["lines"]),
                                                              ps["samples"]))
    for prog in doc["edges"]["programs"]:
        ins = sum(e["exact"] for e in prog["edges"] if e["kind"] == "entry")
        outs = sum(e["exact"] for e in prog["edges"] if e["kind"] == "exit")
        if ins != outs or ins == 0:
            fail("edge profile of %s: %d entries, %d exits" % (prog["path"], ins, outs))
        for b in prog["blocks"]:
            into = sum(e["exact"] for e in prog["edges"] if e["to"] == b["id"])
            out = sum(e["exact"] for e in prog["edges"] if e["from"] == b["id"])
            if into != out:
                fail("edge profile of %s: block %d has %d in, %d out" % (prog["path"], b["id"], into, out))
    tb = doc["tracebuf"]
    for name, t in tb["types"].items():
        if t["cursor"] != t["bytes"]:
            fail("trace buffer %s: %d bytes written of %d (not exactly full)" % (name, t["cursor"], t["bytes"]))
    if tb["merged_records"] != tb["total_records"] or tb["total_records"] == 0:
        fail("trace buffers: %d records merged of %d" % (tb["merged_records"], tb["total_records"]))
    print("invariants: %d counters sum per context to global; %d PC samples (%d dropped); %d shaders' "
          "edges conserve flow; %d trace records in exactly full buffers" %
          (len(c["global"]["values"]), ps["samples"], ps["dropped"], len(doc["edges"]["programs"]),
           tb["total_records"]))


def check_glmark2(args):
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "g.glcap")
        for _ in range(3):  # a frame of the scene may hold no draw (scene set-up): try a later one
            p = run([args.glreplay, "capture", "--frame", "4", "--count", "1", "--out", cap, "--", "glmark2",
                     "--size", "160x120", "-b", args.name + ":nframes=8"], timeout=120)
            if p.returncode != 0:
                fail("glreplay capture of glmark2 %s failed: %s" % (args.name, p.stderr.decode()[-600:]))
            j = run([args.glreplay, "profile", cap, "--json", "--counters", "--pc-sampling", "64", "--edges", "16",
                     "--edges-exact", "--trace-buffers", "all"])
            if j.returncode != 0:
                fail("glreplay profile --json exited %d: %s" % (j.returncode, j.stderr.decode()[-600:]))
            doc = json.loads(j.stdout)
            if doc["totals"]["draws"]:
                break
        else:
            print("SKIP: the captured glmark2 frames hold no draw")
            sys.exit(77)
        if set(doc["methods"]) != {"counters", "pcsamp", "edges", "tracebuf"}:
            fail("methods %r" % doc["methods"])
        check_invariants(doc)
        trace = os.path.join(tmp, "trace.json")
        p = run([args.glreplay, "profile", cap, "--out", trace, "--counters", "--pc-sampling", "64"])
        if p.returncode != 0:
            fail("glreplay profile --out exited %d" % p.returncode)
        check_trace(trace, doc["totals"]["draws"])
        print("PASS")


def check_compute(args):
    with tempfile.TemporaryDirectory() as tmp:
        cap = capture(args, tmp, args.name)
        p = run([args.glreplay, "profile", cap, "--json", "--counters"])
        if p.returncode != 0:
            fail("glreplay profile --json exited %d: %s" % (p.returncode, p.stderr.decode()[-600:]))
        doc = json.loads(p.stdout)
        n = doc["totals"].get("dispatches", 0)
        disp = [s for s in doc["slices"] if s["kind"] == "dispatch"]
        if n == 0 or len(disp) != n:
            fail("--json: %d dispatch slices for %d dispatches" % (len(disp), n))
        if [s["index"] for s in disp] != list(range(n)):
            fail("--json: the dispatch slices are not dispatches 0..%d in order" % (n - 1))
        if any(s["ctx"] == 0 or s["program"] == 0 for s in disp):
            fail("--json: a dispatch slice has no context or program")
        if not any(s["cycles"] > 0 and s["instructions"] > 0 for s in disp):
            fail("--json: no dispatch took cycles")
        cs = [l for l in doc["lines"] if l["stage"] == "CS"]
        if not cs or any(l["ctx"] == 0 or l["program"] == 0 for l in cs):
            fail("--json: compute lines missing or charged to context 0 / program 0")
        c = doc["counters"]
        for name, total in c["global"]["values"].items():
            per_ctx = sum(x["values"].get(name, 0) for x in c["contexts"])
            if per_ctx != total:
                fail("counter %s: contexts sum to %d, the global channel has %d" % (name, per_ctx, total))
        trace = os.path.join(tmp, "trace.json")
        p = run([args.glreplay, "profile", cap, "--out", trace, "--counters", "--pc-sampling", "256"])
        report = p.stdout.decode()
        if p.returncode != 0 or "per compute dispatch:" not in report:
            fail("glreplay profile exited %d or its report lacks the per-dispatch table" % p.returncode)
        if "per-context blocks sum to the global channel: yes" not in report:
            fail("the report's counters do not sum per context to the global channel")
        with open(trace) as f:
            ev = json.load(f)["traceEvents"]
        tdisp = [e for e in ev if e["ph"] == "X" and e.get("cat") == "dispatch"]
        if [e["args"]["dispatch"] for e in tdisp] != list(range(n)) or \
                any(e["tid"] != e["args"]["context"] or not e["args"]["program"] for e in tdisp):
            fail("the trace's dispatch slices do not match the dispatches")
        check_trace(trace, doc["totals"]["draws"])
        print("%d dispatch slices, %d compute lines, %d counters summing per context" %
              (n, len(cs), len(c["global"]["values"])))
        print("PASS")


def check_bad_input(args):
    with tempfile.TemporaryDirectory() as tmp:
        bad = os.path.join(tmp, "bad.glcap")
        with open(bad, "wb") as f:
            f.write(b"GLCAP\0\0\0" + b"\x01" * 40)
        cases = [
            ([], "no capture"),
            (["x.glcap"], "no --out"),
            (["x.glcap", "--out", os.path.join(tmp, "t.json"), "--pc-sampling", "3"], "P not a power of two"),
            (["x.glcap", "--out", os.path.join(tmp, "t.json"), "--edges", "0"], "B = 0"),
            (["x.glcap", "--out", os.path.join(tmp, "t.json"), "--trace-buffers", "nope"], "bad trace type"),
            (["x.glcap", "--out", os.path.join(tmp, "t.json"), "--frobnicate"], "unknown option"),
        ]
        for argv, why in cases:
            p = run([args.glreplay, "profile"] + argv, timeout=30)
            err = p.stderr.decode()
            if p.returncode != 2 or "usage: glreplay profile" not in err:
                fail("%s: expected exit 2 with a usage line, got %d: %r" % (why, p.returncode, err))
        for path, why in ((os.path.join(tmp, "missing.glcap"), "missing"), (bad, "corrupt")):
            p = run([args.glreplay, "profile", path, "--out", os.path.join(tmp, "t.json")], timeout=30)
            err = p.stderr.decode().strip()
            if p.returncode != 2 or not err or "\n" in err or p.returncode < 0:
                fail("%s capture: expected one error line and exit 2, got %d: %r" % (why, p.returncode, err))
            print("%s capture: %s" % (why, err))
        print("PASS")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--samples")
    ap.add_argument("what", choices=["cli", "bad-input", "glmark2", "compute"])
    ap.add_argument("name", nargs="?", default="lit_mesh")
    args = ap.parse_args()
    if args.what == "cli":
        check_cli(args)
    elif args.what == "glmark2":
        check_glmark2(args)
    elif args.what == "compute":
        check_compute(args)
    else:
        check_bad_input(args)


if __name__ == "__main__":
    main()
