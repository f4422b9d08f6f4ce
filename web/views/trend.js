// Trend: one series (link x knobs x workload x metric) over the nights:
// each point's median, its IQR as a band, min and max dashed, samples on
// demand; the nights that found a regression and the bisect culprits
// marked on the graph, as DOM markers over it (data-kind, data-revision)
// so they can be read without pixels. X is the revision or the date.
// The data is GET /api/v1/series (pages of points, newest first); a
// daemon without it gets the same shape built from the nights' reports.
import { get, getOpt, h, time, fmtValue, fmtPct, trendHref, revCmp, toDate } from '../api.js';
import { put } from '../api.js';
import { autosize } from '../api.js';

async function seriesKeys() {
  const k = await getOpt('/series/keys?limit=500');
  if (k) return k.keys || [];
  // Without /series/keys: the series of the newest night's report.
  const nights = (await get('/nights?limit=1')).nights || [];
  if (!nights.length || !nights[0].run) return [];
  const rep = await get(`/runs/${nights[0].run}/report`);
  return (rep.series || []).map((s) => ({ link: s.link, knobs: s.knobs, workload: s.params, metric: s.metric, unit: s.unit }));
}

// Every page of GET /series for the key (at most `max` points).
async function seriesApi(k, samples, max = 5000) {
  const q = new URLSearchParams({ link: k.link, knobs: k.knobs, workload: k.workload, metric: k.metric, limit: '500' });
  if (samples) q.set('samples', '1');
  let first = await getOpt(`/series?${q}`);
  if (!first) return null;
  const out = { ...first, points: [...(first.points || [])], marks: [...(first.marks || [])] };
  let next = first.next_after;
  while (next && out.points.length < max) {
    q.set('after', String(next));
    const p = await get(`/series?${q}`);
    out.points.push(...(p.points || []));
    out.marks.push(...(p.marks || []));
    next = p.next_after;
  }
  return out;
}

// The same shape from the nights and their reports (older daemons).
async function seriesFromNights(k) {
  const nights = (await get('/nights?limit=500')).nights || [];
  const bisects = (await get('/bisects')).bisects || [];
  const points = [], marks = [];
  let unit = null;
  for (const n of nights) {
    if (!n.run) continue;
    const rep = await get(`/runs/${n.run}/report`);
    const s = (rep.series || []).find((x) => x.link === k.link && x.knobs === k.knobs &&
      x.params === k.workload && x.metric === k.metric);
    if (!s) continue;
    unit = s.unit;
    points.push({ run: n.run, job: null, night: n.id, revision: s.revision || n.revision,
      started: new Date(n.created_ms).toISOString(), n: s.n, median: s.median, min: s.min, max: s.max, q1: s.q1, q3: s.q3 });
    for (const v of n.verdicts || []) {
      if (v.verdict === 'regression' && v.link === k.link && v.knobs === k.knobs && v.metric === k.metric) {
        marks.push({ kind: 'regression', run: n.run, night: n.id, bisect: null, revision: n.revision });
      }
    }
  }
  for (const b of bisects) {
    if (b.culprit && b.link === k.link && b.knobs === k.knobs && (!b.metric || b.metric === k.metric)) {
      marks.push({ kind: 'culprit', run: null, night: null, bisect: b.id, revision: b.culprit });
    }
  }
  return { ...k, unit, points, marks };
}

function keyFrom(q) {
  return { link: q.get('link'), knobs: q.get('knobs') ?? '', workload: q.get('workload'), metric: q.get('metric') };
}

function picker(keys, cur) {
  const sel = h('select', { id: 'trend-key', 'aria-label': 'series' },
    keys.map((k, i) => h('option', { value: String(i), selected: cur && k.link === cur.link && k.knobs === cur.knobs &&
      k.workload === cur.workload && k.metric === cur.metric }, `${k.link} · ${k.knobs || '(default knobs)'} · ${k.metric}`)));
  sel.addEventListener('change', () => { location.hash = trendHref(keys[Number(sel.value)]); });
  return sel;
}

let plot = null;
const PALETTE = ['#c46a00', '#1a7f37', '#8250df', '#b42318', '#0e7490'];
const k0 = (t) => `${t.data.knobs || '(default knobs)'} (median, IQR band)`;

