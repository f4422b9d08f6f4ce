// dashboard.mjs: the dashboard in headless Chromium (Debian's, at
// /usr/bin/chromium, driven by playwright-core from web/node_modules)
// against a live `labrat serve` on loopback over a real nightly store.
//   node tests/browser/dashboard.mjs URL SHOTDIR
// URL is the daemon's origin (http://127.0.0.1:PORT); the page is URL/ui/.
// Checks: every view loads with no console error, no uncaught exception
// and no failed request; every request to anything but loopback is
// blocked and the page still loads; overview -> regression -> trend ->
// bisect -> run -> job, the numbers shown asserted against the API's own
// JSON (fetched here); the trend's culprit marker at the bisect's culprit
// revision, between the nights around it; a screenshot of each view at
// 1280x800 and 390x844 in SHOTDIR with nothing overflowing horizontally.
// Prints the page's transfer size (gzip) and the trend's time to render.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { createRequire } from 'node:module';

const [origin, shots, mode] = process.argv.slice(2);
const here = path.dirname(new URL(import.meta.url).pathname);
const webdir = path.resolve(here, '../../web');
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

function die(msg) { console.error(`dashboard.mjs: FAIL: ${msg}`); process.exit(1); }
let chromium;
try {
  chromium = createRequire(path.join(webdir, 'package.json'))('playwright-core').chromium;
} catch (e) {
  die(`playwright-core is not in ${webdir}/node_modules: run scripts/install-deps.sh (npm ci --prefix web) (${e.message})`);
}
if (!fs.existsSync(CHROMIUM)) die(`${CHROMIUM} is missing: install Debian's chromium (scripts/install-deps.sh)`);
fs.mkdirSync(shots, { recursive: true });

let checks = 0;
function ok(cond, msg) { if (!cond) die(msg); checks++; }
async function api(p) {
  const r = await fetch(`${origin}/api/v1${p}`);
  if (!r.ok) die(`GET /api/v1${p}: HTTP ${r.status}`);
  return (r.headers.get('content-type') || '').includes('json') ? r.json() : r.text();
}

// Endpoints of IFACE-14b that this daemon may not have yet: the page asks
// and falls back (a 404 there is expected, and only there).
const missing = [];
for (const p of ['/series/keys', '/hosts/em/health']) {
  const r = await fetch(`${origin}/api/v1${p}`, process.env.DASH_RW ? { headers: { Authorization: `Bearer ${process.env.DASH_RW}` } } : {});
  if (r.status === 404 && /no such|not found/i.test(await r.text())) missing.push(p.replace('/em/', '/'));
}
const expected404 = (u) => missing.some((m) => (m === '/series/keys' ? /\/api\/v1\/series(\/keys)?\?/.test(u) : /\/api\/v1\/hosts\/[^/]+\/health/.test(u)));
if (missing.length) console.log(`dashboard.mjs: this daemon lacks ${missing.join(', ')}: the page's fallbacks are tested`);

const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox', '--disable-gpu', '--no-first-run'] });
const ctx = await browser.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
const problems = [], blocked = [], uiUrls = new Set();
// Replies a step expects to fail ({status, re}); Chromium logs each 4xx
// as a console error too: those are counted out, one per reply.
let allowed = [];
const excused = new Map();
page.on('console', (m) => {
  if (m.type() !== 'error') return;
  const st = /status of (\d+)/.exec(m.text());
  if (st && (excused.get(Number(st[1])) || 0) > 0) { excused.set(Number(st[1]), excused.get(Number(st[1])) - 1); return; }
  problems.push(`console error: ${m.text()}`);
});
page.on('pageerror', (e) => problems.push(`uncaught: ${e.message}`));
page.on('requestfailed', (r) => { if (!blocked.includes(r.url())) problems.push(`request failed: ${r.url()} ${r.failure()?.errorText}`); });
page.on('response', (r) => {
  if ((r.status() === 404 && expected404(r.url())) || allowed.some((a) => a.status === r.status() && a.re.test(r.url()))) {
    excused.set(r.status(), (excused.get(r.status()) || 0) + 1);
  } else if (r.status() >= 400) problems.push(`HTTP ${r.status()}: ${r.url()}`);
  const u = new URL(r.url());
  if (u.pathname.startsWith('/ui/')) uiUrls.add(u.pathname);
});
// Nothing but loopback: every other request is aborted (and would fail the test).
await ctx.route('**/*', (route) => {
  const u = new URL(route.request().url());
  if (u.protocol === 'data:' || ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname)) return route.continue();
  blocked.push(u.href);
  return route.abort('blockedbyclient');
});

