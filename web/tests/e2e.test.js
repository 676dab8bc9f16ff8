// End-to-end scenarios of issue 8, in headless Chromium against a real `rookery serve`.
// Run with scripts/e2e.sh (or `npm test` here after `cargo build -p rookery`).

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launchBrowser, visitor, signup, drag, clickMove, waitForPly, moveList, screenshot, gameReady, SHOTS, ROOT, logOnFailure,
} from './harness.js';

let server;
// A failed test prints the end of the server's log (each node's, on a cluster).
afterEach((t) => logOnFailure(t, server));
let browser;
const pages = [];
const suffix = Date.now().toString(36).slice(-4);
const ALICE = `alice_${suffix}`;
const BOB = `bob_${suffix}`;
let alice;
let bob;

async function open(opts) {
  const page = await visitor(browser, server.base, opts);
  pages.push(page);
  return page;
}

/** Alice creates a seek in the lobby, Bob joins it from his lobby; both land on the game. */
async function seekAndAccept({ tc, rules = 'seed', rated = false, color = 'white', shot = null }) {
  await alice.goto('/');
  await bob.goto('/');
  await alice.waitForSelector('#create-form');
  await alice.fill('#tc-custom', tc);
  await alice.click(`input[name=rules][value=${rules}] + span`);
  await alice.click(`input[name=rated][value=${rated ? 'rated' : 'casual'}] + span`);
  await alice.click(`input[name=color][value=${color}] + span`);
  await alice.click('#create-seek');
  const row = bob.locator(`tr.seek[data-owner="${ALICE}"] .accept-seek`).first();
  await row.waitFor();
  if (shot) await screenshot(bob, shot);
  await row.click();
  // Touch-move rule sets ask once more, with the rules in words (issue 38).
  if (rules !== 'casual') {
    await bob.waitForSelector('#accept-step');
    if (shot) await screenshot(bob, `${shot}-accept`);
    await bob.click('#confirm-accept');
  }
  const [idA, idB] = await Promise.all([gameReady(alice), gameReady(bob)]);
  assert.equal(idA, idB, 'both players are in the same game');
  return idA;
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  alice = await open({ name: 'alice' });
  bob = await open({ name: 'bob' });
  await signup(alice, ALICE);
  await signup(bob, BOB);
});

