"""Shared helpers of the end-to-end test drivers (tests/e2e/*.py): running a program natively,
under the shim, or under the shim with GLREPLAY_DISABLE=1, and reading the shim's exit summary.

Standard library only. Every check failure raises TestFailure with a message that says what was
expected and what happened; `main_guard` turns it into exit status 1.
"""
import os
import re
import subprocess
import sys
import time

SUMMARY_RE = re.compile(
    r"^glreplay: info: summary: pid (?P<pid>\d+), frames (?P<frames>\d+), "
    r"contexts (?P<contexts>\d+) \(alive (?P<alive>\d+)\), threads (?P<threads>\d+), "
    r"calls (?P<calls>\d+), functions (?P<functions>\d+)$")
COUNT_RE = re.compile(r"^glreplay: info:\s+(?P<count>\d+) (?P<name>\w+)$")

# Run modes: (name, whether LD_PRELOAD gets the shim, extra environment)
NATIVE = "native"
SHIM = "shim"
DISABLED = "disabled"


class TestFailure(Exception):
    pass


def check(cond, msg):
    if not cond:
        raise TestFailure(msg)


def main_guard(fn):
    """Runs fn(); prints FAIL and exits 1 on TestFailure, prints PASS and exits 0 otherwise."""
    try:
        fn()
    except TestFailure as e:
        print("FAIL: %s" % e, flush=True)
        sys.exit(1)
    print("PASS", flush=True)
    sys.exit(0)


