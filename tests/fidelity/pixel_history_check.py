#!/usr/bin/env python3
"""Acceptance check of `glreplay pixel` against the driver's per-draw images.

For each capture: `glreplay replay F --png DIR` writes the driver's image after every draw and
clear (draw buffer 0 of the framebuffer bound then); `glreplay model F --json` says which
framebuffer each draw and clear drew to. For every target drawn to (the back buffer, fboN), a
sample of pixels (half among the pixels the frame changes, half anywhere; fixed seed) gets a
history (`glreplay pixel --json`), and:
  - value: at every history event that has a driver image, the history's value after the event
    (the model's) equals the image's pixel;
  - completeness: every event whose image changes the pixel (from the previous image of the same
    target) is in the history;
  - the history's own driver check (its probe) agrees.
Prints one line per capture and a total; exit 1 when a check fails.

With --debug K, for K pixels per target that a draw wrote: `glreplay debug --pixel X,Y --json`
(debug this pixel) must stop in that draw's fragment shader with the focused lane at (X, Y); when
the written fragment was not blended, its shader output (as unorm8) must be the driver's pixel.

--debug-max M stops after M debug runs per capture (targets in order: the back buffer first).

With --driver-passes SUBSTR, captures whose file name contains SUBSTR must have their back-buffer
histories take the earlier passes (draws into framebuffer objects) from the driver's images
(`"earlier_passes": {"from": "driver", "draws_left_out": n > 0}`), not from the model.

With --quad-only SUBSTR, every history of captures whose file name contains SUBSTR must have drawn
the target's draws at the pixel's quad only (`"quad_only": true`: framebuffer-object targets too).

usage: pixel_history_check.py GLREPLAY CAPTURE... [--pixels N] [--seed S] [--debug K]
                              [--debug-max M] [--driver-passes SUBSTR] [--quad-only SUBSTR]
"""
import json
import os
import random
import re
import struct
import subprocess
import sys
import tempfile
import time
import zlib


