#!/usr/bin/env node
// The stdio form of the DAP server, driven by Microsoft's DAP test client (npm
// @vscode/debugadapter-testsupport) in its stdio mode, as editors that start an adapter process
// use it (Helix, Zed, Emacs, Eclipse, nvim-dap): `glreplay dap --stdio F.glcap` on a capture of
// samples/lit_mesh (a breakpoint in the sky shader file stops, the stack and variables answer,
// continue, disconnect, the process exits 0); then `glreplay dap --stdio --connect P` relaying to
// a `glreplay dap --socket P` server, with the same session.
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
    if (!env[k]) { console.error(`dap_stdio: ${k} is not set`); process.exit(2); }
}
const { DebugClient } = require(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'));
const SKY = path.join(env.SHADER_DIR, 'sky.frag');
const LINE = fs.readFileSync(SKY, 'utf8').split('\n').findIndex(l => l.includes('vec3 color = mix')) + 1;

async function session(dc, what) {
    await dc.start();
    // The server sends `initialized` right after the initialize response: listen before asking.
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest({ adapterID: 'glreplay', linesStartAt1: true, columnsStartAt1: true, pathFormat: 'path' });
    const attach = dc.attachRequest({});
    await initialized;
    const bp = await dc.setBreakpointsRequest({ source: { path: SKY }, breakpoints: [{ line: LINE, hitCondition: '10' }] });
    assert.ok(bp.body.breakpoints[0].verified, `${what}: breakpoint not verified`);
    const stopped = dc.waitForEvent('stopped', 60000);
    await dc.configurationDoneRequest();
    await attach;
    const ev = await stopped;
    assert.strictEqual(ev.body.reason, 'breakpoint', `${what}: stopped for ${ev.body.reason}`);
    const st = await dc.stackTraceRequest({ threadId: ev.body.threadId });
    assert.strictEqual(st.body.stackFrames[0].line, LINE, `${what}: stopped on line ${st.body.stackFrames[0].line}`);
    const scopes = await dc.scopesRequest({ frameId: st.body.stackFrames[0].id });
    const vars = await dc.variablesRequest({ variablesReference: scopes.body.scopes[0].variablesReference });
    assert.ok(vars.body.variables.some(v => v.name === 't'), `${what}: no variable t`);
    // The adapter process ends by itself after the disconnect, with status 0.
    const proc = dc._adapterProcess;
    const exited = new Promise(res => { if (proc.exitCode !== null) res(proc.exitCode); else proc.once('exit', res); });
    await dc.disconnectRequest({});
    const code = await Promise.race([exited, new Promise(res => setTimeout(() => res('still running after 20 s'), 20000))]);
    assert.strictEqual(code, 0, `${what}: the adapter process ended with ${code}`);
    dc.stopAdapter();
    console.log(`${what}: stopped at hit 10 of sky.frag:${LINE}, ${vars.body.variables.length} locals; disconnected`);
}

// An awaited promise nobody settles would let node exit 0 with the test half done: fail unless PASS.
process.exitCode = 1;

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-stdio-'));
    const cap = path.join(tmp, 'lit.glcap');
    try {
        const r = cp.spawnSync(env.LIT_MESH, ['--frames', '3', '--size', '160x90'], {
            env: Object.assign({}, env, { LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '2', GLREPLAY_CAPTURE_OUT: cap }),
            timeout: 120000 });
        assert.ok(fs.existsSync(cap), `lit_mesh was not captured: ${r.stderr}`);
        // DebugClient spawns `runtime executable`: a one-line script gives it the verb's arguments.
        const serve = path.join(tmp, 'serve.sh');
        fs.writeFileSync(serve, `exec "${env.GLREPLAY}" dap --stdio "${cap}"\n`);
        const dc = new DebugClient('sh', serve, 'glreplay');
        dc.defaultTimeout = 60000;
        await session(dc, 'dap --stdio F.glcap');

        const sock = path.join(tmp, 's', 'dap.sock');
        const srv = cp.spawn(env.GLREPLAY, ['dap', '--socket', sock, cap], { stdio: ['ignore', 'pipe', 'inherit'] });
        await new Promise((res, rej) => { srv.stdout.once('data', res); srv.once('exit', c => rej(new Error(`dap --socket exited ${c}`))); });
        const relay = path.join(tmp, 'relay.sh');
        fs.writeFileSync(relay, `exec "${env.GLREPLAY}" dap --stdio --connect "${sock}"\n`);
        const dc2 = new DebugClient('sh', relay, 'glreplay');
        dc2.defaultTimeout = 60000;
        await session(dc2, 'dap --stdio --connect P');
        srv.kill('SIGTERM');
        // Bad use: one line on stderr, exit 2 (nothing on stdout, which belongs to the protocol).
        const bad = cp.spawnSync(env.GLREPLAY, ['dap', '--stdio'], { encoding: 'utf8' });
        assert.strictEqual(bad.status, 2);
        assert.strictEqual(bad.stdout, '');
        assert.strictEqual(bad.stderr.trim().split('\n').length, 1);
        console.log('PASS');
        process.exitCode = 0;
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}
main().catch(e => { console.error('FAIL:', e.stack || e); process.exit(1); });
