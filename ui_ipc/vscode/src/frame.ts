// "glreplay: Frame view": a webview listing the capture's draws, clears and blits with a thumbnail
// of the driver's image after each (glreplay/eventImages, one headless replay), the selected
// event's image large; a click on a pixel lists its history in the pixel history view
// (glreplay/pixelHistory, through PixelHistoryController), "Debug" stops the session in the
// invocation that wrote it (glreplay/debugPixel) and "Debug vertex" in the vertex shader invocation
// of that fragment's provoking vertex (glreplay/debugVertex), all in the image the event drew into (its
// framebuffer, from glreplay/state at the event). The logic is frame_view.ts.
import * as crypto from 'crypto';
import * as vscode from 'vscode';
import { dataUri, drawTarget, EventImagesAnswer, FrameEntry, frameAction, frameEntries, frameHtml, LARGE_SIDE, targetArg, THUMB_SIDE } from './frame_view';
import { PixelHistoryController } from './pixel';

export class FrameViewController implements vscode.Disposable {
    private readonly disposables: vscode.Disposable[] = [];
    private panel: vscode.WebviewPanel | undefined;
    private entries: FrameEntry[] = [];
    private large = new Map<number, string>();     // event -> data URI of its large image
    private targets = new Map<number, string | undefined>();   // event -> the image it draws into
    private session: vscode.DebugSession | undefined;

    constructor(private readonly pixels: PixelHistoryController) {
        this.disposables.push(vscode.commands.registerCommand('glreplay.frameView', () => this.open()));
    }

    dispose(): void {
        this.panel?.dispose();
        for (const d of this.disposables) {
            d.dispose();
        }
    }

    private error(e: unknown): void {
        const message = `glreplay: ${e instanceof Error ? e.message : String(e)}`;
        void vscode.window.showErrorMessage(message);
        void this.panel?.webview.postMessage({ type: 'error', message });
    }

    async open(): Promise<void> {
        const s = vscode.debug.activeDebugSession;
        if (!s || s.type !== 'glreplay') {
            void vscode.window.showErrorMessage('glreplay: start a glreplay debug session (a capture or a program) first');
            return;
        }
        let a: EventImagesAnswer;
        try {
            a = await vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title: 'glreplay: frame view (replaying the capture)' },
                () => Promise.resolve(s.customRequest('glreplay/eventImages', { maxSide: THUMB_SIDE }) as Thenable<EventImagesAnswer>));
        } catch (e) {
            this.error(e);
            return;
        }
        this.session = s;
        this.entries = frameEntries(a);
        this.large.clear();
        this.targets.clear();
        if (!this.panel) {
            this.panel = vscode.window.createWebviewPanel('glreplayFrame', 'glreplay: frame', vscode.ViewColumn.Beside,
                { enableScripts: true, retainContextWhenHidden: true });
            this.panel.onDidDispose(() => { this.panel = undefined; }, null, this.disposables);
            this.panel.webview.onDidReceiveMessage(m => this.onMessage(m), null, this.disposables);
        }
        const note = a.truncated ? `Only the first ${this.entries.length} images are listed.` : '';
        this.panel.webview.html = frameHtml(this.entries, crypto.randomBytes(16).toString('hex'), `Frame of ${s.name}`, note);
        this.panel.reveal();
    }

    async onMessage(msg: unknown): Promise<void> {
        const act = frameAction(msg, this.entries);
        const s = this.session;
        if (act.kind === 'ignore' || !s) {
            return;
        }
        if (act.kind === 'select') {
            let uri = this.large.get(act.event);
            if (!uri) {
                try {
                    const a = await s.customRequest('glreplay/eventImages', { events: [act.event], maxSide: LARGE_SIDE }) as EventImagesAnswer;
                    const im = (a.images || []).find(i => i.event === act.event);
                    if (!im) {
                        throw new Error(`no image after event ${act.event}`);
                    }
                    uri = dataUri(im);
                    this.large.set(act.event, uri);
                } catch (e) {
                    this.error(e);
                    return;
                }
            }
            const e = this.entries.find(x => x.event === act.event) as FrameEntry;
            await this.panel?.webview.postMessage({ type: 'image', event: act.event, uri, label: e.label });
        } else {
            // The history and the invocation are looked up in the image the event drew into.
            const event = act.event;
            if (!this.targets.has(event)) {
                try {
                    this.targets.set(event, drawTarget(await s.customRequest('glreplay/state', { event })));
                } catch {
                    this.targets.set(event, undefined);   // the back buffer, the requests' default
                }
            }
            const target = targetArg(this.targets.get(event));
            if (act.kind === 'history') {
                await this.pixels.showHistory(s, act.pixel, target.target);
            } else if (act.kind === 'debug') {
                await this.pixels.debugPixel(s, { ...act.args, ...target });
            } else {
                await this.pixels.debugVertex(s, { ...act.args, ...target });
            }
        }
    }
}
