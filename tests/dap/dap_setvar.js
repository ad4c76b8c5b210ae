#!/usr/bin/env node
// setVariable (issue 14) end to end, with Microsoft's DAP client over the Unix socket of
// `glreplay dap`, on a capture of samples/lit_mesh, stopped in shade_light() before
// `float dist = length(to_light);`:
//  * Locals: to_light = vec3(3, 4, 0) answers the value, the view stops again with it, and the
//    model runs on with it: after `next`, dist == 5;
//  * the Warp scope's entry of another lane: dist of that lane = 7 changes that lane only, and the
//    next line computes with it (l.x == to_light.x / 7 there, the focused lane's l.x is 3/5);
//  * a vector component (to_light's child y), a value with the wrong number of components, a
//    uniform, and an expression as value (`dist * 2.0`);
//  * function parameters: shade_light's frame lists i, n, v, albedo with the caller's values; a
//    parameter can be set (the callee's n; main's n stays);
//  * restart forgets the values: the same stop shows the captured to_light again.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, SHADER_DIR, NODE_MODULES.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_setvar: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_setvar: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const MESH = path.join(env.SHADER_DIR, 'mesh.frag');
const meshLines = fs.readFileSync(MESH, 'utf8').split('\n');
const LINE_DIST = meshLines.findIndex(l => l.includes('float dist = length(to_light)')) + 1;
assert.ok(LINE_DIST > 0);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const { server, connectInit } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);
const nums = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };
const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

async function scope(dc, name) {
    const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    const sc = (await dc.scopesRequest({ frameId: top.id })).body.scopes.find(s => s.name === name);
    return { top, ref: sc.variablesReference };
}
const evalTop = async (dc, expr) => {
    const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    return (await dc.evaluateRequest({ expression: expr, frameId: top.id, context: 'watch' })).body.result;
};
async function setAndStop(dc, args) {
    const stopped = dc.waitForEvent('stopped');
    const r = await dc.send('setVariable', args);
    await stopped;
    return r.body;
}
async function stepNext(dc) {
    const stopped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1 });
    assert.strictEqual((await stopped).body.reason, 'step');
}

