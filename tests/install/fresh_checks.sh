#!/usr/bin/env bash
# Runs inside the fresh Debian 12 root of tests/install/fresh_machine.sh, after
# `apt-get install ./glreplay_*.deb`: every glreplay command on a glmark2 frame, with only installed
# files and nothing in the environment but DISPLAY (an Xvfb started here).
#
#   fresh_checks.sh DISPLAY_NUMBER [GLREPLAY]   (GLREPLAY: /usr/bin/glreplay; another one to try
#                                                the checks on a build tree)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
disp=${1:?display number}
bin=${2:-/usr/bin/glreplay}
fail() { echo "fresh_checks: FAIL: $*" >&2; exit 1; }
note() { echo "fresh_checks: $*"; }

tmp=$(mktemp -d /tmp/glr-checks.XXXXXX)
cd "$tmp"
Xvfb ":$disp" -screen 0 1280x1024x24 -nolisten tcp >"$tmp/xvfb.log" 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null || true' EXIT
for _ in $(seq 100); do [ -S "/tmp/.X11-unix/X$disp" ] && break; sleep 0.1; done
[ -S "/tmp/.X11-unix/X$disp" ] || { cat "$tmp/xvfb.log"; fail "Xvfb :$disp did not start"; }

# Only DISPLAY: no PATH (glibc's default search path finds /usr/bin), no HOME, no XDG_RUNTIME_DIR,
# no LD_PRELOAD, no GLREPLAY_*.
g() { env -i DISPLAY=":$disp" "$bin" "$@"; }
[ "$bin" != /usr/bin/glreplay ] || [ "$(command -v glreplay)" = /usr/bin/glreplay ] || fail "glreplay is not /usr/bin/glreplay"
note "$(g --version)$([ "$bin" != /usr/bin/glreplay ] || echo ", $(dpkg -L glreplay | grep -c .) installed paths")"

# ---- run: glmark2 under the shim, to its end
g run -- glmark2 -s 320x240 -b build:duration=1 >run.out 2>run.err || { cat run.err; fail "glreplay run -- glmark2 exited $?"; }
grep -q "glmark2 Score" run.out || { cat run.out run.err; fail "glmark2 under glreplay run printed no score"; }
grep -q "running glmark2" run.err || { cat run.err; fail "glreplay run did not say it ran glmark2"; }
note "run -- glmark2: $(grep -o 'glmark2 Score: [0-9]*' run.out); $(grep -m1 -o 'socket [^ ]*' run.err || true)"

# ---- capture: frame 5 of glmark2's gouraud shading scene (light-basic.vert/.frag)
g capture --frame 5 --out gm.glcap -- glmark2 -s 320x240 -b shading:shading=gouraud:nframes=10 >cap.out 2>&1 ||
    { cat cap.out; fail "glreplay capture exited non-zero"; }
[ -s gm.glcap ] || fail "no gm.glcap"
g info gm.glcap --json >info.json || fail "info --json"
read -r records draws <<<"$(python3 -c '
import json; d = json.load(open("info.json")); c = d["calls"]
per = {x["name"]: x["count"] for x in c["per_command"]}
print(c["records"], sum(n for k, n in per.items() if k.startswith("glDraw") and not k.startswith("glDrawBuffer")))')"
[ "$draws" -ge 1 ] || fail "the capture has no draw ($records records)"
note "capture: gm.glcap, $(du -h gm.glcap | cut -f1), $records records, $draws draws"

# ---- replay: headless (EGL surfaceless), pixel-checked against the frame glmark2 drew
g replay gm.glcap --verify >replay.out 2>&1 || { cat replay.out; fail "replay --verify"; }
note "replay --verify: $(tr '\n' ' ' <replay.out | cut -c1-160)"

# ---- report: the page, a thumbnail per draw/clear/blit, the state files of every event
g report gm.glcap --out rep >report.out 2>&1 || { cat report.out; fail "report"; }
python3 - "$records" <<'EOF' || fail "the report's files"
import json, os, sys
records = int(sys.argv[1])
def data(path, prefix):
    t = open(path, encoding='utf-8').read().strip()
    assert t.startswith(prefix + '(') and t.endswith(');'), path
    return json.loads(t[len(prefix) + 1:-2])
ev = data('rep/data/events.js', 'glrReport.events')
assert ev['records'] == records == len(ev['events']), (ev['records'], records)
marked = [e[0] for e in ev['events'] if e[3] in (1, 2, 3)]
thumbs = set(int(f.split('.')[0]) for f in os.listdir('rep/thumbs'))
missing = [r for r in marked if r not in thumbs]
assert not missing, 'no thumbnail for events %s' % missing[:10]
for r in marked:
    assert os.path.exists('rep/data/d/%d.js' % r), 'no detail for event %d' % r
assert os.path.exists('rep/index.html') and os.path.exists('rep/report.js')
print('fresh_checks: report: %d events, %d thumbnails, %d detail files' % (len(ev['events']), len(thumbs), len(marked)))
EOF

n_state_files=$(ls rep/data/s 2>/dev/null | wc -l)
[ "$n_state_files" -ge 1 ] || fail "the report has no per-event state files (data/s)"
note "report: $n_state_files state files (data/s)"

# ---- debug: the 100th fragment reaching line 6 of glmark2's light-basic.frag, in the terminal
g debug gm.glcap --break /usr/share/glmark2/shaders/light-basic.frag:6 --hit 100 --json >debug.json 2>debug.err ||
    { cat debug.err; fail "glreplay debug"; }
python3 - <<'EOF' || fail "debug --json"
import json
d = json.load(open('debug.json'))
b = d['breakpoint']
assert b['line'] == 6 and b['hit'] == 100, b
print('fresh_checks: debug: stopped at hit %d of light-basic.frag:%d' % (b['hit'], b['line']))
EOF

# ---- DAP over stdio: a breakpoint in the vertex shader, the values checked against each other
python3 "$here/dap_stdio_client.py" "$bin" "$disp" gm.glcap /usr/share/glmark2/shaders/light-basic.vert ||
    fail "the DAP session"
note "all checks passed"
