#!/usr/bin/env bash
# Builds glreplay in every supported configuration with warnings as errors (-Dwerror=true) and
# runs the unit tests (`meson test --suite unit`) in each. For developers and packagers; CI
# (tests/run.sh) builds only debugoptimized, clang release and ASan.
#
# Usage: tests/build_matrix.sh [-j N] [CONFIG...]      (no CONFIG: all of them)
#   CONFIG   compiler  meson options                    build dir
#   debug    gcc       -Dbuildtype=debug                build-debug
#   dbgopt   gcc       -Dbuildtype=debugoptimized       build-dbgopt
#   rel      gcc       -Dbuildtype=release              build-rel
#   os       gcc       -Dbuildtype=minsize (-Os)        build-os
#   o1       gcc       -Doptimization=1 -Ddebug=true    build-o1
#   clang    clang     -Dbuildtype=debugoptimized       build-clang
#   clang-rel clang    -Dbuildtype=release              build-clang-rel
# A build dir that exists is reconfigured with these options and reused (its compiler stays the
# one it was set up with). With ccache on PATH and CC/CXX unset or starting with "ccache", the
# compilers run through ccache. Ends with one line per configuration and exits non-zero when a
# configuration did not build, a unit test failed, or its compiler is missing.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

jobs=2
if [ "${1:-}" = "-j" ]; then jobs=${2:?-j needs a number}; shift 2; fi

all=(debug dbgopt rel os o1 clang clang-rel)
[ $# -gt 0 ] && configs=("$@") || configs=("${all[@]}")

launcher=""
if command -v ccache >/dev/null 2>&1; then
  case "${CC:-ccache}" in ccache*) launcher="ccache " ;; esac
fi

count_results() { # $1: testlog.json -> "passed failed"
  python3 - "$1" <<'PYEOF'
import json, sys
p = f = 0
try:
    for l in open(sys.argv[1]):
        r = json.loads(l)["result"]
        p += r in ("OK", "EXPECTEDFAIL")
        f += r in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS")
except FileNotFoundError:
    f = 1
print(p, f)
PYEOF
}

summary=(); bad=0
for name in "${configs[@]}"; do
  comp=gcc; cxx=g++
  case "$name" in
    debug)     opts=(-Dbuildtype=debug) ;;
    dbgopt)    opts=(-Dbuildtype=debugoptimized) ;;
    rel)       opts=(-Dbuildtype=release) ;;
    os)        opts=(-Dbuildtype=minsize) ;;
    o1)        opts=(-Doptimization=1 -Ddebug=true) ;;
    clang)     opts=(-Dbuildtype=debugoptimized); comp=clang; cxx=clang++ ;;
    clang-rel) opts=(-Dbuildtype=release); comp=clang; cxx=clang++ ;;
    *) echo "unknown configuration '$name' (known: ${all[*]})"; summary+=("$name: unknown"); bad=1; continue ;;
  esac
  dir=build-$name
  echo "== $name: $comp ${opts[*]} -Dwerror=true in $dir"
  if ! command -v "$comp" >/dev/null 2>&1; then
    summary+=("$name: $comp not installed"); bad=1; continue
  fi
  if [ -f "$dir/build.ninja" ]; then
    meson configure "$dir" -Dwerror=true "${opts[@]}" >/dev/null
  else
    CC="$launcher$comp" CXX="$launcher$cxx" meson setup "$dir" -Dwerror=true "${opts[@]}" >/dev/null
  fi || { summary+=("$name: configure failed"); bad=1; continue; }
  if ! ninja -C "$dir" -j "$jobs" >/dev/null; then
    ninja -C "$dir" -j 1 2>&1 | grep -v '^\[' | head -60   # show the errors
    summary+=("$name: build failed"); bad=1; continue
  fi
  rm -f "$dir/meson-logs/testlog.json"
  # Only what went wrong is shown (failed tests with their logs); the counts come from testlog.json.
  meson test -C "$dir" --suite unit --no-rebuild --print-errorlogs --num-processes "$jobs" \
    --timeout-multiplier 3 | grep -vE '^ *[0-9]+/[0-9]+ .* OK +[0-9.]+s|^(Ok|Expected Fail|Fail|Unexpected Pass|Skipped|Timeout): |^Full log|^ninja: '
  read -r p f < <(count_results "$dir/meson-logs/testlog.json")
  [ "$f" -eq 0 ] && [ "$p" -gt 0 ] || bad=1
  summary+=("$name: built, unit tests $p passed, $f failed")
done

echo "== summary"
printf '%s\n' "${summary[@]}"
exit "$bad"
