#!/usr/bin/env node
// Unit test of src/frame_view.ts (a glreplay/eventImages answer -> the event list, the webview's
// page and its script, a click -> the GL pixel, the checks of the webview's messages) and of
// src/frame.ts (the command and the messages against a stand-in vscode API: thumbnails, the large
// image, pixel history, Debug), under plain Node: the TypeScript is transpiled in memory with the
// project's typescript module (ui_ipc/vscode/node_modules, or $NODE_MODULES); without it the test
// is skipped (exit 77). Run: node test/frame_view.test.js
'use strict';
const path = require('path');
const test = require('node:test');
const assert = require('node:assert/strict');

const here = __dirname;
const { load } = require('./ts_module.js')('frame_view.test');

const fv = load(path.join(here, '..', 'src', 'frame_view.ts'));
const vm = require('vm');

// A 1x1 PNG, as the server sends them (base64).
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
function answer() {
    const im = (event, command) => ({ event, command, width: 96, height: 54, sourceWidth: 160, sourceHeight: 90, mimeType: 'image/png', data: PNG });
    return { images: [im(274, 'glDrawArrays'), im(209, 'glClear'), im(233, 'glDrawElements'), im(250, 'glBlitFramebuffer'),
                      { event: 'x', command: 'glClear' }, { ...im(260, 'glDrawArrays'), data: 'not base64!' }],
             missing: [], truncated: false };
}

test('imageToPixel: display coordinates (top-left) to GL pixels (bottom-left)', () => {
    assert.deepEqual(fv.imageToPixel(0, 0, 160, 90, 160, 90), { x: 0, y: 89 });
    assert.deepEqual(fv.imageToPixel(159.9, 89.9, 160, 90, 160, 90), { x: 159, y: 0 });
    assert.deepEqual(fv.imageToPixel(80, 45, 320, 180, 160, 90), { x: 40, y: 67 }, 'shown at twice the size');
    assert.deepEqual(fv.imageToPixel(10, 10, 40, 20, 1280, 720), { x: 320, y: 359 }, 'shown smaller');
    for (const [px, py] of [[-1, 0], [0, -0.5], [160, 0], [0, 90], [NaN, 1]])
        assert.equal(fv.imageToPixel(px, py, 160, 90, 160, 90), undefined, `${px},${py}`);
    assert.equal(fv.imageToPixel(1, 1, 0, 90, 160, 90), undefined);
});

test('frameEntries: event order, kinds, malformed images left out', () => {
    const e = fv.frameEntries(answer());
    assert.deepEqual(e.map(x => x.event), [209, 233, 250, 274]);
    assert.deepEqual(e.map(x => x.kind), ['clear', 'draw', 'blit', 'draw']);
    assert.equal(e[1].label, '233 glDrawElements');
    assert.equal(e[0].thumb, `data:image/png;base64,${PNG}`);
    assert.deepEqual(fv.frameEntries({}), []);
    assert.deepEqual(fv.frameEntries(null), []);
});

test('frameAction: the webview messages, checked', () => {
    const e = fv.frameEntries(answer());
    assert.deepEqual(fv.frameAction({ type: 'select', event: 233 }, e), { kind: 'select', event: 233 });
    assert.deepEqual(fv.frameAction({ type: 'pixel', event: 233, x: 80, y: 45 }, e), { kind: 'history', pixel: { x: 80, y: 45 }, event: 233 });
    assert.deepEqual(fv.frameAction({ type: 'debug', event: 233, x: 80, y: 45 }, e), { kind: 'debug', args: { x: 80, y: 45, event: 233 }, event: 233 });
    assert.deepEqual(fv.frameAction({ type: 'debug', event: 209, x: 3, y: 4 }, e), { kind: 'debug', args: { x: 3, y: 4 }, event: 209 },
        'from a clear: the last draw that wrote the pixel');
    assert.deepEqual(fv.frameAction({ type: 'debugVertex', event: 233, x: 80, y: 45 }, e), { kind: 'debugVertex', args: { x: 80, y: 45, event: 233 }, event: 233 });
    assert.deepEqual(fv.frameAction({ type: 'debugVertex', event: 209, x: 3, y: 4 }, e), { kind: 'debugVertex', args: { x: 3, y: 4 }, event: 209 });
    for (const bad of [null, 'select', {}, { type: 'select', event: 999 }, { type: 'select', event: '233' },
                       { type: 'pixel', event: 233, x: 160, y: 0 }, { type: 'pixel', event: 233, x: 1.5, y: 0 },
                       { type: 'debug', event: 233, x: -1, y: 0 }, { type: 'debug', event: 233, x: 0, y: 90 },
                       { type: 'debugVertex', event: 233, x: 0, y: -1 }, { type: 'debugVertex', event: 999, x: 0, y: 0 },
                       { type: 'run', event: 233 }])
        assert.equal(fv.frameAction(bad, e).kind, 'ignore', JSON.stringify(bad));
});

