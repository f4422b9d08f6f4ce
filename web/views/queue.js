// Queue and schedules: the daemon (live, heartbeat), what runs now, what
// is queued and what ended (newest first, 50 at a time: "More" follows the
// API's cursor; ?per=N sets the page size), and the schedules with their
// next firing. Polls every 5 s while only the first page is shown.
import { get, h, time, badge, table, pagedTable, perPage } from '../api.js';
import { swap } from '../api.js';

const link = (i) => (i.run ? h('a', { href: `#/run/${i.run}` }, `run ${i.run}`) : i.bisect ? h('a', { href: `#/bisect/${i.bisect}` }, `bisect ${i.bisect}`) : '–');

// The user paged the list further ("More"), or is fetching the next page:
// a refresh would lose that.
function pagedOn(el, per) {
  const foot = el.querySelector('.paged[data-list="queue"] .pager');
  return !!foot && (Number(foot.dataset.shown) > per || foot.querySelector('button.more').disabled);
}

async function build(el, per) {
  let q = {};
  // The first page's reply also says how the daemon is.
  const load = async (after) => {
    const r = await get(`/queue?limit=${per}${after ? `&after=${after}` : ''}`);
    if (!after) q = r;
    return { rows: r.items || [], next: r.next_after ?? null };
  };
  const [items, s] = await Promise.all([pagedTable('queue', [
    { label: 'Item', num: true, get: (i) => i.id },
    { label: 'Kind', get: (i) => i.kind },
    { label: 'State', get: (i) => i.state, cell: (i) => badge(i.state, i.state === 'running' || i.state === 'queued' ? 'v-warn' : undefined) },
    { label: 'Who', get: (i) => i.who },
    { label: 'Queued', get: (i) => i.enqueued, cell: (i) => time(i.enqueued) },
    { label: 'Started', get: (i) => i.started, cell: (i) => time(i.started) },
    { label: 'Finished', get: (i) => i.finished, cell: (i) => time(i.finished) },
    { label: 'Result', get: (i) => i.result },
    { label: 'Work', get: (i) => i.run || i.bisect || 0, cell: link },
  ], load, { caption: 'queue items, newest first', filter: true, rowAttrs: (i) => ({ dataset: { item: String(i.id), state: i.state } }) }),
  get('/schedules')]);
  if (pagedOn(el, per)) return;
  const d = q.daemon || {};
  const scheds = Array.isArray(s) ? s : (s.schedules || []);
  swap(el, h('h1', {}, 'Queue and schedules'),
    h('p', {}, 'Daemon ', badge(d.live ? 'live' : 'not running', d.live ? 'v-good' : 'v-bad'), ` ${d.owner || ''} · since `, time(d.started),
      ' · heartbeat ', time(d.last_heartbeat), d.stopping ? ' · stopping' : ''),
    h('section', { 'aria-labelledby': 'q-i' }, h('h2', { id: 'q-i' }, 'Items'), items),
    h('section', { 'aria-labelledby': 'q-s' }, h('h2', { id: 'q-s' }, `Schedules (${scheds.length})`),
      table([
        { label: 'Name', get: (x) => x.name },
        { label: 'Cron', get: (x) => x.cron, cell: (x) => h('code', {}, x.cron) },
        { label: 'Zone', get: (x) => x.tz },
        { label: 'Next', get: (x) => x.next, cell: (x) => time(x.next) },
        { label: 'Last fired', get: (x) => x.last_fired, cell: (x) => time(x.last_fired) },
        { label: 'Links', get: (x) => x.links || 'all' },
        { label: 'Enabled', get: (x) => (x.enabled ? 'yes' : 'no') },
      ], scheds, { caption: 'schedules' })));
}

export async function render(el, args, query) {
  const per = perPage(query, 50);
  await build(el, per);
  const t = setInterval(() => {
    if (!pagedOn(el, per)) build(el, per).catch((e) => console.warn(e));
  }, 5000);
  return () => clearInterval(t);
}
