#!/usr/bin/env bash
# Neovim (Debian 12: neovim 0.7.2) with a real nvim-dap checkout debugging through `glreplay dap
# --stdio` with the README's configuration for Neovim 0.7 / nvim-dap 0.6 (nvim_dap.lua runs it
# headless through nvim-dap's API): its "glreplay: capture" configuration on a piglit capture, and
# (with SHIM, LIT_MESH, SHADER_DIR and an X server) its "glreplay: attach" configuration on a running
# samples/lit_mesh. nvim-dap is packaged neither by Debian nor on npm, and is not vendored here:
# give a checkout (docs/EDITORS.md says how) in NVIM_DAP_DIR, or the test is skipped (77).
# Usage: nvim_dap.sh GLREPLAY README [SHIM LIT_MESH SHADER_DIR]
set -euo pipefail
glreplay=$(realpath "$1"); readme=$(realpath "$2")
piglit=${PIGLIT_DIR:-/usr/lib/x86_64-linux-gnu/piglit}
here=$(cd "$(dirname "$0")" && pwd)
command -v nvim >/dev/null || { echo "nvim_dap: SKIP: no nvim (Debian package neovim)"; exit 77; }
[ -n "${NVIM_DAP_DIR:-}" ] && [ -f "$NVIM_DAP_DIR/lua/dap.lua" ] ||
  { echo "nvim_dap: SKIP: set NVIM_DAP_DIR to an nvim-dap checkout (docs/EDITORS.md)"; exit 77; }
tmp=$(mktemp -d /tmp/glr-nvim-XXXXXX)
app=
trap '[ -n "$app" ] && kill "$app" 2>/dev/null; rm -rf "$tmp"' EXIT
name=nvim_dap
. "$here/mix_capture.sh"

# The README's block is the init file: Neovim 0.7 reads vim.g.do_filetype_lua before it turns
# filetype detection on, as with a user's init.lua.
awk '/^#### Neovim 0.7 with nvim-dap 0.6/{sec=1} sec && /^```lua$/{on=1; next} on && /^```$/{exit} on' "$readme" > "$tmp/init.lua"
[ -s "$tmp/init.lua" ] || { echo "nvim_dap: FAIL: README.md has no lua block under '#### Neovim 0.7 with nvim-dap 0.6'" >&2; exit 1; }
mkdir -m 700 -p "$tmp/home" "$tmp/xdg"

# run_nvim CONFIG INPUT SHADER LINE HIT VAR VALUE
run_nvim() {
  PATH=$(dirname "$glreplay"):$PATH HOME=$tmp/home XDG_CONFIG_HOME=$tmp/home XDG_DATA_HOME=$tmp/home \
  XDG_RUNTIME_DIR=$tmp/xdg GLR_CONFIG=$1 GLR_INPUT=$2 GLR_SHADER=$3 GLR_LINE=$4 GLR_NEXT_LINE=$(($4 + 1)) \
  GLR_HIT=$5 GLR_VAR=$6 GLR_VALUE=$7 GLR_NVIM_DAP_VERSION=${NVIM_DAP_VERSION:-$(basename "$NVIM_DAP_DIR")} \
    timeout 120 nvim --headless -u "$tmp/init.lua" -i NONE --cmd "set rtp^=$NVIM_DAP_DIR" \
    -c "luafile $here/nvim_dap.lua" </dev/null
}
run_nvim "glreplay: capture" "$tmp/mix.glcap" "$tmp/mix.frag" "$line" 10 result 11

[ $# -ge 5 ] || exit 0
[ -n "${DISPLAY:-}" ] || { echo "nvim_dap: FAIL: no DISPLAY for the live attach (run under xvfb-run)" >&2; exit 1; }
XDG_RUNTIME_DIR=$tmp/xdg LD_PRELOAD=$(realpath "$3") "$(realpath "$4")" --frames 100000 --size 160x90 >"$tmp/app.log" 2>&1 &
app=$!
for _ in $(seq 100); do [ -S "$tmp/xdg/glreplay/$app.sock" ] && break; sleep 0.1; done
[ -S "$tmp/xdg/glreplay/$app.sock" ] || { echo "nvim_dap: FAIL: lit_mesh made no socket: $(tail -3 "$tmp/app.log")" >&2; exit 1; }
sky=$(realpath "$5")/sky.frag
run_nvim "glreplay: attach" "$app" "$sky" "$(grep -n 'vec3 color = mix' "$sky" | cut -d: -f1)" 100 t ""
sleep 1
kill -0 "$app" 2>/dev/null || { echo "nvim_dap: FAIL: lit_mesh is gone after the session" >&2; exit 1; }
echo "nvim_dap: lit_mesh (pid $app) still runs after the session"
