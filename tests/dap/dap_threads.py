#!/usr/bin/env python3
"""With the timing model many warps are in flight: a stop lists every warp resident in the model
as a DAP thread (thread 1 the stopped warp), and stackTrace/scopes/variables/evaluate work on
each of them.

Captures frame 0 of compute_sample (EGL surfaceless, no X), serves it with `glreplay dap` and stops
at a hit of its scan shader's line after the scan (timing model, the default). Checks:
  * `threads` lists several warps, named `dispatch 0 · CS · warp W · workgroup (x,y,z)
    invocations i..j`, all distinct, thread 1 the one the stopped event names;
  * for every other thread: stackTrace (its own frame ids), scopes, Built-ins whose
    gl_LocalInvocationIndex and gl_WorkGroupID agree with the thread's name and focused lane,
    `evaluate` in its frame agreeing, and its workgroup's shared `sums` equal to the stopped
    warp's when they share a workgroup (one shared block per group);
  * `glreplay debug --json` lists the same resident warps (`residentWarps`), and none with
    --no-timing (one warp at a time).

Usage: dap_threads.py GLREPLAY SHIM COMPUTE_SAMPLE"""
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))
import dap_bench_client as dap  # noqa: E402

BREAK_TEXT = "  float a = 6.2831853 * float(prefix) / float(last);\n"
NAME = re.compile(r'^dispatch 0 · CS · warp (\d+) · workgroup \((\d+),(\d+),(\d+)\) invocations (\d+)\.\.(\d+)$')
HIT = 70


def nums(text):
    return [int(x) for x in re.findall(r'-?\d+', text.split('(', 1)[-1])]


def thread_view(c, tid):
    """Frame id, {scope name: {var: value}} of a thread's top frame."""
    st = c.request('stackTrace', {'threadId': tid})
    frames = st['body']['stackFrames']
    assert frames, 'thread %d: no frames' % tid
    fid = frames[0]['id']
    scopes = c.request('scopes', {'frameId': fid})['body']['scopes']
    out = {}
    for sc in scopes:
        if sc['expensive']:
            continue
        vs = c.request('variables', {'variablesReference': sc['variablesReference']})['body']['variables']
        out[sc['name']] = {v['name']: v['value'] for v in vs}
    return fid, out


def main():
    glreplay, shim, exe = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix='glr-threads-')
    os.chmod(tmp, 0o700)
    srv = None
    try:
        cap = os.path.join(tmp, 'c.glcap')
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES='0', GLREPLAY_CAPTURE_OUT=cap, LD_PRELOAD=shim)
        p = subprocess.run([exe, '--frames', '2', '--size', '160x90'], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            if b'no EGL surfaceless' in p.stderr or b'no GL 4.3' in p.stderr:
                print('SKIP: ' + p.stderr.decode().strip())
                return 77
            raise AssertionError('capture failed: %s' % p.stderr.decode()[-400:])
        src = os.path.join(tmp, 'scan.comp')
        with open(src, 'w') as f:
            f.write(BREAK_TEXT)
        sock = os.path.join(tmp, 's.sock')
        srv = subprocess.Popen([glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.DEVNULL)
        c = dap.connect(sock)
        t = dap.start_session(c, {src: [{'line': 1, 'hitCondition': '== %d' % HIT}]})
        ev = c.wait_event('stopped', after=t)[1]
        desc = ev['body']['description']
        threads = c.request('threads')['body']['threads']
        names = [th['name'] for th in threads]
        assert len(threads) >= 2, 'one thread only: %s' % names
        assert threads[0]['id'] == 1 and names[0] in desc, 'thread 1 %r is not the stop %r' % (names[0], desc)
        assert len(set(names)) == len(names), 'duplicate thread names: %s' % names
        parsed = {}
        for th in threads:
            m = NAME.match(th['name'])
            assert m, 'thread name %r' % th['name']
            parsed[th['id']] = [int(g) for g in m.groups()]
        _, stop_view = thread_view(c, 1)
        stop_sums = stop_view['Locals'].get('sums')
        assert stop_sums, 'no shared sums in the stopped warp: %s' % list(stop_view['Locals'])
        shared_checked = 0
        for th in threads[1:]:
            tid = th['id']
            warp, wx, wy, wz, first, last = parsed[tid]
            fid, view = thread_view(c, tid)
            assert fid > 1024, 'thread %d frame id %d (expected its own)' % (tid, fid)
            b = view['Built-ins']
            lane = int(b['lane'])
            idx = nums(b['gl_LocalInvocationIndex'])[0]
            assert idx == first + lane and first <= idx <= last, \
                'thread %r: lane %d has gl_LocalInvocationIndex %d' % (th['name'], lane, idx)
            assert nums(b['gl_WorkGroupID']) == [wx, wy, wz], 'thread %r: gl_WorkGroupID %s' % (th['name'], b['gl_WorkGroupID'])
            assert nums(b['gl_GlobalInvocationID'])[0] == wx * 128 + idx, 'thread %r: gl_GlobalInvocationID %s' % (
                th['name'], b['gl_GlobalInvocationID'])
            r = c.request('evaluate', {'expression': 'gl_LocalInvocationIndex', 'frameId': fid, 'context': 'watch'})
            assert nums(r['body']['result']) == [idx], 'evaluate in thread %d: %s' % (tid, r['body']['result'])
            if [wx, wy, wz] == parsed[1][1:4]:
                assert view['Locals'].get('sums') == stop_sums, 'thread %d: shared sums differ from the stop' % tid
                shared_checked += 1
        # Thread 1 is unchanged after looking at the others.
        _, again = thread_view(c, 1)
        assert again == stop_view, 'thread 1 changed after inspecting the others'
        bad = c.request('stackTrace', {'threadId': len(threads) + 5}, check=False)
        assert not bad.get('success'), 'an unknown thread answered'
        c.close()
        print('dap_threads: %d threads, %d share the stop\'s workgroup' % (len(threads), shared_checked))

        # glreplay debug --json lists the same resident warps.
        out = subprocess.run([glreplay, 'debug', cap, '--break', src + ':1', '--hit', str(HIT), '--json'],
                             capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        snap = json.loads(out.stdout)
        assert snap['title'] == names[0] and snap['residentWarps'] == names[1:], \
            'glreplay debug: %s + %s, DAP: %s' % (snap['title'], snap['residentWarps'], names)
        out = subprocess.run([glreplay, 'debug', cap, '--break', src + ':1', '--hit', str(HIT), '--json',
                              '--no-timing'], capture_output=True, text=True, timeout=120)
        assert out.returncode == 0 and json.loads(out.stdout)['residentWarps'] == [], out.stderr
        print('dap_threads: all checks passed')
        return 0
    except (AssertionError, dap.DapError, OSError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
        print('dap_threads: FAIL: %r' % e, file=sys.stderr)
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
