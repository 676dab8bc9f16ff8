// The player list of an over-the-board tournament, on the arbiter's desk (api.md `roster`,
// `guest`, `check_in`, `link`; issue 53): a list imported from CSV or TRF (pasted or chosen
// as a file), a guest added by hand, the check-in (only those present are paired), and a
// guest linked to the account the player opens.

import * as api from '../api.js';
import { h, toast } from '../dom.js';
import { t } from '../i18n.js';
import { errorText } from './format.js';

/** A refusal as the desk shows it: the server's own words where they name a line or a field. */
function refusalText(err) {
  const named = err && (err.code === 'bad_field' || err.code === 'duplicate_name') && err.message;
  return named ? `${errorText(err)} ${err.message}` : errorText(err);
}

/**
 * The list's boxes for the view `T`, or nothing for a tournament played on the site.
 * `send(action, button)` posts one arbiter action (true when done); `onDone(view)` takes
 * the answer of an import.
 */
export function rosterBoxes(T, { send, onDone }) {
  // A team event imports its teams before the start (a list with a team column); its players
  // are no entrants to add, check in or link.
  if (T.teams) return T.status === 'upcoming' ? [importBox(T, onDone)] : [];
  if (!T.over_the_board) return [];
  // Once it is over a guest may still be linked to the account the player opens.
  if (T.status === 'finished') return [linkBox(T, send)];
  if (!(T.status === 'upcoming' || T.status === 'running')) return [];
  const beforeRound1 = !(T.rounds_list || []).length;
  return [beforeRound1 ? importBox(T, onDone) : null, guestBox(send), checkInBox(T, send)];
}

function importBox(T, onDone) {
  const text = h('textarea#arb-roster-text', { rows: 5, spellcheck: 'false', placeholder: t('arb.roster.placeholder') });
  const format = h('select#arb-roster-format', ['auto', 'csv', 'trf'].map((f) => h('option', { value: f }, t('arb.roster.format.' + f))));
  const file = h('input', { type: 'file', accept: '.csv,.txt,.trf,text/csv,text/plain', 'aria-label': t('arb.roster.file') });
  const error = h('p.error#arb-roster-error', { role: 'alert', hidden: true });
  file.addEventListener('change', async () => {
    const f = file.files && file.files[0];
    if (!f) return;
    text.value = await f.text();
    if (/\.trf$/i.test(f.name)) format.value = 'trf';
    else if (/\.csv$/i.test(f.name)) format.value = 'csv';
  });
  const submit = h('button.btn.small#arb-roster-import', { type: 'button', on: { click: async () => {
    if (!text.value.trim()) { text.focus(); return; }
    submit.disabled = true;
    error.hidden = true;
    try {
      const body = { text: text.value, ...(format.value === 'auto' ? {} : { format: format.value }) };
      const view = await api.roster(T.id, body);
      const added = (view.players || []).length - (T.players || []).length;
      toast(t('arb.roster.done', { n: added }), 'ok');
      text.value = '';
      if (onDone) onDone(view);
    } catch (err) {
      // The list is refused whole: the line and the column stay on screen to be fixed.
      error.textContent = refusalText(err);
      error.hidden = false;
      toast(refusalText(err), 'error', 8000);
    } finally {
      submit.disabled = false;
    }
  } } }, t('arb.roster.import'));
  return h('div.arb-box#arb-roster',
    h('h3', t('arb.roster')),
    h('p.hint', t('arb.roster.help')),
    text,
    h('div.arb-row', file, format, submit),
    error);
}

