#!/usr/bin/env bash
# Smoke test of an installed glreplay: the installed CLI, shim, header, pkg-config file, manual
# page and completion work on their own, with nothing from the build tree and nothing in the
# environment (no GLREPLAY_SHIM, no LD_LIBRARY_PATH).
#
#   tests/package_smoke.sh BUILD_DIR
#       `meson install --destdir` BUILD_DIR into a temporary folder and checks that tree
#       (registered as the meson test `install_smoke`).
#   tests/package_smoke.sh --deb [BUILD_DIR]
#       builds the Debian package from a copy of the repository in /tmp/pkg/glreplay-src
#       (dpkg-buildpackage -b -us -uc; slow: a full build), runs lintian on it, installs it with
#       `apt-get install ./glreplay_*.deb` (as root) and checks /usr. Needs debhelper, devscripts,
#       lintian and the Build-Depends of debian/control.
#   tests/package_smoke.sh --installed PREFIX [BUILD_DIR]
#       only the checks, on glreplay installed in PREFIX (e.g. /usr after installing the .deb).
#
# BUILD_DIR, when given, provides the sample programs (lit_mesh, gles3_egl) captured as the
# applications; glxgears (mesa-utils) is captured in every mode. Without DISPLAY the script runs
# itself under xvfb-run. Exit status: 0 all checks passed, 1 a check failed (it says which).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)

fail() { echo "package_smoke: FAIL: $*" >&2; exit 1; }
note() { echo "package_smoke: $*"; }

mode=destdir
build=""
prefix=""
case ${1:-} in
    --deb) mode=deb; build=${2:-} ;;
    --installed) mode=installed; prefix=${2:?--installed needs a prefix}; build=${3:-} ;;
    "" | -h | --help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; [ -n "${1:-}" ]; exit $? ;;
    *) build=$1 ;;
esac
[ -z "$build" ] || build=$(cd "$build" && pwd)

if [ -z "${DISPLAY:-}" ]; then
    exec xvfb-run -a -s "-screen 0 1280x1024x24" "$0" "$@"
fi

tmp=$(mktemp -d /tmp/glreplay-smoke.XXXXXX)
dap_pid=""
cleanup() {
    [ -z "$dap_pid" ] || kill "$dap_pid" 2>/dev/null || true
    rm -rf "$tmp"
}
trap cleanup EXIT

# ---- the installed tree
case $mode in
    destdir)
        [ -f "$build/build.ninja" ] || fail "$build is not a meson build folder"
        meson install -C "$build" --no-rebuild --quiet --destdir "$tmp/root" >"$tmp/install.log" 2>&1 ||
            { cat "$tmp/install.log"; fail "meson install failed"; }
        meson_prefix=$(meson introspect "$build" --buildoptions |
            python3 -c 'import json,sys; print(next(o["value"] for o in json.load(sys.stdin) if o["name"] == "prefix"))')
        prefix=$tmp/root$meson_prefix
        version=$(meson introspect "$build" --projectinfo | python3 -c 'import json,sys; print(json.load(sys.stdin)["version"])')
        ;;
    deb)
        [ "$(id -u)" = 0 ] || fail "--deb installs the package: run as root"
        rm -rf /tmp/pkg && mkdir -p /tmp/pkg/glreplay-src
        # The working tree as it is (committed or not), without build folders; node_modules comes
        # along so the VS Code extension can be packed offline.
        tar -C "$root" --exclude='./build*' --exclude='./_build*' --exclude='./.git' --exclude='*.glcap' -cf - . |
            tar -C /tmp/pkg/glreplay-src -xf -
        (cd /tmp/pkg/glreplay-src && dpkg-buildpackage -b -us -uc) >/tmp/pkg/build.log 2>&1 ||
            { tail -40 /tmp/pkg/build.log; fail "dpkg-buildpackage failed (log: /tmp/pkg/build.log)"; }
        deb=$(ls /tmp/pkg/glreplay_*.deb)
        note "built $deb"
        lintian --info "$deb" /tmp/pkg/glreplay_*.changes >/tmp/pkg/lintian.log 2>&1 || true
        cat /tmp/pkg/lintian.log
        grep -q '^[EW]:' /tmp/pkg/lintian.log && fail "lintian reports errors or warnings"
        DEBIAN_FRONTEND=noninteractive apt-get install -y -q --reinstall "$deb" >/tmp/pkg/apt.log 2>&1 ||
            { tail -20 /tmp/pkg/apt.log; fail "apt-get install $deb failed"; }
        prefix=/usr
        version=$(dpkg-query -W -f='${Version}' glreplay)
        ;;
    installed)
        version=""
        ;;
