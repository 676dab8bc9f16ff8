// Issue 51, a class behind one address: a teacher creates forty accounts from a list, prints
// the slips, and forty pupils, every one from the same address (127.0.0.1), log in with their
// codes, all seek at once (more than the 20 open seeks a guests' address may hold) and all
// play, under the server's default limits.

import { test, before, after, afterEach } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launchBrowser, visitor, signup, drag, gameReady, screenshot, waitForPly, logOnFailure } from './harness.js';

let server;
// A failed test prints the end of the server's log (each node's, on a cluster).
afterEach((t) => logOnFailure(t, server));
let browser;
const pages = [];
const suffix = Date.now().toString(36).slice(-4);
const TEACHER = `teacher_${suffix}`;
const PUPILS = 40;
const pupilName = (i) => `p${suffix}_${String(i).padStart(2, '0')}`;

async function open(opts) {
  const page = await visitor(browser, server.base, opts);
  page.setDefaultTimeout(30000); // two cores shared by the server and forty pages
  pages.push(page);
  return page;
}

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});

after(async () => {
  for (const p of pages) {
    assert.deepEqual(p.errors.map((e) => e.message), [], 'no uncaught errors in the pages');
  }
  if (browser) await browser.close();
  if (server) await server.stop();
});

test('the slip\'s address and the class page load directly', async () => {
  for (const path of ['/first-login', '/class']) {
    const r = await fetch(server.base + path);
    assert.equal(r.status, 200, path);
    assert.match(r.headers.get('content-type'), /^text\/html/, path);
  }
});

test('a teacher makes a class of forty; they all log in with their slips and play', async () => {
  const teacher = await open({ name: 'teacher' });
  await signup(teacher, TEACHER);
  await teacher.goto('/tournaments');
  await teacher.click('#class-link');
  await teacher.waitForSelector('#class-list');

  // A bad line: refused whole, named by line and field.
  const rows = Array.from({ length: PUPILS }, (_, i) => `${pupilName(i)},${i % 5 === 4 ? '' : 30 - (i % 10)}`);
  await teacher.fill('#class-list', ['name,level', ...rows.slice(0, 3), `${pupilName(3)},level 40`].join('\n'));
  await teacher.click('#class-create');
  await teacher.waitForSelector('#class-error:not([hidden])');
  const error = await teacher.locator('#class-error').textContent();
  assert.match(error, /nothing was created: line 5, level: "level 40" is not a level/);
  assert.equal(await teacher.locator('.class-table tbody tr').count(), 0);

  await teacher.fill('#class-list', ['name,level', ...rows].join('\n'));
  await teacher.click('#class-create');
  await teacher.waitForSelector('#class-created');
  const slips = await teacher.$$eval('.slip', (els) => els.map((el) => ({
    name: el.querySelector('.slip-name').textContent, code: el.querySelector('.slip-code').textContent,
  })));
  assert.equal(slips.length, PUPILS);
  assert.deepEqual(slips.map((s) => s.name), rows.map((_, i) => pupilName(i)));
  for (const s of slips) assert.match(s.code, /^[0-9a-z]{5}-[0-9a-z]{5}$/);
  assert.equal(await teacher.locator('.class-table tbody tr').count(), PUPILS);
  await screenshot(teacher, 'class-slips');
  // Printed: the slips alone.
  await teacher.emulateMedia({ media: 'print' });
  assert.equal(await teacher.locator('.site-header').isVisible(), false);
  assert.equal(await teacher.locator('.class-form').isVisible(), false);
  assert.equal(await teacher.locator('.slip').first().isVisible(), true);
  await teacher.emulateMedia({ media: 'screen' });

  // Every pupil, from the same address, logs in with the slip's code and lands in the lobby.
  const pupils = [];
  for (let i = 0; i < PUPILS; i++) {
    const p = await open({ name: pupilName(i), viewport: { width: 1100, height: 800 } });
    // The first finds the page from the sign-in page's link; the others open the slip's address.
    if (i === 0) {
      await p.goto('/login');
      await p.click('#first-login-link');
    } else {
      await p.goto('/first-login');
    }
    await p.fill('#username', slips[i].name);
    await p.fill('#code', i % 2 ? slips[i].code.toUpperCase() : slips[i].code);
    await p.fill('#password', `secret ${i} secret`);
    await p.click('#account-submit');
    await p.waitForSelector('#me-link');
    assert.equal(await p.locator('#me-link').textContent(), slips[i].name);
    await p.waitForSelector('#create-form');
    pupils.push(p);
  }
  await teacher.reload();
  await teacher.waitForSelector('.class-table');
  assert.deepEqual(new Set(await teacher.$$eval('.class-status', (els) => els.map((e) => e.textContent))), new Set(['done']));

  // All forty seek at once (10+0, casual, white for the first twenty, black for the rest).
  for (let i = 0; i < PUPILS; i++) {
    const p = pupils[i];
    await p.fill('#tc-custom', '600+0');
    await p.click('input[name=rules][value=casual] + span');
    await p.click(`input[name=color][value=${i < PUPILS / 2 ? 'white' : 'black'}] + span`);
    await p.click('#create-seek');
    await p.waitForSelector(`tr.seek[data-owner="${pupilName(i)}"]`);
  }
  // Every pupil's seek is open, the first pupil's own included.
  try {
    await pupils[0].waitForFunction((n) => document.querySelectorAll('tr.seek').length >= n, PUPILS);
  } catch (e) {
    console.error(server.log.filter((l) => /refus|too_many|remov|WARN|ERROR/i.test(l)).join('').slice(-4000));
    throw new Error(`${await pupils[0].locator('tr.seek').count()} seeks listed, not ${PUPILS}`);
  }

  // The second twenty each join one of the first twenty's seeks, and both move.
  for (let i = 0; i < PUPILS / 2; i++) {
    const white = pupils[i];
    const black = pupils[i + PUPILS / 2];
    await black.locator(`tr.seek[data-owner="${pupilName(i)}"] .accept-seek`).first().click();
    const [a, b] = await Promise.all([gameReady(white), gameReady(black)]);
    assert.equal(a, b, `${pupilName(i)} and ${pupilName(i + PUPILS / 2)} are in one game`);
    await drag(white, 'e2', 'e4');
    await waitForPly(black, 1);
    await drag(black, 'e7', 'e5');
    await waitForPly(white, 2);
  }
  await screenshot(pupils[PUPILS - 1], 'class-game');
});
