#!/usr/bin/env node
// Unit test of src/profile_view.ts (a glreplay/profile answer -> per-file line decorations and the
// hotspot Markdown), and of src/profile.ts (the command) against a stand-in vscode API, under plain
// Node, no VS Code: the TypeScript sources are transpiled in memory with
// the project's own typescript module (ui_ipc/vscode/node_modules, or $NODE_MODULES); without it
// the test is skipped (exit 77). Run: node test/profile_view.test.js
'use strict';
const fs = require('fs');
const path = require('path');
const test = require('node:test');
const assert = require('node:assert/strict');

const here = __dirname;
const { load } = require('./ts_module.js')('profile_view.test');

const pv = load(path.join(here, '..', 'src', 'profile_view.ts'));

// An answer shaped like ui_ipc/dap/dap_profile.c's: two shader lines of two programs landing on
// one file line (summed), a shader served by sourceReference, a line without samples.
function answer() {
    return {
        id: 7,
        profile: { capture: 'frame.glcap', totals: { cycles: 123456, draws: 3 }, methods: ['pc_sampling'] },
        lines: [
            { source: { name: 'lit.frag', path: '/w/shaders/lit.frag' }, line: 21, shader: 2, shaderLine: 22,
              instructions: 600, share: 0.6, lanesPerInstruction: 30, samples: 60,
              reasons: { long_scoreboard: 40, selected: 20 } },
            { source: { name: 'lit.frag', path: '/w/shaders/lit.frag' }, line: 21, shader: 5, shaderLine: 22,
              instructions: 200, share: 0.2, lanesPerInstruction: 10, samples: 20,
              reasons: { selected: 10, exec_dependency: 10 } },
            { source: { name: 'lit.frag', path: '/w/shaders/lit.frag' }, line: 3,
              instructions: 100, share: 0.1, samples: 0, reasons: {} },
            { source: { name: 'shader 4 (VS)', sourceReference: 4 }, line: 9,
              instructions: 100, share: 0.1, lanesPerInstruction: 32, samples: 20,
              reasons: { tex_throttle: 15, 'not|selected': 5 } },
        ],
        chromeTrace: { traceEvents: [] },
    };
}

test('lines are grouped per source file, 0-based, summed per file line', () => {
    const v = pv.buildProfileView(answer());
    assert.equal(v.id, 7);
    assert.equal(v.totalSamples, 100);
    assert.equal(v.totalInstructions, 1000);
    assert.deepEqual(v.files.map(f => f.key), ['path:/w/shaders/lit.frag', 'ref:4']);
    const lit = v.files[0];
    assert.equal(lit.label, 'lit.frag');
    assert.deepEqual(lit.lines.map(l => l.line), [2, 20]);
    const hot = lit.lines[1];
    assert.equal(hot.instructions, 800);
    assert.equal(hot.samples, 80);
    assert.equal(hot.sampleShare, 0.8);
    assert.equal(hot.instrShare, 0.8);
    assert.equal(hot.lanesPerInstruction, 25);             // (600*30 + 200*10) / 800
    assert.deepEqual(hot.reasons, [{ name: 'long_scoreboard', samples: 40 }, { name: 'selected', samples: 30 },
                                   { name: 'exec_dependency', samples: 10 }]);
    assert.equal(hot.heat, pv.HEAT_LEVELS - 1);
    assert.equal(lit.lines[0].heat, 0);                    // no samples: coldest
    assert.equal(v.files[1].lines[0].heat, 2);             // 20 of the hottest 80: >= 20%
});

test('after-line text and hover carry samples and stall reasons', () => {
    const v = pv.buildProfileView(answer());
    const hot = v.files[0].lines[1];
    assert.match(hot.text, /80 samples \(80%\)/);
    assert.match(hot.text, /long_scoreboard 50%, selected 38%/);
    assert.doesNotMatch(hot.text, /exec_dependency/);      // two reasons after the line, all in the hover
    for (const r of ['long_scoreboard', 'selected', 'exec_dependency']) {
        assert.match(hot.hover, new RegExp(`\\| ${r} \\|`));
    }
    assert.match(hot.hover, /lit\.frag:21/);
    assert.match(hot.hover, /\| warp instructions \| 800 \| 80% of the frame \|/);
    assert.match(hot.hover, /25\.0 active lanes per instruction/);
    assert.match(v.files[0].lines[0].text, /0 samples|100 instr/);
});

