#!/usr/bin/env bash
# Re-records tests/fidelity/baseline_sample.json: runs the seeded sample it names (same size and
# seed) and stores the tests that agree now. Review the diff before committing it: a test that
# leaves the list is a regression the meson test 'fidelity piglit sample' would have reported.
# Usage: tests/fidelity/update_baseline.sh [BUILD_DIR [piglit_fidelity.py options, e.g. --size N --seed S]]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
build=${1:-build}; shift || true
case "$build" in /*) ;; *) build="$root/$build" ;; esac
exec python3 "$root/tests/fidelity/piglit_fidelity.py" --glreplay "$build/ui_ipc/cli/glreplay" \
  --update-baseline "$root/tests/fidelity/baseline_sample.json" "$@"