function guestBox(send) {
  const name = h('input#arb-guest-name', { type: 'text', autocomplete: 'off', placeholder: t('arb.guest.name') });
  const rating = h('input#arb-guest-rating', { type: 'number', min: 0, max: 3500, placeholder: t('arb.guest.rating'), class: 'round-input' });
  const add = h('button.btn.small#arb-guest-add', { type: 'button', on: { click: async (e) => {
    const n = name.value.trim();
    if (!n) { name.focus(); return; }
    const r = rating.value === '' ? {} : { rating: Number(rating.value) };
    if (await send({ action: 'guest', name: n, ...r }, e.currentTarget)) { name.value = ''; rating.value = ''; }
  } } }, t('arb.guest.add'));
  name.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); add.click(); } });
  rating.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); add.click(); } });
  return h('div.arb-box#arb-guest', h('h3', t('arb.guest')), h('p.hint', t('arb.guest.help')), h('div.arb-row', name, rating, add));
}

/** A guest's account field and its button. */
function linkRow(p, send) {
  const account = h('input.link-account', { type: 'text', autocomplete: 'off', placeholder: t('arb.link.account'), 'aria-label': t('arb.link.account') });
  const go = h('button.btn.small.link-submit', { type: 'button', on: { click: (e) => {
    const a = account.value.trim();
    if (a) send({ action: 'link', player: p.name, account: a }, e.currentTarget);
    else account.focus();
  } } }, t('arb.link'));
  return h('span.link-row', account, go);
}

function linkBox(T, send) {
  const guests = (T.players || []).filter((p) => p.guest);
  if (!guests.length) return null;
  return h('div.arb-box#arb-links', h('h3', t('arb.link.title')),
    h('ul.checkin-list', guests.map((p) => h('li.checkin-row', { dataset: { name: p.name } }, h('span', p.name), linkRow(p, send)))));
}

/** One row per entrant: a present/absent toggle, and for a guest an account to link to. */
function checkInBox(T, send) {
  const players = T.players || [];
  if (!players.length) return null;
  const present = players.filter((p) => p.present).length;
  const rows = players.map((p, i) => {
    const toggle = h('input.checkin-toggle', { type: 'checkbox', id: `arb-checkin-${i}`, checked: !!p.present, dataset: { name: p.name } });
    toggle.addEventListener('change', async () => {
      toggle.disabled = true;
      const ok = await send({ action: 'check_in', player: p.name, present: toggle.checked });
      if (!ok) toggle.checked = !toggle.checked;
      toggle.disabled = false;
    });
    const link = p.guest ? linkRow(p, send) : null;
    // A fixed board (a wheelchair place, the arbiters' table): kept every round paired after.
    const fixed = h('input.fixed-board', {
      type: 'number', min: '1', max: '999', value: p.fixed_board ?? '', placeholder: t('arb.fixed_board'),
      title: t('arb.fixed_board.help'), 'aria-label': t('arb.fixed_board.of', { name: p.name }), dataset: { name: p.name },
    });
    fixed.addEventListener('change', async () => {
      const board = fixed.value.trim() === '' ? null : Number(fixed.value);
      fixed.disabled = true;
      if (!await send({ action: 'fix_board', player: p.name, board })) fixed.value = p.fixed_board ?? '';
      fixed.disabled = false;
    });
    return h('li.checkin-row', { dataset: { name: p.name, present: String(!!p.present) } },
      h('label.inline', toggle, ' ', p.name, p.rating ? h('small.hint', ` ${p.rating}`) : null, p.guest ? h('small.tag', ` ${t('arb.guest.tag')}`) : null),
      fixed, link);
  });
  const absent = players.filter((p) => !p.present).map((p) => p.name);
  // In parts of 200 names: a request body is at most 16 KiB (api.md, Limits).
  const all = absent.length ? h('button.btn.small#arb-checkin-all', { type: 'button', on: { click: async (e) => {
    const button = e.currentTarget;
    for (let i = 0; i < absent.length; i += 200) {
      if (!await send({ action: 'check_in', players: absent.slice(i, i + 200), present: true }, button)) break;
    }
  } } }, t('arb.checkin.all')) : null;
  return h('div.arb-box#arb-checkin',
    h('h3', t('arb.checkin')),
    h('p.hint', t('arb.checkin.help')),
    h('p#arb-checkin-count', t('arb.checkin.count', { n: present, total: players.length })),
    all,
    h('ul.checkin-list', rows));
}
