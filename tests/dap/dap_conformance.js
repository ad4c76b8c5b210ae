#!/usr/bin/env node
// The items of issue 14's "Protocol" list no other test covered (docs/DAP_CONFORMANCE.md), with
// Microsoft's DAP client over the Unix socket of `glreplay dap`, on a capture of piglit's
// shader_runner drawing tests/dap/conformance.shader_test (a fragment shader reading a std430
// storage block `Data { vec4 tint; float scale[3]; mat2 m; } data`, a uniform mat3 and a local mat2):
//  * storage-block members in the variables view (Uniforms scope: `data` expands to its members,
//    each with the value the [test] section wrote and an evaluateName) and in evaluate;
//  * matrices expand into columns and the columns into components, each with an evaluateName that
//    evaluate answers with the shown value;
//  * the hit conditions `< N`, `<= N` and `= N` (VS Code's JavaScript debugger's grammar): the stops
//    are exactly the hits the condition admits, then the frame's end.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, NODE_MODULES; PIGLIT optional.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_conformance: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_conformance: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const RUNNER = path.join(PIGLIT, 'bin', 'shader_runner');
assert.ok(fs.existsSync(RUNNER), `${RUNNER} is missing (Debian package piglit)`);
const TEST = path.join(__dirname, 'conformance.shader_test');
const FS = fs.readFileSync(TEST, 'utf8').split('[fragment shader]\n')[1].split('\n[test]')[0].split('\n');
const LINE_C = FS.findIndex(l => l.includes('vec4 c =')) + 1;
const LINE_OUT = FS.findIndex(l => l.includes('color = c;')) + 1;
assert.ok(LINE_C > 0 && LINE_OUT === LINE_C + 1);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));

async function session(sock, bps) {
    const dc = new UnixDebugClient(sock);
    dc.defaultTimeout = 30000;
    await dc.start();
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest();
    await initialized;
    const src = (await dc.send('loadedSources', {})).body.sources.find(s => /FS/.test(s.name));
    const attachP = dc.attachRequest({});
    const r = await dc.setBreakpointsRequest({ source: src, breakpoints: bps });
    assert.ok(r.body.breakpoints.every(b => b.verified), JSON.stringify(r.body));
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    return { dc, first: (await stopped).body };
}

const vars = async (dc, ref) => (await dc.variablesRequest({ variablesReference: ref })).body.variables;

