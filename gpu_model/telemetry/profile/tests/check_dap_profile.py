#!/usr/bin/env python3
"""End-to-end check of the DAP request glreplay/profile (ui_ipc/dap/dap_profile.c).

  check_dap_profile.py --glreplay G --samples DIR [NAME]

NAME (a sample, default lit_mesh) is captured with `glreplay capture`, `glreplay dap --socket P`
serves the capture, and two DAP clients connect over the Unix socket (Content-Length framing,
written here). Client A runs glreplay/profile with counters and PC sampling: the answer must
carry an id, the profile (one slice per draw, counters, PC samples), per-line data an editor can
show (a source with a sourceReference or path, a line, instructions, samples and reasons), and the
Chrome trace when asked for. Bad arguments get error responses. Isolation: client B asking for A's
id is refused with an error response naming another connection, while A fetches it again
unchanged; B's own profile gets a new id that A cannot fetch. Needs DISPLAY (capture)."""
import argparse
import json
import os
import socket
import subprocess
import sys
import tempfile
import time


def fail(msg):
    print("FAIL: " + msg)
    sys.exit(1)


class Client:
    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.settimeout(120)
        self.sock.connect(path)
        self.buf = b""
        self.seq = 0

    def _read_message(self):
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                fail("the server closed the connection")
            self.buf += chunk
        head, rest = self.buf.split(b"\r\n\r\n", 1)
        length = None
        for line in head.decode().split("\r\n"):
            k, _, v = line.partition(":")
            if k.strip().lower() == "content-length":
                length = int(v)
        if length is None:
            fail("a message without Content-Length: %r" % head)
        while len(rest) < length:
            chunk = self.sock.recv(1 << 20)
            if not chunk:
                fail("the server closed the connection mid-message")
            rest += chunk
        self.buf = rest[length:]
        return json.loads(rest[:length])

    def send(self, command, arguments=None):
        self.seq += 1
        msg = {"seq": self.seq, "type": "request", "command": command}
        if arguments is not None:
            msg["arguments"] = arguments
        body = json.dumps(msg).encode()
        self.sock.sendall(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        return self.seq

    def request(self, command, arguments=None):
        return self.wait(command, self.send(command, arguments))

    def wait(self, command, seq):
        while True:
            m = self._read_message()
            if m.get("type") == "response" and m.get("request_seq") == seq:
                if m.get("command") != command:
                    fail("response to %s names command %r" % (command, m.get("command")))
                if not m["success"] and not isinstance(m.get("message"), str):
                    fail("a failed response without a message: %r" % m)
                return m

    def close(self):
        self.sock.close()


def capture(args, tmp):
    out = os.path.join(tmp, args.name + ".glcap")
    p = subprocess.run([args.glreplay, "capture", "--frame", "1", "--count", "1", "--out", out, "--",
                        os.path.join(args.samples, args.name), "--frames", "3", "--size", "160x90"],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    if p.returncode != 0 or not os.path.exists(out):
        fail("glreplay capture failed (rc %d): %s" % (p.returncode, p.stderr.decode()[-600:]))
    return out


def start_server(args, tmp, cap):
    sock = os.path.join(tmp, "d", "s.sock")
    srv = subprocess.Popen([args.glreplay, "dap", "--socket", sock, cap], stdout=subprocess.PIPE,
                           stderr=subprocess.PIPE)
    for _ in range(600):
        if os.path.exists(sock):
            return srv, sock
        if srv.poll() is not None:
            fail("glreplay dap exited %d: %s" % (srv.returncode, srv.stderr.read().decode()[-600:]))
        time.sleep(0.05)
    srv.kill()
    fail("the DAP server did not create its socket")


def initialize(c):
    r = c.request("initialize", {"adapterID": "glreplay", "clientID": "check_dap_profile"})
    if not r["success"]:
        fail("initialize failed: %r" % r)


def check_answer(body, chrome):
    prof = body.get("profile")
    if not isinstance(body.get("id"), int) or not isinstance(prof, dict):
        fail("the answer has no id or profile: %r" % list(body))
    draws = [s for s in prof["slices"] if s["kind"] == "draw"]
    if not draws or len(draws) != prof["totals"]["draws"]:
        fail("profile slices do not match its draws")
    if set(prof["methods"]) != {"counters", "pcsamp"}:
        fail("methods %r, expected counters and pcsamp" % prof["methods"])
    g = prof["counters"]["global"]["values"]
    if g["inst_issued"] <= 0:
        fail("the counters counted no instruction")
    ctx_sum = sum(c["values"]["inst_issued"] for c in prof["counters"]["contexts"])
    if ctx_sum != g["inst_issued"]:
        fail("per-context inst_issued %d != global %d" % (ctx_sum, g["inst_issued"]))
    if prof["pcsamp"]["stats"]["samples"] <= 0:
        fail("no PC samples")
    lines = body.get("lines")
    if not lines:
        fail("no per-line data for the editor")
    sampled = [l for l in lines if l["samples"] > 0]
    if not sampled:
        fail("no line of the editor data has PC samples")
    for l in lines:
        src = l["source"]
        if not (isinstance(src.get("sourceReference"), int) and src["sourceReference"] > 0) and not src.get("path"):
            fail("a line's source has neither sourceReference nor path: %r" % l)
        if l["line"] < 1 or l["instructions"] < 0:
            fail("bad line entry %r" % l)
    if sum(sum(l["reasons"].values()) for l in sampled) != sum(l["samples"] for l in sampled):
        fail("the reasons of the lines do not add up to their samples")
    if chrome:
        ev = body.get("chromeTrace", {}).get("traceEvents")
        if not ev or len([e for e in ev if e["ph"] == "X" and e.get("cat") == "draw"]) != len(draws):
            fail("the Chrome trace in the answer lacks the draw slices")
    top = sampled[0]
    print("profile %d: %d draws, %d lines for the editor; hottest sampled: %s line %d (%d samples)" %
          (body["id"], len(draws), len(lines), top["source"].get("name"), top["line"], top["samples"]))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--glreplay", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("name", nargs="?", default="lit_mesh")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        cap = capture(args, tmp)
        srv, sock = start_server(args, tmp, cap)
        try:
            a = Client(sock)
            initialize(a)
            opts = {"counters": True, "pcSampling": 256, "chromeTrace": True}
            r = a.request("glreplay/profile", opts)
            if not r["success"]:
                fail("glreplay/profile failed: %s" % r.get("message"))
            check_answer(r["body"], True)
            id_a = r["body"]["id"]

            for bad in ({"pcSampling": 3}, {"counters": "yes"}, {"traceBuffers": "nope"}, {"id": "x"}):
                r = a.request("glreplay/profile", bad)
                if r["success"]:
                    fail("glreplay/profile accepted bad arguments %r" % bad)
                print("bad arguments %r: %s" % (bad, r["message"]))

            b = Client(sock)
            initialize(b)
            r = b.request("glreplay/profile", {"id": id_a})
            if r["success"] or "another connection" not in r["message"]:
                fail("a second connection got profile %d of the first: %r" % (id_a, r))
            print("second connection asking for profile %d: refused: %s" % (id_a, r["message"]))
            r = b.request("glreplay/profile", {"id": 999999})
            if r["success"] or "no profile" not in r["message"]:
                fail("an unknown id was not refused as unknown: %r" % r)

            r = a.request("glreplay/profile", {"id": id_a})
            if not r["success"] or r["body"]["id"] != id_a:
                fail("the owner could not fetch its profile %d: %r" % (id_a, r.get("message")))
            check_answer(r["body"], True)

            r = b.request("glreplay/profile", {"counters": True, "pcSampling": 256})
            if not r["success"]:
                fail("the second connection's own profile failed: %s" % r.get("message"))
            id_b = r["body"]["id"]
            if id_b == id_a:
                fail("two connections' profiles share id %d" % id_a)
            r = a.request("glreplay/profile", {"id": id_b})
            if r["success"] or "another connection" not in r["message"]:
                fail("the first connection got the second's profile %d" % id_b)
            # Same capture, same options: the same profile (determinism across connections).
            r2 = b.request("glreplay/profile", {"id": id_b})
            ra = a.request("glreplay/profile", {"id": id_a})
            pa, pb = ra["body"]["profile"], r2["body"]["profile"]
            if pa["slices"] != pb["slices"] or pa["counters"]["global"] != pb["counters"]["global"]:
                fail("two connections' profiles of the same frame differ")

            # A run happens on its own thread: while A's profile runs, B is served, and A's
            # second profile request is refused as busy (not queued behind the first).
            seq = a.send("glreplay/profile", {"counters": True})
            r = b.request("glreplay/capture")
            if not r["success"]:
                fail("the server did not serve B while A's profile ran: %r" % r)
            busy = a.request("glreplay/profile", {"counters": True})
            first = a.wait("glreplay/profile", seq)
            if not first["success"]:
                fail("A's concurrent profile failed: %s" % first.get("message"))
            print("while A's profile ran: B served; A's second request: %s" %
                  ("ok" if busy["success"] else busy["message"]))
            # A client that disconnects while its profile runs: the server goes on.
            c = Client(sock)
            initialize(c)
            c.send("glreplay/profile", {"counters": True, "pcSampling": 1024})
            c.close()
            time.sleep(0.2)
            r = b.request("glreplay/profile", {"id": id_b})
            if not r["success"] or srv.poll() is not None:
                fail("the server failed after a client left during its profile: %r" % r)
            a.request("disconnect", {})
            b.request("disconnect", {})
            a.close()
            b.close()
            srv.terminate()
            _, err = srv.communicate(timeout=30)
            if b"Sanitizer" in err:
                fail("the server reported a sanitizer error: %s" % err.decode()[-2000:])
            print("PASS")
        finally:
            if srv.poll() is None:
                srv.kill()
                srv.wait()


if __name__ == "__main__":
    main()