test('hotspot markdown: hottest first, header facts, escaped cells, links', () => {
    const links = [];
    const v = pv.buildProfileView(answer(), {
        linkFor: (src, line) => { links.push([src.path || src.sourceReference, line]); return src.path ? `file://${src.path}#L${line}` : undefined; },
    });
    assert.deepEqual(v.hotspots.map(h => `${h.file.label}:${h.line.line + 1}`),
                     ['lit.frag:21', 'shader 4 (VS):9', 'lit.frag:3']);
    const md = v.markdown;
    assert.match(md, /^# glreplay profile 7/);
    assert.match(md, /capture `frame\.glcap` · 123,456 model cycles · 3 draws · methods: pc_sampling/);
    assert.match(md, /\| # \| line \| samples \| % samples \| instructions \| % instr \| top reasons \|/);
    const rows = md.split('\n').filter(l => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, 3);
    assert.equal(rows[0], '| 1 | [lit.frag:21](file:///w/shaders/lit.frag#L21) | 80 | 80% | 800 | 80% | long_scoreboard 50%, selected 38%, exec_dependency 13% |');
    assert.match(rows[1], /^\| 2 \| shader 4 \(VS\):9 \| 20 \| 20% \|.*not\\\|selected 25%/);
    assert.deepEqual(links.sort(), [[4, 9], ['/w/shaders/lit.frag', 21], ['/w/shaders/lit.frag', 3]].sort());
    const few = pv.buildProfileView(answer(), { top: 1 }).markdown;
    assert.match(few, /2 more lines are decorated in their sources/);
});

test('without PC samples the instructions are shown', () => {
    const a = answer();
    for (const l of a.lines) { l.samples = 0; l.reasons = {}; }
    const v = pv.buildProfileView(a);
    const hot = v.files[0].lines[1];
    assert.equal(hot.text, '  800 instr (80%)');
    assert.equal(hot.heat, pv.HEAT_LEVELS - 1);
    assert.match(v.markdown, /no PC sampling in this run/);
    assert.match(v.markdown, /\| # \| line \| instructions \| % instr \| lanes\/instr \|/);
    assert.doesNotMatch(hot.hover, /PC samples/);
    const empty = pv.buildProfileView({ id: 1, lines: [] });
    assert.equal(empty.files.length, 0);
    assert.match(empty.markdown, /No shader line ran/);
});

test('malformed answers give clear errors', () => {
    const bad = [
        [null, /no "lines" array/],
        [{ id: 1 }, /no "lines" array/],
        [{ id: 1, lines: 'x' }, /no "lines" array/],
        [{ id: 1, lines: [null] }, /lines\[0\] has no source/],
        [{ id: 1, lines: [{ line: 1 }] }, /lines\[0\] has no source/],
        [{ id: 1, lines: [{ source: { path: '/a' }, line: 0 }] }, /lines\[0\]\.line is not a 1-based line/],
        [{ id: 1, lines: [{ source: { path: '/a' }, line: 'x' }] }, /lines\[0\]\.line is not a non-negative number/],
        [{ id: 1, lines: [{ source: { path: '/a' }, line: 1, samples: -1 }] }, /lines\[0\]\.samples/],
        [{ id: 1, lines: [{ source: { path: '/a' }, line: 1, reasons: { x: 'y' } }] }, /lines\[0\]\.reasons\.x/],
    ];
    for (const [a, re] of bad) {
        assert.throws(() => pv.buildProfileView(a), re);
    }
});

test('documents map to answer sources: files by path, debug: URIs by sourceReference', () => {
    assert.equal(pv.sourceKey({ path: '/w/a.frag' }), 'path:/w/a.frag');
    assert.equal(pv.sourceKey({ name: 'x', path: 'x', sourceReference: 3 }), 'ref:3');
    assert.equal(pv.documentKey('file', '/w/a.frag', ''), 'path:/w/a.frag');
    // VS Code builds debug:<path or name>?session=<id>&ref=<sourceReference> for DAP sources.
    assert.equal(pv.documentKey('debug', 'shader 4 (VS)', 'session=abc-1&ref=4', 'abc-1'), 'ref:4');
    assert.equal(pv.documentKey('debug', 'shader 4 (VS)', 'session=other&ref=4', 'abc-1'), undefined);
    assert.equal(pv.documentKey('debug', 'x', 'session=abc-1', 'abc-1'), undefined);
    assert.equal(pv.documentKey('debug', 'x', 'ref=0'), undefined);
    assert.equal(pv.documentKey('untitled', 'x', 'ref=4'), undefined);
});

test('request arguments and their validation', () => {
    assert.deepEqual(pv.profileArgs({ pcSampling: 1024, pcMode: 'all', counters: true, edges: 64, chromeTrace: true }),
                     { pcSampling: 1024, pcMode: 'all', counters: true, edges: 64, chromeTrace: true });
    assert.deepEqual(pv.profileArgs({}), {});
    assert.deepEqual(pv.profileArgs({ counters: false, chromeTrace: false }), {});
    assert.throws(() => pv.profileArgs({ pcSampling: 1000 }), /power of two/);
    assert.throws(() => pv.profileArgs({ edges: 0 }), /whole number >= 1/);
    for (const ok of ['1', '1024', ' 4096 ', '2147483648']) assert.equal(pv.checkPcPeriod(ok), undefined, ok);
    for (const no of ['', '0', '3', '1e3', '-2', 'abc', '1.5', '4294967296']) assert.notEqual(pv.checkPcPeriod(no), undefined, no);
    for (const ok of ['1', '64', '100']) assert.equal(pv.checkEdgePeriod(ok), undefined, ok);
    for (const no of ['0', '-1', '2.5', 'x', '']) assert.notEqual(pv.checkEdgePeriod(no), undefined, no);
});

// A real answer: `glreplay dap` over a capture of samples/lit_mesh, glreplay/profile with
// pcSampling 256, sky.frag bound by a breakpoint file (path source), the other shaders served by
// sourceReference (chromeTrace left out of the fixture).
test('a real glreplay/profile answer (lit_mesh) decorates every line it reports', () => {
    const a = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'lit_mesh_profile.json'), 'utf8'));
    const v = pv.buildProfileView(a);
    const sum = k => a.lines.reduce((s, l) => s + l[k], 0);
    assert.equal(v.totalSamples, sum('samples'));
    assert.equal(v.totalInstructions, sum('instructions'));
    assert.ok(v.totalSamples > 0);
    const keys = new Set(a.lines.map(l => pv.sourceKey(l.source)));
    assert.deepEqual(new Set(v.files.map(f => f.key)), keys);
    assert.ok(v.files.some(f => f.key.startsWith('path:') && f.label === 'sky.frag'));
    assert.ok(v.files.some(f => f.key.startsWith('ref:')));
    const pairs = new Set(a.lines.map(l => `${pv.sourceKey(l.source)}:${l.line - 1}`));
    assert.equal(v.hotspots.length, pairs.size);
    for (const h of v.hotspots) assert.ok(pairs.has(`${h.file.key}:${h.line.line}`));
    for (let i = 1; i < v.hotspots.length; i++) assert.ok(v.hotspots[i - 1].line.samples >= v.hotspots[i].line.samples);
    for (const f of v.files) {
        for (const d of f.lines) {
            assert.equal(d.reasons.reduce((s, r) => s + r.samples, 0), d.samples, `${f.label}:${d.line + 1} reasons add up`);
            assert.ok(d.heat >= 0 && d.heat < pv.HEAT_LEVELS);
        }
    }
    assert.equal(v.hotspots[0].line.heat, pv.HEAT_LEVELS - 1);
    assert.match(v.markdown, /capture `lit\.glcap`/);
    const rows = v.markdown.split('\n').filter(l => /^\| \d+ \|/.test(l));
    assert.equal(rows.length, Math.min(40, pairs.size));
});

