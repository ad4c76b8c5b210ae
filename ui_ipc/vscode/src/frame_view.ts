// The frame view's logic, without the vscode API (unit-tested in test/frame_view.test.js): the
// glreplay/eventImages answer turned into the event list with thumbnails, the webview's HTML, the
// mapping of a click on the large image to the GL pixel under it, and the checks of the (untrusted)
// messages the webview posts, each turned into what the controller (frame.ts) does.
import type { PixelRef } from './pixel_view';

// glreplay/debugPixel arguments: without an event, the last draw of the frame that wrote the pixel.
export interface FrameDebugArgs {
    x: number;
    y: number;
    event?: number;
    target?: string;
}

// The pixel history's name of the image an event drew into (`glreplay pixel --target`), from the
// glreplay/state answer at that event (the state before it: the framebuffer it draws into): the
// back buffer "ctxC/default/back", or "ctxC/fboN/colorK" for a framebuffer object, K from its first
// draw buffer — the image glreplay/eventImages pictures. undefined when the answer lacks them.
export function drawTarget(answer: unknown): string | undefined {
    const st = (answer as { state?: { context?: unknown; framebuffer?: { draw?: unknown; draw_buffers?: unknown } } })?.state;
    const ctx = st?.context, fb = st?.framebuffer;
    if (!Number.isInteger(ctx) || (ctx as number) < 1 || !fb || !Number.isInteger(fb.draw) || (fb.draw as number) < 0) {
        return undefined;
    }
    if (fb.draw === 0) {
        return `ctx${ctx}/default/back`;
    }
    const first = Array.isArray(fb.draw_buffers) ? fb.draw_buffers[0] : undefined;
    const m = typeof first === 'string' ? /^GL_COLOR_ATTACHMENT(\d)$/.exec(first) : null;
    return `ctx${ctx}/fbo${fb.draw}/color${m ? m[1] : 0}`;
}

// The target argument of glreplay/pixelHistory and glreplay/debugPixel: none for the back buffer
// (their default).
export function targetArg(target: string | undefined): { target?: string } {
    return target && !/\/default\/back$/.test(target) ? { target } : {};
}

// One image of a glreplay/eventImages answer (ui_ipc/dap/dap_event_image.c).
export interface EventImage {
    event: number;
    command: string;
    width: number;
    height: number;
    sourceWidth: number;
    sourceHeight: number;
    mimeType: string;
    data: string;       // base64 PNG, top row first
}

export interface EventImagesAnswer {
    images: EventImage[];
    missing?: number[];
    truncated?: boolean;
}

export interface FrameEntry {
    event: number;
    command: string;
    label: string;      // "233 glDrawElements"
    kind: 'draw' | 'clear' | 'blit' | 'other';
    thumb: string;      // data: URI
    sourceWidth: number;
    sourceHeight: number;
}

export const THUMB_SIDE = 96;       // maxSide of the list's thumbnails
export const LARGE_SIDE = 2048;     // maxSide of the selected event's image

export function commandKind(command: string): FrameEntry['kind'] {
    if (/^glClear/.test(command)) {
        return 'clear';
    }
    if (/^gl(Blit|CopyImageSubData|CopyTex)/.test(command)) {
        return 'blit';
    }
    return /^gl(Multi)?Draw/.test(command) ? 'draw' : 'other';
}

function isImage(v: unknown): v is EventImage {
    const o = v as EventImage;
    return !!o && Number.isInteger(o.event) && o.event >= 0 && typeof o.command === 'string' &&
        [o.width, o.height, o.sourceWidth, o.sourceHeight].every(n => Number.isInteger(n) && n > 0) &&
        o.mimeType === 'image/png' && typeof o.data === 'string' && /^[A-Za-z0-9+/]*={0,2}$/.test(o.data);
}

export function dataUri(im: EventImage): string {
    return `data:image/png;base64,${im.data}`;
}