async function view(hash) {
  await page.goto(`${origin}/ui/${hash}`);
  await page.waitForSelector('main[data-state="ready"] .view', { timeout: 40000 });
  const err = await page.$('main .error');
  ok(!err, `${hash}: the view shows an error: ${err ? await err.textContent() : ''}`);
}
// A view shows no "null", "undefined", "NaN" or "[object" (but in raw output).
async function noJunk(where) {
  const junk = await page.evaluate(() => {
    const m = document.querySelector('main').cloneNode(true);
    m.querySelectorAll('pre').forEach((p) => p.remove());
    const t = m.textContent;
    return (/\bnull\b|\bundefined\b|\bNaN\b|\[object /.exec(t) || [null])[0];
  });
  ok(junk === null, `${where}: the view shows "${junk}"`);
}
function clean(where) {
  ok(problems.length === 0, `${where}: ${problems.join('; ')}`);
  ok(blocked.length === 0, `${where}: the page asked for non-loopback addresses: ${blocked.join(' ')}`);
}
async function shoot(name) {
  for (const [w, hgt] of [[1280, 800], [390, 844]]) {
    await page.setViewportSize({ width: w, height: hgt });
    await page.waitForTimeout(150);
    const o = await page.evaluate(() => ({ sw: document.scrollingElement.scrollWidth, iw: window.innerWidth }));
    ok(o.sw <= o.iw, `${name} at ${w}x${hgt}: the page overflows horizontally (scrollWidth ${o.sw} > ${o.iw})`);
    await page.screenshot({ path: path.join(shots, `${name}-${w}x${hgt}.png`), fullPage: false });
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

if (mode === '--session') {
  await sessionTest();
  await browser.close();
  console.log(`dashboard.mjs: session: ${checks} checks passed`);
  process.exit(0);
}

// Reads need a token here: the page asks once, then every request rides on
// the session cookie (HttpOnly); a read-only token's mutation is refused
// and the page says so; a token that may write puts em into maintenance.
async function sessionTest() {
  const RO = process.env.DASH_RO, RW = process.env.DASH_RW;
  ok(RO && RW, 'DASH_RO and DASH_RW (tokens) are not set');
  const bearer = { headers: { Authorization: `Bearer ${RW}` } };
  const st = await (await fetch(`${origin}/api/v1/status`, bearer)).json();
  ok(st.auth && st.auth.reads_open === false, `status.auth: ${JSON.stringify(st.auth)}, want reads_open false`);
  const unauth = await fetch(`${origin}/api/v1/hosts`);
  ok(unauth.status === 401, `GET /hosts without a token: ${unauth.status}, want 401`);
  allowed = [{ status: 401, re: /\/api\/v1\/status$/ }];
  await page.goto(`${origin}/ui/#/hosts`);
  await page.waitForSelector('#token-dialog[open]', { timeout: 10000 });
  await page.screenshot({ path: path.join(shots, 'signin-1280x800.png') });
  // a wrong token: refused in the dialog
  allowed.push({ status: 401, re: /\/api\/v1\/session$/ });
  await page.fill('#token-input', 'lrt_1_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA');
  await page.click('#token-ok');
  await page.waitForFunction(() => document.getElementById('token-error').textContent.length > 0);
  ok(await page.$('#token-dialog[open]'), 'a wrong token closed the dialog');
  await page.fill('#token-input', RO);
  await page.click('#token-ok');
  await page.waitForSelector('main[data-state="ready"] #v-hosts tr[data-link="em"]', { timeout: 15000 });
  clean('signed in read-only');
  ok(!(await page.evaluate(() => document.cookie)).includes('labrat_session'), 'the session cookie is readable by the page (not HttpOnly)');
  // read-only: refused, and said
  allowed.push({ status: 403, re: /\/maintenance$/ });
  page.once('dialog', (d) => d.accept('browser test'));
  await page.click('#v-hosts button.maint[data-link="em"]');
  await page.waitForSelector('#v-hosts .error');
  const said = await page.textContent('#v-hosts .error');
  ok(/read-only/.test(said), `the refusal says "${said}", not that the token is read-only`);
  // a token that may write
  await page.click('#signin');
  await page.waitForSelector('#token-dialog[open]');
  await page.fill('#token-input', RW);
  await page.click('#token-ok');
  await page.waitForSelector('main[data-state="ready"] #v-hosts button.maint[data-link="em"]');
  page.once('dialog', (d) => d.accept('browser test'));
  await page.click('#v-hosts button.maint[data-link="em"]');
  await page.waitForSelector('#v-hosts tr[data-link="em"][data-state="maintenance"]', { timeout: 15000 });
  const hosts = await (await fetch(`${origin}/api/v1/hosts`, bearer)).json();
  ok(hosts.links.find((l) => l.link === 'em').state === 'maintenance', 'the API does not say em is in maintenance');
  // a reload keeps the session: no dialog, the view loads
  await page.reload();
  await page.waitForSelector('main[data-state="ready"] #v-hosts tr[data-link="em"]');
  ok(!(await page.$('#token-dialog[open]')), 'a reload asked for the token again');
  clean('session');
  await page.screenshot({ path: path.join(shots, 'hosts-maintenance-1280x800.png') });
}

// ---- the API's own view of the store -----------------------------------
const nights = (await api('/nights?limit=50')).nights;
const bisects = (await api('/bisects')).bisects;
ok(nights.length >= 4, `the store has ${nights.length} nights, want >= 4`);
const bis = bisects.find((b) => b.culprit);
ok(bis, 'the store has no bisect with a culprit');
const bstat = await api(`/bisects/${bis.id}`);
const regNight = nights.slice().reverse().find((n) => (n.verdicts || []).some((v) => v.verdict === 'regression'));
ok(regNight, 'no night found a regression');
const reg = regNight.verdicts.find((v) => v.verdict === 'regression');

// ---- every view loads ----------------------------------------------------
const t0 = Date.now();
await view('#/overview');
const tOverview = Date.now() - t0;
clean('overview');
await noJunk('overview');
ok((await page.textContent('main')).includes(`${reg.link} ${reg.knobs}`), `overview does not name the regression ${reg.link} ${reg.knobs}`);
await shoot('overview');

// overview -> regression
await page.click(`a.regression[data-link="${reg.link}"][data-knobs="${reg.knobs}"]`);
const tt = Date.now();
await page.waitForSelector('#trend-graph[data-ready="1"]', { timeout: 20000 });
const tTrend = Date.now() - tt;
const trendUrl = page.url().slice(page.url().indexOf('#'));
clean('trend');
await noJunk('trend');
ok(page.url().includes('#/trend?') && page.url().includes(`link=${reg.link}`), `the regression link went to ${page.url()}`);
const mark = await page.$('#trend-graph .mark[data-kind="culprit"]');
ok(mark, 'the trend graph has no culprit marker');
const mrev = await mark.getAttribute('data-revision');
ok(mrev === bis.culprit, `culprit marker at ${mrev}, the bisect says ${bis.culprit}`);
// between the points of the bisect's good and bad revision, on screen
const px = await page.evaluate(() => {
  const m = document.querySelector('#trend-graph .mark[data-kind="culprit"]');
  return { left: parseFloat(m.style.left), width: document.querySelector('#trend-graph .u-over').clientWidth };
});
ok(px.left > 0 && px.left < px.width, `culprit marker at ${px.left}px, outside the plot (0..${px.width})`);
const rows = await page.$$eval('#v-trend tbody tr', (trs) => trs.map((t) => t.dataset.revision));
ok(rows.includes(bstat.good) && rows.includes(bstat.bad), `trend points ${rows} lack ${bstat.good} or ${bstat.bad}`);
// the points shown are the API's (GET /series when the daemon has it)
if (!missing.includes('/series/keys')) {
  const q = new URLSearchParams({ link: reg.link, knobs: reg.knobs, workload: reg.workload, metric: reg.metric, limit: '500' });
  const ser = await api(`/series?${q}`);
  const nightly = ser.points.filter((p) => p.night !== null);
  const shownPts = await page.$$eval('#v-trend tbody tr', (trs) => trs.map((t) => [Number(t.dataset.run), Number(t.dataset.median)]));
  ok(shownPts.length === nightly.length, `trend shows ${shownPts.length} points, the API has ${nightly.length} nights`);
  for (const p of nightly) ok(shownPts.some(([r, m]) => r === p.run && Math.abs(m - p.median) < 1e-6), `trend lacks run ${p.run} median ${p.median}`);
  ok(ser.marks.some((m) => m.kind === 'culprit' && m.revision === bis.culprit), 'GET /series has no culprit mark');
}
const regMark = await page.$(`#trend-graph .mark[data-kind="regression"]`);
ok(regMark, 'the trend graph has no regression marker');
// hovering a night shows its revision, commit message, n and median (the
// API's point; the message where the bisect's revisions know it)
{
  const q = new URLSearchParams({ link: reg.link, knobs: reg.knobs, workload: reg.workload, metric: reg.metric, limit: '500' });
  const ser = missing.includes('/series/keys') ? null : await api(`/series?${q}`);
  // a night alone at its revision (the cursor takes the first point at an x)
  const nightly = ser ? ser.points.filter((p) => p.night !== null) : [];
  const target = nightly.find((p) => p.message && nightly.filter((q) => q.revision === p.revision).length === 1);
  ok(!ser || target, 'GET /series has no night with a commit message (the bisect spans nights 2 and 3)');
  if (target) {
    const at = await page.evaluate((run) => {
      const g = document.querySelector('#trend-graph'), u = g.plot;
      const rows = [...document.querySelectorAll('#v-trend tbody tr')].map((t) => Number(t.dataset.run)).reverse();
      const i = rows.indexOf(run);
      return { left: u.valToPos(u.data[0][i], 'x'), top: u.valToPos(u.data[1][i], 'y') };
    }, target.run);
    const box = await (await page.$('#trend-graph .u-over')).boundingBox();
    await page.mouse.move(box.x + at.left, box.y + at.top);
    await page.waitForFunction((run) => document.querySelector('#trend-hover').dataset.run === String(run), target.run, { timeout: 5000 });
    const hv = await page.evaluate(() => ({ ...document.querySelector('#trend-hover').dataset, text: document.querySelector('#trend-hover').textContent }));
    ok(hv.revision === target.revision && hv.message === target.message && Number(hv.n) === target.n && Math.abs(Number(hv.median) - target.median) < 1e-6,
      `hover: ${JSON.stringify(hv)}, the API's point ${JSON.stringify({ revision: target.revision, message: target.message, n: target.n, median: target.median })}`);
    ok(hv.text.includes(target.message) && hv.text.includes(`n ${target.n}`) && hv.text.includes(target.revision), `hover text: ${hv.text}`);
  }
}
await shoot('trend');
// x by date still draws the culprit
await page.click('#trend-x');
await page.waitForSelector('#trend-graph[data-ready="1"]');
ok(await page.$('#trend-graph .mark[data-kind="culprit"]'), 'x by date: no culprit marker');
await page.goBack();
await page.waitForSelector('#trend-graph[data-ready="1"]');
ok(!page.url().includes('x=date'), `back button: still at ${page.url()}`);

// drag across the whole graph: "bisect this range" offers the first and
// last night's revisions
{
  const box = await (await page.$('#trend-graph .u-over')).boundingBox();
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 5 });
  await page.mouse.up();
  const href = await page.getAttribute('#trend-bisect', 'href');
  const revsShown = (await page.$$eval('#v-trend tbody tr', (trs) => trs.map((t) => t.dataset.revision))).sort();
  ok(href && href.includes(`good=${revsShown[0]}`) && href.includes(`bad=${revsShown[revsShown.length - 1]}`),
    `bisect this range: ${href}, want good=${revsShown[0]} bad=${revsShown[revsShown.length - 1]}`);
  await page.click('#trend-bisect');
  await page.waitForSelector('#bisect-new');
  ok((await page.inputValue('#bn-good')) === revsShown[0] && (await page.inputValue('#bn-link')) === reg.link, 'the bisect form is not filled in from the range');
  await page.goBack();
  await page.waitForSelector('#trend-graph[data-ready="1"]');
  // the same range's two revisions compared: every run that measured each
  // (nights and bisect steps) pooled, as GET /series has them
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await page.mouse.down();
  await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 8 });
  await page.mouse.up();
  await page.click('#trend-compare');
  await page.waitForSelector('main[data-state="ready"] #compare-table');
  clean('compare revisions');
  await noJunk('compare revisions');
  const [ra, rb] = [revsShown[0], revsShown[revsShown.length - 1]];
  const q = new URLSearchParams({ link: reg.link, knobs: reg.knobs, workload: reg.workload, metric: reg.metric, limit: '500', samples: '1' });
  const all = (await api(`/series?${q}`)).points;
  for (const [side, rev] of [['a', ra], ['b', rb]]) {
    const ps = all.filter((p) => p.revision === rev);
    const vals = ps.flatMap((p) => p.samples).sort((x, y) => x - y);
    const row = await page.$eval(`#compare-table tr[data-side="${side}"]`, (t) => ({ ...t.dataset }));
    const mid = (vals[(vals.length - 1) >> 1] + vals[vals.length >> 1]) / 2;
    ok(Number(row.n) === vals.length && Math.abs(Number(row.median) - mid) < 1e-6,
      `compare ${rev}: n ${row.n} median ${row.median}, the API's samples: n ${vals.length} median ${mid}`);
    const dots = await page.$$eval(`#compare-table .box[data-side="${side}"] .dot`, (d) => d.map((x) => Number(x.dataset.value)).sort((x, y) => x - y));
    ok(dots.length === vals.length && dots.every((v, i) => Math.abs(v - vals[i]) < 1e-6), `compare ${rev}: the distribution plot's dots are not the samples`);
  }
  ok(await page.$('#compare-table tr.diff[data-proven="1"]'), `compare ${ra} and ${rb}: no difference proven across the regression`);
  await shoot('compare-revisions');
  await page.goBack();
  await page.waitForSelector('#trend-graph[data-ready="1"]');
}

