#!/usr/bin/env node
// Many live attaches to ONE running program (issue 14): samples/lit_mesh runs under the shim on the
// runner's X server and is attached to LIVE_CYCLES times (default 20; 50 for a longer soak) over
// its own socket, each session ending another way:
//   disconnect   a full session (breakpoint on sky.frag with hitCondition 100, stop, the program
//                paused while stopped), then `disconnect`
//   terminate    handshake, `terminate` (a `terminated` event), then the client closes
//   frame-end    stop at hit 100, `continue`: a `stopped` event "end of frame" (nothing else
//                stops), then the client just closes its socket without a disconnect
//   abrupt       the socket is destroyed at a random moment (seeded: LIVE_SEED) of the handshake,
//                the capture, the pass or the stop
//   kill9        a client process (python) that attaches with a breakpoint is killed with SIGKILL
//                at a random moment (seeded) of its session
//   stall        a client sends a header and stops; meanwhile the program keeps swapping (it is
//                not paused for a header) and the line server closes it when idle
//   no-read      a client stops reading and floods requests: the write timeout drops it
//   sigstop      a client process completes the handshake and is stopped (SIGSTOP): the idle
//                timeout ends its session
//   silent       a client completes the handshake and then says nothing: the idle timeout ends
//                its session with an `output` saying why and `terminated`
// After every session: every DAP client got its `initialize` answered, the program is not paused
// (`status` has no "paused") and its frames advance, and its threads (/proc/PID/task), descriptors
// (/proc/PID/fd) and the socket directory's files (no live-*.glcap) are back to what they were
// after the first session. setBreakpoints on a FIFO and on /dev/zero answers at once (unverified);
// a second debugger while one is attached is refused (answered); the program removes a stale
// socket and capture at start-up; 20 idle line connections do not lock `status` out and are
// closed when idle; `status` is answered while another connection's `capture` waits for frames.
// The program's frames drawn after the first session (its own dumps, every 100th frame) are
// byte-identical to the same frames drawn by the sample without glreplay.
// Every message the DAP clients receive is type-checked against @vscode/debugprotocol.
//
// Environment: GLREPLAY_SHIM, LIT_MESH, SHADER_DIR, NODE_MODULES as dap_live.js; LIVE_CYCLES,
// LIVE_SEED optional. DISPLAY must be set.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_live_cycles: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_live_cycles: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const CYCLES = Number(env.LIVE_CYCLES || 20);
let seed = Number(env.LIVE_SEED || Date.now() % 100000);
const SEED0 = seed;
function random() {   // a small LCG: the abrupt moments are reproducible from the seed
    seed = (seed * 1103515245 + 12345) % 2147483648;
    return seed / 2147483648;
}

const W = 160, H = 90;
const DUMP_EVERY = 100;   // frames between the program's own back-buffer dumps
const SKY = path.join(env.SHADER_DIR, 'sky.frag');
const LINE_T = fs.readFileSync(SKY, 'utf8').split('\n').findIndex(l => l.includes('float t = clamp')) + 1;
assert.ok(LINE_T > 0, 'sky.frag has the `float t = clamp` line');

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const sleep = ms => new Promise(r => setTimeout(r, ms));
function within(p, ms, what) {
    let t;
    return Promise.race([p, new Promise((_, rej) => { t = setTimeout(() => rej(new Error(`timeout: ${what}`)), ms); })])
        .finally(() => clearTimeout(t));
}

// ---- the line protocol on the program's socket ----
function lineRequest(sock, text, ms = 20000) {
    return new Promise((resolve, reject) => {
        let data = '';
        const s = net.createConnection(sock, () => s.write(text + '\n'));
        const t = setTimeout(() => { s.destroy(); reject(new Error(`no reply to '${text}'`)); }, ms);
        s.on('data', d => {
            data += d;
            if (data.includes('\n')) { clearTimeout(t); s.destroy(); resolve(data.split('\n')[0]); }
        });
        s.on('error', e => { clearTimeout(t); reject(e); });
    });
}
async function status(sock) {
    const r = await lineRequest(sock, 'status');
    const m = /^ok pid \d+ frames (\d+)(?: paused (\d+))?/.exec(r);
    assert.ok(m, `status reply: ${r}`);
    return { frames: Number(m[1]), paused: m[2] === undefined ? -1 : Number(m[2]) };
}
// Not paused, and swapping frames of its own.
// Returns the milliseconds until `status` first said "not paused" (a figure, never asserted).
async function running(sock, what) {
    const t0 = Date.now();
    let s0 = await status(sock);
    for (let i = 0; i < 1000 && s0.paused >= 0; i++) {   // up to 5 s
        await sleep(5);
        s0 = await status(sock);
    }
    const resumed = Date.now() - t0;
    assert.strictEqual(s0.paused, -1, `still paused ${what}`);
    for (let i = 0; i < 200; i++) {
        await sleep(25);
        if ((await status(sock)).frames > s0.frames) return resumed;
    }
    assert.fail(`the program stopped swapping ${what} (frames stay at ${s0.frames})`);
}
async function paused(sock, what) {
    for (let i = 0; i < 200; i++) {
        if ((await status(sock)).paused >= 0) return;
        await sleep(25);
    }
    assert.fail(`the program is not paused ${what}`);
}

