// Run: the run, its findings sentence(s), per link the knob matrix as a
// heatmap (two knobs on the axes, the cell's text its median, its colour
// the verdict of the comparison that ends in it), every comparison (effect,
// CI, p, n, verdict), the host facts, and the jobs (each links to #/job/ID).
import { get, h, table, time, badge, fmtValue, fmtPct, fmtP, knobPairs, verdictClass, trendHref } from '../api.js';
import { put } from '../api.js';

async function allJobs(id) {
  const out = [];
  let after = null;
  for (let i = 0; i < 20; i++) {
    const p = await get(`/runs/${id}/jobs?limit=500${after ? `&after=${after}` : ''}`);
    out.push(...(p.jobs || []));
    if (!p.next_after || !(p.jobs || []).length) break;
    after = p.next_after;
  }
  return out;
}

// One link's heatmap: the two knobs with the most values on the axes, any
// other knobs as separate grids.
function heatmap(link, series, comps) {
  const rows = series.filter((s) => s.link === link);
  const names = new Map();
  for (const s of rows) for (const [k, v] of knobPairs(s.knobs)) {
    if (!names.has(k)) names.set(k, new Set());
    names.get(k).add(v);
  }
  const axes = [...names.entries()].sort((a, b) => b[1].size - a[1].size || a[0].localeCompare(b[0]));
  const [ax, ay] = [axes[0] || ['knobs', new Set([''])], axes[1] || ['', new Set([''])]];
  const xv = [...ax[1]].sort(), yv = [...ay[1]].sort();
  const cell = (x, y) => rows.filter((s) => {
    const m = new Map(knobPairs(s.knobs));
    return (m.get(ax[0]) ?? '') === x && (ay[0] === '' || (m.get(ay[0]) ?? '') === y);
  });
  const verdictOf = (s) => {
    const c = comps.find((c) => c.link === link && c.candidate === s.knobs && c.params === s.params && c.baseline !== c.candidate);
    return c ? c.verdict : null;
  };
  return h('table', { class: 'heat', dataset: { link } },
    h('caption', {}, `${link}: ${ax[0]}${ay[0] ? ` × ${ay[0]}` : ''} (median; colour: verdict against its neighbour)`),
    h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, ay[0] ? `${ay[0]} \\ ${ax[0]}` : ax[0]), xv.map((x) => h('th', { scope: 'col' }, x)))),
    h('tbody', {}, yv.map((y) => h('tr', {}, h('th', { scope: 'row' }, y || '–'), xv.map((x) => {
      const cs = cell(x, y);
      if (!cs.length) return h('td', { class: 'v-none' }, '–');
      return h('td', {}, cs.map((s) => {
        const v = verdictOf(s);
        return h('a', { class: `cell ${verdictClass(v)}`, href: trendHref({ link, knobs: s.knobs, workload: s.params, metric: s.metric }),
          title: `${s.knobs} ${s.params}: ${v || 'no comparison'}, n ${s.n}`, dataset: { knobs: s.knobs, median: String(s.median) } },
        fmtValue(s.median, s.unit), h('small', {}, v || ''));
      }));
    })))));
}

// While the run is running the view is built again every 5 s (its jobs,
// the report so far), and once more when it ends.
export async function render(el, [id]) {
  let run = await build(el, id);
  if (run.state !== 'running') return;
  const t = setInterval(async () => {
    try {
      run = await build(el, id);
      if (run.state !== 'running') clearInterval(t);
    } catch (e) { console.warn(e); }
  }, 5000);
  return () => clearInterval(t);
}