// The list's entries, in event order; images the answer holds in a wrong shape are left out.
export function frameEntries(a: EventImagesAnswer): FrameEntry[] {
    return (Array.isArray(a && a.images) ? a.images : []).filter(isImage)
        .sort((x, y) => x.event - y.event)
        .map(im => ({
            event: im.event, command: im.command, label: `${im.event} ${im.command}`, kind: commandKind(im.command),
            thumb: dataUri(im), sourceWidth: im.sourceWidth, sourceHeight: im.sourceHeight,
        }));
}

// The GL pixel (origin bottom-left) under the point (px, py) of an image of the frame shown
// dispW x dispH CSS pixels (origin top-left) whose source is srcW x srcH; undefined outside it.
// The webview's script carries this very function (frameHtml inlines its source).
export function imageToPixel(px: number, py: number, dispW: number, dispH: number, srcW: number, srcH: number): PixelRef | undefined {
    if (!(dispW > 0 && dispH > 0 && srcW > 0 && srcH > 0) || !(px >= 0 && py >= 0 && px < dispW && py < dispH)) {
        return undefined;
    }
    const x = Math.min(srcW - 1, Math.floor(px * srcW / dispW));
    const row = Math.min(srcH - 1, Math.floor(py * srcH / dispH));
    return { x, y: srcH - 1 - row };
}

// What a message of the webview asks for, checked against the entries it can only know of.
export type FrameAction =
    | { kind: 'select'; event: number }
    | { kind: 'history'; pixel: PixelRef; event: number }
    | { kind: 'debug'; args: FrameDebugArgs; event: number }
    | { kind: 'debugVertex'; args: FrameDebugArgs; event: number }
    | { kind: 'ignore'; why: string };

export function frameAction(msg: unknown, entries: FrameEntry[]): FrameAction {
    const m = msg as { type?: unknown; event?: unknown; x?: unknown; y?: unknown };
    if (!m || typeof m !== 'object' || typeof m.type !== 'string') {
        return { kind: 'ignore', why: 'not a frame view message' };
    }
    const entry = entries.find(e => e.event === m.event);
    if (!entry) {
        return { kind: 'ignore', why: `no image event ${String(m.event)}` };
    }
    if (m.type === 'select') {
        return { kind: 'select', event: entry.event };
    }
    if (m.type !== 'pixel' && m.type !== 'debug' && m.type !== 'debugVertex') {
        return { kind: 'ignore', why: `unknown message ${m.type}` };
    }
    const x = m.x, y = m.y;
    if (!Number.isInteger(x) || !Number.isInteger(y) || (x as number) < 0 || (y as number) < 0 ||
        (x as number) >= entry.sourceWidth || (y as number) >= entry.sourceHeight) {
        return { kind: 'ignore', why: `pixel (${String(x)}, ${String(y)}) is outside the ${entry.sourceWidth}x${entry.sourceHeight} image` };
    }
    const pixel = { x: x as number, y: y as number };
    if (m.type === 'pixel') {
        return { kind: 'history', pixel, event: entry.event };
    }
    // Debug: the invocation of this draw that wrote the pixel; from a clear or a blit, the last
    // draw of the frame that wrote it (glreplay/debugPixel without an event). Debug vertex: the
    // provoking vertex of that fragment's primitive (glreplay/debugVertex, the same arguments).
    const args = entry.kind === 'draw' ? { ...pixel, event: entry.event } : pixel;
    return { kind: m.type === 'debug' ? 'debug' : 'debugVertex', args, event: entry.event };
}