// ---- a raw DAP client (for the ends DebugClient cannot do): framing and the messages received ----
function rawClient(sock) {
    return new Promise((resolve, reject) => {
        const c = { buf: Buffer.alloc(0), msgs: [], seq: 1, closed: false };
        c.s = net.createConnection(sock, () => resolve(c));
        c.s.on('error', e => { if (!c.closed) reject(e); });
        c.gone = new Promise(r => c.s.on('close', () => { c.closed = true; r(); }));
        c.s.on('data', d => {
            c.buf = Buffer.concat([c.buf, d]);
            for (;;) {
                const h = c.buf.indexOf('\r\n\r\n');
                if (h < 0) break;
                const m = /Content-Length: (\d+)/.exec(c.buf.toString('latin1', 0, h));
                if (!m) break;
                const n = Number(m[1]);
                if (c.buf.length < h + 4 + n) break;
                const msg = JSON.parse(c.buf.toString('utf8', h + 4, h + 4 + n));
                c.buf = c.buf.subarray(h + 4 + n);
                c.msgs.push(msg);
                received.push(msg);
            }
        });
        c.send = (command, args) => {
            const body = JSON.stringify({ seq: c.seq++, type: 'request', command, arguments: args || {} });
            c.s.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
        };
        c.waitFor = async (pred, ms, what) => {
            for (let t = 0; t < ms; t += 20) {
                const m = c.msgs.find(pred);
                if (m) return m;
                if (c.closed) break;
                await sleep(20);
            }
            throw new Error(`raw client: no ${what}; got ${JSON.stringify(c.msgs).slice(0, 400)}`);
        };
    });
}

// ---- resources of the program ----
const tasks = pid => fs.readdirSync(`/proc/${pid}/task`).length;
const fds = pid => fs.readdirSync(`/proc/${pid}/fd`).length;
const files = dir => fs.readdirSync(dir).sort();
async function settled(pid, dir, base, what) {
    let now;
    for (let i = 0; i < 200; i++) {
        now = { tasks: tasks(pid), fds: fds(pid), files: files(dir).join(' ') };
        if (now.tasks <= base.tasks && now.fds <= base.fds && now.files === base.files) return;
        await sleep(25);
    }
    assert.fail(`${what}: left behind: ${JSON.stringify(now)} (before: ${JSON.stringify(base)})`);
}

// ---- the ways a session ends ----
async function handshake(dc, breakpoints) {
    await dc.start();
    const initializedP = dc.waitForEvent('initialized');
    const init = await dc.initializeRequest();
    assert.strictEqual(init.success, true, 'initialize answered');
    await initializedP;
    const attachP = dc.attachRequest({});
    if (breakpoints) {
        const bp = await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints });
        assert.strictEqual(bp.body.breakpoints[0].verified, true, JSON.stringify(bp.body));
    }
    return { attachP };   // answered after configurationDone: not awaited here
}