async function build(el, id) {
  const [run, rep, jobs] = await Promise.all([get(`/runs/${id}`), get(`/runs/${id}/report`), allJobs(id)]);
  el.replaceChildren();
  el.dataset.state = run.state;
  el.dataset.builds = String(Number(el.dataset.builds || 0) + 1);
  const comps = [...(rep.comparisons || []), ...((rep.baseline && rep.baseline.comparisons) || [])];
  const links = [...new Set((rep.series || []).map((s) => s.link))];
  const unit = (rep.series && rep.series[0] && rep.series[0].unit) || '';

  put(el, h('h1', {}, `Run ${run.id}`),
    h('p', {}, badge(run.state), ` ${run.kind} · created `, time(run.created_ms), ' · finished ', time(run.finished_ms),
      run.bisect ? [' · ', h('a', { href: `#/bisect/${run.bisect}` }, `bisect ${run.bisect}`)] : null,
      rep.baseline && rep.baseline.run ? [' · baseline ', h('a', { href: `#/run/${rep.baseline.run}` }, `run ${rep.baseline.run}`), ' · ',
        h('a', { href: `#/compare/${rep.baseline.run}/${run.id}` }, 'compare')] : null,
      ` · ${run.jobs.total} jobs (${run.jobs.done} done, ${run.jobs.failed} failed)`),
    run.state === 'running' ? h('p', { class: 'live', id: 'run-live' }, 'Running: this view refreshes every 5 s.') : null,
    run.note ? h('p', { class: 'muted' }, run.note) : null);

  put(el, h('section', { 'aria-labelledby': 'r-find' }, h('h2', { id: 'r-find' }, 'Findings'),
    (rep.triggers || []).length ? h('ul', { class: 'findings' }, rep.triggers.map((t) => h('li', { class: verdictClass(t.effect < 0 ? 'regression' : 'improvement') }, t.text)))
      : h('p', { class: 'muted' }, 'No finding: every knob comparison is within its threshold.')));

  put(el, h('section', { 'aria-labelledby': 'r-heat' }, h('h2', { id: 'r-heat' }, 'Knob matrix'),
    h('div', { class: 'heats' }, links.map((l) => h('div', { class: 'scroll' }, heatmap(l, rep.series || [], comps))))));

  put(el, h('section', { 'aria-labelledby': 'r-cmp' }, h('h2', { id: 'r-cmp' }, `Comparisons (${comps.length})`),
    table([
      { label: 'Comparison', get: (c) => c.name },
      { label: 'Link', get: (c) => c.link },
      { label: 'Verdict', get: (c) => c.verdict, cell: (c) => badge(c.verdict) },
      { label: 'Effect', num: true, get: (c) => c.effect, cell: (c) => fmtPct(c.effect) },
      { label: 'Ratio CI', get: (c) => (c.ratio_ci ? c.ratio_ci[0] : null), cell: (c) => (c.ratio_ci ? `${c.ratio_ci[0].toFixed(3)}–${c.ratio_ci[1].toFixed(3)}` : '–') },
      { label: 'p', num: true, get: (c) => c.p, cell: (c) => fmtP(c.p) },
      { label: 'n', get: (c) => `${c.n_baseline}/${c.n_candidate}` },
      { label: 'Medians', get: (c) => c.median_candidate, cell: (c) => `${fmtValue(c.median_baseline, unit)} → ${fmtValue(c.median_candidate, unit)}` },
    ], comps, { caption: 'comparisons', filter: true, rowAttrs: (c) => ({ dataset: { verdict: c.verdict, link: c.link } }) })));

  put(el, h('section', { 'aria-labelledby': 'r-host' }, h('h2', { id: 'r-host' }, 'Hosts'),
    table([
      { label: 'Host', get: (x) => x.host },
      { label: 'Interface', get: (x) => x.ifname },
      { label: 'OS', get: (x) => x.os },
      { label: 'Revision', get: (x) => x.revision },
      { label: 'Driver', get: (x) => x.driver, cell: (x) => [x.driver ?? '–', x.mismatch ? h('small', { class: 'v-warn' }, ` (declared ${x.declared_driver})`) : ''] },
      { label: 'Chip', get: (x) => x.chip ?? x.declared_chip },
      { label: 'Offloads', get: (x) => x.offloads ? JSON.stringify(x.offloads) : '' },
      { label: 'Kernel', get: (x) => x.kernel_version, cell: (x) => h('small', {}, x.kernel_version || '–') },
    ], rep.hosts || [])));

  put(el, h('section', { 'aria-labelledby': 'r-jobs' }, h('h2', { id: 'r-jobs' }, `Jobs (${jobs.length})`),
    table([
      { label: 'Job', num: true, get: (j) => j.id, cell: (j) => h('a', { href: `#/job/${j.id}`, class: 'job' }, String(j.id)) },
      { label: 'Link', get: (j) => j.link },
      { label: 'Knobs', get: (j) => j.knobs },
      { label: 'Rep', num: true, get: (j) => j.repetition },
      { label: 'State', get: (j) => j.state, cell: (j) => badge(j.state) },
      { label: 'Started', get: (j) => j.started_ms, cell: (j) => time(j.started_ms) },
      { label: 's', num: true, get: (j) => (j.finished_ms && j.started_ms ? (j.finished_ms - j.started_ms) / 1000 : null), cell: (j) => (j.finished_ms && j.started_ms ? `${((j.finished_ms - j.started_ms) / 1000).toFixed(1)} s` : '–') },
    ], jobs, { caption: 'jobs', filter: true })));
  return run;
}
