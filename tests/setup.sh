#!/usr/bin/env bash
# Installs what glreplay needs on Debian 12 (as root): the packages in tests/packages.txt.
# Idempotent and quiet when everything is there already.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mapfile -t pkgs < <(grep -v '^\s*#' "$here/packages.txt" | sed 's/#.*//' | awk 'NF {print $1}' | sort -u)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "setup: installing ${#missing[@]} Debian packages: ${missing[*]}"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q >/dev/null
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null
fi

# ---- DAP tests and the VS Code extension (ui_ipc/vscode, tests/dap): Node.js and the npm modules
# pinned by ui_ipc/vscode/package-lock.json, from the npm registry. `nodejs` is in packages.txt;
# Debian's `npm` package conflicts with a NodeSource nodejs (which bundles npm), so it is installed
# only when no npm is on PATH. `npm ci` runs again whenever package-lock.json changes.
if ! command -v npm >/dev/null 2>&1; then
  echo "setup: installing npm"
  SUDO=""; [ "$(id -u)" = 0 ] || SUDO="sudo"
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -q --no-install-recommends npm >/dev/null
fi
vscode_dir="$here/../ui_ipc/vscode"
if [ -f "$vscode_dir/package-lock.json" ] &&
   { [ ! -f "$vscode_dir/node_modules/.glreplay-npm-ci" ] ||
     [ "$vscode_dir/package-lock.json" -nt "$vscode_dir/node_modules/.glreplay-npm-ci" ]; }; then
  echo "setup: npm ci in ui_ipc/vscode"
  (cd "$vscode_dir" && npm ci --no-audit --no-fund --loglevel=error >/dev/null &&
   touch node_modules/.glreplay-npm-ci)
fi
