#!/usr/bin/env python3
"""End-to-end checks of the state model on a real capture (stdlib only).

Makes a capture by running a sample under the shim (frames 0-1, so it starts at context creation),
then one of:
  cli      `glreplay state` at a draw event shows the program, its uniforms, the vertex array and
           textures; --json is strict JSON with the same; bad inputs give one "glreplay: ..." line
           and a non-zero status.
  replay   replay_compare: at every draw (and the end) the fields the driver reports in a replay
           equal the model's, directly and after restoring the model's state on a fresh context.
  perturb  replay_compare --perturb: a model changed behind the replay's back must be reported
           (the comparison can fail).

Usage: check_state.py MODE --shim LIB --sample EXE [--glreplay EXE] [--compare EXE]
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile


def fail(msg):
    sys.exit('check_state: FAIL: ' + msg)


def run(cmd, env=None, timeout=60):
    p = subprocess.run(cmd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       universal_newlines=True, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def make_capture(args, tmp):
    if not os.environ.get('DISPLAY'):
        fail('DISPLAY is not set (run under xvfb-run)')
    out = os.path.join(tmp, 'cap.glcap')
    env = dict(os.environ, LD_PRELOAD=args.shim, GLREPLAY_CAPTURE_FRAMES='0-1', GLREPLAY_CAPTURE_OUT=out)
    rc, so, se = run([args.sample, '--frames', '3'], env=env)
    if rc != 0 or not os.path.exists(out):
        fail('the sample under the shim made no capture (status %d)\n%s%s' % (rc, so, se))
    return out


def draw_events(args, cap):
    rc, so, se = run([args.compare, cap, '--list-draws'])
    events = [int(x) for x in so.split()]
    if rc != 0 or not events:
        fail('replay_compare --list-draws found no draw (status %d)\n%s' % (rc, se))
    return events


def one_error_line(rc, se, what):
    lines = [l for l in se.splitlines() if l.strip()]
    if rc == 0 or len(lines) != 1 or not lines[0].startswith('glreplay: '):
        fail('%s: expected a non-zero status and one "glreplay: ..." line, got status %d:\n%s' % (what, rc, se))


def check_cli(args, cap, tmp):
    draws = draw_events(args, cap)
    k = draws[0]
    rc, so, se = run([args.glreplay, 'state', cap, '--event', str(k)])
    if rc != 0:
        fail('glreplay state --event %d: status %d\n%s' % (k, rc, se))
    for needle in ('before glDraw', 'program:', 'uniforms:', 'location:', 'vertex_array:',
                   'enabled_attributes:', 'textures:', 'GL_TEXTURE_2D', 'viewport:', 'depth:'):
        if needle not in so:
            fail('text output at event %d lacks "%s":\n%s' % (k, needle, so))
    rc, so, se = run([args.glreplay, 'state', cap, '--event', str(k), '--json'])
    if rc != 0:
        fail('--json: status %d\n%s' % (rc, se))
    try:
        doc = json.loads(so)
    except ValueError as e:
        fail('--json output is not JSON: %s\n%s' % (e, so[:2000]))
    st = doc.get('state', {})
    prog, vao, tex = st.get('program'), st.get('vertex_array'), st.get('textures')
    if doc.get('event') != k or not doc.get('next_call', '').startswith('glDraw'):
        fail('--json event/next_call wrong: %r %r' % (doc.get('event'), doc.get('next_call')))
    if not isinstance(prog, dict) or not prog.get('name') or not prog.get('uniforms'):
        fail('--json: no bound program with uniforms at a draw: %r' % prog)
    if not any(u.get('name') for u in prog['uniforms']):
        fail('--json: no uniform shown with its name (from glGetUniformLocation): %r' % prog['uniforms'])
    if not isinstance(vao, dict) or not vao.get('name') or not vao.get('enabled_attributes'):
        fail('--json: no vertex array with enabled attributes at a draw: %r' % vao)
    if not tex or not all(t.get('texture') for t in tex):
        fail('--json: no bound texture at a draw: %r' % tex)
    # The state changes between events: at event 0 nothing is bound yet.
    rc, so, se = run([args.glreplay, 'state', cap, '--event', '0', '--json'])
    if rc != 0 or json.loads(so)['state'].get('program') is not None:
        fail('event 0 should have no program bound (status %d)\n%s' % (rc, so[:500]))
    # Bad inputs: one clear line each, non-zero status.
    n = doc['events']
    one_error_line(*run([args.glreplay, 'state', cap, '--event', str(n + 1)])[::2], what='event out of range')
    one_error_line(*run([args.glreplay, 'state', os.path.join(tmp, 'missing.glcap'), '--event', '1'])[::2],
                   what='missing file')
    one_error_line(*run([args.glreplay, 'state', cap])[::2], what='no --event')
    one_error_line(*run([args.glreplay, 'state', cap, '--event', 'x'])[::2], what='bad --event')
    data = open(cap, 'rb').read()
    trunc = os.path.join(tmp, 'trunc.glcap')
    with open(trunc, 'wb') as f:
        f.write(data[:len(data) // 2])
    one_error_line(*run([args.glreplay, 'state', trunc, '--event', '1'])[::2], what='truncated capture')
    # The command stream is the first section, right after the 64-byte header: damage it (a
    # damaged reference image would not matter to `state`, which never reads one).
    flipped = bytearray(data)
    flipped[64 + 40] ^= 0x55
    bad = os.path.join(tmp, 'flip.glcap')
    with open(bad, 'wb') as f:
        f.write(bytes(flipped))
    one_error_line(*run([args.glreplay, 'state', bad, '--event', '1'])[::2], what='corrupt capture')
    print('check_state cli: OK (draw event %d, %d events)' % (k, n))


def check_replay(args, cap, perturb):
    env = dict(os.environ, EGL_PLATFORM='surfaceless')
    cmd = [args.compare, cap, '--draws', '--end', '--restore', '--events', '3,300']
    if perturb:
        cmd.append('--perturb')
    rc, so, se = run(cmd, env=env, timeout=120)
    sys.stdout.write(so)
    sys.stderr.write(se)
    summary = [l for l in so.splitlines() if l.startswith('replay_compare: ') and 'mismatches' in l]
    if not summary:
        fail('replay_compare printed no summary (status %d)' % rc)
    if perturb:
        if rc != 1 or 'GL_DEPTH_FUNC: driver' not in so:
            fail('a perturbed model was not reported as a GL_DEPTH_FUNC mismatch (status %d)' % rc)
        print('check_state perturb: OK (the mismatch was reported)')
        return
    if rc != 0:
        fail('the model and the replaying driver disagree (status %d); mismatches above' % rc)
    if ' 0 events compared' in summary[0] or ' 0 restores' in summary[0]:
        fail('nothing was compared: ' + summary[0])
    print('check_state replay: OK')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('mode', choices=['cli', 'replay', 'perturb'])
    ap.add_argument('--shim', required=True)
    ap.add_argument('--sample', required=True)
    ap.add_argument('--glreplay')
    ap.add_argument('--compare', required=True)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix='glr-state-') as tmp:
        cap = make_capture(args, tmp)
        if args.mode == 'cli':
            if not args.glreplay:
                fail('--glreplay is required for the cli check')
            check_cli(args, cap, tmp)
        else:
            check_replay(args, cap, args.mode == 'perturb')


if __name__ == '__main__':
    main()
