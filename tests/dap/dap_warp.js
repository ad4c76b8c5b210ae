#!/usr/bin/env node
// The whole warp and the whole frame at once (issue 15 §6) end to end, with Microsoft's DAP client
// over the Unix socket of `glreplay dap`, on captures of samples/lit_mesh and of piglit's
// glsl-1.30 fs-isnan-vec2:
//  * glreplay/evaluateWarp: an expression on all 32 lanes of the stop; each lane's value equals
//    that lane's entry of the variable in the Warp scope (another code path), the focused lane's
//    equals `evaluate`; a bad expression is refused with the evaluator's message;
//  * glreplay/heatmap: a fragment value over the frame as a PNG (its header has the frame's size)
//    plus the values: v_world_pos.x at the pixels of the stopped warp's lanes equals what the
//    stop shows for those lanes; min/max are the range of the values; on the piglit program, the
//    NaN of draw 0 covers every pixel with 1 for draw 0, and with 0 when draw 1 (no NaN) is the
//    last to cover it; a vertex shader, a line past the end or a bad expression is refused;
//  * `glreplay debug --break ... --heatmap EXPR --out MAP.png --json` gives the same numbers.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, SHADER_DIR, NODE_MODULES; PIGLIT (optional).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_warp: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_warp: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const NAN_TEST = path.join(PIGLIT, 'tests/spec/glsl-1.30/execution/fs-isnan-vec2.shader_test');
assert.ok(fs.existsSync(NAN_TEST), `${NAN_TEST} is missing (Debian package piglit)`);
const MESH = path.join(env.SHADER_DIR, 'mesh.frag');
const meshLines = fs.readFileSync(MESH, 'utf8').split('\n');
const LINE_DIST = meshLines.findIndex(l => l.includes('float dist = length(to_light)')) + 1;

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const step = t => { if (env.DAP_E2E_VERBOSE) console.log('dap_warp: ' + t); };
const nums = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };
const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-5 * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

const { server, connect } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

function pngSize(b64) {
    const b = Buffer.from(b64, 'base64');
    assert.strictEqual(b.subarray(0, 8).toString('hex'), '89504e470d0a1a0a', 'a PNG');
    assert.strictEqual(b.subarray(12, 16).toString(), 'IHDR');
    return [b.readUInt32BE(16), b.readUInt32BE(20)];
}

