// demo.mjs ORIGIN: the dashboard `labrat demo --nightly --keep` leaves
// running shows the demo's results (tests/integration/demo_dashboard.sh):
// in headless Chromium (playwright-core from web/node_modules), with
// nothing off loopback, no console error and no failed request, the
// overview lists every night of GET /api/v1/nights and the em regression
// with its bisect and culprit; the bisect view shows the culprit; the
// newest night's run view shows its report's series.
import path from 'node:path';
import { createRequire } from 'node:module';

const [origin] = process.argv.slice(2);
const web = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
const { chromium } = createRequire(path.join(web, 'package.json'))('playwright-core');
function die(msg) { console.error(`demo.mjs: FAIL: ${msg}`); process.exit(1); }
const api = async (p) => (await fetch(`${origin}/api/v1${p}`)).json();

const nights = (await api('/nights')).nights;
const bisect = (await api('/bisects')).bisects.find((b) => b.link === 'em' && b.culprit);
if (!bisect) die('no em bisect with a culprit in GET /bisects');

const b = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
const ctx = await b.newContext({ viewport: { width: 1280, height: 800 } });
const page = await ctx.newPage();
const problems = [];
page.on('console', (m) => { if (m.type() === 'error') problems.push(m.text()); });
page.on('pageerror', (e) => problems.push(e.message));
page.on('requestfailed', (r) => problems.push(`${r.url()} ${r.failure()?.errorText}`));
page.on('response', (r) => { if (r.status() >= 400) problems.push(`HTTP ${r.status()} ${r.url()}`); });
await ctx.route('**/*', (route) => {
  const u = new URL(route.request().url());
  if (['127.0.0.1', 'localhost'].includes(u.hostname) || u.protocol === 'data:') return route.continue();
  problems.push(`off loopback: ${u.href}`);
  return route.abort('blockedbyclient');
});
const ready = (sel) => page.waitForSelector(`main[data-state="ready"] ${sel}`, { timeout: 20000 });

await page.goto(`${origin}/ui/`);
await ready('#v-overview');
const shown = await page.$$eval('#v-overview tr[data-night]', (t) => t.map((r) => Number(r.dataset.night)));
for (const n of nights) if (!shown.includes(n.id)) die(`the overview lacks night ${n.id} (shows ${shown})`);
const reg = await page.$(`a.regression[data-link="em"]`);
if (!reg) die('the overview names no em regression');
const row = await page.$eval('a.regression[data-link="em"]', (a) => a.closest('tr').textContent);
if (!row.includes(`bisect ${bisect.id}`) || !row.includes(bisect.culprit)) die(`the regression row does not name bisect ${bisect.id} and ${bisect.culprit}: ${row}`);

await page.goto(`${origin}/ui/#/bisect/${bisect.id}`);
await ready('#bisect-culprit');
const culprit = await page.getAttribute('#bisect-culprit', 'data-revision');
if (culprit !== bisect.culprit) die(`the bisect view's culprit is ${culprit}, the API's ${bisect.culprit}`);

const last = nights.find((n) => n.run);
const rep = await api(`/runs/${last.run}/report`);
await page.goto(`${origin}/ui/#/run/${last.run}`);
await ready('#v-run');
const cells = await page.$$eval('#v-run table.heat a.cell', (as) => as.map((a) => a.dataset.knobs));
for (const s of rep.series) if (!cells.includes(s.knobs)) die(`run ${last.run}: the heatmap lacks ${s.link} ${s.knobs}`);
if (problems.length) die(problems.join('; '));
await b.close();
console.log(`demo.mjs: ok (${nights.length} nights, bisect ${bisect.id} -> ${bisect.culprit}, run ${last.run})`);
