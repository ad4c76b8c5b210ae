#!/usr/bin/env python3
"""Fidelity of glreplay's capture, replay and GPU model over Debian's piglit shader tests.

For each `spec/**/*.shader_test`: run it natively (`shader_runner T -auto -fbo`), capture frame 0
with `glreplay capture`, replay it with `--verify`, run `glreplay model --compare --json`, and put
the test in one bucket with a reason (fidelity_classify.py). Only tests llvmpipe passes natively
count. Writes a JSON with every test's bucket and reason and a Markdown table (fidelity_report.py).

Selection: every test (--all), or a seeded sample of --sample N from the sorted file list.
Baseline: with --baseline FILE the sample's size and seed come from FILE, and the run fails when a
test listed there as agreeing no longer agrees (a lost test is run once more, alone: llvmpipe's
image of atomics on one location depends on its threads' order); newly agreeing tests are printed.
--update-baseline FILE records the current set of agreeing tests (see tests/fidelity/README.md).

usage: piglit_fidelity.py --glreplay GLREPLAY (--all | --sample N [--seed S] | --baseline F |
                          --update-baseline F [--sample N --seed S]) [-j N] [--timeout S]
                          [--json OUT] [--markdown OUT] [--keep DIR] [--piglit DIR] [--platform P]
"""
import argparse
import concurrent.futures
import datetime
import glob
import json
import os
import random
import re
import shutil
import sys
import tempfile
import time

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity_classify as C  # noqa: E402
import fidelity_report as R  # noqa: E402
import fidelity_steps as S  # noqa: E402

PIGLIT = "/usr/lib/x86_64-linux-gnu/piglit"
# Headless and X-free: waffle's surfaceless EGL gives shader_runner desktop GL (core and
# compatibility) and GLES on llvmpipe with no window system; -fbo renders to an FBO as piglit's own
# runner does. glx/x11_egl need an X server and change nothing the model sees.
PLATFORM = "surfaceless_egl"

_GLSL = re.compile(r"^\s*GLSL\s+(ES\s+)?>=\s*(\d+\.\d+)", re.M)


