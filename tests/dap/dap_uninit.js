#!/usr/bin/env node
// The "uninit" exception filter (issue 15 §3) where an undefined value does not meet arithmetic:
// texture coordinates, selects and stage outputs. End to end with Microsoft's DAP client over the
// Unix socket of `glreplay dap`, on captures of small piglit shader_tests (Debian's shader_runner,
// surfaceless EGL) whose local is written only where the uniform k > 0.5:
//   * texture2D(tex, uv) with uv unwritten (k = 0.25) stops at the fetch's line, naming 'uv' and
//     the coordinates; with k = 0.75 (uv written) the frame ends without a stop;
//   * mix(x, y, bvec4(b)) with b unwritten stops at the select's line, naming 'b' (the condition);
//   * mix(vec4(s), vec4(1), bvec4(k < 0.1)): the select picks vec4(s) with s unwritten; the value
//     is carried through the select to gl_FragColor, where the stop is (the store to the output,
//     naming 's'); with k = 0.75 there is none;
//   * `vec4 c; c.rgb = ...; gl_FragColor = c;`: c's alpha, never written, stops at the store to
//     the output (the swizzle store itself, copying alpha along, is no use). The output is named
//     as the model's upgraded GLSL names it (gl_FragColor is its glr_FragColor output).
// Before, none of these stopped: the fetch, the select and the move defined their results.
// Every message received is type-checked against the official protocol definitions.
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
    if (!env[k]) { console.error(`dap_uninit: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_uninit: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const RUNNER = path.join(PIGLIT, 'bin', 'shader_runner');
assert.ok(fs.existsSync(RUNNER), `${RUNNER} is missing (Debian package piglit)`);

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const { server, connect } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

function shaderTest(dir, name, body, k, setup = '') {
    const f = path.join(dir, name + '.shader_test');
    fs.writeFileSync(f, `[require]
GLSL >= 1.30

[vertex shader passthrough]

[fragment shader]
#version 130
uniform float k;
uniform sampler2D tex;
void main()
{
${body}
}

[test]
${setup}
uniform float k ${k}
draw rect -1 -1 2 2
`);
    return f;
}

function capture(test, out) {
    const r = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', out, '--', RUNNER, test, '-auto', '-fbo'], {
        env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
    const log = (r.stdout || '') + (r.stderr || '');
    assert.ok(r.status === 0 && fs.existsSync(out), `capture of ${test} failed: ${log.slice(-400)}`);
    // shader_runner drew (a failure, such as a uniform it cannot set, stops it before the draw)
    assert.match(log, /"result": "pass"/, `shader_runner on ${test}: ${log.slice(-400)}`);
}

// Attach with only the "uninit" filter; the first stop, and the stopped frame's line and source.
async function firstStop(sock) {
    const dc = await connect(sock);
    const attachP = dc.attachRequest({});
    const exc = await dc.send('setExceptionBreakpoints', { filters: ['uninit'] });
    assert.strictEqual(exc.body.breakpoints[0].verified, true);
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    const ev = await stopped;
    let where = null;
    if (ev.body.reason === 'exception') {
        const st = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
        const text = (await dc.send('source', { source: st[0].source, sourceReference: st[0].source.sourceReference })).body.content;
        where = { line: st[0].line, text, info: (await dc.send('exceptionInfo', { threadId: 1 })).body };
    }
    await dc.disconnectRequest({});
    dc.stopAdapter();
    return { ev, where };
}

const lineWith = (text, needle) => {
    const i = text.split('\n').findIndex(l => l.includes(needle));
    assert.ok(i >= 0, needle);
    return i + 1;
};

// (`+ k`: the driver's compiler, free to give an unwritten local any value, would otherwise drop
// the branch and with it the uniform k, which shader_runner then cannot set.)
const TEX = '\tvec2 uv;\n\tif (k > 0.5)\n\t\tuv = vec2(0.5);\n\tgl_FragColor = texture2D(tex, uv) + k;';
const SEL_COND = '\tbool b;\n\tif (k > 0.5)\n\t\tb = true;\n\tgl_FragColor = mix(vec4(0.0, 0.0, 0.0, 1.0), vec4(1.0), bvec4(b)) + k;';
const SEL_CARRY = '\tfloat s;\n\tif (k > 0.5)\n\t\ts = 2.0;\n\tvec4 v = mix(vec4(s), vec4(1.0), bvec4(k < 0.1));\n\tgl_FragColor = v;';
const OUT = '\tvec4 c;\n\tc.rgb = vec3(k);\n\tgl_FragColor = c;';

// [name, shader body, k, what the stop says (null: the frame ends), the stop's line]
const CASES = [
    ['tex', TEX, 0.25, /^uninitialized read: the coordinates of a texture fetch at line \d+ .*reads variable 'uv' never written on the lane's path in 32 lanes: 0-31/, 'texture2D(tex, uv)'],
    ['tex_ok', TEX, 0.75, null],
    ['sel_cond', SEL_COND, 0.25, /^uninitialized read: selection \(\?: or mix\(\) with a bool\) at line \d+ .*reads variable 'b' never written/, 'bvec4(b)'],
    ['sel_carry', SEL_CARRY, 0.25, /^uninitialized read: store to output 'glr_FragColor' at line \d+ .*reads variable 's' never written/, 'gl_FragColor = v;'],
    ['sel_carry_ok', SEL_CARRY, 0.75, null],
    ['out', OUT, 0.25, /^uninitialized read: store to output 'glr_FragColor' at line \d+ .*reads variable 'c' never written/, 'gl_FragColor = c;'],
];

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dapu-'));
    try {
        for (const [name, body, k, expect, needle] of CASES) {
            const dir = path.join(tmp, name);
            fs.mkdirSync(dir, { mode: 0o700 });
            const cap = path.join(dir, name + '.glcap');
            capture(shaderTest(dir, name, body, k), cap);
            const srv = await server(cap, dir);
            try {
                const { ev, where } = await firstStop(srv.sock);
                if (!expect) {
                    assert.strictEqual(ev.body.reason, 'pause', `${name}: ${JSON.stringify(ev.body)}`);
                    assert.strictEqual(ev.body.description, 'end of frame');
                } else {
                    assert.strictEqual(ev.body.reason, 'exception', `${name}: ${JSON.stringify(ev.body)}`);
                    assert.match(ev.body.text, expect, `${name}: ${ev.body.text}`);
                    assert.strictEqual(where.line, lineWith(where.text, needle), `${name}: the stop's line`);
                    assert.strictEqual(where.info.exceptionId, 'uninit');
                }
            } finally {
                await srv.stop();
            }
            if (env.DAP_E2E_VERBOSE) console.log(`dap_uninit: ${name} done`);
        }
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_uninit: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_uninit: all checks passed');
}

main().catch(e => { console.error('dap_uninit: FAIL:', e && e.stack || e); process.exit(1); });
