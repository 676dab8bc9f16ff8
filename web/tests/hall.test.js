// Issue 53's proof, as an arbiter runs an event in a hall: a list of 40 imported from CSV, 38
// checked in, a 5-round Swiss paired and published from the desk, each round's pairings and
// scoresheets printed to PDF (their text, read back with pdftotext, lists the same pairings
// as the view), an illegal move and a colour mix-up recorded, every result typed at the desk,
// a slip undone, a result corrected with its reason, and at the end the site's standings
// equal `rookery standings` on the exported TRF. Once with the desk in English and once in
// 简体中文 (the documents printed in the desk's language). The players' phones are in
// tournaments.test.js. Run with scripts/e2e.sh.

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, visitor, signup, ROOT, logOnFailure } from './harness.js';

let server;
let browser;
const pages = [];
afterEach((t) => logOnFailure(t, server));

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

afterEach(async () => {
  const mine = pages.splice(0);
  for (const p of mine) await p.context().close();
  for (const p of mine) assert.deepEqual(p.errors.map((e) => e.message), [], 'no uncaught errors in the pages');
});

after(async () => {
  if (browser) await browser.close();
  if (server) await server.stop();
});

async function open(opts) {
  const page = await visitor(browser, server.base, opts);
  page.setDefaultTimeout(30000);
  pages.push(page);
  return page;
}

const ROUNDS = 5;
const pad = (i) => String(i).padStart(2, '0');
/** The result the board's players report in round `r`: wins both ways, draws, one forfeit. */
function played(r, board) {
  if (r === 3 && board === 5) return '+-';
  return ['1-0', '0-1', '=', '1-0', '0-1', '='][(r * 7 + board) % 6];
}
const apiResult = (typed) => (typed === '=' ? '1/2-1/2' : typed);

