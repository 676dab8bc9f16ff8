// A development proxy: serves web/ from disk (so UI edits need no cargo rebuild) and forwards
// everything else, WebSockets included, to a running `rookery serve`.
//
//   node web/tests/dev-proxy.js http://127.0.0.1:8080 [port=8081]
//
// Development only: no caching, no TLS. The embedded assets (crates/server/src/assets.rs) are
// what production serves.

import { createServer, request } from 'node:http';
import { connect } from 'node:net';
import { readFile } from 'node:fs/promises';
import { join, normalize, extname, dirname } from 'node:path';
import { fileURLToPath } from 'node:url';

const WEB = join(dirname(fileURLToPath(import.meta.url)), '..');
const upstream = new URL(process.argv[2] || 'http://127.0.0.1:8080');
const port = Number(process.argv[3] || 8081);
const TYPES = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.css': 'text/css; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png' };
const PAGES = /^\/(lobby|leaderboard|login|signup|tournaments|tournaments\/[^/]+|game\/[^/]+|review\/[^/]+|@\/[^/]+)?$/;

async function serveFile(res, rel) {
  const path = normalize(join(WEB, rel));
  if (!path.startsWith(WEB) || rel.startsWith('tests/')) { res.writeHead(404); res.end(); return; }
  try {
    let body = await readFile(path);
    if (rel === 'index.html') body = Buffer.from(body.toString().replaceAll('{{ASSETS}}', '/assets/dev'));
    res.writeHead(200, { 'content-type': TYPES[extname(path)] || 'text/plain', 'cache-control': 'no-store' });
    res.end(body);
  } catch {
    res.writeHead(404);
    res.end();
  }
}

const server = createServer((req, res) => {
  const url = new URL(req.url, 'http://x');
  const asset = /^\/assets\/[^/]+\/(.+)$/.exec(url.pathname);
  if (asset) return serveFile(res, asset[1]);
  if (req.method === 'GET' && PAGES.test(url.pathname)) return serveFile(res, 'index.html');
  const up = request({ host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } }, (r) => {
    res.writeHead(r.statusCode, r.headers);
    r.pipe(res);
  });
  up.on('error', (e) => { res.writeHead(502); res.end(String(e)); });
  req.pipe(up);
});

server.on('upgrade', (req, socket, head) => {
  const up = connect(Number(upstream.port), upstream.hostname, () => {
    const headers = { ...req.headers, host: upstream.host, origin: `http://${upstream.host}` };
    up.write(`${req.method} ${req.url} HTTP/1.1\r\n${Object.entries(headers).map(([k, v]) => `${k}: ${v}`).join('\r\n')}\r\n\r\n`);
    up.write(head);
    up.pipe(socket);
    socket.pipe(up);
  });
  up.on('error', () => socket.destroy());
  socket.on('error', () => up.destroy());
});

server.listen(port, '127.0.0.1', () => console.log(`web/ from disk, API from ${upstream.href}: http://127.0.0.1:${port}/`));
