#!/usr/bin/env node
// Exception and function breakpoints (issue 15 §3, §7) end to end, with Microsoft's DAP client
// (@vscode/debugadapter-testsupport's DebugClient over the Unix socket of `glreplay dap`), on
// captures of programs nobody here wrote (Debian's piglit shader_runner, surfaceless EGL) and of
// samples/lit_mesh:
//  * initialize advertises the filters nan/inf/divzero/bounds, exceptionInfo, function breakpoints;
//  * piglit glsl-1.30 fs-isnan-vec2 (0.0/0.0 in its fragment shader): the "nan" filter stops
//    (reason exception) at the line of the division, in draw 0, on the lanes that divided 0 by 0;
//    exceptionInfo names the division and every lane; the stop's own values agree (the evaluator
//    computes numerator.y/denominator.y of the focused lane: NaN from operands that are not);
//    "divzero" stops at the same line before it runs; "inf" does not stop there (0/0 is no inf);
//    an unknown filter comes back unverified;
//  * piglit glsl-1.20 fs-vec4-out-of-bounds-1 (vec[-1]): the "bounds" filter stops at that line;
//  * piglit arb_gpu_shader_fp64 fs-isnan-dvec: the 64-bit division produces the NaN (nan), divides
//    by zero (divzero, "(double)") and, in draw 2, an infinity (inf);
//  * shader_test files run by piglit's shader_runner: a fetch from a texture whose base level is
//    past its levels, and from a unit with no texture, stop (filter "texture") at the fetch's line;
//    the same texture complete does not; a product that reads a local written on another path
//    stops (filter "uninit") naming it, the same where the path wrote it does not;
//  * function breakpoints: "fragment:main" stops (reason "function breakpoint") at the first line
//    of the FS main; "vertex:main" in the VS; a named function of lit_mesh's mesh.frag
//    (shade_light) stops inside it with it on top of the stack; unknown names and stages are
//    unverified with a message;
//  * a continue after a step that ran the lane to its end resumes the parked pass (one run of the
//    frame, with and without the timing model);
//  * lit_mesh produces no NaN, reads nothing uninitialized and samples complete textures: the
//    "nan", "divzero", "uninit" and "texture" filters run its frame to the end without a stop.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, SHADER_DIR, NODE_MODULES; PIGLIT (optional,
// default /usr/lib/x86_64-linux-gnu/piglit).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_exceptions: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_exceptions: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const NAN_TEST = path.join(PIGLIT, 'tests/spec/glsl-1.30/execution/fs-isnan-vec2.shader_test');
const DNAN_TEST = path.join(PIGLIT, 'tests/spec/arb_gpu_shader_fp64/execution/fs-isnan-dvec.shader_test');
const OOB_TEST = path.join(PIGLIT, 'tests/spec/glsl-1.20/execution/vector-out-of-bounds-access/fs-vec4-out-of-bounds-1.shader_test');
for (const f of [NAN_TEST, OOB_TEST, DNAN_TEST])
    assert.ok(fs.existsSync(f), `${f} is missing (Debian package piglit)`);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const step = t => { if (env.DAP_E2E_VERBOSE) console.log('dap_exceptions: ' + t); };

function capturePiglit(test, out) {
    const r = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', out, '--',
        path.join(PIGLIT, 'bin', 'shader_runner'), test, '-auto', '-fbo'], {
        env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
    assert.ok(r.status === 0 && fs.existsSync(out), `capture of ${test} failed: ${(r.stderr || '').slice(-400)}`);
    return (r.stdout || '') + (r.stderr || '');
}

const { server, connectInit } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);
const connect = sock => connectInit(sock, 30000);

// A session configured with the given exception filters / function breakpoints; resolves with
// the first stopped event.
async function session(sock, { filters, functions }) {
    const { dc, init } = await connect(sock);
    const attachP = dc.attachRequest({});
    let exc = null, fn = null;
    if (filters)
        exc = await dc.send('setExceptionBreakpoints', { filters });
    if (functions)
        fn = await dc.send('setFunctionBreakpoints', { breakpoints: functions.map(name => ({ name })) });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    return { dc, init, exc, fn, stopped: await stopped };
}

const lineWith = (text, needle) => {
    const i = text.split('\n').findIndex(l => l.includes(needle));
    assert.ok(i >= 0, needle);
    return i + 1;
};