esac

bin=$prefix/bin/glreplay
[ -x "$bin" ] || fail "no $bin"
# Everything below runs in an empty environment from an empty folder.
mkdir -p "$tmp/run" "$tmp/xdg"
chmod 700 "$tmp/xdg"
cd "$tmp/run"
clean=(env -i PATH="$prefix/bin:/usr/bin:/bin" HOME="$tmp" XDG_RUNTIME_DIR="$tmp/xdg" DISPLAY="$DISPLAY")
[ -z "${XAUTHORITY:-}" ] || clean+=(XAUTHORITY="$XAUTHORITY")
g() { "${clean[@]}" "$bin" "$@"; }

# ---- --version, --help, the help of every verb
out=$(g --version) || fail "--version exited $?"
[[ $out =~ ^glreplay\ [0-9]+\.[0-9]+\.[0-9]+$ ]] || fail "--version printed '$out'"
[ -z "$version" ] || [ "$out" = "glreplay $version" ] || fail "--version printed '$out', the package is $version"
help=$(g --help) || fail "--help exited $?"
verbs="run capture info replay state model debug dap profile report"
for v in $verbs; do
    grep -q "^  glreplay $v " <<<"$help" || fail "--help does not list '$v'"
    vh=$(g "$v" --help) || fail "$v --help exited $?"
    grep -q "^usage: glreplay $v" <<<"$vh" || fail "$v --help printed no usage: $vh"
done
note "--version ($out), --help and the help of every verb"

# ---- the shim the CLI preloads is the installed one, found with nothing in the environment
shim=$(cd "$prefix" && realpath "$(find . -path '*/glreplay/libglreplay.so' | head -1)")
[ -f "$shim" ] || fail "no installed libglreplay.so under $prefix"
# shellcheck disable=SC2016  # expanded by the child shell
preload=$(g run -- sh -c 'echo "$LD_PRELOAD"' 2>/dev/null)
[ "$preload" = "$shim" ] || fail "glreplay run preloads '$preload', not the installed $shim"
if [ -n "$build" ] && { ldd "$bin"; readelf -d "$bin" "$shim"; } 2>/dev/null | grep -qF "$build"; then
    fail "the installed files refer to the build folder $build"
fi
note "run preloads the installed shim $shim"

# ---- the shim is C-only; the debugger engine is installed beside it and loaded from there
engine=$(dirname "$shim")/libglreplay-engine.so
[ -f "$engine" ] || fail "no libglreplay-engine.so beside the installed shim $shim"
core=$(dirname "$shim")/libglreplay-core.so
[ -f "$core" ] || fail "no libglreplay-core.so (the shim's stage 2) beside the installed shim $shim"
if readelf -d "$shim" "$core" | grep -E "NEEDED.*(stdc\+\+|cjson|png|glslang|SPIRV)"; then
    fail "the installed shim needs a C++ or JSON/PNG library"
fi
live_sock=$tmp/xdg/glreplay/live.sock
"${clean[@]}" timeout -s TERM 60 "$bin" run --socket "$live_sock" -- glxgears >/dev/null 2>"$tmp/live.err" &
live_pid=$!
for _ in $(seq 150); do [ -S "$live_sock" ] && break; sleep 0.1; done
[ -S "$live_sock" ] || { cat "$tmp/live.err"; fail "glxgears under the installed shim opened no socket"; }
python3 - "$live_sock" <<'PYEOF' || { cat "$tmp/live.err"; fail "a live attach through the installed engine failed"; }
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(30)
s.connect(sys.argv[1])
body = json.dumps({'seq': 1, 'type': 'request', 'command': 'initialize', 'arguments': {'adapterID': 'glreplay'}}).encode()
s.sendall(b'Content-Length: %d\r\n\r\n' % len(body) + body)
buf = b''
while True:
    chunk = s.recv(65536)
    assert chunk, 'connection closed before the initialize response: %r' % buf
    buf += chunk
    if b'"command":"initialize"' in buf or b'"command": "initialize"' in buf:
        break
