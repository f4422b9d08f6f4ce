// Runs: every run, newest first (GET /api/v1/runs, paged by its cursor:
// "More" fetches the next page; ?per=N sets the page size), with its kind,
// state, revisions, links, jobs and the bisect it belongs to. Two ticked
// runs open the compare view.
import { h, time, badge, pagedTable, pager, perPage } from '../api.js';
import { put } from '../api.js';

export async function render(el, args, q) {
  const picked = [];
  const go = h('a', { class: 'button', id: 'runs-compare', hidden: true }, 'compare');
  const tick = (r) => {
    const box = h('input', { type: 'checkbox', 'aria-label': `pick run ${r.id} to compare`, dataset: { run: String(r.id) } });
    box.addEventListener('change', () => {
      const i = picked.indexOf(r.id);
      if (box.checked && i < 0) picked.push(r.id);
      if (!box.checked && i >= 0) picked.splice(i, 1);
      const [a, b] = picked.slice(-2).sort((x, y) => x - y);
      go.hidden = picked.length < 2;
      go.setAttribute('href', `#/compare/${a}/${b}`);
      go.textContent = `compare run ${a} and run ${b}`;
    });
    return box;
  };
  const list = await pagedTable('runs', [
    { label: 'Pick', get: (r) => r.id, cell: tick },
    { label: 'Run', num: true, get: (r) => r.id, cell: (r) => h('a', { href: `#/run/${r.id}` }, `run ${r.id}`) },
    { label: 'Kind', get: (r) => r.kind },
    { label: 'State', get: (r) => r.state, cell: (r) => badge(r.state, r.state === 'running' ? 'v-warn' : undefined) },
    { label: 'Revisions', get: (r) => (r.revisions || []).join(' ') },
    { label: 'Links', get: (r) => (r.links || []).join(' ') },
    { label: 'Jobs', num: true, get: (r) => r.jobs?.total ?? 0, cell: (r) => `${r.jobs?.done ?? 0}/${r.jobs?.total ?? 0}` },
    { label: 'Started', get: (r) => r.created_ms, cell: (r) => time(r.created_ms) },
    { label: 'Finished', get: (r) => r.finished_ms ?? 0, cell: (r) => time(r.finished ?? null) },
    { label: 'Bisect', get: (r) => r.bisect ?? 0, cell: (r) => (r.bisect ? h('a', { href: `#/bisect/${r.bisect}` }, `bisect ${r.bisect}`) : '–') },
  ], pager('/runs', 'runs', perPage(q, 50)), { caption: 'runs, newest first', filter: true, rowAttrs: (r) => ({ dataset: { run: String(r.id), state: r.state } }) });
  put(el, h('h1', {}, 'Runs'), h('p', { class: 'muted' }, 'Tick two runs to compare them. ', go), list);
}
