#!/usr/bin/env node
// End-to-end test of the DAP server with a real DAP client (@vscode/debugadapter-testsupport's
// DebugClient over a Unix socket): a capture of samples/lit_mesh is served by `glreplay dap`; a
// breakpoint in the sky shader FILE on disk with hitCondition 100 must stop on the right line, with
// values equal to what the shader computes for that invocation (computed here independently) and a
// fragment colour equal to the pixel the driver wrote. Then next, continue to the next hit,
// conditions, evaluate, readMemory, custom requests, pause, disconnect while stopped; and the
// robustness of the server (garbage, truncated, oversized messages, a client that never reads, a
// client of another uid).
//
// Environment: GLREPLAY (the CLI), GLREPLAY_SHIM (libglreplay.so), LIT_MESH (the sample),
// SHADER_DIR (samples/shaders/lit_mesh), NODE_MODULES (ui_ipc/vscode/node_modules). DISPLAY must
// reach an X server (the sample runs under the shim to make the capture).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_e2e: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_e2e: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}

const W = 160, H = 90;
const SKY = path.join(env.SHADER_DIR, 'sky.frag');
const skyLines = fs.readFileSync(SKY, 'utf8').split('\n');
const lineOf = text => skyLines.findIndex(l => l.includes(text)) + 1;
const LINE_T = lineOf('float t = clamp');
const LINE_COLOR = lineOf('vec3 color = mix');
const LINE_OUT = lineOf('frag_color = vec4(color');

// ---- every message received is checked against the protocol's official type definitions
// (dap_types_check.js: @vscode/debugprotocol's debugProtocol.d.ts, generated from
// debugAdapterProtocol.json, through the TypeScript compiler) at the end, and here against a
// hand-written subset of the required fields (immediate, with the message at hand) ----
const received = [];
const schemaErrors = [];
function need(cond, what, msg) { if (!cond) schemaErrors.push(`${what}: ${JSON.stringify(msg).slice(0, 200)}`); }
function checkMessage(m) {
    received.push(m);
    need(Number.isInteger(m.seq) && m.seq > 0, 'seq', m);
    need(['response', 'event'].includes(m.type), 'type', m);
    if (m.type === 'response') {
        need(Number.isInteger(m.request_seq), 'request_seq', m);
        need(typeof m.success === 'boolean', 'success', m);
        need(typeof m.command === 'string', 'command', m);
        if (!m.success) need(typeof m.message === 'string', 'message of a failed response', m);
        const b = m.body;
        if (m.success) switch (m.command) {
        case 'threads': need(Array.isArray(b.threads) && b.threads.every(t => Number.isInteger(t.id) && typeof t.name === 'string'), 'threads', m); break;
        case 'stackTrace': need(Array.isArray(b.stackFrames) && b.stackFrames.every(f => Number.isInteger(f.id) && typeof f.name === 'string' && Number.isInteger(f.line) && Number.isInteger(f.column)), 'stackFrames', m); break;
        case 'scopes': need(Array.isArray(b.scopes) && b.scopes.every(s => typeof s.name === 'string' && Number.isInteger(s.variablesReference) && typeof s.expensive === 'boolean'), 'scopes', m); break;
        case 'variables': need(Array.isArray(b.variables) && b.variables.every(v => typeof v.name === 'string' && typeof v.value === 'string' && Number.isInteger(v.variablesReference)), 'variables', m); break;
        case 'setBreakpoints': need(Array.isArray(b.breakpoints) && b.breakpoints.every(x => typeof x.verified === 'boolean'), 'breakpoints', m); break;
        case 'evaluate': need(typeof b.result === 'string' && Number.isInteger(b.variablesReference), 'evaluate body', m); break;
        case 'source': need(typeof b.content === 'string', 'source content', m); break;
        case 'loadedSources': need(Array.isArray(b.sources), 'sources', m); break;
        case 'readMemory': need(typeof b.address === 'string', 'readMemory address', m); break;
        }
    } else {
        need(typeof m.event === 'string', 'event', m);
        if (m.event === 'stopped') need(typeof m.body.reason === 'string', 'stopped reason', m);
        if (m.event === 'output') need(typeof m.body.output === 'string', 'output text', m);
    }
}

const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, checkMessage);