// a second series on the graph (TSO off beside TSO on), then back
const other = reg.knobs.replace(/tso=on/, 'tso=off');
if (other !== reg.knobs && await page.$(`#trend-with option[value="${other}"]`)) {
  await page.selectOption('#trend-with', other);
  await page.waitForSelector('#trend-graph[data-ready="1"][data-series="2"]');
  ok(decodeURIComponent(page.url()).includes(`with=${other}`), `add a series: URL ${page.url()}`);
  clean('trend with two series');
  await page.goBack();
  await page.waitForSelector('#trend-graph[data-ready="1"][data-series="1"]');
}

// trend -> bisect
await page.click(`.marks a[href="#/bisect/${bis.id}"]`);
await page.waitForSelector('#bisect-culprit');
clean('bisect');
await noJunk('bisect');
ok((await page.getAttribute('#bisect-culprit', 'data-revision')) === bstat.culprit.id, 'bisect view: wrong culprit');
ok((await page.textContent('#bisect-culprit')).includes(bstat.culprit.message), 'bisect view: no culprit message');
const ratios = await page.$$eval('#v-bisect [data-ratio]', (s) => s.map((x) => Number(x.dataset.ratio)));
ok(ratios.length === bstat.evidence.length && ratios.every((r, i) => Math.abs(r - bstat.evidence[i].ratio) < 1e-9),
  `bisect steps ${ratios} != API ${bstat.evidence.map((e) => e.ratio)}`);
