#!/usr/bin/env node
// Debug this vertex (issue 15 §2) end to end, with Microsoft's DAP client
// (@vscode/debugadapter-testsupport's DebugClient over the Unix socket of `glreplay dap`), on a
// capture of piglit's glsl-1.30 interpolation-mixed (Debian's shader_runner, surfaceless EGL): one
// triangle in a perspective frustum whose vertex data is the test file's [vertex data] table, and
// whose flat varying comes from the provoking (last) vertex.
//   * launch with "vertex": {x, y, target} (a pixel inside the triangle): the first stop (reason
//     "entry") is at the first line of the vertex shader, focused on the lane of the primitive's
//     provoking vertex (gl_VertexID 2, the pixel's flat colour is its input_data.r); the lane's
//     inputs (`vertex`, `input_data`) are that row of the [vertex data] table; the line's
//     `glr_ModelViewProjectionMatrix * vertex`, evaluated on the lane, is the clip position the model's
//     rasterizer took for that vertex (as glreplay/pixelHistory names it);
//   * glreplay/debugVertex {x, y, corner} for every corner of the primitive, and {draw, index} for
//     every vertex of the draw: each stop's lane has that row's inputs and that gl_VertexID;
//   * bad arguments (no such draw, corner 3, index and corner together) get an error response, and
//     a vertex the draw does not shade ends the pass with a message;
//   * `glreplay debug --vertex 0,1 --json` and `--pixel X,Y --target fbo1 --stage vertex --json`
//     stop at the same lanes; with a GLSL fragment shader and the fixed-function vertex stage the
//     stop is in the generated vertex shader (programN-fixed-function-0-VS.vert).
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
    if (!env[k]) { console.error(`dap_vertex: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_vertex: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const TEST = path.join(PIGLIT, 'tests/spec/glsl-1.30/execution/interpolation/interpolation-mixed.shader_test');
assert.ok(fs.existsSync(TEST), `${TEST} is missing (Debian package piglit)`);
const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const PX = 125, PY = 100;   // inside the triangle (piglit's 250x250 framebuffer object)

// The [vertex data] table of the shader_test: rows of {vertex: [x,y,z], input_data: [r,g,b]}.
function vertexData() {
    const text = fs.readFileSync(TEST, 'utf8').split('\n');
    const at = text.findIndex(l => l.trim() === '[vertex data]');
    const cols = text[at + 1].trim().split(/\s+/).map(c => { const [n, , k] = c.split('/'); return [n, Number(k)]; });
    const rows = [];
    for (let i = at + 2; i < text.length && text[i].trim() && !text[i].startsWith('['); i++) {
        const v = text[i].trim().split(/\s+/).map(Number);
        const row = {};
        let o = 0;
        for (const [n, k] of cols) { row[n] = v.slice(o, o + k); o += k; }
        rows.push(row);
    }
    return rows;
}

// "vec4(3, -3, -3, 1)" -> [3, -3, -3, 1]
const nums = s => (String(s).replace(/^[a-z]+\d*\(/, '').match(/-?[\d.]+(e[-+]?\d+)?/gi) || []).map(Number);
const close = (a, b, what) => {
    assert.strictEqual(a.length, b.length, `${what}: ${a} vs ${b}`);
    a.forEach((x, i) => assert.ok(Math.abs(x - b[i]) <= 1e-5 * Math.max(1, Math.abs(b[i])), `${what}: ${a} vs ${b}`));
};

const { server, connect } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);

async function top(dc) {
    const st = (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames;
    const ref = st[0].source.sourceReference;
    const text = (await dc.send('source', { source: st[0].source, sourceReference: ref })).body.content;
    return { frame: st[0], text };
}

const evalIn = async (dc, frameId, e) => (await dc.evaluateRequest({ expression: e, frameId, context: 'watch' })).body.result;

// The stopped lane's gl_VertexID and inputs agree with row `id` of the table.
async function checkLane(dc, rows, id, what) {
    const { frame, text } = await top(dc);
    assert.match(text.split('\n')[frame.line - 1], /gl_Position = gl_ModelViewProjectionMatrix \* vertex/,
                 `${what}: stopped at the vertex shader's first line`);
    assert.strictEqual(Number(await evalIn(dc, frame.id, 'gl_VertexID')), id, `${what}: gl_VertexID`);
    close(nums(await evalIn(dc, frame.id, 'vertex')), [...rows[id].vertex, 1], `${what}: vertex`);
    close(nums(await evalIn(dc, frame.id, 'input_data')), rows[id].input_data, `${what}: input_data`);
    return frame;
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-vtx-'));
    fs.chmodSync(tmp, 0o700);
    const rows = vertexData();
    assert.strictEqual(rows.length, 3);
    try {
        const capture = path.join(tmp, 'interp.glcap');
        const r = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', capture, '--',
            path.join(PIGLIT, 'bin', 'shader_runner'), TEST, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(r.status === 0 && fs.existsSync(capture), `capture failed: ${(r.stderr || '').slice(-400)}`);

        // The CLI: --vertex and --pixel ... --stage vertex.
        let cli = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--vertex', '0,1', '--json'], { encoding: 'utf8' });
        assert.strictEqual(cli.status, 0, cli.stderr);
        let j = JSON.parse(cli.stdout);
        assert.strictEqual(j.vertex.vertex, 1);
        assert.strictEqual(j.lanes[j.lane].vertexId, 1, 'the focused lane is vertex 1');
        cli = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--pixel', `${PX},${PY}`, '--target', 'fbo1', '--stage', 'vertex',
            '--json'], { encoding: 'utf8' });
        assert.strictEqual(cli.status, 0, cli.stderr);
        j = JSON.parse(cli.stdout);
        assert.strictEqual(j.vertex.vertex, 2, 'the provoking vertex of GL_TRIANGLES is the last');
        assert.strictEqual(j.vertex.provoking, 2);
        assert.strictEqual(j.lanes[j.lane].vertexId, 2);
        cli = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--vertex', '0,7'], { encoding: 'utf8' });
        assert.strictEqual(cli.status, 1);
        assert.match(cli.stderr, /vertex 7 \(instance 0\) is not among the vertices draw 0 shaded/);
        cli = cp.spawnSync(env.GLREPLAY, ['debug', capture, '--vertex', '0'], { encoding: 'utf8' });
        assert.strictEqual(cli.status, 2);

        // A GLSL fragment shader with the fixed-function vertex stage (no [vertex shader]): the
        // generated vertex shader is listed with the program and debug this vertex stops in it.
        const mixTest = path.join(tmp, 'mix.shader_test');
        fs.writeFileSync(mixTest, '[require]\nGLSL >= 1.10\n\n[fragment shader]\nuniform float k;\nvoid main()\n{\n' +
                         '\tgl_FragColor = gl_Color * k;\n}\n\n[test]\nuniform float k 0.5\ncolor 1.0 0.5 0.25 1.0\n' +
                         'draw rect -1 -1 2 2\n');
        const mixCap = path.join(tmp, 'mix.glcap');
        const mr = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', mixCap, '--',
            path.join(PIGLIT, 'bin', 'shader_runner'), mixTest, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(mr.status === 0 && fs.existsSync(mixCap), `capture failed: ${(mr.stderr || '').slice(-400)}`);
        cli = cp.spawnSync(env.GLREPLAY, ['debug', mixCap, '--list'], { encoding: 'utf8' });
        const ffName = (/(program\d+-fixed-function-0-VS\.vert) +VS/.exec(cli.stdout) || [])[1];
        assert.ok(ffName, cli.stdout);
        cli = cp.spawnSync(env.GLREPLAY, ['debug', mixCap, '--vertex', '0,2', '--json'], { encoding: 'utf8' });
        assert.strictEqual(cli.status, 0, cli.stderr);
        j = JSON.parse(cli.stdout);
        assert.strictEqual(j.breakpoint.source, ffName);
        assert.strictEqual(j.lanes[j.lane].vertexId, 2);

        const srv = await server(capture, tmp);
        try {
            // The pixel's history: its fragment names the primitive's vertices.
            let dc = await connect(srv.sock);
            const hist = (await dc.send('glreplay/pixelHistory', { x: PX, y: PY, target: 'fbo1', driver: false })).body;
            const ev = hist.events.find(e => e.fragments && e.fragments.length);
            assert.ok(ev, 'a draw reached the pixel');
            const frag = ev.fragments[ev.fragments.length - 1];
            assert.deepStrictEqual(frag.vertices.map(v => v.vertex_id), [0, 1, 2]);
            assert.strictEqual(frag.provoking, 2);
            // The flat varying is the provoking vertex's input_data.r.
            close([frag.shader.outputs[0][0]], [rows[2].input_data[0]], 'flat colour');

            // launch "vertex" from the pixel: the provoking vertex, stopped at entry.
            const launched = dc.launchRequest({ program: capture, vertex: { x: PX, y: PY, target: 'fbo1' } });
            const stopped = dc.waitForEvent('stopped');
            await dc.configurationDoneRequest();
            await launched;
            const st = await stopped;
            assert.strictEqual(st.body.reason, 'entry', JSON.stringify(st.body));
            assert.match(st.body.description, /invocation of vertex 2 \(instance 0\) of draw 0/);
            const frame = await checkLane(dc, rows, 2, 'from the pixel');
            // The line's gl_Position, computed by the debugger's evaluator from the lane's input and
            // the uniform (the snapshot does not hold gl_Position; the model names the compatibility uniform glr_*), is the clip position the model's
            // rasterizer took for the vertex.
            close(nums(await evalIn(dc, frame.id, 'glr_ModelViewProjectionMatrix * vertex')), frag.vertices[2].position,
                  'gl_Position at the rasterizer');
            let next;

            // debugVertex: every corner of the pixel's primitive, then every vertex by draw and index.
            for (const corner of [0, 1, 2]) {
                next = dc.waitForEvent('stopped');
                const ans = (await dc.send('glreplay/debugVertex', { x: PX, y: PY, target: 'fbo1', corner })).body;
                assert.strictEqual(ans.vertex, corner);
                assert.strictEqual(ans.corner, corner);
                assert.strictEqual(ans.provoking, 2);
                close(ans.vertices[corner].position, frag.vertices[corner].position, 'answered position');
                assert.strictEqual((await next).body.reason, 'entry');
                await checkLane(dc, rows, corner, `corner ${corner}`);
            }
            for (const index of [0, 1, 2]) {
                next = dc.waitForEvent('stopped');
                const ans = (await dc.send('glreplay/debugVertex', { draw: 0, index })).body;
                assert.strictEqual(ans.draw, 0);
                assert.strictEqual(ans.vertex, index);
                assert.strictEqual((await next).body.reason, 'entry');
                await checkLane(dc, rows, index, `index ${index}`);
            }
            await assert.rejects(dc.send('glreplay/debugVertex', { draw: 5, index: 0 }), /the frame has 1 draws/);
            await assert.rejects(dc.send('glreplay/debugVertex', { x: PX, y: PY, target: 'fbo1', corner: 3 }), /'corner' 0, 1 or 2/);
            await assert.rejects(dc.send('glreplay/debugVertex', { draw: 0, index: 1, corner: 1 }), /'corner' picks a vertex of a pixel/);
            // A vertex the draw does not shade: the pass ends, saying so.
            next = dc.waitForEvent('stopped');
            await dc.send('glreplay/debugVertex', { draw: 0, index: 9 });
            assert.strictEqual((await next).body.description, 'end of frame');
            assert.ok(dc.outputs.some(o => /vertex 9 \(instance 0\) is not among the vertices draw 0 shaded/.test(o)), dc.outputs.join(''));
            await dc.disconnectRequest({});
            dc.stopAdapter();

            // attach with a bad "vertex" fails with the reason.
            dc = await connect(srv.sock);
            await assert.rejects(dc.attachRequest({ vertex: { draw: 0 } }), /'draw' and 'index' go together/);
            dc.stopAdapter();
        } finally {
            await srv.stop();
        }
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], 'messages that do not match DebugProtocol types');
        console.log(`dap_vertex: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_vertex: all checks passed');
}

main().catch(e => { console.error('dap_vertex: FAIL:', e && e.stack || e); process.exit(1); });