assert b'"success":true' in buf.replace(b' ', b''), buf[:600]
PYEOF
kill "$live_pid" 2>/dev/null || true
wait "$live_pid" 2>/dev/null || true
note "live attach loads the installed engine $engine"

# ---- header and pkg-config file: a program built with them runs with and without glreplay
pcdir=$(dirname "$(find "$prefix" -name glreplay-app.pc | head -1)")
cflags=$(PKG_CONFIG_PATH=$pcdir pkg-config --define-variable=prefix="$prefix" --cflags --libs glreplay-app) ||
    fail "pkg-config glreplay-app failed"
cat >"$tmp/app.c" <<'EOF'
#include <stdio.h>
#include <glreplay_app.h>
int main(void) { printf("begin=%d\n", glreplay_app_capture_begin("app.glcap")); return 0; }
EOF
# shellcheck disable=SC2086
cc -std=c11 -Wall -Werror $cflags -o "$tmp/app" "$tmp/app.c" || fail "cannot build a program with glreplay_app.h ($cflags)"
[ "$("${clean[@]}" "$tmp/app")" = "begin=-1" ] || fail "glreplay_app_capture_begin without glreplay is not -1"
[ "$(g run -- "$tmp/app" 2>/dev/null)" = "begin=0" ] || fail "glreplay_app_capture_begin under glreplay run is not 0"
note "glreplay_app.h through pkg-config ($cflags): -1 alone, 0 under glreplay run"

# ---- manual page and bash completion
man=$(find "$prefix/share/man/man1" -name 'glreplay.1*' | head -1)
[ -n "$man" ] || fail "no glreplay.1 under $prefix/share/man"
warn=$(MANWIDTH=100 man --warnings -l "$man" 2>&1 >/dev/null) || fail "man -l $man failed"
[ -z "$warn" ] || fail "man page warnings: $warn"
MANWIDTH=100 man -l "$man" 2>/dev/null | grep -q "glreplay ${version:-[0-9]}" || fail "the man page does not carry the version"
comp=$prefix/share/bash-completion/completions/glreplay
[ -f "$comp" ] || fail "no $comp"
set +e
bash "$here/install/completion_test.sh" "$comp"
rc=$?
set -e
case $rc in
    0) note "man page (no warnings) and completion" ;;
    77) note "man page (no warnings); completion not checked (no bash-completion)" ;;
    *) fail "completion" ;;
esac

# ---- the VS Code extension, when it was packed
vsix=$prefix/share/glreplay/vscode/glreplay.vsix
if [ -f "$vsix" ]; then
    python3 - "$vsix" <<'EOF' || fail "$vsix is not the extension"
import json, sys, zipfile
z = zipfile.ZipFile(sys.argv[1])
pkg = json.loads(z.read('extension/package.json'))
assert pkg['name'] == 'glreplay' and 'extension/out/extension.js' in z.namelist()
EOF
    note "VS Code extension $vsix"
fi