ok(await page.$('#bisect-graph .u-over'), 'bisect: no ratio graph');
ok(typeof bstat.threshold === 'number', `GET /bisects/${bis.id} has no threshold`);
ok(Number(await page.getAttribute('#bisect-graph', 'data-threshold')) === bstat.threshold,
  `the ratio graph's threshold is ${await page.getAttribute('#bisect-graph', 'data-threshold')}, the bisect's ${bstat.threshold}`);
ok((await page.textContent('#bisect-judging')).includes(String(bstat.threshold)), 'the bisect view does not say its threshold');
await shoot('bisect');

// bisect -> run (the bad check's run)
const step = bstat.evidence.find((e) => e.verdict === 'bad' && e.run);
await page.click(`tr[data-seq="${step.seq}"] a.step-run`);
await page.waitForSelector('#v-run');
clean('run');
await noJunk('run');
const rep = await api(`/runs/${step.run}/report`);
const shown = await page.$$eval('#v-run table.heat a.cell', (as) => as.map((a) => [a.dataset.knobs, Number(a.dataset.median)]));
const want = rep.series.filter((s) => s.link === bis.link);
for (const s of want) {
  ok(shown.some(([k, m]) => k === s.knobs && Math.abs(m - s.median) < 1e-6), `run ${step.run}: heatmap lacks ${s.link} ${s.knobs} median ${s.median}`);
}
const ncomp = (rep.comparisons || []).length + ((rep.baseline && rep.baseline.comparisons) || []).length;
const trs = await page.$$eval('#v-run tr[data-verdict]', (t) => t.length);
ok(trs === ncomp, `run ${step.run}: ${trs} comparison rows, the report has ${ncomp}`);
await shoot('run');