// ---- helpers ----
function decodePng(buf) {
    assert.strictEqual(buf.toString('latin1', 1, 4), 'PNG');
    let p = 8, w = 0, h = 0; const idat = [];
    while (p < buf.length) {
        const len = buf.readUInt32BE(p), type = buf.toString('latin1', p + 4, p + 8);
        const data = buf.subarray(p + 8, p + 8 + len);
        if (type === 'IHDR') { w = data.readUInt32BE(0); h = data.readUInt32BE(4); assert.strictEqual(data[8], 8); assert.strictEqual(data[9], 6); }
        if (type === 'IDAT') idat.push(data);
        p += 12 + len;
    }
    const raw = zlib.inflateSync(Buffer.concat(idat));
    const out = Buffer.alloc(w * h * 4), stride = w * 4;
    for (let y = 0; y < h; y++) {
        const f = raw[y * (stride + 1)], row = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
        for (let x = 0; x < stride; x++) {
            const a = x >= 4 ? out[y * stride + x - 4] : 0, b = y ? out[(y - 1) * stride + x] : 0;
            const c = x >= 4 && y ? out[(y - 1) * stride + x - 4] : 0;
            let v = row[x];
            if (f === 1) v += a; else if (f === 2) v += b; else if (f === 3) v += (a + b) >> 1;
            else if (f === 4) { const pp = a + b - c, pa = Math.abs(pp - a), pb = Math.abs(pp - b), pc = Math.abs(pp - c); v += pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
            out[y * stride + x] = v & 255;
        }
    }
    return { w, h, px: out };
}
const parseVec = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };
const close = (a, b, tol, what) => assert.ok(Math.abs(a - b) <= tol, `${what}: ${a} vs ${b} (tolerance ${tol})`);
const clamp = (x, lo, hi) => Math.min(Math.max(x, lo), hi);

async function variablesOf(dc, scopeName) {
    const st = await dc.stackTraceRequest({ threadId: 1 });
    const sc = await dc.scopesRequest({ frameId: st.body.stackFrames[0].id });
    const scope = sc.body.scopes.find(s => s.name === scopeName);
    assert.ok(scope, `scope ${scopeName}`);
    const vars = await dc.variablesRequest({ variablesReference: scope.variablesReference });
    const map = {};
    for (const v of vars.body.variables) map[v.name] = v;
    return map;
}
async function evalNum(dc, expr) {
    const r = await dc.evaluateRequest({ expression: expr, frameId: 1, context: 'repl' });
    return parseVec(r.body.result);
}
async function stopLine(dc) {
    const st = await dc.stackTraceRequest({ threadId: 1 });
    return st.body.stackFrames[0];
}
function sendRaw(sock, text) { sock.write(typeof text === 'string' ? Buffer.from(text, 'latin1') : text); }
function frame(obj) { const b = JSON.stringify(obj); return `Content-Length: ${Buffer.byteLength(b)}\r\n\r\n${b}`; }
function rawClient(socketPath) {
    return new Promise((resolve, reject) => {
        const s = net.createConnection(socketPath, () => resolve(s));
        s.on('error', reject);
        s.data = '';
        s.gone = new Promise(r => s.on('close', r));
        s.on('data', d => { s.data += d.toString('latin1'); });
    });
}
const within = (p, ms, what) => Promise.race([p, new Promise((_, rej) => setTimeout(() => rej(new Error(`timeout: ${what}`)), ms))]);

