// Compare: two runs (#/compare/A/B) or two revisions of one series
// (#/compare/rev/RA/RB?link=&knobs=&workload=&metric=) side by side. Per
// series a ministat-style table (N, min, Q1, median, Q3, max, mean,
// stddev of each side, then the difference of the means at 95 %
// confidence by Student's t, as ministat says it) and a distribution plot
// (each sample a dot over its side's min-max whisker, IQR box and median).
// The samples are GET /series?samples=1: for runs, the point of each run;
// for revisions, every point measured at it (nights and bisect steps),
// pooled. Runs also show `labrat compare`'s own text (GET /compare).
import { get, getOpt, h, fmtValue, fmtPct, trendHref, revCmp } from '../api.js';
import { put } from '../api.js';

// ---- statistics (ministat's) ---------------------------------------------

function quantile(sorted, p) {
  const i = (sorted.length - 1) * p, lo = Math.floor(i), hi = Math.ceil(i);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (i - lo);
}

export function summary(values) {
  const v = values.slice().sort((a, b) => a - b);
  const n = v.length;
  const mean = v.reduce((s, x) => s + x, 0) / n;
  const sd = n > 1 ? Math.sqrt(v.reduce((s, x) => s + (x - mean) ** 2, 0) / (n - 1)) : 0;
  return { n, min: v[0], q1: quantile(v, 0.25), median: quantile(v, 0.5), q3: quantile(v, 0.75), max: v[n - 1], mean, sd, values: v };
}

// Student's t, two-sided 95 %, for df degrees of freedom (the table for
// small df, Cornish-Fisher beyond it).
const T95 = [0, 12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228];
function t95(df) {
  if (df <= 10) return T95[df];
  const z = 1.959964;
  return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df);
}

// ministat's "Difference at 95.0% confidence" (pooled variance), or null
// when no difference is proven.
export function difference(a, b) {
  if (a.n < 2 || b.n < 2) return { proven: false, why: 'fewer than 2 samples on a side' };
  const df = a.n + b.n - 2;
  const s = Math.sqrt(((a.n - 1) * a.sd ** 2 + (b.n - 1) * b.sd ** 2) / df);
  const half = t95(df) * s * Math.sqrt(1 / a.n + 1 / b.n);
  const d = b.mean - a.mean;
  return { proven: Math.abs(d) > half, d, half, pct: d / a.mean, pctHalf: half / a.mean };
}

// ---- the page --------------------------------------------------------------

function distribution(sa, sb, unit) {
  const lo = Math.min(sa.min, sb.min), hi = Math.max(sa.max, sb.max);
  const pos = (v) => `${(((v - lo) / (hi - lo || 1)) * 100).toFixed(2)}%`;
  const side = (s, cls) => {
    const d = h('div', { class: `box ${cls}`, title: `${fmtValue(s.min, unit)} .. ${fmtValue(s.max, unit)}`, dataset: { side: cls, samples: String(s.n) } },
      h('span', { class: 'whisker' }), h('span', { class: 'iqr' }), h('span', { class: 'med' }),
      s.values.map((v) => h('span', { class: 'dot', dataset: { value: String(v) } })));
    const [w, i, m, ...dots] = d.children;
    w.style.left = pos(s.min); w.style.width = `calc(${pos(s.max)} - ${pos(s.min)})`;
    i.style.left = pos(s.q1); i.style.width = `calc(${pos(s.q3)} - ${pos(s.q1)})`;
    m.style.left = pos(s.median);
    dots.forEach((dot, k) => { dot.style.left = pos(s.values[k]); });
    return d;
  };
  return h('div', { class: 'dist-plot', title: `${fmtValue(lo, unit)} .. ${fmtValue(hi, unit)}` }, side(sa, 'a'), side(sb, 'b'),
    h('div', { class: 'dist-axis' }, h('span', {}, fmtValue(lo, unit)), h('span', {}, fmtValue(hi, unit))));
}

function diffText(df, unit) {
  if (!df.proven) return df.why ? `No difference proven (${df.why})` : 'No difference proven at 95.0% confidence';
  return `Difference at 95.0% confidence: ${fmtValue(df.d, unit)} ± ${fmtValue(df.half, unit)} (${fmtPct(df.pct)} ± ${(df.pctHalf * 100).toFixed(1)} %)`;
}