const kinds = {
    async disconnect(sock, ctx) {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 30000;
        const { attachP } = await handshake(dc, [{ line: LINE_T, hitCondition: '100' }]);
        const stoppedP = dc.waitForEvent('stopped');
        await dc.configurationDoneRequest();
        await attachP;
        const stopped = await stoppedP;
        assert.ok(/hit 100 /.test(stopped.body.description), stopped.body.description);
        await paused(sock, 'while the debugger is stopped');
        if (!ctx.secondChecked) {
            // One live session at a time: a second debugger is answered, with a refusal (meanwhile
            // the first one stays active, so its idle timeout does not end it).
            const keep = setInterval(() => dc.threadsRequest().catch(() => {}), 300);
            const c = await rawClient(sock);
            c.send('initialize', { adapterID: 'glreplay' });
            const r = await c.waitFor(m => m.command === 'initialize', 20000, 'an answer to the second debugger');
            assert.strictEqual(r.success, false);
            assert.ok(/another debugger is attached/.test(r.message), r.message);
            await c.waitFor(m => m.event === 'terminated', 5000, 'terminated for the second debugger');
            await within(c.gone, 5000, 'the refused connection is closed');
            clearInterval(keep);
            ctx.secondChecked = true;
        }
        await dc.disconnectRequest({});
        dc.stopAdapter();
    },
    async terminate(sock, ctx) {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 30000;
        const { attachP } = await handshake(dc, null);
        if (!ctx.fifoChecked) {
            // Breakpoint sources that are not regular files answer at once, unverified (in the
            // configuration phase: afterwards a breakpoint runs the frame, and the next
            // setBreakpoints would wait for that pass).
            for (const p of [ctx.fifo, '/dev/zero']) {
                const t0 = Date.now();
                const bp = await dc.setBreakpointsRequest({ source: { path: p }, breakpoints: [{ line: 1 }] });
                assert.strictEqual(bp.body.breakpoints[0].verified, false, JSON.stringify(bp.body));
                assert.ok(/not a regular file/.test(bp.body.breakpoints[0].message), JSON.stringify(bp.body));
                assert.ok(Date.now() - t0 < 5000, `setBreakpoints on ${p} took ${Date.now() - t0} ms`);
                await dc.setBreakpointsRequest({ source: { path: p }, breakpoints: [] });
            }
            ctx.fifoChecked = true;
        }
        await dc.configurationDoneRequest();
        await attachP;
        const terminatedP = dc.waitForEvent('terminated');
        await dc.send('terminate', {});
        await terminatedP;
        dc.stopAdapter();
    },
    async 'frame-end'(sock) {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 30000;
        const { attachP } = await handshake(dc, [{ line: LINE_T, hitCondition: '100' }]);
        let stoppedP = dc.waitForEvent('stopped');
        await dc.configurationDoneRequest();
        await attachP;
        await stoppedP;
        stoppedP = dc.waitForEvent('stopped');
        await dc.continueRequest({ threadId: 1 });
        const end = await stoppedP;
        assert.strictEqual(end.body.description, 'end of frame', JSON.stringify(end.body));
        assert.strictEqual(end.body.reason, 'pause');
        const th = await dc.threadsRequest();
        assert.strictEqual(th.body.threads.length, 1);
        const st = await dc.stackTraceRequest({ threadId: 1 });
        assert.strictEqual(st.body.stackFrames.length, 0, 'no invocation at the end of the frame');
        // The client goes away without a disconnect request.
        dc.stopAdapter();
    },
    async abrupt(sock) {
        const c = await rawClient(sock);
        const at = Math.floor(random() * 1500);
        c.send('initialize', { adapterID: 'glreplay', linesStartAt1: true, columnsStartAt1: true });
        const script = (async () => {
            await c.waitFor(m => m.command === 'initialize', 30000, 'initialize response');
            c.send('attach', {});
            c.send('setBreakpoints', { source: { path: SKY }, breakpoints: [{ line: LINE_T, hitCondition: '100' }] });
            c.send('configurationDone', {});
            await c.waitFor(m => m.event === 'stopped', 30000, 'stop');
            c.send('threads', {});
        })().catch(() => {});
        await sleep(at);
        c.s.destroy();
        await script;
        return `after ${at} ms, ${c.msgs.length} messages`;
    },
    async kill9(sock) {
        // A real client process killed by SIGKILL at a random moment (seeded) of its session: the
        // handshake, the capture, the pass to its breakpoint or the stop.
        const py = `
import json, socket, sys
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
def send(seq, cmd, args):
    b = json.dumps({"seq": seq, "type": "request", "command": cmd, "arguments": args}).encode()
    s.sendall(b"Content-Length: %d\\r\\n\\r\\n" % len(b) + b)
send(1, "initialize", {"adapterID": "glreplay"})
send(2, "attach", {})
send(3, "setBreakpoints", {"source": {"path": sys.argv[2]}, "breakpoints": [{"line": int(sys.argv[3]), "hitCondition": "100"}]})
send(4, "configurationDone", {})
while s.recv(65536):
    pass
`;
        const at = Math.floor(random() * 1500);
        const child = cp.spawn('python3', ['-c', py, sock, SKY, String(LINE_T)], { stdio: 'ignore' });
        const exit = new Promise(r => child.on('exit', (code, sig) => r(sig)));
        await sleep(at);
        child.kill('SIGKILL');
        assert.strictEqual(await exit, 'SIGKILL', 'the client was killed, not gone by itself');
        return `after ${at} ms`;
    },
    async stall(sock) {
        const c = await rawClient(sock);
        c.s.write('Content-Length: 120\r\n');
        // Not paused for a header: the program keeps swapping while the client stalls.
        await running(sock, 'while a client stalls after a partial header');
        await within(c.gone, 10000, 'the line server closes a stalled connection');
    },
    async 'no-read'(sock) {
        const c = await rawClient(sock);
        c.send('initialize', { adapterID: 'glreplay' });
        await c.waitFor(m => m.command === 'initialize', 30000, 'initialize response');
        c.send('attach', {});
        c.send('configurationDone', {});
        await c.waitFor(m => m.command === 'configurationDone', 30000, 'configurationDone response');
        await paused(sock, 'while a client is attached');
        const ls = c.msgs.length;
        c.send('loadedSources', {});
        const srcs = (await c.waitFor((m, i) => m.command === 'loadedSources', 10000, 'loadedSources')).body.sources;
        assert.ok(srcs.length > 0 && c.msgs.length > ls);
        c.s.pause();   // stops reading: what the server writes piles up in the socket, then in its queue
        for (let i = 0; i < 2000; i++)
            c.send('source', { sourceReference: srcs[i % srcs.length].sourceReference });
        // It keeps sending (so the idle timeout is not what ends it): the write timeout does.
        const keep = setInterval(() => c.send('threads', {}), 200);
        await running(sock, 'after a client stopped reading').finally(() => clearInterval(keep));
        c.s.destroy();
    },
    async sigstop(sock) {
        // A real client process that completes the handshake and is then stopped by SIGSTOP: it
        // neither sends nor reads. The idle timeout ends its session; the program resumes.
        const py = `
import os, signal, socket, sys, json
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
def send(seq, cmd):
    b = json.dumps({"seq": seq, "type": "request", "command": cmd, "arguments": {}}).encode()
    s.sendall(b"Content-Length: %d\\r\\n\\r\\n" % len(b) + b)
send(1, "initialize")
buf = b""
while b'"initialize"' not in buf:
    d = s.recv(65536)
    if not d: sys.exit(1)
    buf += d
send(2, "attach"); send(3, "configurationDone")
while b'"configurationDone"' not in buf:
    d = s.recv(65536)
    if not d: sys.exit(1)
    buf += d
print("ready", flush=True)
os.kill(os.getpid(), signal.SIGSTOP)
`;
        const child = cp.spawn('python3', ['-c', py, sock], { stdio: ['ignore', 'pipe', 'inherit'] });
        const exit = new Promise(r => child.on('exit', r));
        try {
            await within(new Promise(r => child.stdout.on('data', d => { if (/ready/.test(d)) r(); })), 30000,
                         'the client process completes its handshake');
            await paused(sock, 'while the stopped client is attached');
            await running(sock, 'after a SIGSTOPped client (the idle timeout)');
        } finally {
            child.kill('SIGKILL');
            await exit;
        }
    },
    async silent(sock) {
        const c = await rawClient(sock);
        c.send('initialize', { adapterID: 'glreplay' });
        await c.waitFor(m => m.command === 'initialize', 30000, 'initialize response');
        c.send('attach', {});
        c.send('configurationDone', {});
        await c.waitFor(m => m.command === 'configurationDone', 30000, 'configurationDone response');
        await paused(sock, 'while a silent client is attached');
        // The idle timeout ends the session with a reason and `terminated`.
        await c.waitFor(m => m.event === 'terminated', 15000, 'terminated after the idle timeout');
        assert.ok(c.msgs.some(m => m.event === 'output' && /no request for \d+ s/.test(m.body.output)), 'the reason');
        await within(c.gone, 5000, 'the server closes the idle session');
        await running(sock, 'after the idle timeout');
    },
};
// LIVE_KINDS=terminate,disconnect: only those endings, in turn (to measure one kind's resume).
const order = env.LIVE_KINDS ? env.LIVE_KINDS.split(',')
    : ['disconnect', 'terminate', 'abrupt', 'frame-end', 'kill9', 'stall', 'disconnect', 'abrupt', 'no-read',
       'sigstop', 'terminate', 'kill9', 'silent', 'frame-end'];