// ---- the test ----
let cliStop = null;
const step = t => { if (env.DAP_E2E_VERBOSE) console.log('dap_e2e: ' + t); };
async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dap-'));
    const capture = path.join(tmp, 'lit.glcap');
    // Frames 0-1: frame 0 starts at context creation (complete initial state), frame 1 draws.
    const cap = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', `${W}x${H}`], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: capture },
        encoding: 'utf8', timeout: 120000 });
    assert.strictEqual(cap.status, 0, `capture failed: ${cap.stderr}`);
    assert.ok(fs.existsSync(capture), 'no capture written');
    step('captured');
    // The CLI prints the same stop as JSON.
    const dbg = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--break', `${SKY}:${LINE_T}`, '--hit', '100', '--json'], { encoding: 'utf8' });
    assert.strictEqual(dbg.status, 0, dbg.stderr);
    cliStop = JSON.parse(dbg.stdout);
    assert.strictEqual(cliStop.breakpoint.line, LINE_T);
    assert.strictEqual(cliStop.breakpoint.hit, 100);
    const bad = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--break', 'no_such_shader.frag:3'], { encoding: 'utf8' });
    assert.strictEqual(bad.status, 1);
    assert.match(bad.stderr, /^glreplay: debug: unknown shader 'no_such_shader.frag'.*\n$/);

    const sockDir = path.join(tmp, 's');
    const sock = path.join(sockDir, 'dap.sock');
    const server = cp.spawn(env.GLREPLAY, ['dap', '--socket', sock, capture], { stdio: ['ignore', 'pipe', 'pipe'] });
    let serverLog = '';
    server.stdout.on('data', d => { serverLog += d; });
    server.stderr.on('data', d => { serverLog += d; });
    const serverExit = new Promise(r => server.on('exit', (code, sig) => r({ code, sig })));
    for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await new Promise(r => setTimeout(r, 50));
    assert.ok(fs.existsSync(sock), `server did not create its socket: ${serverLog}`);
    assert.strictEqual(fs.statSync(sock).mode & 0o777, 0o600, 'socket mode');
    assert.strictEqual(fs.statSync(sockDir).mode & 0o777, 0o700, 'socket directory mode');

    step('server up');
    try {
        await session(sock);
        step('session done');
        await robustness(sock, sockDir);
        assert.deepStrictEqual(schemaErrors, [], 'messages not valid against the DAP schema');
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_e2e: ${received.length} messages match the DebugProtocol types`);
        // Still alive after all that.
        const dc = new UnixDebugClient(sock);
        await dc.start();
        const init = await dc.initializeRequest();
        assert.ok(init.success);
        dc.stopAdapter();
    } finally {
        server.kill('SIGTERM');
        const ex = await within(serverExit, 10000, 'server exit');
        assert.strictEqual(ex.code, 0, `server exit ${JSON.stringify(ex)}: ${serverLog}`);
        assert.ok(!fs.existsSync(sock), 'socket file removed at exit');
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_e2e: all checks passed');
}

async function session(sock) {
    const dc = new UnixDebugClient(sock);
    dc.defaultTimeout = 20000;
    await dc.start();
    const initializedP = dc.waitForEvent('initialized');   // may arrive with the response
    const init = await dc.initializeRequest();
    for (const c of ['supportsConfigurationDoneRequest', 'supportsHitConditionalBreakpoints', 'supportsConditionalBreakpoints',
                     'supportsLogPoints', 'supportsLoadedSourcesRequest', 'supportsEvaluateForHovers', 'supportsTerminateRequest',
                     'supportsReadMemoryRequest'])
        assert.strictEqual(init.body[c], true, c);
    await initializedP;
    step('initialized');
    // attach is answered only after configurationDone.
    let attached = false;
    const attachP = dc.attachRequest({}).then(r => { attached = true; return r; });
    const bp = await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [{ line: LINE_T, hitCondition: '100' }, { line: 1 }] });
    assert.strictEqual(bp.body.breakpoints[0].verified, true);
    assert.strictEqual(bp.body.breakpoints[0].line, LINE_T);
    assert.strictEqual(bp.body.breakpoints[1].verified, true, 'a comment line moves to the next line with code');
    assert.ok(bp.body.breakpoints[1].line > 1);
    // Drop the second one again; a bad hit condition is reported, not fatal.
    const bp2 = await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [{ line: LINE_T, hitCondition: '100' }] });
    assert.strictEqual(bp2.body.breakpoints.length, 1);
    const bad = await dc.setBreakpointsRequest({ source: { path: '/nonexistent/x.frag' }, breakpoints: [{ line: 3 }] });
    assert.strictEqual(bad.body.breakpoints[0].verified, false);
    assert.ok(!attached, 'attach answered before configurationDone');
    const stoppedP = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    step('configured');
    const stopped = await stoppedP;
    step('stopped');
    assert.strictEqual(stopped.body.reason, 'breakpoint');
    assert.ok(/hit 100 /.test(stopped.body.description), stopped.body.description);

    const threads = await dc.threadsRequest();
    assert.ok(/draw \d+ · FS · warp \d+/.test(threads.body.threads[0].name), threads.body.threads[0].name);
    const top = await stopLine(dc);
    assert.strictEqual(top.line, LINE_T, 'stop line');
    assert.strictEqual(top.source.path, SKY, 'stop source is the file on disk');

    // The invocation: v_screen = ((x + 0.5) / W, (y + 0.5) / H) for its pixel (full-screen triangle).
    const locals = await variablesOf(dc, 'Locals');
    const vs = parseVec(locals.v_screen.value);
    const x = Math.round(vs[0] * W - 0.5), y = Math.round(vs[1] * H - 0.5);
    const cliVs = parseVec(cliStop.variables.find(v => v.name === 'v_screen').value);
    assert.deepStrictEqual(cliVs, vs, '`glreplay debug --json` shows the same invocation');
    close(vs[0], (x + 0.5) / W, 1e-5, 'v_screen.x is a pixel centre');
    close(vs[1], (y + 0.5) / H, 1e-5, 'v_screen.y is a pixel centre');
    const uni = await variablesOf(dc, 'Uniforms');
    const horizon = parseVec(uni.u_horizon_color.value), zenith = parseVec(uni.u_zenith_color.value);
    const sun = parseVec(uni.u_sun_screen.value), aspect = parseVec(uni.u_aspect.value)[0];
    const warp = await variablesOf(dc, 'Warp');
    const lanes = await dc.variablesRequest({ variablesReference: warp.v_screen.variablesReference });
    assert.strictEqual(lanes.body.variables.length, 32, 'Warp scope: one entry per lane');
    const builtins = await variablesOf(dc, 'Built-ins');
    assert.strictEqual(builtins.gl_HelperInvocation.value, 'false');

    // The shader, computed here: sky.frag main().
    const t = clamp((vs[1] - 0.45) * 2.0, 0, 1);
    const color0 = [0, 1, 2].map(i => horizon[i] * (1 - t) + zenith[i] * t);
    const d = [(vs[0] - sun[0]) * aspect, vs[1] - sun[1]];
    const r = Math.hypot(d[0], d[1]);
    const color = r < 0.05 ? [1.0, 0.95, 0.8] : color0.map((c, i) => c + [1.0, 0.8, 0.5][i] * 0.25 * Math.exp(-r * 8.0));

    step('inspected');
    // next: line 14 -> 15, t is now computed.
    let sp = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1 });
    assert.strictEqual((await sp).body.reason, 'step');
    assert.strictEqual((await stopLine(dc)).line, LINE_COLOR, 'line after next');
    close((await evalNum(dc, 't'))[0], t, 1e-5, 't');
    close((await evalNum(dc, 't * 2.0 + v_screen.x'))[0], t * 2 + vs[0], 1e-5, 'evaluate arithmetic');
    // Step to the output line and compare the colour with the model and with the driver's pixel.
    for (let i = 0; i < 12 && (await stopLine(dc)).line !== LINE_OUT; i++) {
        sp = dc.waitForEvent('stopped');
        await dc.nextRequest({ threadId: 1 });
        await sp;
    }
    assert.strictEqual((await stopLine(dc)).line, LINE_OUT, 'reached the output line by stepping');
    const modelColor = await evalNum(dc, 'color');
    for (let i = 0; i < 3; i++) close(modelColor[i], color[i], 1e-4, `color[${i}]`);
    const img = await dc.customRequest('glreplay/image', {});
    const png = decodePng(Buffer.from(img.body.data, 'base64'));
    assert.strictEqual(png.w, W);
    const row = png.h - 1 - y;   // PNG rows run top-down, GL rows bottom-up
    for (let i = 0; i < 3; i++) {
        const driver = png.px[(row * W + x) * 4 + i];
        close(Math.round(clamp(modelColor[i], 0, 1) * 255), driver, 1, `pixel (${x},${y}) channel ${i} vs the driver`);
    }
    // readMemory: the bytes of v_screen for the focused lane.
    const mem = await dc.send('readMemory', { memoryReference: locals.v_screen.memoryReference, count: 8 });
    const bytes = Buffer.from(mem.body.data, 'base64');
    close(bytes.readFloatLE(0), Math.fround(vs[0]), 0, 'readMemory v_screen.x');

    // Sources: loadedSources lists every captured shader, served by reference.
    const ls = await dc.send('loadedSources', {});
    assert.strictEqual(ls.body.sources.length, 6, 'lit_mesh links 3 programs of 2 shaders');
    let foundSky = false;
    for (const s of ls.body.sources) {
        const src = await dc.sourceRequest({ sourceReference: s.sourceReference });
        if (src.body.content.includes(fs.readFileSync(SKY, 'utf8').trim())) {
            foundSky = true;
            assert.ok(src.body.content.startsWith('#version 330 core'), 'the program prepended lines');
        }
    }
    assert.ok(foundSky, 'the sky shader is among the loaded sources');
    const state = await dc.customRequest('glreplay/state', {});
    assert.ok(state.body.state, 'glreplay/state');
    const events = await dc.customRequest('glreplay/events', { start: 0, count: 10 });
    assert.strictEqual(events.body.events.length, 10);
    const prof = await dc.customRequest('glreplay/profile', { pcSampling: 1024 });
    assert.ok(prof.body.id > 0 && prof.body.profile.slices.length > 0 && prof.body.lines.length > 0, 'glreplay/profile');
    await assert.rejects(dc.evaluateRequest({ expression: 'no_such_var + 1', frameId: 1 }), /unknown variable/);

    step('sources, state checked');
    // A pass (or a profile run) that just answered may still be winding down ("the frame is
    // (already) running"): ask again.
    const whenIdle = async f => {
        for (let i = 0; ; i++) {
            try { return await f(); } catch (e) {
                if (i > 200 || !/is (already )?running/.test(String(e))) throw e;
                await new Promise(r => setTimeout(r, 100));
            }
        }
    };
    // Continue to the next hit (>= 100 now matches 101, 102, ...).
    await whenIdle(() => dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [{ line: LINE_T, hitCondition: '>= 100' }] }));
    sp = dc.waitForEvent('stopped');
    await whenIdle(() => dc.continueRequest({ threadId: 1 }));
    // The view is at the stepped position, later than hits 101.. of lanes that reached the line
    // together with the focused one: continue goes on from there in the model's order.
    const hitOf = ev => Number(/hit (\d+) /.exec(ev.body.description)[1]);
    const st2 = await sp;
    const h2 = hitOf(st2);
    assert.ok(h2 > 100, st2.body.description);
    assert.strictEqual((await stopLine(dc)).line, LINE_T, 'continue stops on the breakpoint line');
    const vs2 = await evalNum(dc, 'v_screen');
    assert.ok(vs2[0] !== vs[0] || vs2[1] !== vs[1], 'another invocation');
    sp = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    assert.strictEqual(hitOf(await sp), h2 + 1, 'the next continue stops at the very next hit');
    // A condition per lane, and a logpoint. Hits are counted from the frame's start in the model's
    // order (warps interleave in the timing model), so the frame is first run to its end: setting
    // breakpoints then runs it again from its start, which meets the 3rd hit of the condition
    // whatever its place.
    await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [] });
    const ended1 = new Promise(resolve => dc.on('output', e => { if (/end without a breakpoint stop/.test(e.body.output)) resolve(); }));
    await dc.continueRequest({ threadId: 1 });
    await within(ended1, 20000, 'frame end');
    sp = dc.waitForEvent('stopped');
    await whenIdle(() => dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [
        { line: LINE_T, condition: 'v_screen.x < 0.05 && v_screen.y > 0.9', hitCondition: '3' },
        { line: LINE_COLOR, logMessage: 'lp t={t}' }] }));
    assert.ok(/hit 3 /.test((await sp).body.description), 'the 3rd hit of the condition');
    const vs3 = await evalNum(dc, 'v_screen');
    assert.ok(vs3[0] < 0.05 && vs3[1] > 0.9, `condition holds at the stop: ${vs3}`);
    assert.ok(dc.outputs.some(o => /lp t=[0-9.]+/.test(o)), 'logpoint output');

    step('conditions checked');
    // Pause: with no breakpoints the frame runs to its end; pause then stops at the next instruction.
    await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [] });
    const ended = new Promise(resolve => dc.on('output', e => { if (/end without a breakpoint stop/.test(e.body.output)) resolve(); }));
    await dc.continueRequest({ threadId: 1 });
    await within(ended, 20000, 'frame end');
    sp = dc.waitForEvent('stopped');
    await dc.pauseRequest({ threadId: 1 });
    assert.strictEqual((await sp).body.reason, 'pause');
    assert.ok((await dc.threadsRequest()).body.threads.length === 1);

    // Disconnect while stopped.
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function robustness(sock, sockDir) {
    // Garbage: an error response, then the connection is closed.
    let s = await rawClient(sock);
    sendRaw(s, Buffer.from([0, 1, 2, 3, 255, 254]));
    await within(s.gone, 5000, 'garbage closes the connection');
    assert.ok(/malformed/.test(s.data), 'garbage gets an error response first');
    // Oversized: refused before reading the body.
    s = await rawClient(sock);
    sendRaw(s, 'Content-Length: 999999999\r\n\r\n{');
    await within(s.gone, 5000, 'oversized closes the connection');
    assert.ok(/larger than the limit/.test(s.data), s.data);
    // Invalid JSON in a well-framed message: error response, the connection stays usable.
    s = await rawClient(sock);
    sendRaw(s, 'Content-Length: 5\r\n\r\n{abc}');
    sendRaw(s, frame({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'glreplay' } }));
    await within(new Promise(r => { const t = setInterval(() => { if (s.data.includes('"initialized"')) { clearInterval(t); r(); } }, 20); }), 5000, 'usable after bad JSON');
    assert.ok(/not a JSON object/.test(s.data));
    // Requests with wrong field types get error responses.
    sendRaw(s, frame({ seq: 2, type: 'request', command: 'setBreakpoints', arguments: { source: 5 } }));
    sendRaw(s, frame({ seq: 'x', type: 'request', command: 'threads' }));
    await new Promise(r => setTimeout(r, 200));
    assert.ok(/missing 'source'/.test(s.data) && /'seq' \(number\)/.test(s.data), s.data.slice(-400));
    s.destroy();
    // Truncated: a message cut short, then the client goes away.
    s = await rawClient(sock);
    sendRaw(s, 'Content-Length: 100\r\n\r\n{"seq":1,"type":"req');
    s.end();
    await within(s.gone, 5000, 'truncated client closes');
    // A client that connects and never reads does not stall anyone else.
    const stuck = await rawClient(sock);
    stuck.pause();
    let big = '';
    big += frame({ seq: 1, type: 'request', command: 'initialize', arguments: { adapterID: 'glreplay' } });
    for (let i = 0; i < 4000; i++) big += frame({ seq: i + 2, type: 'request', command: 'source', arguments: { sourceReference: 2 } });
    sendRaw(stuck, big);
    const other = new UnixDebugClient(sock);
    await other.start();
    const t0 = Date.now();
    await within(other.initializeRequest(), 5000, 'another client is served while one never reads');
    await within(other.send('loadedSources', {}), 5000, 'loadedSources while one never reads');
    other.stopAdapter();
    stuck.destroy();
    assert.ok(Date.now() - t0 < 5000);
    // A client of another uid is refused (SO_PEERCRED): open the directory and socket to everyone so
    // that only the server's own check stands in the way.
    if (process.getuid() === 0 && fs.existsSync('/usr/bin/setpriv')) {
        const parent = path.dirname(sockDir);   // mkdtemp made it 0700
        fs.chmodSync(parent, 0o755);
        fs.chmodSync(sockDir, 0o755);
        fs.chmodSync(sock, 0o666);
        const script = `const s=require('net').createConnection(${JSON.stringify(sock)});let d='';` +
            `s.on('data',x=>d+=x);s.on('error',e=>{console.log('ERR '+e.code);});s.on('close',()=>{console.log(d.includes('"success":true')?'ACCEPTED':'REFUSED '+d);});`;
        const r = cp.spawnSync('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, '-e', script], { encoding: 'utf8', timeout: 10000 });
        fs.chmodSync(sock, 0o600);
        fs.chmodSync(sockDir, 0o700);
        fs.chmodSync(parent, 0o700);
        assert.ok(/REFUSED[\s\S]*permission denied/.test(r.stdout), `other uid: ${r.stdout} ${r.stderr}`);
    } else {
        console.log('dap_e2e: note: not root (or no setpriv): the other-uid check is skipped');
    }
}

main().catch(e => { console.error('dap_e2e: FAIL:', e && e.stack ? e.stack : e); process.exit(1); });
