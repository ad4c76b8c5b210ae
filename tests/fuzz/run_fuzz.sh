#!/usr/bin/env bash
# Runs the fuzz targets of tests/fuzz with libFuzzer for a set time each (not part of the suite;
# the suite replays their seed corpora). Builds BUILD_DIR (default build-fuzz) with clang,
# -Dfuzzing=true and ASan+UBSan, fuzzes each target on a working copy of its corpus in WORKDIR
# (findings: WORKDIR/TARGET/crash-*, leak-*, timeout-*), and prints one line per target:
#   TARGET: N execs in S s (E/s), cov C, ft F, corpus K, findings M
#
#   tests/fuzz/run_fuzz.sh [--seconds S] [--workdir DIR] [--build DIR] [TARGET...]
#   (defaults: 60 s, /tmp/glreplay-fuzz, build-fuzz, every target)
# A finding worth keeping goes into tests/fuzz/corpus/TARGET once fixed, so the suite replays it.
set -uo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
secs=60 work=/tmp/glreplay-fuzz build=$root/build-fuzz
targets=()
while [ $# -gt 0 ]; do
  case "$1" in
    --seconds) secs=$2; shift 2 ;;
    --workdir) work=$2; shift 2 ;;
    --build) build=$2; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
  esac
done
[ ${#targets[@]} -gt 0 ] || targets=(glcap_reader capture_load state_model glsl_frontend spirv_decode replay_dispatch dap_server)

if [ ! -f "$build/build.ninja" ]; then
  CC=clang CXX=clang++ meson setup "$build" "$root" -Dfuzzing=true -Db_sanitize=address,undefined \
    -Db_lundef=false -Dbuildtype=debugoptimized -Dvscode=disabled >/dev/null || exit 1
fi
ninja -C "$build" $(printf 'tests/fuzz/fuzz_%s ' "${targets[@]}") >/dev/null || { echo "run_fuzz: building $build failed"; exit 1; }
mkdir -p "$work"

# The DAP server target serves a capture of a real program (the sample lit_mesh, frame 2), made with
# the regular build's shim (an ASan shim cannot be preloaded into an uninstrumented program).
cap=$work/lit_mesh.glcap
if [[ " ${targets[*]} " == *" dap_server "* ]] && [ ! -f "$cap" ]; then
  ninja -C "$root/build" shim/libglreplay.so samples/lit_mesh >/dev/null || { echo "run_fuzz: build/ is needed"; exit 1; }
  run=(); [ -n "${DISPLAY:-}" ] || run=(xvfb-run -a -s "-screen 0 640x480x24")
  GLREPLAY_CAPTURE_FRAMES=2 GLREPLAY_CAPTURE_OUT=$cap LD_PRELOAD=$root/build/shim/libglreplay.so \
    "${run[@]}" "$root/build/samples/lit_mesh" --frames 3 --size 160x90 >/dev/null 2>&1
  [ -f "$cap" ] || { echo "run_fuzz: could not capture lit_mesh for dap_server"; exit 1; }
fi

status=0
for t in "${targets[@]}"; do
  dir=$work/$t
  mkdir -p "$dir/corpus"
  cp -n "$root/tests/fuzz/corpus/$t/"* "$dir/corpus/" 2>/dev/null
  opts=(-max_total_time="$secs" -rss_limit_mb=2048 -timeout=20 -print_final_stats=1 -artifact_prefix="$dir/")
  asan=detect_leaks=1
  case "$t" in
    replay_dispatch) asan=detect_leaks=0 ;;           # Mesa's own allocations outlive a replay
    dap_server) opts+=(-max_len=65536); asan=detect_leaks=0 ;;  # session threads end after the input
    *) opts+=(-max_len=262144) ;;
  esac
  log=$dir/fuzz.log
  ( cd "$dir" && ASAN_OPTIONS=$asan:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
      GLREPLAY_FUZZ_CAPTURE=$cap EGL_PLATFORM=surfaceless \
      "$build/tests/fuzz/fuzz_$t" "${opts[@]}" corpus ) >"$log" 2>&1
  rc=$?
  execs=$(grep -o 'stat::number_of_executed_units: [0-9]*' "$log" | grep -o '[0-9]*$' | tail -1)
  cov=$(grep -o 'cov: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  ft=$(grep -o 'ft: [0-9]*' "$log" | tail -1 | grep -o '[0-9]*')
  n=$(ls "$dir/corpus" | wc -l)
  found=$(ls "$dir" | grep -c -E '^(crash|leak|timeout|oom)-')
  rate=$(( ${execs:-0} / (secs > 0 ? secs : 1) ))
  echo "$t: ${execs:-0} execs in $secs s ($rate/s), cov ${cov:-?}, ft ${ft:-?}, corpus $n, findings $found (exit $rc; log $log)"
  [ "$rc" -eq 0 ] && [ "$found" -eq 0 ] || status=1
done
exit $status