// The line server: idle connections cannot fill it, and a capture in progress does not hold up
// `status` on another connection.
async function lineServer(sock, tmp) {
    const idle = [];
    for (let i = 0; i < 20; i++) {
        // A full listen backlog refuses with EAGAIN (the server accepts one per poll): try again.
        for (let tries = 0; ; tries++) {
            const c = net.createConnection(sock);
            c.on('data', () => {});   // reading, so the server's close is seen
            c.gone = new Promise(r => c.on('close', () => { c.isGone = true; r(); }));
            const ok = await new Promise(r => { c.on('connect', () => r(true)); c.on('error', () => r(false)); });
            if (ok) {
                idle.push(c);
                break;
            }
            assert.ok(tries < 100, 'cannot connect to the program');
            await sleep(20);
        }
    }
    await status(sock);   // answered although more than 16 connections were opened
    await within(Promise.all(idle.map(c => c.gone)), 10000, 'idle line connections are closed')
        .catch(e => { throw new Error(`${e.message}: ${idle.filter(c => !c.isGone).length} still open`); });
    const out = path.join(tmp, 'c.glcap');
    const order = [];
    // A capture of many frames (it replies once they are written); `status` is sent as soon as
    // the capture's connection is open.
    const f0 = (await status(sock)).frames;
    const cap = lineRequest(sock, `capture 60 ${out}`).then(r => { order.push('capture'); return r; });
    await sleep(20);
    const st = await status(sock);
    order.push('status');
    const r = await cap;
    assert.ok(/^ok/.test(r), `capture reply: ${r}`);
    const f1 = (await status(sock)).frames;
    assert.ok(st.frames < f0 + 60 && f1 >= f0 + 60, `status answered during the capture: frames ${f0}, ${st.frames}, ${f1}`);
    assert.deepStrictEqual(order, ['status', 'capture'], '`status` waited for a capture of another connection');
    fs.rmSync(out);
}

