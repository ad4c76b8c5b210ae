#!/usr/bin/env bash
# Emacs dap-mode (Debian 12: emacs 28.2, elpa-dap-mode 0.7) debugging a real capture through
# `glreplay dap --stdio`, with the README's configuration: captures piglit's
# glsl-1.10/execution/fs-open-coded-mix-float.shader_test (shader_runner, surfaceless EGL: no X),
# writes its fragment shader to a file (the breakpoint binds to the captured shader by its text),
# and runs emacs_dap_mode.el in `emacs --batch`, which drives dap-mode's own commands.
# Usage: emacs_dap_mode.sh GLREPLAY README [PIGLIT_DIR].  Exit 77 (skip) without emacs or dap-mode.
set -euo pipefail
glreplay=$(realpath "$1"); readme=$(realpath "$2")
piglit=${3:-/usr/lib/x86_64-linux-gnu/piglit}
here=$(cd "$(dirname "$0")" && pwd)
command -v emacs >/dev/null || { echo "emacs_dap_mode: SKIP: no emacs (Debian package emacs-nox, tests/packages.txt)"; exit 77; }
[ -d /usr/share/emacs/site-lisp/elpa/dap-mode-0.7 ] || ls -d /usr/share/emacs/site-lisp/elpa/dap-mode-* >/dev/null 2>&1 ||
  { echo "emacs_dap_mode: SKIP: no dap-mode (Debian package elpa-dap-mode, tests/packages.txt)"; exit 77; }
spec=$piglit/tests/spec/glsl-1.10/execution/fs-open-coded-mix-float.shader_test
[ -f "$spec" ] || { echo "emacs_dap_mode: FAIL: $spec is missing (Debian package piglit)" >&2; exit 1; }

tmp=$(mktemp -d /tmp/glr-emacs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
# The capture.
PIGLIT_PLATFORM=surfaceless_egl EGL_PLATFORM=surfaceless \
  timeout 90 "$glreplay" capture --frame 0 --out "$tmp/mix.glcap" -- \
  "$piglit/bin/shader_runner" "$spec" -auto -fbo >"$tmp/capture.log" 2>&1 ||
  { echo "emacs_dap_mode: FAIL: capture failed: $(tail -3 "$tmp/capture.log")" >&2; exit 1; }
# The fragment shader as a file on disk, as a user has it.
awk '/^\[fragment shader\]/{on=1; next} /^\[/{on=0} on' "$spec" > "$tmp/mix.frag"
line=$(grep -n 'if (abs(result - 11.0)' "$tmp/mix.frag" | cut -d: -f1)
[ "$(sed -n "$((line - 1))p" "$tmp/mix.frag")" = "    float result = (-x + y) * a + x;" ] ||
  { echo "emacs_dap_mode: FAIL: unexpected shader text in $spec" >&2; exit 1; }

# The README's configuration runs `glreplay` from PATH; HOME is empty so no user init file loads.
mkdir -p "$tmp/home"
PATH=$(dirname "$glreplay"):$PATH HOME=$tmp/home \
GLR_README=$readme GLR_CAPTURE=$tmp/mix.glcap GLR_SHADER=$tmp/mix.frag \
GLR_LINE=$line GLR_NEXT_LINE=$((line + 1)) GLR_VAR=result GLR_VALUE=11 \
GLR_EXPR='result * 2.0 + x' GLR_EXPR_VALUE=25 \
  timeout 120 emacs --batch -l "$here/emacs_dap_mode.el" 2>"$tmp/emacs.log" ||
  { rc=$?; grep -v '^Loading \|^Debug session process exited\|^$' "$tmp/emacs.log" | tail -20 >&2; exit "$rc"; }
grep '^emacs_dap_mode: ' "$tmp/emacs.log"
