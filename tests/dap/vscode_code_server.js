#!/usr/bin/env node
// The VS Code extension in a real VS Code: code-server (VS Code's workbench served to a browser,
// npm package code-server) with the packed glreplay.vsix installed, opened in Debian's headless
// chromium through puppeteer-core. A test-only extension (tests/dap/code_server_driver) drives it
// through the real VS Code API:
//   * the workspace's launch configuration starts a glreplay debug session on a capture (a piglit
//     shader_test run by shader_runner under `glreplay capture`);
//   * "glreplay: Frame view" opens its webview: the page (found among the browser's frames) lists
//     the capture's events with PNG thumbnails, shows the selected event's image large and has the
//     Debug and Debug vertex buttons;
//   * "glreplay: Debug vertex" on a vertex item ({draw 0, index 0}) stops the session (reason
//     "entry") at the first line of the vertex shader, in that invocation.
// code-server is not a Debian package and does not install from npm alone here (docs/EDITORS.md,
// "A real VS Code"): tests/support/install_code_server.sh installs it into a directory
// ($GLREPLAY_CODE_SERVER, default ~/.cache/glreplay/code-server); without it the test is skipped
// (exit 77).
//
// Environment: GLREPLAY, VSIX (the packed extension), NODE_MODULES (ui_ipc/vscode's, for vsce);
// GLREPLAY_CODE_SERVER, CHROMIUM (default /usr/bin/chromium), PIGLIT (optional).
'use strict';
const assert = require('assert');
const cp = require('child_process');
const fs = require('fs');
const net = require('net');
const os = require('os');
const path = require('path');

const env = process.env;
for (const k of ['GLREPLAY', 'VSIX', 'NODE_MODULES']) {
    if (!env[k]) { console.error(`vscode_code_server: ${k} is not set`); process.exit(2); }
}
const skip = why => { console.log(`vscode_code_server: SKIP: ${why}`); process.exit(77); };
const CS_DIR = env.GLREPLAY_CODE_SERVER || path.join(os.homedir(), '.cache', 'glreplay', 'code-server');
const CODE_SERVER = path.join(CS_DIR, 'node_modules', '.bin', 'code-server');
const CHROMIUM = env.CHROMIUM || '/usr/bin/chromium';
const PIGLIT = env.PIGLIT || '/usr/lib/x86_64-linux-gnu/piglit';
const VSCE = path.join(env.NODE_MODULES, '.bin', 'vsce');
if (!fs.existsSync(CODE_SERVER)) skip(`no code-server in ${CS_DIR} (tests/support/install_code_server.sh)`);
if (!fs.existsSync(path.join(CS_DIR, 'node_modules', 'puppeteer-core'))) skip(`no puppeteer-core in ${CS_DIR}`);
if (!fs.existsSync(CHROMIUM)) skip(`no ${CHROMIUM} (Debian package chromium)`);
if (!fs.existsSync(VSCE)) skip('no vsce (npm ci in ui_ipc/vscode)');
if (!fs.existsSync(env.VSIX)) skip(`no ${env.VSIX} (the build packs it when the npm modules are there)`);
const puppeteer = require(path.join(CS_DIR, 'node_modules', 'puppeteer-core'));
const sleep = ms => new Promise(r => setTimeout(r, ms));

const SHADER_TEST = `[require]
GLSL >= 1.30

[vertex shader]
#version 130
in vec4 piglit_vertex;
void main()
{
	gl_Position = piglit_vertex;
}

[fragment shader]
#version 130
void main()
{
	gl_FragColor = vec4(0.25, 0.5, 0.75, 1.0);
}

[test]
clear color 0.0 0.0 0.0 1.0
clear
draw rect -1 -1 1 1
`;

function run(cmd, args, opts = {}) {
    const r = cp.spawnSync(cmd, args, { encoding: 'utf8', timeout: 120000, ...opts });
    assert.strictEqual(r.status, 0, `${cmd} ${args.join(' ')}: ${(r.stdout || '') + (r.stderr || '')}`.slice(-600));
    return r.stdout + r.stderr;
}

function freePort() {
    return new Promise((resolve, reject) => {
        const s = net.createServer();
        s.listen(0, '127.0.0.1', () => { const p = s.address().port; s.close(() => resolve(p)); });
        s.on('error', reject);
    });
}

