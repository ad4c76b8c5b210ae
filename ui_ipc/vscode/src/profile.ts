// "glreplay: Profile frame": runs the DAP request glreplay/profile in the active glreplay debug
// session and shows the answer in the editor: shader lines decorated with their PC samples and
// top stall reasons (hover: the full breakdown), the hotspot table as a Markdown preview, and the
// Chrome trace saved to a file for ui.perfetto.dev. The answer -> decorations logic lives in
// profile_view.ts (no vscode import, unit-tested).
import * as fs from 'fs';
import * as path from 'path';
import * as vscode from 'vscode';
import {
    buildProfileView, checkEdgePeriod, checkPcPeriod, documentKey, FileDecorations, HEAT_LEVELS, ProfileChoice,
    profileArgs, ProfileSource, ProfileView,
} from './profile_view';

// Heat backgrounds, coolest to hottest (level 0 has none: only the after-line text).
const HEAT_BACKGROUNDS = [undefined, 'rgba(255, 170, 0, 0.10)', 'rgba(255, 110, 0, 0.18)', 'rgba(255, 40, 0, 0.28)'];
const HEAT_RULER = [undefined, 'rgba(255, 170, 0, 0.6)', 'rgba(255, 110, 0, 0.8)', 'rgba(255, 40, 0, 1)'];

interface Shown {
    view: ProfileView;
    sessionId: string;
    session: vscode.DebugSession;
}

export class ProfileController implements vscode.Disposable {
    private readonly heat: vscode.TextEditorDecorationType[] = [];
    private readonly status: vscode.StatusBarItem;
    private readonly disposables: vscode.Disposable[] = [];
    private shown: Shown | undefined;
    private last: ProfileChoice = { pcSampling: 1024 };
    private lastMethods = new Set<string>(['pc']);
    private busy = false;

    constructor() {
        for (let i = 0; i < HEAT_LEVELS; i++) {
            this.heat.push(vscode.window.createTextEditorDecorationType({
                isWholeLine: true,
                backgroundColor: HEAT_BACKGROUNDS[i],
                overviewRulerColor: HEAT_RULER[i],
                overviewRulerLane: vscode.OverviewRulerLane.Right,
                after: { color: new vscode.ThemeColor('editorCodeLens.foreground'), fontStyle: 'italic', margin: '0 0 0 1.5em' },
            }));
        }
        this.status = vscode.window.createStatusBarItem(vscode.StatusBarAlignment.Left, 10);
        this.status.command = 'glreplay.profileFrame';
        this.status.text = '$(pulse) glreplay profile';
        this.status.tooltip = 'glreplay: Profile frame (PC sampling, counters, edge profiles) in the GPU model';
        this.disposables.push(
            vscode.commands.registerCommand('glreplay.profileFrame', () => this.profileFrame()),
            vscode.commands.registerCommand('glreplay.profileHotspots', () => this.pickHotspot()),
            vscode.commands.registerCommand('glreplay.profileClear', () => this.clear()),
            vscode.window.onDidChangeVisibleTextEditors(() => this.decorateVisible()),
            vscode.debug.onDidChangeActiveDebugSession(() => this.updateStatus()),
            vscode.debug.onDidStartDebugSession(() => this.updateStatus()),
            vscode.debug.onDidTerminateDebugSession(s => {
                if (this.shown?.sessionId === s.id) {
                    this.clear();
                }
                this.updateStatus();
            }));
        this.updateStatus();
    }

    dispose(): void {
        for (const d of [...this.disposables, ...this.heat, this.status]) {
            d.dispose();
        }
    }

    private updateStatus(): void {
        const s = vscode.debug.activeDebugSession;
        if (s && s.type === 'glreplay') {
            this.status.text = this.busy ? '$(sync~spin) glreplay profiling…' : '$(pulse) glreplay profile';
            this.status.show();
        } else {
            this.status.hide();
        }
    }

