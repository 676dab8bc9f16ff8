// Issue 38, "Analysis of a finished game": two players play a game with a blunder in it, then
// one asks for the analysis on the review page and sees its progress, the evaluation graph
// under the board, the blunder marked in the move list with the better move, and each
// player's accuracy; a click on the graph goes to that move; the analysis is kept; the
// Chinese page says it in Chinese. Against a real `rookery serve`, as a person would.
// Run with scripts/e2e.sh (or `npm test` here after `cargo build -p rookery`).

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import {
  startServer, launchBrowser, visitor, signup, waitForPly, screenshot, gameReady, axe, SHOTS, ROOT, logOnFailure,
} from './harness.js';

let server;
// A failed test prints the end of the server's log (each node's, on a cluster).
afterEach((t) => logOnFailure(t, server));
let browser;
const pages = [];
const suffix = Date.now().toString(36).slice(-4);
const ANN = `ana_${suffix}`;
const BEN = `bea_${suffix}`;
let ann;
let ben;

async function open(opts) {
  const page = await visitor(browser, server.base, opts);
  pages.push(page);
  return page;
}

before(async () => {
  // A small budget per position: the test is about the page, not the engine's strength.
  server = await startServer({ args: ['--analysis-nodes', '40000'] });
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
    for (const name of ['review-analysis', 'review-analysis-zh']) {
      try { copyFileSync(join(SHOTS, `${name}.png`), join(docs, `${name}.png`)); } catch { /* a failed test left none */ }
    }
  }
});

/** Ann opens a casual seek as White from the lobby, Ben joins it; both land on the game. */
async function newGame() {
  await ann.goto('/');
  await ben.goto('/');
  await ann.waitForSelector('#create-form');
  await ann.fill('#tc-custom', '600+0');
  await ann.click('input[name=rules][value=casual] + span');
  await ann.click('input[name=rated][value=casual] + span');
  await ann.click('input[name=color][value=white] + span');
  await ann.click('#create-seek');
  await ben.locator(`tr.seek[data-owner="${ANN}"] .accept-seek`).first().click();
  const [a, b] = await Promise.all([gameReady(ann), gameReady(ben)]);
  assert.equal(a, b);
  return a;
}

async function typeMoves(moves) {
  for (const [i, move] of moves.entries()) {
    const page = i % 2 ? ben : ann;
    await page.fill('#move-input', move);
    await page.press('#move-input', 'Enter');
    await waitForPly(ann, i + 1);
    await waitForPly(ben, i + 1);
  }
}

