// trend_year.mjs ORIGIN [rev|date] [N]: the trend view's time to first
// render, a fresh browser context each time (no cache), against a daemon
// over a store made by year_store.py: prints, per load, the time from
// navigation to the drawn graph and the view's own time (route start to
// uPlot drawn, which includes GET /series/keys and /series). Not part of
// the suite (README Dashboard quotes its figures).
import path from 'node:path';
import { createRequire } from 'node:module';

const [origin, x = 'rev', n = '5'] = process.argv.slice(2);
const web = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../web');
const { chromium } = createRequire(path.join(web, 'package.json'))('playwright-core');
const b = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox'] });
const url = `${origin}/ui/#/trend?${new URLSearchParams({ link: 'em', knobs: 'mtu=9000,tso=on',
  workload: 'iperf3:len=128k,nodelay=on,parallel=1,time=1', metric: 'throughput_bps', x })}`;
const all = [];
for (let i = 0; i < Number(n); i++) {
  const ctx = await b.newContext({ viewport: { width: 1280, height: 800 } });
  const p = await ctx.newPage();
  const t0 = Date.now();
  await p.goto(url);
  await p.waitForSelector('#trend-graph[data-ready="1"]', { timeout: 60000 });
  const t = Date.now() - t0;
  const d = await p.evaluate(() => document.querySelector('#trend-graph').dataset);
  all.push(t);
  console.log(`trend_year: load ${i + 1}: ${t} ms to the drawn graph (view ${d.renderMs} ms, ${d.points} points)`);
  await ctx.close();
}
all.sort((a, b) => a - b);
console.log(`trend_year: median ${all[Math.floor(all.length / 2)]} ms, best ${all[0]} ms over ${all.length} loads`);
await b.close();
