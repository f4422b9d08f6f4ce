// uiserve.mjs: a stand-in for labrat serve's /ui/ while the daemon of this
// tree does not serve static files yet (tests/integration/dashboard.sh uses
// it only when GET /ui/ on the daemon is 404). It serves web/ under /ui/
// (uPlot from web/node_modules/uplot/dist/ as /ui/vendor/), with the same
// Content-Security-Policy the daemon sends, and passes /api/ on to the
// daemon at API (loopback). Usage: node uiserve.mjs WEBDIR PORT API_PORT
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const [webdir, port, apiPort] = process.argv.slice(2);
const CSP = "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; connect-src 'self'; frame-ancestors 'none'";
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.json': 'application/json' };

function file(p) {
  if (p === '/ui/' || p === '/ui') return path.join(webdir, 'index.html');
  if (p.startsWith('/ui/vendor/')) {
    const f = path.basename(p);
    return ['uPlot.iife.min.js', 'uPlot.min.css'].includes(f) ? path.join(webdir, 'node_modules/uplot/dist', f) : null;
  }
  const rel = path.normalize(p.slice(4));
  if (rel.startsWith('..') || rel.includes('node_modules')) return null;
  return path.join(webdir, rel);
}

http.createServer((req, res) => {
  const u = new URL(req.url, 'http://x');
  if (u.pathname.startsWith('/api/')) {
    const up = http.request({ host: '127.0.0.1', port: apiPort, path: req.url, method: req.method, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode, r.headers);
      r.pipe(res);
    });
    up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
    req.pipe(up);
    return;
  }
  if (u.pathname === '/') { res.writeHead(302, { Location: '/ui/' }); res.end(); return; }
  const f = u.pathname.startsWith('/ui') ? file(u.pathname) : null;
  if (!f || !fs.existsSync(f) || !fs.statSync(f).isFile()) { res.writeHead(404); res.end('not found'); return; }
  let body = fs.readFileSync(f);
  const headers = { 'Content-Type': types[path.extname(f)] || 'application/octet-stream', 'Content-Security-Policy': CSP,
    'X-Content-Type-Options': 'nosniff', 'Cache-Control': 'no-cache' };
  if (/\bgzip\b/.test(req.headers['accept-encoding'] || '')) { body = zlib.gzipSync(body, { level: 9 }); headers['Content-Encoding'] = 'gzip'; }
  headers['Content-Length'] = body.length;
  res.writeHead(200, headers);
  res.end(body);
}).listen(Number(port), '127.0.0.1', () => console.log(`uiserve: listening on http://127.0.0.1:${port}`));