test('issue 38: a finished game is analysed: graph, marked blunder with the better move, accuracy', async () => {
  const id = await newGame();
  // No analysis during play (§8.5): the review page of a live game offers none.
  const watcher = await open({ name: 'watcher' });
  await watcher.goto(`/review/${id}`);
  await watcher.waitForSelector('#moves');
  assert.equal(await watcher.locator('#analyse-game').count(), 0, 'no analysis button while the game is played');

  // 1. e4 e5 2. Bc4 Nc6 3. Qh5 Nf6?? 4. Qxf7#: Black's third move allows a mate in one.
  await typeMoves(['e4', 'e5', 'Bc4', 'Nc6', 'Qh5', 'Nf6', 'Qxf7#']);
  await ann.waitForSelector('#result:not([hidden])');
  // The opening is named on the board page and in the PGN (lichess's data set, crates/openings).
  assert.equal(await ann.textContent('#opening'), "C23 Bishop's Opening");
  const pgn = await (await fetch(`${server.base}/api/v1/games/${id}/pgn`)).text();
  assert.match(pgn, /\[ECO "C23"\]/);
  assert.match(pgn, /\[Opening "Bishop's Opening"\]/);
  await ann.click('#review-link');
  await ann.waitForSelector('#analyse-game');
  assert.equal(await ann.textContent('#opening'), "C23 Bishop's Opening");
  await ann.click('#analyse-game');
  // Progress is shown while the engine works, then the graph under the board.
  await ann.waitForSelector('#eval-graph', { timeout: 120000 });
  const graphBox = await ann.locator('#eval-graph').boundingBox();
  const boardBox = await ann.locator('#board').boundingBox();
  assert.ok(graphBox.y >= boardBox.y + boardBox.height - 1, 'the graph is under the board');
  assert.equal(await ann.isHidden('#analyse-game'), true);

  // The blunder is marked in the move list, with the better move.
  const blunder = ann.locator('#moves .move.judged.blunder');
  assert.equal(await blunder.count(), 1, 'one blunder');
  assert.equal((await blunder.textContent()).trim(), 'Nf6??');
  assert.equal(await blunder.getAttribute('data-ply'), '6');
  const title = await blunder.getAttribute('title');
  assert.match(title, /^Blunder\. Best was \S+/, title);
  assert.doesNotMatch(title, /Best was Nf6/, title);
  // And marked on the graph.
  assert.equal(await ann.locator('#eval-graph .graph-mark.blunder[data-ply="6"]').count(), 1);

  // Each player's accuracy: Black, who blundered, is below White.
  const accuracy = async (color) => Number((await ann.textContent(`.player-accuracy[data-color=${color}] .accuracy-value`)).replace('%', ''));
  const [white, black] = [await accuracy('white'), await accuracy('black')];
  assert.ok(white > black, `White ${white}% > Black ${black}%`);
  assert.match(await ann.textContent('.player-accuracy[data-color=black] .counts'), /1 blunder/);

  // A click on the graph goes to that move; the panel says what it was.
  await ann.locator('#eval-graph .graph-hit[data-ply="6"]').click();
  await ann.waitForSelector('#moves .move.active[data-ply="6"]');
  assert.match(await ann.textContent('#move-advice'), /Nf6\?\?.*Blunder\. Best was/);
  await ann.setViewportSize({ width: 1280, height: 1000 }); // the graph in the picture too
  await ann.waitForTimeout(400); // the board's 200 ms animation, for the picture only
  await screenshot(ann, 'review-analysis');

  // Kept: another visitor's review page shows it at once, in Chinese for a Chinese browser.
  const zh = await open({ locale: 'zh-CN', name: 'zh', viewport: { width: 1280, height: 1000 } });
  await zh.goto(`/review/${id}`);
  await zh.waitForSelector('#eval-graph');
  assert.equal(await zh.locator('#analyse-game').isHidden(), true, 'already analysed: nothing to ask');
  assert.match(await zh.getAttribute('#moves .move.judged.blunder', 'title'), /^漏着。最佳着法是 \S+。$/);
  assert.match(await zh.textContent('#accuracy'), /准确度/);
  await zh.locator('#eval-graph .graph-hit[data-ply="6"]').click();
  await zh.waitForSelector('#moves .move.active[data-ply="6"]');
  await zh.waitForTimeout(400);
  await screenshot(zh, 'review-analysis-zh');
  await zh.close();

  // The marks, counts and graph are readable (WCAG AA) on both themes.
  await axe(ann, 'an analysed game (dark)');
  const light = await open({ name: 'light', colorScheme: 'light' });
  await light.goto(`/review/${id}`);
  await light.waitForSelector('#eval-graph');
  await light.locator('#eval-graph .graph-hit[data-ply="6"]').click();
  await light.waitForSelector('#moves .move.active[data-ply="6"]');
  await axe(light, 'an analysed game (light)');
  await light.close();
  await watcher.close();
});

test('issue 38: piece sets are chosen beside the board colours and remembered', async () => {
  const page = await open({ name: 'pieces' });
  await page.goto('/');
  await page.click('button.level[data-level="1"]');
  await page.click('#play-computer');
  await gameReady(page);
  const king = () => page.$eval('#board piece.king.white', (el) => getComputedStyle(el).backgroundImage);
  assert.match(await king(), /^url\("data:image\/svg\+xml/, 'cburnett by default');
  assert.deepEqual(await page.$$eval('#piece-set option', (os) => os.map((o) => o.value)), ['cburnett', 'merida', 'chessnut']);
  for (const set of ['merida', 'chessnut']) {
    await page.selectOption('#piece-set', set);
    const url = (await king()).match(/url\("([^"]+)"\)/)[1];
    assert.match(url, new RegExp(`/vendor/pieces/${set}/wK\\.svg$`));
    const r = await fetch(url);
    assert.equal(r.status, 200, url);
    assert.match(r.headers.get('content-type'), /^image\/svg\+xml/);
  }
  await screenshot(page, 'game-chessnut');
  await page.reload();
  await gameReady(page);
  assert.equal(await page.inputValue('#piece-set'), 'chessnut', 'remembered');
  assert.match(await king(), /chessnut\/wK\.svg/);
  await page.click('#resign');
  await page.click('#resign');
  await page.close();
});
