// Job: its samples (summary metrics and the per-second series as a small
// graph, where a stall shows as a gap) and the raw tool output.
import { get, h, table, time, badge, fmtValue } from '../api.js';
import { put } from '../api.js';
import { autosize } from '../api.js';

let plot = null;
let unfit = null;

export async function render(el, [id]) {
  const [s, raw] = await Promise.all([get(`/jobs/${id}/samples`), get(`/jobs/${id}/raw`).catch(() => '')]);
  const j = s.job;
  const summary = (s.samples || []).filter((x) => x.interval === 0);
  const perSec = (s.samples || []).filter((x) => x.interval > 0);
  put(el, h('h1', {}, `Job ${j.id}`),
    h('p', {}, badge(j.state), ' ', h('a', { href: `#/run/${j.run}` }, `run ${j.run}`), ` · ${j.link} · ${j.knobs} · ${j.params} · repetition ${j.repetition} · started `, time(j.started_ms),
      j.reason ? [' · ', h('span', { class: 'v-bad' }, j.reason)] : null),
    h('section', { 'aria-labelledby': 'j-s' }, h('h2', { id: 'j-s' }, 'Samples'),
      table([
        { label: 'Metric', get: (x) => x.metric },
        { label: 'Value', num: true, get: (x) => x.value, cell: (x) => h('span', { dataset: { metric: x.metric, value: String(x.value) } }, fmtValue(x.value, x.unit)) },
      ], summary, { caption: 'summary samples' })),
    h('section', { 'aria-labelledby': 'j-p' }, h('h2', { id: 'j-p' }, 'Per second'),
      perSec.length ? h('div', { class: 'graph small', id: 'job-graph' }) : h('p', { class: 'muted' }, 'No per-second samples.')),
    h('section', { 'aria-labelledby': 'j-r' }, h('h2', { id: 'j-r' }, 'Raw output'),
      h('pre', { class: 'raw', tabindex: '0' }, typeof raw === 'string' ? raw : JSON.stringify(raw, null, 1))));
  el._job = perSec;
}

export function mounted(el) {
  if (plot) { plot.destroy(); plot = null; }
  if (unfit) { unfit(); unfit = null; }
  const g = el.querySelector('#job-graph');
  if (!g) return;
  const byMetric = el._job.filter((x) => x.metric === 'throughput_bps');
  const rows = (byMetric.length ? byMetric : el._job).sort((a, b) => a.interval - b.interval);
  // a missing interval is a gap (null), so a stall shows
  const n = Math.max(...rows.map((r) => r.interval));
  const xs = [], ys = [];
  for (let i = 1; i <= n; i++) {
    const r = rows.find((x) => x.interval === i);
    xs.push(i);
    ys.push(r ? (r.unit === 'bit/s' ? r.value / 1e6 : r.value) : null);
  }
  const css = getComputedStyle(document.documentElement);
  const unit = rows[0].unit === 'bit/s' ? 'Mbit/s' : rows[0].unit;
  plot = new uPlot({ width: Math.max(260, g.clientWidth), height: 160, legend: { show: false },
    scales: { x: { time: false } },
    axes: [{ stroke: css.getPropertyValue('--fg').trim(), label: 's' }, { stroke: css.getPropertyValue('--fg').trim(), label: unit, size: 60 }],
    series: [{}, { label: rows[0].metric, stroke: css.getPropertyValue('--line').trim(), width: 2, spanGaps: false, points: { show: true } }] }, [xs, ys], g);
  unfit = autosize(plot, g, 0, 0);
}