async function main() {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'glr-cs-'));
    let server = null, browser = null;
    try {
        // The workspace: a capture and a launch configuration "cap" for it.
        const ws = path.join(tmp, 'ws');
        fs.mkdirSync(path.join(ws, '.vscode'), { recursive: true });
        fs.writeFileSync(path.join(tmp, 't.shader_test'), SHADER_TEST);
        const cap = path.join(ws, 'frame.glcap');
        const log = run(env.GLREPLAY, ['capture', '--frame', '0', '--out', cap, '--', path.join(PIGLIT, 'bin', 'shader_runner'),
            path.join(tmp, 't.shader_test'), '-auto', '-fbo'], { env: { ...env, PIGLIT_PLATFORM: 'surfaceless_egl', EGL_PLATFORM: 'surfaceless' } });
        assert.match(log, /"result": "pass"/, log.slice(-300));
        fs.writeFileSync(path.join(ws, '.vscode', 'launch.json'), JSON.stringify({ version: '0.2.0', configurations: [
            { type: 'glreplay', request: 'launch', name: 'cap', program: cap, glreplay: env.GLREPLAY }] }));
        // The extensions: glreplay's .vsix and the driver, packed here.
        const drv = path.join(tmp, 'driver.vsix'), ud = path.join(tmp, 'user'), ext = path.join(tmp, 'ext');
        run(VSCE, ['package', '--no-dependencies', '--skip-license', '--allow-missing-repository', '-o', drv],
            { cwd: path.join(__dirname, 'code_server_driver') });
        const inst = run(CODE_SERVER, ['--user-data-dir', ud, '--extensions-dir', ext, '--install-extension', env.VSIX, '--install-extension', drv]);
        assert.strictEqual((inst.match(/successfully installed/g) || []).length, 2, inst);
        const port = await freePort(), out = path.join(tmp, 'driver.json');
        server = cp.spawn(CODE_SERVER, ['--auth', 'none', '--bind-addr', `127.0.0.1:${port}`, '--user-data-dir', ud,
            '--extensions-dir', ext, '--disable-telemetry', '--disable-update-check', '--disable-workspace-trust', ws],
            { env: { ...env, GLR_DRIVER_OUT: out, HOME: tmp, XDG_CONFIG_HOME: path.join(tmp, 'config') }, detached: true,
              stdio: ['ignore', 'pipe', 'pipe'] });
        let serverLog = '';
        server.stdout.on('data', d => { serverLog += d; });
        server.stderr.on('data', d => { serverLog += d; });
        for (let i = 0; i < 100 && !/HTTP server listening/.test(serverLog); i++) await sleep(200);
        assert.match(serverLog, /HTTP server listening/, serverLog.slice(-500));
        // The browser opens the workbench: the extension host starts with the client.
        browser = await puppeteer.launch({ executablePath: CHROMIUM, headless: true,
            args: ['--no-sandbox', '--disable-gpu'], defaultViewport: { width: 1400, height: 900 } });
        const page = await browser.newPage();
        await page.goto(`http://127.0.0.1:${port}/?folder=${encodeURIComponent(ws)}`, { waitUntil: 'domcontentloaded' });
        await page.waitForSelector('.monaco-workbench', { timeout: 60000 });
        let d = {};
        for (let i = 0; i < 120 && !d.done && !d.error; i++) {
            await sleep(500);
            try { d = JSON.parse(fs.readFileSync(out, 'utf8')); } catch { /* not written yet */ }
        }
        assert.ok(d.done && !d.error, `the driver: ${JSON.stringify(d)}`);
        assert.strictEqual(d.extension, true);
        assert.strictEqual(d.started, true, 'the launch configuration started a session');
        assert.strictEqual(d.session, 'glreplay');
        // Debug vertex stopped in the vertex shader, at its first line with code.
        assert.strictEqual(d.stopped.reason, 'entry', JSON.stringify(d.stopped));
        assert.match(d.stopped.description, /^first line of the invocation of vertex 0 \(instance 0\) of draw 0/, d.stopped.description);
        assert.match(d.top.source, /-VS-/, JSON.stringify(d.top));
        const vsLines = SHADER_TEST.split('[vertex shader]\n')[1].split('\n');
        assert.strictEqual(d.top.line, vsLines.findIndex(l => l.includes('gl_Position = piglit_vertex')) + 1, JSON.stringify(d.top));
        // The frame view's page, among the browser's frames (webviews are nested iframes).
        let view = null;
        for (let i = 0; i < 60 && !view; i++) {
            for (const f of page.frames()) {
                const v = await f.evaluate(() => document.getElementById('debugVertex') ? {
                    events: [...document.querySelectorAll('.ev')].map(b => b.textContent.trim()),
                    thumbs: [...document.querySelectorAll('.ev img')].map(i => i.src.slice(0, 22)),
                    big: (document.getElementById('big').src || '').slice(0, 22),
                    buttons: ['debug', 'debugVertex'].map(id => document.getElementById(id).textContent),
                } : null).catch(() => null);
                if (v && v.big)
                    view = v;
            }
            if (!view) await sleep(500);
        }
        assert.ok(view, 'the frame view page with its large image');
        assert.ok(view.events.some(e => /^\d+ glDraw/.test(e)) && view.events.some(e => /^\d+ glClear/.test(e)), JSON.stringify(view.events));
        assert.ok(view.thumbs.length === view.events.length && view.thumbs.every(s => s === 'data:image/png;base64,'), JSON.stringify(view.thumbs));
        assert.strictEqual(view.big, 'data:image/png;base64,');
        assert.deepStrictEqual(view.buttons, ['Debug', 'Debug vertex']);
        console.log(`vscode_code_server: ${view.events.length} events in the frame view (${view.events.join(', ')}); ` +
            `Debug vertex stopped at ${d.top.source}:${d.top.line}`);
    } finally {
        if (browser) await browser.close().catch(() => {});
        if (server) {
            try { process.kill(-server.pid, 'SIGTERM'); } catch { /* gone */ }
        }
        fs.rmSync(tmp, { recursive: true, force: true });
    }
    console.log('vscode_code_server: all checks passed');
}

main().catch(e => { console.error('vscode_code_server: FAIL:', e && e.stack || e); process.exit(1); });
