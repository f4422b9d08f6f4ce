// api.js: the page's only way to the daemon (GET/POST under /api/v1 on its
// own origin, the session cookie, X-CSRF-Token on mutations), the token
// dialog, and the helpers every view shares: DOM building without
// innerHTML, units on numbers, times in the local zone with UTC on hover.

const BASE = '/api/v1';
let csrf = sessionStorage.getItem('labrat.csrf') || '';
let asking = null;

export class ApiError extends Error {
  constructor(status, msg) { super(msg); this.status = status; }
}

async function send(method, path, body) {
  const headers = { Accept: 'application/json' };
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  if (method !== 'GET' && csrf) headers['X-CSRF-Token'] = csrf;
  const r = await fetch(BASE + path, {
    method, headers, credentials: 'same-origin',
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const type = r.headers.get('Content-Type') || '';
  const data = type.includes('json') ? await r.json() : await r.text();
  if (!r.ok) {
    const msg = data && data.error ? data.error : `HTTP ${r.status}`;
    throw new ApiError(r.status, `${method} ${BASE}${path}: ${msg}`);
  }
  return data;
}

// GET; on 401 ask for a token once, then retry.
export async function get(path) {
  try {
    return await send('GET', path);
  } catch (e) {
    if (e.status !== 401) throw e;
    await askToken('This daemon needs a token for reads.');
    return send('GET', path);
  }
}

// GET that answers null on 404 (an endpoint a daemon may not have yet).
export async function getOpt(path) {
  try {
    return await send('GET', path);
  } catch (e) {
    if (e.status === 404) return null;
    if (e.status === 401) {
      await askToken('This daemon needs a token for reads.');
      return send('GET', path);
    }
    throw e;
  }
}

// A mutation: needs a session of a token that may write.
export async function post(path, body, method = 'POST') {
  if (!csrf) await askToken('Changing anything needs a token that may write.');
  try {
    return await send(method, path, body);
  } catch (e) {
    if (e.status === 401 || (e.status === 403 && /csrf/.test(e.message))) {
      await askToken('The session ended: sign in again.');
      return send(method, path, body);
    }
    if (e.status === 403) {
      throw new ApiError(403, 'refused: this token is read-only (a token that may write is needed)');
    }
    throw e;
  }
}

// The token dialog: POST /api/v1/session with the token as a bearer; the
// daemon answers a cookie (HttpOnly) and the CSRF value kept here.
export function askToken(why) {
  if (asking) return asking;
  const dlg = document.getElementById('token-dialog');
  const form = document.getElementById('token-form');
  const input = document.getElementById('token-input');
  const error = document.getElementById('token-error');
  document.getElementById('token-why').textContent =
    `${why} Paste a token (labrat token add NAME makes one).`;
  error.textContent = '';
  asking = new Promise((resolve, reject) => {
    const done = (fn, v) => {
      form.removeEventListener('submit', onSubmit);
      document.getElementById('token-cancel').removeEventListener('click', onCancel);
      dlg.close();
      asking = null;
      fn(v);
    };
    const onCancel = () => done(reject, new ApiError(401, 'no token given'));
    const onSubmit = async (ev) => {
      ev.preventDefault();
      try {
        const r = await fetch(BASE + '/session', {
          method: 'POST', credentials: 'same-origin',
          headers: { Authorization: `Bearer ${input.value.trim()}` },
        });
        const j = await r.json();
        if (!r.ok) throw new Error(j.error || `HTTP ${r.status}`);
        csrf = j.csrf;
        sessionStorage.setItem('labrat.csrf', csrf);
        input.value = '';
        document.getElementById('who').textContent =
          j.read_only ? 'signed in (read-only)' : 'signed in';
        done(resolve, j);
      } catch (e) {
        error.textContent = `Refused: ${e.message}`;
      }
    };
    form.addEventListener('submit', onSubmit);
    document.getElementById('token-cancel').addEventListener('click', onCancel);
    dlg.showModal();
    input.focus();
  });
  return asking;
}

// ---- DOM ----------------------------------------------------------------

// h('a', {href: '#/x', class: 'c', dataset: {k: 'v'}}, 'text', child, ...)
export function h(tag, attrs, ...kids) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === 'dataset') Object.assign(el.dataset, v);
    else if (k === 'on') for (const [ev, fn] of Object.entries(v)) el.addEventListener(ev, fn);
    else if (k === 'text') el.textContent = v;
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of kids.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

// A table whose headers sort (buttons, so the keyboard reaches them) and
// which an input above it filters. cols: [{label, get(row) -> value for
// sorting, cell(row) -> node|text, num: bool}].
export function table(cols, rows, opts = {}) {
  let sortCol = -1, asc = true, filter = '';
  const tbody = h('tbody');
  const heads = cols.map((c, i) => h('th', { scope: 'col', class: c.num ? 'num' : null },
    h('button', { type: 'button', class: 'sort', on: { click: () => {
      asc = sortCol === i ? !asc : true; sortCol = i; draw();
    } } }, c.label)));
  const draw = () => {
    let rs = rows.slice();
    if (filter) {
      const f = filter.toLowerCase();
      rs = rs.filter((r) => cols.some((c) => String(c.get(r) ?? '').toLowerCase().includes(f)));
    }
    if (sortCol >= 0) {
      const g = cols[sortCol].get;
      rs.sort((a, b) => {
        const x = g(a), y = g(b);
        const d = typeof x === 'number' && typeof y === 'number' ? x - y : String(x ?? '').localeCompare(String(y ?? ''));
        return asc ? d : -d;
      });
    }
    heads.forEach((th, i) => th.setAttribute('aria-sort', i === sortCol ? (asc ? 'ascending' : 'descending') : 'none'));
    tbody.replaceChildren(...rs.map((r) => {
      const tr = h('tr', opts.rowAttrs ? opts.rowAttrs(r) : {},
        cols.map((c) => h('td', { class: c.num ? 'num' : null }, c.cell ? c.cell(r) : c.get(r))));
      return tr;
    }));
  };
  draw();
  const t = h('table', { class: 'data' }, opts.caption ? h('caption', {}, opts.caption) : null,
    h('thead', {}, h('tr', {}, heads)), tbody);
  const input = opts.filter ? h('input', { type: 'search', placeholder: 'filter', 'aria-label': `filter ${opts.caption || 'table'}`,
    on: { input: (e) => { filter = e.target.value; draw(); } } }) : null;
  const box = h('div', { class: 'scroll' }, input && (rows.length >= 6 || opts.paged) ? input : null, t);
  // More rows (the next page of a paged list) keep the sort and filter.
  box.addRows = (more) => { rows.push(...more); draw(); };
  return box;
}

// A table over a list the API pages with a cursor: load(after) gives
// {rows, next} (next: the reply's next_after, null on the last page). The
// first page is shown, and a "More" button fetches the next one and
// appends it, until there is none. name goes to data-list.
export async function pagedTable(name, cols, load, opts = {}) {
  const first = await load(null);
  const rows = [...first.rows];
  let next = first.next;
  const t = table(cols, rows, { ...opts, paged: true });
  const status = h('span', { class: 'muted', role: 'status' });
  const btn = h('button', { type: 'button', class: 'more', dataset: { list: name } }, 'More');
  const foot = h('p', { class: 'pager' }, btn, ' ', status);
  const update = () => {
    btn.hidden = !next;
    status.textContent = `${rows.length} shown${next ? '' : ', all'}`;
    foot.dataset.shown = String(rows.length);
    foot.dataset.more = next ? '1' : '0';
  };
  btn.addEventListener('click', async () => {
    btn.disabled = true;
    try {
      const p = await load(next);
      next = p.next;
      t.addRows(p.rows);
    } catch (e) {
      status.textContent = e.message;
      btn.disabled = false;
      return;
    }
    btn.disabled = false;
    update();
  });
  update();
  return h('div', { class: 'paged', dataset: { list: name } }, t, foot);
}

// The page size a list view takes from its URL (?per=N, 1-500).
export function perPage(q, dflt) {
  const n = Number(q.get('per'));
  return Number.isInteger(n) && n >= 1 && n <= 500 ? n : dflt;
}

// load() for pagedTable over GET path (a query string without limit and
// after): key names the reply's array.
export function pager(path, key, limit = 50) {
  return async (after) => {
    const sep = path.includes('?') ? '&' : '?';
    const r = await get(`${path}${sep}limit=${limit}${after ? `&after=${after}` : ''}`);
    return { rows: r[key] || [], next: r.next_after ?? null };
  };
}

// ---- units and times ----------------------------------------------------

export function fmtRate(bps) {
  if (bps === null || bps === undefined || !isFinite(bps)) return '–';
  if (Math.abs(bps) >= 1e9) return `${(bps / 1e9).toFixed(3)} Gbit/s`;
  return `${(bps / 1e6).toFixed(1)} Mbit/s`;
}

// A value of a metric with its unit, as the report's units are.
export function fmtValue(v, unit) {
  if (v === null || v === undefined) return '–';
  if (unit === 'bit/s') return fmtRate(v);
  if (unit === 'B' && Math.abs(v) >= 1e6) return `${(v / 1e6).toFixed(1)} MB`;
  if (unit === '%') return `${v.toFixed(1)} %`;
  if (unit === 's') return `${v.toFixed(3)} s`;
  const s = Number.isInteger(v) ? String(v) : v.toPrecision(4);
  return unit ? `${s} ${unit}` : s;
}

export function fmtPct(x, digits = 1) {
  if (x === null || x === undefined || !isFinite(x)) return '–';
  return `${x >= 0 ? '+' : ''}${(x * 100).toFixed(digits)} %`;
}

export function fmtP(p) {
  if (p === null || p === undefined) return '–';
  return p < 0.001 ? p.toExponential(1) : p.toFixed(3);
}

// A time (ms since the epoch, seconds, or an ISO 8601 string) as a <time>
// in the local zone, UTC in its title.
export function toDate(t) {
  if (t === null || t === undefined || t === '') return null;
  if (typeof t === 'number') return new Date(t > 1e11 ? t : t * 1000);
  const d = new Date(String(t).replace(' +0000 UTC', 'Z').replace(' ', 'T'));
  return isNaN(d) ? null : d;
}

export function time(t) {
  const d = toDate(t);
  if (!d) return '–';
  const pad = (n) => String(n).padStart(2, '0');
  const local = `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${pad(d.getHours())}:${pad(d.getMinutes())}`;
  return h('time', { datetime: d.toISOString(), title: `${d.toISOString().replace('.000', '')} UTC` }, local);
}

export function verdictClass(v) {
  if (!v) return 'v-none';
  if (/regress|bad|fail|collapse/.test(v)) return 'v-bad';
  if (/improv|good|pass|done|no change/.test(v)) return 'v-good';
  return 'v-warn';
}

export function badge(text, cls) {
  return h('span', { class: `badge ${cls || verdictClass(text)}` }, text ?? '–');
}

// Parse "mtu=9000,tso=on" into [['mtu','9000'],['tso','on']].
export function knobPairs(s) {
  if (!s) return [];
  return s.split(',').filter(Boolean).map((kv) => {
    const i = kv.indexOf('=');
    return i < 0 ? [kv, ''] : [kv.slice(0, i), kv.slice(i + 1)];
  });
}

export function trendHref(k) {
  const q = new URLSearchParams({ link: k.link, knobs: k.knobs, workload: k.workload, metric: k.metric });
  return `#/trend?${q}`;
}

// Compare revisions like r200131 by their number, else as text.
export function revCmp(a, b) {
  const na = /(\d+)/.exec(a || ''), nb = /(\d+)/.exec(b || '');
  if (na && nb && na[1] !== nb[1]) return Number(na[1]) - Number(nb[1]);
  return String(a).localeCompare(String(b));
}

// Keep a uPlot as wide as its box (the page never scrolls sideways);
// height follows the width by `ratio` up to `maxH`. Returns a stop().
export function autosize(plot, box, ratio, maxH) {
  const fit = () => {
    const w = Math.max(200, box.clientWidth);
    const hgt = ratio ? Math.min(maxH, Math.max(160, Math.round(w * ratio))) : plot.height;
    if (w !== plot.width || hgt !== plot.height) plot.setSize({ width: w, height: hgt });
  };
  const ro = new ResizeObserver(fit);
  ro.observe(box);
  return () => ro.disconnect();
}

// el.append without the null/false children (a view's optional parts).
export function put(el, ...kids) {
  el.append(...kids.flat(Infinity).filter((k) => k !== null && k !== undefined && k !== false));
}

// el.replaceChildren, the same way.
export function swap(el, ...kids) {
  el.replaceChildren();
  put(el, ...kids);
}
