#!/usr/bin/env bash
# Earlier passes from the driver for every kind of image (issue 15): tests/pixel/feed_targets.c
# (EGL surfaceless) renders into an RGBA8UI texture, layer 2 of an array texture, mip level 1 of
# an RGBA16F texture, the +Z face of a cube map, a separate STENCIL_INDEX8 renderbuffer and a
# 4-sample texture with a 4-sample depth-stencil renderbuffer (then resolved by a blit) and a
# 3-layer array texture attached layered (a geometry shader writes layers 1 and 2), and shows each
# in a strip of the back buffer.
#   1. pixel_history_check.py on every target: values = `replay --png`'s per-draw images, no event
#      missing, debug this pixel stops in the right invocation, and the back buffer's earlier
#      passes come from the driver (--driver-passes), not the model;
#   2. one pixel per strip: the history lists each image read in its own format/level/layer
#      (before this, integer, layer, level, cube, stencil, multisample and layered images made the
#      history run every pass in the model);
#   3. framebuffer D's history: its draw reads the stencil image pass C left (from the driver), one
#      pixel written, one rejected by the stencil test;
#   4. the feed's give-up path (test hook GLREPLAY_PIXEL_FEED_TEST_DROP): the history runs every
#      pass in the model and its values are the same; debug this pixel's own run gives up, runs
#      again with every pass and stops in the same invocation with the same values.
# usage: pixel_feed_targets.sh GLREPLAY SHIM FEED_TARGETS
set -euo pipefail
glreplay=$1 shim=$2 prog=$3
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/glr-pixfeed.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export GLREPLAY_PIXEL_CACHE="$tmp/pixel-cache"
cap="$tmp/feed_targets.glcap"
GLREPLAY_CAPTURE_FRAMES=1 GLREPLAY_CAPTURE_OUT="$cap" LD_PRELOAD=$shim "$prog" 3 >"$tmp/run.log" 2>&1 ||
  { echo "FAIL: feed_targets exited $?"; cat "$tmp/run.log"; exit 1; }
[ -f "$cap" ] || { echo "FAIL: no capture"; cat "$tmp/run.log"; exit 1; }
python3 "$here/../fidelity/pixel_history_check.py" "$glreplay" "$cap" --pixels 3 --debug 1 --driver-passes feed_targets
for x in 20 52 84 116 148 180 212 240; do
  "$glreplay" pixel "$cap" --at "$x,30" --json > "$tmp/strip$x.json"
done
"$glreplay" pixel "$cap" --at 240,60 --json > "$tmp/strip241.json"   # the layered texture's layer 2
"$glreplay" pixel "$cap" --at 32,32 --target fbo4/color0 --json > "$tmp/d_in.json"
"$glreplay" pixel "$cap" --at 2,2 --target fbo4/color0 --json > "$tmp/d_out.json"
GLREPLAY_PIXEL_FEED_TEST_DROP=history "$glreplay" pixel "$cap" --at 20,30 --json --no-cache > "$tmp/drop.json"
"$glreplay" debug "$cap" --pixel 52,30 --json > "$tmp/dbg.json"
GLREPLAY_PIXEL_FEED_TEST_DROP=pass "$glreplay" debug "$cap" --pixel 52,30 --json > "$tmp/dbg_drop.json"
python3 - "$tmp" <<'PY'
import json, os, sys
tmp = sys.argv[1]
load = lambda n: json.load(open(os.path.join(tmp, n)))
want = {  # strip x -> how its image must have been read (one of the listed images)
    20: lambda i: i.get("read_as") == "GL_RGBA_INTEGER",
    52: lambda i: i.get("layer") == 2 and "texture" in i,
    84: lambda i: i.get("level") == 1 and i.get("read_type") == "GL_FLOAT",
    116: lambda i: i.get("layer") == 4 and "texture" in i,          # the +Z face
    148: lambda i: i.get("read_as") == "GL_STENCIL_INDEX",
    180: lambda i: i.get("samples") == 4 and "texture" in i,        # sample 2 of the 4-sample texture
    212: lambda i: i.get("samples") == 4 and i.get("read_as") == "GL_DEPTH_STENCIL",   # resolved by a blit
    240: lambda i: i.get("layers") == 3 and i.get("layer") == -1,  # layered: layer 1 ...
    241: lambda i: i.get("layers") == 3 and i.get("layer") == -1,  # ... and layer 2
}
for x, ok in want.items():
    h = load("strip%d.json" % x)
    ep = h["earlier_passes"]
    assert ep["from"] == "driver" and ep["draws_left_out"] == 7, (x, ep)
    assert any(ok(i) for i in ep["images"]), (x, ep["images"])
    for e in h["events"]:
        assert e["after"] == e["driver"], (x, e)
d_in, d_out = load("d_in.json"), load("d_out.json")
for h in (d_in, d_out):
    assert h["earlier_passes"]["from"] == "driver" and h["earlier_passes"]["draws_left_out"] == 3, h["earlier_passes"]
    assert all(e["after"] == e["driver"] for e in h["events"]), h["events"]
din = [e for e in d_in["events"] if e["kind"] == "draw"]
dout = [e for e in d_out["events"] if e["kind"] == "draw"]
assert din and not din[-1]["rejected"], din
assert dout and dout[-1]["rejected"] and "stencil" in json.dumps(dout[-1]).lower(), dout
drop, ref = load("drop.json"), load("strip20.json")
assert drop["earlier_passes"]["from"] == "model", drop["earlier_passes"]
assert "GLREPLAY_PIXEL_FEED_TEST_DROP" in drop["earlier_passes"].get("why", ""), drop["earlier_passes"]
strip = lambda h: [(e["record"], e["kind"], e["after"], e["driver"]) for e in h["events"]]
assert strip(drop) == strip(ref), (strip(drop), strip(ref))
a, b = load("dbg.json"), load("dbg_drop.json")
assert a["model_run"]["earlier_passes"] == "driver" and a["model_run"]["draws_before_stop"] == 0, a["model_run"]
assert b["model_run"]["earlier_passes"] == "model" and b["model_run"]["draws_before_stop"] == 7, b["model_run"]
# the same invocation and values; the warps resident beside it may differ (the timing model's
# state at the draw's start does not hold the left-out draws' warps)
for k in ("model_run", "residentWarps"):
    a.pop(k, None), b.pop(k, None)
assert a == b, sorted(k for k in a if a[k] != b.get(k))
print("pixel_feed_targets: 8 strips (integer, array layer, mip level, cube face, stencil, multisample, resolved, "
      "layered) "
      "from the driver; "
      "framebuffer D's stencil from the driver (1 written, 1 rejected); the give-up paths agree")
PY
echo "pixel_feed_targets: all checks passed"