// run -> job
const jobs = (await api(`/runs/${step.run}/jobs?limit=500`)).jobs;
const job = jobs.find((j) => j.link === bis.link && j.state === 'done');
await page.click(`a.job[href="#/job/${job.id}"]`);
await page.waitForSelector('#v-job');
clean('job');
await noJunk('job');
const js = await api(`/jobs/${job.id}/samples`);
const tput = js.samples.find((s) => s.metric === 'throughput_bps' && s.interval === 0);
const got = await page.getAttribute('#v-job [data-metric="throughput_bps"]', 'data-value');
ok(Math.abs(Number(got) - tput.value) < 1e-6, `job ${job.id}: throughput ${got}, the API says ${tput.value}`);
ok((await page.textContent('#v-job')).includes(`${(tput.value / 1e6).toFixed(1)} Mbit/s`), `job ${job.id}: no ${(tput.value / 1e6).toFixed(1)} Mbit/s shown`);
await shoot('job');

// the other views
for (const [name, hash] of [['hosts', '#/hosts'], ['queue', '#/queue'], ['runs', '#/runs'], ['bisects', '#/bisects'], ['compare', `#/compare/${nights[1].run}/${nights[0].run}`]]) {
  await view(hash);
  clean(name);
  await noJunk(name);
  await shoot(name);
}
// compare two runs: each side's n and median are its run's point of the
// series (GET /series), every sample a dot
{
  const [a, b] = [nights[1].run, nights[0].run];
  const rowsShown = await page.$$eval('#compare-table tr[data-side]', (t) => t.map((r) => ({ ...r.dataset })));
  ok(rowsShown.length >= 2, `compare ${a} ${b}: ${rowsShown.length} rows`);
  const rq = new URLSearchParams({ link: reg.link, knobs: reg.knobs, workload: reg.workload, metric: reg.metric, limit: '500', samples: '1' });
  const pts = (await api(`/series?${rq}`)).points;
  const name = `${reg.link} ${reg.knobs} ${reg.metric}`;
  for (const [side, run] of [['a', a], ['b', b]]) {
    const p = pts.find((x) => x.run === run);
    const r = rowsShown.find((x) => x.series === name && x.side === side);
    ok(p && r && Number(r.n) === p.n && Math.abs(Number(r.median) - p.median) < 1e-6, `compare: run ${run} ${name}: shown ${JSON.stringify(r)}, API ${p && p.n} ${p && p.median}`);
  }
  ok((await page.textContent('#compare-text')).includes('No difference proven') || (await page.textContent('#compare-text')).includes('Difference at'), 'compare: no labrat compare text');
}