function esc(s: string): string {
    return s.replace(/[&<>"']/g, c => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c] as string));
}

// The webview's page: the event list with thumbnails on the left, the selected event's image on
// the right (filled by an {type: 'image'} message); a click on it posts {type: 'pixel', event, x, y}
// and enables "Debug" and "Debug vertex", which post {type: 'debug' | 'debugVertex', event, x, y}. No remote content: the CSP allows
// only inline images and the script with this nonce.
export function frameHtml(entries: FrameEntry[], nonce: string, title: string, note = ''): string {
    const rows = entries.map(e =>
        `<li><button class="ev ${e.kind}" data-event="${e.event}" title="${esc(e.label)}">` +
        `<img src="${e.thumb}" alt=""><span>${esc(e.label)}</span></button></li>`).join('\n');
    const dims = JSON.stringify(Object.fromEntries(entries.map(e => [e.event, [e.sourceWidth, e.sourceHeight]])));
    return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>
body { display: flex; gap: 12px; margin: 0; padding: 8px; font-family: var(--vscode-font-family); color: var(--vscode-foreground); }
#list { list-style: none; margin: 0; padding: 0; width: 230px; max-height: 95vh; overflow-y: auto; flex: none; }
.ev { display: flex; align-items: center; gap: 6px; width: 100%; padding: 2px; border: 1px solid transparent;
      background: none; color: inherit; text-align: left; cursor: pointer; font: inherit; }
.ev img { width: ${THUMB_SIDE}px; max-height: ${THUMB_SIDE}px; object-fit: contain; background: #000; image-rendering: pixelated; }
.ev.selected { border-color: var(--vscode-focusBorder); background: var(--vscode-list-activeSelectionBackground); }
.ev.clear span { font-style: italic; }
#main { flex: 1; min-width: 0; }
#big { max-width: 100%; max-height: 80vh; image-rendering: pixelated; cursor: crosshair; background: #000; }
</style></head><body>
<ul id="list">
${rows}
</ul>
<div id="main">
<h3>${esc(title)}</h3>
<p id="note">${esc(note || (entries.length ? 'Select an event; click a pixel of its image for its history.' : 'The capture has no draw, clear or blit images.'))}</p>
<p><span id="where"></span> <button id="debug" disabled title="Stop in the fragment shader invocation that wrote the pixel">Debug</button>
<button id="debugVertex" disabled title="Stop in the vertex shader invocation of that fragment's provoking vertex">Debug vertex</button></p>
<img id="big" alt="">
</div>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
const imageToPixel = ${imageToPixel.toString()};
const dims = ${dims};
let current = null, picked = null;
function select(ev) {
  current = ev; picked = null;
  document.querySelectorAll('.ev').forEach(b => b.classList.toggle('selected', Number(b.dataset.event) === ev));
  document.getElementById('debug').disabled = true;
  document.getElementById('debugVertex').disabled = true;
  document.getElementById('where').textContent = 'event ' + ev + ': loading…';
  vscode.postMessage({ type: 'select', event: ev });
}
document.querySelectorAll('.ev').forEach(b => b.addEventListener('click', () => select(Number(b.dataset.event))));
document.getElementById('big').addEventListener('click', e => {
  if (current === null) return;
  const d = dims[current], r = e.target.getBoundingClientRect();
  const p = imageToPixel(e.clientX - r.left, e.clientY - r.top, r.width, r.height, d[0], d[1]);
  if (!p) return;
  picked = p;
  document.getElementById('where').textContent = 'event ' + current + ', pixel (' + p.x + ', ' + p.y + ')';
  document.getElementById('debug').disabled = false;
  document.getElementById('debugVertex').disabled = false;
  vscode.postMessage({ type: 'pixel', event: current, x: p.x, y: p.y });
});
['debug', 'debugVertex'].forEach(id => document.getElementById(id).addEventListener('click', () => {
  if (current !== null && picked) vscode.postMessage({ type: id, event: current, x: picked.x, y: picked.y });
}));
window.addEventListener('message', e => {
  const m = e.data;
  if (m && m.type === 'image' && m.event === current) {
    document.getElementById('big').src = m.uri;
    document.getElementById('where').textContent = 'event ' + m.event + ' (' + m.label + ')';
  } else if (m && m.type === 'error') {
    document.getElementById('note').textContent = m.message;
  }
});
if (${entries.length ? entries[entries.length - 1].event : -1} >= 0) select(${entries.length ? entries[entries.length - 1].event : -1});
</script>
</body></html>`;
}
