#!/usr/bin/env node
// Pixel history and debug-this-pixel end to end, with Microsoft's DAP test client
// (@vscode/debugadapter-testsupport's DebugClient over the Unix socket of `glreplay dap`), on a
// capture of samples/lit_mesh:
//   * `glreplay pixel --json` (the CLI): the history's value after each event equals the driver's
//     (its probe), and a draw there wrote the pixel;
//   * launch with "pixel": {x, y}: the first stop (reason "entry") is in the fragment shader of the
//     draw that wrote the pixel, its focused lane at that pixel; stepping it to its end, its output
//     is the driver's pixel;
//   * glreplay/pixelHistory answers the same history as the CLI (from the driver answers the
//     launch's history kept: no second driver replay); glreplay/debugPixel with an event
//     of that history stops in that draw at that pixel; bad arguments get an error response.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, NODE_MODULES; DISPLAY reaches an X server.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_pixel: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_pixel: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES);
const W = 160, H = 90, X = 80, Y = 45;

async function stopTop(dc) {
    const st = await dc.stackTraceRequest({ threadId: 1 });
    return st.body.stackFrames[0];
}

async function builtins(dc, frameId) {
    const sc = await dc.scopesRequest({ frameId });
    const scope = sc.body.scopes.find(s => s.name === 'Built-ins');
    const vars = await dc.variablesRequest({ variablesReference: scope.variablesReference });
    const map = {};
    for (const v of vars.body.variables) map[v.name] = v.value;
    return map;
}