// The editor glue (src/profile.ts) against a stand-in for the vscode API: the command sends the
// picked arguments, decorates the right documents (file path; debug: URI of this session's
// sourceReference, not another session's), opens the table and saves the Chrome trace.
function fakeVscode(script) {
    const ev = () => { const fns = []; const on = fn => { fns.push(fn); return { dispose() {} }; }; on.fire = x => fns.forEach(f => f(x)); return on; };
    class Uri {
        constructor(scheme, p, query) { this.scheme = scheme; this.path = p; this.fsPath = p; this.query = query || ''; }
        static file(p) { return new Uri('file', p); }
        static parse(s) { const m = /^([a-z]+):([^?]*)\??(.*)$/.exec(s); return new Uri(m[1], m[2], m[3]); }
        toString() { return `${this.scheme}:${this.scheme === 'file' ? '//' : ''}${this.path}${this.query ? '?' + this.query : ''}`; }
    }
    const log = { errors: [], infos: [], commands: [], requests: [], docs: [], external: [] };
    const registered = {};
    const vs = {
        log, registered, Uri,
        Range: class { constructor(a, b, c, d) { this.start = { line: a, character: b }; this.end = { line: c, character: d }; } },
        Position: class { constructor(l, c) { this.line = l; this.character = c; } },
        ThemeColor: class { constructor(id) { this.id = id; } },
        MarkdownString: class { constructor(v) { this.value = v; } },
        StatusBarAlignment: { Left: 1, Right: 2 }, OverviewRulerLane: { Right: 4 }, ProgressLocation: { Notification: 15 },
        ViewColumn: { Beside: -2 },
        window: {
            visibleTextEditors: [],
            createTextEditorDecorationType: opts => ({ opts, dispose() {} }),
            createStatusBarItem: () => ({ visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} }),
            showQuickPick: async (items, opts) => script.quickPick(items, opts),
            showInputBox: async opts => { const v = script.input(opts); assert.equal(opts.validateInput(v), undefined, `input ${v}`); return v; },
            withProgress: (opts, fn) => fn(),
            showErrorMessage: async m => { log.errors.push(m); },
            showInformationMessage: async (m, ...items) => { log.infos.push(m); return script.info(m, items); },
            showSaveDialog: async opts => script.save(opts),
            showTextDocument: async () => {},
            onDidChangeVisibleTextEditors: ev(),
        },
        debug: {
            activeDebugSession: undefined,
            onDidChangeActiveDebugSession: ev(), onDidStartDebugSession: ev(), onDidTerminateDebugSession: ev(),
            asDebugSourceUri: (src, session) => new Uri('debug', src.path || src.name, `session=${session.id}&ref=${src.sourceReference}`),
        },
        commands: {
            registerCommand: (name, fn) => { registered[name] = fn; return { dispose() {} }; },
            executeCommand: async (...args) => { log.commands.push(args); },
        },
        workspace: {
            workspaceFolders: undefined,
            openTextDocument: async o => { log.docs.push(o); return { uri: new Uri('untitled', 'Untitled-1'), content: o.content }; },
        },
        env: { openExternal: async u => { log.external.push(u.toString()); return true; } },
    };
    return vs;
}

