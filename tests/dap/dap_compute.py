#!/usr/bin/env python3
"""Breakpoints in compute shaders: `glreplay debug --json` on a capture of compute_sample.

Captures frame 0 of gpu_model/frame/tests/compute_sample (EGL surfaceless, no X), binds a
breakpoint to a line of its scan shader (a file holding that line: it binds by text) and stops at
hit N. Checks, against values computed here from the shader's formula:
  * without the timing model (warps of a group in lock-step phases, groups in order) hit N is
    invocation N-1 of the dispatch: its workgroup, local/global invocation IDs, the thread title
    `dispatch 0 · CS · warp W · workgroup (x,y,z) invocations i..j`;
  * with the timing model (the default order) the stopped lane's IDs agree with each other;
  * in both, the focused lane's `prefix` and `last` (the inclusive scan of the group's weights)
    and the workgroup's shared `sums` equal the scan computed here;
  * a line of the program's other compute shader binds and hits too, and a hit beyond the frame's
    invocations reports how many reached it.

Usage: dap_compute.py GLREPLAY SHIM COMPUTE_SAMPLE"""
import json
import os
import re
import subprocess
import sys
import tempfile

# The scan shader's lines (gpu_model/frame/tests/compute_sample.c, scan_src), frame 0.
BREAK_TEXT = "  float a = 6.2831853 * float(prefix) / float(last);\n"
GROUP = 128


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


def weights(group):
    # uint w = (gl_GlobalInvocationID.x * 7u + uint(frame) * 3u) % 5u + 1u;  (frame 0; pad is 0)
    return [((group * GROUP + i) * 7 + 0) % 5 + 1 for i in range(GROUP)]


def scan(group):
    out, acc = [], 0
    for w in weights(group):
        acc += w
        out.append(acc)
    return out


def debug(glreplay, cap, brk, hit, *extra):
    p = subprocess.run([glreplay, "debug", cap, "--break", brk, "--hit", str(hit), "--json"] + list(extra),
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=240)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def var(snap, name):
    for v in snap["variables"]:
        if v["name"] == name:
            return v
    fail("no variable %s in the snapshot: %s" % (name, [v["name"] for v in snap["variables"]]))


def uvec(text):
    # "uvec3(1, 2, 3)" or "7u": the numbers after the type's name
    return [int(x) for x in re.findall(r"-?\d+", text.split("(", 1)[-1])]


def check_stop(snap, group, local, timing):
    lane = snap["lane"]
    gid = group * GROUP + local
    if snap["stage"] not in ("CS", "compute"):
        fail("stage %r, expected compute" % snap["stage"])
    if snap["workgroup"] != [group, 0, 0] or snap["localSize"] != [GROUP, 1, 1]:
        fail("workgroup %r local size %r, expected [%d,0,0] [128,1,1]" % (snap["workgroup"], snap["localSize"], group))
    if uvec(var(snap, "gl_GlobalInvocationID")["value"])[:1] != [gid]:
        fail("gl_GlobalInvocationID %s, expected x = %d" % (var(snap, "gl_GlobalInvocationID")["value"], gid))
    if uvec(var(snap, "gl_LocalInvocationID")["value"]) != [local, 0, 0]:
        fail("gl_LocalInvocationID %s, expected (%d,0,0)" % (var(snap, "gl_LocalInvocationID")["value"], local))
    if uvec(var(snap, "gl_WorkGroupID")["value"]) != [group, 0, 0]:
        fail("gl_WorkGroupID %s, expected (%d,0,0)" % (var(snap, "gl_WorkGroupID")["value"], group))
    if uvec(var(snap, "gl_LocalInvocationIndex")["value"]) != [local]:
        fail("gl_LocalInvocationIndex %s, expected %d" % (var(snap, "gl_LocalInvocationIndex")["value"], local))
    if snap["lanes"][lane].get("localInvocationIndex") != local:
        fail("lane %d's localInvocationIndex %r, expected %d" % (lane, snap["lanes"][lane], local))
    warp_in_group = local // 32
    title = "dispatch 0 · CS · warp %d · workgroup (%d,0,0) invocations %d..%d" % (
        group * 4 + warp_in_group, group, warp_in_group * 32, warp_in_group * 32 + 31)
    if snap["title"] != title:
        fail("title %r, expected %r" % (snap["title"], title))
    sc = scan(group)
    for name, want in (("i", local), ("prefix", sc[local]), ("last", sc[-1])):
        got = uvec(var(snap, name)["value"])
        if got != [want]:
            fail("%s = %s at invocation %d of group %d, expected %d (%s)" % (name, got, local, group, want,
                                                                            "timing" if timing else "no timing"))
    # 7 steps of the scan flip src 7 times: the result is in sums[1]; the whole group's memory.
    sums = [int(x) for x in re.findall(r"\d+", var(snap, "sums")["value"])]
    if len(sums) != 2 * GROUP or sums[GROUP:] != sc:
        fail("shared sums[1] = %s..., expected the scan %s..." % (sums[GROUP:GROUP + 6], sc[:6]))