// "Add a series": the other knobs of this link, workload and metric.
function addPicker(keys, k, withKnobs) {
  const others = keys.filter((x) => x.link === k.link && x.workload === k.workload && x.metric === k.metric && x.knobs !== k.knobs);
  if (!others.length) return null;
  const sel = h('select', { id: 'trend-with', 'aria-label': 'add a series to the graph' },
    h('option', { value: '' }, 'add a series…'),
    others.map((x) => h('option', { value: x.knobs, disabled: withKnobs.includes(x.knobs) }, x.knobs || '(default knobs)')));
  sel.addEventListener('change', () => {
    if (!sel.value) return;
    const s = new URLSearchParams(location.hash.split('?')[1] || '');
    s.append('with', sel.value);
    location.hash = `#/trend?${s}`;
  });
  const clear = withKnobs.length ? h('a', { class: 'button', href: (() => { const s = new URLSearchParams(location.hash.split('?')[1] || ''); s.delete('with'); return `#/trend?${s}`; })() }, 'one series') : null;
  return h('div', { class: 'controls' }, sel, clear, h('ul', { class: 'legend', id: 'trend-legend' }));
}
let unfit = null;

export async function render(el, args, q) {
  const t0 = performance.now();
  const keys = await seriesKeys();
  let k = keyFrom(q);
  if (!k.link) {
    if (!keys.length) { put(el, h('h1', {}, 'Trend'), h('p', {}, 'No series yet.')); return; }
    // The first regressed series if there is one, else the first.
    k = keys.find((x) => /throughput/.test(x.metric)) || keys[0];
    location.replace(trendHref(k));
    return;
  }
  const xmode = q.get('x') === 'date' ? 'date' : 'rev';
  const samples = q.get('samples') === '1';
  const data = (await seriesApi(k, samples)) || (await seriesFromNights(k));
  // Nights only by default (a bisect's runs re-measure old revisions);
  // runs=all shows every run of the series.
  const allRuns = q.get('runs') === 'all';
  const pts = data.points.filter((p) => allRuns || p.night !== null && p.night !== undefined)
    .sort((a, b) => (xmode === 'rev' ? revCmp(a.revision, b.revision) || a.run - b.run : toDate(a.started) - toDate(b.started)));
  const unit = data.unit || 'bit/s';

  // X: the revision's rank (culprits included, so they sit between the
  // nights around them) or the time.
  const revs = [...new Set([...pts.map((p) => p.revision), ...data.marks.map((m) => m.revision)].filter(Boolean))].sort(revCmp);
  const rank = new Map(revs.map((r, i) => [r, i]));
  const xOf = (p) => xmode === 'rev' ? rank.get(p.revision) ?? NaN : toDate(p.started).getTime() / 1000;
  const xs = pts.map(xOf);
  const cols = [xs, pts.map((p) => p.median), pts.map((p) => p.q1), pts.map((p) => p.q3), pts.map((p) => p.min), pts.map((p) => p.max)];
  const scale = unit === 'bit/s' ? 1e6 : 1;
  for (let i = 1; i < cols.length; i++) cols[i] = cols[i].map((v) => (v === null || v === undefined ? null : v / scale));
  const yunit = unit === 'bit/s' ? 'Mbit/s' : unit;
  if (samples) {
    // samples as a scatter: one column per sample index
    const most = Math.max(0, ...pts.map((p) => (p.samples || []).length));
    for (let j = 0; j < most; j++) cols.push(pts.map((p) => (p.samples && p.samples[j] !== undefined ? p.samples[j] / scale : null)));
  }

  // Other knobs of the same link, workload and metric on the same graph
  // (?with=KNOBS, repeatable), matched to this series' nights.
  const withKnobs = q.getAll('with').filter((w) => w !== k.knobs);
  const extras = [];
  for (const w of withKnobs) {
    const ek = { ...k, knobs: w };
    const ed = (await seriesApi(ek, false)) || (await seriesFromNights(ek));
    const byNight = new Map(ed.points.filter((p) => p.night !== null && p.night !== undefined).map((p) => [p.night, p]));
    const byRun = new Map(ed.points.map((p) => [p.run, p]));
    extras.push({ knobs: w, col: pts.map((p) => { const e = p.night !== null && p.night !== undefined ? byNight.get(p.night) : byRun.get(p.run); return e ? e.median / scale : null; }) });
  }
  for (const e of extras) cols.push(e.col);
  const share = new URLSearchParams(q);
  const link = (mods) => { const s = new URLSearchParams(share); for (const [a, b] of Object.entries(mods)) { if (b === null) s.delete(a); else s.set(a, b); } return `#/trend?${s}`; };
  const graph = h('div', { class: 'graph', id: 'trend-graph', dataset: { points: String(pts.length), unit: yunit } });
  const hover = h('p', { class: 'hover', id: 'trend-hover', 'aria-live': 'polite' }, 'Hover the graph for a night: its revision, commit message, n and median.');
  const marksList = h('ul', { class: 'marks' }, data.marks.map((m) => h('li', { dataset: { kind: m.kind, revision: m.revision } },
    m.kind === 'culprit' ? ['culprit ', h('code', {}, m.revision), m.bisect ? [' (', h('a', { href: `#/bisect/${m.bisect}` }, `bisect ${m.bisect}`), ')'] : null]
      : ['regression found at ', h('code', {}, m.revision), m.night ? ` (night ${m.night})` : '', m.run ? [' ', h('a', { href: `#/run/${m.run}` }, `run ${m.run}`)] : null])));

  const last = pts[pts.length - 1];
  put(el, 
    h('h1', {}, `Trend: ${k.link} ${k.knobs}`),
    h('div', { class: 'controls' }, picker(keys, k),
      h('a', { class: 'button', href: link({ x: xmode === 'rev' ? 'date' : 'rev' }), id: 'trend-x' }, xmode === 'rev' ? 'x: revision (switch to date)' : 'x: date (switch to revision)'),
      h('a', { class: 'button', href: link({ samples: samples ? null : '1' }) }, samples ? 'hide samples' : 'show samples'),
      h('a', { class: 'button', href: link({ runs: allRuns ? null : 'all' }) }, allRuns ? 'nights only' : 'every run (bisects too)')),
    addPicker(keys, k, withKnobs),
    h('p', { class: 'muted' }, `${k.workload} · ${k.metric} · ${pts.length} points`, last ? [' · newest median ', h('strong', { id: 'trend-last' }, fmtValue(last.median, unit))] : null),
    graph, hover, marksList,
    h('details', {}, h('summary', {}, 'Points'), h('div', { class: 'scroll' }, h('table', { class: 'data' },
      h('thead', {}, h('tr', {}, ['Run', 'Night', 'Revision', 'Message', 'n', 'Median', 'IQR', 'Started'].map((x) => h('th', { scope: 'col' }, x)))),
      h('tbody', {}, pts.slice().reverse().map((p) => h('tr', { dataset: { run: String(p.run), revision: p.revision || '', median: String(p.median) } },
        h('td', {}, h('a', { href: `#/run/${p.run}` }, String(p.run))), h('td', {}, p.night ?? '–'), h('td', {}, p.revision ?? '–'), h('td', {}, p.message ?? '–'),
        h('td', { class: 'num' }, p.n), h('td', { class: 'num' }, fmtValue(p.median, unit)),
        h('td', { class: 'num' }, p.q3 !== undefined && p.median ? fmtPct((p.q3 - p.q1) / p.median) : '–'), h('td', {}, time(p.started)))))))));

  el._trend = { cols, pts, revs, rank, data, xmode, yunit, unit, t0, graph, hover, extras };
}