// rows: [{name, key, unit, a: {label, values}, b: {label, values}}]
function ministat(rows) {
  const F = ['n', 'min', 'q1', 'median', 'q3', 'max', 'mean', 'sd'];
  const head = ['Series', 'Side', 'N', 'Min', 'Q1', 'Median', 'Q3', 'Max', 'Avg', 'Stddev', 'Distribution'];
  return h('div', { class: 'scroll' }, h('table', { class: 'data', id: 'compare-table' },
    h('thead', {}, h('tr', {}, head.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, rows.flatMap((r) => {
      const sa = summary(r.a.values), sb = summary(r.b.values), df = difference(sa, sb);
      const line = (s, side, label) => h('tr', { dataset: { series: r.name, side, n: String(s.n), median: String(s.median), mean: String(s.mean) } },
        side === 'a' ? h('th', { scope: 'row', rowspan: '3' }, r.key ? h('a', { href: trendHref(r.key) }, r.name) : r.name) : null,
        h('td', {}, `${side === 'a' ? 'x' : '+'} ${label}`),
        F.map((f) => h('td', { class: 'num' }, f === 'n' ? s.n : fmtValue(s[f], r.unit))),
        side === 'a' ? h('td', { class: 'dist', rowspan: '2' }, distribution(sa, sb, r.unit)) : null);
      return [line(sa, 'a', r.a.label), line(sb, 'b', r.b.label),
        h('tr', { class: 'diff', dataset: { series: r.name, proven: df.proven ? '1' : '0' } },
          h('td', { colspan: '10', class: df.proven ? (df.d < 0 ? 'v-bad' : 'v-good') : 'muted' }, diffText(df, r.unit)))];
    }))));
}

// The point of run in the series of key (GET /series pages by run id:
// after=run+1, limit=1 is that run's point, if it has one).
async function runPoint(key, run) {
  const q = new URLSearchParams({ link: key.link, knobs: key.knobs, workload: key.workload, metric: key.metric, samples: '1', limit: '1', after: String(run + 1) });
  const s = await getOpt(`/series?${q}`);
  const p = s && (s.points || [])[0];
  return p && p.run === run ? p : null;
}

async function runs(el, a, b) {
  const [ra, rb, text] = await Promise.all([get(`/runs/${a}/report`), get(`/runs/${b}/report`),
    get(`/compare?a=${a}&b=${b}`).catch((e) => `(labrat compare: ${e.message})`)]);
  const id = (s) => `${s.link}|${s.knobs}|${s.params}|${s.metric}`;
  const mb = new Map((rb.series || []).map((s) => [id(s), s]));
  const common = (ra.series || []).filter((s) => mb.has(id(s)));
  const rows = [];
  for (const s of common) {
    const key = { link: s.link, knobs: s.knobs, workload: s.params, metric: s.metric };
    const [pa, pb] = await Promise.all([runPoint(key, Number(a)), runPoint(key, Number(b))]);
    if (!pa || !pb || !pa.samples || !pb.samples) continue;
    rows.push({ name: `${s.link} ${s.knobs || '(default knobs)'} ${s.metric}`, key, unit: s.unit,
      a: { label: `run ${a} (${pa.revision || s.revision || '?'})`, values: pa.samples },
      b: { label: `run ${b} (${pb.revision || mb.get(id(s)).revision || '?'})`, values: pb.samples } });
  }
  put(el, h('h1', {}, `Compare run ${a} and run ${b}`),
    h('p', {}, 'x ', h('a', { href: `#/run/${a}` }, `run ${a}`), ' (the baseline) · + ', h('a', { href: `#/run/${b}` }, `run ${b}`),
      ' · or compare two revisions of a series from its ', h('a', { href: '#/trend' }, 'trend'), '.'),
    rows.length === 0 ? h('p', {}, 'No series in common.') : ministat(rows),
    h('details', {}, h('summary', {}, 'labrat compare (text)'), h('pre', { class: 'raw', tabindex: '0', id: 'compare-text' }, typeof text === 'string' ? text : JSON.stringify(text))));
}

// Every point of the series (all pages, with samples).
async function allPoints(key) {
  const q = new URLSearchParams({ link: key.link, knobs: key.knobs, workload: key.workload, metric: key.metric, samples: '1', limit: '500' });
  const out = [];
  let next = null;
  for (let i = 0; i < 20; i++) {
    if (next) q.set('after', String(next));
    const s = await get(`/series?${q}`);
    out.push(...(s.points || []));
    next = s.next_after;
    if (!next) break;
  }
  return out;
}

async function revisions(el, ra, rb, q) {
  let key = { link: q.get('link'), knobs: q.get('knobs') ?? '', workload: q.get('workload'), metric: q.get('metric') || 'throughput_bps' };
  if (!key.link || !key.workload) {
    const k = await getOpt('/series/keys?limit=500');
    const first = k && (k.keys || []).find((x) => x.metric === 'throughput_bps');
    if (!first) { put(el, h('h1', {}, 'Compare revisions'), h('p', {}, 'No series yet.')); return; }
    key = { link: first.link, knobs: first.knobs, workload: first.workload, metric: first.metric };
  }
  const pts = await allPoints(key);
  const revs = [...new Set(pts.map((p) => p.revision).filter(Boolean))].sort(revCmp);
  const pick = (rev) => {
    const ps = pts.filter((p) => p.revision === rev && p.samples);
    return { runs: ps.map((p) => p.run), values: ps.flatMap((p) => p.samples) };
  };
  const A = pick(ra), B = pick(rb);
  const name = `${key.link} ${key.knobs || '(default knobs)'} ${key.metric}`;
  const sel = (id, cur) => h('select', { id, 'aria-label': id === 'cmp-a' ? 'revision x' : 'revision +' },
    revs.map((r) => h('option', { value: r, selected: r === cur }, r)));
  const sa = sel('cmp-a', ra), sb = sel('cmp-b', rb);
  const go = () => {
    const s = new URLSearchParams(key);
    location.hash = `#/compare/rev/${encodeURIComponent(sa.value)}/${encodeURIComponent(sb.value)}?${s}`;
  };
  sa.addEventListener('change', go);
  sb.addEventListener('change', go);
  const unit = (pts[0] && pts[0].unit) || 'bit/s';
  put(el, h('h1', {}, `Compare ${ra} and ${rb}`),
    h('p', {}, `${name}: every run that measured each revision (nights and bisect steps), pooled. `,
      h('a', { href: trendHref(key) }, 'trend')),
    h('div', { class: 'controls' }, h('label', { for: 'cmp-a' }, 'x '), sa, h('label', { for: 'cmp-b' }, ' + '), sb),
    !A.values.length || !B.values.length
      ? h('p', { class: 'muted', id: 'compare-none' }, `No samples of ${!A.values.length ? ra : rb} in this series.`)
      : ministat([{ name, key, unit, a: { label: `${ra} (runs ${A.runs.join(', ')})`, values: A.values },
        b: { label: `${rb} (runs ${B.runs.join(', ')})`, values: B.values } }]));
}

export async function render(el, args, q) {
  if (args[0] === 'rev') return revisions(el, args[1], args[2], q);
  return runs(el, args[0], args[1]);
}
