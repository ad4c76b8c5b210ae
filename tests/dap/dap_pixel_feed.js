#!/usr/bin/env node
// Debug this pixel over DAP takes the earlier passes from the driver (issue 15), with Microsoft's
// DAP test client over the Unix socket of `glreplay dap`, on a capture of samples/multipass (5
// draws into an FBO, then the post-process draw into the back buffer that writes pixel 80,45 and
// samples the FBO's images):
//   * launch with "pixel": the stop's console line says what the model ran: no draw before the
//     stop, the FBO pass's 5 draws from the driver's images (as `glreplay debug --pixel --json`
//     "model_run" says; tests/dap/debug_pixel_cost.sh);
//   * steps resume that run (textures sampled from the driver's images): stepping the invocation
//     to its `frag_color =` line, the value written is the driver's pixel;
//   * a continue from that stop (its position counted without the left-out draws) first runs the
//     whole frame to the stop, then stops at the NEXT hit of a breakpoint on the stop's line, not
//     at an earlier one; reverseContinue from there comes back to the pixel's invocation;
//   * glreplay/debugPixel: the same, and a reverseContinue from its stop reaches the hit just
//     before the pixel's invocation in the frame's order (not one of the draw's first);
//   * every message matches the DebugProtocol types.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, MULTIPASS, NODE_MODULES.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'MULTIPASS', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_pixel_feed: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_pixel_feed: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const W = 160, H = 90, X = 80, Y = 45;

async function stopTop(dc) {
    const st = await dc.stackTraceRequest({ threadId: 1 });
    return st.body.stackFrames[0];
}

// The focused lane's pixel from the Built-ins scope's "invocation" ("draw D (event E) ... (x,y)").
async function invocation(dc) {
    const top = await stopTop(dc);
    const sc = await dc.scopesRequest({ frameId: top.id });
    const scope = sc.body.scopes.find(s => s.name === 'Built-ins');
    const vars = await dc.variablesRequest({ variablesReference: scope.variablesReference });
    const inv = vars.body.variables.find(v => v.name === 'invocation').value;
    const m = /^draw (\d+) \(event (\d+)\).*\((\d+),(\d+)\)$/.exec(inv);
    assert.ok(m, `invocation ${inv}`);
    return { draw: +m[1], event: +m[2], x: +m[3], y: +m[4], line: top.line, source: top.source, text: inv };
}

async function until(dc, action) {
    const sp = dc.waitForEvent('stopped');
    await action();
    return sp;
}

