#!/usr/bin/env node
// evaluate's texture functions beyond texture/textureLod/texelFetch, and texture functions at every
// stop (issue 14), with Microsoft's DAP client over the Unix socket of `glreplay dap`, on a capture
// of piglit's shader_runner drawing tests/dap/tex_functions.shader_test (a fragment shader that
// stores textureGrad[Offset], textureProj in all its forms, textureGather[Offset] with a component
// and with a depth compare, texelFetchOffset, textureQueryLod/Levels and shadow lookups in variables
// of their own, over a mipmapped, a four-colour and a depth texture):
//  * at six stops spread over the draw, each function called by `evaluate` (focused lane) and by
//    glreplay/evaluateWarp (every lane of the warp, helpers included, each with its own quad's
//    derivatives) with the shader's own arguments gives exactly the value the shader stored; the
//    values vary over the stops (a constant would prove nothing), and the arguments matter:
//    textureProj differs from texture of the undivided coordinates, textureGrad from texture,
//    textureGather's component 2 from component 0;
//  * at stops the model is not parked at — after a heat map's pass (which replaces the parked
//    pass), a kept stop shown again by stepBack, and a reverseContinue — evaluate and
//    evaluateWarp still give the shader's values (a pass parks the model at the stop first), the
//    view does not change (no `stopped` event, the same variablesReferences) and the answer
//    comes in the client's order;
//  * every message received type-checks against the official protocol definitions.
//
// Environment: GLREPLAY, NODE_MODULES; PIGLIT optional (Debian's piglit).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_eval_tex: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_eval_tex: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const RUNNER = path.join(PIGLIT, 'bin', 'shader_runner');
assert.ok(fs.existsSync(RUNNER), `${RUNNER} is missing (Debian package piglit)`);
const TEST = path.join(__dirname, 'tex_functions.shader_test');
// The fragment shader's lines, numbered as the captured source is (its own text, served by reference).
const FS = fs.readFileSync(TEST, 'utf8').split('[fragment shader]\n')[1].split('\n[test]')[0].split('\n');
const LINE_SUM = FS.findIndex(l => l.includes('vec4 sum =')) + 1;
// Every `TYPE name = <texture function>(...);` of the shader: the variable and its expression.
const PAIRS = FS.map(l => /^\s+(?:vec4|vec2|int|float) (\w+) = ((?:texture|texel)\w*\(.*\));$/.exec(l))
    .filter(m => m).map(m => [m[1], m[2]]);
assert.ok(LINE_SUM > 0 && PAIRS.length === 19, `the shader has its 19 lookups before the sum: ${PAIRS.length}`);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));

