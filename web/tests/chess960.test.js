// Issue 55, "site": a Chess960 game in the browser. A seek from a chosen start (291,
// BQNRKRNB) made in the lobby form and shown there as "Chess960 #291", joined from another
// browser; both boards start from it; White castles by dropping the king on its rook, Black by
// moving the king two squares; both boards show the kings and rooks where castling puts them,
// the move list O-O and O-O-O; the review replays the castlings; the engine analyses the
// game. Against a real `rookery serve`, as a person would.
// Run with scripts/e2e.sh (or `npm test` here after `cargo build -p rookery`).

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launchBrowser, visitor, signup, drag, waitForPly, moveList, screenshot, gameReady, axe, SHOTS, ROOT, logOnFailure,
} from './harness.js';

let server;
// A failed test prints the end of the server's log (each node's, on a cluster).
afterEach((t) => logOnFailure(t, server));
let browser;
const pages = [];
const suffix = Date.now().toString(36).slice(-4);
const ANN = `ann960_${suffix}`;
const BEN = `ben960_${suffix}`;
let ann;
let ben;

async function open(opts) {
  const page = await visitor(browser, server.base, opts);
  pages.push(page);
  return page;
}

/** The pieces chessground draws, `{square: 'white king', …}`: what the player sees. */
async function boardPieces(page) {
  return page.$$eval('#board cg-board piece', (els) => Object.fromEntries(
    els.filter((e) => e.cgKey && !e.classList.contains('ghost') && !e.classList.contains('fading')).map((e) => [e.cgKey, [...e.classList].filter((c) => c !== 'anim').join(' ')])));
}

/** The back ranks as `BQNRKRNB`-style text, White's then Black's, from the pieces drawn. */
async function backRanks(page) {
  const pieces = await boardPieces(page);
  const letter = { king: 'k', queen: 'q', rook: 'r', bishop: 'b', knight: 'n', pawn: 'p' };
  const rank = (r, white) => [...'abcdefgh'].map((f) => {
    const p = pieces[f + r];
    if (!p || p.includes('white') !== white) return '.';
    const l = letter[p.split(' ').find((c) => c in letter)];
    return white ? l.toUpperCase() : l;
  }).join('');
  return [rank(1, true), rank(8, false)];
}

/**
 * The back ranks once the board shows `expected`, or what it shows after 10 s: stepping
 * through a review animates the pieces back, and a board read in the middle of it (a loaded
 * three-node CI run did) shows the king still on its old square.
 */
async function settledBackRanks(page, expected) {
  const deadline = Date.now() + 10000;
  let ranks = await backRanks(page);
  while (JSON.stringify(ranks) !== JSON.stringify(expected) && Date.now() < deadline) {
    await page.waitForTimeout(50);
    ranks = await backRanks(page);
  }
  return ranks;
}

before(async () => {
  // A small budget per position: the test is about the page, not the engine's strength.
  server = await startServer({ args: ['--analysis-nodes', '20000'] });
  browser = await launchBrowser();
  ann = await open({ name: 'ann' });
  ben = await open({ name: 'ben' });
  await signup(ann, ANN);
  await signup(ben, BEN);
});

after(async () => {
  for (const p of pages) {
    assert.deepEqual(p.errors.map((e) => e.message), [], 'no uncaught errors in the pages');
  }
  if (browser) await browser.close();
  if (server) await server.stop();
  if (process.env.UPDATE_DOCS_SCREENSHOTS) {
    const docs = join(ROOT, 'docs/screenshots');
    mkdirSync(docs, { recursive: true });
    for (const name of ['chess960-game']) {
      try { copyFileSync(join(SHOTS, `${name}.png`), join(docs, `${name}.png`)); } catch { /* a failed test left none */ }
    }
  }
});

