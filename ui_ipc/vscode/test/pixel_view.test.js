#!/usr/bin/env node
// Unit test of src/pixel_view.ts (the "x,y" input, a glreplay/pixelHistory answer -> the view's
// entries, the glreplay/debugPixel arguments of "Debug") and of src/pixel.ts (the commands) against
// a stand-in vscode API, under plain Node: the TypeScript is transpiled in memory with the
// project's typescript module (ui_ipc/vscode/node_modules, or $NODE_MODULES); without it the test
// is skipped (exit 77). Run: node test/pixel_view.test.js
'use strict';
const fs = require('fs');
const path = require('path');
const test = require('node:test');
const assert = require('node:assert/strict');

const here = __dirname;
const { load } = require('./ts_module.js')('pixel_view.test');

const pv = load(path.join(here, '..', 'src', 'pixel_view.ts'));

// Shaped like `glreplay pixel --json` (debugger/pixel/pixel_history.c): a clear, a draw whose second
// fragment was written over a first one that failed the depth test late, a draw rejected early,
// and an event where the driver differs.
function history() {
    return {
        x: 80, y: 45, target: 'ctx1/default/back', final: [86, 108, 70, 255],
        events: [
            { record: 535, command: 'glClear', kind: 'clear', clear: 1, after: [0, 0, 0, 255], driver: [0, 0, 0, 255], agrees: true, fragments: [] },
            { record: 586, command: 'glDrawElements', kind: 'draw', draw: 4, program: 6, rejected: false,
              after: [86, 108, 70, 255], driver: [86, 108, 70, 255], agrees: true,
              fragments: [
                  { primitive: 3, outcome: 'depth test failed (GL_LESS: incoming 16000000, stored 15000000)',
                    vertices: [{ vertex_id: 9, position: [0, 0, 0.9, 1] }, { vertex_id: 10, position: [1, 0, 0.9, 1] }, { vertex_id: 11, position: [0, 1, 0.9, 1] }],
                    provoking: 2, instance: 0,
                    shader: { discarded: false, outputs: [[1, 0, 0, 1]], depth: 0.95 },
                    tests: [{ sample: 0, stage: 'late', passed: false, depth: { func: 'GL_LESS', incoming: 16000000, stored: 15000000, pass: false } }],
                    writes: [] },
                  { primitive: 1, outcome: 'written', draw: 4,
                    vertices: [{ vertex_id: 3, position: [-0.5, -0.5, 0, 1] }, { vertex_id: 4, position: [0.5, -0.5, 0, 1] }, { vertex_id: 5, position: [0, 0.5, 0, 1] }],
                    provoking: 2, instance: 2,
                    shader: { discarded: false, outputs: [[0.3357, 0.4239, 0.2734, 1]], depth: 0.5 },
                    tests: [{ sample: 0, stage: 'late', passed: true, depth: { func: 'GL_LESS', incoming: 8000000, stored: 15000000, pass: true } }],
                    writes: [{ draw_buffer: 0, src: [0.3357, 0.4239, 0.2734, 1], dst: [0, 0, 0, 1], after: [0.3373, 0.4235, 0.2745, 1],
                               blend: { src_rgb: 'GL_SRC_ALPHA', dst_rgb: 'GL_ONE_MINUS_SRC_ALPHA', eq_rgb: 'GL_FUNC_ADD' } }] }] },
            { record: 600, command: 'glDrawArrays', kind: 'draw', draw: 5, program: 9, rejected: true,
              why: 'early depth test failed (GL_LEQUAL: incoming 16777215, stored 16643174)',
              after: [86, 108, 70, 255], driver: [86, 108, 71, 255], agrees: false,
              fragments: [{ primitive: 0, outcome: 'early depth test failed',
                            vertices: [{ vertex_id: 7, position: [0, 0, 1, 1] }, { vertex_id: 8, position: [1, 1, 1, 1] }], provoking: 1, instance: 0,
                            tests: [{ sample: 0, stage: 'early', passed: false }] }] },
        ],
        driver_check: { events_checked: 3, events_differing: 1, driver_only_changes: 0 },
    };
}

