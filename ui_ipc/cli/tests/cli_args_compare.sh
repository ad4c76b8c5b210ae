#!/bin/bash
# Runs every argument set of cli_args.txt (one per line, shell words; "$CAP" is the capture given)
# with two glreplay binaries and prints the sets whose exit status, stdout or stderr differ (model
# timings and process ids masked). For changes to the verbs' option parsing: the old binary against
# the new. Both must find the same shim: set GLREPLAY_SHIM when one of them is a copy.
# Usage: [GLREPLAY_SHIM=build/shim/libglreplay.so] cli_args_compare.sh OLD_GLREPLAY NEW_GLREPLAY CAPTURE.glcap
set -u
[ -n "${GLREPLAY_SHIM:-}" ] && export GLREPLAY_SHIM=$(realpath "$GLREPLAY_SHIM")
old=$(realpath "$1") new=$(realpath "$2") CAP=$(realpath "$3")
table=$(realpath "$(dirname "$0")/cli_args.txt")
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT; cd "$work"
n=0 bad=0
while IFS= read -r line; do
  [ -z "$line" ] && continue
  eval "set -- $line"
  timeout 60 "$old" "$@" >o.out 2>o.err </dev/null; orc=$?
  timeout 60 "$new" "$@" >n.out 2>n.err </dev/null; nrc=$?
  sed -i -E 's/"seconds":\{[^}]*\}//; s/pid [0-9]+/pid N/; s|/[0-9]+\.sock|/N.sock|' o.out n.out o.err n.err
  n=$((n+1))
  if [ $orc != $nrc ] || ! cmp -s o.out n.out || ! cmp -s o.err n.err; then
    bad=$((bad+1)); echo "DIFF: $line (status $orc vs $nrc)"; diff o.err n.err | head -5; diff o.out n.out | head -5
  fi
done < "$table"
echo "$n argument sets, $bad differ"
[ $bad = 0 ]
