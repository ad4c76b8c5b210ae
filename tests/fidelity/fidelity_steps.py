"""The four steps of one piglit shader test (native run, capture, replay, model), each a process
with its own timeout. Every step returns a plain dict; judging them is fidelity_classify's job.

shader_runner prints its verdict as a line `PIGLIT: {"result": "pass" ...}` (JSON after the tag);
piglit itself reads that line, not the exit status, so this does too.
"""
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess

# What glreplay's own processes and the piglit tests must not inherit from the caller.
_SCRUB = ("LD_PRELOAD", "GLREPLAY_CAPTURE_FRAMES", "GLREPLAY_CAPTURE_OUT", "GLREPLAY_DISABLE",
          "GLREPLAY_SOCKET", "GLREPLAY_LOG", "PIGLIT_PLATFORM")


def base_env(platform):
    env = {k: v for k, v in os.environ.items() if k not in _SCRUB}
    env["PIGLIT_PLATFORM"] = platform
    # shader_runner prints Mesa's messages to stderr; keep the locale fixed so texts compare.
    env["LC_ALL"] = "C"
    return env


def run(cmd, env, cwd, timeout):
    """Runs cmd in its own process group (a timeout kills the whole group: glreplay capture forks
    the test). Returns (returncode or None on timeout, stdout, stderr)."""
    try:
        p = subprocess.Popen(cmd, env=env, cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, start_new_session=True)
    except OSError as e:
        return -1, "", "cannot start %s: %s" % (cmd[0], e)
    try:
        out, err = p.communicate(timeout=timeout)
        return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")
    except subprocess.TimeoutExpired:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        out, err = p.communicate()
        return None, out.decode("utf-8", "replace"), err.decode("utf-8", "replace")


def piglit_result(rc, stdout):
    """The test's verdict: pass/fail/skip/warn from its last PIGLIT result line; crash (killed by a
    signal, or no verdict printed) or timeout otherwise."""
    if rc is None:
        return "timeout"
    verdict = None
    for line in stdout.splitlines():
        if not line.startswith("PIGLIT: "):
            continue
        try:
            obj = json.loads(line[len("PIGLIT: "):])
        except ValueError:
            continue
        if isinstance(obj, dict) and isinstance(obj.get("result"), str):
            verdict = obj["result"]
    if rc < 0 or verdict is None:
        return "crash"
    return verdict


def first_line(text, limit=200):
    for line in text.splitlines():
        line = line.strip()
        if line:
            return line[:limit]
    return ""


def native(shader_runner, test, env, cwd, timeout):
    rc, out, err = run([shader_runner, test, "-auto", "-fbo"], env, cwd, timeout)
    return {"rc": rc, "result": piglit_result(rc, out), "stdout": out, "stderr": err}


def capture(glreplay, shader_runner, test, out_path, env, cwd, timeout):
    rc, out, err = run([glreplay, "capture", "--frame", "0", "--out", out_path, "--",
                        shader_runner, test, "-auto", "-fbo"], env, cwd, timeout)
    # glreplay's own lines on stderr start with "glreplay: "; the rest is the test's stderr.
    mine = [l for l in err.splitlines() if l.startswith("glreplay: ")]
    errors = [l for l in mine if not l.startswith("glreplay: running ") and not l.startswith("glreplay: captured ")]
    return {"rc": rc, "result": piglit_result(rc, out), "stdout": out,
            "program_error": any("the program then exited with an error" in l for l in mine),
            "written": rc == 0 and os.path.isfile(out_path), "error": first_line("\n".join(errors))}


_IMMEDIATE = re.compile(r"^gl(Begin|Rect[dfis]v?|CallLists?)$")
_SPIRV = re.compile(r"^glSpecializeShader(ARB)?$")
_DRAWS = re.compile(r"^gl(Draw(?!Buffers?$)|MultiDraw|DispatchCompute)")


def info(glreplay, cap, env, cwd, timeout):
    """Draw-like calls in the capture, by command name: model-visible draws/dispatches and
    immediate-mode drawing and display-list calls (draws the model runs too); whether shaders came as SPIR-V."""
    rc, out, err = run([glreplay, "info", cap, "--json"], env, cwd, timeout)
    res = {"rc": rc, "draws": 0, "immediate": [], "spirv": False, "reference_images": 0, "error": ""}
    if rc != 0:
        res["error"] = "glreplay info: " + ("timeout" if rc is None else first_line(err) or "exit %s" % rc)
        return res
    try:
        d = json.loads(out)
        for c in d.get("calls", {}).get("per_command", []):
            name, count = c.get("name", ""), int(c.get("count", 0))
            if _DRAWS.match(name):
                res["draws"] += count
            elif _IMMEDIATE.match(name):
                res["immediate"].append(name)
            elif _SPIRV.match(name):
                res["spirv"] = True  # ARB_gl_spirv: shaders given as SPIR-V binaries
        images = d.get("reference_images", [])
        res["reference_images"] = len(images) if isinstance(images, list) else int(images or 0)
    except (ValueError, TypeError, AttributeError) as e:
        res["error"] = "glreplay info --json: not JSON (%s)" % e
    return res


