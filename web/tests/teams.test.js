// Issue 54's browser proof of a team event at the board: a team Swiss of 10 teams of four
// boards created on the form, nine teams imported from a list with a team column and one
// registered at the desk with its captain; the captain enters a line-up from their own page (a
// broken board order refused in words); every board's result typed at the desk (`3.2 1-0`),
// the matches, team standings and board prize table following; a spectator reads them in
// 简体中文. And one played online: each board a game of the site, line-ups submitted by two
// captains for the next round, the games ended by resignation and the matches rolling up. And
// the desk's team controls: a forbidden team pair, a team marked absent and present, a round
// unpaired and paired again.
// Run with scripts/e2e.sh (or `npm test` after `cargo build -p rookery-cli`).

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, launchBrowser, visitor, signup, screenshot, logOnFailure } from './harness.js';

let server;
afterEach((t) => logOnFailure(t, server));
let browser;
const pages = [];

async function open(opts) {
  const page = await visitor(browser, server.base, opts);
  page.setDefaultTimeout(30000);
  pages.push(page);
  return page;
}

before(async () => {
  // The online event's 42 players sign up from 127.0.0.1: more than the 30 sign-ups an
  // address may make in 10 minutes (docs/api.md, Limits), which this file does not test.
  server = await startServer({ args: ['--signups-per-address', '200'] });
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

/** The result the test gives a board (varied, so that matches are won, lost and drawn). */
const scripted = (round, match, board) => ['1-0', '0-1', '=', '0-1', '1-0', '=', '1-0'][(round * 5 + match * 3 + board) % 7];

test('a team Swiss of 10 teams of four boards at the board: teams imported and registered, a captain\'s line-up, every board typed at the desk (3.2 1-0), team standings and board prizes', async () => {
  const suffix = Date.now().toString(36).slice(-4);
  const org = await open({ name: 'organiser-teams' });
  await signup(org, `org_${suffix}`);
  const cap = await open({ name: 'captain' });
  const captain = await signup(cap, `cap_${suffix}`);

  await org.goto('/tournaments/new');
  await org.waitForSelector('#tournament-form');
  await org.click('input[name=format][value=team_swiss] + span');
  assert.ok(await org.isVisible('#tf-boards'), 'the team fields');
  assert.ok(await org.isVisible('#tf-lineup-deadline'), 'online: the line-up deadline');
  await org.check('#tf-otb');
  assert.ok(!(await org.isVisible('#tf-lineup-deadline')) && !(await org.isVisible('[data-field=rated]')), 'over the board: unrated, no deadline');
  await org.fill('#tf-name', `League ${suffix}`);
  await org.fill('#tf-time-control', '3600+30');
  await org.fill('#tf-rounds', '3');
  await org.fill('#tf-reserves', '1');
  await org.click('#tf-submit');
  await org.waitForURL((u) => /^\/tournaments\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== '/tournaments/new');
  await org.waitForSelector('#teams-empty');

  // Nine teams from a list: a team's players in board order, the reserve last.
  const teams = Array.from({ length: 9 }, (_, i) => `Team ${String.fromCharCode(65 + i)}`);
  const rows = teams.flatMap((team, i) => [1, 2, 3, 4, 5].map((b) => `${team} ${b},${2300 - 40 * i - 5 * b},${team}`));
  await org.fill('#arb-roster-text', ['Name,Rating,Team', ...rows].join('\n'));
  await org.click('#arb-roster-import');
  await org.waitForFunction(() => document.querySelectorAll('#teams-list .team-card').length === 9);
  // The tenth at the desk, with its captain's account.
  await org.fill('#team-name', 'Owls');
  await org.fill('#team-players', ['Owl 1, 1500', 'Owl 2, 1490', 'Owl 3, 1480', 'Owl 4, 1470', 'Owl 5, 1460'].join('\n'));
  await org.fill('#team-captain', captain);
  await org.click('#team-register-submit');
  await org.waitForFunction(() => document.querySelectorAll('#teams-list .team-card').length === 10);
  await org.click('#arb-start');
  await org.waitForFunction(() => document.querySelectorAll('#team-round .team-match').length === 5);
  // Boards alternate: the first team has White on boards 1 and 3.
  assert.deepEqual(await org.$$eval('.team-match[data-match="1"] tr[data-board]', (trs) => trs.map((tr) => tr.dataset.first)), ['white', 'black', 'white', 'black']);

  // The captain fields the reserve on board 4 from their own page; a broken order is refused.
  await cap.goto(new URL(org.url()).pathname);
  await cap.waitForSelector('#you-captain');
  await cap.selectOption('#lu-board-1', 'Owl 2');
  await cap.selectOption('#lu-board-2', 'Owl 1');
  await cap.click('#lu-submit');
  await cap.waitForSelector('.toast.error');
  await cap.selectOption('#lu-board-1', 'Owl 1');
  await cap.selectOption('#lu-board-2', 'Owl 2');
  await cap.selectOption('#lu-board-4', 'Owl 5');
  await cap.click('#lu-submit');
  await org.waitForFunction(() => [...document.querySelectorAll('#team-round td')].some((td) => td.textContent === 'Owl 5'));

  // Every board typed at the desk, round by round.
  for (let round = 1; round <= 3; round++) {
    await org.waitForFunction((r) => document.querySelector('#team-round')?.dataset.round === String(r) && document.querySelector('#team-desk'), round);
    for (let match = 1; match <= 5; match++) {
      for (let board = 1; board <= 4; board++) {
        await org.fill('#team-desk', `${match}.${board} ${scripted(round, match, board)}`);
        await org.press('#team-desk', 'Enter');
        await org.waitForFunction(([m, b]) => {
          const td = document.querySelector(`#team-round .team-match[data-match="${m}"] tr[data-board="${b}"] td.result`);
          return td && td.textContent !== '–';
        }, [match, board]);
        if (round === 1 && match === 1 && board === 1) {
          // A second entry for a board is refused (a correction is the arbiter's, with a
          // reason), and the text is put back to be fixed.
          await org.fill('#team-desk', '1.1 0-1');
          await org.press('#team-desk', 'Enter');
          await org.waitForSelector('.toast.error');
          assert.equal(await org.inputValue('#team-desk'), '1.1 0-1');
        }
      }
    }
    if (round < 3) await org.click('#arb-pair');
  }
  await org.waitForFunction(() => document.querySelector('#tour-status')?.dataset.status === 'finished');
  assert.equal(await org.locator('#team-standings tbody tr').count(), 10);
  assert.equal(await org.locator('#board-prizes .board-prize').count(), 4);
  // Each round's match points add up to 2 a match.
  const mp = await org.$$eval('#team-standings tbody tr td:nth-child(3)', (tds) => tds.map((td) => Number(td.textContent.replace('½', '.5'))));
  assert.equal(mp.reduce((a, b) => a + b, 0), 3 * 5 * 2);
  assert.ok(mp.every((x, i) => i === 0 || mp[i - 1] >= x), 'ranked by match points');
  assert.match(await org.textContent('#audit-log li:nth-child(2) .log-what'), /Round 3, match \d, board \d/);

  // The team event's files and documents are offered (the teams', not a player's event's),
  // and the match list prints: the PDF a browser makes of it (headless Chromium), read back
  // by pdftotext in both languages — the event, the captain's reserve on board 4, the words.
  const eventPage = new URL(org.url()).pathname;
  const offered = await org.$$eval('#downloads a', (as) => as.map((a) => a.dataset.file));
  assert.deepEqual(offered, ['trf', 'pgn', 'standings.csv', 'board-prizes.csv', 'standings.html', 'print/pairings', 'print/scoresheets', 'print/standings']);
  const matches = await org.getAttribute('#downloads a[data-file="print/pairings"]', 'href');
  const dir = mkdtempSync(join(tmpdir(), 'rookery-team-pdf-'));
  for (const [lang, words] of [['en', ['Matches', 'Board']], ['zh', ['团体对阵表', '台次']]]) {
    await org.goto(`${matches.replace(/lang=[a-z]+/, `lang=${lang}`)}&round=1`);
    const file = join(dir, `matches-${lang}.pdf`);
    writeFileSync(file, await org.pdf({ preferCSSPageSize: true, printBackground: true }));
    const text = execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
    for (const want of [...words, `League ${suffix}`, 'Owl 5', 'Owls']) {
      assert.ok(text.includes(want), `the match list (${lang}) lacks ${want}:\n${text.slice(0, 2000)}`);
    }
  }
  await org.goto(eventPage);
  await org.waitForSelector('#team-standings');

  // A spectator in 简体中文: the same tables, no desk.
  const watcher = await open({ locale: 'zh-CN', name: 'teams-watcher' });
  await watcher.goto(new URL(org.url()).pathname);
  await watcher.waitForSelector('#team-standings');
  assert.equal(await watcher.locator('#team-desk').count(), 0);
  assert.match(await watcher.textContent('#team-standings thead'), /场分.*局分/);
  assert.match(await watcher.textContent('#board-prizes'), /第 4 台/);
  assert.match(await watcher.textContent('#pairings-title'), /对阵/);
  await screenshot(watcher, 'tournament-teams');
});

/**
 * In `page`'s browser context: logs in as `who` and plays on `game`'s socket: `move` (a UCI
 * move at ply 0) if given, then resigns if `resign`. Waits for the game's answer each time.
 */
async function asPlayer(page, who, game, { move = null, resign = false }) {
  await page.evaluate(async ({ who, game, move, resign }) => {
    const api = await import(document.querySelector('script[src$="/js/app.js"]').src.replace(/app\.js$/, 'api.js'));
    await api.account();
    await api.login(who, 'correct horse battery');
    const ws = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api/v1/games/${game}/socket`);
    const seen = [];
    const waiters = [];
    ws.onmessage = (e) => {
      const m = JSON.parse(e.data);
      seen.push(m);
      for (const w of [...waiters]) if (w.test(m)) { waiters.splice(waiters.indexOf(w), 1); w.resolve(m); }
    };
    const next = (test) => new Promise((resolve, reject) => {
      const found = seen.find(test);
      if (found) { resolve(found); return; }
      waiters.push({ test, resolve });
      setTimeout(() => reject(new Error(`${who} on ${game}: no answer (${JSON.stringify(seen.slice(-3))})`)), 20000);
    });
    await next((m) => m.t === 'hello');
    if (move) {
      ws.send(JSON.stringify({ t: 'move', uci: move, ply: 0 }));
      await next((m) => m.t === 'move' && m.ply === 1);
    }
    if (resign) {
      ws.send(JSON.stringify({ t: 'resign' }));
      await next((m) => m.t === 'end');
    }
    ws.close();
  }, { who, game, move, resign });
}

test('a team Swiss of 10 teams of four boards online: each board a game of the site, captains\' line-ups for the next round, games ended by resignation rolling up into the matches', async () => {
  const suffix = Date.now().toString(36).slice(-4);
  const org = await open({ name: 'organiser-teams-online' });
  await signup(org, `orgo_${suffix}`);
  const caps = [];
  for (const c of ['a', 'b']) {
    const p = await open({ name: `captain-${c}` });
    await signup(p, `cap${c}_${suffix}`);
    caps.push(p);
  }
  // The players' accounts: ten teams of four, teams A and B with a reserve.
  const letters = 'ABCDEFGHIJ'.split('');
  const roster = (l) => Array.from({ length: l === 'A' || l === 'B' ? 5 : 4 }, (_, i) => `${l.toLowerCase()}${i + 1}_${suffix}`);
  const signer = await open({ name: 'players' });
  await signer.goto('/');
  await signer.evaluate(async (names) => {
    const api = await import(document.querySelector('script[src$="/js/app.js"]').src.replace(/app\.js$/, 'api.js'));
    // The visitor's CSRF token first: the page may not have asked for it yet.
    await api.account();
    for (const username of names) await api.signup(username, 'correct horse battery');
  }, letters.flatMap(roster));

  await org.goto('/tournaments/new');
  await org.waitForSelector('#tournament-form');
  await org.click('input[name=format][value=team_swiss] + span');
  await org.fill('#tf-name', `Online league ${suffix}`);
  await org.fill('#tf-time-control', '600+5');
  await org.fill('#tf-rounds', '2');
  await org.fill('#tf-reserves', '1');
  await org.fill('#tf-lineup-deadline', '0');
  await org.click('#tf-submit');
  await org.waitForURL((u) => /^\/tournaments\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== '/tournaments/new');
  const url = new URL(org.url()).pathname;
  const id = url.split('/').pop();
  await org.waitForSelector('#teams-empty');
  // Eight teams from a list (account names), A and B at the desk with their captains.
  const rows = letters.slice(2).flatMap((l) => roster(l).map((n) => `${n},Team ${l}`));
  await org.fill('#arb-roster-text', ['Name,Team', ...rows].join('\n'));
  await org.click('#arb-roster-import');
  await org.waitForFunction(() => document.querySelectorAll('#teams-list .team-card').length === 8);
  for (const [i, l] of ['A', 'B'].entries()) {
    await org.fill('#team-name', `Team ${l}`);
    await org.fill('#team-players', roster(l).join('\n'));
    await org.fill('#team-captain', `cap${['a', 'b'][i]}_${suffix}`);
    await org.click('#team-register-submit');
    await org.waitForFunction((n) => document.querySelectorAll('#teams-list .team-card').length === n, 9 + i);
  }
  await org.click('#arb-start');
  // Round 1's games are on at once (no deadline): each board links its game of the site.
  await org.waitForFunction(() => document.querySelectorAll('#team-round a.team-game').length === 20);

  // The captains field their reserve on board 4 in round 2, from their own pages.
  for (const [i, cap] of caps.entries()) {
    const l = ['A', 'B'][i];
    await cap.goto(url);
    await cap.waitForSelector('#you-captain');
    assert.equal(await cap.inputValue('#lu-round'), '2', 'round 1 is on: the line-up is for round 2');
    await cap.selectOption('#lu-board-4', roster(l)[4]);
    await cap.click('#lu-submit');
    await cap.waitForSelector('.toast.ok');
  }

  /** Plays out every board of the round shown: White moves, then one side resigns. */
  async function playRound(round) {
    const view = await org.evaluate(async (tid) => (await fetch(`/api/v1/tournaments/${tid}`)).json(), id);
    const r = view.teams.rounds[round - 1];
    for (const m of r.matches) {
      for (const b of m.boards) {
        assert.equal(b.game, `${id}t${round}m${m.number}b${b.board}`);
        // Board 2 of match 1 goes to White; every other board to the side that moves first.
        const whiteLoses = m.number === 1 && b.board === 2;
        await asPlayer(signer, b.white, b.game, { move: 'e2e4', resign: whiteLoses });
        if (!whiteLoses) await asPlayer(signer, b.black, b.game, { resign: true });
      }
    }
    await org.waitForFunction((n) => document.querySelectorAll(`#team-round .team-match`).length === 5
      && [...document.querySelectorAll('#team-round td.result')].every((td) => /^(1-0|0-1|½-½)$/.test(td.textContent.trim())), round);
  }
  await playRound(1);
  assert.match(await org.textContent('#team-round .team-match[data-match="1"] .match-points'), /\(0 – 2\)|\(2 – 0\)/, 'match 1 is won 3-1');
  await org.click('#arb-pair');
  await org.waitForFunction(() => document.querySelector('#team-round')?.dataset.round === '2' && document.querySelectorAll('#team-round a.team-game').length === 20);
  // The captains' reserves play board 4.
  for (const l of ['A', 'B']) {
    const reserve = roster(l)[4];
    const board = await org.$eval('#team-round', (el, name) => [...el.querySelectorAll('tr[data-board]')].find((tr) => tr.textContent.includes(name))?.dataset.board, reserve);
    assert.equal(board, '4', `${reserve} on board 4`);
  }
  await playRound(2);
  await org.waitForFunction(() => document.querySelector('#tour-status')?.dataset.status === 'finished');
  assert.equal(await org.locator('#team-standings tbody tr').count(), 10);
  const mp = await org.$$eval('#team-standings tbody tr td:nth-child(3)', (tds) => tds.map((td) => Number(td.textContent.replace('½', '.5'))));
  assert.equal(mp.reduce((a, b) => a + b, 0), 2 * 5 * 2);
  const g = await (await fetch(`${server.base}/api/v1/games/${id}t1m1b2`)).json();
  assert.equal(g.termination, 'resignation');
  assert.equal(await org.locator('.toast.error').count(), 0, 'no refusal on the way');
});

test('the team desk\'s controls: a forbidden team pair kept apart and lifted, a team marked absent and present, a round unpaired and paired again', async () => {
  const suffix = Date.now().toString(36).slice(-4);
  const org = await open({ name: 'organiser-team-desk' });
  await signup(org, `desk_${suffix}`);
  await org.goto('/tournaments/new');
  await org.waitForSelector('#tournament-form');
  await org.click('input[name=format][value=team_swiss] + span');
  await org.check('#tf-otb');
  await org.fill('#tf-name', `Clubs ${suffix}`);
  await org.fill('#tf-time-control', '3600+30');
  await org.fill('#tf-rounds', '3');
  await org.fill('#tf-boards', '2');
  await org.fill('#tf-reserves', '0');
  await org.click('#tf-submit');
  await org.waitForURL((u) => /^\/tournaments\/[A-Za-z0-9]+$/.test(u.pathname) && u.pathname !== '/tournaments/new');
  await org.waitForSelector('#teams-empty');
  // Four teams rated A down to D: C.04.6 would pair A–C and B–D in round 1.
  const teams = ['A', 'B', 'C', 'D'].map((l) => `Team ${l}`);
  const rows = teams.flatMap((team, i) => [1, 2].map((b) => `${team} ${b},${2000 - 100 * i - b},${team}`));
  await org.fill('#arb-roster-text', ['Name,Rating,Team', ...rows].join('\n'));
  await org.click('#arb-roster-import');
  await org.waitForFunction(() => document.querySelectorAll('#teams-list .team-card').length === 4);

  // Team A and Team C are one club's: forbidden before the start, kept apart by round 1.
  await org.selectOption('#team-forbid-a', 'Team A');
  await org.selectOption('#team-forbid-b', 'Team C');
  await org.fill('#team-forbid-reason', 'one club');
  await org.click('#team-forbid-submit');
  await org.waitForSelector('#team-forbidden li[data-a="Team A"][data-b="Team C"]');
  await org.click('#arb-start');
  await org.waitForFunction(() => document.querySelectorAll('#team-round .team-match').length === 2);
  const pairs = () => org.$$eval('#team-round .team-match', (ms) => ms.map((m) => [...m.querySelectorAll('.team-name')].map((n) => n.textContent).sort().join(' – ')));
  assert.ok(!(await pairs()).includes('Team A – Team C'), `A and C kept apart: ${await pairs()}`);

  // Team D did not come: marked absent, its match is lost by forfeit on both boards; the
  // round, now with results, is not to be unpaired.
  await org.click('#team-absent-box li[data-team="Team D"] .team-absent-toggle');
  await org.waitForSelector('#team-absent-box li[data-team="Team D"][data-absent="true"]');
  const withD = await org.$eval('#team-round', (el) => [...el.querySelectorAll('.team-match')].find((m) => m.textContent.includes('Team D')).dataset.match);
  const forfeits = await org.$$eval(`#team-round .team-match[data-match="${withD}"] td.result`, (tds) => tds.map((td) => td.textContent));
  assert.ok(forfeits.every((r) => r === '+-' || r === '-+'), `forfeits: ${forfeits}`);
  await org.waitForSelector('#arb-round-started');
  assert.equal(await org.locator('#team-unpair').count(), 0);
  await org.click('#team-absent-box li[data-team="Team D"] .team-absent-toggle');
  await org.waitForSelector('#team-absent-box li[data-team="Team D"][data-absent="false"]');
  const other = withD === '1' ? 2 : 1;
  for (const board of [1, 2]) {
    await org.fill('#team-desk', `${other}.${board} 1-0`);
    await org.press('#team-desk', 'Enter');
    await org.waitForFunction(([m, b]) => document.querySelector(`#team-round .team-match[data-match="${m}"] tr[data-board="${b}"] td.result`)?.textContent === '1-0', [other, board]);
  }

  // Round 2 paired, then taken back (the desk's unpair, confirmed) and paired again.
  await org.click('#arb-pair');
  await org.waitForFunction(() => document.querySelector('#team-round')?.dataset.round === '2');
  const round2 = await pairs();
  await org.click('#team-unpair');
  await org.click('#team-unpair');
  await org.waitForFunction(() => document.querySelector('#team-round')?.dataset.round !== '2' && document.querySelector('#arb-pair'));
  assert.match(await org.textContent('#audit-log li:first-child .log-what'), /Round 2 unpaired/);
  await org.click('#arb-pair');
  await org.waitForFunction(() => document.querySelector('#team-round')?.dataset.round === '2');
  assert.deepEqual(await pairs(), round2, 'the same pairing again');

  // The pair lifted: the list is empty, the log says so.
  await org.click('#team-forbidden .allow-team-pair');
  await org.waitForFunction(() => !document.querySelector('#team-forbidden'));
  assert.match(await org.textContent('#audit-log li:first-child .log-what'), /Team A and Team C may meet again/);
  assert.equal(await org.locator('.toast.error').count(), 0, 'no refusal on the way');
});
