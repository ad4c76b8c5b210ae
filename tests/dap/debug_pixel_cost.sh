#!/usr/bin/env bash
# What debug-this-pixel's own run models before its stop (`glreplay debug --pixel X,Y --json`,
# "model_run": the records fed to the model and the draws it modelled to their end before the
# stop's draw), timing-free, on a capture with an FBO pass (the multipass sample: 5 draws into an
# FBO, then the post-process draw into the back buffer that writes pixel 80,45). The stop is still
# in the draw the pixel's history names, at the pixel. The expected count of draws modelled
# before the stop is 0: the FBO pass's 5 draws are left out, their images are the driver's (see
# docs/PIXEL_HISTORY.md, "Debug this pixel").
# usage: debug_pixel_cost.sh GLREPLAY SHIM MULTIPASS
set -euo pipefail
glreplay=$1 shim=$2 multipass=$3
tmp=$(mktemp -d /tmp/glr-dbgcost.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export GLREPLAY_PIXEL_CACHE="$tmp/pixel-cache"
GLREPLAY_CAPTURE_FRAMES=0-1 GLREPLAY_CAPTURE_OUT="$tmp/mp.glcap" LD_PRELOAD=$shim \
  "$multipass" --frames 2 --size 160x90 >"$tmp/run.log" 2>&1 || { echo "FAIL: multipass exited $?"; cat "$tmp/run.log"; exit 1; }
"$glreplay" pixel "$tmp/mp.glcap" --at 80,45 --json > "$tmp/h.json"
"$glreplay" debug "$tmp/mp.glcap" --pixel 80,45 --json > "$tmp/d.json"
python3 - "$tmp/h.json" "$tmp/d.json" <<'PY'
import json, sys
hist, stop = (json.load(open(p)) for p in sys.argv[1:3])
# the stop itself (lane at the pixel, the history's draw) is checked by tests/pixel/pixel_samples.sh;
# here: it is in the draw the history names, written, after the run left the earlier passes out
drawn = [e["draw"] for e in hist["events"] if e["kind"] == "draw" and not e["rejected"]]
assert stop["pixel"]["written"] and stop["draw"] == drawn[-1] and stop["pixel"]["x"] == 80, (stop["pixel"], drawn)
h, d = hist, stop
run = d["model_run"]
# the run starts at the frame's first record and stops inside the pixel's draw
assert run["records"] == d["event"] + 1, (run, d["event"])
left_out = h["earlier_passes"]["draws_left_out"]
assert left_out == 5, h["earlier_passes"]
# the run leaves the FBO pass's draws out (their images come from the driver, as in the history):
# before this, every draw before the stop's was modelled (draws_before_stop 5)
assert run["earlier_passes"] == "driver" and run["draws_left_out"] == left_out, run
assert run["draws_before_stop"] == d["draw"] - left_out == 0, (run, d["draw"])
print("debug --pixel 80,45: stop in draw %d (record %d); the model ran %d records, %d draws before it "
      "(the history leaves %d out)" % (d["draw"], d["event"], run["records"], run["draws_before_stop"], left_out))
PY
echo "debug_pixel_cost: all checks passed"
