#!/usr/bin/env bash
# Runs the fidelity suite over every piglit shader test (about 2,400; long on a small machine) or a
# seeded sample. Not part of the meson suite. Usage:
#   tests/fidelity/piglit_sweep.sh [BUILD_DIR [OUT_DIR [piglit_fidelity.py options]]]
# e.g. tests/fidelity/piglit_sweep.sh build /tmp/fid -j 4
#      tests/fidelity/piglit_sweep.sh build /tmp/fid400 --sample 400 --seed 1
# Writes OUT_DIR/results.json (every test's bucket and reason), OUT_DIR/table.md and OUT_DIR/log.txt;
# OUT_DIR/kept/ holds the work folder (capture, ...) of each test that does not agree.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}; shift || true
out=${1:-fidelity-sweep}; shift || true
case "$build" in /*) ;; *) build="$root/$build" ;; esac
cli="$build/ui_ipc/cli/glreplay"
[ -x "$cli" ] || { echo "piglit_sweep: $cli not built (bash tests/build.sh $build)" >&2; exit 2; }
mkdir -p "$out"
sel=(--all)
for a in "$@"; do case "$a" in --sample|--baseline|--update-baseline) sel=() ;; esac; done
python3 "$root/tests/fidelity/piglit_fidelity.py" --glreplay "$cli" "${sel[@]}" \
  --json "$out/results.json" --markdown "$out/table.md" --keep "$out/kept" "$@" 2>&1 | tee "$out/log.txt"
