// Cold load of the lobby and of a game page on loopback (issue 38, "Proof"): bytes on the
// wire and time to a usable page (from navigation start, in the page's own clock), in a fresh
// browser context each run (no cache), against a real `rookery serve`. Each run is made twice
// in turn, once refusing compression (`Accept-Encoding: identity`, as the server was before it
// had any) and once as the browser asks. Prints rows for BENCHMARKS.md.
//
//   cargo build -p rookery && (cd web/tests && node coldload.js [runs])

import { startServer, launchBrowser } from './harness.js';

const runs = Number(process.argv[2] || 7);
const server = await startServer();
const browser = await launchBrowser();

/** One cold load of `path`: ms until `ready` is on screen, bytes and requests. */
async function load(path, ready, identity) {
  const context = await browser.newContext({ baseURL: server.base, extraHTTPHeaders: identity ? { 'accept-encoding': 'identity' } : {} });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  let bytes = 0;
  let requests = 0;
  cdp.on('Network.loadingFinished', (e) => { bytes += e.encodedDataLength; requests += 1; });
  await page.goto(path, { waitUntil: 'commit' });
  const ms = Math.round(await (await page.waitForFunction((sel) => document.querySelector(sel) && performance.now(), ready, { polling: 'raf' })).jsonValue());
  await page.waitForLoadState('networkidle').catch(() => {});
  await context.close();
  return { ms, bytes, requests };
}

// A game to open: one against the engine, made over the API as a visitor.
const jar = await fetch(`${server.base}/api/v1/account`);
const cookies = jar.headers.getSetCookie().map((c) => c.split(';')[0]);
const csrf = (await jar.json()).csrf;
const made = await fetch(`${server.base}/api/v1/engine-games`, {
  method: 'POST',
  headers: { 'content-type': 'application/json', 'x-csrf-token': csrf, cookie: cookies.join('; ') },
  body: JSON.stringify({ level: 1, color: 'white', time_control: '600+0', rules: 'casual' }),
});
const { game } = await made.json();

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
console.log('| page | encoding | requests | bytes on the wire | median time to usable | slowest |');
console.log('|---|---|---|---|---|---|');
for (const [name, path, ready] of [['lobby', '/', '#create-form'], ['game', `/game/${game}`, '#board cg-board piece']]) {
  const results = { identity: [], gzip: [] };
  for (let i = 0; i < runs; i++) {
    results.identity.push(await load(path, ready, true));
    results.gzip.push(await load(path, ready, false));
  }
  for (const [enc, rs] of Object.entries(results)) {
    const kb = (median(rs.map((r) => r.bytes)) / 1024).toFixed(1);
    console.log(`| ${name} | ${enc} | ${rs[0].requests} | ${kb} KiB | ${median(rs.map((r) => r.ms))} ms | ${Math.max(...rs.map((r) => r.ms))} ms |`);
  }
}
await browser.close();
await server.stop();
