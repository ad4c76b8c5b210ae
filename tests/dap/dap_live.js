#!/usr/bin/env node
// Live attach end to end: samples/lit_mesh runs under the shim (GLREPLAY_SOCKET) on the X server
// of the runner; a real DAP client (@vscode/debugadapter-testsupport's DebugClient) attaches over the
// program's own socket, which captures the program's next frame and serves the debugger over it.
// A breakpoint in sky.frag ON DISK with hitCondition 100 must stop on its line with a pixel-centre
// v_screen. While the client is attached the program is paused at the swap that ended the captured
// frame and replays that frame in its window (the line protocol's `status` on the same socket: the
// frame count stays, "paused N" grows); after the disconnect it continues (the frame count grows).
// With GLREPLAY_LIVE_PAUSE=0 the program keeps swapping while the debugger is stopped.
//
// Environment: GLREPLAY_SHIM (libglreplay.so), LIT_MESH (the sample), SHADER_DIR
// (samples/shaders/lit_mesh), NODE_MODULES (ui_ipc/vscode/node_modules). DISPLAY must be set.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_live: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_live: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}

const W = 160, H = 90;
const SKY = path.join(env.SHADER_DIR, 'sky.frag');
const skyLines = fs.readFileSync(SKY, 'utf8').split('\n');
const LINE_T = skyLines.findIndex(l => l.includes('float t = clamp')) + 1;
assert.ok(LINE_T > 0, 'sky.frag has the `float t = clamp` line');

const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES);

// One line request on the program's socket (the line protocol), its one-line reply.
function lineRequest(sock, text) {
    return new Promise((resolve, reject) => {
        let data = '';
        const s = net.createConnection(sock, () => s.write(text + '\n'));
        s.on('data', d => {
            data += d;
            if (data.includes('\n')) { s.end(); resolve(data.split('\n')[0]); }
        });
        s.on('error', reject);
        setTimeout(() => { s.destroy(); reject(new Error(`no reply to '${text}'`)); }, 10000);
    });
}
async function frames(sock) {
    const r = await lineRequest(sock, 'status');
    const m = /^ok pid \d+ frames (\d+)/.exec(r);
    assert.ok(m, `status reply: ${r}`);
    return Number(m[1]);
}
async function framesGrow(sock, what) {
    const f0 = await frames(sock);
    for (let i = 0; i < 100; i++) {
        await new Promise(r => setTimeout(r, 50));
        if (await frames(sock) > f0) return;
    }
    assert.fail(`the program stopped swapping ${what} (frames stay at ${f0})`);
}
async function status(sock) {
    const r = await lineRequest(sock, 'status');
    const m = /^ok pid \d+ frames (\d+)(?: paused (\d+))?/.exec(r);
    assert.ok(m, `status reply: ${r}`);
    return { frames: Number(m[1]), paused: m[2] === undefined ? -1 : Number(m[2]) };
}
// Paused: the program's frame count stays while the replayed passes grow.
async function pausedAndLooping(sock) {
    const s0 = await status(sock);
    assert.ok(s0.paused >= 0, `the program is not paused while the debugger is attached (${JSON.stringify(s0)})`);
    for (let i = 0; i < 100; i++) {
        await new Promise(r => setTimeout(r, 50));
        const s = await status(sock);
        assert.strictEqual(s.frames, s0.frames, 'the paused program swapped a frame of its own');
        if (s.paused > s0.paused) return;
    }
    assert.fail('the paused program does not replay its frame in its window');
}
const parseVec = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };

