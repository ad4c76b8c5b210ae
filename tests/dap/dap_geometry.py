#!/usr/bin/env python3
"""Breakpoints in geometry shaders over DAP (`glreplay dap`) on a capture of gs_sample.

Captures frame 0 of gpu_model/frame/tests/gs/gs_sample (EGL surfaceless, no X), serves it with
`glreplay dap` and sets a breakpoint on a line of its wireframe geometry shader (a file holding
that line: breakpoints bind by text), hit 3. The GS runs one warp per batch of input primitives,
lanes = primitives, so hit 3 is lane 2 = the strip's third triangle (gl_PrimitiveIDIn 2),
invocation 0, first loop iteration. Checks:
  * the stop (reason breakpoint, hit 3) and thread 1's name
    `draw 1 · GS · warp 0 · primitives 0..4 invocations 0..0`;
  * the top frame is on the breakpoint's line; Locals: i = 0 and fcol = vcol[0] * 0.8 (the
    fading by gl_PrimitiveIDIn), computed here from the sample's vertex formula; Built-ins:
    gl_PrimitiveIDIn = 2; the lanes are labelled by primitive and invocation;
  * breakpoints in the same program's fragment and vertex shaders still bind and stop.

Usage: dap_geometry.py GLREPLAY SHIM GS_SAMPLE"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', 'bench'))
import dap_bench_client as dap  # noqa: E402

GEOM_LINE = "    edge = i;\n"
FRAG_LINE = "void main() { o = vec4(fcol.rgb, 1.0) * (0.5 + 0.15 * float(edge)); }\n"
VERT_LINE = "void main() { gl_Position = pos + vec4(shift * float(gl_InstanceID), 0.0, 0.0); vcol = col; }\n"
TITLE = 'draw 1 · GS · warp 0 · primitives 0..4 invocations 0..0'


def floats(text):
    return [float(x) for x in re.findall(r'-?\d+(?:\.\d+)?(?:e-?\d+)?', text.split('(', 1)[-1])]


def top_view(c, tid=1):
    st = c.request('stackTrace', {'threadId': tid})['body']['stackFrames']
    assert st, 'no frames'
    scopes = c.request('scopes', {'frameId': st[0]['id']})['body']['scopes']
    out = {}
    for sc in scopes:
        if sc['expensive']:
            continue
        vs = c.request('variables', {'variablesReference': sc['variablesReference']})['body']['variables']
        out[sc['name']] = {v['name']: v['value'] for v in vs}
    return st[0], out


def session(glreplay, cap, tmp, path, hit):
    """A DAP session stopped at hit `hit` of line 1 of `path`: (client, server, stopped event).
    The socket goes in `tmp` (a private directory: the server insists)."""
    sock = os.path.join(tmp, 's%d.sock' % len(os.listdir(tmp)))
    srv = subprocess.Popen([glreplay, 'dap', '--socket', sock, cap], stdout=subprocess.DEVNULL)
    try:
        c = dap.connect(sock)
        t = dap.start_session(c, {path: [{'line': 1, 'hitCondition': '== %d' % hit}]})
        ev = c.wait_event('stopped', after=t)[1]
    except BaseException:
        srv.kill()
        raise
    return c, srv, ev


def stop(srv):
    srv.terminate()
    try:
        srv.wait(10)
    except subprocess.TimeoutExpired:
        srv.kill()


def main():
    glreplay, shim, exe = sys.argv[1:4]
    tmp = tempfile.mkdtemp(prefix='glr-gs-')
    os.chmod(tmp, 0o700)
    servers = []
    try:
        cap = os.path.join(tmp, 'gs.glcap')
        env = dict(os.environ, GLREPLAY_CAPTURE_FRAMES='0', GLREPLAY_CAPTURE_OUT=cap, LD_PRELOAD=shim,
                   EGL_PLATFORM='surfaceless')
        p = subprocess.run([exe, '--frames', '2', '--size', '160x90'], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, timeout=90)
        if p.returncode != 0 or not os.path.exists(cap):
            if b'EGL' in p.stderr or b'GL 4' in p.stderr:
                print('SKIP: ' + p.stderr.decode().strip())
                return 77
            raise AssertionError('capture failed: %s' % p.stderr.decode()[-400:])
        srcdir = os.path.join(tmp, 'src')
        os.mkdir(srcdir)
        paths = {}
        for name, text in (('wire.geom', GEOM_LINE), ('wire.frag', FRAG_LINE), ('wire.vert', VERT_LINE)):
            paths[name] = os.path.join(srcdir, name)
            with open(paths[name], 'w') as f:
                f.write(text)

        # The geometry shader: stop, thread name, variables.
        c, srv, ev = session(glreplay, cap, tmp, paths['wire.geom'], 3)
        servers.append(srv)
        assert ev['body']['reason'] == 'breakpoint', 'stopped: %s' % ev['body']
        threads = c.request('threads')['body']['threads']
        assert threads and threads[0]['id'] == 1 and threads[0]['name'] == TITLE, \
            'threads: %s' % [t['name'] for t in threads]
        frame, view = top_view(c)
        assert frame['line'] == 1 and frame['source']['path'] == paths['wire.geom'], 'top frame %s' % frame
        loc = view['Locals']
        assert loc.get('i') == '0', 'i = %r' % loc.get('i')
        # strip vertex 20 + 2 (the third triangle's first vertex): col = (i & 1, 0.3 + 0.07 i, 1 - 0.1 i)
        want = [0.0, (0.3 + 0.07 * 2) * 0.8, (1.0 - 0.1 * 2) * 0.8, 0.8]
        got = floats(loc.get('fcol', ''))
        assert len(got) == 4 and all(abs(a - b) < 1e-5 for a, b in zip(got, want)), \
            'fcol = %r, expected %s' % (loc.get('fcol'), want)
        builtins = view.get('Built-ins', {})
        assert builtins.get('gl_PrimitiveIDIn') == '2', 'Built-ins: %s' % builtins
        r = c.request('evaluate', {'expression': 'gl_PrimitiveIDIn * 10 + i', 'frameId': frame['id'],
                                   'context': 'watch'})
        assert floats(r['body']['result']) == [20.0], 'evaluate: %s' % r['body']['result']
        labels = ' '.join(k + ' ' + str(v) for sc in view.values() for k, v in sc.items())
        assert 'primitive 2 invocation 0' in labels, 'no lane labelled by primitive: %s' % sorted(view)
        c.close()
        stop(srv)
        print('dap_geometry: GS stop %r, fcol %s, gl_PrimitiveIDIn 2' % (TITLE, got))

        # The same program's fragment and vertex shaders.
        for name, stage in (('wire.frag', 'FS'), ('wire.vert', 'VS')):
            c, srv, ev = session(glreplay, cap, tmp, paths[name], 2)
            servers.append(srv)
            threads = c.request('threads')['body']['threads']
            assert ev['body']['reason'] == 'breakpoint' and ('· %s ·' % stage) in threads[0]['name'], \
                '%s: %s' % (name, [t['name'] for t in threads])
            c.close()
            stop(srv)
            print('dap_geometry: %s stop %r' % (stage, threads[0]['name']))
        print('dap_geometry: all checks passed')
        return 0
    except (AssertionError, dap.DapError, OSError, subprocess.TimeoutExpired, KeyError, ValueError) as e:
        print('dap_geometry: FAIL: %r' % e, file=sys.stderr)
        return 1
    finally:
        for s in servers:
            if s.poll() is None:
                s.kill()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == '__main__':
    sys.exit(main())