// Drawn once the view is in the document (uPlot measures its box).
export function mounted(el) {
  const t = el._trend;
  if (!t) return;
  if (plot) { plot.destroy(); plot = null; }
  if (unfit) { unfit(); unfit = null; }
  const { cols, pts, revs, data, xmode, yunit, unit, graph, hover, extras } = t;
  const css = getComputedStyle(document.documentElement);
  const c = (n) => css.getPropertyValue(n).trim();
  const series = [
    {},
    { label: 'median', stroke: c('--line'), width: 2, points: { show: true, size: 6 } },
    { label: 'q1', stroke: c('--band-edge'), width: 1 },
    { label: 'q3', stroke: c('--band-edge'), width: 1 },
    { label: 'min', stroke: c('--muted'), width: 1, dash: [4, 4] },
    { label: 'max', stroke: c('--muted'), width: 1, dash: [4, 4] },
  ];
  for (let i = 6; i < cols.length - extras.length; i++) series.push({ label: `sample ${i - 5}`, stroke: c('--sample'), width: 0, paths: () => null, points: { show: true, size: 4, fill: c('--sample') } });
  extras.forEach((e, i) => series.push({ label: e.knobs, stroke: PALETTE[i % PALETTE.length], width: 2, spanGaps: true, points: { show: true, size: 5 } }));
  graph.dataset.series = String(1 + extras.length);
  const legend = graph.parentElement.querySelector('#trend-legend');
  if (legend) legend.replaceChildren(h('li', { class: 'key-main' }, k0(t)), ...extras.map((e, i) => h('li', { dataset: { color: String(i) } }, e.knobs)));
  const width = Math.max(280, graph.clientWidth);
  const opts = {
    width, height: Math.min(360, Math.round(width * 0.6)),
    legend: { show: false },
    cursor: { sync: { key: 'labrat-trend' }, drag: { x: true, y: false } },
    scales: { x: { time: xmode === 'date' } },
    bands: [{ series: [3, 2], fill: c('--band') }],
    axes: [
      { stroke: c('--fg'), grid: { stroke: c('--grid') }, ...(xmode === 'rev' ? { values: (u, vals) => vals.map((v) => (Number.isInteger(v) ? revs[v] ?? '' : '')), splits: () => revs.map((_, i) => i).filter((i) => i % Math.ceil(revs.length / 8) === 0) } : {}) },
      { stroke: c('--fg'), grid: { stroke: c('--grid') }, label: yunit, size: 70 },
    ],
    series,
    hooks: {
      setCursor: [(u) => {
        const i = u.cursor.idx;
        if (i === null || i === undefined || !pts[i]) return;
        const p = pts[i];
        hover.replaceChildren(h('code', {}, p.revision || '?'), ' ',
          h('span', { class: 'msg' }, p.message ? `“${p.message}”` : '(no commit message known)'),
          ` · n ${p.n} · median ${fmtValue(p.median, unit)} · night ${p.night ?? '–'} · run ${p.run}`);
        Object.assign(hover.dataset, { revision: p.revision || '', message: p.message || '', n: String(p.n), median: String(p.median), run: String(p.run) });
      }],
      draw: [(u) => placeMarks(u, graph, data.marks, t)],
      setSelect: [(u) => selected(u, graph, t)],
    },
  };
  plot = new uPlot(opts, cols, graph);
  graph.plot = plot; // for scripts (the browser test hovers a point through it)
  unfit = autosize(plot, graph, 0.6, 360);
  graph.dataset.renderMs = String(Math.round(performance.now() - t.t0));
  graph.dataset.ready = '1';
}