test('issue 55: a Chess960 game from start 291, castling onto the rook and by two squares, reviewed and analysed', async () => {
  await ann.goto('/');
  await ben.goto('/');
  await ann.waitForSelector('#create-form');
  await ann.fill('#tc-custom', '600+0');
  await ann.click('input[name=rules][value=casual] + span');
  await ann.click('input[name=rated][value=casual] + span');
  await ann.click('input[name=color][value=white] + span');
  // The start box is there only for a chosen start.
  assert.equal(await ann.isDisabled('#variant-position'), true);
  await ann.click('input[name=variant][value=position] + span');
  await ann.fill('#variant-position', '291');
  await ann.click('#create-seek');

  // Ben sees the seek with its variant and start, and joins it.
  const row = ben.locator(`tr.seek[data-owner="${ANN}"]`).first();
  await row.waitFor();
  assert.equal(await row.locator('.variant-badge').textContent(), 'Chess960 #291');
  await screenshot(ben, 'chess960-lobby');
  await axe(ben, 'the lobby with a Chess960 seek');
  await row.locator('.accept-seek').click();
  const [id, idB] = await Promise.all([gameReady(ann), gameReady(ben)]);
  assert.equal(id, idB, 'both players are in the same game');

  // Both boards start from 291, and both pages say which start it is.
  for (const page of [ann, ben]) {
    await page.waitForSelector('#game-variant');
    assert.match(await page.textContent('#game-variant'), /Chess960 #291/);
    assert.deepEqual(await backRanks(page), ['BQNRKRNB', 'bqnrkrnb']);
  }

  await drag(ann, 'g1', 'f3');
  await waitForPly(ben, 1);
  await drag(ben, 'c8', 'd6');
  await waitForPly(ann, 2);
  // White castles short by dropping the king on its own rook (f1): king to g1, the rook
  // staying on f1.
  await drag(ann, 'e1', 'f1');
  await waitForPly(ben, 3);
  await waitForPly(ann, 3);
  // Black castles long by moving the king two squares (e8 to c8): the rook stays on d8.
  await drag(ben, 'e8', 'c8');
  await waitForPly(ann, 4);
  await waitForPly(ben, 4);
  for (const page of [ann, ben]) {
    assert.deepEqual(await moveList(page), ['Nf3', 'Nd6', 'O-O', 'O-O-O']);
    await page.waitForFunction(() => document.querySelectorAll('#board cg-board piece.anim, #board cg-board piece.fading').length === 0);
    assert.deepEqual(await settledBackRanks(page, ['BQNR.RKB', 'bqkr.rnb']), ['BQNR.RKB', 'bqkr.rnb'], 'kings and rooks where castling puts them');
  }
  const g = await (await fetch(`${server.base}/api/v1/games/${id}`)).json();
  assert.deepEqual(g.moves.map((m) => m.uci), ['g1f3', 'c8d6', 'e1f1', 'e8d8']);
  // The picture for the README: the seek's toast gone (it leaves by itself).
  await ann.waitForFunction(() => !document.querySelector('#toasts .toast'));
  await screenshot(ann, 'chess960-game');

  // A spectator's page in Chinese names the start too (in the light theme: axe on both).
  await axe(ann, 'a Chess960 game (dark)');
  const zh = await open({ name: 'zh', locale: 'zh-CN', colorScheme: 'light' });
  await zh.goto(`/game/${id}`);
  await gameReady(zh);
  assert.match(await zh.textContent('#game-variant'), /Chess960 第 291 号/);
  await axe(zh, 'a Chess960 game (light, 简体中文)');

  // Ben resigns; the review replays the game in the browser, castlings included.
  await ben.click('#resign');
  await ben.click('#resign');
  await ann.waitForSelector('#result:not([hidden])');
  await ann.click('#review-link');
  await ann.waitForSelector('#moves .move[data-ply]');
  assert.match(await ann.textContent('#game-variant'), /Chess960 #291/);
  assert.deepEqual(await moveList(ann), ['Nf3', 'Nd6', 'O-O', 'O-O-O']);
  assert.deepEqual(await settledBackRanks(ann, ['BQNR.RKB', 'bqkr.rnb']), ['BQNR.RKB', 'bqkr.rnb']);
  await ann.keyboard.press('ArrowLeft');
  await ann.waitForSelector('#moves .move.active[data-ply="3"]');
  assert.deepEqual(await settledBackRanks(ann, ['BQNR.RKB', 'bq.rkrnb']), ['BQNR.RKB', 'bq.rkrnb'], 'after 2. O-O');
  await ann.keyboard.press('ArrowLeft');
  await ann.waitForSelector('#moves .move.active[data-ply="2"]');
  assert.deepEqual(await settledBackRanks(ann, ['BQNRKR.B', 'bq.rkrnb']), ['BQNRKR.B', 'bq.rkrnb'], 'before the castlings');
  // The engine on this position (White to castle), then on the whole game.
  await ann.click('#analyse');
  await ann.waitForSelector('#analysis .eval-line', { timeout: 60000 });
  await ann.click('#analyse-game');
  await ann.waitForSelector('#eval-graph', { timeout: 120000 });
  assert.deepEqual((await moveList(ann)).map((m) => m.replace(/[?!]+$/, '')), ['Nf3', 'Nd6', 'O-O', 'O-O-O']);
  await screenshot(ann, 'chess960-review');
});
