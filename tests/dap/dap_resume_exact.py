#!/usr/bin/env python3
"""A continue that resumes the suspended pass must stop exactly where a new pass stops.

Captures lit_mesh (frames 0-2, small window), serves it with `glreplay dap`, and in one session
stops at mesh.frag:27 with hitCondition "% K" and continues several times (resumed passes; the
last continues also change the hit condition, which keeps the pass resumable). Then, for each of
those stops, a new session runs a new pass to the same hit number ("== N"): the stop must be the
same (hit, draw, warp, lane) and the focused lane's variables must have the same values. The
same with a per-lane condition. Also checks `glreplay debug` agrees on the first stop.

Usage: dap_resume_exact.py GLREPLAY LIT_MESH SHADER_DIR (needs an X display)."""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))
import dap_bench_client as dap  # noqa: E402

EXPRS = ['dist', 'to_light', 'i', 'v_world_pos']
K = 700   # stop every K-th hit


def stop_key(ev):
    d = ev['body']['description']
    m = re.match(r'hit (\d+) of breakpoint \d+: (draw \d+ · FS · warp \d+).*lane (\d+)$', d)
    if not m:
        raise AssertionError('unexpected stop description: ' + d)
    return int(m.group(1)), m.group(2), int(m.group(3))


def values(c):
    st = c.request('stackTrace', {'threadId': 1})
    fid = st['body']['stackFrames'][0]['id']
    out = []
    for e in EXPRS:
        r = c.request('evaluate', {'expression': e, 'frameId': fid, 'context': 'watch'}, check=False)
        out.append(r['body']['result'] if r.get('success') else 'error')
    return out


def main():
    glreplay, sample, shader_dir = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix='glr-resume-')
    os.chmod(tmp, 0o700)
    srv = None
    try:
        cap = os.path.join(tmp, 'f.glcap')
        r = subprocess.run([glreplay, 'capture', '--frame', '0', '--count', '3', '--out', cap, '--', sample,
                            '--size', '320x180', '--frames', '5'], capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stdout + r.stderr
        mesh = os.path.join(shader_dir, 'mesh.frag')
        sock = os.path.join(tmp, 's.sock')
        srv = subprocess.Popen([glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.DEVNULL)
        for cond in (None, 'dist > 3.0'):
            base = {'line': 27}
            if cond:
                base['condition'] = cond
            # One session: a first stop, then resumed continues (the last two with another hit
            # condition: same counts, still resumed).
            c = dap.connect(sock)
            t = dap.start_session(c, {mesh: [dict(base, hitCondition='%% %d' % K)]})
            stops = [stop_key(c.wait_event('stopped', after=t)[1])]
            vals = [values(c)]
            for k in range(5):
                if k == 3:
                    dap.set_breakpoints(c, {mesh: [dict(base, hitCondition='>= 1')]})
                c.drop_events()
                seq, t = c.send('continue', {'threadId': 1})
                c.response(seq)
                stops.append(stop_key(c.wait_event('stopped', after=t)[1]))
                vals.append(values(c))
            c.close()
            assert len(set(s[0] for s in stops)) == len(stops), stops
            # New passes to each of those hits.
            for (hit, where, lane), v in zip(stops, vals):
                c = dap.connect(sock)
                t = dap.start_session(c, {mesh: [dict(base, hitCondition='== %d' % hit)]})
                got = stop_key(c.wait_event('stopped', after=t)[1])
                assert got == (hit, where, lane), 'resumed %s, new pass %s (condition %s)' % ((hit, where, lane), got, cond)
                got_v = values(c)
                assert got_v == v, 'values at hit %d: resumed %s, new pass %s' % (hit, v, got_v)
                c.close()
            print('dap_resume_exact: condition %s: %d stops identical' % (cond, len(stops)))
            if cond is None:
                first = stops[0]
        # glreplay debug (one pass, no DAP) agrees with the first stop of the unconditioned run.
        r = subprocess.run([glreplay, 'debug', cap, '--break', mesh + ':27', '--hit', str(K)],
                           capture_output=True, text=True, timeout=120)
        assert r.returncode == 0, r.stderr
        m = re.search(r'thread: (draw \d+ · FS · warp \d+)', r.stdout)
        lane = re.search(r'focused lane (\d+)', r.stdout)
        assert m and lane and (m.group(1), int(lane.group(1))) == (first[1], first[2]), \
            'glreplay debug --hit %d: %s, DAP: %s' % (first[0], r.stdout[:300], first)
        print('dap_resume_exact: all checks passed')
        return 0
    except (AssertionError, dap.DapError, OSError, subprocess.TimeoutExpired) as e:
        print('dap_resume_exact: FAIL: %s' % e, file=sys.stderr)
        return 1
    finally:
        if srv:
            srv.terminate()
            try:
                srv.wait(10)
            except subprocess.TimeoutExpired:
                srv.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
