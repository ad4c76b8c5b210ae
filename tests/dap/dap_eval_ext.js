#!/usr/bin/env node
// Built-ins the shader does not declare, setExpression, and evaluate's derivatives and texture
// functions (issue 14), with Microsoft's DAP client over the Unix socket of `glreplay dap`:
//  * on a capture of piglit's shader_runner drawing tests/dap/two_sided.shader_test (a counter-
//    clockwise rectangle on the left, a clockwise one on the right, culling off, a fragment
//    shader that never reads gl_FrontFacing): the first stop's Built-ins have gl_FrontFacing true
//    and gl_FragCoord on the left half; a breakpoint with the condition `!gl_FrontFacing` stops in
//    the right half with gl_FrontFacing false; dFdx(gl_FragCoord.x) is 1, fwidth of xy is (1, 1);
//    completions offer the new names; a point sprite (tests/dap/point_sprite.shader_test) has the
//    gl_PointCoord its pixel has in the point;
//  * on a capture of samples/lit_mesh, stopped in ground.frag after `albedo = texture(u_ground_tex,
//    v_uv).rgb`: evaluate's texture(u_ground_tex, v_uv).rgb is exactly albedo on several lanes
//    and, through glreplay/evaluateWarp, on every active lane (the model's texture unit, each lane's
//    quad derivatives for the mipmap level); textureSize at
//    levels 0 and 1; texelFetch of texel (1, 1) equals textureLod at its centre and is the checker's
//    colour there (texel (0, 0) its border's); dFdx/dFdy(v_uv) equal the quad's differences of the lanes' v_uv;
//  * setExpression: albedo = vec3(0.0) makes the lane's output frag_color the fog colour's share
//    alone (the pixel value changes); a component, a swizzle, and the refusals (a uniform, a
//    built-in, a repeated swizzle, an index out of range, an unknown name);
//  * a vertex stop has gl_VertexID / gl_InstanceID (mesh.vert reads neither), within the thread's
//    vertex range; a breakpoint condition with texture() stops where the lane's texel passes it.
// Every message received is type-checked against the official protocol definitions.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, SHADER_DIR, NODE_MODULES; PIGLIT optional;
// DISPLAY reaches an X server (lit_mesh).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'SHADER_DIR', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_eval_ext: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_eval_ext: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const RUNNER = path.join(PIGLIT, 'bin', 'shader_runner');
assert.ok(fs.existsSync(RUNNER), `${RUNNER} is missing (Debian package piglit)`);
const TWO = path.join(__dirname, 'two_sided.shader_test');
const GROUND = path.join(env.SHADER_DIR, 'ground.frag');
const groundLines = fs.readFileSync(GROUND, 'utf8').split('\n');
const LINE_L = groundLines.findIndex(l => l.includes('vec3 l = normalize(u_light_pos[0]')) + 1;
const LINE_OUT = groundLines.findIndex(l => l.includes('frag_color = vec4(mix(')) + 1;
const MESH_VS = path.join(env.SHADER_DIR, 'mesh.vert');
const LINE_VS = fs.readFileSync(MESH_VS, 'utf8').split('\n').findIndex(l => l.includes('vec4 world = u_model')) + 1;
assert.ok(LINE_L > 0 && LINE_OUT > LINE_L && LINE_VS > 0, 'the sample shaders have the lines this test stops at');

const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const nums = s => { const m = /\(([^)]*)\)/.exec(s); return m ? m[1].split(',').map(Number) : [Number(s)]; };
const close = (a, b, what, tol = 1e-6) => assert.ok(Math.abs(a - b) <= tol * Math.max(1, Math.abs(b)), `${what}: ${a} vs ${b}`);

const { server, connectInit } = require('./dap_socket_server.js')(env.GLREPLAY, UnixDebugClient);
const connect = async sock => { const { dc, init } = await connectInit(sock); return { dc, init: init.body }; };

