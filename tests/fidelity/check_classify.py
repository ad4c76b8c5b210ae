#!/usr/bin/env python3
"""Self-test of the fidelity buckets (fidelity_classify.py) on hand-made step results: the verdict
comes from the model report's fields, not from its "result" (which can say pass while draws failed),
and unknown fields change nothing."""
import copy
import os
import sys

sys.dont_write_bytecode = True  # keep the source tree clean
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import fidelity_classify as C  # noqa: E402

NATIVE = {"rc": 0, "result": "pass", "stdout": 'PIGLIT: {"result": "pass" }\n', "stderr": ""}
CAP = {"rc": 0, "result": "pass", "stdout": NATIVE["stdout"], "program_error": False, "written": True, "error": ""}
INFO = {"rc": 0, "draws": 1, "immediate": [], "reference_images": 0, "error": ""}
REPLAY = {"rc": 1, "ok": True, "reason": ""}
GOOD = {
    "events": [{"kind": "draw", "index": 0, "failed": False, "unsupported": [],
                "compare": [{"target": "ctx1/fbo1/color0", "agreement": 1.0}]}],
    "totals": {"draws": 1, "draws_failed": 0, "draws_with_unsupported": 0},
    "unsupported": [],
    "targets": [{"target": "ctx1/fbo1/color0", "comparisons": 1, "min_agreement": 1.0}],
    "comparisons": 1, "failing_comparisons": 0, "result": "pass",
}

failures = []
cases = []


def expect(what, bucket, model=None, native=NATIVE, cap=CAP, info=INFO, replay=REPLAY, reason_has=""):
    cases.append(what)
    got, reason = C.classify(native, cap, info, replay, {"json": model, "error": "x"} if model is not None else None)
    if got != bucket or reason_has not in reason:
        failures.append("%s: got %s (%s), expected %s%s" % (what, got, reason, bucket,
                                                          " with '%s'" % reason_has if reason_has else ""))


def edit(f):
    m = copy.deepcopy(GOOD)
    f(m)
    return m


expect("all comparisons at 100 %", C.AGREES, GOOD)
expect("new fields ignored", C.AGREES, edit(lambda m: m.update(reference={"x": 1}, extra=[1, 2])))
expect("no 'result' field (older CLI)", C.AGREES, edit(lambda m: m.pop("result")))
# The CLI's own verdict says pass, yet a draw failed: must not count as agreement.
expect("failed draw under result pass", C.MODEL_FAILED,
       edit(lambda m: (m["events"][0].update(failed=True), m["totals"].update(draws_failed=1))))
expect("draws_failed only in the totals", C.MODEL_FAILED, edit(lambda m: m["totals"].update(draws_failed=1)))
expect("unsupported note", C.MODEL_UNSUPPORTED,
       edit(lambda m: m["events"][0]["unsupported"].append("fixed-function draw (no program)")), reason_has="fixed")
expect("unsupported in totals only", C.MODEL_UNSUPPORTED, edit(lambda m: m["totals"].update(draws_with_unsupported=2)))
expect("compile error (first error only)", C.MODEL_COMPILE,
       edit(lambda m: m["events"][0].update(failed=True, unsupported=[
           "program 3 does not compile in the model: ERROR: 0:1: 'x' : undeclared ERROR: 0:2: more"])),
       reason_has="'x' : undeclared")
expect("SPIR-V module the model cannot take: a compile failure with its reason", C.MODEL_COMPILE,
       edit(lambda m: m["events"][0].update(failed=True, unsupported=[
           "program 2 does not compile in the model: vertex shader: entry point \"main\" for this shader's stage is not in the SPIR-V module"])),
       info=dict(INFO, spirv=True), reason_has="entry point")
expect("runtime error is a failed draw", C.MODEL_FAILED,
       edit(lambda m: m["events"][0].update(failed=True, unsupported=["fragment shader runtime error: oob"])))
expect("99.8 % on a target", C.MODEL_DISAGREES, edit(lambda m: m["targets"][0].update(min_agreement=0.998)),
       reason_has="99.800")
expect("99.9 % exactly agrees", C.AGREES, edit(lambda m: m["targets"][0].update(min_agreement=0.999)))
expect("low per-event agreement hidden from targets", C.MODEL_DISAGREES,
       edit(lambda m: m["events"][0]["compare"][0].update(agreement=0.5)))
expect("no comparison made", C.MODEL_DISAGREES, edit(lambda m: m["targets"][0].update(comparisons=0)))
expect("result fail with good numbers", C.MODEL_DISAGREES, edit(lambda m: m.update(result="fail")))
expect("failing_comparisons", C.MODEL_DISAGREES, edit(lambda m: m.update(failing_comparisons=1)))
expect("model saw no draw", C.MODEL_DISAGREES, edit(lambda m: m.update(events=[])))
expect("no totals", C.MODEL_DISAGREES, edit(lambda m: m.pop("totals")))
# Fields of the newer `model --compare` (main): they are judged too.
expect("dispatches_failed", C.MODEL_FAILED, edit(lambda m: m["totals"].update(dispatches_failed=1)))
expect("driver side skipped records", C.REPLAY_FAILED, edit(lambda m: m.update(driver_skipped_records=3)))
expect("reference not compared", C.MODEL_DISAGREES, edit(lambda m: m.update(references_not_compared=1)))
expect("swap against its reference image", C.MODEL_DISAGREES,
       edit(lambda m: m.update(swaps=[{"record": 9, "reference_agreement": 0.9, "compare": [],
                                       "reference_compare": [{"target": "ctx1/default/back@reference",
                                                              "agreement": 0.9}]}])), reason_has="90.000")
expect("fail_reasons quoted", C.MODEL_DISAGREES, edit(lambda m: m.update(result="fail", fail_reasons="why not")),
       reason_has="why not")
expect("model gave no JSON", C.MODEL_ERROR, None)
expect("native skip", C.EXCLUDED, GOOD, native=dict(NATIVE, result="skip"))
expect("capture changed the verdict", C.CAPTURE_CHANGED, GOOD, cap=dict(CAP, result="fail"))
expect("capture changed stdout", C.CAPTURE_CHANGED, GOOD, cap=dict(CAP, stdout=CAP["stdout"] + "x\n"))
expect("capture not written", C.CAPTURE_FAILED, GOOD, cap=dict(CAP, written=False, error="glreplay: boom"))
expect("no draw", C.NO_DRAW, GOOD, info=dict(INFO, draws=0))
expect("immediate mode only: judged by the model report", C.AGREES, GOOD, info=dict(INFO, draws=0, immediate=["glBegin"]))
expect("bad replay calls", C.REPLAY_FAILED, GOOD, replay=dict(REPLAY, ok=False, reason="2 of 9 calls bad in replay"))

if failures:
    sys.exit("check_classify: FAIL\n" + "\n".join(failures))
print("check_classify: PASS (%d cases)" % len(cases))