test('parsePixel', () => {
    assert.deepEqual(pv.parsePixel('640,360'), { x: 640, y: 360 });
    assert.deepEqual(pv.parsePixel(' 3 , 4 '), { x: 3, y: 4 });
    assert.deepEqual(pv.parsePixel('3 4'), { x: 3, y: 4 });
    for (const bad of ['', '3', '-1,2', '1,2,3', 'a,b', '1.5,2', '123456,1'])
        assert.equal(typeof pv.parsePixel(bad), 'string', bad);
});

test('buildHistoryItems: one entry per event, fragments below, Debug only where a shader ran', () => {
    const items = pv.buildHistoryItems(history());
    assert.equal(items.length, 3);
    assert.equal(items[0].label, '535 glClear');
    assert.equal(items[0].description, '→ 0,0,0,255');
    assert.equal(items[0].debug, undefined, 'a clear has no invocation to debug');
    assert.equal(items[1].kind, 'draw');
    assert.deepEqual(items[1].debug, { x: 80, y: 45, event: 586 });
    assert.equal(items[1].fragments.length, 2);
    assert.deepEqual(items[1].fragments[0].debug, { x: 80, y: 45, event: 586, fragment: 1 }, 'a fragment rejected late still ran');
    assert.match(items[1].fragments[0].description, /^depth test failed/);
    assert.match(items[1].fragments[0].tooltip, /depth GL_LESS: incoming 16000000, stored 15000000: FAIL/);
    assert.match(items[1].fragments[1].tooltip, /blend GL_SRC_ALPHA·src \+ GL_ONE_MINUS_SRC_ALPHA·dst \(GL_FUNC_ADD\)/);
    assert.match(items[1].fragments[1].tooltip, /shader output 0: \(0\.3357, 0\.4239, 0\.2734, 1\)/);
    assert.equal(items[2].debug, undefined, 'no fragment of an early-rejected draw ran its shader');
    assert.equal(items[2].fragments[0].debug, undefined);
    assert.match(items[2].description, /^rejected: early depth test failed/);
    assert.equal(items[2].warning, true);
    assert.match(items[2].tooltip, /driver 86,108,71,255 — they DIFFER/);
    assert.equal(items[1].warning, false);
});

test('parseVertex', () => {
    assert.deepEqual(pv.parseVertex('3,17'), { draw: 3, index: 17 });
    assert.deepEqual(pv.parseVertex(' 3 17 2 '), { draw: 3, index: 17, instance: 2 });
    assert.deepEqual(pv.parseVertex('0,0,0'), { draw: 0, index: 0, instance: 0 });
    for (const bad of ['', '3', '-1,2', '1,2,3,4', 'a,b', '1.5,2', '1234567890,1'])
        assert.equal(typeof pv.parseVertex(bad), 'string', bad);
});

test('buildHistoryItems: Debug vertex on fragments and on each vertex of their primitive', () => {
    const items = pv.buildHistoryItems(history());
    const [f1, f2] = items[1].fragments;
    // A fragment whose shader ran: by the pixel's fragment and the corner (the server checks the
    // primitive); the fragment's own button is its provoking vertex.
    assert.deepEqual(f2.vertices.map(v => v.label), ['vertex 3', 'vertex 4', 'vertex 5 (provoking)']);
    assert.deepEqual(f2.vertices.map(v => v.debug), [0, 1, 2].map(corner => ({ x: 80, y: 45, event: 586, fragment: 2, corner })));
    assert.deepEqual(f2.debugVertex, { x: 80, y: 45, event: 586, fragment: 2, corner: 2 });
    assert.equal(f2.vertices[0].description, 'gl_Position (-0.5, -0.5, 0, 1)');
    assert.match(f2.vertices[2].tooltip, /corner 2 of primitive 1: gl_VertexID 5, gl_InstanceID 2; provoking/);
    assert.deepEqual(f1.debugVertex, { x: 80, y: 45, event: 586, fragment: 1, corner: 2 });
    // Rejected before its shader ran: no pixel invocation, so the vertex by its draw and gl_VertexID.
    const r = items[2].fragments[0];
    assert.equal(r.debug, undefined);
    assert.deepEqual(r.vertices.map(v => v.debug), [{ draw: 5, index: 7 }, { draw: 5, index: 8 }]);
    assert.deepEqual(r.debugVertex, { draw: 5, index: 8 });
    // No vertices (a geometry stage made the primitive) or malformed ones: no Debug vertex.
    const h = history();
    delete h.events[1].fragments[0].vertices;
    h.events[1].fragments[1].vertices = [{ vertex_id: -1, position: [0, 0, 0, 1] }];
    const [g1, g2] = pv.buildHistoryItems(h)[1].fragments;
    assert.deepEqual([g1.vertices, g1.debugVertex, g2.vertices, g2.debugVertex], [[], undefined, [], undefined]);
    // A provoking index out of range falls back to the first corner.
    h.events[1].fragments[1].vertices = history().events[1].fragments[1].vertices;
    h.events[1].fragments[1].provoking = 7;
    assert.deepEqual(pv.buildHistoryItems(h)[1].fragments[1].debugVertex, { x: 80, y: 45, event: 586, fragment: 2, corner: 0 });
});

