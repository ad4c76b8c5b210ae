// The pixel history view's logic, without the vscode API (unit-tested in test/pixel_view.test.js):
// the "x,y" the user types, a glreplay/pixelHistory answer (docs/PIXEL_HISTORY.md) turned into the
// tree's entries (one per event, its fragments below it, each fragment's primitive vertices below
// it), the glreplay/debugPixel arguments of an entry's "Debug" and the glreplay/debugVertex
// arguments of its "Debug vertex".

export interface PixelRef {
    x: number;
    y: number;
}

// "x,y" or "x y" (non-negative integers); a string saying what is wrong otherwise.
export function parsePixel(text: string): PixelRef | string {
    const m = /^\s*(\d{1,5})\s*[, ]\s*(\d{1,5})\s*$/.exec(text);
    if (!m) {
        return 'type the pixel as x,y (window coordinates, origin bottom-left), e.g. 640,360';
    }
    return { x: Number(m[1]), y: Number(m[2]) };
}

// "draw,index[,instance]" (non-negative integers; the draw as `glreplay model` numbers draws, the
// index as gl_VertexID: index value plus base vertex) for glreplay/debugVertex; a string saying
// what is wrong otherwise.
export function parseVertex(text: string): DebugVertexArgs | string {
    const m = /^\s*(\d{1,9})\s*[, ]\s*(\d{1,9})\s*(?:[, ]\s*(\d{1,9})\s*)?$/.exec(text);
    if (!m) {
        return 'type the vertex as draw,index[,instance] (index: gl_VertexID), e.g. 3,17';
    }
    return { draw: Number(m[1]), index: Number(m[2]), ...(m[3] !== undefined ? { instance: Number(m[3]) } : {}) };
}

// The parts of the answer the view reads (the server sends more).
export interface HistoryFragment {
    draw?: number;          // the draw that made it (a display list call's event runs several)
    primitive: number;
    // the primitive's vertices as the rasterizer took them (absent when a geometry or tessellation
    // stage made it), which one is provoking, and gl_InstanceID
    vertices?: Array<{ vertex_id: number; position: number[] }>;
    provoking?: number;
    instance?: number;
    front_facing?: boolean;
    outcome: string;
    shader?: { discarded: boolean; outputs: number[][]; depth: number };
    tests?: Array<{ sample: number; stage: string; passed: boolean;
        depth?: { func: string; incoming: number; stored: number; pass: boolean };
        stencil?: { func: string; ref: number; stored: number; pass: boolean } }>;
    writes?: Array<{ draw_buffer: number; src: number[]; dst: number[]; after: number[];
        blend: false | { src_rgb: string; dst_rgb: string; eq_rgb: string } }>;
}

export interface HistoryEvent {
    record: number;
    command: string;
    kind: string;
    draw?: number;
    program?: number;
    rejected?: boolean;
    why?: string;
    after?: number[];
    driver?: number[];
    agrees?: boolean;
    changed?: boolean;
    fragments?: HistoryFragment[];
    fragments_not_listed?: number;
}

export interface PixelHistory {
    x: number;
    y: number;
    target: string;
    events: HistoryEvent[];
    final?: number[];
    driver_check?: { events_checked: number; events_differing: number; driver_only_changes: number };
    driver_only_changes?: Array<{ record: number; driver: number[] }>;
}

export interface FragmentItem {
    label: string;
    description: string;
    tooltip: string;
    // glreplay/debugPixel arguments, or undefined when its shader never ran (rejected early)
    debug?: DebugPixelArgs;
    // glreplay/debugVertex arguments of the primitive's provoking vertex, or undefined when the
    // primitive has no vertex shader vertices
    debugVertex?: DebugVertexArgs;
    vertices: VertexItem[];
}

// One vertex of a fragment's primitive; its "Debug vertex" stops in that vertex shader invocation.
export interface VertexItem {
    label: string;          // "vertex 17 (provoking)"
    description: string;    // its gl_Position
    tooltip: string;
    debug: DebugVertexArgs;
}

export interface EventItem {
    label: string;
    description: string;
    tooltip: string;
    kind: string;           // "draw" (has Debug), or the event's kind
    warning: boolean;       // the model and the driver disagree at this event
    debug?: DebugPixelArgs;
    fragments: FragmentItem[];
}

export interface DebugPixelArgs {
    x: number;
    y: number;
    event: number;
    fragment?: number;
    target?: string;
}

// glreplay/debugVertex (and the launch argument "vertex"): a pixel's fragment as for debugPixel
// plus the corner of its primitive (default: the provoking vertex), or a draw and gl_VertexID.
export type DebugVertexArgs =
    | { x: number; y: number; event?: number; fragment?: number; target?: string; corner?: number }
    | { draw: number; index: number; instance?: number };

// The tree item's contextValue: package.json's menus show "Debug" where it has debugPixel and
// "Debug vertex" where it has debugVertex (`viewItem =~ /\bdebugVertex\b/`).
export function itemContext(debugPixel: boolean, debugVertex: boolean): string {
    return ['glreplayPixel', ...(debugPixel ? ['debugPixel'] : []), ...(debugVertex ? ['debugVertex'] : [])].join(' ');
}

function rgba(v: number[] | undefined): string {
    return v ? v.join(',') : '-';
}

function vec(v: number[] | undefined): string {
    return v ? '(' + v.map(n => Number(n.toPrecision(4))).join(', ') + ')' : '-';
}