// DOM markers over the plot at each mark's x (a regression at its night's
// point, a culprit at its revision).
function placeMarks(u, graph, marks, t) {
  graph.querySelectorAll('.mark').forEach((m) => m.remove());
  const over = u.over;
  for (const m of marks) {
    let x;
    if (t.xmode === 'rev') x = t.rank.get(m.revision);
    else {
      // by date: a culprit sits at the first point at or after its revision
      const p = m.kind === 'culprit' ? t.pts.find((q) => revCmp(q.revision, m.revision) >= 0)
        : t.pts.find((q) => q.run === m.run) || t.pts.find((q) => revCmp(q.revision, m.revision) >= 0);
      x = p ? new Date(p.started).getTime() / 1000 : undefined;
    }
    if (x === undefined || !isFinite(x)) continue;
    const left = u.valToPos(x, 'x');
    const edge = left > over.clientWidth - 60 ? ' mark-edge' : '';
    over.append(h('div', { class: `mark mark-${m.kind}${edge}`, title: `${m.kind} ${m.revision}`,
      dataset: { kind: m.kind, revision: m.revision, x: String(x), left: left.toFixed(1) } }));
    over.lastChild.style.left = `${left}px`;
  }
}

function selected(u, graph, t) {
  const box = graph.parentElement.querySelector('#trend-range') || h('p', { id: 'trend-range' });
  if (!box.isConnected) graph.after(box);
  if (u.select.width < 4) { box.replaceChildren(); return; }
  // a point counts when its dot is within the selection (6 px of slack at
  // the ends, so a drag from the plot's edge takes the edge's point)
  const lo = u.select.left - 6, hi = u.select.left + u.select.width + 6;
  const inRange = t.pts.filter((_, i) => { const x = u.valToPos(t.cols[0][i], 'x'); return x >= lo && x <= hi; });
  if (inRange.length < 2) { box.replaceChildren('Select at least two nights.'); return; }
  const good = inRange[0].revision, bad = inRange[inRange.length - 1].revision;
  const key = new URLSearchParams({ link: t.data.link, knobs: t.data.knobs, workload: t.data.workload, metric: t.data.metric });
  box.replaceChildren(`Selected ${good}..${bad} (${inRange.length} points). `,
    h('a', { class: 'button', id: 'trend-bisect', href: `#/bisect/new?link=${encodeURIComponent(t.data.link)}&good=${encodeURIComponent(good)}&bad=${encodeURIComponent(bad)}` }, 'bisect this range'), ' ',
    h('a', { class: 'button', id: 'trend-compare', href: `#/compare/rev/${encodeURIComponent(good)}/${encodeURIComponent(bad)}?${key}` }, `compare ${good} and ${bad}`));
}