async function evalIn(dc, frameId, expr) {
    const r = await dc.evaluateRequest({ expression: expr, frameId, context: 'watch' });
    return r.body.result;
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-pixel-'));
    const capture = path.join(tmp, 'lit.glcap');
    const cap = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', `${W}x${H}`], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: capture },
        encoding: 'utf8', timeout: 120000 });
    assert.strictEqual(cap.status, 0, `capture failed: ${cap.stderr}`);

    // The CLI.
    const cli = cp.spawnSync(env.GLREPLAY, ['pixel', capture, '--at', `${X},${Y}`, '--json'], { encoding: 'utf8' });
    assert.strictEqual(cli.status, 0, cli.stderr);
    const hist = JSON.parse(cli.stdout);
    assert.strictEqual(hist.target, 'ctx1/default/back');
    const written = hist.events.filter(e => e.kind === 'draw' && !e.rejected);
    assert.ok(written.length >= 1, 'no draw wrote the pixel');
    let checked = 0;
    for (const e of hist.events) {
        assert.ok(Array.isArray(e.driver), `event ${e.record}: no driver value`);
        assert.deepStrictEqual(e.after, e.driver, `event ${e.record}: model and driver differ`);
        checked++;
    }
    assert.deepStrictEqual(hist.final, written[written.length - 1].after);
    const bad = cp.spawnSync(env.GLREPLAY, ['pixel', capture, '--at', `${W + 5},${Y}`], { encoding: 'utf8' });
    assert.strictEqual(bad.status, 2);
    assert.match(bad.stderr, /^glreplay: pixel: pixel \(165, 45\) is outside context 1's 160x90 back buffer\n$/);

    const sock = path.join(tmp, 'dap.sock');
    const server = cp.spawn(env.GLREPLAY, ['dap', '--socket', sock, capture], { stdio: ['ignore', 'pipe', 'pipe'] });
    let log = '';
    server.stdout.on('data', d => { log += d; });
    server.stderr.on('data', d => { log += d; });
    for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await new Promise(r => setTimeout(r, 50));
    assert.ok(fs.existsSync(sock), `no socket: ${log}`);
    try {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 30000;
        await dc.start();
        const initializedP = dc.waitForEvent('initialized');
        await dc.initializeRequest();
        await initializedP;
        // A bad pixel argument fails the launch with a message.
        const badLaunch = await dc.launchRequest({ pixel: { x: -1, y: 3 } }).catch(e => e);
        assert.ok(badLaunch instanceof Error && /pixel: 'x' and 'y'/.test(badLaunch.message), String(badLaunch));
        const launchP = dc.launchRequest({ pixel: { x: X, y: Y } });
        const stoppedP = dc.waitForEvent('stopped');
        await dc.configurationDoneRequest();
        await launchP;
        const stopped = await stoppedP;
        assert.strictEqual(stopped.body.reason, 'entry');
        const last = written[written.length - 1];
        assert.ok(stopped.body.description.includes(`pixel (${X}, ${Y}) at event ${last.record}`), stopped.body.description);
        const threads = await dc.threadsRequest();
        assert.ok(threads.body.threads[0].name.startsWith(`draw ${last.draw} · FS`), threads.body.threads[0].name);
        const top = await stopTop(dc);
        const b = await builtins(dc, top.id);
        assert.ok(b.invocation.startsWith(`draw ${last.draw} (event ${last.record})`) && b.invocation.endsWith(`(${X},${Y})`),
                  `invocation ${b.invocation}`);
        const line1 = top.line;
        // Step the invocation to the line that writes its output and evaluate the value written
        // there (its right-hand side): it is the driver's pixel (no blending in lit_mesh).
        const src = await dc.sourceRequest({ source: top.source, sourceReference: top.source.sourceReference || 0 });
        const lines = src.body.content.split('\n');
        let out = null;
        for (let i = 0; i < 80 && out === null; i++) {
            const t = await stopTop(dc);
            const m = /frag_color\s*=\s*(.*);/.exec(lines[t.line - 1] || '');
            if (m) {
                out = await evalIn(dc, t.id, m[1]);
                break;
            }
            const sp = dc.waitForEvent('stopped');
            await dc.nextRequest({ threadId: 1 });
            const ev = await sp;
            assert.ok(!/finished/.test(ev.body.description || ''), 'the invocation ended before writing frag_color');
        }
        assert.ok(out !== null, 'no line writing frag_color reached');
        const outv = out.replace(/^[a-z0-9]*\(/, '').match(/-?[\d.]+(e[+-]?\d+)?/g).map(Number);
        const unorm = outv.map(v => Math.round(Math.min(Math.max(v, 0), 1) * 255));
        assert.deepStrictEqual(unorm, last.driver, `the invocation's output ${out} is not the driver's pixel ${last.driver}`);

        // The history over DAP: the same events as the CLI's. It runs on its own thread: the
        // server answers other requests meanwhile, and a second run waits for the first.
        const phP = dc.customRequest('glreplay/pixelHistory', { x: X, y: Y });
        const busy = await dc.customRequest('glreplay/pixelHistory', { x: X, y: Y }).catch(e => e);
        assert.ok(busy instanceof Error && /busy/.test(busy.message), String(busy));
        const th = await dc.threadsRequest();
        assert.ok(th.body.threads.length >= 1);
        const ph = await phP;
        assert.deepStrictEqual(ph.body.events.map(e => [e.record, e.after, e.driver]),
                               hist.events.map(e => [e.record, e.after, e.driver]));
        // the launch's history (debug this pixel) kept the driver's answers: this one ran no
        // driver replay, and its driver values above are still the CLI's
        assert.strictEqual(ph.body.driver_cached, true, 'the second history of the session replayed the driver');
        const phBad = await dc.customRequest('glreplay/pixelHistory', { x: X }).catch(e => e);
        assert.ok(phBad instanceof Error && /'x' and 'y'/.test(phBad.message), String(phBad));

        // Debug a chosen event of the history (the first draw that wrote it).
        const first = written[0];
        const sp = dc.waitForEvent('stopped');
        const dp = await dc.customRequest('glreplay/debugPixel', { x: X, y: Y, event: first.record });
        assert.strictEqual(dp.body.event, first.record);
        assert.strictEqual(dp.body.draw, first.draw);
        const s2 = await sp;
        assert.strictEqual(s2.body.reason, 'entry');
        const t2 = await dc.threadsRequest();
        assert.ok(t2.body.threads[0].name.startsWith(`draw ${first.draw} · FS`), t2.body.threads[0].name);
        const top2 = await stopTop(dc);
        assert.strictEqual(top2.line, dp.body.line);
        const b2 = await builtins(dc, top2.id);
        assert.ok(b2.invocation.startsWith(`draw ${first.draw} (event ${first.record})`) && b2.invocation.endsWith(`(${X},${Y})`),
                  `invocation ${b2.invocation}`);
        // A history entry names a fragment by its primitive.
        const prim = last.fragments.filter(f => f.outcome === 'written').pop().primitive;
        const sp3 = dc.waitForEvent('stopped');
        const dp3 = await dc.customRequest('glreplay/debugPixel', { x: X, y: Y, event: last.record, primitive: prim });
        assert.strictEqual(dp3.body.primitive, prim);
        assert.strictEqual((await sp3).body.reason, 'entry');
        const noPrim = await dc.customRequest('glreplay/debugPixel', { x: X, y: Y, event: last.record, primitive: prim + 100000 }).catch(x => x);
        assert.ok(noPrim instanceof Error && /no fragment of primitive/.test(noPrim.message), String(noPrim));
        const notDraw = hist.events.find(e => e.kind === 'clear');
        if (notDraw) {
            const e = await dc.customRequest('glreplay/debugPixel', { x: X, y: Y, event: notDraw.record }).catch(x => x);
            assert.ok(e instanceof Error && /is a clear, not a draw/.test(e.message), String(e));
        }
        await dc.disconnectRequest({});
        dc.stopAdapter();
        console.log(`dap_pixel: ${checked} events agree with the driver; stops at line ${line1} (draw ${last.draw}, ` +
                    `output ${out} = driver ${last.driver}) and ` +
                    `line ${top2.line} (draw ${first.draw}) at pixel (${X}, ${Y})`);
    } finally {
        server.kill('SIGTERM');
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

main().catch(e => { console.error('dap_pixel: FAIL:', e && e.stack ? e.stack : e); process.exit(1); });