async function main(pause) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-live-'));
    const sockDir = path.join(tmp, 's');
    const sock = path.join(sockDir, 'live.sock');
    const app = cp.spawn(env.LIT_MESH, ['--frames', '100000', '--size', `${W}x${H}`], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_SOCKET: sock, GLREPLAY_LOG: 'info',
               GLREPLAY_LIVE_PAUSE: pause ? '1' : '0' },
        stdio: ['ignore', 'pipe', 'pipe'] });
    let appLog = '';
    app.stdout.on('data', d => { appLog += d; });
    app.stderr.on('data', d => { appLog += d; });
    let exited = null;
    const appExit = new Promise(r => app.on('exit', (code, sig) => { exited = { code, sig }; r(exited); }));
    try {
        for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await new Promise(r => setTimeout(r, 50));
        assert.ok(fs.existsSync(sock), `the program did not create its socket: ${appLog}`);
        await framesGrow(sock, 'before the attach');

        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 60000;
        await dc.start();
        const initializedP = dc.waitForEvent('initialized');
        const init = await dc.initializeRequest();   // answered once the next frame is captured
        assert.strictEqual(init.body.supportsHitConditionalBreakpoints, true);
        await initializedP;
        const attachP = dc.attachRequest({});
        const bp = await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [{ line: LINE_T, hitCondition: '100' }] });
        assert.strictEqual(bp.body.breakpoints[0].verified, true, JSON.stringify(bp.body));
        assert.strictEqual(bp.body.breakpoints[0].line, LINE_T);
        const stoppedP = dc.waitForEvent('stopped');
        await dc.configurationDoneRequest();
        await attachP;
        const stopped = await stoppedP;
        assert.strictEqual(stopped.body.reason, 'breakpoint');
        assert.ok(/hit 100 /.test(stopped.body.description), stopped.body.description);
        const st = await dc.stackTraceRequest({ threadId: 1 });
        const top = st.body.stackFrames[0];
        assert.strictEqual(top.line, LINE_T, 'stop line');
        assert.strictEqual(top.source.path, SKY, 'stop source is the file on disk');
        const sc = await dc.scopesRequest({ frameId: top.id });
        const locals = sc.body.scopes.find(s => s.name === 'Locals');
        const vars = await dc.variablesRequest({ variablesReference: locals.variablesReference });
        const vsVar = vars.body.variables.find(v => v.name === 'v_screen');
        assert.ok(vsVar, 'v_screen in Locals');
        const vs = parseVec(vsVar.value);
        const x = Math.round(vs[0] * W - 0.5), y = Math.round(vs[1] * H - 0.5);
        assert.ok(Math.abs(vs[0] - (x + 0.5) / W) < 1e-5 && Math.abs(vs[1] - (y + 0.5) / H) < 1e-5,
            `v_screen ${vsVar.value} is a pixel centre`);
        // Pixel history inside the program: the model only (no driver replay in its process).
        const ph = await dc.customRequest('glreplay/pixelHistory', { x, y });
        assert.ok(ph.body.events.length >= 1 && !('driver_check' in ph.body), JSON.stringify(ph.body).slice(0, 300));
        if (pause)
            await pausedAndLooping(sock);
        else
            await framesGrow(sock, 'while the debugger is stopped');

        await dc.continueRequest({ threadId: 1 });
        await dc.disconnectRequest({});
        dc.stopAdapter();
        await framesGrow(sock, 'after the disconnect').catch(e => { throw new Error(`${e.message}\n${appLog}`); });
        assert.strictEqual((await status(sock)).paused, -1, 'still paused after the disconnect');
        if (pause)
            assert.ok(/replay loop: \d+ passes ran .*the program continues/.test(appLog), appLog);
        // A client that drops the connection in the middle of its handshake changes nothing either.
        const raw = net.createConnection(sock, () => { raw.write('Content-Length: 10\r\n\r\n{"se'); raw.destroy(); });
        raw.on('error', () => {});
        await new Promise(r => setTimeout(r, 300));
        await framesGrow(sock, 'after a dropped DAP client');
        assert.strictEqual(exited, null, `the program exited: ${appLog}`);
    } finally {
        if (!exited) app.kill('SIGTERM');
        await Promise.race([appExit, new Promise(r => setTimeout(r, 10000))]);
        if (!exited) app.kill('SIGKILL');
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log(`dap_live (${pause ? 'paused while attached' : 'GLREPLAY_LIVE_PAUSE=0'}): all checks passed`);
}

main(true).then(() => main(false)).catch(e => { console.error('dap_live: FAIL:', e && e.stack || e); process.exit(1); });
