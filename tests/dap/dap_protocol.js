#!/usr/bin/env node
// The DAP server against the letter of the specification (issue 14, "Protocol"), with a real DAP
// client (@vscode/debugadapter-testsupport's DebugClient over the Unix socket of `glreplay dap`)
// on a capture of samples/lit_mesh: a stop inside mesh.frag's shade_light() (called from main)
// checks stackTrace startFrame/levels/totalFrames, evaluate with the frameId of the caller,
// variables filter/start/count, vector children with evaluateName, undeclared built-ins, the GLSL
// built-ins of evaluate, readMemory's numeric address, breakpointLocations, completions,
// setBreakpoints' refusals (line 0, a condition that does not parse), loadedSources names and
// paths and loadedSource events, stepping another thread, restart, and launch (program, noDebug).
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, SHADER_DIR, NODE_MODULES (as dap_e2e.js).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_protocol: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_protocol: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}

const MESH = path.join(env.SHADER_DIR, 'mesh.frag');
const SKY = path.join(env.SHADER_DIR, 'sky.frag');
const meshLines = fs.readFileSync(MESH, 'utf8').split('\n');
const lineOf = text => { const i = meshLines.findIndex(l => l.includes(text)); assert.ok(i >= 0, text); return i + 1; };
const LINE_DIST = lineOf('float dist = length(to_light)');      // in shade_light()
const LINE_SIG = lineOf('vec3 shade_light(int i');                // a declaration: no code
const LINE_COMMENT = lineOf('// Blinn-Phong contribution');

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const parseVec = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };
const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);
const fails = async (p, re, what) => {
    try { await p; } catch (e) { assert.match(e.message, re, what); return; }
    assert.fail(`${what}: the request succeeded`);
};
const step = t => { if (env.DAP_E2E_VERBOSE) console.log('dap_protocol: ' + t); };
const { server } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

async function connect(sock) {
    const dc = new UnixDebugClient(sock);
    dc.defaultTimeout = 20000;
    dc.loaded = [];
    dc.on('loadedSource', e => dc.loaded.push(e.body));
    await dc.start();
    const initialized = dc.waitForEvent('initialized');
    const init = await dc.initializeRequest();
    await initialized;
    return { dc, init };
}

async function stoppedSession(sock) {
    const { dc, init } = await connect(sock);
    for (const c of ['supportsBreakpointLocationsRequest', 'supportsCompletionsRequest', 'supportsRestartRequest'])
        assert.strictEqual(init.body[c], true, c);
    const attachP = dc.attachRequest({});
    // setBreakpoints refusals: line 0, and a condition that does not parse (with the parse error).
    const bp = await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [
        { line: LINE_DIST, hitCondition: '3' }, { line: 0 }, { line: LINE_DIST, condition: 'n_dot_l > (' },
        { line: LINE_DIST, condition: 'length(to_light.xy) > 0.0 && u_light_pos[i].x >= -1e9' }] });
    const [ok, zero, badCond, goodCond] = bp.body.breakpoints;
    assert.strictEqual(ok.verified, true);
    assert.strictEqual(ok.line, LINE_DIST);
    assert.strictEqual(zero.verified, false, 'line 0');
    assert.match(zero.message, /line 0/);
    assert.strictEqual(badCond.verified, false, 'a condition with a syntax error');
    assert.match(badCond.message, /condition .*unexpected end of expression/, badCond.message);
    assert.strictEqual(goodCond.verified, true, goodCond.message);
    // Keep only the first (the others would stop first).
    const stoppedP = dc.waitForEvent('stopped');
    await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [{ line: LINE_DIST, hitCondition: '3' }] });
    await dc.configurationDoneRequest();
    await attachP;
    const stopped = await stoppedP;
    assert.strictEqual(stopped.body.reason, 'breakpoint');
    return dc;
}