def glsl_version(path):
    """The [require] section's GLSL version, e.g. "1.10" or "ES 3.00"; "none" without one."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
    except OSError:
        return "unreadable"
    req = re.search(r"^\[require\]\s*$(.*?)(?=^\[)", text, re.M | re.S)
    m = _GLSL.search(req.group(1) if req else "")
    return ("ES " if m.group(1) else "") + m.group(2) if m else "none"


_GL_REQ = re.compile(r"^GL\s+(?P<profile>ES|CORE|COMPAT)?\s*(?P<op><=|>=|<|=|>)\s*(?P<ver>\d\.\d)")
_GLSL_REQ = re.compile(r"^GLSL\s+(?P<es>ES)?\s*(?P<op><=|>=|<|=|>)\s*(?P<ver>\d\.\d+)")


def runner_for(path):
    """The shader_runner binary piglit itself runs a test with (framework/test/shader_test.py):
    shader_runner_gles2 or _gles3 for a GL ES requirement, shader_runner otherwise. Plain
    shader_runner skips every GLES test."""
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return "shader_runner"
    es, op, ver, in_req = False, None, None, False
    for line in lines:
        line = line.strip()
        if line == "[require]":
            in_req = True
            continue
        if not in_req:
            continue
        if line.startswith("["):
            break
        m = _GL_REQ.match(line)
        if m and ver is None:
            op, ver = m.group("op"), float(m.group("ver"))
            es = es or m.group("profile") == "ES"
            continue
        m = _GLSL_REQ.match(line)
        if m and m.group("es"):
            es = True
    if not es:
        return "shader_runner"
    if op in ("<", "<=") or (op in ("=", ">=") and ver is not None and ver < 3):
        return "shader_runner_gles2"
    return "shader_runner_gles3"


def all_tests(piglit):
    spec = os.path.join(piglit, "tests", "spec")
    return sorted(os.path.relpath(p, spec) for p in glob.glob(os.path.join(spec, "**", "*.shader_test"),
                                                                recursive=True))


def sample(tests, n, seed):
    """n tests drawn with a seeded generator from the sorted list, returned sorted."""
    return sorted(random.Random(seed).sample(tests, min(n, len(tests))))


def run_one(rel, a, work_root):
    spec = os.path.join(a.piglit, "tests", "spec")
    test = os.path.join(spec, rel)
    sr = os.path.join(a.piglit, "bin", runner_for(test))
    env = S.base_env(a.platform)
    d = tempfile.mkdtemp(prefix="t", dir=work_root)
    t0 = time.monotonic()
    res = {"test": rel, "folder": rel.split(os.sep)[0], "glsl": glsl_version(test), "runner": os.path.basename(sr)}
    steps = {}
    try:
        steps["native"] = S.native(sr, test, env, d, a.timeout)
        if steps["native"]["result"] == "pass":
            cap = os.path.join(d, "frame.glcap")
            steps["cap"] = S.capture(a.glreplay, sr, test, cap, env, d, a.timeout)
            c = steps["cap"]
            if c["written"] and c["result"] == "pass" and c["stdout"] == steps["native"]["stdout"]:
                steps["info"] = S.info(a.glreplay, cap, env, d, a.timeout)
                i = steps["info"]
                if not i["error"] and (i["draws"] or i["immediate"]):
                    steps["replay"] = S.replay(a.glreplay, cap, env, d, a.timeout)
                    # The model also runs after a replay with bad calls (often a query the frame
                    # does not need): its verdict is kept beside the bucket, for information.
                    if steps["replay"]["ok"] or steps["replay"].get("bad"):
                        steps["model"] = S.model(a.glreplay, cap, env, d, a.timeout)
        res["bucket"], res["reason"] = C.classify(steps["native"], steps.get("cap"), steps.get("info"),
                                                  steps.get("replay"), steps.get("model"))
        if res["bucket"] == C.REPLAY_FAILED and (steps.get("model") or {}).get("json") is not None:
            res["model_despite_replay"] = "%s: %s" % C.judge_model(steps["model"]["json"], steps["info"])
        m = (steps.get("model") or {}).get("json") or {}
        notes = sorted({n for e in C.model_events(m) for n in C.event_notes(e)})
        if notes:
            res["model_notes"] = notes[:8]
        if isinstance(m.get("targets"), list):
            res["targets"] = {t.get("target"): t.get("min_agreement") for t in m["targets"] if isinstance(t, dict)}
    finally:
        if a.keep and res.get("bucket") not in (None, C.EXCLUDED, C.AGREES):
            dest = os.path.join(a.keep, rel.replace(os.sep, "__"))
            shutil.rmtree(dest, ignore_errors=True)
            shutil.copytree(d, dest)
        shutil.rmtree(d, ignore_errors=True)
    res["seconds"] = round(time.monotonic() - t0, 2)
    return res


def load_baseline(path):
    with open(path, encoding="utf-8") as f:
        b = json.load(f)
    if not isinstance(b, dict) or not isinstance(b.get("agree"), list) or "seed" not in b or "size" not in b:
        raise ValueError("%s: expected an object with seed, size and an agree list" % path)
    return b


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--glreplay", required=True, help="the glreplay CLI (build/ui_ipc/cli/glreplay)")
    ap.add_argument("--piglit", default=PIGLIT, help="piglit's install folder (default %(default)s)")
    ap.add_argument("--platform", default=PLATFORM, help="PIGLIT_PLATFORM (default %(default)s)")
    sel = ap.add_mutually_exclusive_group(required=True)
    sel.add_argument("--all", action="store_true", help="every shader test")
    sel.add_argument("--sample", type=int, help="a seeded sample of N tests")
    sel.add_argument("--baseline", help="check the sample recorded in this file")
    sel.add_argument("--update-baseline", metavar="FILE", help="run the sample and record it in FILE")
    ap.add_argument("--size", type=int, help="with --update-baseline: sample size (default: FILE's, or 100)")
    ap.add_argument("--seed", type=int, help="sample seed (default: the baseline's, or 1)")
    ap.add_argument("--match", help="only the selected tests whose path under spec/ matches this regex")
    ap.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--timeout", type=int, default=60, help="seconds per step of each test (default 60)")
    ap.add_argument("--json", help="write every test's bucket and reason here")
    ap.add_argument("--markdown", help="write the tables here")
    ap.add_argument("--keep", help="copy the work folder (capture, ...) of each failing test here")
    ap.add_argument("--expect-agree", action="store_true",
                    help="exit 1 unless every selected test that llvmpipe passes agrees (regression lists)")
    a = ap.parse_args()
    a.glreplay = os.path.abspath(a.glreplay)
    if not os.access(a.glreplay, os.X_OK):
        sys.exit("piglit_fidelity: %s is not an executable" % a.glreplay)
    if not os.access(os.path.join(a.piglit, "bin", "shader_runner"), os.X_OK):
        sys.exit("piglit_fidelity: no %s/bin/shader_runner (is the Debian package piglit installed? "
                 "tests/setup.sh installs it)" % a.piglit)
    tests = all_tests(a.piglit)
    if not tests:
        sys.exit("piglit_fidelity: no shader tests under %s/tests/spec" % a.piglit)

    baseline = None
    if a.baseline:
        try:
            baseline = load_baseline(a.baseline)
        except (OSError, ValueError) as e:
            sys.exit("piglit_fidelity: %s" % e)
        size, seed = int(baseline["size"]), int(baseline["seed"])
    elif a.update_baseline:
        old = {}
        if os.path.exists(a.update_baseline):
            try:
                old = load_baseline(a.update_baseline)
            except (OSError, ValueError):
                old = {}
        size = a.size or int(old.get("size", 100))
        seed = a.seed if a.seed is not None else int(old.get("seed", 1))
    elif a.sample is not None:
        size, seed = a.sample, a.seed if a.seed is not None else 1
    if a.all:
        chosen, selection, seed = tests, "all %d tests" % len(tests), "-"
    else:
        chosen = sample(tests, size, seed)
        selection = "%d of %d tests (random.Random(%d).sample of the sorted list)" % (len(chosen), len(tests), seed)
    if a.match:
        if baseline is not None or a.update_baseline:
            sys.exit("piglit_fidelity: --match does not go with a baseline (it would drop tests from it)")
        chosen = [t for t in chosen if re.search(a.match, t)]
        selection += ", those matching /%s/: %d" % (a.match, len(chosen))
    print("piglit_fidelity: %s, -j %d, %d s per step" % (selection, a.jobs, a.timeout), flush=True)

    if a.keep:
        os.makedirs(a.keep, exist_ok=True)
        a.keep = os.path.abspath(a.keep)
    t0 = time.monotonic()
    results = []
    work_root = tempfile.mkdtemp(prefix="glr-fidelity-")
    try:
        with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, a.jobs)) as pool:
            futs = [pool.submit(run_one, t, a, work_root) for t in chosen]
            for k, f in enumerate(concurrent.futures.as_completed(futs), 1):
                r = f.result()
                results.append(r)
                print("[%d/%d] %-70s %s: %s" % (k, len(chosen), r["test"], r["bucket"], r["reason"]), flush=True)
    finally:
        shutil.rmtree(work_root, ignore_errors=True)
    results.sort(key=lambda r: r["test"])
    wall = time.monotonic() - t0

    meta = {"date": datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
            "selection": selection, "seed": seed, "platform": a.platform, "timeout": a.timeout,
            "jobs": a.jobs, "wall_seconds": round(wall, 1), "tests": len(results)}
    table = R.markdown(results, meta)
    print("\n" + table)
    print("piglit_fidelity: %d tests in %.0f s (-j %d)" % (len(results), wall, a.jobs))
    for out in (a.json, a.markdown):
        if out and os.path.dirname(out):
            os.makedirs(os.path.dirname(out), exist_ok=True)  # a long run's output folder may be gone
    if a.json:
        with open(a.json, "w", encoding="utf-8") as f:
            json.dump({"meta": meta, "results": results}, f, indent=1)
            f.write("\n")
    if a.markdown:
        with open(a.markdown, "w", encoding="utf-8") as f:
            f.write(table)

    agree = sorted(r["test"] for r in results if r["bucket"] == C.AGREES)
    if a.update_baseline:
        with open(a.update_baseline, "w", encoding="utf-8") as f:
            json.dump({"about": "tests of the seeded piglit sample whose GPU model agrees with llvmpipe; "
                                "checked by the meson test 'fidelity piglit sample', updated with "
                                "tests/fidelity/update_baseline.sh", "size": size, "seed": seed,
                       "recorded": meta["date"], "agree": agree}, f, indent=1)
            f.write("\n")
        print("piglit_fidelity: recorded %d agreeing tests in %s" % (len(agree), a.update_baseline))
    if baseline is not None:
        by_test = {r["test"]: r for r in results}
        lost = [t for t in baseline["agree"] if t not in agree]
        # A lost test runs once more, alone: tests whose llvmpipe image depends on its threads'
        # order (atomics on one location) can differ from their own capture on a loaded machine.
        # A real regression loses both runs; one that agrees on the second says so.
        retry_root = tempfile.mkdtemp(prefix="glr-fidelity-retry-")
        try:
            for t in [t for t in lost if t in by_test]:
                r = run_one(t, a, retry_root)
                if r["bucket"] == C.AGREES:
                    print("piglit_fidelity: %s agreed when run again (first run: %s: %s)" %
                          (t, by_test[t]["bucket"], by_test[t]["reason"]))
                    by_test[t] = r
                    lost.remove(t)
        finally:
            shutil.rmtree(retry_root, ignore_errors=True)
        new = [t for t in agree if t not in baseline["agree"]]
        for t in new:
            print("piglit_fidelity: newly agreeing: %s" % t)
        if new:
            print("piglit_fidelity: %d tests agree that the baseline does not list; record them with "
                  "tests/fidelity/update_baseline.sh BUILD_DIR" % len(new))
        for t in lost:
            r = by_test.get(t)
            print("piglit_fidelity: REGRESSION: %s: %s" % (t, "%s: %s" % (r["bucket"], r["reason"]) if r
                                                               else "not in the sample any more"))
        if lost:
            print("piglit_fidelity: FAIL: %d of %d baseline tests no longer agree" % (len(lost), len(baseline["agree"])))
            return 1
        print("piglit_fidelity: PASS: all %d baseline tests agree (%d agree in all)" % (len(baseline["agree"]), len(agree)))
    if a.expect_agree:
        others = [r for r in results if r["bucket"] not in (C.AGREES, C.EXCLUDED)]
        for r in others:
            print("piglit_fidelity: DOES NOT AGREE: %s: %s: %s" % (r["test"], r["bucket"], r["reason"]))
        if others or not results:
            print("piglit_fidelity: FAIL: %d of %d selected tests do not agree" % (len(others), len(results)))
            return 1
        print("piglit_fidelity: PASS: all %d selected tests agree" % len(results))
    return 0


if __name__ == "__main__":
    sys.exit(main())