_REPLAY = re.compile(r"^replay: \d+ pass(?:es)?; per pass (\d+) calls: (\d+) ok, (\d+) skipped, "
                     r"(\d+) missing, (\d+) bad", re.M)
_VERIFY = re.compile(r"^verify: (PASS|FAIL): (\d+) frame images checked, (\d+) differ, (\d+) unmatched; "
                     r"passes (identical|DIFFER)", re.M)


def driver_varies(glreplay, cap, env, cwd, timeout):
    """Replays the capture in two more processes with --png: True when llvmpipe's images differ
    between them (passes inside one process are identical; the undefined values differ from
    process to process)."""
    images = []
    for k in range(2):
        out_dir = os.path.join(cwd, "varies%d" % k)
        shutil.rmtree(out_dir, ignore_errors=True)
        rc, _, _ = run([glreplay, "replay", cap, "--png", out_dir], env, cwd, timeout)
        if rc != 0 or not os.path.isdir(out_dir):
            return False
        files = {}
        for name in sorted(os.listdir(out_dir)):
            with open(os.path.join(out_dir, name), "rb") as f:
                files[name] = hashlib.sha256(f.read()).hexdigest()
        images.append(files)
        shutil.rmtree(out_dir, ignore_errors=True)
    return images[0] != images[1]


def replay(glreplay, cap, env, cwd, timeout):
    """`glreplay replay --verify`, judged from its report lines (a capture with no reference image
    makes --verify exit 1 with nothing to compare: that alone is no failure)."""
    rc, out, err = run([glreplay, "replay", cap, "--verify"], env, cwd, timeout)
    res = {"rc": rc, "ok": False, "reason": ""}
    if rc is None:
        res["reason"] = "replay timed out after %d s" % timeout
        return res
    m, v = _REPLAY.search(out), _VERIFY.search(out)
    if rc not in (0, 1) or not m or not v:
        res["reason"] = "replay exit %d: %s" % (rc, first_line(err) or first_line(out) or "no report")
        return res
    calls, ok, skipped, missing, bad = (int(x) for x in m.groups())
    checked, differ, unmatched = int(v.group(2)), int(v.group(3)), int(v.group(4))
    res.update(calls=calls, bad=bad, missing=missing, skipped=skipped, images_checked=checked)
    if bad:
        # The replayer's warning names the command and why ("glFoo: the capture lacks ...").
        why = [l[len("glreplay: warning: "):] for l in err.splitlines()
               if l.startswith("glreplay: warning: gl") and "not replayed" in l]
        res["reason"] = "%d of %d calls bad in replay%s" % (bad, calls, ": " + why[0][:160] if why else "")
    elif differ or unmatched:
        res["reason"] = "replay image differs from the reference (%d differ, %d unmatched)" % (differ, unmatched)
        if differ and driver_varies(glreplay, cap, env, cwd, timeout):
            # Not a capture or replay fault: llvmpipe draws a different image in each process
            # (the shader reads or writes undefined values: an out-of-range constant index, a
            # fragment shader that writes no colour), so no replay can match the reference.
            res["reason"] = ("llvmpipe's own image varies between runs (undefined values in the "
                             "shader; %d differ from the reference)" % differ)
    elif v.group(5) != "identical":
        res["reason"] = "replay passes differ from each other"
    elif rc == 1 and checked:
        res["reason"] = "replay --verify failed: " + (first_line(err) or v.group(0))
    else:
        res["ok"] = True
    return res


def model(glreplay, cap, env, cwd, timeout):
    rc, out, err = run([glreplay, "model", cap, "--compare", "--json"], env, cwd, timeout)
    res = {"rc": rc, "json": None, "error": ""}
    if rc is None:
        res["error"] = "model timed out after %d s" % timeout
        return res
    # The JSON is the last line that parses as an object (progress and warnings go to stderr).
    for line in reversed(out.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                res["json"] = json.loads(line)
                break
            except ValueError:
                pass
    if res["json"] is None or not isinstance(res["json"], dict):
        res["json"] = None
        res["error"] = "model exit %s, no JSON report: %s" % (rc, first_line(err) or first_line(out) or "no output")
    return res
