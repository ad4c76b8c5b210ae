#!/usr/bin/env bash
# The demo: installs what glreplay needs, builds it, runs a sample program under the shim on a
# headless X server (Xvfb + Mesa llvmpipe), captures frames of it, replays them headless and
# pixel-checks them against the program's own images, and shows the API state at a draw.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
echo "== installing dependencies (Debian packages, see tests/packages.txt)"
bash tests/setup.sh
echo "== building (meson + ninja, warnings are errors)"
bash tests/build.sh build
G=build/ui_ipc/cli/glreplay
out=$(mktemp -d /tmp/glreplay-demo.XXXXXX)
xvfb() { xvfb-run -a -s "-screen 0 1280x1024x24" "$@"; }

echo
echo "== 1. samples/lit_mesh for 60 frames under the shim (glreplay run); what the shim intercepted:"
GLREPLAY_LOG=info xvfb $G run -- build/samples/lit_mesh --frames 60 --size 640x360 2>&1 \
  | grep -E "^(lit_mesh: [0-9]|glreplay)" | head -n 12

echo
echo "== 2. capture frames 0-2 of the program (glreplay capture) into $out/lit_mesh.glcap"
xvfb $G capture --frame 0 --count 3 --out "$out/lit_mesh.glcap" -- build/samples/lit_mesh --frames 5 --size 640x360 \
  2>&1 | grep -v "^lit_mesh: GL_" || true
$G info "$out/lit_mesh.glcap" --top 5

echo
echo "== 3. replay it headless (EGL surfaceless, no X server), 3 passes, verified pixel by pixel"
env -u DISPLAY $G replay "$out/lit_mesh.glcap" --loop 3 --verify

echo
echo "== 4. the API state at the first draw of the last frame (glreplay state)"
ev=$($G info "$out/lit_mesh.glcap" --json | python3 -c '
import json, sys
info = json.load(sys.stdin)
draws = info.get("draw_events") or []
print(draws[-3] if len(draws) >= 3 else (draws[0] if draws else 0))')
$G state "$out/lit_mesh.glcap" --event "$ev" | head -n 40
echo
echo "== done; files in $out (see README.md for the rest)"