async function variables(sock) {
    const { dc } = await session(sock, [{ line: LINE_OUT, hitCondition: '3' }]);
    const top = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
    const scopes = (await dc.scopesRequest({ frameId: top.id })).body.scopes;
    const byName = async name => Object.fromEntries((await vars(dc, scopes.find(s => s.name === name).variablesReference))
        .map(v => [v.name, v]));
    const ev = async e => (await dc.evaluateRequest({ expression: e, frameId: top.id, context: 'watch' })).body.result;
    // Every expandable value's children, to the leaves: each evaluateName evaluates to its value.
    async function leaves(v, out) {
        assert.ok(v.evaluateName, `${v.name} has an evaluateName`);
        assert.strictEqual(await ev(v.evaluateName), v.value, `evaluate ${v.evaluateName}`);
        out[v.evaluateName] = v.value;
        if (v.variablesReference > 0)
            for (const c of await vars(dc, v.variablesReference))
                await leaves(c, out);
        return out;
    }
    const uni = await byName('Uniforms');
    assert.ok(uni.data, `the storage block's instance is in Uniforms: ${Object.keys(uni)}`);
    const data = await leaves(uni.data, {});
    assert.strictEqual(data['data.tint'], 'vec4(0.25, 0.5, 0.75, 1)');
    assert.deepStrictEqual(['data.scale[0]', 'data.scale[1]', 'data.scale[2]'].map(k => data[k]), ['2', '3', '4']);
    assert.strictEqual(data['data.m'], 'mat2(1, 2, 3, 4)');
    assert.strictEqual(data['data.m[1]'], 'vec2(3, 4)');
    assert.strictEqual(data['data.m[1].y'], '4');
    const mat = await leaves(uni.u_mat, {});
    assert.deepStrictEqual(Object.keys(mat).filter(k => /^u_mat\[\d\]$/.test(k)), ['u_mat[0]', 'u_mat[1]', 'u_mat[2]']);
    assert.strictEqual(mat['u_mat[2]'], 'vec3(7, 8, 9)');
    assert.strictEqual(mat['u_mat[2].y'], '8');
    const loc = await byName('Locals');
    const local = await leaves(loc.local, {});
    assert.strictEqual(local.local, 'mat2(2, 4, 6, 8)', 'data.m * 2.0');
    assert.strictEqual(local['local[1].x'], '6');
    // What the shader computed from them: c = tint * scale[1] + vec4(local[1], u_mat[2].xy).
    assert.strictEqual(loc.c.value, 'vec4(6.75, 9.5, 9.25, 11)');
    assert.strictEqual(await ev('data.tint * data.scale[1] + vec4(local[1], u_mat[2].xy)'), loc.c.value);
    const n = await stableRefs(dc, top.id);
    // After a resume, the stop's references are new (the old ones are no longer valid).
    const before = (await dc.scopesRequest({ frameId: top.id })).body.scopes[0].variablesReference;
    const again = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    await again;
    const stale = await dc.variablesRequest({ variablesReference: before }).catch(e => e);
    assert.ok(stale instanceof Error, `reference ${before} of the last stop still answered: ${JSON.stringify(stale.body)}`);
    console.log(`dap_conformance: ${n} references stable within a stop, gone after the resume`);
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// A session whose breakpoints bind nowhere (or that has none) is told it stopped at the frame's end
// after configurationDone, and again after each continue: a client never shows "running" for ever.
async function nothingToStop(sock, tmp) {
    for (const kind of ['none', 'unbound']) {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 30000;
        await dc.start();
        const initialized = dc.waitForEvent('initialized');
        await dc.initializeRequest();
        await initialized;
        const attachP = dc.attachRequest({});
        if (kind === 'unbound') {
            const other = path.join(tmp, 'other.frag');
            fs.writeFileSync(other, '#version 430\nvoid main() { /* in no shader of the capture */ }\n');
            const r = await dc.setBreakpointsRequest({ source: { path: other }, breakpoints: [{ line: 2 }] });
            assert.ok(!r.body.breakpoints[0].verified, JSON.stringify(r.body));
        }
        const stopped = dc.waitForEvent('stopped', 10000);
        await dc.configurationDoneRequest();
        await attachP;
        const ev = (await stopped).body;
        assert.strictEqual(ev.description, 'end of frame', `${kind}: ${JSON.stringify(ev)}`);
        assert.ok(kind === 'none' ? /no breakpoints/.test(ev.text) : /no breakpoint is bound/.test(ev.text), ev.text);
        assert.deepStrictEqual((await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames, []);
        const again = dc.waitForEvent('stopped', 10000);
        await dc.continueRequest({ threadId: 1 });
        assert.strictEqual((await again).body.description, 'end of frame', `${kind}: continue`);
        if (kind === 'none') {
            // A breakpoint set at the frame's end runs the frame: no request of the client's said
            // so, hence `continued` between the response and the stop.
            const src = (await dc.send('loadedSources', {})).body.sources.find(s => /FS/.test(s.name));
            const from = received.length;
            const hit = dc.waitForEvent('stopped');
            await dc.setBreakpointsRequest({ source: src, breakpoints: [{ line: LINE_C }] });
            assert.strictEqual((await hit).body.reason, 'breakpoint');
            const wire = received.slice(from).filter(m => m.type !== 'event' || !['output', 'loadedSource'].includes(m.event))
                .map(m => m.type === 'response' ? m.command : m.event);
            assert.deepStrictEqual(wire, ['setBreakpoints', 'continued', 'stopped'], JSON.stringify(wire));
        }
        await dc.disconnectRequest({});
        dc.stopAdapter();
    }
}

// Within one stop the same variable keeps its variablesReference however often it is asked for
// (DAP: references are valid until the next resume), and new ones come after a resume.
async function stableRefs(dc, frameId) {
    const refsOf = async () => {
        const scopes = (await dc.scopesRequest({ frameId })).body.scopes;
        const out = scopes.map(s => [s.name, s.variablesReference]);
        for (const s of scopes.filter(s => s.name !== 'Pipeline state'))
            for (const v of await vars(dc, s.variablesReference))
                out.push([`${s.name}/${v.name}`, v.variablesReference]);
        return out;
    };
    const a = await refsOf(), b = await refsOf();
    assert.ok(a.filter(([, r]) => r > 0).length > 8, `expandable variables: ${JSON.stringify(a)}`);
    assert.deepStrictEqual(b, a, 'the same variables asked for twice in one stop');
    assert.strictEqual(new Set(a.map(([, r]) => r).filter(r => r > 0)).size, a.filter(([, r]) => r > 0).length,
                       'distinct variables have distinct references');
    return a.length;
}

// Side jobs and custom requests that move the session: completions are answered during a pixel
// history (they need no pass), and glreplay/debugPixel, which leaves the stop for a new one, sends
// `continued` (after its response, before the new `stopped`) as no request of the client's implied it.
async function sideJobs(sock) {
    const { dc } = await session(sock, [{ line: LINE_OUT }]);
    let historyDone = false;
    const histP = dc.customRequest('glreplay/pixelHistory', { x: 3, y: 4, target: 'fbo1' }).then(r => { historyDone = true; return r; });
    const comp = await dc.send('completions', { text: 'lo', column: 3 });
    const during = !historyDone;
    const labels = comp.body.targets.map(t => t.label);
    assert.ok(labels.includes('local'), `completions during a pixel history: ${labels}`);
    await histP;
    // The order on the wire (`received` sees every message as it arrives).
    const from = received.length;
    const stopped = dc.waitForEvent('stopped');
    await dc.customRequest('glreplay/debugPixel', { x: 5, y: 6, target: 'fbo1' });
    await stopped;
    const wire = received.slice(from).filter(m => m.type !== 'event' || m.event !== 'output')
        .map(m => m.type === 'response' ? m.command : m.event);
    assert.deepStrictEqual(wire, ['glreplay/debugPixel', 'continued', 'stopped'], JSON.stringify(wire));
    const cont = received.slice(from).find(m => m.event === 'continued');
    assert.deepStrictEqual(cont.body, { threadId: 1, allThreadsContinued: true });
    assert.strictEqual(received.slice(from).find(m => m.event === 'stopped').body.reason, 'entry');
    await dc.disconnectRequest({});
    dc.stopAdapter();
    return during;
}

// The stops a hit condition makes, in order, until the frame's end.
async function hitStops(sock, hitCondition) {
    const { dc, first } = await session(sock, [{ line: LINE_C, hitCondition }]);
    const hits = [];
    let ev = first;
    while (ev.reason === 'breakpoint') {
        hits.push(Number(/^hit (\d+) /.exec(ev.description)[1]));
        const stopped = dc.waitForEvent('stopped');
        await dc.continueRequest({ threadId: 1 });
        ev = (await stopped).body;
        assert.ok(hits.length < 20, `${hitCondition}: too many stops`);
    }
    assert.strictEqual(ev.description, 'end of frame', `${hitCondition}: ${JSON.stringify(ev)}`);
    await dc.disconnectRequest({});
    dc.stopAdapter();
    return hits;
}

async function withServer(capture, tmp, fn) {
    const sock = path.join(tmp, 's', 'dap.sock');
    const server = cp.spawn(env.GLREPLAY, ['dap', '--socket', sock, capture], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stdout.on('data', d => { log += d; });
    server.stderr.on('data', d => { log += d; });
    const exit = new Promise(r => server.on('exit', (code, sig) => r({ code, sig })));
    for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await new Promise(r => setTimeout(r, 50));
    assert.ok(fs.existsSync(sock), `no socket: ${log}`);
    try {
        return await fn(sock);
    } finally {
        server.kill('SIGTERM');
        const ex = await exit;
        assert.strictEqual(ex.code, 0, `server exit ${JSON.stringify(ex)}: ${log}`);
    }
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapc-'));
    try {
        const cap = path.join(tmp, 'conf.glcap');
        const pc = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', cap, '--', RUNNER, TEST, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(pc.status === 0 && fs.existsSync(cap), `piglit capture failed: ${(pc.stdout || '').slice(-400)} ${(pc.stderr || '').slice(-400)}`);
        await withServer(cap, tmp, async sock => {
            await variables(sock);
            await nothingToStop(sock, tmp);
            const during = await sideJobs(sock);
            console.log(`dap_conformance: completions answered ${during ? 'during' : 'after'} a pixel history; ` +
                        'debugPixel sent continued then stopped');
            assert.deepStrictEqual(await hitStops(sock, '< 3'), [1, 2], 'hit condition < 3');
            assert.deepStrictEqual(await hitStops(sock, '<= 3'), [1, 2, 3], 'hit condition <= 3');
            assert.deepStrictEqual(await hitStops(sock, '= 5'), [5], 'hit condition = 5');
            assert.deepStrictEqual(await hitStops(sock, '<4'), [1, 2, 3], 'hit condition <4');
        });
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], `messages that do not match DebugProtocol types:\n${typeErrors.join('\n')}`);
        console.log(`dap_conformance: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_conformance: all checks passed');
}

main().catch(e => { console.error('dap_conformance: FAIL:', e && e.stack || e); process.exit(1); });