// long lists page through the API's cursor: runs 5 at a time, nights 2,
// the queue 1
{
  const want = (await api('/runs?limit=10')).runs.map((r) => r.id);
  await view('#/runs?per=5');
  const ids = async () => page.$$eval('#v-runs tr[data-run]', (t) => t.map((r) => Number(r.dataset.run)));
  ok(JSON.stringify(await ids()) === JSON.stringify(want.slice(0, 5)), `runs page 1: ${await ids()}, API ${want.slice(0, 5)}`);
  await page.click('button.more[data-list="runs"]');
  await page.waitForFunction(() => document.querySelectorAll('#v-runs tr[data-run]').length > 5);
  ok(JSON.stringify(await ids()) === JSON.stringify(want.slice(0, 10)), `runs after More: ${await ids()}, API ${want}`);
  await view('#/overview?per=2');
  const nid = async () => page.$$eval('#v-overview tr[data-night]', (t) => t.map((r) => Number(r.dataset.night)));
  ok((await nid()).length === 2, `overview?per=2: ${await nid()}`);
  while (await page.$('.paged[data-list="nights"] .pager[data-more="1"]')) {
    const n = (await nid()).length;
    await page.click('button.more[data-list="nights"]');
    await page.waitForFunction((k) => document.querySelectorAll('#v-overview tr[data-night]').length > k, n);
  }
  ok(JSON.stringify(await nid()) === JSON.stringify(nights.map((n) => n.id)), `overview nights after More: ${await nid()}, API ${nights.map((n) => n.id)}`);
  await view('#/bisects?per=1');
  ok((await page.$$('#v-bisects tr[data-bisect]')).length === Math.min(1, bisects.length), 'bisects?per=1');
  // the queue one item at a time: every item the API has, in its order
  const qall = (await api('/queue?limit=500')).items.map((i) => i.id);
  ok(qall.length >= 2, `the store's queue has ${qall.length} items: too few to page`);
  await view('#/queue?per=1');
  const qid = async () => page.$$eval('#v-queue tr[data-item]', (t) => t.map((r) => Number(r.dataset.item)));
  ok(JSON.stringify(await qid()) === JSON.stringify(qall.slice(0, 1)), `queue?per=1: ${await qid()}, API ${qall.slice(0, 1)}`);
  while (await page.$('.paged[data-list="queue"] .pager[data-more="1"]')) {
    const n = (await qid()).length;
    await page.click('button.more[data-list="queue"]');
    await page.waitForFunction((k) => document.querySelectorAll('#v-queue tr[data-item]').length > k, n);
  }
  ok(JSON.stringify(await qid()) === JSON.stringify(qall), `queue after More: ${await qid()}, API ${qall}`);
  clean('paging');
}

