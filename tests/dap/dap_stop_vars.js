#!/usr/bin/env node
// The Variables view right after a debug-this-vertex / debug-this-pixel stop. In a real VS Code
// (code-server) the frame view asks for its images (glreplay/eventImages, a replay of the driver on
// a thread of its own) right after a stop, and VS Code's stackTrace, scopes and variables for the
// stop came while that replay ran: they were refused with "the frame is running" (the Call Stack
// kept an earlier answer, the Variables view showed the error). A replay of the driver leaves the
// stop as it is, so the stop stays inspectable. This test does what the two did, from inside the
// `stopped` event's dispatch (no delay): glreplay/eventImages, then threads and stackTrace, scopes
// of the top frame and variables of every scope, each sent the moment the previous answer is in,
// for:
//   * a launch with "vertex" ({draw 0, index 1}) and glreplay/debugVertex ({draw 0, index 2});
//   * a launch with "pixel" and glreplay/debugPixel;
// and checks the scopes answer came while the replay still ran (else the test proves nothing), every
// answer succeeds and holds the stop's real variables: the Uniforms scope has the shader's uniform
// with the value the capture set, the Built-ins of a vertex stop its gl_VertexID, the Locals the
// shader's local variable.
//
// Environment: GLREPLAY, NODE_MODULES; PIGLIT (optional, default /usr/lib/x86_64-linux-gnu/piglit).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_stop_vars: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_stop_vars: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const { server, connect } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

const SHADER_TEST = `[require]
GLSL >= 1.30

[vertex shader]
#version 130
in vec4 piglit_vertex;
uniform float scale;
void main()
{
	vec4 p = piglit_vertex * scale;
	gl_Position = p;
}

[fragment shader]
#version 130
uniform vec4 tint;
void main()
{
	vec4 c = tint * 0.5;
	gl_FragColor = c;
}

[test]
uniform float scale 1.0
uniform vec4 tint 0.5 1.0 0.25 1.0
clear color 0.0 0.0 0.0 1.0
clear
draw rect -1 -1 2 2
`;

// What the frame view and VS Code do on `stopped` (above); the promise holds every scope's
// variables by name and whether the images' answer came after the scopes'.
function viewOnStop(dc) {
    return new Promise((resolve, reject) => {
        dc.once('stopped', ev => {
            let imagesDone = false;
            const images = dc.send('glreplay/eventImages', { maxSide: 96 }).then(r => { imagesDone = true; return r; });
            const threads = dc.threadsRequest();
            dc.stackTraceRequest({ threadId: ev.body.threadId, startFrame: 0, levels: 20 }).then(async st => {
                const frame = st.body.stackFrames[0];
                assert.ok(frame, 'a top frame');
                const scopes = (await dc.scopesRequest({ frameId: frame.id })).body.scopes;
                const overlapped = !imagesDone;
                const vars = {};
                await Promise.all(scopes.map(async sc => {
                    const v = (await dc.variablesRequest({ variablesReference: sc.variablesReference })).body.variables;
                    vars[sc.name] = Object.fromEntries(v.map(x => [x.name, x.value]));
                }));
                assert.ok((await threads).body.threads.length >= 1);
                assert.ok((await images).body.images.length >= 2, 'the frame view\'s images');
                return { stopped: ev.body, frame, vars, overlapped };
            }).then(resolve, reject);
        });
    });
}

const nums = s => (String(s).replace(/^[a-z]+\d*\(/, '').match(/-?[\d.]+(e[-+]?\d+)?/gi) || []).map(Number);

function checkVertex(r, id, what) {
    assert.ok(r.overlapped, `${what}: the images' replay ended before scopes was answered`);
    assert.strictEqual(r.stopped.reason, 'entry', `${what}: ${JSON.stringify(r.stopped)}`);
    assert.match(r.stopped.description, new RegExp(`invocation of vertex ${id} \\(instance 0\\) of draw 0`), what);
    assert.match(r.frame.source.name, /-VS-/, `${what}: ${JSON.stringify(r.frame)}`);
    assert.deepStrictEqual(nums(r.vars.Uniforms.scale), [1], `${what}: Uniforms ${JSON.stringify(r.vars.Uniforms)}`);
    assert.deepStrictEqual(nums(r.vars['Built-ins'].gl_VertexID), [id], `${what}: Built-ins ${JSON.stringify(r.vars['Built-ins'])}`);
    assert.ok('p' in r.vars.Locals, `${what}: Locals ${JSON.stringify(r.vars.Locals)}`);
}

function checkPixel(r, what) {
    assert.ok(r.overlapped, `${what}: the images' replay ended before scopes was answered`);
    assert.strictEqual(r.stopped.reason, 'entry', `${what}: ${JSON.stringify(r.stopped)}`);
    assert.match(r.stopped.description, /invocation that wrote pixel \(40, 30\)/, what);
    assert.match(r.frame.source.name, /-FS-/, `${what}: ${JSON.stringify(r.frame)}`);
    assert.deepStrictEqual(nums(r.vars.Uniforms.tint), [0.5, 1, 0.25, 1], `${what}: Uniforms ${JSON.stringify(r.vars.Uniforms)}`);
    assert.ok('c' in r.vars.Locals, `${what}: Locals ${JSON.stringify(r.vars.Locals)}`);
}

async function session(sock, launchArgs, custom, check) {
    const dc = await connect(sock);
    try {
        let view = viewOnStop(dc);
        const launched = dc.launchRequest(launchArgs);
        await dc.configurationDoneRequest();
        await launched;
        check(await view, `launch ${JSON.stringify(launchArgs)}`);
        view = viewOnStop(dc);
        await dc.send(custom[0], custom[1]);
        check(await view, `${custom[0]} ${JSON.stringify(custom[1])}`);
        await dc.disconnectRequest({});
    } finally {
        dc.stopAdapter();
    }
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-stopvars-'));
    fs.chmodSync(tmp, 0o700);
    try {
        const test = path.join(tmp, 't.shader_test'), capture = path.join(tmp, 't.glcap');
        fs.writeFileSync(test, SHADER_TEST);
        const r = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', capture, '--',
            path.join(PIGLIT, 'bin', 'shader_runner'), test, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(r.status === 0 && fs.existsSync(capture), `capture failed: ${(r.stderr || '').slice(-400)}`);
        const srv = await server(capture, tmp);
        try {
            await session(srv.sock, { program: capture, vertex: { draw: 0, index: 1 } },
                          ['glreplay/debugVertex', { draw: 0, index: 2 }], (v, what) => checkVertex(v, what.startsWith('launch') ? 1 : 2, what));
            await session(srv.sock, { program: capture, pixel: { x: 40, y: 30, target: 'fbo1' } },
                          ['glreplay/debugPixel', { x: 40, y: 30, target: 'fbo1' }], checkPixel);
        } finally {
            await srv.stop();
        }
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_stop_vars: all checks passed');
}

main().catch(e => { console.error('dap_stop_vars: FAIL:', e && e.stack || e); process.exit(1); });