// What the stop's console line says the model ran; ckpt: a checkpoint of an earlier run may stand
// in for the driver's images (the run is as short).
function modelRunLine(dc, from, ckpt) {
    const l = dc.outputs.slice(from).find(o => /^debug this pixel: the model ran/.test(o));
    assert.ok(l, `no "debug this pixel: the model ran" line in ${JSON.stringify(dc.outputs.slice(from))}`);
    const c = ckpt && /ran (\d+) records and (\d+) draws before the stop; it started at the checkpoint before draw (\d+)/.exec(l);
    if (c)
        return { records: +c[1], draws: +c[2], leftOut: 0, ckpt: +c[3] };
    const m = /ran (\d+) records and (\d+) draws before the stop; the (\d+) draws of earlier passes came from the driver/.exec(l);
    assert.ok(m, `the earlier passes did not come from the driver: ${l}`);
    return { records: +m[1], draws: +m[2], leftOut: +m[3] };
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-pixfeed-'));
    const capture = path.join(tmp, 'mp.glcap');
    const cap = cp.spawnSync(env.MULTIPASS, ['--frames', '2', '--size', `${W}x${H}`], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '0-1', GLREPLAY_CAPTURE_OUT: capture },
        encoding: 'utf8', timeout: 120000 });
    assert.strictEqual(cap.status, 0, `capture failed: ${cap.stderr}`);
    const cli = cp.spawnSync(env.GLREPLAY, ['pixel', capture, '--at', `${X},${Y}`, '--json'], { encoding: 'utf8' });
    assert.strictEqual(cli.status, 0, cli.stderr);
    const hist = JSON.parse(cli.stdout);
    const written = hist.events.filter(e => e.kind === 'draw' && !e.rejected);
    const last = written[written.length - 1];
    assert.ok(hist.earlier_passes && hist.earlier_passes.from === 'driver' && hist.earlier_passes.draws_left_out === 5,
              `the history did not take the FBO pass from the driver: ${JSON.stringify(hist.earlier_passes)}`);

    const sock = path.join(tmp, 'dap.sock');
    const server = cp.spawn(env.GLREPLAY, ["dap", "--socket", sock, capture], { stdio: ["ignore", "pipe", "pipe"] });
    if (env.DEBUG_FEED) server.stderr.on("data", d => process.stderr.write(d));
    let log = '';
    server.stdout.on('data', d => { log += d; });
    server.stderr.on('data', d => { log += d; });
    for (let i = 0; i < 300 && !fs.existsSync(sock); i++) await new Promise(r => setTimeout(r, 50));
    assert.ok(fs.existsSync(sock), `no socket: ${log}`);
    try {
        const dc = new UnixDebugClient(sock);
        dc.defaultTimeout = 60000;
        await dc.start();
        const initializedP = dc.waitForEvent('initialized');
        await dc.initializeRequest();
        await initializedP;
        const launchP = dc.launchRequest({ pixel: { x: X, y: Y } });
        const stoppedP = dc.waitForEvent('stopped');
        await dc.configurationDoneRequest();
        await launchP;
        const stopped = await stoppedP;
        assert.strictEqual(stopped.body.reason, 'entry');
        // The pixel's own run: nothing modelled before the stop's draw, the FBO pass from the driver.
        const run = modelRunLine(dc, 0);
        assert.strictEqual(run.leftOut, 5, JSON.stringify(run));
        assert.strictEqual(run.draws, 0, JSON.stringify(run));
        assert.strictEqual(run.records, last.record + 1, JSON.stringify(run));
        const s1 = await invocation(dc);
        assert.deepStrictEqual([s1.draw, s1.event, s1.x, s1.y], [last.draw, last.record, X, Y], s1.text);

        // Steps resume the run (the post-process shader samples the FBO images the driver gave).
        const src = await dc.sourceRequest({ source: s1.source, sourceReference: s1.source.sourceReference || 0 });
        const lines = src.body.content.split('\n');
        let out = null;
        for (let i = 0; i < 120 && out === null; i++) {
            const t = await stopTop(dc);
            const m = /^\s*frag_color\s*=\s*(.*);/.exec(lines[t.line - 1] || '');
            if (m) {   // its right-hand side, vignette() (post.frag) written out: evaluate has no user calls
                assert.strictEqual(m[1], 'vec4(color * vignette(v_uv), 1.0)', 'post.frag changed: update this test');
                out = (await dc.evaluateRequest({ expression: 'vec4(color * (1.0 - 0.8 * dot(v_uv - 0.5, v_uv - 0.5)), 1.0)',
                                                  frameId: t.id, context: 'watch' })).body.result;
                break;
            }
            const ev = await until(dc, () => dc.nextRequest({ threadId: 1 }));
            assert.ok(!/finished/.test(ev.body.description || ''), 'the invocation ended before writing frag_color');
        }
        assert.ok(out !== null, 'no line writing frag_color reached');
        const outv = out.replace(/^[a-z0-9]*\(/, '').match(/-?[\d.]+(e[+-]?\d+)?/g).map(Number);
        const unorm = outv.map(v => Math.round(Math.min(Math.max(v, 0), 1) * 255));
        assert.deepStrictEqual(unorm, last.driver, `the invocation's output ${out} is not the driver's pixel ${last.driver}`);
        assert.ok(!dc.outputs.some(o => /gave up|run again without/.test(o)), 'the feed gave up');

        // A breakpoint on the stop's line; a new debugPixel stop, then continue: the next hit after
        // the pixel's invocation (its position counted in a run of the whole frame first).
        const bp = await dc.setBreakpointsRequest({ source: s1.source, breakpoints: [{ line: s1.line }] });
        assert.ok(bp.body.breakpoints[0].verified, JSON.stringify(bp.body));
        let from = dc.outputs.length;
        const dpStop = until(dc, () => dc.customRequest('glreplay/debugPixel', { x: X, y: Y }));
        await dpStop;
        assert.strictEqual(modelRunLine(dc, from).leftOut, 5);
        const s2 = await invocation(dc);
        assert.deepStrictEqual([s2.draw, s2.x, s2.y, s2.line], [last.draw, X, Y, s1.line], s2.text);
        const c1 = await until(dc, () => dc.continueRequest({ threadId: 1 }));
        assert.strictEqual(c1.body.reason, 'breakpoint', JSON.stringify(c1.body));
        const next = await invocation(dc);
        assert.strictEqual(next.draw, last.draw, next.text);
        assert.ok(!(next.x === X && next.y === Y), `continue stopped at the pixel's own invocation again: ${next.text}`);
        // ... and reverseContinue from there returns to the pixel's invocation: the next hit after
        // it, not one before it (from a position that missed the left-out draws' instructions, the
        // continue would stop at an earlier hit, and going back from that would not reach the pixel).
        const r1 = await until(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
        assert.strictEqual(r1.body.reason, 'breakpoint', JSON.stringify(r1.body));
        const back = await invocation(dc);
        assert.deepStrictEqual([back.draw, back.x, back.y], [last.draw, X, Y], back.text);

        // reverseContinue straight from a debugPixel stop: the hit just before the pixel's invocation.
        from = dc.outputs.length;
        await until(dc, () => dc.customRequest('glreplay/debugPixel', { x: X, y: Y }));
        // (the passes above kept checkpoints: one before the pixel's draw replaces the driver's images)
        const run3 = modelRunLine(dc, from, true);
        assert.ok(run3.leftOut === 5 || run3.ckpt === last.draw, JSON.stringify(run3));
        assert.strictEqual(run3.draws, 0, JSON.stringify(run3));
        const r2 = await until(dc, () => dc.reverseContinueRequest({ threadId: 1 }));
        assert.strictEqual(r2.body.reason, 'breakpoint', JSON.stringify(r2.body));
        const prev = await invocation(dc);
        assert.strictEqual(prev.draw, last.draw, prev.text);
        assert.ok(!(prev.x === X && prev.y === Y), `reverseContinue stayed at the pixel: ${prev.text}`);
        // and a continue from there is the pixel's invocation again: it was the hit just before
        await until(dc, () => dc.continueRequest({ threadId: 1 }));
        const again = await invocation(dc);
        assert.deepStrictEqual([again.x, again.y], [X, Y], again.text);

        await dc.disconnectRequest({});
        dc.stopAdapter();
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], `messages that do not match the DebugProtocol types:\n${typeErrors.join('\n')}`);
        console.log(`dap_pixel_feed: the pixel's run modelled ${run.draws} draws before its stop (${run.leftOut} from the driver); ` +
                    `its output ${out} = driver ${last.driver}; continue from it -> (${next.x},${next.y}), ` +
                    `reverseContinue -> (${prev.x},${prev.y}); ${received.length} messages match the DebugProtocol types`);
    } finally {
        server.kill('SIGTERM');
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}

main().catch(e => { console.error('dap_pixel_feed: FAIL:', e && e.stack ? e.stack : e); process.exit(1); });
