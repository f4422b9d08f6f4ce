// Bisects: every bisect, newest first (GET /api/v1/bisects, paged by its
// cursor; ?per=N sets the page size): link, knobs, the range, its state,
// threshold and culprit.
import { h, time, badge, pagedTable, pager, perPage } from '../api.js';
import { put } from '../api.js';

export async function render(el, args, q) {
  const list = await pagedTable('bisects', [
    { label: 'Bisect', num: true, get: (b) => b.id, cell: (b) => h('a', { href: `#/bisect/${b.id}` }, `bisect ${b.id}`) },
    { label: 'Link', get: (b) => b.link },
    { label: 'Knobs', get: (b) => b.knobs },
    { label: 'Metric', get: (b) => b.metric },
    { label: 'Range', get: (b) => `${b.good}..${b.bad}` },
    { label: 'State', get: (b) => b.state, cell: (b) => badge(b.state, b.state === 'running' || b.state === 'queued' ? 'v-warn' : undefined) },
    { label: 'Threshold', num: true, get: (b) => b.threshold ?? -1, cell: (b) => (typeof b.threshold === 'number' ? `${b.lower_is_better ? '≤' : '≥'} ${b.threshold}` : '–') },
    { label: 'Culprit', get: (b) => b.culprit || '', cell: (b) => (b.culprit ? h('code', {}, b.culprit) : '–') },
    { label: 'Created', get: (b) => b.created_ms, cell: (b) => time(b.created_ms) },
  ], pager('/bisects', 'bisects', perPage(q, 50)), { caption: 'bisects, newest first', filter: true, rowAttrs: (b) => ({ dataset: { bisect: String(b.id), state: b.state } }) });
  put(el, h('h1', {}, 'Bisects'), h('p', {}, h('a', { class: 'button', href: '#/bisect/new' }, 'start a bisect')), list);
}