// live: a running run and a running bisect are fetched again every 5 s
// until they end (the daemon's reply with its state made "running" by the
// browser's route, then the real one again)
for (const [what, hash, re, sel] of [['run', `#/run/${step.run}`, new RegExp(`/api/v1/runs/${step.run}$`), '#v-run'], ['bisect', `#/bisect/${bis.id}`, new RegExp(`/api/v1/bisects/${bis.id}$`), '#v-bisect']]) {
  let hits = 0;
  const patch = async (route) => {
    hits++;
    const r = await route.fetch();
    const j = await r.json();
    j.state = 'running';
    await route.fulfill({ response: r, json: j });
  };
  await page.route(re, patch);
  await view(hash);
  ok(await page.$(`${sel}[data-state="running"] .live`), `${what}: a running ${what} does not say it refreshes`);
  await page.waitForFunction((s) => Number(document.querySelector(s).dataset.builds) >= 2, sel, { timeout: 12000 });
  ok(hits >= 2, `${what}: fetched ${hits} times while running`);
  await page.unroute(re, patch);
  await page.waitForSelector(`${sel}:not([data-state="running"])`, { timeout: 12000 });
  ok(!(await page.$(`${sel} .live`)), `${what}: still says it refreshes after it ended`);
  const builds = Number(await page.getAttribute(sel, 'data-builds'));
  await page.waitForTimeout(6000);
  ok(Number(await page.getAttribute(sel, 'data-builds')) === builds, `${what}: still polled after it ended`);
  clean(`live ${what}`);
}
const hosts = await api('/hosts');
for (const l of hosts.links) ok(await page.$(`#v-hosts tr[data-link="${l.link}"][data-state="${l.state}"]`) || true, 'hosts');
await view('#/hosts');
for (const l of hosts.links) ok(await page.$(`#v-hosts tr[data-link="${l.link}"][data-state="${l.state}"]`), `hosts: no row for ${l.link} ${l.state}`);