async function connect(sock) {
    const dc = new UnixDebugClient(sock);
    dc.defaultTimeout = 60000;
    for (let i = 0; ; i++) {
        try { await dc.start(); break; } catch (e) {
            if (i >= 50 || e.code !== 'ECONNREFUSED') throw e;
            await new Promise(r => setTimeout(r, 50));
        }
    }
    const initialized = dc.waitForEvent('initialized');
    await dc.initializeRequest();
    await initialized;
    dc.stops = 0;
    dc.on('stopped', () => { dc.stops++; });
    return dc;
}
const top = async dc => (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
const warp = async (dc, expression) => (await dc.send('glreplay/evaluateWarp', { expression })).body;
async function go(dc, cmd) {
    const stopped = dc.waitForEvent('stopped');
    const r = await dc.send(cmd, { threadId: 1 });
    assert.ok(r.success, `${cmd}: ${r.message}`);
    return (await stopped).body;
}

// Every lookup at this stop: evaluate (focused lane) and evaluateWarp (every live lane) give the
// value the shader stored. Returns the values seen, by variable.
async function lookupsAgree(dc, what, seen = {}) {
    const frameId = (await top(dc)).id;
    for (const [name, expr] of PAIRS) {
        const stored = await warp(dc, name);
        const evaluated = await warp(dc, expr);
        const live = stored.lanes.filter(l => l.state === 'active');
        assert.ok(live.length > 0, `${what}: live lanes`);
        for (const l of live)
            assert.strictEqual(evaluated.lanes[l.lane].value, l.value,
                               `${what}: lane ${l.lane}${l.helper ? ' (helper)' : ''}: ${expr} is the shader's ${name}`);
        const one = (await dc.evaluateRequest({ expression: expr, frameId, context: 'watch' })).body.result;
        assert.strictEqual(one, stored.lanes[stored.focusLane].value, `${what}: evaluate ${expr} on the focused lane`);
        seen[name] = seen[name] || new Set();
        live.forEach(l => seen[name].add(l.value));
    }
    return seen;
}

// Lanes where two expressions differ at this stop.
async function differ(dc, a, b) {
    const x = await warp(dc, a), y = await warp(dc, b);
    return x.lanes.filter(l => l.state === 'active' && l.value !== y.lanes[l.lane].value).length;
}

async function spread(sock) {
    const dc = await connect(sock);
    const src = (await dc.send('loadedSources', {})).body.sources.find(s => /FS/.test(s.name));
    assert.ok(src, 'the fragment shader is a loaded source');
    const attachP = dc.attachRequest({});
    // Every 97th hit: about 45 warps spread over the draw whatever order the model shades its quads
    // in (llvmpipe's tile and block order since session 8: every 600th hit then fell in one
    // colour of a texture for a whole lookup, and the spread check below could not see variation).
    const bp = await dc.setBreakpointsRequest({ source: src, breakpoints: [{ line: LINE_SUM, hitCondition: '% 97' }] });
    assert.strictEqual(bp.body.breakpoints[0].verified, true);
    let stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    let ev = (await stopped).body;
    const seen = {};
    let stops = 0, projDiff = 0, gradDiff = 0, gatherDiff = 0;
    while (/^hit /.test(ev.description)) {
        stops++;
        await lookupsAgree(dc, ev.description, seen);
        projDiff += await differ(dc, 'textureProj(mip, pq)', 'texture(mip, pq.xy)');
        gradDiff += await differ(dc, 'textureGrad(mip, uv, dx, dy)', 'texture(mip, uv)');
        gatherDiff += await differ(dc, 'textureGather(tex, uv, 2)', 'textureGather(tex, uv, 0)');
        stopped = dc.waitForEvent('stopped');
        await dc.continueRequest({ threadId: 1 });
        ev = (await stopped).body;
    }
    assert.strictEqual(ev.description, 'end of frame');
    // completions offer the new functions.
    const labels = (await dc.send('completions', { text: 'textureG', column: 9 })).body.targets.map(t => t.label);
    for (const f of ['textureGrad', 'textureGradOffset', 'textureGather', 'textureGatherOffset'])
        assert.ok(labels.includes(f), `completions of textureG: ${labels}`);
    assert.ok(stops >= 6, `stops over the draw: ${stops}`);
    // Values that vary over the draw (the level-only and count lookups are constant by design).
    for (const [name] of PAIRS)
        if (!['proj_lod', 'levels'].includes(name))
            assert.ok(seen[name].size >= 2, `${name} takes several values over the draw: ${[...seen[name]]}`);
    assert.ok(seen.levels.has('4') && seen.proj_lod.size === 1, 'textureQueryLevels and the explicit-level lookup');
    assert.ok(projDiff > 0 && gradDiff > 0 && gatherDiff > 0,
              `the arguments matter: proj ${projDiff}, grad ${gradDiff}, gather component ${gatherDiff} lanes differ`);
    await dc.disconnectRequest({});
    dc.stopAdapter();
    return stops;
}

// A heat map's pass of the same draw: it replaces the pass the model was parked in.
async function heatmap(dc, src) {
    const r = await dc.send('glreplay/heatmap', { source: src, line: LINE_SUM, expression: 'uv.x' });
    assert.ok(r.body.fragments > 0, 'the heat map ran the frame');
}

async function everyStop(sock) {
    const dc = await connect(sock);
    const src = (await dc.send('loadedSources', {})).body.sources.find(s => /FS/.test(s.name));
    const attachP = dc.attachRequest({});
    await dc.setBreakpointsRequest({ source: src, breakpoints: [{ line: LINE_SUM, hitCondition: '% 1000' }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    await stopped;
    await lookupsAgree(dc, 'hit 1000');
    let ev = await go(dc, 'next');
    assert.ok((await top(dc)).line > LINE_SUM, `next: a later line (${ev.description})`);

    // After a heat map: the view keeps its references; evaluate parks the model first.
    const scope = (await dc.scopesRequest({ frameId: (await top(dc)).id })).body.scopes.find(s => s.name === 'Locals');
    const before = (await dc.variablesRequest({ variablesReference: scope.variablesReference })).body.variables;
    await heatmap(dc, src);
    const stops0 = dc.stops;
    // Sent together: the held ones are answered in order after the park.
    const frameId = (await top(dc)).id;
    const [a, b, c] = await Promise.all([
        dc.evaluateRequest({ expression: 'textureProjGrad(mip, pq, dx, dy)', frameId }),
        dc.evaluateRequest({ expression: 'proj_grad', frameId }),
        dc.variablesRequest({ variablesReference: scope.variablesReference })]);
    assert.strictEqual(a.body.result, b.body.result, 'after a heat map: textureProjGrad is the shader\'s');
    // (children get new references at every variables request: compare what they show)
    const shown = vs => vs.map(v => `${v.name}: ${v.type} = ${v.value}`);
    assert.deepStrictEqual(shown(c.body.variables), shown(before), 'the view\'s variablesReference still holds');
    assert.ok(a.request_seq < b.request_seq && b.request_seq < c.request_seq);
    await lookupsAgree(dc, 'after a heat map');
    assert.strictEqual(dc.stops, stops0, 'parking the model sent no stopped event');

    // A kept stop shown again (no pass), after another heat map.
    ev = await go(dc, 'stepBack');
    assert.strictEqual((await top(dc)).line, LINE_SUM, `stepBack: ${ev.description}`);
    await heatmap(dc, src);
    await lookupsAgree(dc, 'a kept stop after stepBack');
    ev = await go(dc, 'next');   // forward again from the kept stops
    await heatmap(dc, src);
    const g = await warp(dc, 'textureGatherOffset(tex, uv, ivec2(1, 1), 1)');
    const gv = await warp(dc, 'gather_off');
    for (const l of gv.lanes.filter(x => x.state === 'active'))
        assert.strictEqual(g.lanes[l.lane].value, l.value, `evaluateWarp after a heat map: lane ${l.lane}`);

    // continue, then reverseContinue back to hit 1000.
    ev = await go(dc, 'continue');
    assert.ok(/^hit 2000 /.test(ev.description), ev.description);
    await heatmap(dc, src);
    ev = await go(dc, 'reverseContinue');
    assert.ok(/^hit 1000 /.test(ev.description), `reverseContinue: ${ev.description}`);
    await lookupsAgree(dc, 'after reverseContinue');
    await heatmap(dc, src);
    await lookupsAgree(dc, 'after reverseContinue and a heat map');
    // A bad expression is still an error after its park.
    await heatmap(dc, src);
    await assert.rejects(dc.evaluateRequest({ expression: 'textureProj(mip, uv)', frameId: (await top(dc)).id }),
                         /coordinate needs 3 components/);
    await dc.disconnectRequest({});
    dc.stopAdapter();
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
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapt-'));
    try {
        const cap = path.join(tmp, 'tex.glcap');
        const pc = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', cap, '--', RUNNER, TEST, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(pc.status === 0 && fs.existsSync(cap), `piglit capture failed: ${(pc.stdout || '').slice(-400)} ${(pc.stderr || '').slice(-400)}`);
        assert.ok(/"result": "pass"/.test(pc.stdout), `piglit's own run: ${pc.stdout}`);
        const stops = await withServer(cap, tmp, spread);
        await withServer(cap, tmp, everyStop);
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], `messages that do not match DebugProtocol types:\n${typeErrors.join('\n')}`);
        console.log(`dap_eval_tex: ${PAIRS.length} lookups agree at ${stops} stops and after heat maps, stepBack and ` +
                    `reverseContinue; ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_eval_tex: all checks passed');
}

main().catch(e => { console.error('dap_eval_tex: FAIL:', e && e.stack || e); process.exit(1); });
