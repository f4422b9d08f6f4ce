// app.js: the router. The URL hash names the view and its arguments
// (#/overview, #/trend?link=..., #/run/42, #/job/4711, #/compare/41/42,
// #/bisect/3, #/hosts, #/queue, #/runs, #/bisects), so a URL pastes into a mail and the back
// button works. Each view module exports render(main, args, query) and may
// return a stop() function (timers of live views).
import { get, h, ApiError, askToken } from './api.js';
import * as overview from './views/overview.js';
import * as trend from './views/trend.js';
import * as run from './views/run.js';
import * as job from './views/job.js';
import * as bisect from './views/bisect.js';
import * as hosts from './views/hosts.js';
import * as queue from './views/queue.js';
import * as compare from './views/compare.js';
import * as runs from './views/runs.js';
import * as bisects from './views/bisects.js';

const views = { overview, trend, run, job, bisect, hosts, queue, compare, runs, bisects };
const main = document.getElementById('view');
let stop = null;
let seq = 0;

async function route() {
  const raw = location.hash.replace(/^#\/?/, '') || 'overview';
  const [path, qs] = raw.split('?');
  const [name, ...args] = path.split('/').filter(Boolean).map(decodeURIComponent);
  const view = views[name] || null;
  if (stop) { stop(); stop = null; }
  const mine = ++seq;
  document.querySelectorAll('nav [data-nav]').forEach((a) => {
    if (a.dataset.nav === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  });
  document.body.dataset.view = name || '';
  main.dataset.state = 'loading';
  main.replaceChildren(h('p', { class: 'muted' }, 'Loading…'));
  if (!view) {
    main.replaceChildren(h('h1', {}, 'Not found'), h('p', {}, `No view "${name}". `, h('a', { href: '#/overview' }, 'Overview')));
    main.dataset.state = 'ready';
    return;
  }
  const frag = h('div', { class: 'view', id: `v-${name}` });
  try {
    const s = await view.render(frag, args, new URLSearchParams(qs || ''));
    if (mine !== seq) { if (typeof s === 'function') s(); return; }
    stop = typeof s === 'function' ? s : null;
    main.replaceChildren(frag);
    if (view.mounted) view.mounted(frag);
  } catch (e) {
    if (mine !== seq) return;
    console.warn(e);
    main.replaceChildren(h('h1', {}, 'Error'), h('p', { class: 'error', role: 'alert' }, e instanceof ApiError ? e.message : String(e)));
  }
  main.dataset.state = 'ready';
  document.title = `labrat · ${frag.querySelector('h1')?.textContent || name}`;
}

async function start() {
  try {
    const st = await get('/status');
    if (st.auth && st.auth.reads_open === false && !sessionStorage.getItem('labrat.csrf')) {
      await askToken('This daemon needs a token for reads.').catch(() => {});
    }
    document.getElementById('who').dataset.version = `labrat ${st.version}`;
    if (!document.getElementById('who').textContent) document.getElementById('who').textContent = `labrat ${st.version}`;
  } catch (e) {
    console.warn(e);
  }
  document.getElementById('signin').addEventListener('click', () => {
    askToken('Sign in to change things (a token that may write) or to read where reads need a token.').then(route, () => {});
  });
  window.addEventListener('hashchange', route);
  route();
}

start();
