// Queue and schedules: the daemon (live, heartbeat), what runs now, what
// is queued and what ended, and the schedules with their next firing.
// Polls every 5 s.
import { get, h, table, time, badge } from '../api.js';
import { swap } from '../api.js';

async function build(el) {
  const [q, s] = await Promise.all([get('/queue?limit=100'), get('/schedules')]);
  const d = q.daemon || {};
  const items = q.items || [];
  const scheds = Array.isArray(s) ? s : (s.schedules || []);
  const link = (i) => (i.run ? h('a', { href: `#/run/${i.run}` }, `run ${i.run}`) : i.bisect ? h('a', { href: `#/bisect/${i.bisect}` }, `bisect ${i.bisect}`) : '–');
  swap(el, h('h1', {}, 'Queue and schedules'),
    h('p', {}, 'Daemon ', badge(d.live ? 'live' : 'not running', d.live ? 'v-good' : 'v-bad'), ` ${d.owner || ''} · since `, time(d.started),
      ' · heartbeat ', time(d.last_heartbeat), d.stopping ? ' · stopping' : ''),
    h('section', { 'aria-labelledby': 'q-i' }, h('h2', { id: 'q-i' }, `Items (${items.length})`),
      table([
        { label: 'Item', num: true, get: (i) => i.id },
        { label: 'Kind', get: (i) => i.kind },
        { label: 'State', get: (i) => i.state, cell: (i) => badge(i.state, i.state === 'running' || i.state === 'queued' ? 'v-warn' : undefined) },
        { label: 'Who', get: (i) => i.who },
        { label: 'Queued', get: (i) => i.enqueued, cell: (i) => time(i.enqueued) },
        { label: 'Started', get: (i) => i.started, cell: (i) => time(i.started) },
        { label: 'Finished', get: (i) => i.finished, cell: (i) => time(i.finished) },
        { label: 'Result', get: (i) => i.result },
        { label: 'Work', get: (i) => i.run || i.bisect || 0, cell: link },
      ], items, { caption: 'queue items', filter: true })),
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

export async function render(el) {
  await build(el);
  const t = setInterval(() => build(el).catch((e) => console.warn(e)), 5000);
  return () => clearInterval(t);
}
