// Hosts: every pair's health state, why, last check, warnings, the
// transitions (history, and per link GET /hosts/{link}/health where the
// daemon has it), and the maintenance toggle (a mutation: needs a token
// that may write).
import { get, getOpt, post, h, table, time, badge, pagedTable, pager, perPage } from '../api.js';
import { swap } from '../api.js';

function toggle(l, after) {
  const on = l.state !== 'maintenance';
  const out = h('span', { role: 'status' });
  const b = h('button', { type: 'button', class: 'maint', dataset: { link: l.link } }, on ? 'Maintenance on' : 'Maintenance off');
  b.addEventListener('click', async () => {
    const why = on ? prompt(`Why is ${l.link} going into maintenance?`, '') : '';
    if (why === null) return;
    try {
      await post(`/hosts/${encodeURIComponent(l.link)}/maintenance`, { on, why: why || 'from the dashboard' });
      after();
    } catch (e) {
      out.textContent = ` ${e.message}`;
      out.className = 'error';
    }
  });
  return [b, out];
}

export async function render(el, args, q) {
  const draw = async () => {
    const d = await get('/hosts');
    const links = d.links || [];
    // Each link's history, a page at a time ("More": the API's cursor).
    const hist = await Promise.all(links.map(async (l) => {
      const path = `/hosts/${encodeURIComponent(l.link)}/health`;
      if (!(await getOpt(`${path}?limit=1`).catch(() => null))) return null;
      return pagedTable(`health-${l.link}`, [
        { label: 'At', get: (x) => x.at, cell: (x) => time(x.at) },
        { label: 'State', get: (x) => x.state, cell: (x) => badge(x.state) },
        { label: 'Why', get: (x) => x.why },
      ], pager(path, 'history', perPage(q, 20)), { caption: `${l.link} health history` });
    }));
    swap(el, h('h1', {}, 'Hosts'),
      table([
        { label: 'Link', get: (l) => l.link, cell: (l) => h('strong', {}, l.link) },
        { label: 'State', get: (l) => l.state, cell: (l) => badge(l.state) },
        { label: 'Since', get: (l) => l.since, cell: (l) => time(l.since) },
        { label: 'Why', get: (l) => l.why },
        { label: 'Last check', get: (l) => l.last_check, cell: (l) => [time(l.last_check), l.last_check_ok === false ? ' (failed)' : ''] },
        { label: 'Last run', num: true, get: (l) => l.last_run, cell: (l) => (l.last_run ? h('a', { href: `#/run/${l.last_run}` }, `run ${l.last_run}`) : '–') },
        { label: 'Maintenance', get: (l) => l.state, cell: (l) => toggle(l, draw) },
      ], links, { caption: 'pairs', rowAttrs: (l) => ({ dataset: { link: l.link, state: l.state } }) }),
      links.map((l, i) => (l.warnings && l.warnings.length) || hist[i] ? h('section', {},
        h('h2', {}, l.link),
        l.warnings && l.warnings.length ? h('ul', { class: 'warnings' }, l.warnings.map((w) => h('li', {}, w))) : null,
        hist[i]) : null),
      h('section', { 'aria-labelledby': 'h-t' }, h('h2', { id: 'h-t' }, 'Transitions'),
        table([
          { label: 'At', get: (t) => t.at, cell: (t) => time(t.at) },
          { label: 'Link', get: (t) => t.link },
          { label: 'From', get: (t) => t.from, cell: (t) => badge(t.from) },
          { label: 'To', get: (t) => t.to, cell: (t) => badge(t.to) },
          { label: 'Why', get: (t) => t.why },
          { label: 'Who', get: (t) => t.who },
        ], d.transitions || [], { caption: 'health transitions', filter: true })));
  };
  await draw();
}