async function litMesh(sock, capture) {
    const dc = await connect(sock);
    const attachP = dc.attachRequest({});
    await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [{ line: LINE_DIST, hitCondition: '2' }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    await stopped;
    const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];

    // evaluateWarp vs the Warp scope's per-lane entries of `to_light`.
    const w = (await dc.send('glreplay/evaluateWarp', { expression: 'to_light', frameId: top.id })).body;
    assert.strictEqual(w.lanes.length, 32);
    const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
    const warp = scopes.find(s => s.name === 'Warp');
    const vars = (await dc.variablesRequest({ variablesReference: warp.variablesReference })).body.variables;
    const tl = vars.find(v => v.name === 'to_light');
    assert.ok(tl && tl.variablesReference > 0, 'to_light in the Warp scope');
    const perLane = (await dc.variablesRequest({ variablesReference: tl.variablesReference })).body.variables;
    assert.strictEqual(perLane.length, 32);
    let compared = 0;
    for (const row of w.lanes) {
        if (row.state !== 'active')
            continue;
        const entry = perLane[row.lane];
        assert.match(entry.name, new RegExp(`^lane ${row.lane}\\b`), entry.name);
        nums(row.value).forEach((v, k) => close(v, nums(entry.value)[k], `lane ${row.lane} to_light[${k}]`));
        assert.strictEqual(row.type, 'vec3');
        compared++;
    }
    assert.ok(compared >= 1, 'active lanes compared');
    const focus = w.lanes[w.focusLane];
    const ev = (await dc.evaluateRequest({ expression: 'to_light', frameId: top.id, context: 'watch' })).body.result;
    nums(ev).forEach((v, k) => close(v, nums(focus.value)[k], 'the focused lane'));
    await assert.rejects(dc.send('glreplay/evaluateWarp', { expression: 'no_such_name + 1', frameId: top.id }), /unknown variable/);
    step(`evaluateWarp: ${compared} active lanes`);

    // The heat map of an input at the same line: the stopped lanes' pixels hold their values.
    const wp = (await dc.send('glreplay/evaluateWarp', { expression: 'v_world_pos.x', frameId: top.id })).body;
    const hm = (await dc.send('glreplay/heatmap', { source: { path: MESH }, line: LINE_DIST, expression: 'v_world_pos',
                                                      component: 0, values: true })).body;
    assert.deepStrictEqual([hm.width, hm.height], [96, 64]);
    assert.deepStrictEqual(pngSize(hm.data), [96, 64]);
    assert.strictEqual(hm.mimeType, 'image/png');
    assert.strictEqual(hm.values.length, 96 * 64);
    const set = hm.values.filter(v => v !== null);
    assert.strictEqual(set.length, hm.pixels);
    assert.ok(hm.pixels > 100 && hm.fragments >= hm.pixels, `${hm.pixels} pixels, ${hm.fragments} fragments`);
    close(Math.min(...set), hm.min, 'min');
    close(Math.max(...set), hm.max, 'max');
    let checked = 0;
    for (const row of wp.lanes) {
        if (row.state !== 'active' || row.helper)
            continue;
        const v = hm.values[row.y * hm.width + row.x];
        assert.ok(v !== null, `pixel (${row.x}, ${row.y}) is in the map`);
        // lit_mesh draws its mesh once: the map's last arrival is this draw's fragment.
        close(v, Number(row.value), `pixel (${row.x}, ${row.y})`);
        checked++;
    }
    assert.ok(checked >= 1);
    step(`heatmap: ${hm.pixels} pixels, ${checked} checked against the stop`);
    // The CLI form (glreplay debug --heatmap) runs the same pass: the same numbers, a PNG file.
    const png = path.join(path.dirname(capture), 'map.png');
    const cli = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--break', `${MESH}:${LINE_DIST}`, '--heatmap', 'v_world_pos',
                                           '--component', '0', '--out', png, '--json'], { encoding: 'utf8', timeout: 60000 });
    assert.strictEqual(cli.status, 0, cli.stderr);
    const cj = JSON.parse(cli.stdout);
    for (const k of ['width', 'height', 'pixels', 'fragments', 'nan'])
        assert.strictEqual(cj[k], hm[k], `CLI ${k}`);
    close(cj.min, hm.min, 'CLI min');
    close(cj.max, hm.max, 'CLI max');
    assert.deepStrictEqual(pngSize(fs.readFileSync(png).toString('base64')), [96, 64]);
    const vsCli = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--break', 'program3-VS-shader1.vert:5', '--heatmap', '1.0',
                                             '--out', png], { encoding: 'utf8', timeout: 60000 });
    assert.strictEqual(vsCli.status, 2);
    assert.match(vsCli.stderr, /needs a fragment shader line/);
    // Refusals: a line past the shader's end, a vertex shader, an expression that does not parse.
    await assert.rejects(dc.send('glreplay/heatmap', { source: { path: MESH }, line: 5000, expression: '1.0' }), /line 5000/);
    const vs = (await dc.send('loadedSources', {})).body.sources.find(s => /-VS-/.test(s.name));
    await assert.rejects(dc.send('glreplay/heatmap', { shader: vs.sourceReference, line: 5, expression: '1.0' }), /not a fragment shader/);
    await assert.rejects(dc.send('glreplay/heatmap', { source: { path: MESH }, line: LINE_DIST, expression: 'x +' }), /heatmap/);
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function piglit(sock) {
    const dc = await connect(sock);
    const attachP = dc.attachRequest({});
    await dc.configurationDoneRequest();
    await attachP;
    const fsSrc = (await dc.send('loadedSources', {})).body.sources.find(s => /-FS-/.test(s.name));
    const text = (await dc.send('source', { source: fsSrc, sourceReference: fsSrc.sourceReference })).body.content;
    const line = text.split('\n').findIndex(l => l.includes('numerator/denominator')) + 1;
    const map = async draw => (await dc.send('glreplay/heatmap', { shader: fsSrc.sourceReference, line, values: true,
        expression: 'float(isnan(numerator.y / denominator.y))', ...(draw === undefined ? {} : { draw }) })).body;
    const d0 = await map(0), d1 = await map(1), all = await map();
    const vals = m => [...new Set(m.values.filter(v => v !== null))];
    assert.deepStrictEqual(vals(d0), [1], 'draw 0 divides 0 by 0 everywhere');
    assert.deepStrictEqual(vals(d1), [0], 'draw 1 does not');
    assert.deepStrictEqual(vals(all), [0], 'the last draw covers the first');
    assert.strictEqual(d0.pixels, all.pixels);
    assert.strictEqual(d0.pixels, d0.width * d0.height, 'draw rect -1 -1 2 2 covers the frame');
    step(`piglit heatmap: ${d0.pixels} pixels`);
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapw-'));
    try {
        const litCap = path.join(tmp, 'lit.glcap'), nanCap = path.join(tmp, 'nan.glcap');
        const lc = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', '96x64'], {
            env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: litCap },
            encoding: 'utf8', timeout: 120000 });
        assert.strictEqual(lc.status, 0, `capture failed: ${lc.stderr}`);
        const pc = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', nanCap, '--',
            path.join(PIGLIT, 'bin', 'shader_runner'), NAN_TEST, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(pc.status === 0 && fs.existsSync(nanCap), `piglit capture failed: ${(pc.stderr || '').slice(-400)}`);
        for (const [cap, name, fn] of [[litCap, 'l', litMesh], [nanCap, 'n', piglit]]) {
            const srv = await server(cap, tmp, name);
            try {
                await fn(srv.sock, cap);
            } finally {
                await srv.stop();
            }
        }
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_warp: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_warp: all checks passed');
}

main().catch(e => { console.error('dap_warp: FAIL:', e && e.stack || e); process.exit(1); });
