// glreplay for VS Code: a `glreplay` debug type whose adapter is the DAP server glreplay runs on a
// Unix socket (in the program under the shim, or `glreplay dap` for a capture file). VS Code
// reaches Unix sockets only through DebugAdapterNamedPipeServer, hence this extension.
import * as cp from 'child_process';
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import { FrameViewController } from './frame';
import { PixelHistoryController } from './pixel';
import { WarpController } from './warp';
import { ProfileController } from './profile';
import { launchSocketPath, listLiveSockets, waitForSocket } from './sockets';

const children = new Map<string, cp.ChildProcess>();
let output: vscode.OutputChannel | undefined;

function log(text: string): void {
    if (!output) {
        output = vscode.window.createOutputChannel('glreplay');
    }
    output.append(text);
}

class AdapterFactory implements vscode.DebugAdapterDescriptorFactory {
    createDebugAdapterDescriptor(session: vscode.DebugSession): vscode.ProviderResult<vscode.DebugAdapterDescriptor> {
        const socket: string | undefined = session.configuration.socket;
        if (!socket) {
            throw new Error('glreplay: no socket in the debug configuration');
        }
        return new vscode.DebugAdapterNamedPipeServer(socket);
    }
}

async function pickSocket(): Promise<string | undefined> {
    // Only programs that still listen (a program killed by a signal leaves its socket file behind).
    const sockets = await listLiveSockets();
    if (sockets.length === 0) {
        vscode.window.showErrorMessage(
            'glreplay: no running program found in $XDG_RUNTIME_DIR/glreplay or /tmp/glreplay-<uid>. ' +
            'Start a program with `glreplay run -- APP` or a capture with `glreplay dap --socket P F.glcap`.');
        return undefined;
    }
    if (sockets.length === 1) {
        return sockets[0].path;
    }
    const pick = await vscode.window.showQuickPick(
        sockets.map(s => ({ label: path.basename(s.path), description: s.path, detail: `created ${s.mtime.toLocaleString()}` })),
        { placeHolder: 'glreplay socket to attach to' });
    return pick?.description;
}

async function launch(config: vscode.DebugConfiguration): Promise<string | undefined> {
    const program: string = config.program;
    const glreplay: string = config.glreplay || 'glreplay';
    const socket = launchSocketPath();
    fs.mkdirSync(path.dirname(socket), { recursive: true, mode: 0o700 });
    const args = program.endsWith('.glcap')
        ? ['dap', '--socket', socket, program]
        : ['run', '--socket', socket, '--', program, ...(config.args || [])];
    log(`$ ${glreplay} ${args.join(' ')}\n`);
    const child = cp.spawn(glreplay, args, { env: { ...process.env, ...(config.env || {}) }, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout?.on('data', d => log(d.toString()));
    child.stderr?.on('data', d => log(d.toString()));
    const exited = new Promise<never>((_, reject) => child.on('exit', code => reject(new Error(`glreplay exited (${code}) before its socket appeared`))));
    try {
        await Promise.race([waitForSocket(socket, 30000), exited]);
    } catch (e) {
        child.kill();
        vscode.window.showErrorMessage(`glreplay: ${(e as Error).message} (see the glreplay output channel)`);
        return undefined;
    }
    children.set(socket, child);
    return socket;
}

class ConfigProvider implements vscode.DebugConfigurationProvider {
    async resolveDebugConfiguration(_folder: vscode.WorkspaceFolder | undefined,
                                    config: vscode.DebugConfiguration): Promise<vscode.DebugConfiguration | undefined> {
        if (!config.type && !config.request) {
            config = { type: 'glreplay', request: 'attach', name: 'glreplay: attach' };
        }
        if (config.request === 'launch') {
            if (!config.program) {
                vscode.window.showErrorMessage('glreplay: a launch configuration needs "program"');
                return undefined;
            }
            const socket = await launch(config);
            if (!socket) {
                return undefined;
            }
            config.socket = socket;
        } else if (!config.socket) {
            const socket = await pickSocket();
            if (!socket) {
                return undefined;
            }
            config.socket = socket;
        }
        return config;
    }
}

export function activate(context: vscode.ExtensionContext): void {
    const pixels = new PixelHistoryController();
    context.subscriptions.push(
        vscode.debug.registerDebugAdapterDescriptorFactory('glreplay', new AdapterFactory()),
        vscode.debug.registerDebugConfigurationProvider('glreplay', new ConfigProvider()),
        vscode.debug.onDidTerminateDebugSession(session => {
            const socket: string | undefined = session.configuration.socket;
            const child = socket ? children.get(socket) : undefined;
            if (child && socket) {
                child.kill('SIGTERM');
                children.delete(socket);
            }
        }),
        // "glreplay: Profile frame" (the glreplay/profile request), its decorations and table.
        new ProfileController(),
        // "glreplay: Pixel history" (glreplay/pixelHistory) and its view; "Debug" per entry.
        pixels,
        // "glreplay: Frame view": thumbnails per event (glreplay/eventImages), click a pixel, Debug.
        new FrameViewController(pixels),
        // "Evaluate on every lane" (glreplay/evaluateWarp) and "Heat map" (glreplay/heatmap).
        new WarpController());
}

export function deactivate(): void {
    for (const child of children.values()) {
        child.kill('SIGTERM');
    }
    children.clear();
}