after(async () => {
  for (const p of pages) {
    assert.deepEqual(p.errors.map((e) => e.message), [], 'no uncaught errors in the pages');
  }
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('assets: index for client routes, versioned assets cached, 304 on ETag', async () => {
  if (server.fromDisk) return; // the dev proxy serves web/ itself
  for (const path of ['/', '/lobby', '/leaderboard', '/game/abc', '/review/abc', `/@/${ALICE}`, '/login', '/tournaments', '/tournaments/new', '/tournaments/t7Kq2mXa']) {
    const r = await fetch(server.base + path);
    assert.equal(r.status, 200, path);
    assert.match(r.headers.get('content-type'), /^text\/html/, path);
    assert.equal(r.headers.get('cache-control'), 'no-cache', path);
  }
  const html = await (await fetch(server.base + '/')).text();
  const js = html.match(/src="(\/assets\/[^"]+\/js\/app\.js)"/)[1];
  const r = await fetch(server.base + js);
  assert.equal(r.status, 200);
  assert.match(r.headers.get('content-type'), /^text\/javascript/);
  assert.match(r.headers.get('cache-control'), /immutable/);
  const again = await fetch(server.base + js, { headers: { 'if-none-match': r.headers.get('etag') } });
  assert.equal(again.status, 304);
  assert.equal((await fetch(server.base + '/assets/x/nope.js')).status, 404);
});

test('seek, accept, fool\'s mate by drag; a spectator sees every move', async () => {
  const id = await seekAndAccept({ tc: '300+3', rules: 'seed', rated: true, shot: 'lobby-seek' });
  const watcher = await open({ name: 'spectator' });
  await watcher.goto(`/game/${id}`);
  await gameReady(watcher);
  await watcher.waitForSelector('#game-info .role');
  assert.match(await watcher.textContent('#game-info'), /watching/);
  assert.equal(await alice.getAttribute('#board', 'class').then((c) => c.includes('orientation-white')), true);
  assert.equal(await bob.getAttribute('#board', 'class').then((c) => c.includes('orientation-black')), true);

  await drag(alice, 'f2', 'f3');
  await waitForPly(bob, 1);
  await drag(bob, 'e7', 'e5');
  await waitForPly(alice, 2);
  await clickMove(alice, 'g2', 'g4');
  await waitForPly(bob, 3);
  await screenshot(alice, 'game-live');
  await drag(bob, 'd8', 'h4');

  for (const p of [alice, bob, watcher]) {
    await p.waitForSelector('#result:not([hidden])');
    assert.match(await p.textContent('#result'), /0-1/);
    assert.match(await p.textContent('#result'), /checkmate/i);
  }
  assert.deepEqual(await moveList(watcher), ['f3', 'e5', 'g4', 'Qh4#']);
  await watcher.waitForFunction(() => /watching/.test(document.querySelector('#spectators')?.textContent ?? ''));
  await screenshot(watcher, 'game');

  // Review the finished game: arrows step back; analysis says what the server offers.
  await bob.click('#review-link');
  await bob.waitForSelector('#moves .move[data-ply]');
  await bob.keyboard.press('ArrowLeft');
  await bob.waitForSelector('#moves .move.active[data-ply="3"]');
  await bob.click('#analyse');
  await bob.waitForSelector('#analysis .eval-line, #analysis-message');
  await screenshot(bob, 'review');

  // The winner's profile: level badge, points, chart and the game.
  await bob.goto(`/@/${BOB}`);
  await bob.waitForSelector('#level-badge');
  assert.match(await bob.textContent('#level-badge'), /level|unranked/);
  assert.match(await bob.textContent('#points'), /10\.00/);
  await bob.waitForSelector('.points-chart');
  assert.ok(await bob.locator(`.game-row a[href="/review/${id}"]`).count() > 0);
  await screenshot(bob, 'profile');

  await bob.goto('/leaderboard');
  await bob.waitForSelector(`#leaderboard a[href="/@/${BOB}"]`);
  await screenshot(bob, 'leaderboard');
});

test('a draw offered with a move is accepted', async () => {
  await seekAndAccept({ tc: '600+0', rules: 'casual' });
  await alice.check('#offer-draw');
  await drag(alice, 'e2', 'e4');
  await bob.waitForSelector('#accept-draw');
  assert.match(await bob.textContent('#offer-box'), /offers a draw/);
  assert.equal(await alice.isChecked('#offer-draw'), false, 'the checkbox is cleared once the offer went with the move');
  await bob.click('#accept-draw');
  for (const p of [alice, bob]) {
    await p.waitForSelector('#result:not([hidden])');
    assert.match(await p.textContent('#result'), /½-½/);
    assert.match(await p.textContent('#result'), /agreement/);
  }
});

test('a premove; an illegal king move in a seed game is rejected, counted, and touch-move binds', async () => {
  await seekAndAccept({ tc: '600+0', rules: 'seed' });
  // Bob premoves 1…e5 before White has moved; it is played as soon as 1.e4 arrives.
  await drag(bob, 'e7', 'e5');
  await bob.waitForSelector('#board square.current-premove');
  await drag(alice, 'e2', 'e4');
  await waitForPly(alice, 2);
  await alice.waitForSelector('#first-move', { state: 'hidden' });
  assert.deepEqual(await moveList(alice), ['e4', 'e5']);
  await drag(alice, 'e1', 'e2');
  await waitForPly(bob, 3);
  await drag(bob, 'f8', 'c5');
  await waitForPly(alice, 4);
  // Ke3?? walks into the bishop on c5: the pattern allows it, the rules forbid it (§8.2).
  await drag(alice, 'e2', 'e3');
  await alice.waitForFunction(() => /1\/3/.test(document.querySelector('#strikes [data-color="white"]')?.textContent ?? ''));
  await alice.waitForSelector('.toast.error');
  assert.match(await alice.textContent('#toasts'), /illegal|check/i);
  assert.equal((await moveList(alice)).length, 4, 'the position is unchanged');
  // Touching the king bound the player to it (§8.1) and the page says so.
  await alice.waitForSelector('#obligation:not([hidden])');
  assert.match(await alice.textContent('#obligation'), /e2/);
  await bob.waitForFunction(() => /1\/3/.test(document.querySelector('#strikes [data-color="white"]')?.textContent ?? ''));
  await bob.waitForSelector('.strike-badge[data-color="white"]');
  await screenshot(alice, 'game-illegal-move');
  await alice.click('#resign');
  await alice.click('#resign');
  await bob.waitForSelector('#result:not([hidden])');
});

test('the flag falls in a 5-second game; moves typed at the keyboard', async () => {
  await seekAndAccept({ tc: '5+0', rules: 'casual' });
  // No clock before both first moves: the board counts down White's first move instead.
  await alice.waitForSelector('#first-move:not([hidden])');
  assert.match(await alice.textContent('#first-move'), /first move: \d+ s/);
  await alice.fill('#move-input', 'e4');
  await alice.press('#move-input', 'Enter');
  await waitForPly(bob, 1);
  await bob.fill('#move-input', 'e7e5');
  await bob.press('#move-input', 'Enter');
  await waitForPly(alice, 2);
  await alice.waitForSelector('#first-move', { state: 'hidden' });
  assert.deepEqual(await moveList(alice), ['e4', 'e5']);
  await alice.waitForSelector('#clock-white.low');
  for (const p of [alice, bob]) {
    await p.waitForSelector('#result:not([hidden])', { timeout: 20000 });
    assert.match(await p.textContent('#result'), /0-1/);
    assert.match(await p.textContent('#result'), /time/i);
  }
  assert.equal(await alice.textContent('#clock-white'), '00:00.0');
});

test('the promotion picker offers all four pieces', async () => {
  await seekAndAccept({ tc: '600+0', rules: 'casual' });
  const type = async (page, move, ply) => {
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
    await waitForPly(alice, ply);
    await waitForPly(bob, ply);
  };
  const line = ['h4', 'g5', 'hxg5', 'h6', 'gxh6', 'Bg7', 'hxg7', 'Nf6'];
  for (const [i, move] of line.entries()) await type(i % 2 ? bob : alice, move, i + 1);
  await drag(alice, 'g7', 'h8');
  await alice.waitForSelector('.promotion');
  const roles = await alice.$$eval('.promotion-choice', (els) => els.map((e) => e.dataset.role));
  assert.deepEqual(roles, ['queen', 'rook', 'bishop', 'knight']);
  await alice.click('.promotion-choice[data-role="knight"]');
  await waitForPly(bob, 9);
  assert.equal((await moveList(bob))[8], 'gxh8=N');
  await bob.waitForSelector('#board piece.white.knight');
  await alice.click('#resign');
  await alice.click('#resign');
  await bob.waitForSelector('#result:not([hidden])');
});

test('the Chinese UI renders (zh-CN browser), and the language is switchable', async () => {
  const zh = await open({ locale: 'zh-CN', name: 'zh' });
  await zh.goto('/');
  await zh.waitForSelector('#create-form');
  assert.equal(await zh.getAttribute('html', 'lang'), 'zh-CN');
  assert.match(await zh.textContent('#create-form h2'), /创建对局/);
  assert.match(await zh.textContent('.site-nav'), /排行榜/);
  await screenshot(zh, 'lobby-zh');
  await zh.goto(`/@/${BOB}`);
  await zh.waitForSelector('#level-badge');
  assert.match(await zh.textContent('#level-badge'), /级/);
  await zh.selectOption('#lang-select', 'en');
  await zh.waitForFunction(() => document.documentElement.lang === 'en');
  await zh.reload();
  await zh.waitForSelector('#level-badge');
  assert.match(await zh.textContent('.site-nav'), /Leaderboard/, 'the choice is remembered');
});

test('play the computer on a phone-sized screen', async () => {
  const phone = await open({ viewport: { width: 390, height: 844 }, name: 'phone' });
  await phone.goto('/');
  await phone.click('button.level[data-level="1"]');
  await phone.click('input[name=ecolor][value=white] + span');
  await phone.click('#play-computer');
  await gameReady(phone);
  await drag(phone, 'e2', 'e4');
  await waitForPly(phone, 2); // the engine answers
  await screenshot(phone, 'game-phone');
  const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 0, `no horizontal scrolling (${overflow}px)`);

  // A busy lobby for the README: two open seeks and the computer game in play.
  await alice.goto('/');
  for (const [tc, rules] of [['180+2', 'casual'], ['900+10', 'fide']]) {
    await alice.fill('#tc-custom', tc);
    await alice.click(`input[name=rules][value=${rules}] + span`);
    await alice.click('#create-seek');
    await alice.waitForSelector(`tr.seek[data-owner="${ALICE}"]:nth-child(${rules === 'casual' ? 1 : 2})`);
  }
  await bob.goto('/');
  await bob.waitForSelector(`tr.seek[data-owner="${ALICE}"]:nth-child(2)`);
  await bob.waitForSelector('#live-games .live-game');
  await screenshot(bob, 'lobby');
});

after(() => {
  // Keep the README's pictures fresh when asked to (UPDATE_DOCS_SCREENSHOTS=1).
  if (!process.env.UPDATE_DOCS_SCREENSHOTS) return;
  const docs = join(ROOT, 'docs/screenshots');
  mkdirSync(docs, { recursive: true });
  for (const name of ['game', 'lobby', 'lobby-zh', 'profile', 'game-phone']) {
    try { copyFileSync(join(SHOTS, `${name}.png`), join(docs, `${name}.png`)); } catch { /* a failed test left none */ }
  }
});
