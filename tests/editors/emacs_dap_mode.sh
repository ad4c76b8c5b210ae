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
ls -d /usr/share/emacs/site-lisp/elpa/dap-mode-* >/dev/null 2>&1 ||
  { echo "emacs_dap_mode: SKIP: no dap-mode (Debian package elpa-dap-mode, tests/packages.txt)"; exit 77; }
tmp=$(mktemp -d /tmp/glr-emacs-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
name=emacs_dap_mode
. "$here/mix_capture.sh"

# The README's configuration runs `glreplay` from PATH; HOME is empty so no user init file loads.
mkdir -p "$tmp/home"
PATH=$(dirname "$glreplay"):$PATH HOME=$tmp/home \
GLR_README=$readme GLR_TEMPLATE="glreplay: capture" GLR_KEY=:program GLR_KEY_VALUE=$tmp/mix.glcap \
GLR_SHADER=$tmp/mix.frag GLR_LINE=$line GLR_NEXT_LINE=$((line + 1)) GLR_HIT=10 GLR_VAR=result GLR_VALUE=11 \
GLR_EXPR='result * 2.0 + x' GLR_EXPR_VALUE=25 \
  timeout 120 emacs --batch -l "$here/emacs_dap_mode.el" 2>"$tmp/emacs.log" ||
  { rc=$?; grep -v '^Loading \|^Debug session process exited\|^$' "$tmp/emacs.log" | tail -20 >&2; exit "$rc"; }
grep '^emacs_dap_mode: ' "$tmp/emacs.log"
