// Bisect: the culprit with its message and confidence, the steps as a
// table (revision, why, verdict, n, median, ratio, p, run), a graph of each
// step's ratio against the bisect's own threshold (GET /bisects/{id} says
// it: a step is good while its ratio is at or above it, or at or below it
// when lower is better), the log as text; polls every 5 s while it runs.
// #/bisect/new?link=&good=&bad= is the form that starts one (a mutation).
import { get, post, h, table, time, badge, fmtValue, fmtP } from '../api.js';
import { swap } from '../api.js';
import { put } from '../api.js';
import { autosize } from '../api.js';

let plot = null;
let unfit = null;

function newForm(el, q) {
  const f = (name, label, value, hint) => h('p', {}, h('label', { for: `bn-${name}` }, label),
    h('input', { id: `bn-${name}`, name, value: value || '', required: true, placeholder: hint || '' }));
  const out = h('p', { role: 'status', id: 'bn-out' });
  const form = h('form', { class: 'form', id: 'bisect-new' },
    f('link', 'Link', q.get('link')), f('good', 'Good revision', q.get('good')), f('bad', 'Bad revision', q.get('bad')),
    f('test', 'Test (absolute path on the controller)', q.get('test'), '/etc/labrat/test.json'),
    h('button', { type: 'submit' }, 'Start bisect'), out);
  form.addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const body = Object.fromEntries(['link', 'good', 'bad', 'test'].map((k) => [k, form.elements[k].value.trim()]));
    try {
      const r = await post('/bisects', body);
      out.replaceChildren(`Queued as item ${r.queue}. `, h('a', { href: '#/queue' }, 'Queue'));
    } catch (e) {
      out.replaceChildren(h('span', { class: 'error' }, e.message));
    }
  });
  put(el, h('h1', {}, 'Start a bisect'), form);
}

async function build(el, id) {
  const [b, log] = await Promise.all([get(`/bisects/${id}`), get(`/bisects/${id}/log`).catch(() => '')]);
  const ev = b.evidence || [];
  const unit = 'bit/s';
  const parts = [h('h1', {}, `Bisect ${b.bisect}: ${b.link}`),
    h('p', {}, badge(b.state), ` ${b.good} (good) .. ${b.bad} (bad) · ${b.revisions} revisions · ${b.steps} steps · ${b.samples} samples · ${b.wall_s} s`),
    b.culprit ? h('p', { class: 'culprit', id: 'bisect-culprit', dataset: { revision: b.culprit.id } }, 'Culprit ', h('code', {}, b.culprit.id),
      b.culprit.message ? ` “${b.culprit.message}”` : '', ` · confidence ${(b.confidence * 100).toFixed(3)} %`, b.verified ? ' · verified' : '') : null,
    b.reason ? h('p', { class: 'muted' }, b.reason) : null,
    h('p', { id: 'bisect-judging' }, typeof b.threshold === 'number'
      ? `A step is good while its ratio is ${b.lower_is_better ? '≤' : '≥'} ${b.threshold} (the bisect's threshold).`
      : 'This bisect stored no test: its threshold is unknown.'),
    b.range && b.range.candidates && b.range.candidates.length > 1 ? h('p', {}, `Candidates: ${b.range.candidates.join(', ')}`) : null,
    b.skipped && b.skipped.length ? h('p', {}, `Skipped: ${b.skipped.map((s) => s.id || s).join(', ')}`) : null,
    h('section', { 'aria-labelledby': 'b-s' }, h('h2', { id: 'b-s' }, 'Steps'),
      table([
        { label: '#', num: true, get: (e) => e.seq },
        { label: 'Revision', get: (e) => e.revision, cell: (e) => h('code', {}, e.revision) },
        { label: 'Why', get: (e) => e.why },
        { label: 'Verdict', get: (e) => e.verdict, cell: (e) => badge(e.verdict) },
        { label: 'n', num: true, get: (e) => e.n },
        { label: 'Median', num: true, get: (e) => e.median, cell: (e) => fmtValue(e.median, unit) },
        { label: 'Ratio', num: true, get: (e) => e.ratio, cell: (e) => h('span', { dataset: { ratio: String(e.ratio) } }, e.ratio?.toFixed(4) ?? '–') },
        { label: 'p', num: true, get: (e) => e.p, cell: (e) => fmtP(e.p) },
        { label: 'Run', num: true, get: (e) => e.run, cell: (e) => (e.run ? h('a', { href: `#/run/${e.run}`, class: 'step-run' }, `run ${e.run}`) : '–') },
      ], ev, { caption: 'bisect steps', rowAttrs: (e) => ({ dataset: { seq: String(e.seq), revision: e.revision } }) })),
    h('section', { 'aria-labelledby': 'b-g' }, h('h2', { id: 'b-g' }, 'Ratio per step'), h('div', { class: 'graph small', id: 'bisect-graph' })),
    h('section', { 'aria-labelledby': 'b-l' }, h('h2', { id: 'b-l' }, 'Log'), h('pre', { class: 'raw', tabindex: '0', id: 'bisect-log' }, typeof log === 'string' ? log : JSON.stringify(log, null, 1))),
    h('p', { class: 'muted' }, 'Created ', time(b.created_ms ?? null))];
  if (b.state === 'running' || b.state === 'queued') parts.splice(2, 0, h('p', { class: 'live', id: 'bisect-live' }, `${b.state === 'running' ? 'Running' : 'Queued'}: this view refreshes every 5 s.`));
  swap(el, ...parts);
  el.dataset.state = b.state;
  el.dataset.builds = String(Number(el.dataset.builds || 0) + 1);
  el._bisect = ev;
  el._threshold = typeof b.threshold === 'number' ? b.threshold : null;
  return b;
}

export async function render(el, [id], q) {
  if (id === 'new') { newForm(el, q); return; }
  const b = await build(el, id);
  if (b.state !== 'running' && b.state !== 'queued') return;
  const t = setInterval(async () => {
    try { const nb = await build(el, id); mounted(el); if (nb.state !== 'running' && nb.state !== 'queued') clearInterval(t); } catch (e) { console.warn(e); }
  }, 5000);
  return () => clearInterval(t);
}

export function mounted(el) {
  if (plot) { plot.destroy(); plot = null; }
  if (unfit) { unfit(); unfit = null; }
  const g = el.querySelector('#bisect-graph');
  if (!g || !el._bisect || !el._bisect.length) return;
  const ev = el._bisect;
  const css = getComputedStyle(document.documentElement);
  const c = (n) => css.getPropertyValue(n).trim();
  const thr = el._threshold;
  g.dataset.threshold = thr === null ? '' : String(thr);
  g.dataset.steps = String(ev.length);
  const series = [{}, { label: 'ratio', stroke: c('--line'), width: 0, paths: () => null, points: { show: true, size: 8, fill: c('--line') } }];
  const cols = [ev.map((_, i) => i), ev.map((e) => e.ratio)];
  if (thr !== null) {
    series.push({ label: `threshold ${thr}`, stroke: c('--bad'), dash: [4, 4], width: 1.5, points: { show: false } });
    cols.push(ev.map(() => thr));
  }
  plot = new uPlot({ width: Math.max(260, g.clientWidth), height: 200, legend: { show: false },
    scales: { x: { time: false } },
    axes: [{ stroke: c('--fg'), label: 'step', values: (u, vals) => vals.map((v) => (Number.isInteger(v) && ev[v] ? ev[v].revision : '')) },
      { stroke: c('--fg'), label: 'ratio', size: 50 }],
    series }, cols, g);
  unfit = autosize(plot, g, 0, 0);
  g.dataset.drawn = '1';
}
