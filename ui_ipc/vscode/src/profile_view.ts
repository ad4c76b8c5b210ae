// What the editor shows for a `glreplay/profile` answer (see the top-level README, "Profiling"):
// per source file, the decorations of its shader lines (after-line text with the PC samples and
// the top stall reasons, a hover with the full breakdown, a heat level), and the hotspot table as
// Markdown. No vscode import: unit-testable under plain Node (test/profile_view.test.js).

// A DAP Source as the server sends it: `path` when a breakpoint file bound the shader, else a
// `sourceReference` the client resolves with the `source` request.
export interface ProfileSource {
    name?: string;
    path?: string;
    sourceReference?: number;
}

export interface ProfileLine {
    source: ProfileSource;
    line: number;                        // 1-based, in the client's source
    shader?: number;
    shaderLine?: number;
    instructions: number;                // issued warp instructions
    share?: number;                      // instructions / all instructions of the frame
    lanesPerInstruction?: number;
    samples: number;                     // PC samples
    reasons?: Record<string, number>;    // PC samples per scheduler state
}

export interface ProfileAnswer {
    id: number;
    profile?: any;                       // the JSON document of `glreplay profile --json`
    lines: ProfileLine[];
    chromeTrace?: unknown;
}

export interface Reason {
    name: string;
    samples: number;
}

// One decorated line (several shader lines of several programs may land on one file line: their
// numbers are summed).
export interface LineDecoration {
    line: number;                        // 0-based, as vscode.Range wants it
    instructions: number;
    samples: number;
    instrShare: number;                  // of all instructions in the answer, 0..1
    sampleShare: number;                 // of all samples in the answer, 0..1
    lanesPerInstruction: number;
    reasons: Reason[];                   // most samples first
    heat: number;                        // 0 (cold) .. HEAT_LEVELS-1 (hottest)
    text: string;                        // after-line text
    hover: string;                       // Markdown
}

export interface FileDecorations {
    key: string;                         // sourceKey(source)
    source: ProfileSource;
    label: string;                       // file name (or source name) for tables and pickers
    lines: LineDecoration[];             // by line
}

export interface ProfileView {
    id: number;
    files: FileDecorations[];
    hotspots: Array<{ file: FileDecorations; line: LineDecoration }>;   // hottest first
    totalSamples: number;
    totalInstructions: number;
    markdown: string;                    // the hotspot table
}

export const HEAT_LEVELS = 4;

// A key that identifies a source across the answer and the editor's documents.
export function sourceKey(src: ProfileSource): string {
    if (typeof src.sourceReference === 'number' && src.sourceReference > 0) {
        return `ref:${src.sourceReference}`;
    }
    if (src.path) {
        return `path:${src.path}`;
    }
    return `name:${src.name ?? ''}`;
}

// The key of an editor document: a file on disk, or a `debug:` URI whose query VS Code built as
// `session=ID&ref=N` for a DAP sourceReference. `sessionId`: only that session's documents match.
export function documentKey(scheme: string, fsPath: string, query: string, sessionId?: string): string | undefined {
    if (scheme === 'file') {
        return `path:${fsPath}`;
    }
    if (scheme !== 'debug') {
        return undefined;
    }
    const q = new URLSearchParams(query);
    const ref = Number(q.get('ref'));
    if (!Number.isInteger(ref) || ref <= 0) {
        return undefined;
    }
    const session = q.get('session');
    if (sessionId && session && session !== sessionId) {
        return undefined;
    }
    return `ref:${ref}`;
}

function num(v: unknown, what: string): number {
    if (typeof v !== 'number' || !Number.isFinite(v) || v < 0) {
        throw new Error(`glreplay/profile answer: ${what} is not a non-negative number`);
    }
    return v;
}

function pct(x: number): string {
    return `${(100 * x).toFixed(x >= 0.1 ? 0 : 1)}%`;
}

function count(n: number): string {
    return Math.round(n).toLocaleString('en-US');
}

function baseName(p: string): string {
    const i = p.lastIndexOf('/');
    return i >= 0 ? p.slice(i + 1) : p;
}

function labelOf(src: ProfileSource): string {
    if (src.name) {
        return src.name;
    }
    if (src.path) {
        return baseName(src.path);
    }
    return typeof src.sourceReference === 'number' ? `shader ${src.sourceReference}` : 'unknown source';
}

// Markdown table cells must not break the row.
function cell(s: string): string {
    return s.replace(/\|/g, '\\|').replace(/[\r\n]+/g, ' ');
}

function reasonsText(reasons: Reason[], samples: number, max: number): string {
    return reasons.slice(0, max).map(r => `${r.name} ${pct(samples ? r.samples / samples : 0)}`).join(', ');
}

// Heat of a line from its share of the samples (or of the instructions when there are none):
// thresholds relative to the hottest line, so one frame always shows its own hotspots.
function heatOf(value: number, max: number): number {
    if (max <= 0 || value <= 0) {
        return 0;
    }
    const r = value / max;
    return r >= 0.5 ? 3 : r >= 0.2 ? 2 : r >= 0.05 ? 1 : 0;
}

