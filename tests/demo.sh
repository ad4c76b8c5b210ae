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
GLREPLAY_LOG=info xvfb $G run -- build/samples/lit_mesh --frames 60 --size 640x360 > "$out/run.txt" 2>&1
grep -E "^(lit_mesh: [0-9]|glreplay)" "$out/run.txt" | head -n 12

echo
echo "== 2. capture frames 0-2 of the program (glreplay capture) into $out/lit_mesh.glcap"
xvfb $G capture --frame 0 --count 3 --out "$out/lit_mesh.glcap" -- build/samples/lit_mesh --frames 5 --size 640x360 \
  2>&1 | grep -v "^lit_mesh: GL_" || true
$G info "$out/lit_mesh.glcap" --top 5 > "$out/info.txt"
cat "$out/info.txt"

echo
echo "== 3. replay it headless (EGL surfaceless, no X server), 3 passes, verified pixel by pixel"
env -u DISPLAY $G replay "$out/lit_mesh.glcap" --loop 3 --verify

echo
echo "== 4. the API state before the last draw of the capture (glreplay state)"
ev=$($G info "$out/lit_mesh.glcap" --json | python3 -c '
import json, sys
print(max(json.load(sys.stdin)["calls"]["records"] - 10, 0))' 2>/dev/null || echo 0)
$G state "$out/lit_mesh.glcap" --event "$ev" > "$out/state.txt"
head -n 24 "$out/state.txt"

echo
echo "== 5. shader breakpoint: samples/shaders/lit_mesh/mesh.frag line 29, stop at the 1000th invocation"
echo "      that reaches it (GPU model, SIMT warps of 32 lanes); the snapshot of that warp:"
$G debug "$out/lit_mesh.glcap" --break samples/shaders/lit_mesh/mesh.frag:29 --hit 1000 > "$out/debug.txt"
head -n 40 "$out/debug.txt"

echo
echo "== 6. the same frame on the GPU model, compared pixel by pixel with the driver (llvmpipe)"
env -u DISPLAY $G model "$out/lit_mesh.glcap" --compare > "$out/model.txt"
tail -n 4 "$out/model.txt"

echo
echo "== 7. profile of the frame on the GPU model: counters, PC samples with stall reasons; a Chrome"
echo "      trace for https://ui.perfetto.dev and a plot of the counters"
env -u DISPLAY $G profile "$out/lit_mesh.glcap" --out "$out/trace.json" --counters --pc-sampling 1024 \
  --plot "$out/counters.svg" > "$out/profile.txt"
sed -n '/^top source lines/,/^$/p' "$out/profile.txt" | head -n 8
echo
echo "== done; files in $out (trace.json, counters.svg, ...). Debug it in VS Code or nvim-dap: see README.md"
