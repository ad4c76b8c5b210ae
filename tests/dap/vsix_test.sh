#!/usr/bin/env bash
# Builds the VS Code extension with the project's own tools (tsc, @vscode/vsce from ui_ipc/vscode's
# npm modules) into a scratch copy, packs the .vsix and checks its contents.
# usage: vsix_test.sh UI_IPC_VSCODE_DIR OUT_DIR
set -euo pipefail
src=$1
out=$2
if [ ! -x "$src/node_modules/.bin/vsce" ] || [ ! -x "$src/node_modules/.bin/tsc" ]; then
  echo "vsix_test: SKIP: npm modules missing (run tests/setup.sh, or npm ci in $src)"
  exit 77
fi
work=$(mktemp -d "$out/vsix.XXXXXX")
trap 'rm -rf "$work"' EXIT
# A copy, so the test never writes into the source tree (the build's own copy step).
bash "$src/scripts/scratch_copy.sh" "$src" "$work"
cd "$work"
node_modules/.bin/tsc -p ./
node_modules/.bin/vsce package --no-dependencies --skip-license --allow-missing-repository -o "$work/glreplay.vsix"
node scripts/check_vsix.js "$work/glreplay.vsix"
# The socket listing the attach configuration offers (plain Node, no VS Code needed): a live socket
# is listed; a stale one (a socket file nobody listens on, as a program killed by a signal leaves
# it) is not, and is removed.
mkdir -p "$work/xdg/glreplay"
python3 -c 'import socket, sys; socket.socket(socket.AF_UNIX).bind(sys.argv[1])' "$work/xdg/glreplay/4243.sock"
node -e '
const fs = require("fs"), net = require("net"), path = require("path");
const s = require(path.resolve("out/sockets.js"));
const p = path.join(process.argv[1], "glreplay", "4242.sock");
const stale = path.join(process.argv[1], "glreplay", "4243.sock");
const srv = net.createServer().listen(p, async () => {
  const env = { XDG_RUNTIME_DIR: process.argv[1] };
  const all = s.listSockets(env).map(e => e.path);
  const live = (await s.listLiveSockets(env)).map(e => e.path);
  srv.close();
  if (!all.includes(p) || !all.includes(stale)) { console.error("vsix_test: listSockets missed a socket: " + all); process.exit(1); }
  if (!live.includes(p)) { console.error("vsix_test: listLiveSockets missed the live " + p + ": " + live); process.exit(1); }
  if (live.includes(stale)) { console.error("vsix_test: listLiveSockets lists the stale " + stale); process.exit(1); }
  if (fs.existsSync(stale)) { console.error("vsix_test: the stale socket " + stale + " was not removed"); process.exit(1); }
  if (!s.socketDirs({}).every(d => d.startsWith("/tmp/glreplay-"))) { console.error("vsix_test: fallback dir"); process.exit(1); }
  console.log("vsix_test: socket listing ok (live listed, stale removed)");
});' "$work/xdg"
