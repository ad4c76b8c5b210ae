// "glreplay: Evaluate on every lane" (glreplay/evaluateWarp: the expression on the 32 lanes of the
// stopped warp, shown as a Markdown table) and "glreplay: Heat map of an expression at this line"
// (glreplay/heatmap: the value over the whole frame at the cursor's line of a fragment shader, in a
// webview). The answer -> view logic is warp_view.ts.
import * as vscode from 'vscode';
import { HeatmapAnswer, heatmapArgs, heatmapHtml, warpTableMarkdown, WarpAnswer } from './warp_view';

export class WarpController implements vscode.Disposable {
    private readonly disposables: vscode.Disposable[] = [];

    constructor() {
        this.disposables.push(
            vscode.commands.registerCommand('glreplay.evaluateWarp', () => this.evaluate()),
            vscode.commands.registerCommand('glreplay.heatmap', () => this.heatmap()));
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

    async evaluate(): Promise<void> {
        const s = this.session();
        if (!s) {
            return;
        }
        const editor = vscode.window.activeTextEditor;
        const selected = editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '';
        const expression = await vscode.window.showInputBox({
            prompt: 'GLSL expression to evaluate on every lane of the stopped warp', value: selected });
        if (!expression) {
            return;
        }
        try {
            const a = await s.customRequest('glreplay/evaluateWarp', { expression }) as WarpAnswer;
            const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: warpTableMarkdown(a) });
            await vscode.commands.executeCommand('markdown.showPreview', doc.uri);
        } catch (e) {
            void vscode.window.showErrorMessage(`glreplay: ${e instanceof Error ? e.message : String(e)}`);
        }
    }

    async heatmap(): Promise<void> {
        const s = this.session();
        const editor = vscode.window.activeTextEditor;
        if (!s) {
            return;
        }
        const text = await vscode.window.showInputBox({
            prompt: 'Fragment value to map over the frame at the cursor line ("expr", or "expr @ 1" for a component)',
            value: editor && !editor.selection.isEmpty ? editor.document.getText(editor.selection) : '' });
        if (text === undefined) {
            return;
        }
        const path = editor ? editor.document.uri.fsPath : '';
        const line = editor ? editor.selection.active.line + 1 : 0;
        const args = heatmapArgs(path, line, text);
        if (typeof args === 'string') {
            void vscode.window.showErrorMessage(`glreplay: ${args}`);
            return;
        }
        try {
            const a = await vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title: 'glreplay: heat map (running the frame)' },
                () => Promise.resolve(s.customRequest('glreplay/heatmap', args))) as HeatmapAnswer;
            const panel = vscode.window.createWebviewPanel('glreplayHeatmap', `Heat map: ${args.expression}`,
                vscode.ViewColumn.Beside, { enableScripts: false });
            panel.webview.html = heatmapHtml(a, `${vscode.workspace.asRelativePath(path)}:${line}`);
        } catch (e) {
            void vscode.window.showErrorMessage(`glreplay: ${e instanceof Error ? e.message : String(e)}`);
        }
    }
}