async function checks(sock) {
    const { dc, init } = await connectInit(sock, 30000);
    assert.strictEqual(init.body.supportsSetVariable, true);
    const attachP = dc.attachRequest({});
    await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [{ line: LINE_DIST, hitCondition: '2' }] });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    await stopped;
    const captured = nums(await evalTop(dc, 'to_light'));

    // The callee's parameters (i, n, v, albedo) in its frame, equal to the caller's arguments.
    const frames = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    assert.match(frames[0].name, /^shade_light /);
    const localsOf = async f => {
        const r = (await dc.scopesRequest({ frameId: f.id })).body.scopes.find(x => x.name === 'Locals').variablesReference;
        return Object.fromEntries((await dc.variablesRequest({ variablesReference: r })).body.variables.map(v => [v.name, v.value]));
    };
    const callee = await localsOf(frames[0]), caller = await localsOf(frames[1]);
    for (const p of ['i', 'n', 'v', 'albedo'])
        assert.ok(p in callee, `parameter ${p} in shade_light's frame: ${Object.keys(callee)}`);
    assert.strictEqual(callee.i, caller.i, 'i is main\'s loop index');
    for (const p of ['n', 'v', 'albedo'])
        assert.strictEqual(callee[p], caller[p], `${p} is main's argument`);
    assert.deepStrictEqual(nums(await evalTop(dc, 'to_light - (u_light_pos[i] - v_world_pos)')), [0, 0, 0],
                           'to_light was computed from the parameter i');

    // Locals: the whole vector.
    let { ref } = await scope(dc, 'Locals');
    const set = await setAndStop(dc, { variablesReference: ref, name: 'to_light', value: 'vec3(3.0, 4.0, 0.0)' });
    assert.strictEqual(set.value, 'vec3(3, 4, 0)');
    assert.strictEqual(set.type, 'vec3');
    assert.deepStrictEqual(nums(await evalTop(dc, 'to_light')), [3, 4, 0]);
    const { top } = await scope(dc, 'Locals');
    assert.strictEqual(top.line, LINE_DIST, 'the same stop');
    await stepNext(dc);
    close(Number(await evalTop(dc, 'dist')), 5, 'dist = length(vec3(3, 4, 0))');

    // The Warp scope: another active, non-helper lane's dist.
    const w0 = (await dc.send('glreplay/evaluateWarp', { expression: 'dist' })).body;
    const other = w0.lanes.find(l => l.state === 'active' && !l.helper && l.lane !== w0.focusLane);
    assert.ok(other, 'another active lane in the warp');
    const tlOther = nums((await dc.send('glreplay/evaluateWarp', { expression: 'to_light' })).body.lanes[other.lane].value);
    ({ ref } = await scope(dc, 'Warp'));
    const distVar = (await dc.variablesRequest({ variablesReference: ref })).body.variables.find(v => v.name === 'dist');
    const laneEntry = (await dc.variablesRequest({ variablesReference: distVar.variablesReference })).body.variables[other.lane];
    await setAndStop(dc, { variablesReference: distVar.variablesReference, name: laneEntry.name, value: '7.0' });
    const w1 = (await dc.send('glreplay/evaluateWarp', { expression: 'dist' })).body;
    close(Number(w1.lanes[other.lane].value), 7, `lane ${other.lane} dist`);
    close(Number(w1.lanes[w1.focusLane].value), 5, 'the focused lane keeps its value');
    w0.lanes.forEach((l, i) => {
        if (i !== other.lane && l.value !== undefined)
            assert.strictEqual(w1.lanes[i].value, l.value, `lane ${i} unchanged`);
    });
    await stepNext(dc);   // vec3 l = to_light / dist;
    const lx = (await dc.send('glreplay/evaluateWarp', { expression: 'l.x' })).body;
    close(Number(lx.lanes[other.lane].value), tlOther[0] / 7, `lane ${other.lane} l.x`);
    close(Number(lx.lanes[lx.focusLane].value), 3 / 5, 'focused l.x');

    // A component of a vector (Locals -> to_light -> y), an expression as value.
    ({ ref } = await scope(dc, 'Locals'));
    const tl = (await dc.variablesRequest({ variablesReference: ref })).body.variables.find(v => v.name === 'to_light');
    assert.ok(tl.variablesReference > 0);
    await setAndStop(dc, { variablesReference: tl.variablesReference, name: 'y', value: '8' });
    assert.deepStrictEqual(nums(await evalTop(dc, 'to_light')), [3, 8, 0]);
    ({ ref } = await scope(dc, 'Locals'));
    await setAndStop(dc, { variablesReference: ref, name: 'dist', value: 'dist * 2.0' });
    close(Number(await evalTop(dc, 'dist')), 10, 'dist * 2');

    // Refusals: component count, a uniform, an unknown name.
    ({ ref } = await scope(dc, 'Locals'));
    await assert.rejects(dc.send('setVariable', { variablesReference: ref, name: 'to_light', value: 'vec2(1.0, 2.0)' }),
                         /has 2 component\(s\), the variable 3/);
    await assert.rejects(dc.send('setVariable', { variablesReference: ref, name: 'nope', value: '1.0' }), /no variable 'nope'/);
    const uref = (await scope(dc, 'Uniforms')).ref;
    await assert.rejects(dc.send('setVariable', { variablesReference: uref, name: 'u_shininess', value: '1.0' }),
                         /only Locals and the Warp scope/);

    // A parameter: the callee's n (main's own n is another variable).
    const mainN = nums((await dc.evaluateRequest({ expression: 'n', frameId:
        (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[1].id, context: 'watch' })).body.result);
    ({ ref } = await scope(dc, 'Locals'));
    await setAndStop(dc, { variablesReference: ref, name: 'n', value: 'vec3(0.0, 0.0, 1.0)' });
    assert.deepStrictEqual(nums(await evalTop(dc, 'n')), [0, 0, 1]);
    const st2 = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    const mainN2 = nums((await dc.evaluateRequest({ expression: 'n', frameId: st2[1].id, context: 'watch' })).body.result);
    mainN2.forEach((v, k) => close(v, mainN[k], `main's n[${k}]`));

    // restart: the values are forgotten.
    stopped = dc.waitForEvent('stopped');
    await dc.send('restart', {});
    await stopped;
    nums(await evalTop(dc, 'to_light')).forEach((v, k) => close(v, captured[k], `captured to_light[${k}]`));
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapv-'));
    const capture = path.join(tmp, 'lit.glcap');
    const lc = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', '96x64'], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: capture },
        encoding: 'utf8', timeout: 120000 });
    assert.strictEqual(lc.status, 0, `capture failed: ${lc.stderr}`);
    const srv = await server(capture, tmp, 's');
    const sock = srv.sock;
    try {
        await checks(sock);
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_setvar: ${received.length} messages match the DebugProtocol types`);
    } finally {
        await srv.stop();
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_setvar: all checks passed');
}

main().catch(e => { console.error('dap_setvar: FAIL:', e && e.stack || e); process.exit(1); });
