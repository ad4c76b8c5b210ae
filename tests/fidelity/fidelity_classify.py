"""Puts one test into exactly one bucket, with a reason, from what its steps reported.

The model verdict is judged from the fields of `glreplay model --compare --json` (totals, events,
unsupported, targets), never from its exit status or its own "result" alone: a frame whose draws
failed or hit unsupported features is not an agreement even where every comparison that was made
passed. Fields this does not know are ignored; fields it needs and does not find make the test
disagree with a reason that says which field was missing.
"""
import re

AGREE = 0.999  # every comparison at least 99.9 % of pixels

# Bucket names, in the order they are tried (the first that applies wins) and reported.
EXCLUDED = "native skip/fail (excluded)"
NO_DRAW = "no draw"
CAPTURE_CHANGED = "capture changed the result"
CAPTURE_FAILED = "capture failed"
REPLAY_FAILED = "replay failed/bad calls"
MODEL_ERROR = "model: did not run"
MODEL_COMPILE = "model: compile/link failure"
MODEL_UNSUPPORTED = "model: unsupported feature"
MODEL_FAILED = "model: failed draws"
MODEL_DISAGREES = "model: disagrees"
AGREES = "agrees"
BUCKETS = [EXCLUDED, CAPTURE_CHANGED, CAPTURE_FAILED, NO_DRAW, REPLAY_FAILED, MODEL_ERROR,
           MODEL_COMPILE, MODEL_UNSUPPORTED, MODEL_FAILED, MODEL_DISAGREES, AGREES]

# Notes of the model that say glslang did not compile or link a program (gmf_program.c). Not among
# them: "program N <stage> shader: X is not supported" (the SPIR-V decoder meeting an instruction it
# lacks) and "has no vertex shader" (fixed-function vertex processing): those are features.
_COMPILE = re.compile(r"does not compile in the model|has no linked shaders")
# Notes that are a draw going wrong at run time, not a missing feature (gmf_shade.c, gmf_runner.c).
_RUNTIME = re.compile(r"shader runtime error|^pipeline: |^timing model: |out of memory")


_LOG_LINE = re.compile(r"(?=\b(?:ERROR|WARNING): )")


def _first_error(note):
    """The note's lead-in and the first glslang "ERROR:" line of its log (the model joins the
    log's lines with spaces and may start with WARNING lines); the first log line without one."""
    parts = _LOG_LINE.split(note)
    head, log = parts[0], [p.strip() for p in parts[1:] if p.strip()]
    pick = next((p for p in log if p.startswith("ERROR:")), log[0] if log else "")
    return (head + pick).strip()


def _num(d, key):
    v = d.get(key)
    return v if isinstance(v, (int, float)) and not isinstance(v, bool) else None


def model_events(j):
    ev = j.get("events")
    return [e for e in ev if isinstance(e, dict)] if isinstance(ev, list) else []


def event_notes(e):
    u = e.get("unsupported")
    return [n for n in u if isinstance(n, str)] if isinstance(u, list) else []


