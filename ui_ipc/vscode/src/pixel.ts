// "glreplay: Pixel history": asks for a pixel, runs glreplay/pixelHistory in the active glreplay
// debug session and lists the answer in the "glreplay pixel history" view of the Run and Debug
// side bar (one entry per event that touched the pixel, its fragments below it, tooltips with the
// tests and blend). "Debug" on a draw or a fragment sends glreplay/debugPixel: the session stops at
// the first line of that fragment shader invocation; "Debug vertex" on a fragment (its provoking
// vertex) or on one of its primitive's vertices sends glreplay/debugVertex: the session stops at
// the first line of that vertex shader invocation (from the command palette: a draw and index).
// The answer -> entries logic is pixel_view.ts.
import * as vscode from 'vscode';
import { buildHistoryItems, DebugPixelArgs, DebugVertexArgs, EventItem, FragmentItem, historySummary, itemContext, parsePixel, parseVertex, PixelHistory, PixelRef, VertexItem } from './pixel_view';

type Node = { event: EventItem } | { fragment: FragmentItem } | { vertex: VertexItem };

class HistoryTree implements vscode.TreeDataProvider<Node> {
    private readonly changed = new vscode.EventEmitter<Node | undefined>();
    readonly onDidChangeTreeData = this.changed.event;
    items: EventItem[] = [];

    set(items: EventItem[]): void {
        this.items = items;
        this.changed.fire(undefined);
    }

    getTreeItem(n: Node): vscode.TreeItem {
        if ('event' in n) {
            const e = n.event;
            const t = new vscode.TreeItem(e.label, e.fragments.length
                ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
            t.description = e.description;
            t.tooltip = e.tooltip;
            t.contextValue = itemContext(!!e.debug, false);
            t.iconPath = new vscode.ThemeIcon(e.warning ? 'warning' : e.kind === 'draw' ? 'symbol-color' : 'clear-all');
            return t;
        }
        if ('vertex' in n) {
            const t = new vscode.TreeItem(n.vertex.label, vscode.TreeItemCollapsibleState.None);
            t.description = n.vertex.description;
            t.tooltip = n.vertex.tooltip;
            t.contextValue = itemContext(false, true);
            return t;
        }
        const f = n.fragment;
        const t = new vscode.TreeItem(f.label, f.vertices.length
            ? vscode.TreeItemCollapsibleState.Collapsed : vscode.TreeItemCollapsibleState.None);
        t.description = f.description;
        t.tooltip = f.tooltip;
        t.contextValue = itemContext(!!f.debug, !!f.debugVertex);
        return t;
    }

    getChildren(n?: Node): Node[] {
        if (!n) {
            return this.items.map(event => ({ event }));
        }
        if ('event' in n) {
            return n.event.fragments.map(fragment => ({ fragment }));
        }
        return 'fragment' in n ? n.fragment.vertices.map(vertex => ({ vertex })) : [];
    }
}

export class PixelHistoryController implements vscode.Disposable {
    private readonly tree = new HistoryTree();
    private readonly view: vscode.TreeView<Node>;
    private readonly disposables: vscode.Disposable[] = [];
    private last = '';

    constructor() {
        this.view = vscode.window.createTreeView('glreplayPixelHistory', { treeDataProvider: this.tree });
        this.disposables.push(
            this.view,
            vscode.commands.registerCommand('glreplay.pixelHistory', () => this.history()),
            vscode.commands.registerCommand('glreplay.debugPixel', (n?: Node) => this.debug(n)),
            vscode.commands.registerCommand('glreplay.debugVertex', (n?: Node) => this.vertex(n)));
    }

    dispose(): void {
        for (const d of this.disposables) {
            d.dispose();
        }
    }

    private session(): vscode.DebugSession | undefined {
        const s = vscode.debug.activeDebugSession;
        if (!s || s.type !== 'glreplay') {
            void vscode.window.showErrorMessage('glreplay: start a glreplay debug session (a capture or a program) first');
            return undefined;
        }
        return s;
    }

    async history(): Promise<void> {
        const s = this.session();
        if (!s) {
            return;
        }
        const text = await vscode.window.showInputBox({
            title: 'glreplay: Pixel history', prompt: 'Pixel x,y (window coordinates, origin bottom-left)',
            value: this.last, validateInput: v => { const p = parsePixel(v); return typeof p === 'string' ? p : undefined; },
        });
        if (text === undefined) {
            return;
        }
        const p = parsePixel(text);
        if (typeof p === 'string') {
            return;
        }
        this.last = text;
        await this.showHistory(s, p);
    }

    // Runs glreplay/pixelHistory for p (of target, default the back buffer) in session s and lists
    // the answer in the view (also what a click on a pixel of the frame view does).
    async showHistory(s: vscode.DebugSession, p: PixelRef, target?: string): Promise<void> {
        let h: PixelHistory;
        try {
            h = await vscode.window.withProgress({ location: { viewId: 'glreplayPixelHistory' }, title: 'pixel history' },
                () => Promise.resolve(s.customRequest('glreplay/pixelHistory', { x: p.x, y: p.y, ...(target ? { target } : {}) }) as Thenable<PixelHistory>));
        } catch (e) {
            void vscode.window.showErrorMessage(`glreplay: ${e instanceof Error ? e.message : String(e)}`);
            return;
        }
        this.tree.set(buildHistoryItems(h));
        this.view.message = historySummary(h);
        await vscode.commands.executeCommand('glreplayPixelHistory.focus');
    }

    async debug(n?: Node): Promise<void> {
        const args: DebugPixelArgs | undefined = n ? ('event' in n ? n.event.debug : 'fragment' in n ? n.fragment.debug : undefined) : undefined;
        const s = this.session();
        if (!s || !args) {
            return;
        }
        await this.debugPixel(s, args);
    }

    // glreplay/debugPixel: the session stops at the first line of that invocation.
    async debugPixel(s: vscode.DebugSession, args: DebugPixelArgs | { x: number; y: number; target?: string }): Promise<void> {
        try {
            await s.customRequest('glreplay/debugPixel', args);
        } catch (e) {
            void vscode.window.showErrorMessage(`glreplay: ${e instanceof Error ? e.message : String(e)}`);
        }
    }

    // "Debug vertex": on a fragment its provoking vertex, on a vertex that one; from the command
    // palette a draw and index typed in.
    async vertex(n?: Node): Promise<void> {
        const s = this.session();
        if (!s) {
            return;
        }
        let args: DebugVertexArgs | undefined;
        if (n) {
            args = 'vertex' in n ? n.vertex.debug : 'fragment' in n ? n.fragment.debugVertex : undefined;
        } else {
            const text = await vscode.window.showInputBox({
                title: 'glreplay: Debug vertex', prompt: 'Draw and vertex: draw,index[,instance] (index: gl_VertexID)',
                validateInput: v => { const p = parseVertex(v); return typeof p === 'string' ? p : undefined; },
            });
            const p = text === undefined ? undefined : parseVertex(text);
            args = typeof p === 'string' ? undefined : p;
        }
        if (args) {
            await this.debugVertex(s, args);
        }
    }

    // glreplay/debugVertex: the session stops at the first line of that vertex shader invocation.
    async debugVertex(s: vscode.DebugSession, args: DebugVertexArgs): Promise<void> {
        try {
            await s.customRequest('glreplay/debugVertex', args);
        } catch (e) {
            void vscode.window.showErrorMessage(`glreplay: ${e instanceof Error ? e.message : String(e)}`);
        }
    }
}
