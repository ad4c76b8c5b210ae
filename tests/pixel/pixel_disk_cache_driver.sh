#!/bin/bash
# The on-disk cache's key notices a driver changed in place (debugger/pixel/pixel_driver_ident.c):
# Mesa's driver is loaded from a copy (LIBGL_DRIVERS_PATH, the same for every run, so the
# environment part of the key does not change); the first `glreplay pixel` writes the driver's
# answers and names the copy in its entry, a second takes them, and after the copy is touched
# (a new modification time) or replaced (a new file, as a package upgrade does) the next history
# misses, each time, and replays on the driver again.
# usage: pixel_disk_cache_driver.sh GLREPLAY CAPTURE X,Y
set -euo pipefail
glreplay=$1 cap=$2 at=$3
dri=""
for d in /usr/lib/x86_64-linux-gnu/dri /usr/lib64/dri /usr/lib/dri; do
  [ -f "$d/swrast_dri.so" ] && { dri=$d; break; }
done
[ -n "$dri" ] || { echo "SKIP: no Mesa swrast_dri.so to copy"; exit 77; }
tmp=$(mktemp -d /tmp/glr-pxdisk-drv.XXXXXX)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/dri"
for f in swrast_dri.so kms_swrast_dri.so; do   # llvmpipe under GLX / under EGL
  [ -f "$dri/$f" ] && cp "$dri/$f" "$tmp/dri/$f"
done
export GLREPLAY_PIXEL_CACHE="$tmp/cache" LIBGL_DRIVERS_PATH="$tmp/dri"
cached() {   # prints driver_cached of one history (exit 1, a model/driver disagreement, is a history too)
  local rc=0
  "$glreplay" pixel "$cap" --json --at "$at" > "$tmp/h.json" || rc=$?
  [ $rc -le 1 ] || { echo "FAIL: glreplay pixel $cap --at $at exited $rc" >&2; exit 1; }
  python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["driver_cached"])' "$tmp/h.json"
}
want() {
  [ "$1" = "$2" ] || { echo "FAIL: $3: driver_cached $1, want $2"; exit 1; }
}
want "$(cached)" False "first history"
grep -qs "$tmp/dri/" "$tmp"/cache/*.glpx ||
  { echo "FAIL: the entry does not name the driver loaded from $tmp/dri"; exit 1; }
want "$(cached)" True "second history, same driver"
touch -d '+1 minute' "$tmp"/dri/*.so
want "$(cached)" False "after the driver's file was touched"
want "$(cached)" True "again, same driver"
for f in "$tmp"/dri/*.so; do cp "$f" "$f.new" && mv "$f.new" "$f"; done
want "$(cached)" False "after the driver's file was replaced"
echo "disk cache: a touched or replaced driver misses; the same driver hits"