def base_env(extra=None, unset=()):
    """The current environment without any glreplay/preload settings, plus `extra`."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("GLREPLAY_") and k != "LD_PRELOAD" and k not in unset}
    env.update(extra or {})
    return env


def mode_env(mode, shim, extra=None, unset=(), preload_after=()):
    """Environment for one run mode. `preload_after` are libraries preloaded after the shim
    (or alone in the native run), e.g. the frametime helper."""
    env = base_env(extra, unset)
    libs = list(preload_after)
    if mode in (SHIM, DISABLED):
        libs = [shim] + libs
        env["GLREPLAY_LOG"] = "info"
    if mode == DISABLED:
        env["GLREPLAY_DISABLE"] = "1"
    if libs:
        env["LD_PRELOAD"] = " ".join(libs)
    return env


# What the programs print when XOpenDisplay fails. A busy Xvfb (2 shared cores) refuses a few
# percent of connections with EAGAIN (listen backlog full), natively as well as under the shim.
# glmark2 says only "Could not initialize canvas" (checked with an unreachable DISPLAY); a real
# failure to make its canvas still fails, since it then fails every attempt.
DISPLAY_REFUSED_RE = re.compile(
    r"cannot open (the )?X display|Failed to open display|Couldn't open X11 display|"
    r"No available video device|X11 Display has not been initialized|Could not initialize canvas", re.I)
DISPLAY_ATTEMPTS = 5


def run(cmd, env, timeout=60, cwd=None):
    """Runs cmd; returns CompletedProcess with text stdout/stderr. A timeout is a test failure.
    A run that failed only because the X server refused the connection is retried (up to
    DISPLAY_ATTEMPTS runs in all); a program that cannot open the display every time still fails."""
    for attempt in range(1, DISPLAY_ATTEMPTS + 1):
        try:
            res = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 text=True, errors="replace", timeout=timeout, cwd=cwd)
        except subprocess.TimeoutExpired:
            raise TestFailure("%s did not finish within %d s" % (" ".join(cmd), timeout))
        if res.returncode == 0 or not DISPLAY_REFUSED_RE.search(res.stderr) or attempt == DISPLAY_ATTEMPTS:
            return res
        print("note: the X server refused a connection (attempt %d of %s); running it again"
              % (attempt, os.path.basename(cmd[0])), flush=True)
        time.sleep(0.2 * attempt)
    return res


def describe(res, what):
    return "%s: exit %d\n--- stdout ---\n%s--- stderr (last 3000 chars) ---\n%s" % (
        what, res.returncode, res.stdout, res.stderr[-3000:])


def parse_summaries(stderr):
    """Every exit summary in stderr (one per process that loaded the shim with GLREPLAY_LOG=info),
    in order: dicts with pid, frames, contexts, alive, threads, calls, functions (ints) and
    counts {function name: calls}."""
    out = []
    cur = None
    for line in stderr.splitlines():
        m = SUMMARY_RE.match(line)
        if m:
            cur = {k: int(v) for k, v in m.groupdict().items()}
            cur["counts"] = {}
            out.append(cur)
            continue
        m = COUNT_RE.match(line)
        if m and cur is not None:
            cur["counts"][m.group("name")] = int(m.group("count"))
    return out


def one_summary(res, what):
    sums = parse_summaries(res.stderr)
    check(len(sums) == 1, "%s: expected exactly one glreplay summary on stderr, found %d\n%s"
          % (what, len(sums), describe(res, what)))
    s = sums[0]
    check(sum(s["counts"].values()) == s["calls"] and len(s["counts"]) == s["functions"],
          "%s: the summary's per-function lines do not add up to its totals: %s" % (what, s))
    return s


def parse_expectations(stdout):
    """The "expect ..." lines a test program prints: list of (key, value) where key is
    'frames', 'contexts', 'alive', 'threads' or 'call:NAME'."""
    out = []
    for line in stdout.splitlines():
        parts = line.split()
        if len(parts) == 4 and parts[0] == "expect" and parts[1] == "call":
            out.append(("call:" + parts[2], int(parts[3])))
        elif len(parts) == 3 and parts[0] == "expect":
            out.append((parts[1], int(parts[2])))
    return out


def check_expectations(summary, expectations, what):
    """Compares a summary with expectations; collects every mismatch into one failure."""
    bad = []
    for key, want in expectations:
        if key.startswith("call:"):
            got = summary["counts"].get(key[5:], 0)
        else:
            check(key in summary, "%s: unknown expectation key '%s'" % (what, key))
            got = summary[key]
        if got != want:
            bad.append("%s: expected %d, summary has %d" % (key, want, got))
    check(not bad, "%s: the shim's summary does not match what the program did:\n  %s\nsummary: %s"
          % (what, "\n  ".join(bad), summary))


def read_pam(path):
    """(width, height, depth, raw bytes) of a PAM (P7) file, checking the header is well formed."""
    with open(path, "rb") as f:
        data = f.read()
    end = data.find(b"ENDHDR\n")
    check(data.startswith(b"P7\n") and end > 0, "%s is not a PAM file" % path)
    fields = {}
    for line in data[3:end].decode("ascii", "replace").splitlines():
        parts = line.split()
        if len(parts) >= 2:
            fields[parts[0]] = parts[1]
    w, h, d = int(fields.get("WIDTH", 0)), int(fields.get("HEIGHT", 0)), int(fields.get("DEPTH", 0))
    body = data[end + len(b"ENDHDR\n"):]
    check(len(body) == w * h * d, "%s: %d bytes of pixels for %dx%dx%d" % (path, len(body), w, h, d))
    return w, h, d, body


def compare_dump_dirs(dir_a, dir_b, what, expect_names=None):
    """Both directories hold the same file names (expect_names if given) with byte-identical
    contents; reports the first differing pixel of a differing frame."""
    names_a = sorted(os.listdir(dir_a))
    names_b = sorted(os.listdir(dir_b))
    check(names_a == names_b, "%s: dumped files differ: %s vs %s" % (what, names_a, names_b))
    if expect_names is not None:
        check(names_a == sorted(expect_names), "%s: expected dumps %s, got %s"
              % (what, sorted(expect_names), names_a))
    check(names_a, "%s: no frames were dumped" % what)
    for name in names_a:
        pa, pb = os.path.join(dir_a, name), os.path.join(dir_b, name)
        with open(pa, "rb") as f:
            a = f.read()
        with open(pb, "rb") as f:
            b = f.read()
        if a != b:
            w, _, d, body_a = read_pam(pa)
            _, _, _, body_b = read_pam(pb)
            diff = next((i for i in range(min(len(body_a), len(body_b))) if body_a[i] != body_b[i]), None)
            where = "sizes differ" if diff is None else "first difference at pixel (%d,%d)" % (
                (diff // d) % w, (diff // d) // w)
            raise TestFailure("%s: %s differs between the runs (%s)" % (what, name, where))
    return names_a


def ask_socket(path, line, timeout=60):
    """One request on a program's line socket (shim/ipc.c): sends LINE, returns the reply line."""
    import socket
    s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    s.settimeout(timeout)
    s.connect(path)
    try:
        s.sendall(line.encode() + b'\n')
        data = b''
        while not data.endswith(b'\n'):
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
    finally:
        s.close()
    return data.decode().strip()
