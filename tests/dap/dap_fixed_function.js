#!/usr/bin/env node
// The fixed-function sources the GPU model generates, in the debugger (issue 12), end to end with
// Microsoft's DAP client over the Unix socket of `glreplay dap`, on a mid-run frame of glxgears
// (mesa-utils: every draw is a glBegin/glEnd inside a display list, no GLSL at all):
//   * `glreplay debug --list` names the generated vertex and fragment shaders;
//   * loadedSources lists them with a sourceReference, `source` serves their text (the GLSL the
//     model runs, whose comments name the state it was made for);
//   * a breakpoint on a line of the generated fragment shader is verified and stops there (reason
//     breakpoint) in a fragment warp, the stack frame's source is that shader, its variables are the
//     shader's (`primary`, the interpolated colour); `next` steps to the following line; a breakpoint
//     on a line without code is unverified or moved to a line with code;
//   * glreplay/debugPixel on a pixel of a gear stops in the generated fragment shader at that pixel,
//     and glreplay/debugVertex {draw 0, index 5} in the generated vertex shader on that vertex's lane;
//   * `glreplay debug --break fixed-function-0-FS.frag:LINE` stops there too.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, GLXGEARS, NODE_MODULES; DISPLAY reaches an X server.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLXGEARS', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_fixed_function: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_fixed_function: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
if (!env.DISPLAY) {
    console.log('dap_fixed_function: SKIP: no X server (DISPLAY unset)');
    process.exit(77);
}
const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));

async function capture(out) {
    const p = cp.spawn(env.GLREPLAY, ['capture', '--frame', '10', '--out', out, '--', env.GLXGEARS], { stdio: 'ignore' });
    const done = new Promise(r => p.on('exit', r));
    for (let i = 0; i < 600 && !fs.existsSync(out); i++) await new Promise(r => setTimeout(r, 100));
    await new Promise(r => setTimeout(r, 300));   // written then renamed: complete once it exists
    p.kill('SIGTERM');   // forwarded to glxgears, which never exits by itself
    await done;
    assert.ok(fs.existsSync(out), 'no capture of glxgears written');
}

const { server, connect } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