test('drawTarget: the image an event draws into, from glreplay/state', () => {
    const st = (draw, bufs, context = 1) => ({ event: 5, state: { context, framebuffer: { draw, read: 0, draw_buffers: bufs } } });
    assert.equal(fv.drawTarget(st(0, ['GL_BACK'])), 'ctx1/default/back');
    assert.equal(fv.drawTarget(st(3, ['GL_COLOR_ATTACHMENT2', 'GL_COLOR_ATTACHMENT0'], 2)), 'ctx2/fbo3/color2');
    assert.equal(fv.drawTarget(st(3, ['GL_NONE'])), 'ctx1/fbo3/color0');
    for (const bad of [null, {}, { state: {} }, st(-1, []), st(1.5, []), st(0, [], 0)])
        assert.equal(fv.drawTarget(bad), undefined, JSON.stringify(bad));
    assert.deepEqual(fv.targetArg('ctx1/default/back'), {});
    assert.deepEqual(fv.targetArg(undefined), {});
    assert.deepEqual(fv.targetArg('ctx1/fbo3/color2'), { target: 'ctx1/fbo3/color2' });
});

// The page's own script, run against a stand-in DOM: the list selects, a click on the image posts
// the GL pixel under it, Debug posts it again as 'debug', and an 'image' message shows the image.
function runPage(html) {
    const posted = [], listeners = {}, elements = {};
    const el = id => elements[id] || (elements[id] = { id, textContent: '', disabled: false, src: '', on: {},
        addEventListener(t, f) { this.on[t] = f; }, getBoundingClientRect: () => ({ left: 10, top: 20, width: 320, height: 180 }) });
    const buttons = [...html.matchAll(/data-event="(\d+)"/g)].map(m => ({ dataset: { event: m[1] }, on: {}, cls: new Set(),
        classList: { toggle(c, on) { on ? this.o.cls.add(c) : this.o.cls.delete(c); } }, addEventListener(t, f) { this.on[t] = f; } }));
    buttons.forEach(b => { b.classList.o = b; });
    const script = /<script nonce="([0-9a-f]+)">([\s\S]*)<\/script>/.exec(html);
    const ctx = { // posted messages cross to the extension as JSON (structured clone), as a webview's do
        acquireVsCodeApi: () => ({ postMessage: m => posted.push(JSON.parse(JSON.stringify(m))) }),
        document: { querySelectorAll: () => buttons, getElementById: el },
        window: { addEventListener: (t, f) => { listeners[t] = f; } }, Number, Math, JSON };
    vm.runInNewContext(script[2], ctx);
    return { posted, buttons, el, listeners, nonce: script[1] };
}