    // Which methods, with which periods: a multi-select quick pick, then one input box per period.
    private async choose(): Promise<ProfileChoice | undefined> {
        const items: Array<vscode.QuickPickItem & { id: string }> = [
            { id: 'pc', label: 'PC sampling', description: 'samples per shader line and stall reason (P cycles)' },
            { id: 'all', label: 'PC sampling: every warp', description: 'sample all resident warps instead of round-robin' },
            { id: 'counters', label: 'Counters', description: 'warps, stalls, instructions, caches, fragments…' },
            { id: 'edges', label: 'Edge profiles', description: 'control-flow edges from a taken-branch ring (every B branches)' },
            { id: 'trace', label: 'Chrome trace', description: 'offer to save a trace for ui.perfetto.dev' },
        ];
        for (const it of items) {
            it.picked = this.lastMethods.has(it.id);
        }
        const picked = await vscode.window.showQuickPick(items, {
            canPickMany: true, title: 'glreplay: Profile frame', placeHolder: 'Telemetry methods (the GPU model runs the frame once)',
        });
        if (!picked) {
            return undefined;
        }
        const ids = new Set(picked.map(p => p.id));
        const c: ProfileChoice = {};
        if (ids.has('pc') || ids.has('all')) {
            const p = await vscode.window.showInputBox({
                title: 'glreplay: PC sampling period', prompt: 'P: one sample every P cycles per SM (a power of two)',
                value: String(this.last.pcSampling ?? 1024), validateInput: t => checkPcPeriod(t),
            });
            if (p === undefined) {
                return undefined;
            }
            c.pcSampling = Number(p.trim());
            if (ids.has('all')) {
                c.pcMode = 'all';
            }
        }
        if (ids.has('counters')) {
            c.counters = true;
        }
        if (ids.has('edges')) {
            const b = await vscode.window.showInputBox({
                title: 'glreplay: edge profile period', prompt: 'B: sample the taken-branch ring every B branches',
                value: String(this.last.edges ?? 64), validateInput: t => checkEdgePeriod(t),
            });
            if (b === undefined) {
                return undefined;
            }
            c.edges = Number(b.trim());
        }
        if (ids.has('trace')) {
            c.chromeTrace = true;
        }
        this.lastMethods = ids;
        this.last = { ...this.last, ...c };
        return c;
    }