async function checks(dc) {
    // ---- loadedSources: program and stage in the name; the bound file as path; events.
    const ls = await dc.send('loadedSources', {});
    assert.ok(ls.body.sources.length >= 6, 'the capture has 3 programs of 2 stages');
    assert.ok(ls.body.sources.every(s => s.sourceReference > 0 && /^program\d+-(VS|FS)(-shader\d+)?\.(vert|frag)$/.test(s.name)),
              JSON.stringify(ls.body.sources.map(s => s.name)));
    const meshSrc = ls.body.sources.filter(s => s.path === MESH);
    assert.strictEqual(meshSrc.length, 1, 'mesh.frag, bound by a breakpoint, has its path');
    assert.match(meshSrc[0].name, /^program\d+-FS-shader\d+\.frag$/);
    assert.ok((await dc.sourceRequest({ sourceReference: meshSrc[0].sourceReference })).body.content.includes(meshLines[LINE_DIST - 1]));
    assert.strictEqual(ls.body.sources.filter(s => s.path).length, 1, 'only the bound shader has a path');
    const news = dc.loaded.filter(e => e.reason === 'new');
    assert.deepStrictEqual(news.map(e => e.source.sourceReference), ls.body.sources.map(s => s.sourceReference),
                           'a loadedSource event for each of the capture\'s shaders');
    assert.deepStrictEqual(news.filter(e => e.source.path).map(e => e.source.path), [MESH]);
    // A file bound later: its shader changes (gains the path).
    const changed = dc.waitForEvent('loadedSource');
    await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [] });
    const ch = await changed;
    assert.strictEqual(ch.body.reason, 'changed');
    assert.strictEqual(ch.body.source.path, SKY);
    step('loadedSources');

    // ---- stackTrace: startFrame / levels / totalFrames.
    const all = await dc.stackTraceRequest({ threadId: 1 });
    assert.strictEqual(all.body.stackFrames.length, 2, 'shade_light called from main');
    assert.strictEqual(all.body.totalFrames, 2);
    assert.match(all.body.stackFrames[0].name, /^shade_light /);
    assert.match(all.body.stackFrames[1].name, /^main /);
    assert.strictEqual(all.body.stackFrames[0].line, LINE_DIST);
    assert.strictEqual(all.body.stackFrames[0].source.path, MESH);
    const second = await dc.stackTraceRequest({ threadId: 1, startFrame: 1, levels: 1 });
    assert.deepStrictEqual(second.body.stackFrames.map(f => f.id), [all.body.stackFrames[1].id]);
    assert.strictEqual(second.body.totalFrames, 2);
    const first = await dc.stackTraceRequest({ threadId: 1, startFrame: 0, levels: 1 });
    assert.deepStrictEqual(first.body.stackFrames.map(f => f.id), [all.body.stackFrames[0].id]);
    const past = await dc.stackTraceRequest({ threadId: 1, startFrame: 5 });
    assert.strictEqual(past.body.stackFrames.length, 0);
    const [fTop, fMain] = all.body.stackFrames.map(f => f.id);
    step('stackTrace');

    // ---- evaluate honours frameId: main's locals in main's frame, shade_light's in its own.
    const ev = (expression, frameId) => dc.evaluateRequest({ expression, frameId, context: 'repl' });
    const colorMain = await ev('color', fMain);
    assert.match(colorMain.body.type, /vec3/);
    await fails(ev('color', fTop), /unknown variable 'color'/, 'main\'s local in shade_light\'s frame');
    const toLight = parseVec((await ev('to_light', fTop)).body.result);
    await fails(ev('to_light', fMain), /unknown variable/, 'shade_light\'s local in main\'s frame');
    // In shade_light's frame `i` is its parameter (dbg_params.c), which main passed its loop index.
    const iMain = (await ev('i', fMain)).body.result;
    assert.match(iMain, /^[01]$/, 'main\'s loop variable i');
    assert.strictEqual((await ev('i', fTop)).body.result, iMain, 'shade_light\'s parameter i');
    step('evaluate frameId');

    // ---- variables: parameters in their frame; vector children; filter; start/count.
    const sc = await dc.scopesRequest({ frameId: fTop });
    const localsRef = sc.body.scopes.find(s => s.name === 'Locals').variablesReference;
    const locals = (await dc.variablesRequest({ variablesReference: localsRef })).body.variables;
    const byName = Object.fromEntries(locals.map(v => [v.name, v]));
    assert.ok(!byName.color, 'main\'s locals are not in shade_light\'s frame');
    for (const p of ['i', 'n', 'v', 'albedo'])
        assert.ok(byName[p], `parameter ${p} in shade_light's frame`);
    const tl = byName.to_light;
    assert.ok(tl && tl.variablesReference > 0, 'a vec3 is expandable');
    assert.strictEqual(tl.indexedVariables, 3);
    assert.strictEqual(tl.evaluateName, 'to_light');
    const kids = (await dc.variablesRequest({ variablesReference: tl.variablesReference })).body.variables;
    assert.deepStrictEqual(kids.map(k => k.name), ['x', 'y', 'z']);
    assert.deepStrictEqual(kids.map(k => k.evaluateName), ['to_light.x', 'to_light.y', 'to_light.z']);
    for (let k = 0; k < 3; k++) {
        close(Number(kids[k].value), toLight[k], `to_light.${'xyz'[k]}`);
        close(Number((await ev(kids[k].evaluateName, fTop)).body.result), toLight[k], `evaluate ${kids[k].evaluateName}`);
    }
    const named = await dc.variablesRequest({ variablesReference: tl.variablesReference, filter: 'named' });
    assert.strictEqual(named.body.variables.length, 0, 'a vector has no named children');
    const indexed = await dc.variablesRequest({ variablesReference: tl.variablesReference, filter: 'indexed', start: 1, count: 1 });
    assert.deepStrictEqual(indexed.body.variables.map(k => k.name), ['y']);
    const scopeIndexed = await dc.variablesRequest({ variablesReference: localsRef, filter: 'indexed' });
    assert.strictEqual(scopeIndexed.body.variables.length, 0, 'a scope has only named children');
    const paged = await dc.variablesRequest({ variablesReference: localsRef, start: 1, count: 2 });
    assert.deepStrictEqual(paged.body.variables.map(v => v.name), locals.slice(1, 3).map(v => v.name));
    // Built-ins the shader does not declare, with the pipeline's values: gl_FragCoord at the
    // lane's pixel centre (z and w as the rasterizer interpolated them), gl_FrontFacing.
    const biRef = sc.body.scopes.find(s => s.name === 'Built-ins').variablesReference;
    const bi = (await dc.variablesRequest({ variablesReference: biRef })).body.variables;
    const fc = bi.find(v => v.name === 'gl_FragCoord');
    assert.ok(fc && fc.type === 'vec4', `gl_FragCoord in Built-ins: ${bi.map(v => v.name)}`);
    const [fx, fy, fz, fw] = parseVec(fc.value);
    assert.ok(fx % 1 === 0.5 && fy % 1 === 0.5 && fx > 0 && fy > 0 && fz >= 0 && fz <= 1 && fw > 0, fc.value);
    assert.strictEqual(bi.find(v => v.name === 'gl_FrontFacing').value, 'true', 'culled back faces: front facing');
    assert.strictEqual(bi.find(v => v.name === 'gl_HelperInvocation').value, 'false');
    step('variables');

    // ---- evaluate: GLSL built-ins.
    const num = async e => parseVec((await ev(e, fTop)).body.result);
    const cases = [
        ['step(0.5, 0.7)', [1]], ['step(0.5, 0.2)', [0]], ['sign(-2.5)', [-1]], ['sign(vec2(3.0, 0.0))', [1, 0]],
        ['smoothstep(0.0, 1.0, 0.5)', [0.5]], ['smoothstep(0.0, 2.0, 0.5)', [0.15625]], ['inversesqrt(4.0)', [0.5]],
        ['cross(vec3(1.0, 0.0, 0.0), vec3(0.0, 1.0, 0.0))', [0, 0, 1]],
        ['reflect(vec3(1.0, -1.0, 0.0), vec3(0.0, 1.0, 0.0))', [1, 1, 0]],
    ];
    for (const [e, want] of cases) {
        const got = await num(e);
        assert.strictEqual(got.length, want.length, e);
        want.forEach((w, k) => close(got[k], w, e));
    }
    assert.strictEqual((await ev('isnan(1.0)', fTop)).body.result, 'false');
    assert.strictEqual((await ev('isinf(1.0 / 0.0)', fTop)).body.result, 'true');
    assert.strictEqual((await ev('isnan(0.0 / 0.0)', fTop)).body.result, 'true');
    const h = await ev('gl_HelperInvocation', fTop);
    assert.strictEqual(h.body.result, 'false');
    assert.strictEqual(h.body.type, 'bool');
    // dist = length(to_light) is computed from to_light the same way.
    close((await num('length(to_light)'))[0], Math.hypot(...toLight), 'length(to_light)');
    step('evaluate built-ins');

    // ---- readMemory: the address is a number; a numeric memoryReference reads the same bytes.
    assert.match(tl.memoryReference, /^0x[0-9a-f]+$/);
    const mem = await dc.send('readMemory', { memoryReference: tl.memoryReference, offset: 4, count: 4 });
    assert.match(mem.body.address, /^0x[0-9a-f]+$/);
    assert.strictEqual(BigInt(mem.body.address), BigInt(tl.memoryReference) + 4n);
    close(Buffer.from(mem.body.data, 'base64').readFloatLE(0), toLight[1], 'readMemory to_light.y');
    const again = await dc.send('readMemory', { memoryReference: String(BigInt(mem.body.address)), count: 4 });
    assert.strictEqual(again.body.data, mem.body.data, 'a decimal address reads the same');
    await fails(dc.send('readMemory', { memoryReference: '0x12', count: 4 }), /unknown memoryReference/, 'bad address');
    step('readMemory');

    // ---- breakpointLocations: lines with code only.
    const locs = await dc.send('breakpointLocations', { source: { path: MESH }, line: LINE_COMMENT, endLine: LINE_DIST });
    const lines = locs.body.breakpoints.map(b => b.line);
    assert.ok(lines.includes(LINE_DIST) && lines.includes(LINE_DIST - 1), JSON.stringify(lines));
    assert.ok(!lines.includes(LINE_COMMENT) && !lines.includes(LINE_SIG + 1), JSON.stringify(lines));
    const byRef = await dc.send('breakpointLocations', { source: { sourceReference: all.body.stackFrames[0].source.sourceReference || 1 }, line: 1, endLine: 400 });
    assert.ok(byRef.body.breakpoints.length > 0);
    step('breakpointLocations');

    // ---- completions: the stopped frame's names and the built-ins.
    const comp = await dc.send('completions', { text: 'x + to_', column: 8, frameId: fTop });
    const labels = comp.body.targets.map(t => t.label);
    assert.ok(labels.includes('to_light'), JSON.stringify(labels));
    assert.ok(comp.body.targets.every(t => t.start === 5 && t.length === 3), JSON.stringify(comp.body.targets[0]));
    const comp2 = await dc.send('completions', { text: 'smo', column: 4 });
    assert.deepStrictEqual(comp2.body.targets.map(t => t.label), ['smoothstep']);
    step('completions');

    // ---- stepping honours threadId: a thread that does not exist is refused; `next` on another
    // resident warp of the draw steps that warp (its stop becomes thread 1 of the new stop).
    await fails(dc.nextRequest({ threadId: 99 }), /this thread cannot step/, 'next on thread 99');
    const ths = (await dc.threadsRequest()).body.threads;
    const warpOf = name => (/· warp (\d+)/.exec(name) || [])[1];
    const other = ths.find(t => t.id > 1 && warpOf(t.name) !== undefined && /^draw (\d+)/.exec(t.name)[1] === /^draw (\d+)/.exec(ths[0].name)[1]);
    assert.ok(other, `a second warp of the draw is resident (timing model): ${ths.map(t => t.name)}`);
    const otherTop = (await dc.stackTraceRequest({ threadId: other.id })).body.stackFrames[0];
    const stepped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: other.id });
    assert.strictEqual((await stepped).body.reason, 'step');
    const nowThreads = (await dc.threadsRequest()).body.threads;
    assert.strictEqual(warpOf(nowThreads[0].name), warpOf(other.name), `stepped warp ${other.name} -> ${nowThreads[0].name}`);
    const nowTop = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    assert.ok(nowTop.line !== otherTop.line || nowTop.name !== otherTop.name, 'the step moved');
    step('step another thread');

    // ---- restart: the frame runs again; the same breakpoint stops at the same place.
    const again3 = dc.waitForEvent('stopped');
    await dc.send('restart', {});
    const st = await again3;
    assert.strictEqual(st.body.reason, 'breakpoint');
    assert.match(st.body.description, /^hit 3 /);
    const after = await dc.stackTraceRequest({ threadId: 1 });
    assert.strictEqual(after.body.stackFrames[0].line, LINE_DIST);
    close(parseVec((await ev('to_light', after.body.stackFrames[0].id)).body.result)[0], toLight[0], 'same stop');
    step('restart');
}

