#!/usr/bin/env node
// Stepping without re-running the frame, and backwards (issues 17 §2, 15 §5), end to end with
// Microsoft's DAP client (@vscode/debugadapter-testsupport's DebugClient) over the Unix socket of
// `glreplay dap`, on a capture of samples/lit_mesh and one of glmark2's `function` scene (a program
// nobody here wrote: its fragment shader calls a function, so steps go in and out of calls).
//
// For each capture, two servers: the default one (kept stops: a step back shows the previous stop
// again) and one with GLREPLAY_DAP_HISTORY=0, where every step back and every step forward after it
// runs the GPU model (a pass that finds the lane's previous statement, a pass to a position). The
// state at a stop is every variable of the Locals, Warp (all 32 lanes) and Built-ins scopes, plus
// the line and the stop's thread name. Checked:
//  - supportsStepBack is advertised;
//  - next/stepIn/stepOut go on from the stop (the stops are those of a step replayed from scratch:
//    the no-history server's `next` after a step back re-runs the frame to get there);
//  - stepBack after steps returns to each earlier stop with the identical state, and stepping
//    forward again returns to the later ones identically, on both servers (one from kept stops,
//    one through the model);
//  - stepBack from the breakpoint's stop goes to the lane's previous statement (an earlier line),
//    and `next` from there comes back to the breakpoint's stop with the identical state;
//  - reverseContinue goes back to the previous matching hit (same state as when continue reached
//    it), and says so when there is none;
//  - a step past the invocation's end says the invocation finished and keeps the view;
//  - every message type-checks against the protocol's debugProtocol.d.ts.
//
// Environment: GLREPLAY, LIT_MESH, SHADER_DIR, NODE_MODULES as dap_e2e.js; GLMARK2 (the glmark2
// executable; required). DISPLAY must reach an X server.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES', 'GLMARK2']) {
    if (!env[k]) { console.error(`dap_step_back: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_step_back: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const log = t => { if (env.DAP_STEP_BACK_VERBOSE) console.log('dap_step_back: ' + t); };

const { server } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

// A session stopped at the first stop of `bps` (setBreakpoints arguments).
async function open(sock, bps) {
    const dc = new UnixDebugClient(sock);
    dc.defaultTimeout = 60000;
    await dc.start();
    const initializedP = dc.waitForEvent('initialized');
    const init = await dc.initializeRequest();
    assert.strictEqual(init.body.supportsStepBack, true, 'supportsStepBack');
    await initializedP;
    const attachP = dc.attachRequest({});
    const r = await dc.setBreakpointsRequest(bps);
    assert.ok(r.body.breakpoints.every(b => b.verified), JSON.stringify(r.body));
    const stoppedP = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    const ev = await stoppedP;
    assert.strictEqual(ev.body.reason, 'breakpoint', JSON.stringify(ev.body));
    return dc;
}

// Everything the client can see of the stop.
async function state(dc) {
    const th = await dc.threadsRequest();
    const st = await dc.stackTraceRequest({ threadId: 1 });
    assert.ok(st.body.stackFrames.length > 0, 'no frames');
    const top = st.body.stackFrames[0];
    const sc = await dc.scopesRequest({ frameId: top.id });
    const out = { thread: th.body.threads[0].name, line: top.line, depth: st.body.stackFrames.length, scopes: {} };
    for (const s of sc.body.scopes) {
        if (!['Locals', 'Warp', 'Built-ins'].includes(s.name))
            continue;
        const vars = await dc.variablesRequest({ variablesReference: s.variablesReference });
        const vals = {};
        for (const v of vars.body.variables) {
            vals[v.name] = v.value;
            if (s.name === 'Warp' && v.variablesReference > 0) {   // every lane's value
                const lanes = await dc.variablesRequest({ variablesReference: v.variablesReference });
                vals[v.name] = lanes.body.variables.map(l => `${l.name}=${l.value}`).join(';');
            }
        }
        out.scopes[s.name] = vals;
    }
    return out;
}

// Sends a stepping request and waits for its stop; returns the stopped event.
async function go(dc, cmd) {
    const stoppedP = dc.waitForEvent('stopped');
    const r = await dc.send(cmd, { threadId: 1 });
    assert.ok(r.success, `${cmd}: ${r.message}`);
    return stoppedP;
}

// Steps forward with `steps`, back all the way, forward again; the states must repeat exactly.
async function roundTrip(dc, steps, what) {
    const seen = [await state(dc)];
    const done = [];   // the steps that moved (a step past the invocation's end keeps the view)
    for (const s of steps) {
        const ev = await go(dc, s);
        assert.strictEqual(ev.body.reason, 'step', `${what}: ${s}: ${JSON.stringify(ev.body)}`);
        if (ev.body.description === 'the focused invocation finished') {
            assert.deepStrictEqual(await state(dc), seen[seen.length - 1], `${what}: ${s} past the end keeps the view`);
            continue;
        }
        done.push(s);
        seen.push(await state(dc));
    }
    steps = done;
    assert.ok(new Set(seen.map(x => `${x.line}/${x.depth}/${JSON.stringify(x.scopes.Locals)}`)).size > 2,
              `${what}: the steps did not move: ${seen.map(x => x.line)}`);
    for (let i = seen.length - 2; i >= 0; i--) {
        await go(dc, 'stepBack');
        assert.deepStrictEqual(await state(dc), seen[i], `${what}: step back to stop ${i}`);
    }
    for (let i = 1; i < seen.length; i++) {
        await go(dc, steps[i - 1]);
        assert.deepStrictEqual(await state(dc), seen[i], `${what}: ${steps[i - 1]} forward again to stop ${i}`);
    }
    return seen;
}

// steps: next/stepIn from statement starts only: through the model, a step back goes to the start
// of the previous statement, as gdb's reverse-next does (or, where a call returned to, the callee's
// last statement), which is where those steps came from; mixed: any steps, kept stops only (after
// a stepOut, or a `next` out of a callee, the way back through the model is another: the statement
// start, not the middle of the line the call returned to).
async function scenario(name, capture, bps, steps, mixed) {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-stepback-'));
    const kept = await server(capture, tmp, 'a');
    const model = await server(capture, tmp, 'b', { GLREPLAY_DAP_HISTORY: '0' });
    try {
        const results = {};
        for (const [label, srv] of [['kept stops', kept], ['model', model]]) {
            const dc = await open(srv.sock, bps);
            const first = await state(dc);
            const seen = await roundTrip(dc, steps, `${name} (${label})`);
            results[label] = seen;
            // Back to the breakpoint's stop, then one statement further back: an earlier line of
            // the same invocation; `next` returns to the breakpoint's stop exactly.
            for (let i = 1; i < seen.length; i++)
                await go(dc, 'stepBack');
            assert.deepStrictEqual(await state(dc), first, `${name} (${label}): back at the breakpoint`);
            await go(dc, 'stepBack');
            const before = await state(dc);
            assert.strictEqual(before.thread, first.thread, `${name} (${label}): same warp`);
            assert.ok(before.line < first.line || before.depth !== first.depth,
                      `${name} (${label}): step back from line ${first.line} went to ${before.line}`);
            await go(dc, 'next');
            assert.deepStrictEqual(await state(dc), first, `${name} (${label}): next from the previous statement`);
            // reverseContinue: continue twice, then back to each hit.
            const hits = [first];
            for (let k = 0; k < 2; k++) {
                const ev = await go(dc, 'continue');
                assert.strictEqual(ev.body.reason, 'breakpoint', JSON.stringify(ev.body));
                hits.push(await state(dc));
            }
            for (let k = 1; k >= 0; k--) {
                const ev = await go(dc, 'reverseContinue');
                assert.strictEqual(ev.body.reason, 'breakpoint', JSON.stringify(ev.body));
                assert.deepStrictEqual(await state(dc), hits[k], `${name} (${label}): reverseContinue to hit ${k}`);
            }
            // Only thread 1 goes back; a bad threadId is refused, not taken as thread 1.
            for (const threadId of [2, 'x', 1.5]) {
                const r = await dc.send('stepBack', { threadId }).then(() => null, e => e);
                assert.ok(r && /only thread 1/.test(r.message), `stepBack threadId ${threadId}: ${r && r.message}`);
            }
            const none = await go(dc, 'reverseContinue');
            assert.match(none.body.description, /no earlier breakpoint hit/, JSON.stringify(none.body));
            assert.deepStrictEqual(await state(dc), first, `${name} (${label}): the view stays`);
            // Past the invocation's end: stepOut of main.
            let ev = await go(dc, 'stepOut');
            while (ev.body.description !== 'the focused invocation finished')
                ev = await go(dc, 'stepOut');
            assert.ok((await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames.length > 0, 'the view stays');
            dc.stopAdapter();
            log(`${name} (${label}): lines ${seen.map(x => x.line).join(' ')}, back to line ${before.line}`);
        }
        const dc = await open(kept.sock, bps);
        const seen = await roundTrip(dc, mixed, `${name} (kept stops, ${mixed.join(' ')})`);
        log(`${name} (kept stops, ${mixed.join(' ')}): lines ${seen.map(x => x.line).join(' ')}`);
        dc.stopAdapter();
        // The two ways reach the same stops.
        assert.deepStrictEqual(results.model, results['kept stops'], `${name}: model vs kept stops`);
        console.log(`dap_step_back: ${name}: ${steps.length} steps (lines ${results.model.map(x => x.line).join(' ')}) ` +
                    'back and forth, identical on both servers');
    } finally {
        await kept.stop();
        await model.stop();
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-stepback-cap-'));
    try {
        const lit = path.join(tmp, 'lit.glcap');
        let r = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--count', '2', '--out', lit, '--', env.LIT_MESH,
            '--size', '160x90', '--frames', '3'], { encoding: 'utf8', timeout: 120000 });
        assert.strictEqual(r.status, 0, r.stdout + r.stderr);
        const mesh = path.join(env.SHADER_DIR, 'mesh.frag');
        const lines = fs.readFileSync(mesh, 'utf8').split('\n');
        const line = lines.findIndex(l => l.includes('float dist = length')) + 1;
        await scenario('lit_mesh', lit, { source: { path: mesh }, breakpoints: [{ line, hitCondition: '% 150' }] },
                       ['next', 'next', 'next', 'next', 'next'],
                       ['next', 'stepOut', 'next', 'stepIn']);

        const gm = path.join(tmp, 'glmark2.glcap');
        r = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '3', '--out', gm, '--', env.GLMARK2, '-s', '160x120',
            '-b', 'function:fragment-steps=3:fragment-function=true:nframes=6'], { encoding: 'utf8', timeout: 120000 });
        assert.strictEqual(r.status, 0, r.stdout + r.stderr);
        // glmark2 builds its shader text at run time: the captured fragment shader by reference.
        const srv = await server(gm, tmp, 'list');
        let ref = 0, callLine = 0;
        try {
            const dc = new UnixDebugClient(srv.sock);
            await dc.start();
            await dc.initializeRequest();
            for (const cmd of ['stepBack', 'reverseContinue']) {   // nothing to go back from
                const e = await dc.send(cmd, { threadId: 1 }).then(() => null, err => err);
                assert.ok(e && /not stopped/.test(e.message), `${cmd} before any stop: ${e && e.message}`);
            }
            const ls = await dc.send('loadedSources', {});
            for (const s of ls.body.sources) {
                const src = await dc.sourceRequest({ sourceReference: s.sourceReference, source: s });
                const at = src.body.content.split('\n').findIndex(l => l.includes('d = process(d);'));
                if (at >= 0) { ref = s.sourceReference; callLine = at + 1; }
            }
            dc.stopAdapter();
        } finally {
            await srv.stop();
        }
        assert.ok(ref > 0, 'no fragment shader calling process() in the glmark2 capture');
        await scenario('glmark2 function', gm,
                       { source: { sourceReference: ref, name: 'glmark2.frag' }, breakpoints: [{ line: callLine, hitCondition: '% 700' }] },
                       ['next', 'next', 'stepIn', 'next'],
                       ['stepIn', 'next', 'stepOut', 'next']);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
    assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
    console.log(`dap_step_back: ${received.length} messages match the DebugProtocol types; all checks passed`);
}

main().catch(e => { console.error('dap_step_back: FAIL:', e && e.stack || e); process.exit(1); });
