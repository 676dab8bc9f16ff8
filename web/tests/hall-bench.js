// Issue 53's speed target, measured as the hall sees it (not a test: figures for
// BENCHMARKS.md, "Over the board at the desk"): a round of N players (default 400) paired,
// published and printed to PDF (the pairing list and every board's scoresheet, in headless
// Chromium as the arbiter's browser prints them), and each result typed at the desk until a
// spectator's open tournament page shows it (the page is told by its socket).
//
//   cd web/tests && ROOKERY_BIN=../../target/release/rookery node hall-bench.js [players] [rounds] [results]

import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, visitor, signup } from './harness.js';

const players = Number(process.argv[2] || 400);
const rounds = Number(process.argv[3] || 2);
const results = Number(process.argv[4] || 20);
const server = await startServer();
const browser = await launchBrowser();
const dir = mkdtempSync(join(tmpdir(), 'rookery-hall-bench-'));
const ms = (t0) => Math.round(performance.now() - t0);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

try {
  const org = await visitor(browser, server.base, { name: 'arbiter' });
  org.setDefaultTimeout(120000);
  await signup(org, `bench_${Date.now().toString(36).slice(-5)}`);
  // The desk's requests, from the arbiter's page (its session and CSRF token).
  const call = (path, body) => org.evaluate(async ({ path, body }) => {
    const csrf = (await (await fetch('/api/v1/account')).json()).csrf;
    const t0 = performance.now();
    const r = await fetch(`/api/v1${path}`, { method: 'POST', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify(body) });
    const text = await r.text();
    if (!r.ok) throw new Error(`${path}: ${r.status} ${text}`);
    return { ms: performance.now() - t0, body: JSON.parse(text) };
  }, { path, body });
  const made = await call('/tournaments', { name: `Hall of ${players}`, format: 'swiss', rounds, time_control: '5400+30', over_the_board: true });
  const id = made.body.id;
  const arbiter = (body) => call(`/tournaments/${id}/arbiter`, body);
  const names = Array.from({ length: players }, (_, i) => `Player ${String(i + 1).padStart(4, '0')}`);
  const csv = ['Name,Rating', ...names.map((n, i) => `${n},${2600 - i}`)].join('\n');
  const imported = await call(`/tournaments/${id}/roster`, { text: csv });
  const checked = await arbiter({ action: 'check_in', players: names, present: true });
  console.log(`${players} players: list imported in ${Math.round(imported.ms)} ms, all checked in in ${Math.round(checked.ms)} ms`);

  const spectator = await visitor(browser, server.base, { name: 'spectator' });
  spectator.setDefaultTimeout(120000);
  // In the page, by the wall clock this script reads too: when each board's `result` frame
  // reaches it, when its cell shows it, and how many whole views came; timed here instead,
  // the same moments came half a second late on two busy cores (this script's lateness).
  await spectator.addInitScript(() => {
    window.__heardAt = {};
    window.__shownAt = {};
    window.__views = 0;
    const Native = window.WebSocket;
    window.WebSocket = class extends Native {
      constructor(...args) {
        super(...args);
        this.addEventListener('message', (e) => {
          if (typeof e.data !== 'string') return;
          if (e.data.startsWith('{"t":"result"')) window.__heardAt[JSON.parse(e.data).board] = Date.now();
          else if (e.data.startsWith('{"t":"tournament"')) window.__views += 1;
        });
      }
    };
    new MutationObserver(() => {
      document.querySelectorAll('#pairings-table td.result').forEach((td, i) => {
        if (td.dataset.result && !(i + 1 in window.__shownAt)) window.__shownAt[i + 1] = Date.now();
      });
    }).observe(document, { subtree: true, childList: true, attributes: true });
  });
  for (let r = 1; r <= rounds; r++) {
    const paired = await arbiter(r === 1 ? { action: 'start' } : { action: 'pair' });
    const published = await arbiter({ action: 'publish', round: r });
    const boards = published.body.rounds_list[r - 1].boards;
    const printed = {};
    for (const doc of ['pairings', 'scoresheets']) {
      const page = await visitor(browser, server.base, { name: `print-${doc}` });
      page.setDefaultTimeout(120000);
      const t0 = performance.now();
      await page.goto(`/api/v1/tournaments/${id}/print/${doc}?round=${r}&lang=zh`);
      const loaded = ms(t0);
      const pdf = await page.pdf({ preferCSSPageSize: true, printBackground: true });
      printed[doc] = ms(t0);
      printed[`${doc}-loaded`] = loaded;
      writeFileSync(join(dir, `${doc}-${r}.pdf`), pdf);
      await page.context().close();
    }
    console.log(`round ${r}: paired in ${Math.round(paired.ms)} ms, published in ${Math.round(published.ms)} ms; `
      + `printed to PDF (page loaded, then laid out and written): the pairing list in ${printed.pairings} ms (loaded in ${printed['pairings-loaded']}), `
      + `the ${boards.length} scoresheets in ${printed.scoresheets} ms (loaded in ${printed['scoresheets-loaded']}); `
      + `total ${Math.round(paired.ms + published.ms) + printed.pairings + printed.scoresheets} ms`);

    // The spectator's page open on the round; each result typed until it shows there.
    await spectator.goto(`/tournaments/${id}`);
    await spectator.waitForSelector('#pairings-table td.result');
    // The page's long tasks (over 50 ms: a whole view drawn, mostly) while results come in.
    await spectator.evaluate(() => {
      window.__long = [];
      new PerformanceObserver((list) => { for (const e of list.getEntries()) window.__long.push(e.duration); }).observe({ type: 'longtask' });
    });
    const seen = [];
    const heard = [];
    await spectator.evaluate(() => { window.__views = 0; });
    const since = performance.now();
    for (const b of boards) {
      const measured = seen.length < results;
      const sent = Date.now();
      await arbiter({ action: 'enter', round: r, board: b.board, result: b.board % 3 ? '1-0' : '1/2-1/2' });
      if (measured) {
        await spectator.waitForFunction((board) => window.__shownAt[board], b.board, { polling: 'raf' });
        const [at, shown] = await spectator.evaluate((board) => [window.__heardAt[board], window.__shownAt[board]], b.board);
        seen.push(shown - sent);
        if (at) heard.push(at - sent);
      }
    }
    const seconds = (performance.now() - since) / 1000;
    const page = await spectator.evaluate(() => ({ heard: window.__heardAt, shown: window.__shownAt, views: window.__views }));
    console.log(`round ${r}: the socket's result message arrived ${median(heard)} ms after the desk's request (median of ${heard.length}), ${Math.max(...heard)} ms at most; `
      + `${page.views} whole views arrived meanwhile (${(page.views / seconds).toFixed(2)} a second)`);
    const drawn = Object.keys(page.heard).filter((b) => b in page.shown).map((b) => page.shown[b] - page.heard[b]);
    console.log(`round ${r}: in the page, from the result frame to its cell shown: ${median(drawn)} ms median, ${Math.max(...drawn)} ms at most (${drawn.length} boards)`);
    const long = await spectator.evaluate(() => window.__long);
    console.log(`round ${r}: the spectator's page was busy in ${long.length} long tasks, ${median(long.map(Math.round))} ms median, ${Math.round(Math.max(...long))} ms at most`);
    console.log(`round ${r}: a result typed at the desk shown on a spectator's page in ${median(seen)} ms (median of ${seen.length}), ${Math.max(...seen)} ms at most`);
  }
} finally {
  await browser.close();
  await server.stop();
}
