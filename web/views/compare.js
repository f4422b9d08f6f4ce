// Compare: two runs side by side, a ministat-like table per series
// (n, min, q1, median, q3, max of each, the ratio of the medians) and a
// distribution plot (each run's min-q1-median-q3-max as a box).
import { get, h, fmtValue, fmtPct } from '../api.js';
import { put } from '../api.js';

export async function render(el, [a, b]) {
  const [ra, rb] = await Promise.all([get(`/runs/${a}/report`), get(`/runs/${b}/report`)]);
  const key = (s) => `${s.link}|${s.knobs}|${s.params}|${s.metric}`;
  const mb = new Map((rb.series || []).map((s) => [key(s), s]));
  const rows = (ra.series || []).filter((s) => mb.has(key(s))).map((s) => [s, mb.get(key(s))]);
  const lo = Math.min(...rows.flatMap(([x, y]) => [x.min, y.min])), hi = Math.max(...rows.flatMap(([x, y]) => [x.max, y.max]));
  const pos = (v) => `${(((v - lo) / (hi - lo || 1)) * 100).toFixed(2)}%`;
  const box = (s, cls) => {
    const d = h('div', { class: `box ${cls}`, title: `${fmtValue(s.min, s.unit)} .. ${fmtValue(s.max, s.unit)}` },
      h('span', { class: 'whisker' }), h('span', { class: 'iqr' }), h('span', { class: 'med' }));
    const [w, i, m] = d.children;
    w.style.left = pos(s.min); w.style.width = `calc(${pos(s.max)} - ${pos(s.min)})`;
    i.style.left = pos(s.q1); i.style.width = `calc(${pos(s.q3)} - ${pos(s.q1)})`;
    m.style.left = pos(s.median);
    return d;
  };
  put(el, h('h1', {}, `Compare run ${a} and run ${b}`),
    h('p', {}, h('a', { href: `#/run/${a}` }, `run ${a}`), ' (a) · ', h('a', { href: `#/run/${b}` }, `run ${b}`), ' (b)'),
    rows.length === 0 ? h('p', {}, 'No series in common.') :
      h('div', { class: 'scroll' }, h('table', { class: 'data', id: 'compare-table' },
        h('thead', {}, h('tr', {}, ['Series', 'Run', 'n', 'Min', 'Q1', 'Median', 'Q3', 'Max', 'b / a', 'Distribution'].map((x) => h('th', { scope: 'col' }, x)))),
        h('tbody', {}, rows.flatMap(([x, y]) => [
          h('tr', {}, h('th', { scope: 'row', rowspan: '2' }, `${x.link} ${x.knobs}`), h('td', {}, `a ${x.revision || ''}`),
            ...['n', 'min', 'q1', 'median', 'q3', 'max'].map((f) => h('td', { class: 'num' }, f === 'n' ? x.n : fmtValue(x[f], x.unit))),
            h('td', { class: 'num', rowspan: '2' }, fmtPct(y.median / x.median - 1)), h('td', { class: 'dist' }, box(x, 'a'))),
          h('tr', {}, h('td', {}, `b ${y.revision || ''}`),
            ...['n', 'min', 'q1', 'median', 'q3', 'max'].map((f) => h('td', { class: 'num' }, f === 'n' ? y.n : fmtValue(y[f], y.unit))),
            h('td', { class: 'dist' }, box(y, 'b'))),
        ])))));
}