function hoverOf(label: string, d: LineDecoration, sampled: boolean): string {
    const out = [`**glreplay profile** — ${cell(label)}:${d.line + 1}`, ''];
    out.push('| | count | share |', '|---|---:|---:|');
    out.push(`| warp instructions | ${count(d.instructions)} | ${pct(d.instrShare)} of the frame |`);
    if (sampled) {
        out.push(`| PC samples | ${count(d.samples)} | ${pct(d.sampleShare)} of all samples |`);
        for (const r of d.reasons) {
            out.push(`| ${cell(r.name)} | ${count(r.samples)} | ${pct(d.samples ? r.samples / d.samples : 0)} of the line |`);
        }
    }
    if (d.lanesPerInstruction > 0) {
        out.push('', `${d.lanesPerInstruction.toFixed(1)} active lanes per instruction`);
    }
    return out.join('\n');
}

function textOf(d: LineDecoration, sampled: boolean): string {
    if (sampled && d.samples > 0) {
        const why = reasonsText(d.reasons, d.samples, 2);
        return `  ${count(d.samples)} samples (${pct(d.sampleShare)})${why ? ' · ' + why : ''}`;
    }
    return `  ${count(d.instructions)} instr (${pct(d.instrShare)})`;
}

export interface ViewOptions {
    top?: number;                        // rows in the hotspot table (default 40)
    linkFor?: (src: ProfileSource, line: number) => string | undefined;   // Markdown link target
}

// Turns an answer into decorations per file and the hotspot table. Throws with a clear message
// when the answer is not what the server documents.
export function buildProfileView(answer: unknown, opt: ViewOptions = {}): ProfileView {
    if (!answer || typeof answer !== 'object' || !Array.isArray((answer as ProfileAnswer).lines)) {
        throw new Error('glreplay/profile answer: no "lines" array');
    }
    const a = answer as ProfileAnswer;
    const files = new Map<string, { file: FileDecorations; byLine: Map<number, LineDecoration & { lanes: number }> }>();
    let totalSamples = 0;
    let totalInstructions = 0;
    a.lines.forEach((l, i) => {
        if (!l || typeof l !== 'object' || !l.source || typeof l.source !== 'object') {
            throw new Error(`glreplay/profile answer: lines[${i}] has no source`);
        }
        const line = num(l.line, `lines[${i}].line`);
        if (!Number.isInteger(line) || line < 1) {
            throw new Error(`glreplay/profile answer: lines[${i}].line is not a 1-based line number`);
        }
        const instructions = num(l.instructions ?? 0, `lines[${i}].instructions`);
        const samples = num(l.samples ?? 0, `lines[${i}].samples`);
        const key = sourceKey(l.source);
        let f = files.get(key);
        if (!f) {
            f = { file: { key, source: l.source, label: labelOf(l.source), lines: [] }, byLine: new Map() };
            files.set(key, f);
        }
        let d = f.byLine.get(line - 1);
        if (!d) {
            d = { line: line - 1, instructions: 0, samples: 0, instrShare: 0, sampleShare: 0, lanesPerInstruction: 0,
                  reasons: [], heat: 0, text: '', hover: '', lanes: 0 };
            f.byLine.set(line - 1, d);
        }
        d.instructions += instructions;
        d.samples += samples;
        d.lanes += instructions * (typeof l.lanesPerInstruction === 'number' ? l.lanesPerInstruction : 0);
        for (const [name, n] of Object.entries(l.reasons ?? {})) {
            const v = num(n, `lines[${i}].reasons.${name}`);
            const r = d.reasons.find(x => x.name === name);
            if (r) {
                r.samples += v;
            } else {
                d.reasons.push({ name, samples: v });
            }
        }
        totalSamples += samples;
        totalInstructions += instructions;
    });

    const sampled = totalSamples > 0;
    const all: Array<{ file: FileDecorations; line: LineDecoration }> = [];
    let maxSamples = 0;
    let maxInstr = 0;
    for (const { file, byLine } of files.values()) {
        for (const d of byLine.values()) {
            d.instrShare = totalInstructions ? d.instructions / totalInstructions : 0;
            d.sampleShare = totalSamples ? d.samples / totalSamples : 0;
            d.lanesPerInstruction = d.instructions ? d.lanes / d.instructions : 0;
            d.reasons.sort((x, y) => y.samples - x.samples || x.name.localeCompare(y.name));
            maxSamples = Math.max(maxSamples, d.samples);
            maxInstr = Math.max(maxInstr, d.instructions);
        }
    }
    for (const { file, byLine } of files.values()) {
        const sorted = [...byLine.values()].sort((x, y) => x.line - y.line);
        for (const full of sorted) {
            const { lanes: _lanes, ...d } = full;
            d.heat = sampled ? heatOf(d.samples, maxSamples) : heatOf(d.instructions, maxInstr);
            d.text = textOf(d, sampled);
            d.hover = hoverOf(file.label, d, sampled);
            file.lines.push(d);
            all.push({ file, line: d });
        }
    }
    all.sort((x, y) => (y.line.samples - x.line.samples) || (y.line.instructions - x.line.instructions) ||
                       x.file.label.localeCompare(y.file.label) || (x.line.line - y.line.line));
    const view: ProfileView = {
        id: typeof a.id === 'number' ? a.id : 0,
        files: [...files.values()].map(f => f.file).sort((x, y) => x.label.localeCompare(y.label) || x.key.localeCompare(y.key)),
        hotspots: all,
        totalSamples,
        totalInstructions,
        markdown: '',
    };
    view.markdown = hotspotMarkdown(view, a.profile, opt);
    return view;
}