function fakeEditor(uri, lineCount) {
    const e = { document: { uri, lineCount }, decorations: new Map() };
    e.setDecorations = (type, opts) => e.decorations.set(type, opts);
    e.count = () => [...e.decorations.values()].reduce((s, o) => s + o.length, 0);
    return e;
}

test('editor glue: Profile frame sends the request and decorates this session\'s documents', async () => {
    const fixture = JSON.parse(fs.readFileSync(path.join(here, 'fixtures', 'lit_mesh_profile.json'), 'utf8'));
    const skyPath = fixture.lines.find(l => l.source.path).source.path;
    const tmp = fs.mkdtempSync(path.join(require('os').tmpdir(), 'glr-vscode-'));
    const tracePath = path.join(tmp, 'trace.json');
    const script = {
        quickPick: (items, opts) => opts.canPickMany ? items.filter(i => ['pc', 'counters', 'trace'].includes(i.id)) : items[0],
        input: opts => (/PC sampling/.test(opts.title) ? '512' : '64'),
        info: (m, items) => (items.includes('Save Chrome trace…') ? 'Save Chrome trace…' : items[0]),
        save: () => vs.Uri.file(tracePath),
    };
    const vs = fakeVscode(script);
    const session = {
        id: 'S1', type: 'glreplay',
        customRequest: async (cmd, args) => { vs.log.requests.push([cmd, args]); return { ...fixture, chromeTrace: { traceEvents: [{ ph: 'X' }] } }; },
    };
    vs.debug.activeDebugSession = session;
    const sky = fakeEditor(vs.Uri.file(skyPath), 200);
    const sh2 = fakeEditor(new vs.Uri('debug', 'shader2-FS.frag', 'session=S1&ref=2'), 200);
    const other = fakeEditor(new vs.Uri('debug', 'shader2-FS.frag', 'session=S2&ref=2'), 200);
    vs.window.visibleTextEditors = [sky, sh2, other];

    const { ProfileController } = load(path.join(here, '..', 'src', 'profile.ts'), { vscode: vs });
    const pc = new ProfileController();
    for (const c of ['glreplay.profileFrame', 'glreplay.profileHotspots', 'glreplay.profileClear']) {
        assert.equal(typeof vs.registered[c], 'function', c);
    }
    await vs.registered['glreplay.profileFrame']();
    assert.deepEqual(vs.log.errors, []);
    assert.deepEqual(vs.log.requests, [['glreplay/profile', { pcSampling: 512, counters: true, chromeTrace: true }]]);
    const count = pred => new Set(fixture.lines.filter(pred).map(l => l.line)).size;   // decorated file lines
    assert.equal(sky.count(), count(l => l.source.path === skyPath));
    assert.equal(sh2.count(), count(l => l.source.sourceReference === 2));
    assert.ok(sh2.count() > 0);
    assert.equal(other.count(), 0, 'another session\'s document is left alone');
    // The hottest line of the frame is in shader 2: hottest heat level, text and hover.
    const hottest = [...sh2.decorations.entries()].find(([t]) => t.opts.backgroundColor === 'rgba(255, 40, 0, 0.28)')[1];
    assert.ok(hottest.length >= 1);
    assert.match(hottest[0].renderOptions.after.contentText, /samples \(/);
    assert.match(hottest[0].hoverMessage.value, /glreplay profile/);
    // The table as a Markdown preview; the trace written where the save dialog said.
    assert.equal(vs.log.docs.length, 1);
    assert.match(vs.log.docs[0].content, /^# glreplay profile /);
    assert.equal(vs.log.commands[0][0], 'markdown.showPreviewToSide');
    assert.deepEqual(JSON.parse(fs.readFileSync(tracePath, 'utf8')), { traceEvents: [{ ph: 'X' }] });
    assert.deepEqual(vs.log.external, ['https://ui.perfetto.dev']);

    // A refused request shows the server's message; the decorations stay.
    session.customRequest = async () => { throw new Error('glreplay/profile: the GPU model is busy'); };
    await pc.profileFrame({ pcSampling: 1024 });
    assert.deepEqual(vs.log.errors, ['glreplay: glreplay/profile: the GPU model is busy']);
    assert.ok(sh2.count() > 0);
    // A malformed answer is an error, not a crash.
    session.customRequest = async () => ({ id: 3 });
    await pc.profileFrame({ pcSampling: 1024 });
    assert.match(vs.log.errors[1], /no "lines" array/);
    // The session ends: decorations go.
    vs.debug.onDidTerminateDebugSession.fire(session);
    assert.equal(sky.count() + sh2.count(), 0);
    // No glreplay session: a clear message, no request.
    vs.debug.activeDebugSession = { id: 'N', type: 'node', customRequest: async () => assert.fail('sent') };
    await vs.registered['glreplay.profileFrame']();
    assert.match(vs.log.errors[2], /needs an active glreplay debug session/);
    pc.dispose();
    fs.rmSync(tmp, { recursive: true, force: true });
});
