#!/usr/bin/env bash
# Neovim (Debian 12: neovim 0.7.2) with a real nvim-dap checkout debugging a capture through
# `glreplay dap --stdio`, with the README's configuration for Neovim 0.7 / nvim-dap 0.6 (nvim_dap.lua
# runs it headless through nvim-dap's API). nvim-dap is packaged neither by Debian nor on npm, and
# is not vendored here: give a checkout (docs/EDITORS.md says how) in NVIM_DAP_DIR, or the test is
# skipped (77).
# Usage: nvim_dap.sh GLREPLAY README [PIGLIT_DIR]
set -euo pipefail
glreplay=$(realpath "$1"); readme=$(realpath "$2")
piglit=${3:-/usr/lib/x86_64-linux-gnu/piglit}
here=$(cd "$(dirname "$0")" && pwd)
command -v nvim >/dev/null || { echo "nvim_dap: SKIP: no nvim (Debian package neovim)"; exit 77; }
[ -n "${NVIM_DAP_DIR:-}" ] && [ -f "$NVIM_DAP_DIR/lua/dap.lua" ] ||
  { echo "nvim_dap: SKIP: set NVIM_DAP_DIR to an nvim-dap checkout (docs/EDITORS.md)"; exit 77; }
tmp=$(mktemp -d /tmp/glr-nvim-XXXXXX)
trap 'rm -rf "$tmp"' EXIT
name=nvim_dap
. "$here/mix_capture.sh"

# The README's block is the init file: Neovim 0.7 reads vim.g.do_filetype_lua before it turns
# filetype detection on, as with a user's init.lua.
awk '/^#### Neovim 0.7 with nvim-dap 0.6/{sec=1} sec && /^```lua$/{on=1; next} on && /^```$/{exit} on' "$readme" > "$tmp/init.lua"
[ -s "$tmp/init.lua" ] || { echo "nvim_dap: FAIL: README.md has no lua block under '#### Neovim 0.7 with nvim-dap 0.6'" >&2; exit 1; }
mkdir -p "$tmp/home"
PATH=$(dirname "$glreplay"):$PATH HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home XDG_DATA_HOME=$tmp/home \
GLR_CAPTURE=$tmp/mix.glcap GLR_SHADER=$tmp/mix.frag \
GLR_LINE=$line GLR_NEXT_LINE=$((line + 1)) GLR_VAR=result GLR_VALUE=11 \
GLR_NVIM_DAP_VERSION=${NVIM_DAP_VERSION:-$(basename "$NVIM_DAP_DIR")} \
  timeout 120 nvim --headless -u "$tmp/init.lua" -i NONE --cmd "set rtp^=$NVIM_DAP_DIR" \
  -c "luafile $here/nvim_dap.lua" </dev/null
