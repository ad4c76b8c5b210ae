#!/usr/bin/env node
// Unit test of src/warp_view.ts (a glreplay/evaluateWarp answer -> the Markdown table; the
// heat-map input -> glreplay/heatmap arguments; its answer -> the webview's HTML) under plain Node:
// the TypeScript is transpiled in memory with the project's typescript module
// (ui_ipc/vscode/node_modules, or $NODE_MODULES); without it the test is skipped (exit 77).
// Run: node test/warp_view.test.js
'use strict';
const path = require('path');
const test = require('node:test');
const assert = require('node:assert/strict');

const here = __dirname;
const { load } = require('./ts_module.js')('warp_view.test');

const wv = load(path.join(here, '..', 'src', 'warp_view.ts'));

// Shaped like glreplay/evaluateWarp (ui_ipc/dap/dap_warp_eval.c).
function answer() {
    const lanes = [];
    for (let l = 0; l < 32; l++)
        lanes.push(l < 4 ? { lane: l, state: 'active', helper: l === 1, x: 64 + (l & 1), y: 37 - (l >> 1), value: l === 3 ? '2' : '1.5', type: 'float' }
                         : { lane: l, state: 'finished', helper: false, x: 0, y: 0, value: '0', type: 'float' });
    lanes[5] = { lane: 5, state: 'inactive', helper: false, x: 1, y: 1, error: 'division | by zero' };
    return { expression: 'a|b', warp: 'draw 0 · FS · warp 17 · pixels (64..65, 36..37)', focusLane: 2, lanes };
}

test('warpTableMarkdown: one row per lane, focus marked, pipes escaped, summary of active values', () => {
    const md = wv.warpTableMarkdown(answer());
    const rows = md.split('\n').filter(l => /^\| (\*\*▶ )?\d/.test(l));
    assert.equal(rows.length, 32);
    assert.match(md, /^### `a\\\|b` on every lane of draw 0 · FS · warp 17/);
    assert.equal(rows[2], '| **▶ 2** | active | 64, 36 | `1.5` | float |');
    assert.equal(rows[1], '| 1 | active (helper) | 65, 37 | `1.5` | float |');
    assert.equal(rows[5], '| 5 | inactive | 1, 1 | *division \\| by zero* |  |');
    // Helpers are not invocations: 3 active lanes (0, 2, 3), values 1.5 and 2.
    assert.match(md, /3 active lane\(s\), 2 distinct value\(s\)\.\n$/);
});

test('warpTableMarkdown: no pixel column without positions', () => {
    const a = answer();
    for (const l of a.lanes) { delete l.x; delete l.y; }
    const md = wv.warpTableMarkdown(a);
    assert.match(md, /\| lane \| state \| value \| type \|/);
    assert.match(md, /\| \*\*▶ 2\*\* \| active \| `1.5` \| float \|/);
});

test('parseHeatInput / heatmapArgs', () => {
    assert.deepEqual(wv.parseHeatInput('n_dot_l'), { expression: 'n_dot_l', component: 0 });
    assert.deepEqual(wv.parseHeatInput(' color @ 2 '), { expression: 'color', component: 2 });
    assert.deepEqual(wv.parseHeatInput('a@b'), { expression: 'a@b', component: 0 }, 'not a component suffix');
    for (const bad of ['', '   ', ' @ 1', 'x @ 16'])
        assert.equal(typeof wv.parseHeatInput(bad), 'string', bad);
    assert.deepEqual(wv.heatmapArgs('/s/mesh.frag', 22, 'dist'), { source: { path: '/s/mesh.frag' }, line: 22, expression: 'dist' });
    assert.deepEqual(wv.heatmapArgs('/s/mesh.frag', 22, 'v @ 1'), { source: { path: '/s/mesh.frag' }, line: 22, expression: 'v', component: 1 });
    assert.equal(typeof wv.heatmapArgs('', 22, 'dist'), 'string');
    assert.equal(typeof wv.heatmapArgs('/s/mesh.frag', 0, 'dist'), 'string');
});

test('heatmapHtml: the image scaled without smoothing, range, counts, escaped text, no scripts', () => {
    const html = wv.heatmapHtml({ expression: 'a<b', component: 1, width: 96, height: 64, min: 0.25, max: 4, fragments: 2092,
        pixels: 1046, nan: 3, errors: 1, firstError: '<x>', mimeType: 'image/png', data: 'iVBORw0KGgo=' }, 'mesh.frag:22');
    assert.match(html, /<img width="480" height="320" src="data:image\/png;base64,iVBORw0KGgo="/);
    assert.match(html, /image-rendering:pixelated/);
    assert.match(html, /<code>a&lt;b<\/code> \(component 1\) at mesh\.frag:22/);
    assert.match(html, /0\.25 <span class="ramp"><\/span> 4/);
    assert.match(html, /1046 pixel\(s\) from 2092 fragment arrival\(s\), 96×64; magenta: NaN \(3\)/);
    assert.match(html, /1 fragment\(s\) had no value: &lt;x&gt;/);
    assert.doesNotMatch(html, /<script/);
    assert.match(html, /default-src 'none'; img-src data:/);
    // A large frame is not scaled up.
    assert.match(wv.heatmapHtml({ expression: 'x', component: 0, width: 1280, height: 720, min: 0, max: 1, fragments: 1,
        pixels: 1, nan: 0, errors: 0, mimeType: 'image/png', data: '' }, 'f:1'), /width="1280" height="720"/);
});
