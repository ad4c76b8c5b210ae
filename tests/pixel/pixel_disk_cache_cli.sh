#!/bin/bash
# The pixel history's on-disk cache (debugger/pixel/pixel_disk_cache.c) across processes: the
# first `glreplay pixel` of a capture writes the driver's answers, a second one (another pixel,
# another process) takes them (driver_cached) and its history equals the same history with
# --no-cache, apart from the timings. Needs earlier passes (their images are in the entry).
# usage: pixel_disk_cache_cli.sh GLREPLAY CAPTURE X1,Y1 X2,Y2
set -euo pipefail
glreplay=$1 cap=$2 p1=$3 p2=$4
tmp=$(mktemp -d /tmp/glr-pxdisk-cli.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
export GLREPLAY_PIXEL_CACHE="$tmp/cache"
run() {   # exit 1 (the model and the driver disagree somewhere) is a history too
  local rc=0
  "$glreplay" pixel "$cap" --json "$@" || rc=$?
  [ $rc -le 1 ] || { echo "FAIL: glreplay pixel $cap $* exited $rc" >&2; exit 1; }
}
run --at "$p1" > "$tmp/first.json"
run --at "$p2" > "$tmp/second.json"
run --at "$p2" --no-cache > "$tmp/ref.json"
python3 - "$tmp" <<'PY'
import json, sys
d = sys.argv[1]
first, second, ref = (json.load(open("%s/%s.json" % (d, n))) for n in ("first", "second", "ref"))
cached = [h.pop("driver_cached") for h in (first, second, ref)]
assert cached == [False, True, False], "driver_cached %s, want first miss, second hit, --no-cache miss" % cached
for h in (second, ref):
    h.pop("seconds")
images = ref.get("earlier_passes", {}).get("images", [])
assert ref.get("earlier_passes", {}).get("from") == "driver" and images, ref.get("earlier_passes")
assert ref["driver_check"]["events_checked"] > 0, ref["driver_check"]
if second != ref:
    for k in ref:
        if second.get(k) != ref[k]:
            print("differs: %s\n  from the cache: %s\n  without it:     %s" % (k, str(second.get(k))[:400], str(ref[k])[:400]))
    sys.exit("FAIL: the history from the on-disk cache differs from the history without it")
print("disk cache across processes: the second history took the first's driver answers (%d earlier-pass "
      "images, %d events checked) and equals the history without the cache" % (len(images), ref["driver_check"]["events_checked"]))
PY