// The program's later frames are byte-identical to a run without glreplay: up to three of its
// dumps drawn after the first session ended (the first, a middle and the last complete one) against
// the same frames drawn alone by the sample without the shim (--first-frame).
async function sameAsWithout(dumps, after, now, tmp) {
    const done = fs.existsSync(dumps) ? fs.readdirSync(dumps).map(f => /^frame_(\d+)\.pam$/.exec(f))
        .filter(m => m && Number(m[1]) > after && Number(m[1]) < now - 1).map(m => Number(m[1])).sort((a, b) => a - b) : [];
    assert.ok(done.length > 0, `no frame of the program was dumped after the first session (frames ${after}..${now})`);
    const pick = [...new Set([done[0], done[done.length >> 1], done[done.length - 1]])];
    const ref = path.join(tmp, 'ref');
    const noShim = { ...env };
    delete noShim.LD_PRELOAD;
    for (const k of pick) {
        const r = cp.spawnSync(env.LIT_MESH, ['--first-frame', String(k), '--frames', String(k + 1), '--size', `${W}x${H}`,
                                              '--dump-frames', String(k), '--dump-dir', ref],
                               { env: noShim, encoding: 'utf8', timeout: 60000 });
        assert.strictEqual(r.status, 0, `the run without glreplay: ${r.stderr}`);
        const name = `frame_${String(k).padStart(4, '0')}.pam`;
        const a = fs.readFileSync(path.join(dumps, name)), b = fs.readFileSync(path.join(ref, name));
        assert.ok(a.length > W * H * 4, `${name} is a whole dump`);
        assert.ok(a.equals(b), `frame ${k} of the program differs from the same frame drawn without glreplay`);
    }
    return pick;
}