def read_png(path):
    """RGBA rows top-down of an 8-bit RGB/RGBA non-interlaced PNG (what glrh_write_png writes)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        raise ValueError(path + ": not a PNG")
    pos, idat, w = 8, b"", 0
    while pos < len(data):
        n, typ = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if typ == b"IHDR":
            w, h, depth, ctype, _, _, interlace = struct.unpack(">IIBBBBB", body)
            if depth != 8 or ctype not in (2, 6) or interlace:
                raise ValueError(path + ": unsupported PNG layout")
        elif typ == b"IDAT":
            idat += body
        pos += 12 + n
    bpp = 4 if ctype == 6 else 3
    raw = zlib.decompress(idat)
    stride = w * bpp
    rows, prev = [], bytearray(stride)
    for y in range(h):
        ft = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if ft == 1:
                line[i] = (line[i] + a) & 255
            elif ft == 2:
                line[i] = (line[i] + b) & 255
            elif ft == 3:
                line[i] = (line[i] + ((a + b) >> 1)) & 255
            elif ft == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, bpp, rows


def pixel(img, x, y):
    """(r, g, b, a) at window pixel (x, y), origin bottom-left."""
    w, h, bpp, rows = img
    row = rows[h - 1 - y]
    p = row[x * bpp:(x + 1) * bpp]
    return tuple(p) if bpp == 4 else tuple(p) + (255,)


def f32(v):
    return struct.unpack("f", struct.pack("f", v))[0]


def unorm8(v):
    """float -> unorm8 as llvmpipe converts: the float32 product by 255, rounded half to even."""
    v = min(max(f32(v), 0.0), 1.0)
    return int(round(f32(v * 255.0)))


def blend_names_bad(hist):
    """Blend factors and equations named as enums of their registry group: a factor of 1 is
    GL_ONE, never an attribute-mask bit such as GL_CURRENT_BIT (a name taken without its group)."""
    bad = []
    for e in hist["events"]:
        for f in e.get("fragments", []):
            for w in f.get("writes", []):
                b = w.get("blend")
                for k, v in (b.items() if isinstance(b, dict) else []):
                    if k[:3] in ("src", "dst", "eq_") and (not isinstance(v, str) or v.endswith("_BIT")):
                        bad.append("%s %s" % (k, v))
    return bad


def check_debug(glreplay, cap, target, x, y, hist, res):
    """debug --pixel: the stop is the invocation that wrote the pixel."""
    written = [e for e in hist["events"] if e["kind"] == "draw" and not e.get("rejected")]
    if not written:
        return
    last = written[-1]
    d = subprocess.run([glreplay, "debug", cap, "--pixel", "%d,%d" % (x, y), "--target", target, "--json"],
                       capture_output=True, text=True, timeout=600)
    res["debug_runs"] += 1
    if d.returncode != 0:
        res["debug_bad"] += 1
        res["failures"].append("debug --pixel %d,%d (%s): %s" % (x, y, target, d.stderr.strip()[:200]))
        return
    j = json.loads(d.stdout)
    lane = j["lanes"][j["lane"]]
    ok = (lane["x"], lane["y"]) == (x, y) and j["draw"] == last["draw"] and j["event"] == last["record"]
    frag = [f for f in last["fragments"] if f["outcome"] == "written"]
    if ok and frag and "driver" in last:
        w = frag[-1]["writes"]
        if w and w[0]["blend"] is False and w[0]["color_mask"] == 15 and w[0]["draw_buffer"] == 0:
            res["debug_output_checked"] += 1
            out = [unorm8(v) for v in j["pixel"]["output"]]
            if out != list(last["driver"]):
                res["debug_output_differs"] += 1
                res["failures"].append("debug --pixel %d,%d (%s): shader output %s, driver %s" %
                                       (x, y, target, out, last["driver"]))
    if not ok:
        res["debug_bad"] += 1
        res["failures"].append("debug --pixel %d,%d (%s): stopped at lane (%d,%d) of draw %d, the history's last "
                               "writer is draw %d" % (x, y, target, lane["x"], lane["y"], j["draw"], last["draw"]))


def check_capture(glreplay, cap, npix, rng, ndebug=0, driver_passes=False, debug_max=None, quad_only=False):
    work = tempfile.mkdtemp(prefix="pxh")
    png = os.path.join(work, "png")
    r = subprocess.run([glreplay, "replay", cap, "--png", png], capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return {"capture": cap, "error": "replay failed: " + r.stderr.strip()[:200]}
    m = subprocess.run([glreplay, "model", cap, "--json", "--no-timing"], capture_output=True, text=True,
                       timeout=600)
    try:
        model = json.loads(m.stdout)
    except ValueError:
        return {"capture": cap, "error": "model --json failed: " + m.stderr.strip()[:200]}
    fb_of = {}
    for ev in model["events"]:
        if ev.get("kind") in ("draw", "clear"):
            fb_of[ev["record"]] = (ev.get("context"), ev.get("framebuffer", 0))
    images = {}
    for name in os.listdir(png):
        mm = re.match(r"^(\d+)_(.*)\.png$", name)
        if mm and mm.group(2) != "swap" and int(mm.group(1)) in fb_of:
            images[int(mm.group(1))] = os.path.join(png, name)
    targets = sorted(set(fb_of[r] for r in images))
    res = {"capture": os.path.basename(cap), "pixels": 0, "events": 0, "value_mismatch": 0, "missing": 0,
           "driver_disagree": 0, "seconds_max": 0.0, "failures": [], "debug_runs": 0, "debug_bad": 0,
           "debug_output_checked": 0, "debug_output_differs": 0, "first_unchecked": 0,
           "from_driver": 0}
    for ctx, fbo in targets:
        seq = sorted(r for r in images if fb_of[r] == (ctx, fbo))
        imgs = {r: read_png(images[r]) for r in seq}
        w, h = imgs[seq[0]][0], imgs[seq[0]][1]
        # pixels the frame changes on this target, for half of the sample
        changing = set()
        for _ in range(400):
            x, y = rng.randrange(w), rng.randrange(h)
            vals = set(pixel(imgs[r], x, y) for r in seq)
            if len(vals) > 1:
                changing.add((x, y))
        picks = rng.sample(sorted(changing), min(len(changing), npix // 2))
        while len(picks) < npix:
            picks.append((rng.randrange(w), rng.randrange(h)))
        target = "ctx%d/%s" % (ctx, "back" if not fbo else "fbo%d/color0" % fbo)
        debugged = 0
        for x, y in picks:
            t0 = time.monotonic()
            p = subprocess.run([glreplay, "pixel", cap, "--at", "%d,%d" % (x, y), "--target", target, "--json"],
                               capture_output=True, text=True, timeout=600)
            dt = time.monotonic() - t0
            res["seconds_max"] = max(res["seconds_max"], dt)
            if p.returncode not in (0, 1):
                res["failures"].append("%s (%d,%d): %s" % (target, x, y, p.stderr.strip()[:200]))
                continue
            hist = json.loads(p.stdout)
            res["pixels"] += 1
            for b in blend_names_bad(hist):
                res["failures"].append("%s (%d,%d): blend named %s" % (target, x, y, b))
            evs = {e["record"]: e for e in hist["events"]}
            res["events"] += len(evs)
            ep = hist.get("earlier_passes", {})
            if ep.get("from") == "driver" and ep.get("draws_left_out", 0) > 0:
                res["from_driver"] += 1
            elif driver_passes and not fbo:
                res["failures"].append("%s (%d,%d): earlier passes from the model, not the driver's images (%s)" %
                                       (target, x, y, ep.get("why", "no earlier_passes")))
            if hist.get("quad_only"):
                res["quad_only"] = res.get("quad_only", 0) + 1
            elif quad_only:
                res["failures"].append("%s (%d,%d): the target's draws were drawn whole, not at the pixel's quad" %
                                       (target, x, y))
            dc = hist.get("driver_check", {})
            res["driver_disagree"] += dc.get("events_differing", 0) + dc.get("driver_only_changes", 0)
            if debugged < ndebug and (debug_max is None or res["debug_runs"] < debug_max) and any(e["kind"] == "draw" and not e.get("rejected") for e in hist["events"]):
                debugged += 1
                check_debug(glreplay, cap, target, x, y, hist, res)
            prev = tuple(hist["initial"]) if "initial" in hist else None
            for r in seq:
                v = pixel(imgs[r], x, y)
                if r in evs:
                    if tuple(evs[r].get("after", ())) != v:
                        res["value_mismatch"] += 1
                        res["failures"].append("%s (%d,%d) event %d: history %s, driver image %s" %
                                               (target, x, y, r, evs[r].get("after"), v))
                elif prev is None:
                    res["first_unchecked"] += 1   # an FBO's first image: its value before is unknown
                elif v != prev:
                    res["missing"] += 1
                    res["failures"].append("%s (%d,%d) event %d changes the pixel %s -> %s, not in the history" %
                                           (target, x, y, r, prev, v))
                prev = v
    return res


def main():
    args = sys.argv[1:]
    npix, seed = 20, 1
    if "--pixels" in args:
        i = args.index("--pixels")
        npix = int(args[i + 1])
        del args[i:i + 2]
    ndebug = 0
    if "--debug" in args:
        i = args.index("--debug")
        ndebug = int(args[i + 1])
        del args[i:i + 2]
    if "--seed" in args:
        i = args.index("--seed")
        seed = int(args[i + 1])
        del args[i:i + 2]
    debug_max = None
    if "--debug-max" in args:
        i = args.index("--debug-max")
        debug_max = int(args[i + 1])
        del args[i:i + 2]
    driver_passes = None
    if "--driver-passes" in args:
        i = args.index("--driver-passes")
        driver_passes = args[i + 1]
        del args[i:i + 2]
    quad_only = None
    if "--quad-only" in args:
        i = args.index("--quad-only")
        quad_only = args[i + 1]
        del args[i:i + 2]
    if len(args) < 2:
        sys.exit(__doc__)
    glreplay, caps = args[0], args[1:]
    rng = random.Random(seed)
    bad = 0
    tot = {"pixels": 0, "events": 0, "value_mismatch": 0, "missing": 0, "driver_disagree": 0, "debug_runs": 0,
           "debug_bad": 0, "debug_output_checked": 0, "debug_output_differs": 0}
    for cap in caps:
        r = check_capture(glreplay, cap, npix, rng, ndebug,
                          driver_passes is not None and driver_passes in os.path.basename(cap), debug_max,
                          quad_only is not None and quad_only in os.path.basename(cap))
        if "error" in r:
            print("%s: ERROR %s" % (cap, r["error"]))
            bad += 1
            continue
        for k in tot:
            tot[k] += r[k]
        ok = not (r["value_mismatch"] or r["missing"] or r["failures"])
        dbg = ("; debug --pixel: %d stops, %d wrong, output = driver %d/%d" %
               (r["debug_runs"], r["debug_bad"], r["debug_output_checked"] - r["debug_output_differs"],
                r["debug_output_checked"])) if ndebug else ""
        bad += not ok
        print("%s: %s: %d pixels, %d history events; value mismatches %d, missing events %d, "
              "probe disagreements %d; slowest history %.2f s" %
              (r["capture"], "PASS" if ok else "FAIL", r["pixels"], r["events"], r["value_mismatch"], r["missing"],
               r["driver_disagree"], r["seconds_max"]) + dbg +
              ("; %d histories with earlier passes from the driver" % r["from_driver"] if r["from_driver"] else "") +
              ("; %d quad only" % r["quad_only"] if r.get("quad_only") else "") +
              ("; %d first FBO images not in the history (completeness not checkable)" % r["first_unchecked"]
               if r["first_unchecked"] else ""))
        for f in r["failures"][:5]:
            print("    " + f)
    print("total: %d pixels, %d events; value mismatches %d, missing events %d, probe disagreements %d" %
          (tot["pixels"], tot["events"], tot["value_mismatch"], tot["missing"], tot["driver_disagree"]) +
          ("; debug --pixel: %d stops, %d wrong, output = driver %d/%d" %
           (tot["debug_runs"], tot["debug_bad"], tot["debug_output_checked"] - tot["debug_output_differs"],
            tot["debug_output_checked"]) if ndebug else ""))
    if tot["events"] == 0:
        print("nothing was compared: no history event")
        bad += 1
    sys.exit(1 if bad else 0)


if __name__ == "__main__":
    main()
