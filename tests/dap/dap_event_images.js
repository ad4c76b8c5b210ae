#!/usr/bin/env node
// glreplay/eventImages end to end (the frame view of the VS Code extension asks it for its
// thumbnails and its large image), with Microsoft's DAP test client over the Unix socket of
// `glreplay dap`, on a capture of samples/lit_mesh:
//   * without `events`: one image per draw, clear and blit, the same events for which
//     `glreplay replay --png` writes its per-event PNGs, each at most maxSide on its longer side;
//   * with `events` and a maxSide larger than the frame: the image at full size, pixel for pixel
//     the PNG `glreplay replay --png` wrote after that event;
//   * an event with no image comes back in `missing`; bad arguments get an error response;
//   * the frame view's chain: a pixel of an event's image equals the value glreplay/pixelHistory
//     gives after that event in the image the event drew into (target from glreplay/state): the
//     back buffer of lit_mesh, and a framebuffer object of piglit's shader_runner -fbo;
//   * every message received type-checks against the official protocol definitions.
//
// Environment: GLREPLAY, GLREPLAY_SHIM, LIT_MESH, NODE_MODULES; DISPLAY reaches an X server.
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const os = require('os');
const path = require('path');
const zlib = require('zlib');

const env = process.env;
for (const k of ['GLREPLAY', 'GLREPLAY_SHIM', 'LIT_MESH', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`dap_event_images: ${k} is not set`); process.exit(2); }
}
if (!fs.existsSync(path.join(env.NODE_MODULES, '@vscode/debugadapter-testsupport'))) {
    console.log('dap_event_images: SKIP: npm modules missing (run tests/setup.sh, or npm ci in ui_ipc/vscode)');
    process.exit(77);
}
// Every message received is type-checked against the official protocol definitions.
const received = [];
const UnixDebugClient = require('./unix_debug_client.js')(env.NODE_MODULES, m => received.push(m));
const W = 160, H = 90;
const PIGLIT = env.PIGLIT_DIR || '/usr/lib/x86_64-linux-gnu/piglit';

// A PNG (8-bit RGB or RGBA, not interlaced) decoded to {w, h, rgba} with rows top first.
function decodePng(buf) {
    assert.strictEqual(buf.toString('latin1', 1, 4), 'PNG', 'not a PNG');
    let off = 8, w = 0, h = 0, type = 0;
    const idat = [];
    while (off < buf.length) {
        const len = buf.readUInt32BE(off), kind = buf.toString('latin1', off + 4, off + 8);
        const data = buf.subarray(off + 8, off + 8 + len);
        if (kind === 'IHDR') {
            w = data.readUInt32BE(0); h = data.readUInt32BE(4); type = data[9];
            assert.strictEqual(data[8], 8, 'bit depth'); assert.strictEqual(data[12], 0, 'interlaced');
        } else if (kind === 'IDAT') idat.push(data);
        off += 12 + len;
    }
    const bpp = type === 6 ? 4 : type === 2 ? 3 : assert.fail(`colour type ${type}`);
    const raw = zlib.inflateSync(Buffer.concat(idat)), stride = w * bpp;
    const out = Buffer.alloc(w * h * 4), prev = Buffer.alloc(stride), cur = Buffer.alloc(stride);
    for (let y = 0; y < h; y++) {
        const f = raw[y * (stride + 1)];
        raw.copy(cur, 0, y * (stride + 1) + 1, (y + 1) * (stride + 1));
        for (let i = 0; i < stride; i++) {
            const a = i >= bpp ? cur[i - bpp] : 0, b = prev[i], c = i >= bpp ? prev[i - bpp] : 0;
            let p = 0;
            if (f === 1) p = a; else if (f === 2) p = b; else if (f === 3) p = (a + b) >> 1;
            else if (f === 4) { const q = a + b - c, pa = Math.abs(q - a), pb = Math.abs(q - b), pc = Math.abs(q - c);
                p = pa <= pb && pa <= pc ? a : pb <= pc ? b : c; }
            cur[i] = (cur[i] + p) & 255;
        }
        for (let x = 0; x < w; x++)
            for (let k = 0; k < 4; k++) out[(y * w + x) * 4 + k] = k < bpp ? cur[x * bpp + k] : 255;
        cur.copy(prev);
    }
    return { w, h, rgba: out };
}

