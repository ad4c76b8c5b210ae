#!/usr/bin/env bash
# Issue 15's acceptance on programs nobody here wrote: `glreplay pixel` checked against the
# driver's per-draw images (tests/fidelity/pixel_history_check.py: for N pixels of every target,
# the history's value after each event equals `replay --png`'s image after it, every event whose
# image changes the pixel is in the history, the history's own driver probe agrees; --debug 1:
# debug-this-pixel stops in the invocation the history names, its unblended output = the driver's
# pixel).
#   glmark2: frame 5 of the scenes shading:phong, jellyfish and terrain at 320x240 (suite test;
#            terrain's back buffer comes from passes into framebuffer objects, which the history
#            must take from the driver's images: --driver-passes terrain; its framebuffer-object
#            targets are drawn at the pixel's quad: --quad-only terrain);
#   depth:   frame 5 of shadow at 320x240, whose first pass leaves a depth texture (taken from the
#            driver in its format: --driver-passes shadow);
#   game:    frame 60 of teeworlds (Debian package teeworlds; a benchmark: minutes, most of it the
#            per-draw replay and the model pass of its 48 events).
# usage: pixel_programs.sh glmark2|depth|game GLREPLAY SHIM [PIXELS]   (needs DISPLAY, e.g. xvfb-run)
set -euo pipefail
what=$1 glreplay=$2 shim=$3 pixels=${4:-3}
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d /tmp/glr-pixprog.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# the on-disk cache of driver answers (debugger/pixel/pixel_disk_cache.c) in this run's own folder
export GLREPLAY_PIXEL_CACHE="$tmp/pixel-cache"
caps=()
case $what in
glmark2)
  command -v glmark2 >/dev/null || { echo "SKIP: no glmark2 (Debian package glmark2-x11)"; exit 77; }
  for sc in shading:shading=phong jellyfish; do
    out="$tmp/${sc%%:*}.glcap"
    GLREPLAY_CAPTURE_FRAMES=5 GLREPLAY_CAPTURE_OUT="$out" LD_PRELOAD=$shim \
      timeout 120 glmark2 -s 320x240 -b "$sc:nframes=6" >"$tmp/run.log" 2>&1 || true
    [ -f "$out" ] || { echo "FAIL: glmark2 $sc was not captured"; cat "$tmp/run.log"; exit 1; }
    caps+=("$out")
  done ;;
depth)
  # shadow: its first pass renders a depth texture that the back buffer's draws sample; the
  # history must take it from the driver in its own format (--driver-passes)
  command -v glmark2 >/dev/null || { echo "SKIP: no glmark2 (Debian package glmark2-x11)"; exit 77; }
  out="$tmp/shadow.glcap"
  GLREPLAY_CAPTURE_FRAMES=5 GLREPLAY_CAPTURE_OUT="$out" LD_PRELOAD=$shim \
    timeout 120 glmark2 -s 320x240 -b shadow:nframes=6 >"$tmp/run.log" 2>&1 || true
  [ -f "$out" ] || { echo "FAIL: glmark2 shadow was not captured"; cat "$tmp/run.log"; exit 1; }
  python3 "$here/../fidelity/pixel_history_check.py" "$glreplay" "$out" --pixels 3 --driver-passes shadow
  # the on-disk cache's key: a driver changed in place misses (shadow's depth image in the entry)
  exec "$here/pixel_disk_cache_driver.sh" "$glreplay" "$out" 160,120 ;;
game)
  [ -x /usr/games/teeworlds ] || { echo "SKIP: no /usr/games/teeworlds (Debian package teeworlds)"; exit 77; }
  python3 - "$shim" "$tmp/teeworlds.glcap" "$here/../support" <<'PY'
import sys
sys.path.insert(0, sys.argv[3])
from game_capture import capture_game
ok, msg = capture_game(['/usr/games/teeworlds'], sys.argv[1], 60, sys.argv[2], 150)
print(msg)
sys.exit(0 if ok else 1)
PY
  caps+=("$tmp/teeworlds.glcap") ;;
*) echo "usage: pixel_programs.sh glmark2|depth|game GLREPLAY SHIM [PIXELS]"; exit 2 ;;
esac
python3 "$here/../fidelity/pixel_history_check.py" "$glreplay" "${caps[@]}" --pixels "$pixels" --debug 1
if [ "$what" = glmark2 ]; then
  # terrain: 7 targets (the back buffer and six framebuffer objects), one pixel each; debug this
  # pixel on the back buffer and the first framebuffer object (an earlier pass, run in the model)
  # only, for the suite's time
  out="$tmp/terrain.glcap"
  GLREPLAY_CAPTURE_FRAMES=5 GLREPLAY_CAPTURE_OUT="$out" LD_PRELOAD=$shim \
    timeout 120 glmark2 -s 320x240 -b terrain:nframes=6 >"$tmp/run.log" 2>&1 || true
  [ -f "$out" ] || { echo "FAIL: glmark2 terrain was not captured"; cat "$tmp/run.log"; exit 1; }
  python3 "$here/../fidelity/pixel_history_check.py" "$glreplay" "$out" --pixels 1 --debug 1 --debug-max 2 \
    --driver-passes terrain --quad-only terrain
  # the on-disk cache across processes: a second `glreplay pixel` takes the first's driver answers
  # (terrain's earlier-pass images: several sizes and formats) and equals a history without it
  "$here/pixel_disk_cache_cli.sh" "$glreplay" "$out" 160,120 80,60
fi
