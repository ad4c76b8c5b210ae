#!/usr/bin/env python3
"""Signals sent to the process group reach a program under `glreplay run` (and `capture`) once, as
when it runs natively (issue 13 §8: a forwarding parent delivered Ctrl-C and `timeout` twice).

sigint_count counts the SIGINTs it gets, prints the count and exits with 10 + count;
`sigint_count default` keeps SIGINT's default action and dies of it. Each runs natively, under `glreplay run` and under
`glreplay capture` (which waits for its child), in a session of its own, and gets one SIGINT:
Ctrl-C typed at its terminal (a pseudo-terminal; the kernel signals the foreground group),
`kill -INT -PGID` from outside, and `kill -INT PID` of the process started (for `capture`, glreplay
itself, which must pass it on: its program runs in a group of its own). The status and the count
must be the native ones. A kill -KILL of capture's group must end the program too. `run --frame N
--out F` (the program exec'd, its capture checked by a detached helper) must be exactly native,
have no child it did not make, stop on a group SIGSTOP and still report the capture check.

usage: check_group_signals.py --cli GLREPLAY --prog SIGINT_COUNT
"""
import argparse
import fcntl
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import termios
import time

def run_once(cmd, env, how):
    """Starts cmd as the leader of a new session on a fresh pseudo-terminal, sends one SIGINT
    `how` ('tty': Ctrl-C typed at the terminal; 'killpg': kill -INT -PGID), returns
    (exit status, stdout)."""
    master, slave = os.openpty()

    def own_tty():
        # setsid() already ran (start_new_session): the pty becomes the controlling terminal and
        # this process group its foreground group, as a shell would arrange.
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    p = subprocess.Popen(cmd, env=env, stdin=slave, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         start_new_session=True, preexec_fn=own_tty, text=True)
    os.close(slave)
    try:
        line = p.stdout.readline()
        if line.strip() != "ready":
            p.kill()
            out, err = p.communicate()
            sys.exit("%s: no 'ready' line (got %r)\n%s" % (" ".join(cmd[:3]), line, err))
        if how == "tty":
            os.write(master, b"\x03")
        elif how == "kill":
            os.kill(p.pid, signal.SIGINT)
        else:
            os.killpg(p.pid, signal.SIGINT)
        out, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        sys.exit("%s: still running 10 s after one SIGINT" % " ".join(cmd[:3]))
    finally:
        os.close(master)
    return p.returncode, out, err


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--cli", required=True)
    ap.add_argument("--prog", required=True)
    a = ap.parse_args()
    env = {k: v for k, v in os.environ.items() if not k.startswith("GLREPLAY_") and k != "LD_PRELOAD"}
    failures = []
    checked = 0
    tmp = tempfile.mkdtemp(prefix="glr-sig-")
    wrappers = {"run": [a.cli, "run", "--"],
                "run --frame": [a.cli, "run", "--frame", "1", "--out", os.path.join(tmp, "r.glcap"), "--"],
                "capture": [a.cli, "capture", "--frame", "1", "--out", os.path.join(tmp, "f.glcap"), "--"]}
    for name, app in (("counting", [a.prog]), ("default", [a.prog, "default"])):
        for how in ("tty", "killpg", "kill"):
            rc, out, _ = run_once(app, env, how)
            want_rc = 11 if name == "counting" else -signal.SIGINT
            if rc != want_rc:
                sys.exit("%s natively (%s): exit %d, expected %d: the test itself is wrong" % (name, how, rc, want_rc))
            for verb in ("run", "run --frame", "capture"):
                got_rc, got_out, err = run_once(wrappers[verb] + app, env, how)
                # `run` is the program (exec), with --frame too (its capture check is a detached
                # helper that gets no signal and still reports, here that nothing was written);
                # `capture` reports the program's status as its own only through its file check:
                # it exits 1 (no GL, no file), so the count on the program's stdout is what shows
                # how many SIGINTs it got.
                if verb != "capture" and got_rc != rc:
                    failures.append("%s under glreplay %s (%s): exit %d, natively %d\n%s" % (name, verb, how, got_rc,
                                                                                          rc, err))
                if verb == "run --frame" and "r.glcap was not written" not in err:
                    failures.append("%s under glreplay run --frame (%s): no capture check after the end\n%s"
                                    % (name, how, err))
                # capture must outlive the Ctrl-C (it has the file to check), however soon it comes.
                if verb == "capture" and got_rc != 1:
                    failures.append("%s under glreplay capture (%s): exit %d, expected 1 (no file written)\n%s"
                                    % (name, how, got_rc, err))
                if got_out != out:
                    failures.append("%s under glreplay %s (%s): printed %r, natively %r\n%s"
                                    % (name, verb, how, got_out, out, err))
                checked += 1
    # SIGKILL cannot be passed on: a kill -KILL of glreplay's group (a test runner's last resort)
    # must still end the program, which runs in a group of its own (glreplay's death kills it).
    p = subprocess.Popen(wrappers["capture"] + ["sleep", "30"], env=env, stdin=subprocess.DEVNULL,
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    child = None
    for _ in range(100):
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        if kids:
            child = int(kids[0])
            break
        time.sleep(0.02)
    os.killpg(p.pid, signal.SIGKILL)
    p.wait()
    if child is None:
        failures.append("capture of sleep: no child process seen")
    else:
        for _ in range(100):
            try:
                with open("/proc/%d/stat" % child) as f:
                    alive = f.read().split()[2] != "Z"
            except OSError:
                alive = False
            if not alive:
                break
            time.sleep(0.02)
        if alive:
            os.kill(child, signal.SIGKILL)
            failures.append("kill -KILL of glreplay capture's group left the program running")
    # run --frame: the program is the process the caller started (same pid), with no child it did
    # not make (the capture check is a detached helper), stopped by a group SIGSTOP like any job,
    # and a SIGTERM of its pid ends it with that signal; the check still reports afterwards.
    p = subprocess.Popen([a.cli, "run", "--frame", "1", "--out", os.path.join(tmp, "s.glcap"), "--", "sleep", "30"], env=env,
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         start_new_session=True)
    for _ in range(200):
        with open("/proc/%d/comm" % p.pid) as f:
            if f.read().strip() == "sleep":
                break
        time.sleep(0.02)
    with open("/proc/%d/task/%d/children" % (p.pid, p.pid)) as f:
        kids = f.read().split()
    if kids:
        failures.append("run --frame: the program has children it did not make: %s" % kids)
    os.killpg(p.pid, signal.SIGSTOP)
    state = "?"
    for _ in range(100):
        with open("/proc/%d/stat" % p.pid) as f:
            state = f.read().rsplit(")", 1)[1].split()[0]
        if state == "T":
            break
        time.sleep(0.02)
    if state != "T":
        failures.append("run --frame: kill -STOP of the group left the program in state %s" % state)
    os.killpg(p.pid, signal.SIGCONT)
    os.kill(p.pid, signal.SIGTERM)
    try:
        _, err = p.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
    if p.returncode != -signal.SIGTERM or "s.glcap was not written" not in err:
        failures.append("run --frame of sleep: exit %s after SIGTERM (expected %d), stderr %r"
                        % (p.returncode, -signal.SIGTERM, err))
    shutil.rmtree(tmp, ignore_errors=True)
    if failures:
        sys.exit("\n".join(failures))
    print("SIGINT (Ctrl-C at the terminal, kill -INT -PGID, kill -INT PID): %d runs under glreplay run/run --frame/capture "
          "got it once and ended as natively; run --frame of sleep: no extra child, stopped by a group "
          "SIGSTOP, ended by SIGTERM, capture check said" % checked)


if __name__ == "__main__":
    main()
