#!/usr/bin/env node
// Uniform-block members in the variables view (issue 14), end to end with Microsoft's DAP client
// over the Unix socket of `glreplay dap`, on a capture of piglit's
// arb_uniform_buffer_object/execution/fs-array-of-structs-std140-indirect (a program nobody here
// wrote): its fragment shader reads `layout(std140) uniform Block { S s[2]; }` with
// S = { float x; float y; vec2 zw; } (members not vec4-aligned, array stride 16). Stopped at the
// FS main (a function breakpoint), the Uniforms scope holds `Block`, and its members expand to the
// values the test's [test] section put in the buffer: s[0] = {0.1, 0.2, (0.3, 0.4)},
// s[1] = {0.5, 0.6, (0.7, 0.8)}; `evaluate` reaches them as Block.s[1].zw.y.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, NODE_MODULES; PIGLIT (optional).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_blocks: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_blocks: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const TEST = path.join(PIGLIT, 'tests/spec/arb_uniform_buffer_object/execution/fs-array-of-structs-std140-indirect.shader_test');
assert.ok(fs.existsSync(TEST), `${TEST} is missing (Debian package piglit)`);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const { server, connectInit } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);
const close = (a, b, what) => assert.ok(Math.abs(a - b) <= 1e-6, `${what}: ${a} vs ${b}`);
const nums = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };

async function checks(sock) {
    const { dc } = await connectInit(sock, 30000);
    const attachP = dc.attachRequest({});
    await dc.send('setFunctionBreakpoints', { breakpoints: [{ name: 'fragment:main' }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    assert.strictEqual((await stopped).body.reason, 'function breakpoint');
    const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    const uref = (await dc.scopesRequest({ frameId: top.id })).body.scopes.find(s => s.name === 'Uniforms').variablesReference;
    const vars = async ref => (await dc.variablesRequest({ variablesReference: ref })).body.variables;
    const block = (await vars(uref)).find(v => v.name === 'Block');
    assert.ok(block && block.variablesReference > 0, 'Block in Uniforms');
    const s = (await vars(block.variablesReference)).find(v => v.name === 's');
    assert.strictEqual(s.type, 'S[2]');
    const elems = await vars(s.variablesReference);
    assert.deepStrictEqual(elems.map(e => e.name), ['[0]', '[1]']);
    const want = [[0.1, 0.2, [0.3, 0.4]], [0.5, 0.6, [0.7, 0.8]]];
    for (let i = 0; i < 2; i++) {
        const m = await vars(elems[i].variablesReference);
        const by = Object.fromEntries(m.map(v => [v.name, v.value]));
        close(Number(by.x), want[i][0], `s[${i}].x`);
        close(Number(by.y), want[i][1], `s[${i}].y`);
        nums(by.zw).forEach((v, k) => close(v, want[i][2][k], `s[${i}].zw[${k}]`));
    }
    const r = await dc.evaluateRequest({ expression: 'Block.s[1].zw.y', frameId: top.id, context: 'watch' });
    close(Number(r.body.result), 0.8, 'evaluate Block.s[1].zw.y');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapb-'));
    try {
        const capture = path.join(tmp, 'ubo.glcap');
        const pc = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', capture, '--',
            path.join(PIGLIT, 'bin', 'shader_runner'), TEST, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(pc.status === 0 && fs.existsSync(capture), `piglit capture failed: ${(pc.stderr || '').slice(-400)}`);
        const srv = await server(capture, tmp, 's');
        const sock = srv.sock;
        try {
            await checks(sock);
        } finally {
            await srv.stop();
        }
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_blocks: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_blocks: all checks passed');
}

main().catch(e => { console.error('dap_blocks: FAIL:', e && e.stack || e); process.exit(1); });