/** Prints `doc` of `round` in `lang` to PDF in a page of its own; its text, laid out. */
async function printed(url, doc, round, lang, dir) {
  const page = await open({ name: `print-${doc}-${lang}` });
  await page.goto(`/api/v1${url}/print/${doc}?round=${round}&lang=${lang}`);
  const file = join(dir, `${doc}-${round}-${lang}.pdf`);
  writeFileSync(file, await page.pdf({ preferCSSPageSize: true, printBackground: true }));
  await page.context().close();
  pages.splice(pages.indexOf(page), 1);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

for (const [lang, locale] of [['en', 'en-GB'], ['zh', 'zh-CN']]) {
  test(`issue 53: a 5-round Swiss of 38 run at the desk from a list of 40, printed to PDF, incidents, a slip undone and a correction (${lang})`, async () => {
    const suffix = `h${lang}${Date.now().toString(36).slice(-4)}`;
    const name = `Hall ${suffix}`;
    const org = await open({ name: `arbiter-${lang}`, locale });
    await signup(org, `arb_${suffix}`);
    await org.goto('/tournaments/new');
    await org.waitForSelector('#tournament-form');
    await org.click('input[name=format][value=swiss] + span');
    await org.fill('#tf-name', name);
    await org.fill('#tf-time-control', '5400+30');
    await org.fill('#tf-rounds', String(ROUNDS));
    await org.check('#tf-otb');
    await org.click('#tf-submit');
    await org.waitForURL((u) => /^\/tournaments\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== '/tournaments/new');
    const url = new URL(org.url()).pathname;
    const view = async () => (await fetch(`${server.base}/api/v1${url}`)).json();
    const until = async (what, ok) => {
      for (let i = 0; i < 300; i++) {
        const v = await view();
        if (ok(v)) return v;
        await new Promise((r) => setTimeout(r, 100));
      }
      throw new Error(`${what}: not within 30 s`);
    };

    // The list, and who is here: everyone, then two who are not.
    const rows = Array.from({ length: 40 }, (_, i) => `"Player, ${pad(i + 1)}",${2300 - 13 * i},${8700100 + i},CHN,${1990 + (i % 20)}`);
    await org.waitForSelector('#arb-roster-text');
    await org.fill('#arb-roster-text', ['Name,Rating,FIDE ID,Fed,Birth year', ...rows].join('\n'));
    await org.click('#arb-roster-import');
    await until('40 imported', (v) => v.players.length === 40);
    await org.waitForSelector('#arb-checkin-all');
    await org.click('#arb-checkin-all');
    await until('40 present', (v) => v.players.filter((p) => p.present).length === 40);
    for (const [n, left] of [['Player, 11', 39], ['Player, 29', 38]]) {
      await org.click(`input.checkin-toggle[data-name="${n}"]`);
      await until(`${left} present`, (v) => v.players.filter((p) => p.present).length === left);
    }

    const dir = mkdtempSync(join(tmpdir(), 'rookery-hall-'));
    const type = async (text) => { await org.fill('#arb-desk', text); await org.press('#arb-desk', 'Enter'); };
    const missing = async (round) => (await view()).rounds_list[round - 1].boards.filter((b) => !b.result).map((b) => b.board);
    for (let r = 1; r <= ROUNDS; r++) {
      await org.click(r === 1 ? '#arb-start' : '#arb-pair');
      await org.waitForSelector('#arb-publish');
      await org.click('#arb-publish');
      await org.waitForSelector('#arb-desk');
      const v = await view();
      const round = v.rounds_list[r - 1];
      assert.equal(round.boards.length, 19, `round ${r}: the 38 present on 19 boards`);
      const names = (b) => [b.white, b.black];
      assert.ok(round.boards.flatMap(names).every((n) => n !== 'Player, 11' && n !== 'Player, 29'), 'the absent are not paired');

      // The pairing list and the scoresheets as the hall gets them: PDFs whose text lists the
      // view's pairings, board by board, White before Black.
      const list = await printed(url, 'pairings', r, lang, dir);
      const lines = list.split('\n');
      for (const b of round.boards) {
        const line = lines.find((l) => new RegExp(`^\\s*${b.board}\\s`).test(l) && l.includes(b.white) && l.includes(b.black));
        assert.ok(line, `round ${r} (${lang}): board ${b.board}, ${b.white} – ${b.black}, not in the printed list:\n${list}`);
        assert.ok(line.indexOf(b.white) < line.indexOf(b.black), `board ${b.board}: White first: ${line}`);
      }
      const byName = await printed(url, 'pairings-by-name', r, lang, dir);
      for (const n of round.boards.flatMap(names)) assert.ok(byName.includes(n), `${n} in the list by name`);
      const sheets = await printed(url, 'scoresheets', r, lang, dir);
      const sheetWord = lang === 'en' ? 'Scoresheet' : '记录纸';
      assert.ok(sheets.split(sheetWord).length - 1 >= round.boards.length, `round ${r}: a scoresheet a board`);
      for (const b of round.boards) assert.ok(sheets.includes(b.white) && sheets.includes(b.black), `board ${b.board} on a sheet`);

      if (r === 1) {
        // An illegal move at board 1 (counted) and colours mixed up at board 2, found in time.
        for (const [board, kind, decision] of [[1, 'illegal_move', 'warned, the move taken back'], [2, 'colour_mixup', 'replayed with the right colours']]) {
          await org.click(`#pairings-table .inc-open[data-board="${board}"]`);
          await org.selectOption('#inc-kind', kind);
          await org.fill('#inc-decision', decision);
          await org.click('#inc-submit');
          await until(`round 1 board ${board}'s ${kind}`, (x) => x.rounds_list[0].boards[board - 1].incidents.some((i) => i.kind === kind));
        }
      }
      // The results as they come, typed; in round 2 the first is a slip, undone and typed again.
      for (const b of round.boards) {
        const result = played(r, b.board);
        if (r === 2 && b.board === 1) {
          await type(`1 ${result === '1-0' ? '0-1' : '1-0'}`);
          await until('the slip in', (x) => x.rounds_list[1].boards[0].result !== null);
          await type('undo');
          await until('the slip taken back', (x) => x.rounds_list[1].boards[0].result === null);
        }
        await type(`${b.board} ${result}`);
        if (b.board < 19) await until(`round ${r} board ${b.board}`, (x) => x.rounds_list[r - 1].boards[b.board - 1].result !== null);
      }
      if (r < ROUNDS) await org.waitForSelector('#arb-desk', { state: 'detached' });
      assert.deepEqual(await missing(r), [], `round ${r} complete`);
      if (r === 1) {
        // Board 3's result was read wrongly from its slip: corrected with its reason before
        // round 2 is paired from it.
        const right = played(1, 3) === '1-0' ? '0-1' : '1-0';
        await org.selectOption('#arb-board-round', '1');
        await org.selectOption('#arb-board', '3');
        await org.selectOption('#arb-result', right);
        await org.fill('#arb-board-reason', 'the slip was read wrongly');
        await org.click('#arb-result-submit');
        await until('the correction', (x) => x.rounds_list[0].boards[2].result === right);
      }
    }

    const v = await until('the event over', (x) => x.status === 'finished');
    const log = v.log;
    assert.deepEqual(log.filter((e) => e.action === 'undo').map((e) => [e.detail.round, e.detail.board]), [[2, 1]]);
    assert.ok(log.some((e) => e.action === 'result' && e.reason === 'the slip was read wrongly'), 'the correction logged with its reason');
    assert.deepEqual(v.rounds_list[0].boards.slice(0, 2).map((b) => b.incidents.map((i) => i.kind)), [['illegal_move'], ['colour_mixup']]);
    for (const [i, round] of v.rounds_list.entries()) {
      for (const b of round.boards) {
        const want = i === 0 && b.board === 3 ? (played(1, 3) === '1-0' ? '0-1' : '1-0') : apiResult(played(i + 1, b.board));
        assert.equal(b.result, want, `round ${i + 1} board ${b.board}`);
      }
    }
    // The page's standings are the site's; `rookery standings` on the exported TRF agrees
    // with them: every rank and score.
    await org.waitForSelector('#tour-status[data-status="finished"]');
    const trf = await (await fetch(`${server.base}/api/v1${url}/trf?lines=lf`)).text();
    const file = join(dir, 'event.trf');
    writeFileSync(file, trf);
    const bin = process.env.ROOKERY_BIN || join(ROOT, 'target/debug/rookery');
    const theirs = JSON.parse(execFileSync(bin, ['standings', file, '--json', '--fide-k', 'auto'], { encoding: 'utf8' })).standings;
    const byName = new Map(theirs.map((row) => [row.name, row]));
    assert.equal(v.standings.rows.length, 40);
    for (const row of v.standings.rows) {
      const other = byName.get(row.name);
      assert.ok(other, `${row.name} in rookery standings`);
      assert.deepEqual([row.rank, Number(row.score)], [other.rank, other.points], row.name);
    }
    const shown = await org.$$eval('#standings tbody tr', (trs) => trs.length);
    assert.equal(shown, 40, 'the page lists every player');
  });
}