// dark mode (prefers-color-scheme): a dark page, the graph drawn
await page.emulateMedia({ colorScheme: 'dark' });
await view(trendUrl);
await page.waitForSelector('#trend-graph[data-ready="1"]');
const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
const lum = bg.match(/\d+/g).slice(0, 3).reduce((a, b) => a + Number(b), 0);
ok(lum < 200, `dark mode: the page's background is ${bg}`);
clean('dark');
await page.screenshot({ path: path.join(shots, 'trend-dark-1280x800.png') });
await page.emulateMedia({ colorScheme: 'light' });

// keyboard: Tab reaches the navigation, Enter follows it; a sort button too
await view('#/hosts');
await page.reload();
await page.waitForSelector('main[data-state="ready"] #v-hosts');
let seen = [];
for (let i = 0; i < 10; i++) {
  await page.keyboard.press('Tab');
  const a = await page.evaluate(() => { const e = document.activeElement; return e ? `${e.tagName}:${e.getAttribute('href') || e.textContent}` : ''; });
  seen.push(a);
  if (a === 'A:#/queue') break;
}
ok(seen[seen.length - 1] === 'A:#/queue', `Tab never reached the Queue link: ${seen.join(' ')}`);
await page.keyboard.press('Enter');
await page.waitForSelector('main[data-state="ready"] #v-queue');
ok(page.url().endsWith('#/queue'), `Enter on the Queue link went to ${page.url()}`);
const sortBtn = await page.$('#v-queue button.sort');
await sortBtn.focus();
await page.keyboard.press('Enter');
ok(await page.$('#v-queue th[aria-sort="ascending"]'), 'Enter on a sort button does not sort');
clean('keyboard');

// ---- figures --------------------------------------------------------------
function gzipSize(p) {
  return new Promise((resolve, reject) => {
    http.get(`${origin}${p}`, { headers: { 'Accept-Encoding': 'gzip' } }, (r) => {
      let n = 0;
      r.on('data', (c) => { n += c.length; });
      r.on('end', () => resolve({ n, enc: r.headers['content-encoding'] || 'identity' }));
    }).on('error', reject);
  });
}
let total = 0;
const sizes = [];
for (const p of [...uiUrls].sort()) {
  const s = await gzipSize(p);
  total += s.n;
  sizes.push(`${p} ${s.n} B ${s.enc}`);
}
console.log(`dashboard.mjs: /ui/ transfer: ${total} B in ${uiUrls.size} files (${sizes.join(', ')})`);
console.log(`dashboard.mjs: overview ready in ${tOverview} ms (cold load), trend graph drawn ${tTrend} ms after the click`);
await browser.close();
console.log(`dashboard.mjs: ${checks} checks passed, screenshots in ${shots}`);
