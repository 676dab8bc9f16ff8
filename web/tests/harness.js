// The e2e harness: a real `rookery serve` on an ephemeral port with a temporary data
// directory, Debian's Chromium driven by playwright-core, and helpers that act like a player
// (sign up, drag pieces, read the page).

import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const here = dirname(fileURLToPath(import.meta.url));
export const ROOT = resolve(here, '../..');
export const SHOTS = process.env.SCREENSHOT_DIR || join(ROOT, 'target/screenshots');

function freePort() {
  return new Promise((ok, fail) => {
    const srv = createServer();
    srv.on('error', fail);
    srv.listen(0, '127.0.0.1', () => { const { port } = srv.address(); srv.close(() => ok(port)); });
  });
}

function portIsFree(port) {
  return new Promise((ok) => {
    const srv = createServer();
    srv.once('error', () => ok(false));
    srv.listen(port, '127.0.0.1', () => srv.close(() => ok(true)));
  });
}

/** The first of `count` consecutive free ports (scripts/cluster.sh numbers its nodes from
 * NODE_PORT up): each is checked, since a busy machine's outgoing connections may hold the
 * ports just above a free one. */
async function freePorts(count) {
  for (let attempt = 0; attempt < 50; attempt++) {
    const first = await freePort();
    let free = first + count - 1 <= 65535;
    for (let i = 1; free && i < count; i++) free = await portIsFree(first + i);
    if (free) return first;
  }
  throw new Error(`no ${count} consecutive free ports`);
}

async function waitForHealth(base, proc, ms = 60000) {
  const until = Date.now() + ms;
  let last = null;
  while (Date.now() < until) {
    if (proc.exitCode !== null) throw new Error(`rookery serve exited with ${proc.exitCode}`);
    try {
      const r = await fetch(`${base}/health`);
      if (r.ok) return;
      last = `HTTP ${r.status}`;
    } catch (e) { last = e.message; }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`server did not become healthy: ${last}`);
}

/**
 * With E2E_CLUSTER=N: N nodes on PostgreSQL and NATS behind HAProxy (scripts/cluster.sh),
 * each `rookery serve … args`, instead of one server. Returns `{base, stop, log}`.
 */
async function startCluster(nodes, args) {
  const nodePort = await freePorts(nodes);
  const outside = async () => {
    for (;;) {
      const p = await freePort();
      if (p < nodePort || p >= nodePort + nodes) return p;
    }
  };
  const port = await outside();
  let natsPort = await outside();
  while (natsPort === port) natsPort = await outside();
  const dir = mkdtempSync(join(tmpdir(), 'rookery-e2e-cluster-'));
  const env = { ...process.env, PORT: String(port), NODE_PORT: String(nodePort), NATS_PORT: String(natsPort), CLUSTER_DIR: dir };
  env.ROOKERY = process.env.ROOKERY_BIN || join(ROOT, 'target/debug/rookery');
  const script = join(ROOT, 'scripts/cluster.sh');
  const run = (cmd) => new Promise((resolve, reject) => {
    const p = spawn('bash', [script, ...cmd], { env, stdio: ['ignore', 'ignore', 'pipe'] });
    let err = '';
    p.stderr.on('data', (d) => { err += d; });
    p.once('exit', (code) => (code === 0 ? resolve() : reject(new Error(`cluster.sh ${cmd[0]}: exit ${code}\n${err}`))));
  });
  await run(['up', String(nodes), '--', ...args]);
  return {
    base: `http://127.0.0.1:${port}`,
    fromDisk: false,
    log: [],
    nodes,
    /** Node `i`'s own address (1-based), past the balancer. */
    nodeBase: (i) => `http://127.0.0.1:${nodePort + i - 1}`,
    /** Node `i`'s process id, to stop and continue it. */
    nodePid: (i) => Number(readFileSync(join(dir, `node-${i}.pid`), 'utf8').trim()),
    /** The last `lines` lines of each node's log, colours stripped: what a failed test prints. */
    tail(lines = 120) {
      return Array.from({ length: nodes }, (_, i) => {
        let text;
        try { text = readFileSync(join(dir, `node-${i + 1}.log`), 'utf8'); } catch (e) { text = `(${e.message})`; }
        return `--- node-${i + 1}.log ---\n${lastLines(text, lines)}`;
      }).join('\n');
    },
    async stop() { await run(['down']); if (!process.env.KEEP_CLUSTER_DIR) rmSync(dir, { recursive: true, force: true }); else console.log('cluster dir', dir); },
  };
}

