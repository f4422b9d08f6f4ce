// Overview: last night's verdict per pair (series), the regressions the
// nights found with the bisects they started and their culprits, running
// and queued work, and the pairs that are not good (polled every 15 s);
// the nights, paged.
import { get, h, table, time, badge, fmtPct, fmtP, trendHref, verdictClass, pagedTable, pager, perPage } from '../api.js';
import { swap } from '../api.js';

const key = (v) => `${v.link}|${v.knobs}|${v.params || v.workload}|${v.metric}`;

// The regressions the nights found: one per series, with its first and
// last night and the bisect on that link and knobs (if any).
export function regressions(nights, bisects) {
  const out = new Map();
  for (const n of nights.slice().reverse()) {
    for (const v of n.verdicts || []) {
      if (v.verdict !== 'regression') continue;
      const k = key(v);
      let r = out.get(k);
      if (!r) {
        r = { link: v.link, knobs: v.knobs, workload: v.workload, metric: v.metric,
          first_night: n.id, last_night: n.id, change: v.change, p: v.p, good: v.baseline_revision,
          bad: v.revision, nights: [] };
        out.set(k, r);
      }
      r.last_night = n.id;
      r.nights.push(n.id);
    }
  }
  for (const r of out.values()) {
    r.bisect = bisects.find((b) => b.link === r.link && b.knobs === r.knobs &&
      (!b.metric || b.metric === r.metric)) || null;
  }
  return [...out.values()];
}

async function load() {
  const [nights, bisects, q, hosts] = await Promise.all([
    get('/nights?limit=50'), get('/bisects'), get('/queue?limit=100'), get('/hosts'),
  ]);
  return { nights: nights.nights || [], bisects: bisects.bisects || [], queue: q, hosts };
}

function build(el, d) {
  const last = d.nights[0];
  const regs = regressions(d.nights, d.bisects);
  const parts = [h('h1', {}, 'Overview')];

  parts.push(h('section', { 'aria-labelledby': 'ov-night' },
    h('h2', { id: 'ov-night' }, last ? ['Last night: ', h('a', { href: `#/run/${last.run}` }, `night ${last.id}`),
      ` at ${last.revision || '?'} `, badge(last.good ? 'good' : 'not good'), ' ', time(last.finished_ms || last.created_ms)] : 'No nights yet'),
    last ? h('div', { class: 'tiles' }, (last.verdicts || []).map((v) =>
      h('a', { class: `tile ${verdictClass(v.verdict)}`, href: trendHref(v), dataset: { link: v.link, verdict: v.verdict } },
        h('strong', {}, v.link), h('span', {}, v.knobs), h('span', {}, v.verdict),
        h('span', { class: 'num' }, `${fmtPct(v.change)} vs ${v.baseline_revision}`)))) : null));

  parts.push(h('section', { 'aria-labelledby': 'ov-reg' },
    h('h2', { id: 'ov-reg' }, `Regressions (${regs.length})`),
    regs.length === 0 ? h('p', { class: 'muted' }, 'None found.') :
      table([
        { label: 'Series', get: (r) => `${r.link} ${r.knobs}`, cell: (r) => h('a', { href: trendHref(r), class: 'regression', dataset: { link: r.link, knobs: r.knobs } }, `${r.link} ${r.knobs}`) },
        { label: 'Change', num: true, get: (r) => r.change, cell: (r) => fmtPct(r.change) },
        { label: 'p', num: true, get: (r) => r.p, cell: (r) => fmtP(r.p) },
        { label: 'Range', get: (r) => `${r.good}..${r.bad}` },
        { label: 'Nights', get: (r) => r.nights.join(', ') },
        { label: 'Bisect', get: (r) => r.bisect?.id ?? -1, cell: (r) => r.bisect ? h('a', { href: `#/bisect/${r.bisect.id}` }, `bisect ${r.bisect.id} (${r.bisect.state})`) : '–' },
        { label: 'Culprit', get: (r) => r.bisect?.culprit || '', cell: (r) => r.bisect?.culprit ? h('code', {}, r.bisect.culprit) : '–' },
      ], regs, { caption: 'regressions the nights found' })));

  const items = (d.queue.items || []).filter((i) => i.state === 'running' || i.state === 'queued');
  parts.push(h('section', { 'aria-labelledby': 'ov-q' },
    h('h2', { id: 'ov-q' }, h('a', { href: '#/queue' }, `Running and queued (${items.length})`)),
    items.length === 0 ? h('p', { class: 'muted' }, 'Nothing running or queued.') :
      table([
        { label: 'Item', num: true, get: (i) => i.id },
        { label: 'Kind', get: (i) => i.kind },
        { label: 'State', get: (i) => i.state, cell: (i) => badge(i.state, 'v-warn') },
        { label: 'Who', get: (i) => i.who },
        { label: 'Queued', get: (i) => i.enqueued, cell: (i) => time(i.enqueued) },
      ], items)));

  const bad = (d.hosts.links || []).filter((l) => l.state !== 'good');
  parts.push(h('section', { 'aria-labelledby': 'ov-h' },
    h('h2', { id: 'ov-h' }, h('a', { href: '#/hosts' }, `Pairs not good (${bad.length})`)),
    bad.length === 0 ? h('p', { class: 'muted' }, `All ${(d.hosts.links || []).length} pairs are good.`) :
      h('ul', {}, bad.map((l) => h('li', {}, h('strong', {}, l.link), ' ', badge(l.state), ' ', l.why || '')))));

  swap(el, ...parts);
}

// Every night, newest first, a page at a time (?per=N, default 20; "More"
// follows the API's cursor). Built once: the refresh leaves it as paged.
async function nightsList(q) {
  return h('section', { 'aria-labelledby': 'ov-n' },
    h('h2', { id: 'ov-n' }, 'Nights'),
    await pagedTable('nights', [
      { label: 'Night', num: true, get: (n) => n.id },
      { label: 'Revision', get: (n) => n.revision },
      { label: 'State', get: (n) => n.state },
      { label: 'Verdict', get: (n) => (n.good ? 'good' : 'not good'), cell: (n) => badge(n.good ? 'good' : 'regression') },
      { label: 'Run', num: true, get: (n) => n.run, cell: (n) => n.run ? h('a', { href: `#/run/${n.run}` }, `run ${n.run}`) : '–' },
      { label: 'Finished', get: (n) => n.finished_ms, cell: (n) => time(n.finished_ms) },
    ], pager('/nights', 'nights', perPage(q, 20)), { caption: 'nights, newest first', filter: true, rowAttrs: (n) => ({ dataset: { night: String(n.id) } }) }));
}

export async function render(el, args, q) {
  const live = h('div', { class: 'live' });
  const [d, nights] = await Promise.all([load(), nightsList(q)]);
  build(live, d);
  el.append(live, nights);
  const t = setInterval(async () => {
    try { build(live, await load()); } catch (e) { console.warn(e); }
  }, 15000);
  return () => clearInterval(t);
}
