// Test-only extension, run inside code-server by tests/dap/vscode_code_server.js: it drives the
// glreplay extension through the real VS Code API and writes what it saw to $GLR_DRIVER_OUT (JSON):
// the "cap" launch configuration of the workspace starts a glreplay session on a capture, the
// command glreplay.frameView opens the frame view, glreplay.debugVertex (as the pixel history
// view's button calls it, with a vertex item) stops in that vertex shader invocation, and the
// top frame of the stop is read back.
'use strict';
const vscode = require('vscode');
const fs = require('fs');

function activate() {
    const out = process.env.GLR_DRIVER_OUT;
    if (!out)
        return;
    const log = { steps: [] };
    const save = () => fs.writeFileSync(out, JSON.stringify(log));
    const stopped = new Promise(resolve => vscode.debug.registerDebugAdapterTrackerFactory('glreplay', {
        createDebugAdapterTracker: () => ({
            onDidSendMessage: m => {
                if (m.type === 'event' && m.event === 'stopped') {
                    log.stopped = m.body;
                    resolve(m.body);
                }
            },
        }),
    }));
    const top = async s => {
        const f = (await s.customRequest('stackTrace', { threadId: 1 })).stackFrames[0];
        return f && { name: f.name, line: f.line, source: f.source && f.source.name };
    };
    (async () => {
        log.extension = !!vscode.extensions.getExtension('glreplay.glreplay');
        log.started = await vscode.debug.startDebugging(vscode.workspace.workspaceFolders[0], 'cap');
        const s = vscode.debug.activeDebugSession;
        log.session = s && s.type;
        save();
        await vscode.commands.executeCommand('glreplay.frameView');
        log.frameView = true;
        save();
        await vscode.commands.executeCommand('glreplay.debugVertex', { vertex: { debug: { draw: 0, index: 0 } } });
        await Promise.race([stopped, new Promise(r => setTimeout(r, 60000))]);
        log.top = await top(s);
        log.done = true;
        save();
    })().catch(e => { log.error = String(e && e.stack || e); save(); });
}

module.exports = { activate };