# ---- capture and replay: glxgears (GLX, killed by timeout after the capture), the samples
# (GLFW on GLX and on EGL) when a build folder provides them; headless replay (EGL surfaceless)
capture() {  # NAME FRAME APP ARGS...  (an APP that never exits is stopped once the file is there)
    local name=$1 frame=$2 pid
    shift 2
    # Not through g(): $! must be glreplay itself (env execs it), not a subshell.
    "${clean[@]}" "$bin" capture --frame "$frame" --out "$name.glcap" -- "$@" >"$tmp/$name.out" 2>&1 &
    pid=$!
    for _ in $(seq 600); do [ -f "$name.glcap" ] || ! kill -0 "$pid" 2>/dev/null && break; sleep 0.1; done
    # capture forwards SIGTERM to the program and still exits 0 when it wrote the file.
    kill -TERM "$pid" 2>/dev/null || true
    wait "$pid" || { cat "$tmp/$name.out"; fail "capture of $name exited non-zero"; }
    g replay "$name.glcap" --verify >"$tmp/$name.replay" 2>&1 ||
        { cat "$tmp/$name.replay"; fail "replay --verify of $name failed"; }
    g info "$name.glcap" --json | python3 -c 'import json,sys; d=json.load(sys.stdin); assert d' ||
        fail "info --json of $name"
    note "captured $name frame $frame and replayed it pixel-exactly"
}
capture glxgears 5 glxgears
# report: the page's files come from the binary (embedded), the thumbnails from the installed replayer
g report glxgears.glcap --out report --no-model >"$tmp/report.out" 2>&1 || { cat "$tmp/report.out"; fail "report"; }
[ -s report/index.html ] && [ -s report/report.js ] && [ -n "$(ls report/thumbs)" ] ||
    fail "report wrote no page or no thumbnails: $(ls -R report | head -20)"
note "report of glxgears: $(ls report/thumbs | wc -l) thumbnails"
if [ -n "$build" ] && [ -x "$build/samples/lit_mesh" ]; then
    capture lit_mesh 3 "$build/samples/lit_mesh" --frames 4 --size 96x64
    capture gles3_egl 3 "$build/samples/gles3_egl" --frames 4 --size 96x64
    g model lit_mesh.glcap --compare >"$tmp/model.out" 2>&1 || { cat "$tmp/model.out"; fail "model --compare"; }
    if ! g debug lit_mesh.glcap --list >"$tmp/list.out" 2>&1 || ! grep -q "program" "$tmp/list.out"; then
        cat "$tmp/list.out"
        fail "debug --list"
    fi
    note "model --compare and debug --list on lit_mesh"
    dap_cap=lit_mesh.glcap
else
    dap_cap=glxgears.glcap
fi

# ---- dap: the server answers a DAP initialize request on its socket
sock=$tmp/xdg/glreplay/smoke.sock
"${clean[@]}" "$bin" dap --socket "$sock" "$dap_cap" >"$tmp/dap.out" 2>&1 &
dap_pid=$!
for _ in $(seq 100); do grep -q listening "$tmp/dap.out" && break; sleep 0.1; done
grep -q listening "$tmp/dap.out" || { cat "$tmp/dap.out"; fail "dap did not start"; }
python3 - "$sock" <<'EOF' || fail "dap did not answer initialize"
import json, socket, sys
s = socket.socket(socket.AF_UNIX)
s.settimeout(20)
s.connect(sys.argv[1])
def send(seq, cmd, args):
    body = json.dumps({'seq': seq, 'type': 'request', 'command': cmd, 'arguments': args}).encode()
    s.sendall(b'Content-Length: %d\r\n\r\n' % len(body) + body)
buf = b''
def recv():
    global buf
    while b'\r\n\r\n' not in buf:
        buf += s.recv(65536)
    head, buf = buf.split(b'\r\n\r\n', 1)
    n = int(head.split(b':')[1])
    while len(buf) < n:
        buf += s.recv(65536)
    msg, buf = buf[:n], buf[n:]
    return json.loads(msg)
send(1, 'initialize', {'adapterID': 'glreplay', 'linesStartAt1': True, 'columnsStartAt1': True})
while True:
    m = recv()
    if m.get('type') == 'response' and m.get('command') == 'initialize':
        assert m['success'], m
        break
send(2, 'disconnect', {})
EOF
kill "$dap_pid"
wait "$dap_pid" || true
dap_pid=""
note "dap answered initialize"

# ---- run: glxgears under the shim (run execs it), stopped by timeout's signal
set +e
"${clean[@]}" timeout -s TERM 3 "$bin" run -- glxgears >/dev/null 2>"$tmp/gears.err"
rc=$?
set -e
grep -q "running glxgears" "$tmp/gears.err" || { cat "$tmp/gears.err"; fail "run -- glxgears"; }
[ "$rc" = 124 ] || fail "run -- glxgears ended with $rc before the timeout"
note "run -- glxgears"

note "all checks passed ($mode, $prefix)"