function fragmentItem(h: PixelHistory, e: HistoryEvent, f: HistoryFragment, index: number): FragmentItem {
    const lines: string[] = [];
    if (f.shader) {
        lines.push(`shader output 0: ${vec(f.shader.outputs[0])}${f.shader.discarded ? ' (discarded)' : ''}`);
    }
    for (const t of f.tests || []) {
        const parts: string[] = [];
        if (t.depth) {
            parts.push(`depth ${t.depth.func}: incoming ${t.depth.incoming}, stored ${t.depth.stored}: ${t.depth.pass ? 'pass' : 'FAIL'}`);
        }
        if (t.stencil) {
            parts.push(`stencil ${t.stencil.func} ref ${t.stencil.ref}, stored ${t.stencil.stored}: ${t.stencil.pass ? 'pass' : 'FAIL'}`);
        }
        lines.push(`sample ${t.sample} (${t.stage}): ${parts.join('; ')}`);
    }
    for (const w of f.writes || []) {
        const how = w.blend ? `blend ${w.blend.src_rgb}·src + ${w.blend.dst_rgb}·dst (${w.blend.eq_rgb})` : 'no blending';
        lines.push(`draw buffer ${w.draw_buffer}: ${how}: src ${vec(w.src)} dst ${vec(w.dst)} → ${vec(w.after)}`);
    }
    const target = h.target && !/\/default\/back$/.test(h.target) ? h.target : undefined;
    const pixel = { x: h.x, y: h.y, event: e.record, fragment: index + 1, ...(target ? { target } : {}) };
    const vertices = fragmentVertices(f, e, f.shader ? pixel : undefined);
    const provoking = vertices.length ? vertices[validCorner(f.provoking, vertices.length) ? f.provoking as number : 0] : undefined;
    return {
        label: `fragment ${index + 1}: primitive ${f.primitive}`,
        description: f.outcome,
        tooltip: lines.join('\n'),
        debug: f.shader ? pixel : undefined,
        debugVertex: provoking?.debug,
        vertices,
    };
}

function validCorner(k: unknown, n: number): boolean {
    return Number.isInteger(k) && (k as number) >= 0 && (k as number) < n;
}

// The primitive's vertices with the glreplay/debugVertex arguments of each: from the pixel's
// fragment with its corner when the fragment shader ran for it (the server then checks the
// primitive), otherwise by its draw and gl_VertexID (the server finds fragments only among those
// the shader ran for; the vertex was shaded all the same).
function fragmentVertices(f: HistoryFragment, e: HistoryEvent, pixel: DebugPixelArgs | undefined): VertexItem[] {
    const vs = Array.isArray(f.vertices) && f.vertices.length <= 3 ? f.vertices : [];
    const draw = Number.isInteger(f.draw) && (f.draw as number) >= 0 ? f.draw : e.draw;
    const instance = Number.isInteger(f.instance) && (f.instance as number) > 0 ? { instance: f.instance as number } : {};
    if (!vs.every(v => v && Number.isInteger(v.vertex_id) && v.vertex_id >= 0) || (!pixel && draw === undefined)) {
        return [];
    }
    return vs.map((v, corner) => {
        const provoking = corner === f.provoking;
        return {
            label: `vertex ${v.vertex_id}${provoking ? ' (provoking)' : ''}`,
            description: `gl_Position ${vec(v.position)}`,
            tooltip: `corner ${corner} of primitive ${f.primitive}: gl_VertexID ${v.vertex_id}` +
                `${instance.instance !== undefined ? `, gl_InstanceID ${instance.instance}` : ''}` +
                `${provoking ? '; provoking (flat outputs come from it)' : ''}`,
            debug: pixel ? { ...pixel, corner } : { draw: draw as number, index: v.vertex_id, ...instance },
        };
    });
}

export function buildHistoryItems(h: PixelHistory): EventItem[] {
    const target = h.target && !/\/default\/back$/.test(h.target) ? h.target : undefined;
    return h.events.map(e => {
        const what = e.draw !== undefined ? `${e.kind} ${e.draw}` : e.kind;
        const warning = e.agrees === false;
        let description = `→ ${rgba(e.after)}`;
        if (e.rejected) {
            description = `rejected: ${e.why || ''}`;
        } else if (e.driver && warning) {
            description += ` (driver ${rgba(e.driver)})`;
        }
        const tip = [`event ${e.record}: ${e.command} (${what}${e.program !== undefined ? `, program ${e.program}` : ''})`,
            `value after: model ${rgba(e.after)}, driver ${rgba(e.driver)}${warning ? ' — they DIFFER' : ''}`];
        if (e.fragments_not_listed) {
            tip.push(`${e.fragments_not_listed} more fragments not listed`);
        }
        const frags = (e.fragments || []).map((f, i) => fragmentItem(h, e, f, i));
        const written = frags.some(f => f.debug !== undefined);
        return {
            label: `${e.record} ${e.command}`,
            description,
            tooltip: tip.join('\n'),
            kind: e.kind,
            warning,
            debug: e.kind === 'draw' && written ? { x: h.x, y: h.y, event: e.record, ...(target ? { target } : {}) } : undefined,
            fragments: frags,
        };
    });
}

// One line for the view's message: the pixel, the final value and the driver check.
export function historySummary(h: PixelHistory): string {
    let s = `pixel (${h.x}, ${h.y}) of ${h.target}: ${h.events.length} event${h.events.length === 1 ? '' : 's'}, final ${rgba(h.final)}`;
    const d = h.driver_check;
    if (d) {
        s += d.events_differing || d.driver_only_changes
            ? `; the driver DIFFERS at ${d.events_differing} event(s), ${d.driver_only_changes} change(s) missing`
            : `; the driver agrees at all ${d.events_checked}`;
    }
    return s;
}