// The focused lane's pixel, from the Built-ins scope (gl_FragCoord.xy).
async function fragXY(dc, frameId) {
    const sc = (await dc.scopesRequest({ frameId })).body.scopes.find(x => x.name === 'Built-ins');
    const vars = (await dc.variablesRequest({ variablesReference: sc.variablesReference })).body.variables;
    const v = vars.find(x => x.name.startsWith('gl_FragCoord'));
    assert.ok(v, JSON.stringify(vars));
    return (v.value.replace(/^[a-z]+\d*\(/, '').match(/-?[\d.]+/g) || []).slice(0, 2).map(n => Math.floor(Number(n)));
}

async function top(dc) {
    return (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-ff-'));
    fs.chmodSync(tmp, 0o700);
    let fsLine = 0;
    try {
        const cap = path.join(tmp, 'gears.glcap');
        await capture(cap);
        const list = cp.spawnSync(env.GLREPLAY, ['debug', cap, '--list'], { encoding: 'utf8' });
        assert.strictEqual(list.status, 0, list.stderr);
        assert.match(list.stdout, /fixed-function-0-VS\.vert +VS/);
        assert.match(list.stdout, /fixed-function-0-FS\.frag +FS/);

        const srv = await server(cap, tmp);
        try {
            const dc = await connect(srv.sock);
            const attached = dc.attachRequest({});
            const sources = (await dc.send('loadedSources')).body.sources;
            const fsSrc = sources.find(s => s.name === 'fixed-function-0-FS.frag');
            const vsSrc = sources.find(s => s.name === 'fixed-function-0-VS.vert');
            assert.ok(fsSrc && vsSrc && fsSrc.sourceReference > 0 && vsSrc.sourceReference > 0, JSON.stringify(sources));
            const fsText = (await dc.send('source', { source: fsSrc, sourceReference: fsSrc.sourceReference })).body.content;
            const vsText = (await dc.send('source', { source: vsSrc, sourceReference: vsSrc.sourceReference })).body.content;
            assert.match(vsText, /gl_Position = /, 'the generated vertex shader');
            const lines = fsText.split('\n');
            const line = lines.findIndex(l => /vec4 prev = primary;/.test(l)) + 1;
            fsLine = line;
            assert.ok(line > 0, fsText);
            const blank = lines.findIndex(l => l.trim() === '') + 1;
            if (blank > 0) {
                const b = (await dc.setBreakpointsRequest({ source: fsSrc, breakpoints: [{ line: blank }] })).body.breakpoints[0];
                assert.ok(!b.verified || b.line !== blank, `a line without code: ${JSON.stringify(b)}`);
            }
            const bps = (await dc.setBreakpointsRequest({ source: fsSrc, breakpoints: [{ line }] })).body.breakpoints;
            assert.strictEqual(bps[0].verified, true, JSON.stringify(bps[0]));
            let stopped = dc.waitForEvent('stopped');
            await dc.configurationDoneRequest();
            await attached;
            let st = await stopped;
            assert.strictEqual(st.body.reason, 'breakpoint', JSON.stringify(st.body));
            assert.match(st.body.description, /· FS ·/);
            let frame = await top(dc);
            assert.strictEqual(frame.source.sourceReference, fsSrc.sourceReference);
            assert.strictEqual(frame.line, line);
            const primary = (await dc.evaluateRequest({ expression: 'primary', frameId: frame.id, context: 'watch' })).body.result;
            assert.match(primary, /^vec4\(/);
            stopped = dc.waitForEvent('stopped');
            await dc.nextRequest({ threadId: 1 });
            st = await stopped;
            frame = await top(dc);
            assert.ok(frame.line > line, `next went on to line ${frame.line}`);

            // Debug a pixel of a gear, then a vertex: the generated stages.
            await dc.setBreakpointsRequest({ source: fsSrc, breakpoints: [] });
            // a pixel near the stopped lane's that a draw wrote (some fragments fail the depth test)
            const [fx, fy] = await fragXY(dc, frame.id);
            let px = -1, py = -1;
            for (let d = 0; d < 40 && px < 0; d++) {
                for (const [cx, cy] of [[fx + d, fy], [fx - d, fy], [fx, fy + d], [fx, fy - d]]) {
                    const h = (await dc.send('glreplay/pixelHistory', { x: cx, y: cy, driver: false })).body;
                    if (h.events.some(e => e.draw !== undefined && !e.rejected)) { px = cx; py = cy; break; }
                }
            }
            assert.ok(px >= 0, 'a pixel written by a gear');
            stopped = dc.waitForEvent('stopped');
            const ans = (await dc.send('glreplay/debugPixel', { x: px, y: py })).body;
            assert.strictEqual(ans.shader, 'fixed-function-0-FS.frag', JSON.stringify(ans));
            st = await stopped;
            assert.strictEqual(st.body.reason, 'entry');
            frame = await top(dc);
            assert.strictEqual(frame.source.sourceReference, fsSrc.sourceReference);
            assert.deepStrictEqual(await fragXY(dc, frame.id), [px, py]);
            stopped = dc.waitForEvent('stopped');
            const va = (await dc.send('glreplay/debugVertex', { draw: 0, index: 5 })).body;
            assert.strictEqual(va.shader, 'fixed-function-0-VS.vert');
            st = await stopped;
            assert.match(st.body.description, /invocation of vertex 5 \(instance 0\) of draw 0/);
            frame = await top(dc);
            assert.strictEqual(frame.source.sourceReference, vsSrc.sourceReference);
            assert.strictEqual((await dc.evaluateRequest({ expression: 'gl_VertexID', frameId: frame.id, context: 'watch' })).body.result, '5');
            await dc.disconnectRequest({});
            dc.stopAdapter();
        } finally {
            await srv.stop();
        }
        const cli = cp.spawnSync(env.GLREPLAY, ['debug', cap, '--break', `fixed-function-0-FS.frag:${fsLine}`, '--json'],
                                 { encoding: 'utf8' });
        assert.strictEqual(cli.status, 0, cli.stderr);
        const j = JSON.parse(cli.stdout);
        assert.strictEqual(j.breakpoint.shaderLine, fsLine);
        assert.strictEqual(j.stage, 'FS');
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_fixed_function: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_fixed_function: all checks passed');
}

main().catch(e => { console.error('dap_fixed_function: FAIL:', e && e.stack || e); process.exit(1); });
