// The logic of the "Evaluate on every lane" and "Heat map" commands (warp.ts), without the
// vscode API so that it is unit-tested under plain Node (test/warp_view.test.js):
//  - a glreplay/evaluateWarp answer -> a Markdown table, one row per lane (the focused one marked);
//  - the glreplay/heatmap arguments for a file line and an expression ("expr" or "expr @ k" for
//    component k), and its answer -> the HTML of a webview (the PNG scaled without smoothing, the
//    range and counts, NaN/infinity/no-fragment colours explained).

export interface WarpLane {
    lane: number;
    state: string;
    helper: boolean;
    x?: number;
    y?: number;
    value?: string;
    type?: string;
    error?: string;
}

export interface WarpAnswer {
    expression: string;
    warp: string;
    focusLane: number;
    lanes: WarpLane[];
}

export interface HeatmapAnswer {
    expression: string;
    component: number;
    width: number;
    height: number;
    min: number;
    max: number;
    fragments: number;
    pixels: number;
    nan: number;
    errors: number;
    firstError?: string;
    mimeType: string;
    data: string;
}

export interface HeatmapArgs {
    source: { path: string };
    line: number;
    expression: string;
    component?: number;
}

function cell(text: string): string {
    return text.replace(/\\/g, '\\\\').replace(/\|/g, '\\|').replace(/\n/g, ' ');
}

export function warpTableMarkdown(a: WarpAnswer): string {
    const pos = a.lanes.some(l => l.x !== undefined);
    const out = [`### \`${cell(a.expression)}\` on every lane of ${cell(a.warp)}`, ''];
    out.push(pos ? '| lane | state | pixel | value | type |' : '| lane | state | value | type |');
    out.push(pos ? '|---:|---|---|---|---|' : '|---:|---|---|---|');
    for (const l of a.lanes) {
        const lane = l.lane === a.focusLane ? `**▶ ${l.lane}**` : String(l.lane);
        const state = l.helper ? `${l.state} (helper)` : l.state;
        const value = l.error !== undefined ? `*${cell(l.error)}*` : `\`${cell(l.value ?? '')}\``;
        const cols = [lane, state];
        if (pos) {
            cols.push(l.x !== undefined ? `${l.x}, ${l.y}` : '');
        }
        cols.push(value, cell(l.type ?? ''));
        out.push(`| ${cols.join(' | ')} |`);
    }
    const active = a.lanes.filter(l => l.state === 'active' && !l.helper && l.value !== undefined);
    const distinct = new Set(active.map(l => l.value)).size;
    out.push('', `${active.length} active lane(s), ${distinct} distinct value(s).`);
    return out.join('\n') + '\n';
}

// "expr" or "expr @ k": the expression and the component to map (default 0). A string is an error.
export function parseHeatInput(text: string): { expression: string; component: number } | string {
    const m = /^(.*?)(?:\s@\s*(\d+))?\s*$/.exec(text);
    const expression = m ? m[1].trim() : '';
    if (!expression) {
        return 'an expression is required, e.g. "n_dot_l" or "color @ 1" for its second component';
    }
    const component = m && m[2] !== undefined ? Number(m[2]) : 0;
    if (component > 15) {
        return 'the component is 0..15';
    }
    return { expression, component };
}

export function heatmapArgs(path: string, line: number, text: string): HeatmapArgs | string {
    const p = parseHeatInput(text);
    if (typeof p === 'string') {
        return p;
    }
    if (!path || !(line >= 1)) {
        return 'put the cursor on a line of a fragment shader file';
    }
    return { source: { path }, line, expression: p.expression, ...(p.component ? { component: p.component } : {}) };
}

function esc(s: string): string {
    return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

// The webview's HTML: the map scaled by an integer factor up to ~512 pixels wide, without
// smoothing, and what the colours mean.
export function heatmapHtml(a: HeatmapAnswer, where: string): string {
    const scale = Math.max(1, Math.min(8, Math.floor(512 / Math.max(1, a.width))));
    const comp = a.component ? ` (component ${a.component})` : '';
    const errs = a.errors ? `<p>${a.errors} fragment(s) had no value: ${esc(a.firstError ?? '')}</p>` : '';
    return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline';">
<style>img{image-rendering:pixelated;border:1px solid #888;background:repeating-conic-gradient(#8884 0 25%,transparent 0 50%) 0 0/16px 16px}
.ramp{display:inline-block;width:160px;height:10px;background:linear-gradient(90deg,#0d0d73,#008cbf,#1abf4d,#f2d91a,#fff)}</style>
</head><body>
<h3><code>${esc(a.expression)}</code>${esc(comp)} at ${esc(where)}</h3>
<img width="${a.width * scale}" height="${a.height * scale}" src="data:${esc(a.mimeType)};base64,${a.data}" alt="heat map">
<p>${esc(String(a.min))} <span class="ramp"></span> ${esc(String(a.max))}</p>
<p>${a.pixels} pixel(s) from ${a.fragments} fragment arrival(s), ${a.width}×${a.height}; magenta: NaN (${a.nan}); red/white: −∞/+∞; transparent: no fragment reached the line.</p>
${errs}</body></html>`;
}
