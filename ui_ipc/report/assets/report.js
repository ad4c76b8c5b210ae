/* glreplay report page (written by `glreplay report`, see docs/REPORT.md). No libraries, no
 * network: the data come as scripts in data/ that call the collectors below. Text from the capture
 * (shader sources, call arguments, names) is only ever put into the DOM with textContent. */
'use strict';
(function () {
  const R = window.glrReport = {
    data: {}, details: {}, waiting: {}, chunks: {}, chunkWaiting: {},
    info: function (j) { R.data.info = j; },
    events: function (j) { R.data.events = j; },
    programs: function (j) { R.data.programs = j; },
    model: function (j) { R.data.model = j; },
    profile: function (j) { R.data.profile = j; },
    dtex: function (j) { R.data.dtex = j; },
    // The state at every event, GLRR_STATE_CHUNK records a file (report_states.c).
    states: function (j) {
      R.chunks[j.chunk] = j;
      const w = R.chunkWaiting[j.chunk];
      delete R.chunkWaiting[j.chunk];
      if (w) w.forEach(function (f) { f(j); });
    },
    detail: function (j) {
      R.details[j.record] = j;
      const w = R.waiting[j.record];
      delete R.waiting[j.record];
      if (w) w.forEach(function (f) { f(j); });
    }
  };
  const KIND = ['call', 'draw', 'clear', 'blit', 'shim'];
  const ROW = 52;
  let rows = [];        // indices into events shown (after the filter)
  let selected = -1;    // record selected
  const $ = function (id) { return document.getElementById(id); };
  function el(tag, text, cls) {
    const e = document.createElement(tag);
    if (text !== undefined && text !== null) e.textContent = String(text);
    if (cls) e.className = cls;
    return e;
  }
  function pct(a) { return (100 * a).toFixed(a >= 0.9999 && a < 1 ? 3 : 2) + '%'; }
  function agreement(rec) {
    const m = R.data.model && R.data.model.by_record && R.data.model.by_record[rec];
    if (!m || !m.compare || !m.compare.length) return null;
    let min = 1;
    m.compare.forEach(function (c) { if (c.agreement < min) min = c.agreement; });
    return min;
  }
  function thumbPath(rec) { return 'thumbs/' + rec + '.png'; }
  function hasDetail(kind) { return kind >= 1 && kind <= 3; }

  // ---- the event list, virtualized: only the rows in view exist in the DOM
  function applyFilter() {
    const ev = R.data.events.events, names = R.data.events.names;
    const only = $('only-draws').checked, f = $('filter').value.trim().toLowerCase();
    rows = [];
    for (let i = 0; i < ev.length; i++) {
      if (only && !hasDetail(ev[i][3])) continue;
      if (f && names[ev[i][1]].toLowerCase().indexOf(f) < 0) continue;
      rows.push(i);
    }
    $('list-spacer').style.height = (rows.length * ROW) + 'px';
    $('list-count').textContent = rows.length + ' of ' + ev.length + ' events';
    renderRows(true);
  }
  let shown = {};
  function renderRows(force) {
    const list = $('list'), sp = $('list-spacer');
    const first = Math.max(0, Math.floor(list.scrollTop / ROW) - 5);
    const last = Math.min(rows.length, Math.ceil((list.scrollTop + list.clientHeight) / ROW) + 5);
    if (force) { sp.textContent = ''; shown = {}; }
    const keep = {};
    for (let r = first; r < last; r++) keep[r] = true;
    Object.keys(shown).forEach(function (r) {
      if (!keep[r]) { sp.removeChild(shown[r]); delete shown[r]; }
    });
    const ev = R.data.events.events, names = R.data.events.names;
    for (let r = first; r < last; r++) {
      if (shown[r]) continue;
      const e = ev[rows[r]];
      const row = el('div', null, 'row k' + e[3] + (e[0] === selected ? ' sel' : ''));
      row.style.top = (r * ROW) + 'px';
      row.dataset.record = e[0];
      row.appendChild(el('span', e[0], 'rec'));
      const th = el('span', null, 'th');
      if (hasDetail(e[3])) {
        const img = el('img');
        img.loading = 'lazy';
        img.alt = KIND[e[3]];
        img.onerror = function () { img.remove(); };
        img.src = thumbPath(e[0]);
        th.appendChild(img);
      }
      row.appendChild(th);
      row.appendChild(el('span', e[4], 'call'));
      const a = agreement(e[0]);
      if (a !== null) row.appendChild(el('span', pct(a), 'badge' + (a < 0.999 ? ' bad' : '')));
      row.title = names[e[1]];
      row.onclick = function () { select(e[0]); };
      sp.appendChild(row);
      shown[r] = row;
    }
  }

  // ---- the selected event
  function loadDetail(rec) {
    return new Promise(function (resolve) {
      if (R.details[rec]) { resolve(R.details[rec]); return; }
      const pending = !!R.waiting[rec];
      (R.waiting[rec] = R.waiting[rec] || []).push(resolve);
      if (pending) return;  // its script is on its way
      const s = document.createElement('script');
      s.src = 'data/d/' + rec + '.js';
      s.onerror = function () {
        const w = R.waiting[rec] || [];
        delete R.waiting[rec];
        w.forEach(function (f) { f(null); });
      };
      document.head.appendChild(s);
    });
  }
  const STAGE_SHORT = { GL_VERTEX_SHADER: 'VS', GL_FRAGMENT_SHADER: 'FS', GL_GEOMETRY_SHADER: 'GS', GL_COMPUTE_SHADER: 'CS',
    GL_TESS_CONTROL_SHADER: 'TCS', GL_TESS_EVALUATION_SHADER: 'TES' };
  // The profile's per-line figures of one shader (with --profile): line -> {samples, instructions}.
  function hotLines(prog, stage) {
    const P = R.data.profile, out = {};
    if (!P || P.error || !P.lines) return out;
    P.lines.forEach(function (l) {
      if (l.program === prog.program && (l.ctx === prog.context || l.ctx === prog.share_group) && l.stage === STAGE_SHORT[stage])
        out[l.line] = l;
    });
    return out;
  }
  function sourceBlock(src, hot) {
    const pre = el('pre', null, 'src');
    let max = 0;
    Object.keys(hot || {}).forEach(function (k) { max = Math.max(max, hot[k].samples || 0); });
    src.split('\n').forEach(function (line, i) {
      pre.appendChild(el('span', String(i + 1).padStart(4) + '  ', 'ln'));
      const h = hot && hot[i + 1];
      if (h) {
        // Lines the model ran carry their PC samples (a gutter); the shade follows the share of
        // the hottest line, the tooltip gives instructions and stall reasons.
        const mark = el('span', (h.samples || 0) + ' smp', 'gut hot');
        mark.title = h.instructions + ' warp instructions; ' + Object.keys(h.reasons || {}).map(function (k) { return k + ' ' + h.reasons[k]; }).join(', ');
        mark.style.backgroundColor = 'rgba(230, 81, 0, ' + (max ? (0.1 + 0.8 * (h.samples || 0) / max).toFixed(2) : 0.1) + ')';
        pre.appendChild(mark);
      } else if (Object.keys(hot || {}).length) {
        pre.appendChild(el('span', '', 'gut'));
      }
      pre.appendChild(document.createTextNode(line + '\n'));
    });
    return pre;
  }
  function table(head, body) {
    const t = el('table'), tr = el('tr');
    head.forEach(function (h) { tr.appendChild(el('th', h)); });
    t.appendChild(tr);
    body.forEach(function (cells) {
      const r = el('tr');
      cells.forEach(function (c) {
        const td = el('td');
        if (c instanceof Node) td.appendChild(c); else td.textContent = c === undefined ? '' : String(c);
        r.appendChild(td);
      });
      t.appendChild(r);
    });
    return t;
  }
  function showModel(rec) {
    const box = $('d-model');
    box.textContent = '';
    const M = R.data.model;
    if (M === null || M === undefined) { box.textContent = 'not computed (report written with --no-model)'; return; }
    if (M.error) { box.textContent = 'not available: ' + M.error; return; }
    const m = M.by_record[rec];
    if (!m) { box.textContent = 'the model did not run this event'; return; }
    const rowsM = (m.compare || []).map(function (c) {
      return [c.target, pct(c.agreement), c.differing + ' of ' + c.pixels, c.max_delta];
    });
    if (rowsM.length) box.appendChild(table(['target', 'agreement', 'pixels differing', 'max delta'], rowsM));
    else box.appendChild(el('div', 'no comparison (nothing readable to compare)'));
    if (m.unsupported && m.unsupported.length) box.appendChild(el('div', 'unsupported in the model: ' + m.unsupported.join(', ')));
    if (m.cycles !== undefined) box.appendChild(el('div', 'model: ' + m.cycles + ' cycles, ' + (m.instructions || 0) + ' warp instructions'));
  }
  function showDetail(d, e) {
    const sh = $('d-shaders'), tx = $('d-textures'), bf = $('d-buffers'), vx = $('d-vertex');
    [sh, tx, bf, vx].forEach(function (b) { b.textContent = ''; });
    if (!d || !d.state) return;
    const prog = d.program_key && R.data.programs[d.program_key];
    if (!prog) sh.textContent = e[3] === 1 ? 'no program bound (fixed function)' : '-';
    else {
      sh.appendChild(el('div', 'program ' + prog.program + ' (link ' + prog.link + ')'));
      prog.shaders.forEach(function (s) {
        sh.appendChild(el('h4', s.stage));
        const b = sourceBlock(s.source, hotLines(prog, s.stage));
        b.dataset.stage = s.stage;
        sh.appendChild(b);
      });
    }
    // The driver's image of each unit's texture right before this draw (data/dtex.js): render
    // targets, float, compressed and depth textures too; the model's upload where there is none.
    const D = R.data.dtex, drv = (D && D.draws && D.draws[d.record]) || [];
    // By unit and target: the replay's texture names are its own, not the captured ones.
    const drvOf = function (unit, target) {
      for (let i = 0; i < drv.length; i++) if (drv[i][0] === unit && drv[i][1] === target) return drv[i][3];
      return null;
    };
    const texRows = (d.textures || []).map(function (t) {
      let pic = t.image_note || '';
      const f = drvOf(t.unit, t.target);
      if (f) { pic = el('img'); pic.src = f; pic.alt = 'texture ' + t.texture + ' (driver)'; pic.className = 'drv'; }
      else if (t.png) { pic = el('img'); pic.src = t.png; pic.alt = 'texture ' + t.texture; }
      return [t.unit, t.target, t.texture, t.internal_format, t.width + 'x' + t.height, t.min_filter + ' / ' + t.mag_filter, pic];
    });
    if (texRows.length) { const t = table(['unit', 'target', 'name', 'format', 'size', 'filter', 'level 0 before this draw'], texRows); t.className = 'tex'; tx.appendChild(t); }
    else tx.textContent = 'none bound';
    const bufRows = (d.buffers || []).map(function (b) {
      const head = b.first_floats ? b.first_floats.map(function (f) { return f === null ? 'NaN' : +f.toPrecision(5); }).join(', ') : (b.note || (b.contents_known ? '' : 'contents not known'));
      return [b.buffer, b.role, b.size, b.usage, head];
    });
    if (bufRows.length) bf.appendChild(table(['name', 'role', 'bytes', 'usage', 'first words as floats'], bufRows));
    else bf.textContent = 'none';
    const va = d.state.vertex_array;
    const attrs = d.vertex_inputs || [];
    if (attrs.length) {
      vx.appendChild(el('div', 'vertex array ' + va.name + (va.element_buffer ? ', element buffer ' + va.element_buffer : '')));
      vx.appendChild(table(['index', 'size', 'type', 'normalized', 'buffer', 'offset', 'stride', 'divisor', 'first vertices'],
        attrs.map(function (a) {
          const first = (a.first_vertices || []).map(function (v) {
            return '#' + v[0] + ': (' + v.slice(1).map(function (x) { return x === null ? '?' : +x.toPrecision(5); }).join(', ') + ')';
          }).join('  ');
          return [a.index, a.size, a.type, a.normalized, a.client_array ? 'client memory' : a.buffer, a.offset, a.stride, a.divisor,
            first || (a.client_array ? '' : 'contents not known')];
        })));
    } else vx.textContent = 'no enabled vertex arrays';
  }
  // ---- the API state at any event: a chunk's base state plus the changes up to the event
  function loadChunk(c) {
    return new Promise(function (resolve) {
      if (R.chunks[c]) { resolve(R.chunks[c]); return; }
      const pending = !!R.chunkWaiting[c];
      (R.chunkWaiting[c] = R.chunkWaiting[c] || []).push(resolve);
      if (pending) return;
      const s = document.createElement('script');
      s.src = 'data/s/' + c + '.js';
      s.onerror = function () {
        const w = R.chunkWaiting[c] || [];
        delete R.chunkWaiting[c];
        w.forEach(function (f) { f(null); });
      };
      document.head.appendChild(s);
    });
  }
  function clone(v) { return v === undefined ? undefined : JSON.parse(JSON.stringify(v)); }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  function applyChange(root, c) {
    if (!c.p.length) return clone(c.a);
    let o = root;
    for (let i = 0; i < c.p.length - 1; i++) { if (o === null || typeof o !== 'object') return root; o = o[c.p[i]]; }
    if (o === null || typeof o !== 'object') return root;
    const k = c.p[c.p.length - 1];
    if ('a' in c) o[k] = clone(c.a); else delete o[k];
    return root;
  }
  // Context ctx's state after record rec (or before it, with before set); undefined if the context
  // does not exist there.
  function stateAt(chunk, ctx, rec, before) {
    let st = clone(chunk.base[ctx]);
    for (const ch of chunk.changes) {
      if (ch[0] > rec || (before && ch[0] === rec)) break;
      if (ch[1] === ctx) ch[2].forEach(function (c) { st = applyChange(st, c); });
    }
    return st;
  }
  // "program.uniforms[6 u_light].value[0]": a change's path, array elements named by what they hold.
  function pathText(p, root) {
    let out = '', o = root;
    p.forEach(function (k) {
      if (typeof k === 'number') {
        const e = o && o[k];
        const tag = e && typeof e === 'object' && !Array.isArray(e)
          ? (e.name !== undefined && typeof e.name === 'string' ? e.name : e.cap || (e.location !== undefined ? 'location ' + e.location
            : e.unit !== undefined ? 'unit ' + e.unit : e.index !== undefined ? 'index ' + e.index : e.point || '')) : '';
        out += '[' + k + (tag ? ' ' + tag : '') + ']';
      } else out += (out ? '.' : '') + k;
      o = o && typeof o === 'object' ? o[k] : undefined;
    });
    return out || '(the whole state)';
  }
  function short(v) { return v === undefined ? '(none)' : JSON.stringify(v); }
  // The paths to highlight in the state after the event: each change (all its lines), and for a
  // list whose length changed the elements that are new in it, or only the list's first line when
  // elements went and none came.
  function marks(changes) {
    const out = { all: [], heads: [] };
    changes.forEach(function (c) {
      if (!('a' in c)) return;
      if (Array.isArray(c.a) && Array.isArray(c.b) && c.a.length !== c.b.length) {
        const before = out.all.length;
        c.a.forEach(function (x, i) { if (!c.b.some(function (y) { return same(x, y); })) out.all.push(c.p.concat([i])); });
        if (out.all.length === before) out.heads.push(c.p);
      } else out.all.push(c.p);
    });
    return out;
  }
  function prefix(a, b) {  // a is a prefix of b
    if (a.length > b.length) return false;
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
    return true;
  }
  // The state as indented JSON text (it parses back), one span per line, changed lines marked.
  function renderState(pre, st, mk) {
    pre.textContent = '';
    const inChanged = function (path) { return mk.all.some(function (m) { return prefix(m, path); }); };
    const holdsChange = function (path) { return mk.all.some(function (m) { return prefix(path, m); }); };
    const head = function (path) { return mk.heads.some(function (m) { return same(m, path); }); };
    function line(text, hot) {
      const sp = el('span', text + '\n');
      if (hot) sp.className = 'chg';
      pre.appendChild(sp);
    }
    function scalarArray(v) { return Array.isArray(v) && v.every(function (x) { return x === null || typeof x !== 'object'; }); }
    function walk(v, path, key, comma, ind) {
      if (v === null || typeof v !== 'object' || (scalarArray(v) && v.length <= 16)) {
        line(ind + key + JSON.stringify(v) + comma, inChanged(path) || holdsChange(path) || head(path));
        return;
      }
      const arr = Array.isArray(v), keys = arr ? v.map(function (_, i) { return i; }) : Object.keys(v);
      if (!keys.length) { line(ind + key + (arr ? '[]' : '{}') + comma, inChanged(path) || head(path)); return; }
      line(ind + key + (arr ? '[' : '{'), inChanged(path) || head(path));
      keys.forEach(function (k, i) {
        walk(v[k], path.concat([k]), arr ? '' : JSON.stringify(k) + ': ', i < keys.length - 1 ? ',' : '', ind + '  ');
      });
      line(ind + (arr ? ']' : '}') + comma, inChanged(path));
    }
    walk(st, [], '', '', '');
  }
  // Fills "Changed by this event" and "API state" for event e (any kind): the state of the event's
  // context after it, with what the event changed highlighted.
  function showState(e) {
    const box = $('d-changes'), pre = $('d-state');
    const E = R.data.events, rec = e[0];
    if (!E.state_chunk) {  // a report written before states were stored per event
      box.textContent = '';
      return Promise.resolve(null);
    }
    return loadChunk(Math.floor(rec / E.state_chunk)).then(function (chunk) {
      if (selected !== rec) return null;
      box.textContent = '';
      if (!chunk) { pre.textContent = 'the state file of this event is missing'; return null; }
      const own = chunk.changes.filter(function (c) { return c[0] === rec; });
      // The event's context; an event on no context (e.g. a context created) shows the one it changed.
      let ctx = e[2];
      if (!ctx && own.length) ctx = own[0][1];
      if (!ctx) ctx = +Object.keys(chunk.base)[0] || 0;
      const after = stateAt(chunk, ctx, rec, false), beforeSt = stateAt(chunk, ctx, rec, true);
      const mine = [];
      own.forEach(function (c) { if (c[1] === ctx) c[2].forEach(function (x) { mine.push(x); }); });
      $('d-state-title').textContent = 'API state of context ' + ctx + ' after this event';
      if (after === undefined) pre.textContent = 'context ' + ctx + ' does not exist after this event';
      else {
        renderState(pre, after, marks(mine));
        // The first changed line in view (the state is longer than its box).
        const first = pre.querySelector('.chg');
        pre.scrollTop = first ? Math.max(0, first.offsetTop - pre.offsetTop - 40) : 0;
      }
      if (mine.length) {
        const t = table(['state', 'before', 'after'], mine.map(function (c) {
          return [pathText(c.p, 'a' in c ? after : beforeSt), short(c.b), short(c.a)];
        }));
        Array.prototype.forEach.call(t.querySelectorAll('tr'), function (r, i) {
          if (!i) return;
          r.dataset.path = JSON.stringify(mine[i - 1].p);
          r.lastChild.className = 'a';
        });
        box.appendChild(t);
      } else {
        box.textContent = 'nothing in the API state of context ' + ctx + ' (the same values as before, or only object contents such as buffer or texture data, which the state lists do not show)';
      }
      // The texture or buffer an upload wrote, after it (the state lists bindings, not contents).
      const obj = chunk.objects && chunk.objects[rec];
      if (obj) {
        const o = el('div', null, 'obj');
        o.id = 'd-object';
        if (obj.texture !== undefined) {
          o.appendChild(el('div', 'texture ' + obj.texture + ' after this call: ' + obj.internal_format + ', ' + obj.width + 'x' + obj.height + ', ' + obj.levels + ' level(s)'));
          if (obj.png) { const i = el('img'); i.src = obj.png; i.alt = 'texture ' + obj.texture + ' level 0'; o.appendChild(i); }
          else o.appendChild(el('div', 'level 0: ' + (obj.image_note || 'no image')));
        } else {
          o.appendChild(el('div', 'buffer ' + obj.buffer + ' after this call: ' + (obj.note || (obj.size + ' bytes, ' + obj.usage +
            (obj.first_floats ? '; first words as floats: ' + obj.first_floats.map(function (f) { return f === null ? 'NaN' : +f.toPrecision(5); }).join(', ')
              : obj.contents_known ? '' : '; contents not known')))));
        }
        box.appendChild(o);
      }
      const others = own.filter(function (c) { return c[1] !== ctx; });
      if (others.length) box.appendChild(el('div', 'also changed: ' + others.map(function (c) { return 'context ' + c[1] + ' (' + c[2].length + ' values)'; }).join(', ')));
      return { ctx: ctx, after: after, before: beforeSt, changes: mine, object: obj || null };
    });
  }
  function select(rec) {
    selected = rec;
    Object.keys(shown).forEach(function (r) { shown[r].classList.toggle('sel', +shown[r].dataset.record === rec); });
    const ev = R.data.events.events;
    let e = null;
    for (let i = 0; i < ev.length; i++) if (ev[i][0] === rec) { e = ev[i]; break; }
    if (!e) return Promise.resolve(null);
    $('detail-empty').hidden = true;
    $('detail').hidden = false;
    $('d-title').textContent = 'event ' + rec + ': ' + R.data.events.names[e[1]] + ' (' + KIND[e[3]] + ', context ' + e[2] + ')';
    $('d-call').textContent = e[4];
    const shot = $('d-shot');
    let shotDone;
    if (hasDetail(e[3])) {
      shot.hidden = false;
      $('d-shot-note').textContent = 'after this ' + KIND[e[3]] + ' (driver replay)';
      shotDone = new Promise(function (res) {
        shot.onload = function () { res(true); };
        shot.onerror = function () { shot.hidden = true; $('d-shot-note').textContent = 'no image (the target is not RGBA8-readable)'; res(false); };
      });
      shot.src = thumbPath(rec);
    } else {
      shot.hidden = true; shot.removeAttribute('src');
      $('d-shot-note').textContent = 'a ' + KIND[e[3]] + ': no image';
      shotDone = Promise.resolve(false);
    }
    showModel(rec);
    $('d-draw-only').hidden = !hasDetail(e[3]);
    const stateDone = showState(e);
    if (!hasDetail(e[3])) {
      showDetail(null, e);
      return Promise.all([shotDone, stateDone]).then(function (r) { return { e: e, shot: r[0], state: r[1] }; });
    }
    return Promise.all([loadDetail(rec), shotDone, stateDone]).then(function (r) {
      if (selected === rec) showDetail(r[0], e);
      return { e: e, shot: r[1], detail: r[0], state: r[2] };
    });
  }

  // ---- profile: counters as SVG polylines, hot lines with their stall reasons
  const SVGNS = 'http://www.w3.org/2000/svg';
  function svg(tag, attrs) {
    const n = document.createElementNS(SVGNS, tag);
    Object.keys(attrs || {}).forEach(function (k) { n.setAttribute(k, attrs[k]); });
    return n;
  }
  function plot(name, values, bucket) {
    const W = 360, H = 110, P = 4;
    const box = el('div', null, 'plot');
    let max = 0;
    values.forEach(function (v) { if (v > max) max = v; });
    box.appendChild(el('div', name + ' (max ' + max + ' per ' + bucket + ' cycles)'));
    const s = svg('svg', { width: W, height: H, viewBox: '0 0 ' + W + ' ' + H, role: 'img' });
    const pts = values.map(function (v, i) {
      const x = P + (values.length > 1 ? i * (W - 2 * P) / (values.length - 1) : 0);
      const y = H - P - (max ? v / max : 0) * (H - 2 * P);
      return x.toFixed(1) + ',' + y.toFixed(1);
    }).join(' ');
    s.appendChild(svg('polyline', { points: pts }));
    box.appendChild(s);
    return box;
  }
  const REASON_COLOURS = ['#2e7d32', '#9e9e9e', '#ef6c00', '#6a1b9a', '#1565c0', '#c62828', '#00838f', '#827717'];
  function sourceLine(l) {
    const P = R.data.programs || {};
    let best = null;
    Object.keys(P).forEach(function (k) {
      const p = P[k];
      if (p.program === l.program && (p.context === l.ctx || p.share_group === l.ctx)) best = p;
    });
    if (!best) return '';
    const stage = { VS: 'GL_VERTEX_SHADER', FS: 'GL_FRAGMENT_SHADER', GS: 'GL_GEOMETRY_SHADER', CS: 'GL_COMPUTE_SHADER' }[l.stage];
    for (const s of best.shaders) if (s.stage === stage) return (s.source.split('\n')[l.line - 1] || '').trim();
    return '';
  }
  function showProfile() {
    const P = R.data.profile;
    if (P === null || P === undefined) return;
    $('profile').hidden = false;
    if (P.error) { $('p-note').textContent = 'not available: ' + P.error; return; }
    $('p-note').textContent = (P.totals ? P.totals.draws + ' draws, ' + P.totals.cycles + ' cycles in the model' : '');
    const series = P.series || {};
    Object.keys(series).forEach(function (k) {
      if (Array.isArray(series[k])) $('p-plots').appendChild(plot(k, series[k], series.bucket_cycles));
    });
    const lines = (P.lines || []).slice().sort(function (a, b) { return (b.samples || 0) - (a.samples || 0) || b.instructions - a.instructions; }).slice(0, 30);
    const body = lines.map(function (l) {
      const reasons = l.reasons || {};
      const total = Object.keys(reasons).reduce(function (s, k) { return s + reasons[k]; }, 0);
      const bar = svg('svg', { width: 160, height: 12, 'class': 'reasons' });
      let x = 0;
      Object.keys(reasons).forEach(function (k, i) {
        const w = total ? reasons[k] / total * 160 : 0;
        const r = svg('rect', { x: x.toFixed(1), y: 0, width: w.toFixed(1), height: 12, fill: REASON_COLOURS[i % REASON_COLOURS.length] });
        const t = svg('title'); t.textContent = k + ': ' + reasons[k]; r.appendChild(t);
        bar.appendChild(r); x += w;
      });
      const txt = Object.keys(reasons).map(function (k) { return k + ' ' + reasons[k]; }).join(', ');
      const cell = el('div'); cell.appendChild(bar); cell.appendChild(el('div', txt));
      return [l.program + ' ' + l.stage + ':' + l.line, sourceLine(l), l.samples, l.instructions, cell];
    });
    $('p-lines').appendChild(table(['program stage:line', 'source', 'PC samples', 'warp instructions', 'stall reasons'], body));
  }

  // ---- start, and the self-test the browser tests drive (index.html?selftest)
  function start() {
    const E = R.data.events;
    if (!E) { document.body.textContent = 'data/events.js is missing: this is not a complete report folder'; return; }
    $('cap-name').textContent = E.capture;
    const I = R.data.info || {};
    let s = (I.program ? I.program + ': ' : '') + E.records + ' events, ' + E.draws + ' draws, ' + E.clears + ' clears, ' + E.blits + ' blits; ' + (I.thumbnails || 0) + ' thumbnails';
    const M = R.data.model;
    if (M && !M.error && M.comparisons !== undefined) s += '; model vs driver: ' + M.comparisons + ' comparisons, ' + M.failing_comparisons + ' below 99.9%';
    else if (M && M.error) s += '; model agreement not available';
    if (I.thumbnail_error) s += '; thumbnails: ' + I.thumbnail_error;
    $('summary').textContent = s;
    $('only-draws').onchange = applyFilter;
    $('filter').oninput = applyFilter;
    $('list').onscroll = function () { renderRows(false); };
    window.onresize = function () { renderRows(false); };
    $('list').onkeydown = function (ev) {
      if (ev.key !== 'ArrowDown' && ev.key !== 'ArrowUp') return;
      let i = 0;
      const evs = E.events;
      for (; i < rows.length; i++) if (evs[rows[i]][0] === selected) break;
      i = Math.max(0, Math.min(rows.length - 1, i + (ev.key === 'ArrowDown' ? 1 : -1)));
      if (rows.length) { select(evs[rows[i]][0]); $('list').scrollTop = Math.max(0, i * ROW - $('list').clientHeight / 2); }
      ev.preventDefault();
    };
    applyFilter();
    showProfile();
    window.glrReadyMs = performance.now();
    // How long the page took to open (navigation start to the list shown), for benchmarks.
    document.body.dataset.readyMs = window.glrReadyMs.toFixed(0);
    const firstDraw = E.events.find(function (e) { return hasDetail(e[3]); });
    const q = new URLSearchParams(location.search);
    if (q.has('selftest')) selftest(+q.get('selftest') || 100000, q.has('calls') ? +q.get('calls') : 400);
    else if (q.has('select')) {
      // An event given in the address (?select=RECORD); the time its state took to show is kept
      // for benchmarks (body[data-state-ms]).
      const t0 = R.selectT0 !== undefined ? R.selectT0 : performance.now();
      select(+q.get('select')).then(function () { document.body.dataset.stateMs = (performance.now() - t0).toFixed(0); });
    } else if (firstDraw) select(firstDraw[0]);
  }
  // Clicks through the draws, clears and blits (up to `limit`) as a user would, through the list's
  // rows, and writes what the page showed into #selftest as JSON for the test to compare with the
  // capture.
  function deepEq(a, b) {
    if (a === b) return true;
    if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object' || Array.isArray(a) !== Array.isArray(b)) return false;
    const ka = Object.keys(a), kb = Object.keys(b);
    return ka.length === kb.length && ka.every(function (k) { return Object.prototype.hasOwnProperty.call(b, k) && deepEq(a[k], b[k]); });
  }
  async function clickRow(r) {
    const rec = R.data.events.events[rows[r]][0];
    $('list').scrollTop = r * ROW;
    renderRows(false);
    const row = Array.prototype.find.call($('list-spacer').children, function (n) { return +n.dataset.record === rec; });
    if (!row) return null;
    row.click();
    return select(rec);
  }
  // Then the other events (up to callLimit): the state shown after each, parsed back from the page's
  // text, the rows of "Changed by this event" and the highlighted lines.
  async function selftestCalls(out, callLimit) {
    const E = R.data.events;
    $('only-draws').checked = false;
    applyFilter();
    out.visited_calls = [];
    for (let r = 0; r < rows.length && out.visited_calls.length < callLimit; r++) {
      const e = E.events[rows[r]];
      if (hasDetail(e[3])) continue;
      const res = await clickRow(r);
      if (!res) { out.visited_calls.push({ record: e[0], error: 'row not rendered' }); continue; }
      let shown = null;
      try { shown = JSON.parse($('d-state').textContent); } catch (x) { shown = null; }
      const oimg = document.querySelector('#d-object img');
      if (oimg && !oimg.complete) await new Promise(function (ok) { oimg.onload = oimg.onerror = ok; });
      out.visited_calls.push({ record: e[0], title: $('d-title').textContent, call: $('d-call').textContent,
        ctx: res.state ? res.state.ctx : null, state: shown, state_title: $('d-state-title').textContent,
        changes: Array.prototype.map.call(document.querySelectorAll('#d-changes tr[data-path]'), function (tr) {
          return [JSON.parse(tr.dataset.path)].concat(Array.prototype.map.call(tr.children, function (td) { return td.textContent; }));
        }),
        changes_note: document.querySelector('#d-changes table') ? '' : $('d-changes').textContent,
        highlighted: Array.prototype.map.call(document.querySelectorAll('#d-state .chg'), function (n) { return n.textContent; }).slice(0, 60),
        draw_sections_hidden: $('d-draw-only').hidden,
        object: $('d-object') ? $('d-object').firstChild.textContent : null,
        object_image: oimg ? [oimg.naturalWidth, oimg.naturalHeight] : null });
    }
  }
  async function selftest(limit, callLimit) {
    const E = R.data.events, out = { ready_ms: window.glrReadyMs, events_total: E.events.length, names: E.names,
      rows_in_dom: $('list-spacer').children.length, list_count: $('list-count').textContent, visited: [] };
    $('only-draws').checked = true;
    applyFilter();
    out.filtered_rows = rows.length;
    const t0 = performance.now();
    for (let r = 0; r < rows.length && r < limit; r++) {
      const rec = E.events[rows[r]][0];
      $('list').scrollTop = r * ROW;
      renderRows(false);
      const row = Array.prototype.find.call($('list-spacer').children, function (n) { return +n.dataset.record === rec; });
      if (!row) { out.visited.push({ record: rec, error: 'row not rendered' }); continue; }
      row.click();
      const res = await select(rec);
      // The texture images of the detail finish loading too (as a user would see them).
      await Promise.all(Array.prototype.map.call(document.querySelectorAll('#d-textures img'), function (i) {
        return i.complete ? null : new Promise(function (ok) { i.onload = i.onerror = ok; });
      }));
      const shaders = Array.prototype.map.call(document.querySelectorAll('#d-shaders pre.src'), function (p) {
        return { stage: p.dataset.stage, hot: p.querySelectorAll('span.hot').length,
          text: Array.prototype.filter.call(p.childNodes, function (n) { return n.nodeType === 3; }).map(function (n) { return n.data; }).join('') };
      });
      out.visited.push({ record: rec, title: $('d-title').textContent, call: $('d-call').textContent,
        shot: res.shot, shot_w: $('d-shot').naturalWidth, shot_h: $('d-shot').naturalHeight,
        shaders: shaders, textures: document.querySelectorAll('#d-textures tr').length - 1 > 0 ? document.querySelectorAll('#d-textures tr').length - 1 : 0,
        texture_images: document.querySelectorAll('#d-textures img').length,
        texture_images_driver: Array.prototype.map.call(document.querySelectorAll('#d-textures img.drv'), function (i) { return i.complete && i.naturalWidth > 0 ? i.getAttribute('src') : ''; }),
        texture_images_loaded: Array.prototype.filter.call(document.querySelectorAll('#d-textures img'), function (i) { return i.complete && i.naturalWidth > 0; }).length,
        state: $('d-state').textContent.length, model: $('d-model').textContent, vertex: $('d-vertex').textContent,
        // The state rebuilt from the chunk's changes equals the full state stored for this draw.
        state_matches_detail: !!(res.state && res.detail && res.detail.state && deepEq(res.state.before, res.detail.state)) });
    }
    out.click_ms = performance.now() - t0;
    if (callLimit > 0) await selftestCalls(out, callLimit);
    out.scripts = document.querySelectorAll('script').length;
    out.script_srcs = Array.prototype.map.call(document.querySelectorAll('script'), function (s) { return s.getAttribute('src'); });
    out.pwned = window.__glrPwned === 1;
    out.profile_plots = document.querySelectorAll('#p-plots svg').length;
    out.profile_lines = Math.max(0, document.querySelectorAll('#p-lines tr').length - 1);
    const pre = $('selftest');
    pre.textContent = JSON.stringify(out);
    pre.hidden = false;
    document.title = 'selftest done';
  }
  // With ?select=K the event's state file is asked for as soon as the data files are in, so that
  // it delays the load event (headless Chromium's --dump-dom then shows the state) and the time
  // measured covers loading it.
  document.addEventListener('DOMContentLoaded', function () {
    const q = new URLSearchParams(location.search), E = R.data.events;
    if (!q.has('select') || !E || !E.state_chunk) return;
    R.selectT0 = performance.now();
    loadChunk(Math.floor(+q.get('select') / E.state_chunk));
  });
  window.addEventListener('load', start);
})();