async function startAt(dc, source, bps) {
    const attachP = dc.attachRequest({});
    await dc.setBreakpointsRequest({ source, breakpoints: bps });
    const stopped = dc.waitForEvent('stopped');
    await dc.configurationDoneRequest();
    await attachP;
    return (await stopped).body;
}
const top = async dc => (await dc.stackTraceRequest({ threadId: 1 })).body.stackFrames[0];
const ev = async (dc, expr) => (await dc.evaluateRequest({ expression: expr, frameId: (await top(dc)).id, context: 'watch' })).body;
async function builtins(dc) {
    const sc = (await dc.scopesRequest({ frameId: (await top(dc)).id })).body.scopes.find(s => s.name === 'Built-ins');
    const vars = (await dc.variablesRequest({ variablesReference: sc.variablesReference })).body.variables;
    return Object.fromEntries(vars.map(v => [v.name, v]));
}

async function twoSided(sock) {
    const { dc, init } = await connect(sock);
    assert.strictEqual(init.supportsSetExpression, true, 'supportsSetExpression');
    // The fragment shader's `vec4 c = color;` (line 6 of the captured text, served by reference).
    const src = (await dc.send('loadedSources', {})).body.sources.find(s => /FS/.test(s.name));
    assert.ok(src, 'the fragment shader is a loaded source');
    const st = await startAt(dc, src, [{ line: 6 }]);
    assert.strictEqual(st.reason, 'breakpoint');
    let b = await builtins(dc);
    assert.ok(b.gl_FrontFacing && b.gl_FragCoord && b.gl_PrimitiveID && b.gl_HelperInvocation,
              `undeclared built-ins in the Built-ins scope: ${Object.keys(b)}`);
    assert.strictEqual(b.gl_FrontFacing.type, 'bool');
    assert.strictEqual(b.gl_FrontFacing.value, 'true', 'the first draw is counter-clockwise');
    assert.strictEqual(b.gl_FragCoord.type, 'vec4');
    assert.strictEqual((await ev(dc, 'gl_FrontFacing')).result, 'true');
    const fc = nums((await ev(dc, 'gl_FragCoord')).result);
    assert.ok(fc[0] < 32 && fc[0] % 1 === 0.5 && fc[1] % 1 === 0.5, `left half, pixel centre: ${fc}`);
    // Derivatives over the quad: x grows by one pixel to the right.
    close(Number((await ev(dc, 'dFdx(gl_FragCoord.x)')).result), 1, 'dFdx(gl_FragCoord.x)');
    close(Number((await ev(dc, 'dFdy(gl_FragCoord.x)')).result), 0, 'dFdy(gl_FragCoord.x)');
    assert.deepStrictEqual(nums((await ev(dc, 'fwidth(gl_FragCoord.xy)')).result), [1, 1], 'fwidth(gl_FragCoord.xy)');
    assert.strictEqual((await ev(dc, 'dFdx(vec2(color.y, 2.0))')).result, 'vec2(0, 0)', 'a uniform does not vary');
    // completions: the new functions and the built-ins of this stop.
    const labels = async text => (await dc.send('completions', { text, column: text.length + 1 })).body.targets.map(t => t.label);
    const gl = await labels('gl_F');
    assert.ok(gl.includes('gl_FrontFacing') && gl.includes('gl_FragCoord'), `completions of gl_F: ${gl}`);
    const tx = await labels('tex');
    for (const f of ['texture', 'textureLod', 'textureOffset', 'texelFetch', 'textureSize'])
        assert.ok(tx.includes(f), `completions of tex: ${tx}`);
    const dfs = await labels('fw');
    assert.ok(dfs.includes('fwidth'), `completions of fw: ${dfs}`);
    // A condition on the undeclared built-in: the first back-facing fragment, in the right half.
    await dc.setBreakpointsRequest({ source: src, breakpoints: [{ line: 6, condition: '!gl_FrontFacing' }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.continueRequest({ threadId: 1 });
    assert.strictEqual((await stopped).body.reason, 'breakpoint');
    b = await builtins(dc);
    assert.strictEqual(b.gl_FrontFacing.value, 'false', 'the second draw is clockwise');
    assert.ok(nums((await ev(dc, 'gl_FragCoord')).result)[0] >= 32, 'the right half');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// gl_PointCoord of a point sprite the fragment shader does not read: s grows to the right from the
// point's left edge, t downwards from its top (GL_POINT_SPRITE_COORD_ORIGIN upper left).
async function pointSprite(sock) {
    const { dc } = await connect(sock);
    const src = (await dc.send('loadedSources', {})).body.sources.find(s => /FS/.test(s.name));
    await startAt(dc, src, [{ line: 4, hitCondition: '5' }]);
    const b = await builtins(dc);
    assert.ok(b.gl_PointCoord && b.gl_PointCoord.type === 'vec2', `gl_PointCoord in Built-ins: ${Object.keys(b)}`);
    const [x, y] = nums((await ev(dc, 'gl_FragCoord')).result);
    const pc = nums((await ev(dc, 'gl_PointCoord')).result);
    close(pc[0], (x - 16) / 16 + 0.5, 'gl_PointCoord.s');
    close(pc[1], 1 - ((y - 16) / 16 + 0.5), 'gl_PointCoord.t');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

async function litMesh(sock) {
    const { dc } = await connect(sock);
    // hit 200: a warp well inside the ground, every lane of its quads covered.
    await startAt(dc, { path: GROUND }, [{ line: LINE_L, hitCondition: '200' }]);
    const albedo = (await ev(dc, 'albedo')).result;
    assert.strictEqual((await ev(dc, 'texture(u_ground_tex, v_uv).rgb')).result, albedo, 'texture() in evaluate is the shader\'s');
    // Other lanes of the warp: the same through glreplay/focus.
    const warp = (await dc.send('glreplay/evaluateWarp', { expression: 'albedo' })).body;
    const lanes = warp.lanes.filter(l => l.state === 'active' && !l.helper).map(l => l.lane);
    assert.ok(lanes.length >= 4, `active lanes: ${lanes}`);
    for (const lane of [lanes[1], lanes[lanes.length >> 1], lanes[lanes.length - 1]]) {
        await dc.send('glreplay/focus', { lane });
        assert.strictEqual((await ev(dc, 'texture(u_ground_tex, v_uv).rgb')).result, warp.lanes[lane].value,
                           `lane ${lane}: texture() in evaluate is the shader's`);
    }
    await dc.send('glreplay/focus', { lane: warp.focusLane });
    // Every lane at once (glreplay/evaluateWarp), helpers included: each with its own quad.
    const tw = (await dc.send('glreplay/evaluateWarp', { expression: 'texture(u_ground_tex, v_uv).rgb' })).body;
    const alive = warp.lanes.filter(l => l.state === 'active');
    assert.ok(alive.length >= lanes.length);
    for (const l of alive)
        assert.strictEqual(tw.lanes[l.lane].value, l.value, `evaluateWarp lane ${l.lane}: texture() is the shader's`);
    assert.strictEqual((await ev(dc, 'textureSize(u_ground_tex, 0)')).result, 'ivec2(64, 64)');
    assert.strictEqual((await ev(dc, 'textureSize(u_ground_tex, 1)')).result, 'ivec2(32, 32)');
    // Texel (1, 1): inside the checker's first cell (grass; its row and column 0 are a darker border).
    const t11 = (await ev(dc, 'texelFetch(u_ground_tex, ivec2(1, 1), 0)')).result;
    assert.strictEqual((await ev(dc, 'textureLod(u_ground_tex, vec2(1.5 / 64.0, 1.5 / 64.0), 0.0)')).result, t11,
                       'texelFetch and textureLod at the texel centre');
    assert.deepStrictEqual(nums(t11).map(v => Math.round(v * 255)), [110, 150, 90, 255], 'the checker\'s grass colour');
    const t00 = nums((await ev(dc, 'texelFetch(u_ground_tex, ivec2(0, 0), 0)')).result).map(v => Math.round(v * 255));
    assert.deepStrictEqual(t00, [82, 112, 67, 255], 'the border texel (3/4 of grass)');
    assert.notStrictEqual((await ev(dc, 'textureLod(u_ground_tex, v_uv, 6.0)')).result,
                          (await ev(dc, 'textureLod(u_ground_tex, v_uv, 0.0)')).result, 'the level matters');
    // Derivatives equal the lanes' differences in the quad.
    const uv = (await dc.send('glreplay/evaluateWarp', { expression: 'v_uv' })).body.lanes.map(l => nums(l.value));
    const f = warp.focusLane, q = f & ~3;
    const dx = (f & 3) < 2 ? uv[q + 1].map((v, k) => v - uv[q][k]) : uv[q + 3].map((v, k) => v - uv[q + 2][k]);
    const dy = (f & 1) === 0 ? uv[q + 2].map((v, k) => v - uv[q][k]) : uv[q + 3].map((v, k) => v - uv[q + 1][k]);
    nums((await ev(dc, 'dFdx(v_uv)')).result).forEach((v, k) => close(v, dx[k], `dFdx(v_uv)[${k}]`, 1e-5));
    nums((await ev(dc, 'dFdy(v_uv)')).result).forEach((v, k) => close(v, dy[k], `dFdy(v_uv)[${k}]`, 1e-5));
    await assert.rejects(dc.evaluateRequest({ expression: 'texture(u_fog_distance, v_uv)', frameId: (await top(dc)).id }),
                         /needs a sampler/);
    // Built-ins of this stop, also through evaluate.
    assert.strictEqual((await ev(dc, 'gl_FrontFacing')).result, 'true', 'the ground is seen from above');

    // setExpression: a component, a swizzle, the whole vector; each answered and the view refreshed.
    const setExpr = async (expression, value) => {
        const stopped = dc.waitForEvent('stopped');
        const r = await dc.send('setExpression', { expression, value, frameId: (await top(dc)).id });
        await stopped;
        return r.body;
    };
    assert.strictEqual((await setExpr('albedo.g', '0.125')).value, '0.125');
    assert.strictEqual(nums((await ev(dc, 'albedo')).result)[1], 0.125);
    await setExpr('albedo.zx', 'vec2(0.5, 0.25)');
    assert.deepStrictEqual(nums((await ev(dc, 'albedo')).result), [0.25, 0.125, 0.5]);
    const whole = await setExpr('albedo', 'vec3(0.0)');
    assert.strictEqual(whole.value, 'vec3(0, 0, 0)');
    assert.strictEqual(whole.type, 'vec3');
    assert.strictEqual((await top(dc)).line, LINE_L, 'the same stop');
    for (const [expression, value, re] of [['u_fog_color', 'vec3(1.0)', /only per-lane/],
                                           ['gl_FrontFacing', 'false', /only per-lane/],
                                           ['albedo.xx', 'vec2(1.0)', /not an assignable swizzle/],
                                           ['albedo[3]', '1.0', /outside \[0, 3\)/],
                                           ['nope', '1.0', /unknown variable 'nope'/],
                                           ['albedo', 'vec2(1.0, 2.0)', /has 2 component\(s\), the variable 3/]])
        await assert.rejects(dc.send('setExpression', { expression, value, frameId: (await top(dc)).id }), re, expression);
    // The model runs on with albedo = 0: step to the output line, then instruction by instruction
    // until the lane has stored frag_color: it is the fog's share alone.
    const step = async granularity => {
        const stopped = dc.waitForEvent('stopped');
        await dc.nextRequest({ threadId: 1, granularity });
        await stopped;
    };
    for (let i = 0; i < 12 && (await top(dc)).line < LINE_OUT; i++)
        await step('statement');
    assert.strictEqual((await top(dc)).line, LINE_OUT, 'at the output line');
    for (let i = 0; i < 80 && nums((await ev(dc, 'frag_color')).result)[3] !== 1; i++)
        await step('instruction');
    assert.strictEqual(nums((await ev(dc, 'frag_color')).result)[3], 1, 'frag_color was stored');
    nums((await ev(dc, 'frag_color - vec4(mix(vec3(0.0), u_fog_color, fog * fog), 1.0)')).result)
        .forEach((v, k) => close(v, 0, `frag_color[${k}] with albedo 0`));
    // ... which is not what the lane had computed: the fog does not hide the ground's colour there.
    assert.ok(Number((await ev(dc, 'fog * fog')).result) < 0.99 && nums(albedo).some(v => v > 0.1),
              'without the new albedo the output would differ');

    // A vertex stop: gl_VertexID and gl_InstanceID, which mesh.vert does not declare.
    await dc.setBreakpointsRequest({ source: { path: GROUND }, breakpoints: [] });
    await dc.setBreakpointsRequest({ source: { path: MESH_VS }, breakpoints: [{ line: LINE_VS }] });
    const stopped = dc.waitForEvent('stopped');
    await dc.send('restart', {});
    await stopped;
    const vb = await builtins(dc);
    assert.ok(vb.gl_VertexID && vb.gl_InstanceID, `vertex built-ins: ${Object.keys(vb)}`);
    assert.strictEqual((await ev(dc, 'gl_InstanceID')).result, '0');
    const thread = (await dc.threadsRequest()).body.threads.find(t => t.id === 1).name;
    const m = /vertices (\d+)\.\.(\d+)/.exec(thread);
    assert.ok(m, `the thread names its vertices: ${thread}`);
    const ids = (await dc.send('glreplay/evaluateWarp', { expression: 'gl_VertexID' })).body.lanes
        .filter(l => l.state === 'active').map(l => Number(l.value));
    assert.ok(ids.length > 0 && ids.every(v => v >= Number(m[1]) && v <= Number(m[2])), `gl_VertexID ${ids} in ${thread}`);

    // texture() in a breakpoint condition (the engine samples through the observed warp's units):
    // the third fragment whose texel is a grass cell's interior (green 150/255; moss and the
    // borders are below 0.46).
    await dc.setBreakpointsRequest({ source: { path: MESH_VS }, breakpoints: [] });
    const bp = await dc.setBreakpointsRequest({ source: { path: GROUND }, breakpoints: [
        { line: LINE_L, condition: 'texture(u_ground_tex, v_uv).g > 0.55', hitCondition: '3' }] });
    assert.strictEqual(bp.body.breakpoints[0].verified, true);
    const stopped2 = dc.waitForEvent('stopped');
    await dc.send('restart', {});
    assert.strictEqual((await stopped2).body.reason, 'breakpoint');
    assert.strictEqual((await top(dc)).line, LINE_L);
    assert.ok(nums((await ev(dc, 'albedo')).result)[1] > 0.55, 'the condition sampled the lane\'s texel');
    await dc.disconnectRequest({});
    dc.stopAdapter();
}

// Each capture's server has its own socket directory under tmp.
async function withServer(capture, tmp, fn) {
    const srv = await server(capture, tmp, `s-${path.basename(capture)}`);
    try {
        await fn(srv.sock);
    } finally {
        await srv.stop();
    }
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-dape-'));
    try {
        const two = path.join(tmp, 'two.glcap');
        const pc = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', two, '--', RUNNER, TWO, '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(pc.status === 0 && fs.existsSync(two), `piglit capture failed: ${(pc.stderr || '').slice(-400)}`);
        await withServer(two, tmp, twoSided);
        const pts = path.join(tmp, 'pts.glcap');
        const pp = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', pts, '--', RUNNER,
            path.join(__dirname, 'point_sprite.shader_test'), '-auto', '-fbo'], {
            env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.ok(pp.status === 0 && fs.existsSync(pts), `piglit capture failed: ${(pp.stderr || '').slice(-400)}`);
        await withServer(pts, tmp, pointSprite);
        const lit = path.join(tmp, 'lit.glcap');
        const lc = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', '96x64'], {
            env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: lit },
            encoding: 'utf8', timeout: 120000 });
        assert.strictEqual(lc.status, 0, `capture failed: ${lc.stderr}`);
        await withServer(lit, tmp, litMesh);
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], `messages that do not match DebugProtocol types:\n${typeErrors.join('\n')}`);
        console.log(`dap_eval_ext: ${received.length} messages match the DebugProtocol types`);
    } finally {
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('dap_eval_ext: all checks passed');
}

main().catch(e => { console.error('dap_eval_ext: FAIL:', e && e.stack || e); process.exit(1); });