function hotspotMarkdown(v: ProfileView, profile: any, opt: ViewOptions): string {
    const top = opt.top ?? 40;
    const out: string[] = [`# glreplay profile ${v.id}`, ''];
    if (profile && typeof profile === 'object') {
        const t = profile.totals ?? {};
        const facts: string[] = [];
        if (typeof profile.capture === 'string') {
            facts.push(`capture \`${profile.capture}\``);
        }
        if (typeof t.cycles === 'number') {
            facts.push(`${count(t.cycles)} model cycles`);
        }
        if (typeof t.draws === 'number') {
            facts.push(`${count(t.draws)} draws`);
        }
        if (Array.isArray(profile.methods) && profile.methods.length) {
            facts.push(`methods: ${profile.methods.map((m: unknown) => String(m)).join(', ')}`);
        }
        if (facts.length) {
            out.push(facts.join(' · '), '');
        }
    }
    const sampled = v.totalSamples > 0;
    out.push(sampled
        ? `${count(v.totalSamples)} PC samples, ${count(v.totalInstructions)} warp instructions over ${v.hotspots.length} source lines.`
        : `${count(v.totalInstructions)} warp instructions over ${v.hotspots.length} source lines (no PC sampling in this run).`, '');
    if (!v.hotspots.length) {
        out.push('No shader line ran in this frame (or none maps to a source).');
        return out.join('\n') + '\n';
    }
    out.push(sampled ? '| # | line | samples | % samples | instructions | % instr | top reasons |'
                     : '| # | line | instructions | % instr | lanes/instr |');
    out.push(sampled ? '|---:|---|---:|---:|---:|---:|---|' : '|---:|---|---:|---:|---:|');
    v.hotspots.slice(0, top).forEach((h, i) => {
        const where = `${cell(h.file.label)}:${h.line.line + 1}`;
        const link = opt.linkFor?.(h.file.source, h.line.line + 1);
        const loc = link ? `[${where}](${link})` : where;
        const d = h.line;
        out.push(sampled
            ? `| ${i + 1} | ${loc} | ${count(d.samples)} | ${pct(d.sampleShare)} | ${count(d.instructions)} | ${pct(d.instrShare)} | ${cell(reasonsText(d.reasons, d.samples, 3))} |`
            : `| ${i + 1} | ${loc} | ${count(d.instructions)} | ${pct(d.instrShare)} | ${d.lanesPerInstruction.toFixed(1)} |`);
    });
    if (v.hotspots.length > top) {
        out.push('', `${v.hotspots.length - top} more lines are decorated in their sources.`);
    }
    return out.join('\n') + '\n';
}

// The request arguments for the methods picked in the editor (README "Profiling").
export interface ProfileChoice {
    pcSampling?: number;                 // period in cycles, a power of two
    pcMode?: 'round-robin' | 'all';
    counters?: boolean;
    edges?: number;                      // sample every B taken branches
    chromeTrace?: boolean;
}

export function profileArgs(c: ProfileChoice): Record<string, unknown> {
    const args: Record<string, unknown> = {};
    if (c.pcSampling !== undefined) {
        const err = checkPcPeriod(String(c.pcSampling));
        if (err) {
            throw new Error(err);
        }
        args.pcSampling = c.pcSampling;
        if (c.pcMode) {
            args.pcMode = c.pcMode;
        }
    }
    if (c.counters) {
        args.counters = true;
    }
    if (c.edges !== undefined) {
        const err = checkEdgePeriod(String(c.edges));
        if (err) {
            throw new Error(err);
        }
        args.edges = c.edges;
    }
    if (c.chromeTrace) {
        args.chromeTrace = true;
    }
    return args;
}

// Input-box validators: undefined when fine, else the message to show.
export function checkPcPeriod(text: string): string | undefined {
    const p = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(p) || p < 1 || p > 0x80000000 || (p & (p - 1)) !== 0) {
        return 'the sampling period P must be a power of two (cycles), e.g. 1024';
    }
    return undefined;
}

export function checkEdgePeriod(text: string): string | undefined {
    const b = Number(text.trim());
    if (!/^\d+$/.test(text.trim()) || !Number.isSafeInteger(b) || b < 1 || b > 0xffffffff) {
        return 'the edge sampling period B must be a whole number >= 1, e.g. 64';
    }
    return undefined;
}