// The frame view's chain (ui_ipc/vscode/src/frame.ts): the event's target from glreplay/state, then
// glreplay/pixelHistory there; the history's value after the event must be the image's pixel.
async function historyMatchesImage(dc, im, x, y) {
    const st = (await dc.customRequest('glreplay/state', { event: im.event })).body.state;
    const fb = st.framebuffer, m = /^GL_COLOR_ATTACHMENT(\d)$/.exec(fb.draw_buffers[0] || '');
    const target = fb.draw === 0 ? `ctx${st.context}/default/back` : `ctx${st.context}/fbo${fb.draw}/color${m ? m[1] : 0}`;
    const h = (await dc.customRequest('glreplay/pixelHistory', { x, y, target })).body;
    const e = h.events.find(v => v.record === im.event);
    assert.ok(e, `the history of (${x}, ${y}) in ${target} lacks event ${im.event}`);
    const d = decodePng(Buffer.from(im.data, 'base64')), o = ((d.h - 1 - y) * d.w + x) * 4;
    assert.deepStrictEqual(e.driver, [...d.rgba.subarray(o, o + 4)], `event ${im.event} at (${x}, ${y}) in ${target}: history vs image`);
    return target;
}

process.exitCode = 1;
async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-evimg-'));
    const capture = path.join(tmp, 'lit.glcap');
    const cap = cp.spawnSync(env.LIT_MESH, ['--frames', '2', '--size', `${W}x${H}`], {
        env: { ...env, LD_PRELOAD: env.GLREPLAY_SHIM, GLREPLAY_CAPTURE_FRAMES: '1', GLREPLAY_CAPTURE_OUT: capture },
        encoding: 'utf8', timeout: 120000 });
    assert.strictEqual(cap.status, 0, `capture failed: ${cap.stderr}`);
    // The reference: the headless replayer's PNG after every draw and clear (NNNNNN_glCommand.png).
    const pngDir = path.join(tmp, 'png');
    const rp = cp.spawnSync(env.GLREPLAY, ['replay', capture, '--png', pngDir], { encoding: 'utf8', env: { ...env, EGL_PLATFORM: 'surfaceless' } });
    assert.strictEqual(rp.status, 0, rp.stderr);
    const ref = new Map();
    for (const f of fs.readdirSync(pngDir)) {
        const m = /^(\d+)_(gl\w+)\.png$/.exec(f);
        if (m) ref.set(Number(m[1]), { command: m[2], file: path.join(pngDir, f) });
    }
    assert.ok(ref.size >= 2, `replay --png wrote ${ref.size} event images`);

    const sock = path.join(tmp, 'dap.sock');
    const server = cp.spawn(env.GLREPLAY, ['dap', '--socket', sock, capture], { stdio: ['ignore', 'pipe', 'pipe'] });
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

        // Every image event, as thumbnails.
        // One replay at a time: a second request meanwhile is refused, and the server answers others.
        const allP = dc.customRequest('glreplay/eventImages', { maxSide: 32 });
        const busy = await dc.customRequest('glreplay/eventImages', {}).catch(x => x);
        assert.ok(busy instanceof Error && /busy/.test(busy.message), String(busy));
        await dc.threadsRequest();
        const all = await allP;
        const evs = all.body.images.map(i => i.event);
        assert.deepStrictEqual(evs, [...ref.keys()].sort((a, b) => a - b), 'the events with images differ from replay --png');
        assert.strictEqual(all.body.truncated, false);
        for (const im of all.body.images) {
            assert.strictEqual(im.command, ref.get(im.event).command);
            assert.strictEqual(im.sourceWidth, W); assert.strictEqual(im.sourceHeight, H);
            assert.strictEqual(im.width, 32); assert.strictEqual(im.height, 18);
            const d = decodePng(Buffer.from(im.data, 'base64'));
            assert.deepStrictEqual([d.w, d.h], [32, 18]);
        }
        // The last two at full size: the replayer's own PNGs, pixel for pixel.
        const pick = evs.slice(-2);
        const big = await dc.customRequest('glreplay/eventImages', { events: [...pick, 0], maxSide: 4096 });
        assert.deepStrictEqual(big.body.images.map(i => i.event), pick);
        assert.deepStrictEqual(big.body.missing, [0]);
        let differing = 0;
        for (const im of big.body.images) {
            const got = decodePng(Buffer.from(im.data, 'base64')), want = decodePng(fs.readFileSync(ref.get(im.event).file));
            assert.deepStrictEqual([got.w, got.h], [want.w, want.h]);
            differing += got.rgba.equals(want.rgba) ? 0 : 1;
        }
        assert.strictEqual(differing, 0, 'a full-size event image differs from replay --png');
        // The thumbnail is the box-filtered image: its mean colour equals the full image's (to rounding).
        const full = decodePng(Buffer.from(big.body.images[1].data, 'base64'));
        const th = decodePng(Buffer.from(all.body.images.find(i => i.event === pick[1]).data, 'base64'));
        const mean = d => [0, 1, 2].map(k => { let s = 0; for (let i = k; i < d.rgba.length; i += 4) s += d.rgba[i]; return s / (d.w * d.h); });
        mean(full).forEach((v, k) => assert.ok(Math.abs(v - mean(th)[k]) < 2, `thumbnail mean ${mean(th)} vs ${mean(full)}`));

        // A pixel of the last event's image is the value its history gives after that event.
        const t1 = await historyMatchesImage(dc, big.body.images[1], 80, 45);

        // Bad arguments.
        for (const [args, re] of [[{ maxSide: 0 }, /'maxSide' must be a number from 1 to 4096/],
                                  [{ events: 'x' }, /'events' must be an array/],
                                  [{ events: [1e9] }, /not an event number of this capture/],
                                  [{ events: [-1] }, /not an event number/]]) {
            const e = await dc.customRequest('glreplay/eventImages', args).catch(x => x);
            assert.ok(e instanceof Error && re.test(e.message), `${JSON.stringify(args)}: ${e.message || 'answered'}`);
        }
        await dc.disconnectRequest({});
        dc.stopAdapter();
        const typeErrors = require('./dap_types_check.js')(env.NODE_MODULES, received);
        assert.deepStrictEqual(typeErrors, [], `messages that do not match the DebugProtocol types:\n${typeErrors.join('\n')}`);
        // An event that draws into a framebuffer object: piglit's shader_runner -fbo (surfaceless EGL).
        const spec = path.join(PIGLIT, 'tests/spec/glsl-1.10/execution/fs-open-coded-mix-float.shader_test');
        const fcap = path.join(tmp, 'fbo.glcap');
        const pc = cp.spawnSync(env.GLREPLAY, ['capture', '--frame', '0', '--out', fcap, '--', path.join(PIGLIT, 'bin/shader_runner'), spec, '-auto', '-fbo'],
            { env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' }, encoding: 'utf8', timeout: 90000 });
        assert.strictEqual(pc.status, 0, `piglit capture: ${pc.stderr}`);
        const sock2 = path.join(tmp, 'dap2.sock');
        const server2 = cp.spawn(env.GLREPLAY, ['dap', '--socket', sock2, fcap], { stdio: ['ignore', 'ignore', 'inherit'] });
        let t2;
        try {
            for (let i = 0; i < 300 && !fs.existsSync(sock2); i++) await new Promise(r => setTimeout(r, 50));
            const dc2 = new UnixDebugClient(sock2);
            dc2.defaultTimeout = 60000;
            await dc2.start();
            await dc2.initializeRequest();
            const fi = (await dc2.customRequest('glreplay/eventImages', { maxSide: 4096 })).body.images;
            assert.ok(fi.length >= 1 && /^glDraw/.test(fi[fi.length - 1].command), `piglit images: ${fi.map(i => i.command)}`);
            t2 = await historyMatchesImage(dc2, fi[fi.length - 1], 5, 5);
            assert.match(t2, /^ctx1\/fbo\d+\/color0$/);
            await dc2.disconnectRequest({});
            dc2.stopAdapter();
        } finally {
            server2.kill('SIGTERM');
        }
        console.log(`dap_event_images: history = image pixel in ${t1} and ${t2}`);
        console.log(`dap_event_images: ${evs.length} event images (thumbnails 32x18) = replay --png's events; ` +
                    `events ${pick.join(', ')} at full size identical to replay --png; bad arguments refused; ${received.length} messages match the DebugProtocol types`);
        process.exitCode = 0;
    } finally {
        server.kill('SIGTERM');
        fs.rmSync(tmp, { recursive: true, force: true });
    }
}
main().catch(e => { console.error(`dap_event_images: FAIL: ${e.stack || e}`); process.exit(1); });