// The menus' "when" clauses of package.json pick the items by their contextValue: Debug where a
// fragment shader invocation is known, Debug vertex where a vertex is.
test('package.json menus match the items\' contextValue', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(here, '..', 'package.json'), 'utf8'));
    const menu = pkg.contributes.menus['view/item/context'];
    const shows = (command, ctx) => menu.filter(m => m.command === command).some(m => {
        const r = /viewItem =~ \/(.*)\/$/.exec(m.when);
        assert.ok(r, m.when);
        return new RegExp(r[1]).test(ctx);
    });
    for (const [p, v] of [[false, false], [true, false], [false, true], [true, true]]) {
        const ctx = pv.itemContext(p, v);
        assert.equal(shows('glreplay.debugPixel', ctx), p, ctx);
        assert.equal(shows('glreplay.debugVertex', ctx), v, ctx);
    }
    assert.ok(pkg.contributes.commands.some(c => c.command === 'glreplay.debugVertex'));
    assert.ok(pkg.activationEvents.includes('onCommand:glreplay.debugVertex'));
    for (const req of ['launch', 'attach'])
        assert.deepEqual(Object.keys(pkg.contributes.debuggers[0].configurationAttributes[req].properties.vertex.properties).sort(),
            ['corner', 'draw', 'event', 'fragment', 'index', 'instance', 'target', 'x', 'y']);
});

test('buildHistoryItems: an FBO target travels with Debug', () => {
    const h = history();
    h.target = 'ctx1/fbo3/color1';
    const items = pv.buildHistoryItems(h);
    assert.deepEqual(items[1].debug, { x: 80, y: 45, event: 586, target: 'ctx1/fbo3/color1' });
    assert.deepEqual(items[1].fragments[1].debug, { x: 80, y: 45, event: 586, fragment: 2, target: 'ctx1/fbo3/color1' });
    assert.deepEqual(items[1].fragments[1].vertices[0].debug, { x: 80, y: 45, event: 586, fragment: 2, target: 'ctx1/fbo3/color1', corner: 0 });
});

test('historySummary', () => {
    assert.equal(pv.historySummary(history()),
        'pixel (80, 45) of ctx1/default/back: 3 events, final 86,108,70,255; the driver DIFFERS at 1 event(s), 0 change(s) missing');
    const h = history();
    h.driver_check = { events_checked: 3, events_differing: 0, driver_only_changes: 0 };
    assert.match(pv.historySummary(h), /the driver agrees at all 3$/);
});

