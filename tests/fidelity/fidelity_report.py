"""Tables over the per-test results: rates per spec folder and per GLSL version, the bucket
histogram and the reasons within each failure bucket (Markdown, so docs/FIDELITY.md can quote it)."""
import collections
import re

import fidelity_classify as C

_REASON_NUMBERS = re.compile(r"\b\d+(\.\d+)?\b")


def _rate(agree, counted):
    return "%d/%d (%.1f %%)" % (agree, counted, 100.0 * agree / counted) if counted else "-"


def _group_table(results, key, title):
    rows = collections.OrderedDict()
    for r in sorted(results, key=lambda r: (r[key], r["test"])):
        rows.setdefault(r[key], collections.Counter())[r["bucket"]] += 1
    lines = ["| %s | tests | llvmpipe passes | agrees | rate (of passes) | largest other bucket |" % title,
             "|---|---:|---:|---:|---:|---|"]
    for name, cnt in rows.items():
        total = sum(cnt.values())
        counted = total - cnt[C.EXCLUDED]
        others = [(n, b) for b, n in cnt.items() if b not in (C.EXCLUDED, C.AGREES)]
        other = "%s (%d)" % (max(others)[1], max(others)[0]) if others else ""
        lines.append("| %s | %d | %d | %d | %s | %s |" % (name, total, counted, cnt[C.AGREES],
                                                          _rate(cnt[C.AGREES], counted), other))
    return lines


_PERCENT = re.compile(r"(\d+\.\d+) %")
_BANDS = [(0.0, "0 %"), (1.0, "< 1 %"), (50.0, "1-50 %"), (90.0, "50-90 %"), (99.0, "90-99 %"), (99.9, "99-99.9 %")]


def reason_class(reason):
    """A reason with its numbers (program names, counts) folded, to group alike ones; an agreement
    percentage becomes its band (0 %, < 1 %, 1-50 %, 50-90 %, 90-99 %, 99-99.9 %)."""
    m = _PERCENT.search(reason)
    band = None
    if m:
        v = float(m.group(1))
        band = next((name for top, name in _BANDS if v <= top), ">= 99.9 %") if v else "0 %"
        reason = reason[:m.start()] + "@@" + reason[m.end():]
    out = _REASON_NUMBERS.sub("N", reason)
    return out.replace("@@", band) if band else out


def markdown(results, meta):
    cnt = collections.Counter(r["bucket"] for r in results)
    counted = len(results) - cnt[C.EXCLUDED]
    out = ["Sample: %s; seed %s; %d tests; platform %s; per-step timeout %d s." % (
        meta["selection"], meta["seed"], len(results), meta["platform"], meta["timeout"]), "",
        "Agreement among tests llvmpipe passes: **%s**." % _rate(cnt[C.AGREES], counted), "",
        "### Buckets", "", "| bucket | tests |", "|---|---:|"]
    for b in C.BUCKETS:
        out.append("| %s | %d |" % (b, cnt[b]))
    out += ["", "### By folder (first path component under spec/)", ""]
    out += _group_table(results, "folder", "folder")
    out += ["", "### By GLSL version ([require] GLSL >= x.yz)", ""]
    out += _group_table(results, "glsl", "GLSL")
    out += ["", "### Reasons within each bucket (numbers folded to N, agreements to bands)", ""]
    for b in C.BUCKETS:
        if b == C.AGREES or not cnt[b]:
            continue
        reasons = collections.Counter(reason_class(r["reason"]) for r in results if r["bucket"] == b)
        out += ["**%s** (%d)" % (b, cnt[b]), "", "| count | reason |", "|---:|---|"]
        for reason, n in sorted(reasons.items(), key=lambda x: (-x[1], x[0])):
            out.append("| %d | %s |" % (n, reason.replace("|", "\\|")))
        out.append("")
    return "\n".join(out) + "\n"
