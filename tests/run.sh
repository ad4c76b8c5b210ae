#!/usr/bin/env bash
# The whole test suite: installs dependencies, builds with -Werror, runs every test (unit and
# end-to-end under one Xvfb), then runs the unit tests again in a clang release build and in an
# ASan+UBSan build.
# Ends with the line "N passed, N failed".
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
bash tests/setup.sh || { echo "setup failed"; echo "0 passed, 1 failed"; exit 1; }

passed=0; failed=0
failed_names=() # "build dir: test name" of each failure, listed again just before the last line
count_log() { # adds the results of a meson testlog.json to the totals
  local log=$1 p f
  [ -f "$log" ] || return 0
  p=$(python3 -c 'import json,sys
n=0
for l in open(sys.argv[1]):
    r=json.loads(l)["result"]
    n+= r in ("OK","EXPECTEDFAIL")
print(n)' "$log")
  f=$(python3 -c 'import json,sys
n=0
for l in open(sys.argv[1]):
    r=json.loads(l)["result"]
    n+= r in ("FAIL","TIMEOUT","ERROR","UNEXPECTEDPASS")
print(n)' "$log")
  passed=$((passed + p)); failed=$((failed + f))
  local n
  while IFS= read -r n; do [ -n "$n" ] && failed_names+=("$(basename "$(dirname "$(dirname "$log")")"): $n"); done < <(python3 -c 'import json,sys
for l in open(sys.argv[1]):
    r=json.loads(l)
    if r["result"] in ("FAIL","TIMEOUT","ERROR","UNEXPECTEDPASS"):
        print(r["result"], r["name"], "(%.1f s)" % r.get("duration", 0))' "$log")
}

echo "== build (warnings are errors)"
if ! bash tests/build.sh build; then
  echo "build failed"; echo "$passed passed, $((failed + 1)) failed"; exit 1
fi
# Tests that failed only because the X server refused a connection (Xvfb under load: "Failed to
# open display", glmark2's "Could not initialize canvas") run once more, alone, and the second
# result counts; any other failure stands. The reruns are listed, so a flaky display is visible.
rerun_display_failures() { # $1: build dir (its testlog.json is replaced by the merged results)
  local log=$1/meson-logs/testlog.json first=$1/meson-logs/testlog-first.json
  [ -f "$log" ] || return 0
  local names
  names=$(python3 - "$log" <<'PYEOF'
import json, sys
pat = ("Failed to open display", "Could not initialize canvas", "cannot open display", "Can't open display", ": no display")
for l in open(sys.argv[1]):
    r = json.loads(l)
    out = (r.get("stdout") or "") + (r.get("stderr") or "")
    if r["result"] in ("FAIL", "ERROR") and any(p in out for p in pat):
        print(r["name"].split(" / ", 1)[-1])
PYEOF
)
  [ -n "$names" ] || return 0
  echo "== rerunning, alone, tests whose X connection was refused:"
  echo "$names" | sed 's/^/   /'
  mv "$log" "$first"
  local args=()
  while IFS= read -r n; do args+=("$n"); done <<< "$names"
  xvfb-run -a -s "-screen 0 1280x1024x24" meson test -C "$1" --no-rebuild --print-errorlogs \
    --num-processes 1 --timeout-multiplier 3 "${args[@]}"
  python3 - "$first" "$log" <<'PYEOF'
import json, sys
first, again = sys.argv[1], sys.argv[2]
redo = {}
try:
    for l in open(again):
        r = json.loads(l)
        redo[r["name"]] = l
except FileNotFoundError:
    pass
lines = [redo.get(json.loads(l)["name"], l) for l in open(first)]
open(again, "w").write("".join(lines))
PYEOF
}

echo "== tests (unit + end-to-end, Xvfb + Mesa llvmpipe)"
rm -f build/meson-logs/testlog.json
xvfb-run -a -s "-screen 0 1280x1024x24" meson test -C build --print-errorlogs --num-processes 2 \
  --timeout-multiplier 3
rerun_display_failures build
count_log build/meson-logs/testlog.json

# A second configuration a packager would pick: clang, release (-O3, NDEBUG), warnings as errors.
# Only the unit suite runs there (cheap); tests/build_matrix.sh covers the other configurations.
# Where clang is missing (tests/setup.sh installs it from tests/packages.txt), gcc release stands in.
echo "== unit tests in a second configuration (clang, release, warnings are errors)"
second_cc=clang second_cxx=clang++ second_dir=build-clang-rel
if ! command -v clang >/dev/null 2>&1; then
  echo "clang not found: gcc release instead"; second_cc=gcc second_cxx=g++ second_dir=build-rel
fi
case "${CC:-}" in ccache*) second_cc="ccache $second_cc" second_cxx="ccache $second_cxx" ;; esac
if CC="$second_cc" CXX="$second_cxx" bash tests/build.sh "$second_dir" --buildtype=release; then
  rm -f "$second_dir/meson-logs/testlog.json"
  meson test -C "$second_dir" --suite unit --print-errorlogs --num-processes 2 --timeout-multiplier 3
  count_log "$second_dir/meson-logs/testlog.json"
else
  echo "$second_dir build failed"; failed=$((failed + 1)); failed_names+=("$second_dir build")
fi

echo "== unit tests under ASan+UBSan"
if bash tests/build.sh build-asan -Db_sanitize=address,undefined -Db_lundef=false; then
  rm -f build-asan/meson-logs/testlog.json
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 \
    meson test -C build-asan --suite unit --print-errorlogs --num-processes 2 --timeout-multiplier 4
  count_log build-asan/meson-logs/testlog.json
else
  echo "ASan build failed"; failed=$((failed + 1)); failed_names+=("build-asan build")
fi

echo "== the Debian package: dpkg-buildpackage -b of this tree, lintian, apt-get install, the installed files checked"
# tests/package_smoke.sh --deb: built from a copy of the working tree in /tmp/pkg, installed with
# apt-get, checked from /usr with nothing from the build tree, then removed again.
if [ "$(id -u)" = 0 ] && command -v dpkg-buildpackage >/dev/null 2>&1 && command -v lintian >/dev/null 2>&1; then
  if bash tests/package_smoke.sh --deb build; then
    passed=$((passed + 1))
  else
    echo "package stage failed"; failed=$((failed + 1)); failed_names+=("package stage")
  fi
  DEBIAN_FRONTEND=noninteractive apt-get remove -y -q glreplay >/dev/null 2>&1 || true
else
  echo "not root, or dpkg-buildpackage/lintian missing (tests/setup.sh installs them): package stage skipped"
fi

# The failures again, so that the last lines of a long log say which tests they were and how
# they ended (the last lines of each one's output; a CI report may keep only the log's tail).
if [ "$failed" -gt 0 ]; then
  echo "== failed:"
  for n in "${failed_names[@]}"; do echo "   $n"; done
  for log in build/meson-logs/testlog.json "$second_dir/meson-logs/testlog.json" build-asan/meson-logs/testlog.json; do
    [ -f "$log" ] || continue
    python3 - "$log" <<'PYEOF'
import json, sys
for l in open(sys.argv[1]):
    r = json.loads(l)
    if r["result"] in ("FAIL", "TIMEOUT", "ERROR", "UNEXPECTEDPASS"):
        out = ((r.get("stdout") or "") + (r.get("stderr") or "")).rstrip().splitlines()
        print("== the end of %s's output:" % r["name"])
        for line in out[-15:]:
            print("   | " + line[:200])
PYEOF
  done
  echo "== failed (as above):"
  for n in "${failed_names[@]}"; do echo "   $n"; done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