// The commands against a stand-in vscode: the input box's answer goes to glreplay/pixelHistory,
// the tree shows the entries, and Debug sends glreplay/debugPixel with the entry's arguments.
test('PixelHistoryController: command flow', async () => {
    const requests = [];
    const commands = {};
    let provider = null, view = null, input = '80,45', errors = [];
    class EventEmitter { constructor() { this.l = []; this.event = f => this.l.push(f); } fire(x) { this.l.forEach(f => f(x)); } }
    class TreeItem { constructor(label, state) { this.label = label; this.collapsibleState = state; } }
    const session = { type: 'glreplay', customRequest: async (cmd, args) => { requests.push([cmd, args]); return cmd === 'glreplay/pixelHistory' ? history() : {}; } };
    const vscode = {
        EventEmitter, TreeItem, ThemeIcon: class { constructor(id) { this.id = id; } },
        TreeItemCollapsibleState: { None: 0, Collapsed: 1 },
        debug: { activeDebugSession: session },
        window: {
            createTreeView: (id, o) => { provider = o.treeDataProvider; view = { id, dispose() {} }; return view; },
            showInputBox: async o => {
                const parse = /Debug vertex/.test(o.title) ? pv.parseVertex : pv.parsePixel;
                assert.equal(o.validateInput('x'), parse('x'));
                return input;
            },
            showErrorMessage: async m => { errors.push(m); },
            withProgress: async (o, f) => f(),
        },
        commands: {
            registerCommand: (id, f) => { commands[id] = f; return { dispose() {} }; },
            executeCommand: async () => {},
        },
    };
    const px = load(path.join(here, '..', 'src', 'pixel.ts'), { vscode });
    const c = new px.PixelHistoryController();
    assert.ok(commands['glreplay.pixelHistory'] && commands['glreplay.debugPixel'] && commands['glreplay.debugVertex']);
    await commands['glreplay.pixelHistory']();
    assert.deepEqual(requests[0], ['glreplay/pixelHistory', { x: 80, y: 45 }]);
    const roots = provider.getChildren();
    assert.equal(roots.length, 3);
    const draw = provider.getTreeItem(roots[1]);
    assert.equal(draw.contextValue, 'glreplayPixel debugPixel');
    assert.equal(provider.getTreeItem(roots[0]).contextValue, 'glreplayPixel');
    assert.equal(provider.getTreeItem(roots[2]).iconPath.id, 'warning');
    assert.match(view.message, /^pixel \(80, 45\)/);
    const frags = provider.getChildren(roots[1]);
    assert.equal(frags.length, 2);
    await commands['glreplay.debugPixel'](frags[1]);
    assert.deepEqual(requests[1], ['glreplay/debugPixel', { x: 80, y: 45, event: 586, fragment: 2 }]);
    await commands['glreplay.debugPixel'](roots[0]);   // a clear: nothing to debug, nothing sent
    assert.equal(requests.length, 2);
    // Debug vertex: a fragment (its provoking vertex), one of its vertices (third level of the tree).
    const ft = provider.getTreeItem(frags[1]);
    assert.equal(ft.contextValue, 'glreplayPixel debugPixel debugVertex');
    assert.equal(ft.collapsibleState, 1, 'a fragment with vertices expands');
    const verts = provider.getChildren(frags[1]);
    assert.deepEqual(verts.map(v => provider.getTreeItem(v).label), ['vertex 3', 'vertex 4', 'vertex 5 (provoking)']);
    assert.equal(provider.getTreeItem(verts[0]).contextValue, 'glreplayPixel debugVertex');
    assert.deepEqual(provider.getChildren(verts[0]), []);
    await commands['glreplay.debugVertex'](frags[1]);
    assert.deepEqual(requests[2], ['glreplay/debugVertex', { x: 80, y: 45, event: 586, fragment: 2, corner: 2 }]);
    await commands['glreplay.debugVertex'](verts[0]);
    assert.deepEqual(requests[3], ['glreplay/debugVertex', { x: 80, y: 45, event: 586, fragment: 2, corner: 0 }]);
    await commands['glreplay.debugVertex'](roots[1]);   // an event: no vertex of its own, nothing sent
    assert.equal(requests.length, 4);
    // From the command palette: draw,index[,instance] typed in.
    input = '5,7,1';
    await commands['glreplay.debugVertex']();
    assert.deepEqual(requests[4], ['glreplay/debugVertex', { draw: 5, index: 7, instance: 1 }]);
    requests.splice(2, 3);
    input = 'nonsense';
    await commands['glreplay.debugVertex']();
    assert.equal(requests.length, 2, 'a bad vertex sends nothing');
    await commands['glreplay.pixelHistory']();
    assert.equal(requests.length, 2, 'a bad pixel sends nothing');
    // A server refusal reaches the user.
    const send = session.customRequest;
    session.customRequest = async () => { throw new Error("vertex: 'corner' 0, 1 or 2"); };
    await commands['glreplay.debugVertex'](verts[1]);
    assert.match(errors.pop(), /^glreplay: vertex: 'corner' 0, 1 or 2$/);
    session.customRequest = send;
    vscode.debug.activeDebugSession = undefined;
    await commands['glreplay.pixelHistory']();
    assert.match(errors[0], /start a glreplay debug session/);
    c.dispose();
});