    async profileFrame(choice?: ProfileChoice): Promise<void> {
        const session = vscode.debug.activeDebugSession;
        if (!session || session.type !== 'glreplay') {
            vscode.window.showErrorMessage('glreplay: Profile frame needs an active glreplay debug session (attach to a program or open a capture first).');
            return;
        }
        if (this.busy) {
            vscode.window.showInformationMessage('glreplay: a profile is already running.');
            return;
        }
        const c = choice ?? await this.choose();
        if (!c) {
            return;
        }
        let args: Record<string, unknown>;
        try {
            args = profileArgs(c);
        } catch (e) {
            vscode.window.showErrorMessage(`glreplay: ${(e as Error).message}`);
            return;
        }
        this.busy = true;
        this.updateStatus();
        let answer: any;
        try {
            answer = await vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title: 'glreplay: profiling the frame in the GPU model…' },
                () => Promise.resolve(session.customRequest('glreplay/profile', args)));
        } catch (e) {
            vscode.window.showErrorMessage(`glreplay: ${(e as Error).message ?? e}`);
            return;
        } finally {
            this.busy = false;
            this.updateStatus();
        }
        let view: ProfileView;
        try {
            view = buildProfileView(answer, { linkFor: (src, line) => this.link(src, line) });
        } catch (e) {
            vscode.window.showErrorMessage(`glreplay: ${(e as Error).message}`);
            return;
        }
        this.shown = { view, sessionId: session.id, session };
        this.decorateVisible();
        await this.showTable(view);
        if (answer.chromeTrace !== undefined) {
            await this.offerTrace(answer.chromeTrace, view.id);
        }
    }

    // Markdown link to a line of a file on disk (file URI with #L, which the Markdown preview opens
    // at that line). Shaders served by the session (debug: URIs) get none: the preview does not
    // open that scheme; "Go to profile hotspot" does.
    private link(src: ProfileSource, line: number): string | undefined {
        if (typeof src.sourceReference === 'number' && src.sourceReference > 0) {
            return undefined;
        }
        return src.path ? `${vscode.Uri.file(src.path).toString()}#L${line}` : undefined;
    }

    private uriOf(src: ProfileSource, session: vscode.DebugSession): vscode.Uri | undefined {
        if (typeof src.sourceReference === 'number' && src.sourceReference > 0) {
            return vscode.debug.asDebugSourceUri(src as any, session);
        }
        return src.path ? vscode.Uri.file(src.path) : undefined;
    }

    private decorateVisible(): void {
        for (const editor of vscode.window.visibleTextEditors) {
            this.decorate(editor);
        }
    }

    private fileFor(doc: vscode.TextDocument): FileDecorations | undefined {
        if (!this.shown) {
            return undefined;
        }
        const key = documentKey(doc.uri.scheme, doc.uri.fsPath, doc.uri.query, this.shown.sessionId);
        return key ? this.shown.view.files.find(f => f.key === key) : undefined;
    }

    private decorate(editor: vscode.TextEditor): void {
        const file = this.fileFor(editor.document);
        const levels: vscode.DecorationOptions[][] = this.heat.map(() => []);
        for (const d of file?.lines ?? []) {
            if (d.line >= editor.document.lineCount) {
                continue;
            }
            const hover = new vscode.MarkdownString(d.hover);
            levels[d.heat].push({
                range: new vscode.Range(d.line, 0, d.line, 0),
                hoverMessage: hover,
                renderOptions: { after: { contentText: d.text } },
            });
        }
        this.heat.forEach((t, i) => editor.setDecorations(t, levels[i]));
    }

    clear(): void {
        this.shown = undefined;
        this.decorateVisible();
    }

    private async showTable(view: ProfileView): Promise<void> {
        const doc = await vscode.workspace.openTextDocument({ language: 'markdown', content: view.markdown });
        try {
            await vscode.commands.executeCommand('markdown.showPreviewToSide', doc.uri);
        } catch {
            await vscode.window.showTextDocument(doc, { viewColumn: vscode.ViewColumn.Beside, preview: true });
        }
    }

    // Quick pick over the hotspots; opens the chosen line (files on disk or the session's shaders).
    private async pickHotspot(): Promise<void> {
        const shown = this.shown;
        if (!shown) {
            vscode.window.showInformationMessage('glreplay: no profile shown yet (run "glreplay: Profile frame").');
            return;
        }
        const items = shown.view.hotspots.slice(0, 200).map(h => ({
            label: `${h.file.label}:${h.line.line + 1}`,
            description: h.line.text.trim(),
            h,
        }));
        const pick = await vscode.window.showQuickPick(items, { title: `glreplay profile ${shown.view.id}: hotspots`, matchOnDescription: true });
        if (!pick) {
            return;
        }
        const uri = this.uriOf(pick.h.file.source, shown.session);
        if (!uri) {
            return;
        }
        try {
            const doc = await vscode.workspace.openTextDocument(uri);
            const pos = new vscode.Position(pick.h.line.line, 0);
            await vscode.window.showTextDocument(doc, { selection: new vscode.Range(pos, pos) });
        } catch (e) {
            vscode.window.showErrorMessage(`glreplay: cannot open ${pick.label}: ${(e as Error).message}`);
        }
    }

    private async offerTrace(trace: unknown, id: number): Promise<void> {
        const save = 'Save Chrome trace…';
        const choice = await vscode.window.showInformationMessage(
            `glreplay: profile ${id} has a Chrome trace (open it in ui.perfetto.dev).`, save);
        if (choice !== save) {
            return;
        }
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
        const target = await vscode.window.showSaveDialog({
            defaultUri: vscode.Uri.file(path.join(folder, `glreplay-profile-${id}.json`)),
            filters: { 'Chrome trace JSON': ['json'] },
        });
        if (!target) {
            return;
        }
        try {
            fs.writeFileSync(target.fsPath, JSON.stringify(trace));
        } catch (e) {
            vscode.window.showErrorMessage(`glreplay: cannot write ${target.fsPath}: ${(e as Error).message}`);
            return;
        }
        const open = 'Open ui.perfetto.dev';
        if (await vscode.window.showInformationMessage(`glreplay: wrote ${target.fsPath}`, open) === open) {
            vscode.env.openExternal(vscode.Uri.parse('https://ui.perfetto.dev'));
        }
    }
}
