#!/usr/bin/env node
// The instructions under the lines (issue 15 §4) end to end, with Microsoft's DAP client over the
// Unix socket of `glreplay dap`, on a capture of samples/lit_mesh and of piglit's
// glsl-1.30 fs-isnan-vec2 (a program nobody here wrote):
//  * initialize advertises disassemble, instruction breakpoints and stepping granularity;
//  * a stop's top frame has an instructionPointerReference; `disassemble` around it returns
//    exactly instructionCount entries, the one at the pointer on the frame's line and file;
//  * every address of every captured shader is answered: from its first instruction, the valid
//    entries form one run (each with text, a symbol, and a line where the IR has one), then filler
//    marked invalid; a reference that is not an address is refused;
//  * `next` with granularity "instruction" moves the focused lane one IR instruction (pc + 1 in
//    straight-line code), where a line step moves to another line;
//  * an instruction breakpoint three instructions ahead stops there (reason "instruction
//    breakpoint"); one at an address of no shader is unverified.
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
    if (!env[k]) { console.error(`dap_instructions: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_instructions: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const NAN_TEST = path.join(PIGLIT, 'tests/spec/glsl-1.30/execution/fs-isnan-vec2.shader_test');
assert.ok(fs.existsSync(NAN_TEST), `${NAN_TEST} is missing (Debian package piglit)`);

const MESH = path.join(env.SHADER_DIR, 'mesh.frag');
const meshLines = fs.readFileSync(MESH, 'utf8').split('\n');
const LINE_DIST = meshLines.findIndex(l => l.includes('float dist = length(to_light)')) + 1;
assert.ok(LINE_DIST > 0);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const step = t => { if (env.DAP_E2E_VERBOSE) console.log('dap_instructions: ' + t); };
const big = s => BigInt(s);

const { server, connectInit } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);
const connect = sock => connectInit(sock, 30000);

const disasm = (dc, args) => dc.send('disassemble', args).then(r => r.body.instructions);

// Every captured shader: its whole listing from its first address.
async function everyAddress(dc) {
    const sources = (await dc.send('loadedSources', {})).body.sources;
    assert.ok(sources.length >= 2);
    let total = 0;
    for (const src of sources) {
        const base = '0x' + (BigInt(src.sourceReference) << 32n).toString(16);
        const ins = await disasm(dc, { memoryReference: base, instructionCount: 512, resolveSymbols: true });
        assert.strictEqual(ins.length, 512, 'exactly instructionCount entries');
        const valid = ins.findIndex(i => i.presentationHint === 'invalid');
        assert.ok(valid > 0, `${src.name}: a listing (${valid})`);
        ins.forEach((i, k) => {
            assert.strictEqual(big(i.address), big(base) + BigInt(k), 'consecutive addresses');
            if (k < valid) {
                assert.ok(i.instruction && i.instruction !== '??' && !i.presentationHint, `${src.name} pc ${k}: ${JSON.stringify(i)}`);
                assert.ok(i.symbol, `${src.name} pc ${k} has a symbol`);
                if (i.line !== undefined)
                    assert.ok(i.location && (i.location.sourceReference > 0 || i.location.path), 'a located line');
            } else {
                assert.strictEqual(i.presentationHint, 'invalid', `${src.name}: one valid run, then filler (pc ${k})`);
            }
        });
        assert.ok(ins.slice(0, valid).some(i => i.symbol === 'main'), `${src.name}: main is listed`);
        // Before the first address: filler too.
        const before = await disasm(dc, { memoryReference: base, instructionOffset: -3, instructionCount: 4 });
        assert.deepStrictEqual(before.map(i => i.presentationHint), ['invalid', 'invalid', 'invalid', undefined]);
        total += valid;
    }
    await assert.rejects(dc.send('disassemble', { memoryReference: 'v1.l0.o0', instructionCount: 1 }), /instruction address/);
    await assert.rejects(dc.send('disassemble', { memoryReference: '0x7fff00000000', instructionCount: 1 }), /no captured shader/);
    return total;
}

async function litMesh(sock) {
    const { dc, init } = await connect(sock);
    for (const c of ['supportsDisassembleRequest', 'supportsInstructionBreakpoints', 'supportsSteppingGranularity'])
        assert.strictEqual(init.body[c], true, c);
    const attachP = dc.attachRequest({});
    await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [{ line: LINE_DIST, hitCondition: '2' }] });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    assert.strictEqual((await stopped).body.reason, 'breakpoint');
    let top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    assert.strictEqual(top.line, LINE_DIST);
    const ip = top.instructionPointerReference;
    assert.match(ip, /^0x[0-9a-f]+$/, 'the top frame has an instruction pointer');

    // The listing around it: 10 before, the pointer, 9 after.
    const around = await disasm(dc, { memoryReference: ip, instructionOffset: -10, instructionCount: 20 });
    assert.strictEqual(around.length, 20);
    assert.strictEqual(big(around[10].address), big(ip));
    assert.strictEqual(around[10].line, LINE_DIST, 'the pointer is on the frame line');
    assert.strictEqual(around[10].location.path, MESH, 'in the file the breakpoint bound');
    assert.strictEqual(around[10].symbol, 'shade_light');
    // offset (bytes) moves like instructionOffset: one address per instruction.
    const byOffset = await disasm(dc, { memoryReference: ip, offset: -10, instructionCount: 20 });
    assert.deepStrictEqual(byOffset.map(i => i.address), around.map(i => i.address));
    step('disassemble around the stop');

    const n = await everyAddress(dc);
    step(`every address: ${n} instructions`);

    // Instruction steps: straight-line code inside `float dist = length(to_light);`.
    let pc = big(ip);
    for (let i = 0; i < 2; i++) {
        const text = around[10 + i].instruction;
        assert.ok(!/^(branch|call|return|kill|switch)/.test(text), `straight-line: ${text}`);
        stopped = dc.waitForEvent('stopped');
        await dc.nextRequest({ threadId: 1, granularity: 'instruction' });
        assert.strictEqual((await stopped).body.reason, 'step');
        top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
        assert.strictEqual(big(top.instructionPointerReference), pc + 1n, `instruction step ${i}: ${around[10 + i].instruction}`);
        pc += 1n;
    }
    step('instruction steps');

    // An instruction breakpoint 3 instructions ahead (same warp: the next stop), and one nowhere.
    const target = '0x' + (pc + 3n).toString(16);
    const ib = await dc.send('setInstructionBreakpoints', { breakpoints: [
        { instructionReference: target }, { instructionReference: '0x7fff00000000' }, { instructionReference: 'x' }] });
    const [good, nowhere, junk] = ib.body.breakpoints;
    assert.strictEqual(good.verified, true, JSON.stringify(good));
    assert.strictEqual(big(good.instructionReference), pc + 3n);
    assert.strictEqual(nowhere.verified, false);
    assert.match(nowhere.message, /no instruction of a captured shader/);
    assert.strictEqual(junk.verified, false);
    await dc.setBreakpointsRequest({ source: { path: MESH }, breakpoints: [] });
    stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    stopped = await stopped;
    assert.strictEqual(stopped.body.reason, 'instruction breakpoint', JSON.stringify(stopped.body));
    assert.deepStrictEqual(stopped.body.hitBreakpointIds, [good.id]);
    top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    assert.strictEqual(big(top.instructionPointerReference), pc + 3n);
    step('instruction breakpoint');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function piglit(sock) {
    // A line step and an instruction step from the same stop differ: the FS main of fs-isnan-vec2
    // is one line of several instructions.
    const { dc } = await connect(sock);
    const attachP = dc.attachRequest({});
    await dc.send('setFunctionBreakpoints', { breakpoints: [{ name: 'fs:main' }] });
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    assert.strictEqual((await stopped).body.reason, 'function breakpoint');
    const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    const ins = await disasm(dc, { memoryReference: top.instructionPointerReference, instructionCount: 8 });
    assert.ok(ins.filter(i => i.line === top.line).length >= 2, 'several instructions on the line');
    stopped = dc.waitForEvent('stopped');
    await dc.nextRequest({ threadId: 1, granularity: 'instruction' });
    await stopped;
    const after = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    assert.strictEqual(after.line, top.line, 'an instruction step stays on the line');
    assert.strictEqual(big(after.instructionPointerReference), big(top.instructionPointerReference) + 1n);
    assert.ok((await everyAddress(dc)) > 0);
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapi-'));
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
                await fn(srv.sock);
            } finally {
                await srv.stop();
            }
        }
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_instructions: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_instructions: all checks passed');
}

main().catch(e => { console.error('dap_instructions: FAIL:', e && e.stack || e); process.exit(1); });
