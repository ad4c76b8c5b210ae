#!/usr/bin/env bash
# The demo: installs what glreplay needs, builds it, runs a sample program under the shim on a
# headless X server (Xvfb + Mesa llvmpipe) and shows what the shim intercepted.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
echo "== installing dependencies (Debian packages, see tests/packages.txt)"
bash tests/setup.sh
echo "== building (meson + ninja, warnings are errors)"
bash tests/build.sh build
echo "== running samples/lit_mesh for 60 frames under the shim (glreplay run), headless on Xvfb"
GLREPLAY_LOG=info xvfb-run -a -s "-screen 0 1280x1024x24" \
  build/ui_ipc/cli/glreplay run -- build/samples/lit_mesh --frames 60 --size 640x360 2>&1 \
  | grep -E "^(lit_mesh|glreplay)" | head -n 16
echo "== done: every GL call above went through libglreplay.so (see README.md for what comes next)"