/** The last `n` lines of a log's text, its terminal colours stripped. */
const lastLines = (text, n) => text.replace(/\x1b\[[0-9;]*m/g, '').split('\n').slice(-n).join('\n');

/**
 * For an `afterEach` hook: when the test `t` failed, prints the end of the server's log (of
 * each node's, on a cluster), so that a failure seen only in CI can be read from its output.
 */
export async function logOnFailure(t, server) {
  if (t.passed === false && server) console.error(`${t.name}: failed; the server's log:\n${server.tail()}`);
  if (t.passed === false) await printJournals();
}

/** The pages open in this file, each with its journal (what it asked, heard and showed). */
const pages = new Set();

/**
 * Prints the journal of every page active in the last minute, and the toasts it shows now:
 * a page that waited in vain says whether its request left, what the server answered and
 * whether its sockets dropped (a CI failure is read from its output alone).
 */
async function printJournals() {
  const since = Date.now() - 60000;
  for (const page of pages) {
    if (page.isClosed() || !page.journal.some((e) => e.at >= since)) continue;
    const toasts = await page.evaluate(() => [...document.querySelectorAll('.toast')].map((el) => el.textContent)).catch(() => []);
    const lines = page.journal.slice(-25).map((e) => `  ${new Date(e.at).toISOString().slice(11, 23)} ${e.what}`);
    console.error(`--- page ${page.visitorName} at ${page.url()} (toasts: ${JSON.stringify(toasts)}) ---\n${lines.join('\n')}`);
  }
}

/** Keeps a page's journal: its API requests and answers, its sockets, its navigations. */
function keepJournal(page) {
  page.journal = [];
  const note = (what) => { page.journal.push({ at: Date.now(), what }); if (page.journal.length > 200) page.journal.shift(); };
  const path = (url) => { try { const u = new URL(url); return u.pathname + u.search; } catch { return url; } };
  page.on('request', (r) => { if (path(r.url()).startsWith('/api/')) note(`→ ${r.method()} ${path(r.url())}`); });
  page.on('response', (r) => { if (path(r.url()).startsWith('/api/')) note(`← ${r.status()} ${r.request().method()} ${path(r.url())}`); });
  page.on('requestfailed', (r) => note(`✗ ${r.method()} ${path(r.url())}: ${r.failure() && r.failure().errorText}`));
  page.on('websocket', (ws) => {
    note(`socket ${path(ws.url())} opened`);
    ws.on('close', () => note(`socket ${path(ws.url())} closed`));
  });
  page.on('framenavigated', (f) => { if (f === page.mainFrame()) note(`at ${path(f.url())}`); });
  page.on('close', () => pages.delete(page));
  pages.add(page);
}

/** Starts the server (with `args` after `serve`'s own); returns `{base, stop, log}`. */
export async function startServer({ args = [] } = {}) {
  if (process.env.E2E_CLUSTER) return startCluster(Number(process.env.E2E_CLUSTER), args);
  const bin = process.env.ROOKERY_BIN || join(ROOT, 'target/debug/rookery');
  if (!existsSync(bin)) throw new Error(`${bin} is missing: run cargo build -p rookery first (scripts/e2e.sh does)`);
  const dataDir = mkdtempSync(join(tmpdir(), 'rookery-e2e-'));
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const log = [];
  const proc = spawn(bin, ['serve', '--addr', `127.0.0.1:${port}`, '--data-dir', dataDir, ...args], {
    env: { ...process.env, RUST_LOG: process.env.RUST_LOG || 'info' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (d) => { log.push(d.toString()); if (log.length > 2000) log.shift(); if (process.env.E2E_SERVER_LOG) process.stderr.write(d); };
  proc.stdout.on('data', keep);
  proc.stderr.on('data', keep);
  try {
    await waitForHealth(base, proc);
  } catch (e) {
    proc.kill('SIGKILL');
    throw new Error(`${e.message}\n--- server log ---\n${log.join('')}`);
  }
  let proxy = null;
  let front = base;
  if (process.env.E2E_WEB_FROM_DISK) {
    // UI development: web/ from disk through the dev proxy, no rebuild of the binary.
    const proxyPort = await freePort();
    proxy = spawn(process.execPath, [join(here, 'dev-proxy.js'), base, String(proxyPort)], { stdio: 'ignore' });
    front = `http://127.0.0.1:${proxyPort}`;
    await waitForHealth(front, proxy);
  }
  return {
    base: front,
    fromDisk: !!proxy,
    log,
    /** The last `lines` lines of the server's log, colours stripped. */
    tail(lines = 120) {
      return `--- server log ---\n${lastLines(log.join(''), lines)}`;
    },
    async stop() {
      if (proxy) proxy.kill('SIGTERM');
      if (proc.exitCode === null) {
        proc.kill('SIGTERM');
        await Promise.race([new Promise((r) => proc.once('exit', r)), new Promise((r) => setTimeout(r, 5000))]);
        if (proc.exitCode === null) proc.kill('SIGKILL');
      }
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

export async function launchBrowser() {
  const executablePath = process.env.CHROMIUM || '/usr/bin/chromium';
  return chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-dev-shm-usage', '--autoplay-policy=no-user-gesture-required', '--mute-audio'],
  });
}

/** A new visitor (own cookies) with a page; errors in the page fail loudly in the log. */
export async function visitor(browser, base, { locale = 'en-GB', viewport = { width: 1280, height: 860 }, name = 'visitor', colorScheme = 'dark' } = {}) {
  const context = await browser.newContext({ baseURL: base, locale, viewport, colorScheme, deviceScaleFactor: 1 });
  const page = await context.newPage();
  page.errors = [];
  page.visitorName = name;
  keepJournal(page);
  page.on('pageerror', (e) => { page.errors.push(e); console.error(`[${name}] page error: ${e.message}`); });
  page.on('console', (m) => { if (m.type() === 'error') console.error(`[${name}] console: ${m.text()}`); });
  page.setDefaultTimeout(15000);
  return page;
}

export async function signup(page, username, password = 'correct horse battery') {
  await page.goto('/signup');
  await page.fill('#username', username);
  await page.fill('#password', password);
  await page.click('#account-submit');
  await page.waitForSelector('#me-link');
  return username;
}

/** The centre of `square` on the page's board, from its size and orientation. */
export async function squareCenter(page, square) {
  const board = page.locator('#board');
  const box = await board.boundingBox();
  const white = await board.evaluate((el) => el.classList.contains('orientation-white'));
  const file = square.charCodeAt(0) - 97, rank = Number(square[1]) - 1;
  const size = box.width / 8;
  const col = white ? file : 7 - file, row = white ? 7 - rank : rank;
  return { x: box.x + (col + 0.5) * size, y: box.y + (row + 0.5) * size };
}

/** Drags the piece on `from` to `to` with the mouse, as a person does. */
export async function drag(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.move(a.x, a.y);
  await page.mouse.down();
  await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 4 });
  await page.mouse.move(b.x, b.y, { steps: 4 });
  await page.mouse.up();
}

/** Clicks `from` then `to` (the other way of moving). */
export async function clickMove(page, from, to) {
  const a = await squareCenter(page, from);
  const b = await squareCenter(page, to);
  await page.mouse.click(a.x, a.y);
  await page.mouse.click(b.x, b.y);
}

/** Waits until the move list holds `n` moves. */
export async function waitForPly(page, n) {
  await page.waitForFunction((k) => document.querySelectorAll('#moves .move[data-ply]').length >= k, n, { timeout: 15000 });
}

export async function moveList(page) {
  return page.$$eval('#moves .move[data-ply]', (els) => els.map((e) => e.textContent.trim()));
}

export async function screenshot(page, name) {
  mkdirSync(SHOTS, { recursive: true });
  const path = join(SHOTS, `${name}.png`);
  await page.screenshot({ path });
  return path;
}

/** Waits for the page to follow the game socket: the status line is filled. */
export async function gameReady(page) {
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('#status:not(:empty)');
  await page.waitForSelector('#board cg-board piece');
  return page.url().split('/game/')[1];
}

let axeSource = null;

/**
 * What axe-core (WCAG 2 A and AA) finds on the page: one line per violation, with its nodes.
 * Two things axe leaves "incomplete" instead of judging are judged here (issue 51): symbols
 * and short text such as the brand's ♜ (`ignoreUnicode: false`, `ignoreLength: true`), and
 * text on the page's background gradient, checked against each of its colours in turn.
 */
export async function axeViolations(page) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  await page.evaluate(axeSource); // DevTools evaluation: the page's CSP does not apply
  const stops = await page.evaluate(() => getComputedStyle(document.body).backgroundImage.match(/rgba?\([^)]*\)/g) || []);
  const found = new Set();
  for (const bg of stops.length ? stops : [null]) {
    const result = await page.evaluate(async (colour) => {
      const body = document.body.style;
      const before = body.getPropertyValue('background');
      if (colour) body.setProperty('background', colour, 'important');
      try {
        // `configure` replaces a check's options: the defaults (ratios, sizes) are kept.
        const check = window.axe._audit.checks['color-contrast'];
        window.axe.configure({ checks: [{ id: 'color-contrast', options: { ...check.options, ignoreUnicode: false, ignoreLength: true } }] });
        return await window.axe.run(document, { runOnly: ['wcag2a', 'wcag2aa'] });
      } finally {
        body.removeProperty('background');
        if (before) body.setProperty('background', before);
      }
    }, bg);
    for (const v of result.violations) {
      const nodes = v.nodes.slice(0, 6).map((n) => `${n.target.join(' ')} ${n.failureSummary.split('\n')[1] || ''}`);
      found.add(`${v.id}: ${v.help}${bg ? ` (body on ${bg})` : ''}\n    ${nodes.join('\n    ')}`);
    }
  }
  return [...found];
}

/** Fails with what axe finds on the page (`axeViolations`). */
export async function axe(page, what) {
  assert.deepEqual(await axeViolations(page), [], `axe on ${what}`);
}
