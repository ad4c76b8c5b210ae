#!/usr/bin/env bash
# Copies the extension's sources into DEST (a scratch folder) with node_modules linked, not copied,
# so a build or a test compiles and packs there and never writes into the source tree. Shared by
# build_vsix.sh (the build) and tests/dap/vsix_test.sh.
# usage: scratch_copy.sh UI_IPC_VSCODE_DIR DEST
set -euo pipefail
src=$1 dest=$2
cp -r "$src/package.json" "$src/package-lock.json" "$src/tsconfig.json" "$src/README.md" \
      "$src/language-configuration.json" "$src/.vscodeignore" "$src/src" "$src/scripts" "$dest/"
ln -s "$src/node_modules" "$dest/node_modules"
