#!/usr/bin/env bash
# Emacs dap-mode attaching to a RUNNING program with the README's "glreplay: attach" template
# (`glreplay dap --stdio --pid N`): samples/lit_mesh runs under the shim; emacs_dap_mode.el sets a
# breakpoint in sky.frag on disk (hit 100), attaches, checks the stop, a local, an expression and a
# step, disconnects; the program must still be running afterwards.
# Usage: emacs_dap_mode_live.sh GLREPLAY README SHIM LIT_MESH SHADER_DIR.  Needs an X server
# (DISPLAY, e.g. xvfb-run); exit 77 (skip) without emacs or dap-mode.
set -euo pipefail
glreplay=$(realpath "$1"); readme=$(realpath "$2"); shim=$(realpath "$3"); lit=$(realpath "$4"); shaders=$(realpath "$5")
here=$(cd "$(dirname "$0")" && pwd)
command -v emacs >/dev/null || { echo "emacs_dap_mode_live: SKIP: no emacs (Debian package emacs-nox, tests/packages.txt)"; exit 77; }
ls -d /usr/share/emacs/site-lisp/elpa/dap-mode-* >/dev/null 2>&1 ||
  { echo "emacs_dap_mode_live: SKIP: no dap-mode (Debian package elpa-dap-mode, tests/packages.txt)"; exit 77; }
[ -n "${DISPLAY:-}" ] || { echo "emacs_dap_mode_live: FAIL: no DISPLAY (run under xvfb-run)" >&2; exit 1; }
tmp=$(mktemp -d /tmp/glr-emacs-live-XXXXXX)
app=
trap '[ -n "$app" ] && kill "$app" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir -m 700 "$tmp/xdg" "$tmp/home"
export XDG_RUNTIME_DIR=$tmp/xdg     # the program's socket: $XDG_RUNTIME_DIR/glreplay/<pid>.sock, as --pid finds it
LD_PRELOAD=$shim "$lit" --frames 100000 --size 160x90 >"$tmp/app.log" 2>&1 &
app=$!
for _ in $(seq 100); do [ -S "$tmp/xdg/glreplay/$app.sock" ] && break; sleep 0.1; done
[ -S "$tmp/xdg/glreplay/$app.sock" ] || { echo "emacs_dap_mode_live: FAIL: lit_mesh made no socket: $(tail -3 "$tmp/app.log")" >&2; exit 1; }
sky=$shaders/sky.frag
line=$(grep -n 'vec3 color = mix' "$sky" | cut -d: -f1)
PATH=$(dirname "$glreplay"):$PATH HOME=$tmp/home \
GLR_README=$readme GLR_TEMPLATE="glreplay: attach" GLR_KEY=:pid GLR_KEY_VALUE=$app \
GLR_SHADER=$sky GLR_LINE=$line GLR_NEXT_LINE=$((line + 1)) GLR_HIT=100 GLR_VAR=t GLR_VALUE= \
GLR_EXPR='t == clamp((v_screen.y - 0.45) * 2.0, 0.0, 1.0)' GLR_EXPR_VALUE=true \
  timeout 120 emacs --batch -l "$here/emacs_dap_mode.el" 2>"$tmp/emacs.log" ||
  { rc=$?; grep -v '^Loading \|^Debug session process exited\|^$' "$tmp/emacs.log" | tail -20 >&2; exit "$rc"; }
grep '^emacs_dap_mode: ' "$tmp/emacs.log" | sed 's/^emacs_dap_mode:/emacs_dap_mode_live:/'
# The session ended: the program goes on (it would have exited or hung otherwise).
sleep 1
kill -0 "$app" 2>/dev/null || { echo "emacs_dap_mode_live: FAIL: lit_mesh is gone after the session: $(tail -3 "$tmp/app.log")" >&2; exit 1; }
echo "emacs_dap_mode_live: lit_mesh (pid $app) still runs after the session"
