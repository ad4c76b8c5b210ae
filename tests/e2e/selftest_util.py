#!/usr/bin/env python3
"""Self-test of the e2e helpers (tests/support/e2e_util.py) and of the glmark2 stdout
normalisation: the checks the e2e tests rely on must fail on a deliberate difference (a pixel, a
count, a missing summary) and pass on equal inputs. No GL, no X."""
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # keep the source tree clean
here = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(here, "..", "support"))
sys.path.insert(0, here)
import e2e_util as U  # noqa: E402
import transparency_glmark2 as G  # noqa: E402

SUMMARY = """noise
glreplay: info: summary: pid 12, frames 3, contexts 2 (alive 1), threads 1, calls 7, functions 2
glreplay: info:            4 glClear
glreplay: info:            3 glXSwapBuffers
glreplay: info: summary: pid 13, frames 0, contexts 0 (alive 0), threads 0, calls 0, functions 0
"""


def must_fail(fn, what):
    try:
        fn()
    except U.TestFailure:
        return
    raise U.TestFailure("%s was not detected" % what)


def write_pam(path, pixels):
    with open(path, "wb") as f:
        f.write(b"P7\nWIDTH 2\nHEIGHT 1\nDEPTH 4\nMAXVAL 255\nTUPLTYPE RGB_ALPHA\nENDHDR\n" + bytes(pixels))


def main():
    sums = U.parse_summaries(SUMMARY)
    U.check(len(sums) == 2 and sums[0]["pid"] == 12 and sums[0]["counts"] == {"glClear": 4, "glXSwapBuffers": 3}
            and sums[0]["alive"] == 1 and sums[1]["functions"] == 0, "parse_summaries: %s" % sums)
    exp = U.parse_expectations("x\nexpect call glClear 4\nexpect frames 3\nexpect alive 1\n")
    U.check(exp == [("call:glClear", 4), ("frames", 3), ("alive", 1)], "parse_expectations: %s" % exp)
    U.check_expectations(sums[0], exp, "equal")
    must_fail(lambda: U.check_expectations(sums[0], [("call:glClear", 5)], "t"), "a wrong call count")
    must_fail(lambda: U.check_expectations(sums[0], [("call:glFinish", 1)], "t"), "a missing function")
    must_fail(lambda: U.check_expectations(sums[0], [("threads", 2)], "t"), "a wrong thread count")

    class Res:
        returncode = 0
        stdout = ""
        stderr = "no summary here\n"
    must_fail(lambda: U.one_summary(Res, "t"), "a missing summary")

    with tempfile.TemporaryDirectory() as tmp:
        a, b = os.path.join(tmp, "a"), os.path.join(tmp, "b")
        os.mkdir(a)
        os.mkdir(b)
        write_pam(os.path.join(a, "frame_0000.pam"), [1, 2, 3, 255, 4, 5, 6, 255])
        write_pam(os.path.join(b, "frame_0000.pam"), [1, 2, 3, 255, 4, 5, 6, 255])
        U.compare_dump_dirs(a, b, "equal dumps")
        write_pam(os.path.join(b, "frame_0000.pam"), [1, 2, 3, 255, 4, 5, 7, 255])
        must_fail(lambda: U.compare_dump_dirs(a, b, "t"), "a one-byte pixel difference")
        write_pam(os.path.join(b, "frame_0000.pam"), [1, 2, 3, 255, 4, 5, 6, 255])
        write_pam(os.path.join(b, "frame_0001.pam"), [1, 2, 3, 255, 4, 5, 6, 255])
        must_fail(lambda: U.compare_dump_dirs(a, b, "t"), "an extra dumped frame")
        os.remove(os.path.join(b, "frame_0001.pam"))
        must_fail(lambda: U.compare_dump_dirs(a, b, "t", ["frame_0004.pam"]), "a missing expected dump")
        os.remove(os.path.join(a, "frame_0000.pam"))
        os.remove(os.path.join(b, "frame_0000.pam"))
        must_fail(lambda: U.compare_dump_dirs(a, b, "t"), "no dumps at all")

    line = "[build] use-vbo=false: FPS: 346 FrameTime: 2.896 ms\n    glmark2 Score: 653 \n"
    U.check(G.normalise(line) == "[build] use-vbo=false: FPS: N FrameTime: N ms\n    glmark2 Score: N \n",
            "normalise: %r" % G.normalise(line))
    U.check(G.normalise("[build] x: FPS: 1") != G.normalise("[texture] x: FPS: 1"),
            "normalise hides a scene name difference")
    print("e2e helpers detect every deliberate difference")


if __name__ == "__main__":
    U.main_guard(main)
