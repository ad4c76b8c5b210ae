#!/usr/bin/env python3
"""A continue after the breakpoints changed resumes the parked pass (debugger/dbg_rebind.h) and must
stop exactly where a new pass from the frame's first draw stops.

Captures lit_mesh (frames 0-2, small window) and serves it twice with `glreplay dap`: one server as
built (changed breakpoints resume when their counts are known), one with
GLREPLAY_DAP_RESUME_CHANGED=0 (every change runs a new pass, as before). The same session runs on
both: a stop at sky.frag:18 (conditional), a plain breakpoint on that line instead (its hits at
the stopped instruction's later lanes come next), then breakpoints added (mesh.frag:27 with "% K": its count at
the stop comes from the pass's per-line arrivals), continues, a breakpoint removed, a new plain one
on another line, another one added before two steps and continues, a new conditional one (a new pass on both servers). Every stop (hit, draw, warp,
lane) and the focused lane's values must be equal on both servers, and the first server must have
run fewer passes from the frame's start (GLREPLAY_DAP_PROFILE's "runner created" lines).

Then, on a third server, two breakpoints on one line (two files with mesh.frag's text): resumed
continues must stop where new passes stop, including where the next stop is a hit at a later
lane of the parked instruction that the pass counted before its stop (a breakpoint earlier in
the pass's loop): a resumed pass used to miss it.

Usage: dap_resume_changed.py GLREPLAY LIT_MESH SHADER_DIR (needs an X display)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))
import dap_bench_client as dap  # noqa: E402

EXPRS = ['dist', 'to_light', 'i', 'v_world_pos', 't', 'color', 'r', 'v_screen']
K = 700    # mesh.frag:27: stop every K-th hit
KS = 900   # sky.frag:18


def stop_key(ev):
    d = ev['body']['description']
    m = re.match(r'hit (\d+) of breakpoint \d+: (draw \d+ · FS · warp \d+).*lane (\d+)$', d)
    if not m:
        return ('other', d)
    return int(m.group(1)), m.group(2), int(m.group(3))


def values(c):
    st = c.request('stackTrace', {'threadId': 1})
    frames = st['body']['stackFrames']
    if not frames:
        return []
    fid = frames[0]['id']
    out = []
    for e in EXPRS:
        r = c.request('evaluate', {'expression': e, 'frameId': fid, 'context': 'watch'}, check=False)
        out.append(r['body']['result'] if r.get('success') else 'error')
    return out


def session(sock, mesh, sky):
    """The scripted session: a list of (stop, values) after each step."""
    out = []
    c = dap.connect(sock)
    t = dap.start_session(c, {sky: [{'line': 18, 'condition': 'r < 5.0'}]})
    out.append((stop_key(c.wait_event('stopped', after=t)[1]), values(c)))

    def cont():
        c.drop_events()
        seq, t = c.send('continue', {'threadId': 1})
        c.response(seq)
        out.append((stop_key(c.wait_event('stopped', after=t)[1]), values(c)))

    # Replaced: sky.frag:18 without the condition, a new breakpoint on the stopped line (the
    # stopped instruction's later lanes are its next hits: "% 7" stops in it again).
    dap.set_breakpoints(c, {sky: [{'line': 18, 'hitCondition': '% 7'}]})
    cont()
    # Added: mesh.frag:27 (hits before the stop counted per line), sky with a hit condition.
    dap.set_breakpoints(c, {sky: [{'line': 18, 'hitCondition': '%% %d' % KS}],
                            mesh: [{'line': 27, 'hitCondition': '%% %d' % K}]})
    for _ in range(3):
        cont()
    # Removed: sky.
    dap.set_breakpoints(c, {sky: [], mesh: [{'line': 27, 'hitCondition': '%% %d' % K}]})
    cont()
    # Added (mesh.frag:29), then steps before the continue: the steps take the new counts.
    dap.set_breakpoints(c, {mesh: [{'line': 27, 'hitCondition': '%% %d' % K}, {'line': 29, 'hitCondition': '% 97'}]})
    for _ in range(2):
        c.drop_events()
        seq, t = c.send('next', {'threadId': 1})
        c.response(seq)
        out.append((stop_key(c.wait_event('stopped', after=t)[1]), values(c)))
    cont()
    cont()
    dap.set_breakpoints(c, {mesh: [{'line': 27, 'hitCondition': '%% %d' % K}]})
    # Added: a plain breakpoint on another line of another shader, with a far hit condition.
    dap.set_breakpoints(c, {sky: [{'line': 23, 'hitCondition': '== %d' % (2 * KS)}],
                            mesh: [{'line': 27, 'hitCondition': '%% %d' % K}]})
    cont()
    cont()
    # Added: a conditional breakpoint (its count is unknown: a new pass on both servers).
    dap.set_breakpoints(c, {sky: [{'line': 18, 'condition': 'r < 0.3', 'hitCondition': '%% %d' % KS}],
                            mesh: [{'line': 27, 'hitCondition': '%% %d' % K}]})
    cont()
    cont()
    c.close()
    return out


def same_line(sock, mesh, tmp, fresh):
    """Two breakpoints (two files with mesh.frag's text: two ids) on one line stop at the same
    instructions. fresh=False: every continue resumes the parked pass; fresh=True: before each
    continue the (always true) conditions change text, so each continue runs a new pass from the
    frame's start to the next hit after the position. The stop descriptions, in order."""
    twin = os.path.join(tmp, 'twin.frag')
    shutil.copyfile(mesh, twin)

    def bps(k):
        cond = 'dist > -%d.0' % (1 + (k % 2 if fresh else 0))
        return {mesh: [{'line': 27, 'hitCondition': '% 5', 'condition': cond}],
                twin: [{'line': 27, 'hitCondition': '% 3', 'condition': cond}]}
    names = {}

    def set_bps(k):
        # Breakpoint ids are the server's: named by their file in the descriptions compared.
        for path, b in bps(k).items():
            r = c.request('setBreakpoints', {'source': {'path': path}, 'breakpoints': b})
            names[r['body']['breakpoints'][0]['id']] = os.path.basename(path)

    def named(desc):
        m = re.match(r'(hit \d+ of breakpoint )(\d+)(: .*)$', desc)
        return m.group(1) + names.get(int(m.group(2)), '?') + m.group(3) if m else desc
    c = dap.connect(sock)
    t = dap.start_session(c, bps(0))
    c.wait_event('stopped', after=t)
    set_bps(0)   # the same breakpoints again (new ids): the pass stays resumable
    evs = []
    for k in range(1, 13):
        if fresh:
            set_bps(k)
        c.drop_events()
        seq, t = c.send('continue', {'threadId': 1})
        c.response(seq)
        evs.append(named(c.wait_event('stopped', after=t)[1]['body']['description']))
    c.close()
    # A stop at one breakpoint's hit 20, then the other's hit condition changed to 21: its hit
    # at a later lane of the same instruction (counted before the stop in the loop's order when it
    # comes first) is the next stop. Both ways round.
    for first, second in ((twin, mesh), (mesh, twin)):
        c = dap.connect(sock)
        cond = {'condition': 'dist > -1.0'}
        # `second` is set first: it comes first in the pass's loop over breakpoints
        t = dap.start_session(c, {second: [dict(cond, line=27, hitCondition='== 1000000')],
                                  first: [dict(cond, line=27, hitCondition='== 20')]})
        c.wait_event('stopped', after=t)
        if fresh:
            cond = {'condition': 'dist > -2.0'}
        for path, hc in ((second, '== 21'), (first, '== 1000000')):
            r = c.request('setBreakpoints', {'source': {'path': path}, 'breakpoints': [dict(cond, line=27, hitCondition=hc)]})
            names[r['body']['breakpoints'][0]['id']] = os.path.basename(path)
        c.drop_events()
        seq, t = c.send('continue', {'threadId': 1})
        c.response(seq)
        evs.append(named(c.wait_event('stopped', after=t)[1]['body']['description']))
        c.close()
    return evs


def runs_created(log_text):
    """Runs of the frame passes started: fresh runners, and spares a pass adopted
    (GLREPLAY_DAP_SPARES=1 prepares one after each pass; the last is never adopted)."""
    return log_text.count('runner created') + log_text.count('spare adopted')


def serve(glreplay, cap, sock, extra_env, log):
    env = dict(os.environ, GLREPLAY_DAP_PROFILE='1', **extra_env)
    return subprocess.Popen([glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.DEVNULL,
                            stderr=log, env=env)


def main():
    glreplay, sample, shader_dir = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix='glr-rebind-')
    os.chmod(tmp, 0o700)
    srvs = []
    try:
        cap = os.path.join(tmp, 'f.glcap')
        r = subprocess.run([glreplay, 'capture', '--frame', '0', '--count', '3', '--out', cap, '--', sample,
                            '--size', '320x180', '--frames', '5'], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        mesh = os.path.join(shader_dir, 'mesh.frag')
        sky = os.path.join(shader_dir, 'sky.frag')
        results, passes = [], []
        for name, env in (('resume', {}), ('new passes', {'GLREPLAY_DAP_RESUME_CHANGED': '0'})):
            sock = os.path.join(tmp, name[0] + '.sock')
            logp = os.path.join(tmp, name[0] + '.log')
            with open(logp, 'w') as log:
                srv = serve(glreplay, cap, sock, env, log)
                srvs.append(srv)
                results.append(session(sock, mesh, sky))
                srv.terminate()
                srv.wait(10)
            with open(logp) as f:
                passes.append(runs_created(f.read()))
        sock = os.path.join(tmp, 't.sock')
        with open(os.path.join(tmp, 't.log'), 'w') as log:
            srv = serve(glreplay, cap, sock, {}, log)
            srvs.append(srv)
            resumed = same_line(sock, mesh, tmp, False)
            fresh = same_line(sock, mesh, tmp, True)
            srv.terminate()
            srv.wait(10)
        with open(os.path.join(tmp, 't.log')) as f:
            n_runs = runs_created(f.read())
        for k, (x, y) in enumerate(zip(resumed, fresh)):
            assert x == y, 'one line, two breakpoints, stop %d: resumed %r, new pass %r' % (k, x, y)
        assert len(set(resumed)) == len(resumed) == 14 and n_runs == 2 + 12 + 4 + 2, (resumed, n_runs)
        print('dap_resume_changed: one line, two breakpoints: %d resumed stops as new passes' % len(resumed))
        a, b = results
        assert len(a) == len(b) == 14, (len(a), len(b))
        for k, (x, y) in enumerate(zip(a, b)):
            assert x == y, 'step %d: resumed %s, new pass %s' % (k, x, y)
        stops = [s for s, _ in a if s[0] != 'other']
        assert len(stops) == len(a) - 2, a   # all but the two steps stopped at breakpoints
        assert len(set(stops)) == len(stops), stops
        # Both shaders stopped, the mesh ones after the first sky stop (counts carried over).
        assert any('draw' in s[1] for s in stops)
        assert passes[0] < passes[1], 'passes from the frame start: %d resumed, %d without' % tuple(passes)
        print('dap_resume_changed: %d stops identical; passes from the frame start: %d (resume) vs %d'
              % (len(a), passes[0], passes[1]))
        for s, v in a:
            print('  %s %s' % (s, v[:2]))
        return 0
    except (AssertionError, dap.DapError, OSError, subprocess.TimeoutExpired) as e:
        print('dap_resume_changed: FAIL: %s' % e, file=sys.stderr)
        return 1
    finally:
        for srv in srvs:
            if srv.poll() is None:
                srv.kill()
                srv.wait()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