def main():
    if len(sys.argv) != 4:
        fail(__doc__)
    glreplay, shim, exe = sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        cap = os.path.join(tmp, "compute.glcap")
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES="0", GLREPLAY_CAPTURE_OUT=cap, LD_PRELOAD=shim)
        p = subprocess.run([exe, "--frames", "2", "--size", "160x90"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            if b"no EGL surfaceless" in p.stderr or b"no GL 4.3" in p.stderr:
                print("SKIP: " + p.stderr.decode().strip())
                sys.exit(77)
            fail("capture failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-400:]))
        src = os.path.join(tmp, "scan.comp")
        with open(src, "w") as f:
            f.write(BREAK_TEXT)

        # Without the timing model: hit N is invocation N-1 of the first dispatch.
        for hit in (1, 200, 256):
            rc, out, err = debug(glreplay, cap, src + ":1", hit, "--no-timing")
            if rc != 0:
                fail("glreplay debug --no-timing --hit %d exited %d: %s" % (hit, rc, err[-400:]))
            snap = json.loads(out)
            if snap["breakpoint"]["hit"] != hit or snap["draw"] != 0:
                fail("stopped at hit %r of dispatch %r" % (snap["breakpoint"]["hit"], snap["draw"]))
            check_stop(snap, (hit - 1) // GROUP, (hit - 1) % GROUP, False)
        print("ok: --no-timing hits 1, 200, 256 stop at the right invocation with the right values")

        # With the timing model: some invocation, whose IDs and values agree.
        rc, out, err = debug(glreplay, cap, src + ":1", 150)
        if rc != 0:
            fail("glreplay debug --hit 150 exited %d: %s" % (rc, err[-400:]))
        snap = json.loads(out)
        lane = snap["lane"]
        local = snap["lanes"][lane]["localInvocationIndex"]
        check_stop(snap, snap["workgroup"][0], local, True)
        print("ok: timing model hit 150 stops at group %d invocation %d, values agree" % (snap["workgroup"][0], local))

        # The frame has 256 invocations of the scan: hit 257 never comes.
        rc, out, err = debug(glreplay, cap, src + ":1", 257, "--no-timing")
        if rc == 0 or "256 invocations reached it" not in err:
            fail("hit 257: rc %d, %r" % (rc, err[-300:]))
        print("ok: hit 257 reports 256 invocations")

        # Another compute shader (the transpose: 2x2 groups of 16x16 invocations), 2-D IDs.
        with open(src, "w") as f:
            f.write("  uint v = tile[l.x][l.y];\n")
        rc, out, err = debug(glreplay, cap, src + ":1", 300, "--no-timing")
        if rc != 0:
            fail("transpose hit 300 exited %d: %s" % (rc, err[-400:]))
        snap = json.loads(out)
        # invocation 299: group 1 = (1,0,0), local index 43 = (11, 2)
        if snap["workgroup"] != [1, 0, 0] or uvec(var(snap, "gl_LocalInvocationID")["value"]) != [11, 2, 0]:
            fail("transpose stop: workgroup %r, local id %s" % (snap["workgroup"],
                                                                 var(snap, "gl_LocalInvocationID")["value"]))
        if uvec(var(snap, "g")["value"]) != [27, 2]:
            fail("transpose g = %s, expected uvec2(27, 2)" % var(snap, "g")["value"])
        print("ok: transpose hit 300 at workgroup (1,0,0) local (11,2,0)")
    print("PASS")


if __name__ == "__main__":
    main()
