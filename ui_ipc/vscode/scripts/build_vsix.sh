#!/usr/bin/env bash
# Packs the VS Code extension into a .vsix offline, with the project's own npm modules (tsc and
# @vscode/vsce from ui_ipc/vscode/node_modules, installed by tests/setup.sh), in a scratch copy so
# nothing is written into the source tree. Used by the build (ui_ipc/vscode/meson.build).
# usage: build_vsix.sh UI_IPC_VSCODE_DIR OUT.vsix [DEPFILE]
# DEPFILE (Makefile syntax) lists every source file packed, so a new or changed file rebuilds it.
set -euo pipefail
src=$1
out=$(realpath -m "$2")
depfile=${3:+$(realpath -m "$3")}
work=$(mktemp -d "$(dirname "$out")/vsix-build.XXXXXX")
trap 'rm -rf "$work"' EXIT
bash "$src/scripts/scratch_copy.sh" "$src" "$work"
cd "$work"
node_modules/.bin/tsc -p ./
node_modules/.bin/vsce package --no-dependencies --skip-license --allow-missing-repository \
    -o "$work/glreplay.vsix" >/dev/null
node scripts/check_vsix.js "$work/glreplay.vsix" >/dev/null
mv "$work/glreplay.vsix" "$out"
if [ -n "$depfile" ]; then
    { printf '%s:' "$out"
      find "$src/package.json" "$src/package-lock.json" "$src/tsconfig.json" "$src/README.md" \
           "$src/language-configuration.json" "$src/.vscodeignore" "$src/src" "$src/scripts" -type f |
          sort | sed 's/ /\\ /g; s/^/ /' | tr -d '\n'
      echo; } >"$depfile"
fi