async function main() {
    const t0 = Date.now();
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-cyc-'));
    const sockDir = path.join(tmp, 's');
    const sock = path.join(sockDir, 'live.sock');
    const fifo = path.join(tmp, 'fifo.frag');
    cp.execFileSync('mkfifo', [fifo]);
    // A stale socket and a capture of a dead program, as a program killed by a signal leaves them:
    // removed when the program starts its server.
    fs.mkdirSync(sockDir, { mode: 0o700 });
    const deadPid = cp.spawnSync('true').pid;
    const staleSock = path.join(sockDir, `${deadPid}.sock`);
    cp.execFileSync('python3', ['-c', `import socket; socket.socket(socket.AF_UNIX).bind(${JSON.stringify(staleSock)})`]);
    fs.writeFileSync(path.join(sockDir, `live-${deadPid}-1.glcap`), 'x');
    // Every 100th frame's back buffer is dumped by the program itself (frame-indexed animation):
    // those drawn after the first session are compared with a run without glreplay at the end.
    const dumps = path.join(tmp, 'dumps');
    const dumpList = Array.from({ length: 256 }, (_, k) => (k + 1) * DUMP_EVERY);
    const app = cp.spawn(env.LIT_MESH, ['--frames', '1000000', '--size', `${W}x${H}`,
                                        '--dump-frames', dumpList.join(','), '--dump-dir', dumps], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_SOCKET: sock, GLREPLAY_LOG: 'info',
               GLREPLAY_LIVE_HANDSHAKE_S: '3', GLREPLAY_LIVE_IDLE_S: '2', GLREPLAY_LIVE_WRITE_S: '1',
               GLREPLAY_IPC_IDLE_S: '1' },
        stdio: ['ignore', 'pipe', 'pipe'] });
    let appLog = '';
    app.stdout.on('data', d => { appLog += d; });
    app.stderr.on('data', d => { appLog += d; });
    let exited = null;
    const appExit = new Promise(r => app.on('exit', (code, sig) => { exited = { code, sig }; r(exited); }));
    const ctx = { fifo };
    let compared = [];
    let maxResume = 0;
    try {
        for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await sleep(50);
        assert.ok(fs.existsSync(sock), `the program did not create its socket: ${appLog}`);
        await running(sock, 'before the first attach');
        assert.deepStrictEqual(files(sockDir), ['live.sock'], 'the stale socket and capture are removed at start-up');
        await lineServer(sock, tmp);
        let base = null;
        for (let i = 0; i < CYCLES; i++) {
            const kind = order[i % order.length];
            const c0 = Date.now();
            const note = await within(kinds[kind](sock, ctx), 60000, `cycle ${i} (${kind})`)
                .catch(e => { throw new Error(`cycle ${i} (${kind}): ${e.message}\nlast messages: ${JSON.stringify(received.slice(-8))}\n${appLog.slice(-3000)}`); });
            const resumedMs = await running(sock, `after cycle ${i} (${kind})`);
            maxResume = Math.max(maxResume, resumedMs);
            if (!base) {
                // After the first session: what stays for the program's life (the replay loop's
                // context) is there; nothing more may stay after any later session.
                await sleep(300);
                base = { tasks: tasks(app.pid), fds: fds(app.pid), files: files(sockDir).join(' '),
                         frame: (await status(sock)).frames };
                assert.strictEqual(base.files, 'live.sock', 'files in the socket directory after the first session');
            } else {
                await settled(app.pid, sockDir, base, `cycle ${i} (${kind})`);
            }
            console.log(`cycle ${i}: ${kind}${note ? ` (${note})` : ''}: ${Date.now() - c0} ms, not paused ${resumedMs} ms ` +
                        `after the client's end; ` +
                        `threads ${tasks(app.pid)}, fds ${fds(app.pid)}`);
        }
        assert.strictEqual(exited, null, `the program exited: ${appLog}`);
        assert.ok(!/live attach: the paused program did not resume/.test(appLog), appLog);
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], `messages that do not match the protocol:\n${typeErrors.join('\n')}`);
        assert.ok(received.some(m => m.event === 'stopped' && m.body.description === 'end of frame'));
        compared = await sameAsWithout(dumps, base.frame, (await status(sock)).frames, tmp);
    } finally {
        if (!exited) app.kill('SIGTERM');
        await Promise.race([appExit, sleep(10000)]);
        if (!exited) app.kill('SIGKILL');
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log(`dap_live_cycles: ${CYCLES} sessions on one program (seed ${SEED0}), ${received.length} DAP messages ` +
                `type-checked, not paused at most ${maxResume} ms after a client's end, ` +
                `frames ${compared.join(', ')} byte-identical to a run without glreplay, ` +
                `${((Date.now() - t0) / 1000).toFixed(1)} s: all checks passed`);
}

main().catch(e => { console.error(`dap_live_cycles: FAIL (seed ${SEED0}):`, e && e.stack || e); process.exit(1); });