test('frameHtml: the page, its CSP, and its script', () => {
    const a = answer();
    a.images[0].command = '<img src=x onerror=alert(1)>';
    const e = fv.frameEntries(a);
    const html = fv.frameHtml(e, 'abc123', 'Frame of "x"');
    assert.match(html, /script-src 'nonce-abc123'/);
    assert.match(html, /img-src data:;/);
    assert.ok(!html.includes('<img src=x'), 'command names are escaped');
    assert.match(html, /Frame of &quot;x&quot;/);
    assert.equal((html.match(/class="ev /g) || []).length, 4);
    const page = runPage(html);
    assert.equal(page.nonce, 'abc123');
    assert.deepEqual(page.posted, [{ type: 'select', event: 274 }], 'the last event is selected first');
    page.buttons[1].on.click();
    assert.deepEqual(page.posted[1], { type: 'select', event: 233 });
    assert.ok(page.buttons[1].cls.has('selected') && !page.buttons[3].cls.has('selected'));
    assert.equal(page.el('debug').disabled, true);
    assert.equal(page.el('debugVertex').disabled, true);
    // The image is shown at 320x180 at (10, 20): a click at client (10 + 81, 20 + 1) is pixel (40, 89).
    page.el('big').on.click({ clientX: 91, clientY: 21, target: page.el('big') });
    assert.deepEqual(page.posted[2], { type: 'pixel', event: 233, x: 40, y: 89 });
    assert.equal(page.el('debug').disabled, false);
    assert.equal(page.el('debugVertex').disabled, false);
    page.el('debug').on.click();
    assert.deepEqual(page.posted[3], { type: 'debug', event: 233, x: 40, y: 89 });
    page.el('debugVertex').on.click();
    assert.deepEqual(page.posted[4], { type: 'debugVertex', event: 233, x: 40, y: 89 });
    page.el('big').on.click({ clientX: 400, clientY: 21, target: page.el('big') });
    assert.equal(page.posted.length, 5, 'a click outside the image posts nothing');
    page.buttons[0].on.click();   // another event: both Debug buttons wait for a new pixel
    assert.equal(page.el('debug').disabled, true);
    assert.equal(page.el('debugVertex').disabled, true);
    page.buttons[1].on.click();
    page.listeners.message({ data: { type: 'image', event: 233, uri: 'data:image/png;base64,AAAA', label: '233 glDrawElements' } });
    assert.equal(page.el('big').src, 'data:image/png;base64,AAAA');
    page.listeners.message({ data: { type: 'image', event: 209, uri: 'data:x' } });
    assert.equal(page.el('big').src, 'data:image/png;base64,AAAA', 'an image of another event than the selected one is dropped');
    assert.match(fv.frameHtml([], 'n', 't'), /no draw, clear or blit images/);
});

// The command and the messages against a stand-in vscode.
test('FrameViewController: command flow', async () => {
    const requests = [], posted = [], errors = [], commands = {};
    let panel = null, onMessage = null;
    const session = { type: 'glreplay', name: 'lit', customRequest: async (cmd, args) => {
        requests.push([cmd, args]);
        if (cmd === 'glreplay/eventImages' && args.events) return { images: answer().images.filter(i => args.events.includes(i.event)) };
        if (cmd === 'glreplay/eventImages') return answer();
        if (cmd === 'glreplay/pixelHistory') return { x: args.x, y: args.y, target: 'ctx1/default/back', events: [] };
        if (cmd === 'glreplay/state') return { event: args.event, state: { context: 1, framebuffer: args.event === 233
            ? { draw: 3, draw_buffers: ['GL_COLOR_ATTACHMENT1'] } : { draw: 0, draw_buffers: ['GL_BACK'] } } };
        return {};
    } };
    class EventEmitter { constructor() { this.l = []; this.event = f => this.l.push(f); } fire(x) { this.l.forEach(f => f(x)); } }
    const vscode = {
        EventEmitter, TreeItem: class {}, ThemeIcon: class {}, TreeItemCollapsibleState: { None: 0, Collapsed: 1 },
        ProgressLocation: { Notification: 15 }, ViewColumn: { Beside: -2 },
        debug: { activeDebugSession: session },
        window: {
            createTreeView: () => ({ dispose() {} }),
            createWebviewPanel: (id, title, col, opts) => {
                assert.equal(opts.enableScripts, true);
                panel = { webview: { html: '', postMessage: async m => { posted.push(m); return true; },
                                     onDidReceiveMessage: f => { onMessage = f; return { dispose() {} }; } },
                          onDidDispose: () => ({ dispose() {} }), reveal() {}, dispose() {} };
                return panel;
            },
            showErrorMessage: async m => { errors.push(m); },
            withProgress: async (o, f) => f(),
        },
        commands: { registerCommand: (id, f) => { commands[id] = f; return { dispose() {} }; }, executeCommand: async () => {} },
    };
    const px = load(path.join(here, '..', 'src', 'pixel.ts'), { vscode });
    const fr = load(path.join(here, '..', 'src', 'frame.ts'), { vscode, crypto: require('crypto') });
    const c = new fr.FrameViewController(new px.PixelHistoryController());
    await commands['glreplay.frameView']();
    assert.deepEqual(requests[0], ['glreplay/eventImages', { maxSide: fv.THUMB_SIDE }]);
    assert.equal((panel.webview.html.match(/class="ev /g) || []).length, 4);
    await onMessage({ type: 'select', event: 233 });
    assert.deepEqual(requests[1], ['glreplay/eventImages', { events: [233], maxSide: fv.LARGE_SIDE }]);
    assert.deepEqual(posted[0], { type: 'image', event: 233, uri: `data:image/png;base64,${PNG}`, label: '233 glDrawElements' });
    await onMessage({ type: 'select', event: 233 });
    assert.equal(requests.length, 2, 'the large image is kept');
    assert.equal(posted.length, 2);
    // Event 233 drew into framebuffer 3's colour attachment 1: the history and Debug look there.
    await onMessage({ type: 'pixel', event: 233, x: 80, y: 45 });
    assert.deepEqual(requests[2], ['glreplay/state', { event: 233 }]);
    assert.deepEqual(requests[3], ['glreplay/pixelHistory', { x: 80, y: 45, target: 'ctx1/fbo3/color1' }]);
    await onMessage({ type: 'debug', event: 233, x: 80, y: 45 });
    assert.deepEqual(requests[4], ['glreplay/debugPixel', { x: 80, y: 45, event: 233, target: 'ctx1/fbo3/color1' }]);
    // The clear 209 drew into the back buffer: no target (the requests' default), no event.
    await onMessage({ type: 'debug', event: 209, x: 1, y: 2 });
    assert.deepEqual(requests.slice(5), [['glreplay/state', { event: 209 }], ['glreplay/debugPixel', { x: 1, y: 2 }]]);
    await onMessage({ type: 'pixel', event: 209, x: 1, y: 2 });
    assert.deepEqual(requests[7], ['glreplay/pixelHistory', { x: 1, y: 2 }], 'the state is asked once per event');
    // Debug vertex: the same pixel arguments (and target) to glreplay/debugVertex.
    await onMessage({ type: 'debugVertex', event: 233, x: 80, y: 45 });
    assert.deepEqual(requests[8], ['glreplay/debugVertex', { x: 80, y: 45, event: 233, target: 'ctx1/fbo3/color1' }]);
    await onMessage({ type: 'debugVertex', event: 209, x: 1, y: 2 });
    assert.deepEqual(requests[9], ['glreplay/debugVertex', { x: 1, y: 2 }]);
    await onMessage({ type: 'debug', event: 233, x: 500, y: 45 });
    await onMessage({ type: 'debugVertex', event: 233, x: 500, y: 45 });
    await onMessage({ type: 'select', event: 12345 });
    assert.equal(requests.length, 10, 'bad messages send nothing');
    // A server error reaches the user and the page.
    session.customRequest = async () => { throw new Error('glreplay/eventImages: the GPU model or another replay is busy; retry when it ends'); };
    await onMessage({ type: 'select', event: 274 });
    assert.match(errors[0], /busy/);
    assert.deepEqual(posted[posted.length - 1].type, 'error');
    vscode.debug.activeDebugSession = undefined;
    await commands['glreplay.frameView']();
    assert.match(errors[1], /start a glreplay debug session/);
    c.dispose();
});