async function top(dc) {
    const st = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    assert.ok(st.length > 0, 'a stack');
    const ref = st[0].source && st[0].source.sourceReference;
    assert.ok(ref > 0, `the frame's source is a captured shader: ${JSON.stringify(st[0].source)}`);
    const text = (await dc.send('source', { source: st[0].source, sourceReference: ref })).body.content;
    return { frame: st[0], frames: st, text };
}

async function evalNum(dc, expr, frameId) {
    return (await dc.evaluateRequest({ expression: expr, frameId, context: 'watch' })).body.result;
}

async function nanChecks(sock) {
    // ---- nan: the line of 0.0/0.0, draw 0, the lanes that did it.
    let { dc, init, exc, stopped } = await session(sock, { filters: ['nan', 'bogus'] });
    const names = init.body.exceptionBreakpointFilters.map(f => f.filter);
    assert.deepStrictEqual(names, ['nan', 'inf', 'divzero', 'bounds', 'uninit', 'texture']);
    assert.strictEqual(init.body.supportsExceptionInfoRequest, true);
    assert.strictEqual(init.body.supportsFunctionBreakpoints, true);
    assert.strictEqual(exc.body.breakpoints.length, 2);
    assert.strictEqual(exc.body.breakpoints[0].verified, true);
    assert.strictEqual(exc.body.breakpoints[1].verified, false);
    assert.match(exc.body.breakpoints[1].message, /unknown exception filter 'bogus'/);
    assert.strictEqual(stopped.body.reason, 'exception', JSON.stringify(stopped.body));
    assert.match(stopped.body.description, /^draw 0 · FS/, 'the first draw produces it first');
    assert.match(stopped.body.text, /^NaN produced by division at line \d+/, stopped.body.text);
    let { frame, text } = await top(dc);
    const divLine = lineWith(text, 'numerator/denominator');
    assert.strictEqual(frame.line, divLine, `stopped at the division's line (${frame.line} vs ${divLine})`);
    const info = (await dc.send('exceptionInfo', { threadId: 1 })).body;
    assert.strictEqual(info.exceptionId, 'nan');
    assert.strictEqual(info.breakMode, 'always');
    // Draw 0: numerator (1, 0), denominator (1, 0): component 1 (y) is 0/0 in every covered lane.
    assert.match(info.description, /component 1 = NaN; operands 0, 0/, info.description);
    const lanes = info.details.innerException.length;
    const m = /in (\d+) lanes?:/.exec(info.description);
    assert.ok(m && Number(m[1]) === lanes && lanes >= 1, `${lanes} lanes listed: ${info.description}`);
    // The evaluator (not the model) on the focused lane's values: the operands are finite, the
    // quotient NaN.
    assert.strictEqual(await evalNum(dc, 'isnan(numerator.y) || isnan(denominator.y)', frame.id), 'false');
    assert.strictEqual(await evalNum(dc, 'isnan(numerator.y / denominator.y)', frame.id), 'true');
    assert.strictEqual(await evalNum(dc, 'isnan(numerator.x / denominator.x)', frame.id), 'false');
    step('nan stop');
    // continue: the next warp that produces a NaN, later in the pass.
    const titleFirst = stopped.body.description;
    let next = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    next = await next;
    assert.strictEqual(next.body.reason, 'exception');
    assert.notStrictEqual(next.body.description, titleFirst, 'a later warp');
    await dc.disconnectRequest({});
    dc.stopAdapter();

    // ---- divzero: the same line, before the division runs; inf: 0/0 is no infinity in draw 0,
    // but draw 1 (1/1, 0/0) has none either: the frame ends without an inf stop.
    ({ dc, stopped } = await session(sock, { filters: ['divzero'] }));
    assert.strictEqual(stopped.body.reason, 'exception');
    assert.match(stopped.body.text, /^division by zero: division at line \d+ .*component 1: 0 \/ 0/, stopped.body.text);
    ({ frame } = await top(dc));
    assert.strictEqual(frame.line, divLine);
    assert.strictEqual((await dc.send('exceptionInfo', { threadId: 1 })).body.exceptionId, 'divzero');
    await dc.disconnectRequest({});
    dc.stopAdapter();
    ({ dc, stopped } = await session(sock, { filters: ['inf'] }));
    assert.strictEqual(stopped.body.reason, 'pause');
    assert.strictEqual(stopped.body.description, 'end of frame');
    await assert.rejects(dc.send('exceptionInfo', { threadId: 1 }), /not stopped on an exception/);
    await dc.disconnectRequest({});
    dc.stopAdapter();

    // ---- function breakpoints on the piglit program: the FS and VS main.
    let fn;
    ({ dc, fn, stopped } = await session(sock, { functions: ['fragment:main', 'nosuch', 'bogus:main', 'vs:main', 'fragment'] }));
    const [fsMain, nosuch, bogus, vsMain, fsByStage] = fn.body.breakpoints;
    assert.strictEqual(fsByStage.verified, true, 'a stage name alone is its main');
    assert.strictEqual(fsByStage.line, fsMain.line);
    assert.strictEqual(fsMain.verified, true, JSON.stringify(fsMain));
    assert.strictEqual(nosuch.verified, false);
    assert.match(nosuch.message, /no captured shader has a function 'nosuch'/);
    assert.strictEqual(bogus.verified, false);
    assert.match(bogus.message, /'bogus' is neither a stage/);
    assert.strictEqual(vsMain.verified, true);
    // The VS of the first draw runs before its FS.
    assert.strictEqual(stopped.body.reason, 'function breakpoint', JSON.stringify(stopped.body));
    assert.deepStrictEqual(stopped.body.hitBreakpointIds, [vsMain.id]);
    ({ frame, text } = await top(dc));
    assert.match(frame.name, /^main /);
    assert.strictEqual(frame.line, lineWith(text, 'gl_Position = gl_Vertex'));
    assert.strictEqual(frame.line, vsMain.line);
    next = dc.waitForEvent('stopped');
    await dc.send('setFunctionBreakpoints', { breakpoints: [{ name: 'fragment:main' }] });
    await dc.continueRequest({ threadId: 1 });
    next = await next;
    assert.strictEqual(next.body.reason, 'function breakpoint');
    ({ frame, text } = await top(dc));
    assert.strictEqual(frame.line, divLine, 'the FS main begins at its only statement');
    assert.match(next.body.description, /· FS ·/);
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// 64-bit instructions (piglit arb_gpu_shader_fp64 fs-isnan-dvec: dvec4 0.0/0.0 and 1.0/0.0):
// the double division produces the NaN, divides by zero, and (draw 2: 1/0) an infinity.
async function doubleChecks(sock) {
    let { dc, stopped } = await session(sock, { filters: ['nan'] });
    assert.strictEqual(stopped.body.reason, 'exception', JSON.stringify(stopped.body));
    assert.match(stopped.body.text, /^NaN produced by division at line \d+ .*component 1 = NaN; operands 0, 0/, stopped.body.text);
    let { frame, text } = await top(dc);
    assert.strictEqual(frame.line, lineWith(text, 'dvec4 r4 = numerator/denominator'));
    await dc.disconnectRequest({});
    dc.stopAdapter();
    ({ dc, stopped } = await session(sock, { filters: ['divzero'] }));
    assert.match(stopped.body.text, /^division by zero: division at line \d+ .*component 1: 0 \/ 0 \(double\)/, stopped.body.text);
    ({ frame } = await top(dc));
    assert.strictEqual(frame.line, lineWith(text, 'dvec4 r4 = numerator/denominator'));
    await dc.disconnectRequest({});
    dc.stopAdapter();
    ({ dc, stopped } = await session(sock, { filters: ['inf'] }));
    assert.match(stopped.body.text, /^infinity produced by division at line \d+ .*= inf; operands 1, 0/, stopped.body.text);
    assert.match(stopped.body.description, /^draw 2 · FS/);
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// Incomplete textures: shader_test files written here for piglit's shader_runner (one FS that
// samples `tex`): unit 1 holding piglit's rgbw texture with GL_TEXTURE_BASE_LEVEL past its levels
// (incomplete), unit 0 with no texture bound, and the same texture complete (no stop). llvmpipe
// returns (0, 0, 0, 1) for both incomplete fetches: the files' probes check it on the driver.
function textureTest(dir, name, setup, after) {
    const f = path.join(dir, name + '.shader_test');
    fs.writeFileSync(f, `[require]
GLSL >= 1.30

[vertex shader passthrough]

[fragment shader]
#version 130
uniform sampler2D tex;
void main()
{
	vec4 c = texture(tex, vec2(0.5));
	gl_FragColor = c;
}

[test]
${setup}
draw rect -1 -1 2 2
${after}
`);
    return f;
}

async function textureChecks(sock, expect) {
    const { dc, stopped } = await session(sock, { filters: ['texture'] });
    if (!expect) {
        assert.strictEqual(stopped.body.reason, 'pause', JSON.stringify(stopped.body));
        assert.strictEqual(stopped.body.description, 'end of frame');
    } else {
        assert.strictEqual(stopped.body.reason, 'exception', JSON.stringify(stopped.body));
        assert.match(stopped.body.text, expect, stopped.body.text);
        const { frame, text } = await top(dc);
        assert.strictEqual(frame.line, lineWith(text, 'vec4 c = texture(tex, vec2(0.5));'));
        assert.strictEqual((await dc.send('exceptionInfo', { threadId: 1 })).body.exceptionId, 'texture');
    }
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// Uninitialized reads: `s` is written only where k > 0.5; c's components are all written (the
// swizzle store c.rgb = ... copies c's undefined alpha along, which is no use). k = 0.25: the
// product reads s on every lane; k = 0.75: no stop.
function uninitTest(dir, name, k) {
    const f = path.join(dir, name + '.shader_test');
    fs.writeFileSync(f, `[require]
GLSL >= 1.30

[vertex shader passthrough]

[fragment shader]
#version 130
uniform float k;
void main()
{
	vec4 c;
	c.rgb = vec3(k);
	float s;
	if (k > 0.5)
		s = 2.0;
	c.a = 1.0;
	gl_FragColor = c * s;
}

[test]
uniform float k ${k}
draw rect -1 -1 2 2
`);
    return f;
}

async function uninitChecks(sock, expect) {
    const { dc, stopped } = await session(sock, { filters: ['uninit'] });
    if (!expect) {
        assert.strictEqual(stopped.body.reason, 'pause', JSON.stringify(stopped.body));
    } else {
        assert.strictEqual(stopped.body.reason, 'exception', JSON.stringify(stopped.body));
        assert.match(stopped.body.text, /^uninitialized read: vector \* scalar at line \d+ .*reads variable 's' never written on the lane's path in 32 lanes: 0-31/, stopped.body.text);
        const { frame, text } = await top(dc);
        assert.strictEqual(frame.line, lineWith(text, 'gl_FragColor = c * s;'));
        assert.strictEqual((await dc.send('exceptionInfo', { threadId: 1 })).body.exceptionId, 'uninit');
    }
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// A continue after a step that ran the focused lane to its end goes on from the parked model: no
// new run of the frame (GLREPLAY_DAP_PROFILE=1 names each run the server starts), with and
// without the timing model; the stop is the next exception after the step.
async function resumeAfterFinishedStep(capture, tmp) {
    for (const timing of ['1', '0']) {
        const srv = await server(capture, tmp, 'r' + timing, { GLREPLAY_DAP_PROFILE: '1', GLREPLAY_DEBUG_TIMING: timing });
        try {
            const { dc, stopped } = await session(srv.sock, { filters: ['nan'] });
            assert.strictEqual(stopped.body.reason, 'exception');
            let next = dc.waitForEvent('stopped');
            await dc.nextRequest({ threadId: 1 });
            assert.strictEqual((await next).body.description, 'the focused invocation finished');
            next = dc.waitForEvent('stopped');
            await dc.continueRequest({ threadId: 1 });
            const st = await next;
            assert.strictEqual(st.body.reason, 'exception', JSON.stringify(st.body));
            assert.notStrictEqual(st.body.description, stopped.body.description);
            await dc.disconnectRequest({});
            dc.stopAdapter();
            // Runs of the frame: fresh runners and spares a pass adopted (GLREPLAY_DAP_SPARES=1).
            const runs = (srv.log().match(/runner created|spare adopted/g) || []).length;
            assert.strictEqual(runs, 1, `one run of the frame (timing ${timing}): ${srv.log()}`);
        } finally {
            await srv.stop();
        }
    }
}

async function boundsChecks(sock) {
    const { dc, stopped } = await session(sock, { filters: ['bounds'] });
    assert.strictEqual(stopped.body.reason, 'exception', JSON.stringify(stopped.body));
    assert.match(stopped.body.text, /^out-of-bounds access: .* -1 of a/, stopped.body.text);
    const { frame, text } = await top(dc);
    assert.strictEqual(frame.line, lineWith(text, 'vec[index] = -1.0'));
    assert.strictEqual((await dc.send('exceptionInfo', { threadId: 1 })).body.exceptionId, 'bounds');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function litMeshChecks(sock) {
    // A named function: shade_light of mesh.frag, called from main.
    let { dc, fn, stopped } = await session(sock, { functions: ['frag:shade_light'] });
    assert.strictEqual(fn.body.breakpoints[0].verified, true, JSON.stringify(fn.body.breakpoints[0]));
    assert.strictEqual(stopped.body.reason, 'function breakpoint', JSON.stringify(stopped.body));
    const { frames } = await top(dc);
    assert.match(frames[0].name, /^shade_light /);
    assert.match(frames[1].name, /^main /);
    const mesh = fs.readFileSync(path.join(env.SHADER_DIR, 'mesh.frag'), 'utf8').split('\n');
    const decl = mesh.findIndex(l => l.includes('vec3 shade_light(int i'));
    assert.ok(decl >= 0);
    // The stop's line (in the captured shader's numbering) is past the declaration: its body.
    assert.ok(frames[0].line > decl, `${frames[0].line} after the declaration`);
    await dc.disconnectRequest({});
    dc.stopAdapter();
    // No NaN in lit_mesh: the frame runs to its end.
    ({ dc, stopped } = await session(sock, { filters: ['nan', 'divzero', 'uninit', 'texture'] }));
    assert.strictEqual(stopped.body.reason, 'pause', JSON.stringify(stopped.body));
    assert.strictEqual(stopped.body.description, 'end of frame');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapx-'));
    try {
        const nanCap = path.join(tmp, 'nan.glcap'), oobCap = path.join(tmp, 'oob.glcap'), litCap = path.join(tmp, 'lit.glcap');
        const dnanCap = path.join(tmp, 'dnan.glcap');
        capturePiglit(NAN_TEST, nanCap);
        capturePiglit(OOB_TEST, oobCap);
        capturePiglit(DNAN_TEST, dnanCap);
        const texCaps = [
            ['t1', 'texture rgbw 1 (8, 8)\ntexparameter 2D base_level 6\nuniform int tex 1', /^incomplete texture: texture fetch at line \d+ .* in 32 lanes: 0-31; .*texture \d+ on unit 1 is not complete .*returns \(0, 0, 0, 1\)/],
            ['t0', 'uniform int tex 0', /^incomplete texture: .*unit 0 has no texture of this target bound/],
            ['tc', 'texture rgbw 1 (8, 8)\nuniform int tex 1', null],
        ].map(([name, setup, expect]) => {
            const cap = path.join(tmp, name + '.glcap');
            const log = capturePiglit(textureTest(tmp, name, setup, expect ? 'probe rgba 0 0 0.0 0.0 0.0 1.0' : ''), cap);
            assert.match(log, /"result": "pass"/, `the driver (its probe) returns (0, 0, 0, 1) from the incomplete texture: ${log.slice(-300)}`);
            return [cap, name, sock => textureChecks(sock, expect)];
        });
        for (const [name, k, expect] of [['u1', 0.25, true], ['u2', 0.75, false]]) {
            const cap = path.join(tmp, name + '.glcap');
            capturePiglit(uninitTest(tmp, name, k), cap);
            texCaps.push([cap, name, sock => uninitChecks(sock, expect)]);
        }
        const lc = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', '96x64'], {
            env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: litCap },
            encoding: 'utf8', timeout: 120000 });
        assert.strictEqual(lc.status, 0, `capture failed: ${lc.stderr}`);
        for (const [cap, name, fn] of [...texCaps, [nanCap, 'n', nanChecks], [oobCap, 'o', boundsChecks], [dnanCap, 'd', doubleChecks], [litCap, 'l', litMeshChecks]]) {
            const srv = await server(cap, tmp, name);
            try {
                await fn(srv.sock);
            } finally {
                await srv.stop();
            }
            step(`${name} done`);
        }
        await resumeAfterFinishedStep(nanCap, tmp);
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_exceptions: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_exceptions: all checks passed');
}

main().catch(e => { console.error('dap_exceptions: FAIL:', e && e.stack || e); process.exit(1); });
