#!/usr/bin/env bash
# Configures and builds glreplay in build/ (warnings are errors). Usage: tests/build.sh [BUILD_DIR [meson args]]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-build}; shift || true
cd "$root"
if [ ! -f "$dir/build.ninja" ]; then
  meson setup "$dir" --buildtype=debugoptimized -Dwerror=true "$@" >/dev/null
fi
ninja -C "$dir" >/dev/null || ninja -C "$dir"   # on failure, show the errors