def judge_model(j, info):
    """(bucket, reason) for a model report j (a dict) and the capture's info."""
    events = model_events(j)
    work = [e for e in events if e.get("kind") in ("draw", "dispatch")]
    notes = [(e, n) for e in events for n in event_notes(e)]
    for e, n in notes:
        if _COMPILE.search(n):
            # SPIR-V shaders (ARB_gl_spirv) go to the model's decoder as modules since it runs them
            # (gmf_spirv.c): a module it cannot take fails like any other program, with its reason.
            return MODEL_COMPILE, _first_error(n)
    tot = j.get("totals") if isinstance(j.get("totals"), dict) else {}
    features = []
    for u in j.get("unsupported", []) if isinstance(j.get("unsupported"), list) else []:
        name = u.get("feature") if isinstance(u, dict) else u if isinstance(u, str) else None
        if name and not _RUNTIME.search(name):
            features.append(name)
    per_event = [n for e, n in notes if not _RUNTIME.search(n)]
    # Immediate mode and display lists run in the model (gmf_immediate.c, gmf_lists.c): what it
    # cannot do there it reports per event, like any draw.
    if per_event or features:
        return MODEL_UNSUPPORTED, (per_event or features)[0]
    if _num(tot, "draws_with_unsupported"):
        return MODEL_UNSUPPORTED, "%d draws with unsupported features (no name given)" % tot["draws_with_unsupported"]
    failed = [e for e in work if e.get("failed") is True]
    # draws_failed, and any other "<what>_failed" count a newer CLI adds (dispatches_failed).
    failed_counts = {k: v for k, v in tot.items() if k.endswith("_failed") and _num(tot, k)}
    if failed or failed_counts:
        e = failed[0] if failed else {}
        why = (event_notes(e) or ["no reason given"])[0]
        n = max(len(failed), int(sum(failed_counts.values())))
        return MODEL_FAILED, "%d failed (first: %s %s: %s)" % (n, e.get("kind", "draw"), e.get("index", "?"), why)
    skipped = _num(j, "driver_skipped_records")
    if skipped:
        # The model's own driver replay (its comparison side) could not replay some records.
        return REPLAY_FAILED, "the model's driver replay skipped %d records" % skipped
    if _num(tot, "draws") is None:
        return MODEL_DISAGREES, "no totals.draws in the model report"
    if not work:
        return MODEL_DISAGREES, "the model saw no draw or dispatch (the capture has %d)" % info.get("draws", 0)
    targets = [t for t in j.get("targets", []) if isinstance(t, dict)] if isinstance(j.get("targets"), list) else []
    compared = [t for t in targets if (_num(t, "comparisons") or 0) > 0]
    if not compared:
        return MODEL_DISAGREES, "no comparison was made"
    worst = min(compared, key=lambda t: _num(t, "min_agreement") if _num(t, "min_agreement") is not None else -1)
    wa = _num(worst, "min_agreement")
    if wa is None or wa < AGREE:
        return MODEL_DISAGREES, "worst %s: %s" % (worst.get("target", "?"),
                                                 "no min_agreement" if wa is None else "%.3f %%" % (100 * wa))
    # Every single comparison too (events and swaps; against the driver replay and against the
    # capture's reference images), so a target list that drops one cannot hide it.
    swaps = [w for w in j.get("swaps", []) if isinstance(w, dict)] if isinstance(j.get("swaps"), list) else []
    for e in work + swaps:
        where = "%s %s" % (e.get("kind", "swap"), e.get("index", e.get("record", "?")))
        for key in ("compare", "reference_compare"):
            for c in e.get(key, []) if isinstance(e.get(key), list) else []:
                a = _num(c, "agreement") if isinstance(c, dict) else None
                if a is not None and a < AGREE:
                    return MODEL_DISAGREES, "%s on %s: %.3f %%" % (where, c.get("target"), 100 * a)
        a = _num(e, "reference_agreement")
        if a is not None and a < AGREE:
            return MODEL_DISAGREES, "%s against the reference image: %.3f %%" % (where, 100 * a)
    failing = _num(j, "failing_comparisons")
    if failing:
        return MODEL_DISAGREES, "%d failing comparisons reported" % failing
    uncompared = _num(j, "references_not_compared")
    if uncompared:
        return MODEL_DISAGREES, "%d reference images not compared" % uncompared
    if j.get("result") not in (None, "pass"):
        why = j.get("fail_reasons") if isinstance(j.get("fail_reasons"), str) else ""
        return MODEL_DISAGREES, "the model reports %r with every comparison >= 99.9 %%%s" % (
            j.get("result"), ": " + why[:200] if why else "")
    return AGREES, "%d draws/dispatches, %d targets, worst %.3f %%" % (len(work), len(compared), 100 * wa)


def classify(native, cap=None, info=None, replay=None, model=None):
    """(bucket, reason) for one test; later steps may be None when an earlier one decided."""
    if native["result"] != "pass":
        return EXCLUDED, "native %s" % native["result"]
    if cap is None:
        return CAPTURE_FAILED, "capture not run"
    if cap["result"] != native["result"]:
        return CAPTURE_CHANGED, "native %s, under capture %s" % (native["result"], cap["result"])
    if cap["stdout"] != native["stdout"]:
        return CAPTURE_CHANGED, "same result, different stdout"
    if cap["program_error"]:
        return CAPTURE_CHANGED, "the test exited with an error under capture"
    if cap["rc"] is None:
        return CAPTURE_FAILED, "capture timed out"
    if not cap["written"]:
        return CAPTURE_FAILED, cap["error"] or "exit %s, no capture written" % cap["rc"]
    if info is None or info.get("error"):
        return CAPTURE_FAILED, (info or {}).get("error") or "capture not inspected"
    if not info["draws"] and not info["immediate"]:
        return NO_DRAW, "no draw or dispatch call in the captured frame"
    if replay is None or not replay["ok"]:
        return REPLAY_FAILED, (replay or {}).get("reason") or "replay not run"
    if model is None or model.get("json") is None:
        return MODEL_ERROR, (model or {}).get("error") or "model not run"
    return judge_model(model["json"], info)