async function launches(sock, capture) {
    // program naming another capture: refused with the reason.
    let { dc } = await connect(sock);
    await fails(dc.launchRequest({ program: '/nonexistent/other.glcap' }), /this server serves/, 'launch of another program');
    dc.stopAdapter();
    // noDebug: the frame runs without stopping at the breakpoint, then the session terminates.
    ({ dc } = await connect(sock));
    let stops = 0;
    dc.on('stopped', () => stops++);
    const launchP = dc.launchRequest({ program: capture, noDebug: true });
    await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [{ line: LINE_DIST }] });
    const terminated = dc.waitForEvent('terminated');
    await dc.configurationDoneRequest();
    await launchP;
    await terminated;
    assert.strictEqual(stops, 0, 'noDebug never stops');
    dc.stopAdapter();
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapp-'));
    const capture = path.join(tmp, 'lit.glcap');
    const cap = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', '160x90'], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: capture },
        encoding: 'utf8', timeout: 120000 });
    assert.strictEqual(cap.status, 0, `capture failed: ${cap.stderr}`);
    const srv = await server(capture, tmp, 's');
    const sock = srv.sock;
    try {
        const dc = await stoppedSession(sock);
        await checks(dc);
        await dc.disconnectRequest({});
        dc.stopAdapter();
        await launches(sock, capture);
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_protocol: ${received.length} messages match the DebugProtocol types`);
    } finally {
        await srv.stop();
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_protocol: all checks passed');
}

main().catch(e => { console.error('dap_protocol: FAIL:', e && e.stack || e); process.exit(1); });
