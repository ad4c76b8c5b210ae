#!/usr/bin/env bash
# `glreplay pixel` end to end on captures of two samples (lit_mesh: depth test, early rejection;
# multipass: an FBO with two colour attachments, then a post-process pass): for 3 pixels of each
# target, the history's value after every event equals the driver's per-draw image (`replay
# --png`), every event whose image changes the pixel is in the history, and the history's own
# driver probe agrees (tests/fidelity/pixel_history_check.py). Also: bad input gets a one-line
# error and exit 2; debug --pixel stops at that pixel.
# A 4x multisampled window (tests/capture/msaa_window, EGL): the same checks, and a fragment's
# depth tests and writes come per sample.
# Histories of two pixels in one process: the second takes the first's driver answers (PIXEL_CACHE_CHECK).
# usage: pixel_samples.sh GLREPLAY SHIM LIT_MESH MULTIPASS MSAA_WINDOW PIXEL_CACHE_CHECK
set -euo pipefail
glreplay=$1 shim=$2 lit=$3 multipass=$4 msaa=$5 cache_check=$6
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/glr-pixel.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# the on-disk cache of driver answers (debugger/pixel/pixel_disk_cache.c) in this run's own folder
export GLREPLAY_PIXEL_CACHE="$tmp/pixel-cache"
for s in "$lit" "$multipass"; do
  # the program's own output is shown when it fails (an X server refusing the connection is then
  # recognised and the test rerun by tests/run.sh)
  GLREPLAY_CAPTURE_FRAMES=0-1 GLREPLAY_CAPTURE_OUT="$tmp/$(basename "$s").glcap" LD_PRELOAD=$shim \
    "$s" --frames 2 --size 160x90 >"$tmp/run.log" 2>&1 || { echo "FAIL: $s exited $?"; cat "$tmp/run.log"; exit 1; }
done
(unset DISPLAY; EGL_PLATFORM=surfaceless GLREPLAY_CAPTURE_FRAMES=2 GLREPLAY_CAPTURE_OUT="$tmp/msaa.glcap" \
  LD_PRELOAD=$shim "$msaa" 4 >/dev/null 2>&1)
python3 "$here/../fidelity/pixel_history_check.py" "$glreplay" "$tmp/lit_mesh.glcap" "$tmp/multipass.glcap" \
  "$tmp/msaa.glcap" --pixels 3 --debug 1
"$cache_check" "$tmp/multipass.glcap" 80,45 20,70
"$cache_check" "$tmp/multipass.glcap" 80,45 20,70 fbo1
"$glreplay" pixel "$tmp/msaa.glcap" --at 32,24 --json > "$tmp/m.json"
python3 - "$tmp/m.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1]))
f = [f for e in h["events"] if e["kind"] == "draw" for f in e["fragments"] if f["outcome"] == "written"][0]
assert f["coverage"] == 15 and [t["sample"] for t in f["tests"]] == [0, 1, 2, 3], f
assert [w["sample"] for w in f["writes"]] == [0, 1, 2, 3], f["writes"]
print("msaa: a written fragment covers 4 samples, tested and written per sample")
PY
# bad input: one line, exit 2
check_error() {
  local want=$1; shift
  set +e; out=$("$glreplay" "$@" 2>&1 >/dev/null); rc=$?; set -e
  [ "$rc" = 2 ] || { echo "FAIL: $* exited $rc"; exit 1; }
  [ "$(printf '%s\n' "$out" | wc -l)" = 1 ] || { echo "FAIL: $*: not one line: $out"; exit 1; }
  case "$out" in *"$want"*) ;; *) echo "FAIL: $*: '$out' lacks '$want'"; exit 1;; esac
}
check_error "--at X,Y is required" pixel "$tmp/lit_mesh.glcap"
check_error "--at needs X,Y" pixel "$tmp/lit_mesh.glcap" --at 3
check_error "--target needs" pixel "$tmp/lit_mesh.glcap" --at 3,3 --target fbo
check_error "outside context 1's 160x90 back buffer" pixel "$tmp/lit_mesh.glcap" --at 500,3
check_error "never drawn to" pixel "$tmp/lit_mesh.glcap" --at 3,3 --target fbo77
check_error "cannot open" pixel "$tmp/none.glcap" --at 3,3
head -c 3000 "$tmp/lit_mesh.glcap" > "$tmp/cut.glcap"
check_error "cut.glcap" pixel "$tmp/cut.glcap" --at 3,3
# debug this pixel: the stop's focused lane is at the pixel, in the draw the history names
"$glreplay" pixel "$tmp/multipass.glcap" --at 80,45 --json > "$tmp/h.json"
"$glreplay" debug "$tmp/multipass.glcap" --pixel 80,45 --json > "$tmp/d.json"
python3 - "$tmp/h.json" "$tmp/d.json" <<'PY'
import json, sys
h = json.load(open(sys.argv[1])); d = json.load(open(sys.argv[2]))
last = [e for e in h["events"] if e["kind"] == "draw" and not e["rejected"]][-1]
lane = d["lanes"][d["lane"]]
assert (lane["x"], lane["y"]) == (80, 45), lane
assert d["draw"] == last["draw"] and d["event"] == last["record"], (d["draw"], d["event"], last["record"])
assert d["pixel"]["written"], d["pixel"]
print("debug --pixel 80,45: draw %d, lane %d at (80, 45), line %d" % (d["draw"], d["lane"], d["line"]))
PY
echo "pixel_samples: all checks passed"
