#!/usr/bin/env bash
# Installs code-server (VS Code's workbench served to a browser; npm package code-server) and
# puppeteer-core into DIR (default ~/.cache/glreplay/code-server) for the test vscode_code_server
# (tests/dap/vscode_code_server.js). Not part of tests/setup.sh: it does not install reliably
# (docs/EDITORS.md, "A real VS Code"). What it needs and works around, on Debian 12 with node 20:
#  - code-server 4.99.4, the last release before 4.104 whose engines field is node 20;
#  - its postinstall builds native modules with node-gyp against /usr/include/node: build tools,
#    pkg-config, and libkrb5-dev, libx11-dev, libxkbfile-dev, libsecret-1-dev (apt);
#  - @vscode/ripgrep's postinstall downloads rg from GitHub (unreachable here): the packages are
#    installed with --ignore-scripts, Debian's ripgrep is linked in its place, and the native
#    modules are rebuilt by name (npx for node-pty's script: npm_config_yes);
#  - run as root, the postinstall wants npm_config_unsafe_perm=true.
# usage: tests/support/install_code_server.sh [DIR]
set -euo pipefail
dir=${1:-$HOME/.cache/glreplay/code-server}
export npm_config_yes=true npm_config_unsafe_perm=true
missing=()
for p in build-essential pkg-config python3 libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev ripgrep chromium; do
  dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install_code_server: apt-get install ${missing[*]}" >&2
  apt-get install -y "${missing[@]}"
fi
mkdir -p "$dir"
cd "$dir"
[ -f package.json ] || echo '{"name": "glreplay-code-server", "private": true}' > package.json
npm install --no-audit --no-fund --ignore-scripts code-server@4.99.4 puppeteer-core@22
npm rebuild argon2
# code-server's own postinstall.sh (vscode_install), with the ripgrep download replaced
cd node_modules/code-server/lib/vscode
npm install --omit=dev --ignore-scripts --no-audit --no-fund
mkdir -p node_modules/@vscode/ripgrep/bin
ln -sf "$(command -v rg)" node_modules/@vscode/ripgrep/bin/rg
native=$(find node_modules -name binding.gyp -not -path '*/node_modules/*/node_modules/*' -printf '%h\n' |
         while read -r d; do node -p "require('./$d/package.json').name"; done | sort -u)
# shellcheck disable=SC2086  # one argument per package name
npm rebuild $native
rm -rf node_modules.asar && ln -s node_modules node_modules.asar
(cd bin/remote-cli && ln -sf code-linux.sh code-server)
(cd bin/helpers && ln -sf browser-linux.sh browser.sh)
(cd extensions && npm install --omit=dev --ignore-scripts --no-audit --no-fund)
echo "install_code_server: code-server $("$dir/node_modules/.bin/code-server" --version | head -1) in $dir"
