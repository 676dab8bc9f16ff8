// The arbiter's desk on a tournament page, for its creator (api.md "Arbiter actions"): start,
// over the board the player list (roster.js: import, guests, check-in, links),
// pair (a Swiss round is previewed, then published or paired again), players (withdraw,
// reinstate, byes, forbidden pairs listed and lifted), boards (result declared or corrected, time added, colours
// swapped), over the board the incidents at a board (incidents.js), end or cancel — every
// decision with its reason, as RULES.md §12 wants recorded.

import * as api from '../api.js';
import { h, toast, confirmButton } from '../dom.js';
import { t } from '../i18n.js';
import { errorText, resultShown } from './format.js';
import { rosterBoxes } from './roster.js';
import { incidentForm } from './incidents.js';
import { teamDesk, teamPairButton } from './teams.js';

const RESULTS = ['1-0', '0-1', '1/2-1/2', '+-', '-+', '--'];

/**
 * A desk entry as typed (`12 1-0`, `12 =`, `12 1/2`, `12 ½`, `12 +-`, `12 -+`, `12 --`): the board
 * and the result as the API spells it, or null.
 */
export function parseDeskEntry(text) {
  const m = /^\s*(\d{1,4})\s*[ .:]?\s*(1-0|0-1|=|1\/2|½|1\/2-1\/2|½-½|\+-|-\+|--)\s*$/.exec(text);
  if (!m) return null;
  const board = Number(m[1]);
  if (board < 1) return null;
  const draws = ['=', '1/2', '½', '1/2-1/2', '½-½'];
  return { board, result: draws.includes(m[2]) ? '1/2-1/2' : m[2] };
}
/**
 * A desk's `undo` (`undo`, `u`, or `undo 12` for board 12): `{ undo: true, board }` (`board`
 * null for the desk's last entry), or null.
 */
export function parseDeskUndo(text) {
  const m = /^\s*(?:undo|u)(?:\s+(\d{1,4}))?\s*$/i.exec(text);
  return m ? { undo: true, board: m[1] ? Number(m[1]) : null } : null;
}

/**
 * The results this page's desk entered, by tournament, last last (`{ round, board, result }`):
 * what `undo` takes back. Kept across the panel's rebuilds; another desk's entries are not here,
 * and the server refuses to take back a result that has changed since (409 `other_result`).
 */
const deskEntries = new Map();

const NEEDS_REASON = new Set(['withdraw', 'reinstate', 'add_time', 'result', 'swap_colours', 'end', 'cancel', 'bye', 'forbid_pair']);

/**
 * The arbiter panel for the view `T`. `send(action)` posts one action; the new state comes
 * back by the socket (and the answer), so the panel is rebuilt from each view.
 */
export function arbiterPanel(T, { onDone } = {}) {
  const id = T.id;
  const arena = T.format === 'arena';
  // A knockout's results are entered on its bracket (bracket.js); it has no rounds to pair.
  const knockout = T.format === 'knockout';
  const players = (T.players || []).map((p) => p.name);
  const current = (T.rounds_list || []).find((r) => r.round === T.round);
  const nextRound = T.round_state === 'paired' ? T.round : T.round + 1;

  /** Posts `action`; `taken()`, if given, runs once it is taken, before the panel is redrawn. */
  async function send(action, btn, taken) {
    if (btn) btn.disabled = true;
    try {
      const view = await api.arbiter(id, action);
      toast(t('arb.done.' + action.action) !== 'arb.done.' + action.action ? t('arb.done.' + action.action) : t('arb.done'), 'ok');
      if (taken) taken();
      if (onDone) onDone(view);
      return true;
    } catch (err) {
      toast(errorText(err), 'error', 6000);
      return false;
    } finally {
      if (btn) btn.disabled = false;
    }
  }

  const reasonInput = (id_) => h('input', { type: 'text', id: id_, placeholder: t('arb.reason'), autocomplete: 'off', class: 'reason' });
  const playerSelect = (id_) => h('select', { id: id_ }, players.map((n) => h('option', { value: n }, n)));
  const roundInput = (id_, value) => h('input', { type: 'number', id: id_, min: 1, value, class: 'round-input', 'aria-label': t('tour.round') });
  /** Reads the reason; an empty one for a decision that needs it is refused here already. */
  const reasonOf = (input, action) => {
    const r = input.value.trim();
    if (!r && NEEDS_REASON.has(action)) { input.classList.add('invalid'); input.focus(); toast(t('arb.reason_needed'), 'error'); return null; }
    input.classList.remove('invalid');
    return r;
  };

  // The round: start, pair, publish, pair again.
  const flow = [];
  const started = T.status !== 'upcoming';
  if (T.status === 'upcoming') {
    flow.push(h('button.btn.primary#arb-start', { type: 'button', on: { click: (e) => send({ action: 'start' }, e.currentTarget) } }, arena ? t('arb.open_arena') : t('arb.start')));
  }
  const team = !!T.teams;
  if (team && started) flow.push(teamPairButton(T, send));
  if (!arena && !knockout && !team && started && T.status === 'running') {
    if (T.round_state === 'paired') {
      flow.push(h('p.notice.preview-note', t('arb.preview', { round: T.round })));
      flow.push(h('button.btn.primary#arb-publish', { type: 'button', on: { click: (e) => send({ action: 'publish', round: T.round }, e.currentTarget) } }, t('arb.publish', { round: T.round })));
      flow.push(h('button.btn#arb-repair', { type: 'button', on: { click: async (e) => { if (await send({ action: 'unpair', round: T.round }, e.currentTarget)) await send({ action: 'pair' }); } } }, t('arb.repair')));
      flow.push(h('button.btn#arb-unpair', { type: 'button', on: { click: (e) => send({ action: 'unpair', round: T.round }, e.currentTarget) } }, t('arb.unpair')));
    } else if ((!current || current.state === 'finished') && !(T.format === 'swiss' && T.round >= (T.settings.rounds || 0))) {
      flow.push(h('button.btn.primary#arb-pair', { type: 'button', on: { click: (e) => send({ action: 'pair' }, e.currentTarget) } }, t('arb.pair', { round: T.round + 1 })));
    } else {
      flow.push(h('p.hint', t('arb.round_in_play', { round: T.round })));
      // Un-pairing a published round is possible only while none of its games has started
      // (api.md, `unpair`; the boards' `started`).
      if (current && !current.boards.some((b) => b.started)) {
        flow.push(confirmButton(t('arb.unpair_published'), t('common.confirm'), () => send({ action: 'unpair', round: T.round }), { class: 'btn', id: 'arb-unpair' }));
      } else {
        flow.push(h('p.hint#arb-round-started', t('arb.round_started')));
      }
    }
  }

  // Players: withdraw, reinstate, byes, forbidden pairs.
  const pSel = playerSelect('arb-player');
  const pReason = reasonInput('arb-player-reason');
  const pRound = roundInput('arb-player-round', nextRound);
  const byeKind = h('select#arb-bye-kind', ['half', 'zero', 'full'].map((k) => h('option', { value: k }, t('tour.bye.' + k))));
  const act = (action, extra = {}) => (e) => {
    const reason = reasonOf(pReason, action);
    if (reason === null) return;
    send({ action, player: pSel.value, ...extra(), ...(reason ? { reason } : {}) }, e.currentTarget);
  };
  const playersBox = players.length && !knockout ? h('div.arb-box#arb-players',
    h('h3', t('arb.players')),
    h('div.arb-row', pSel, arena ? null : h('label.inline', t('tour.round'), ' ', pRound), arena ? null : byeKind),
    pReason,
    h('div.arb-row',
      h('button.btn.small#arb-withdraw', { type: 'button', on: { click: act('withdraw', () => (arena ? {} : { round: Number(pRound.value) })) } }, t('arb.withdraw')),
      h('button.btn.small#arb-reinstate', { type: 'button', on: { click: act('reinstate', () => ({})) } }, t('arb.reinstate')),
      arena ? null : h('button.btn.small#arb-bye', { type: 'button', on: { click: act('bye', () => ({ round: Number(pRound.value), kind: byeKind.value })) } }, t('arb.set_bye')),
      arena ? null : h('button.btn.small#arb-cancel-bye', { type: 'button', on: { click: act('cancel_bye', () => ({ round: Number(pRound.value) })) } }, t('arb.cancel_bye')))) : null;

  const fa = playerSelect('arb-forbid-a');
  const fb = playerSelect('arb-forbid-b');
  if (players.length > 1) fb.selectedIndex = 1;
  const fReason = reasonInput('arb-forbid-reason');
  // The pairs forbidden so far, each with a button that lifts it (`allow_pair`).
  const forbidden = (T.forbidden_pairs || []).length ? h('ul.forbidden-list#arb-forbidden',
    T.forbidden_pairs.map(([a, b]) => h('li', { dataset: { a, b } }, `${a} × ${b} `,
      h('button.btn.small.allow-pair', { type: 'button', on: { click: (e) => {
        const reason = fReason.value.trim();
        send({ action: 'allow_pair', a, b, ...(reason ? { reason } : {}) }, e.currentTarget);
      } } }, t('arb.allow'))))) : null;
  const forbidBox = !arena && !knockout && players.length > 1 ? h('div.arb-box#arb-forbid',
    h('h3', t('arb.forbid')), h('p.hint', t('arb.forbid.help')), forbidden,
    h('div.arb-row', fa, h('span', '×'), fb), fReason,
    h('button.btn.small#arb-forbid-submit', { type: 'button', on: { click: (e) => {
      const reason = reasonOf(fReason, 'forbid_pair');
      if (reason !== null) send({ action: 'forbid_pair', a: fa.value, b: fb.value, reason }, e.currentTarget);
    } } }, t('arb.forbid.submit'))) : null;

  // Boards of the current round: declare or correct a result, add time, swap colours.
  const rounds = (T.rounds_list || []).filter((r) => r.state !== 'paired');
  let boardBox = null;
  if (rounds.length) {
    const last = rounds[rounds.length - 1];
    const bRound = h('select#arb-board-round', rounds.map((r) => h('option', { value: r.round, selected: r === last }, t('tour.round_n', { n: r.round }))));
    const bBoard = h('select#arb-board');
    const fillBoards = () => {
      const r = rounds.find((x) => String(x.round) === bRound.value) || last;
      bBoard.replaceChildren(...r.boards.map((b) => h('option', { value: b.board }, `${b.board}. ${b.white} – ${b.black}${b.result ? ` (${b.result})` : ''}`)));
    };
    bRound.addEventListener('change', fillBoards);
    fillBoards();
    const result = h('select#arb-result', RESULTS.map((r) => h('option', { value: r }, t('arb.result.' + r))));
    const color = h('select#arb-color', ['white', 'black'].map((c) => h('option', { value: c }, t('common.' + c))));
    const seconds = h('input#arb-seconds', { type: 'number', min: 1, max: 3600, value: 60, class: 'round-input' });
    const bReason = reasonInput('arb-board-reason');
    const board = (action, extra) => (e) => {
      const reason = reasonOf(bReason, action);
      if (reason !== null) send({ action, round: Number(bRound.value), board: Number(bBoard.value), ...extra(), reason }, e.currentTarget);
    };
    boardBox = arena ? null : h('div.arb-box#arb-boards',
      h('h3', t('arb.boards')),
      h('div.arb-row', bRound, bBoard),
      bReason,
      h('div.arb-row', result, h('button.btn.small#arb-result-submit', { type: 'button', on: { click: board('result', () => ({ result: result.value })) } }, t('arb.declare'))),
      h('div.arb-row', color, seconds, h('button.btn.small#arb-add-time', { type: 'button', on: { click: board('add_time', () => ({ color: color.value, seconds: Number(seconds.value) })) } }, t('arb.add_time'))),
      h('div.arb-row', h('button.btn.small#arb-swap', { type: 'button', on: { click: board('swap_colours', () => ({})) } }, t('arb.swap')), h('small.hint', t('arb.swap.help'))));
  }

  // Over the board: the desk, where results reported from the boards are typed as fast as
  // they come (`12 1-0` and Enter), with the boards still missing listed.
  let deskBox = null;
  // This desk's entries of the round, which `undo` takes back until the next round is paired
  // (a finished round too: the last board's slip closed it); older rounds' are corrected.
  // One list per tournament, changed in place: a panel rebuilt while an entry was on its way
  // (the view comes by the socket before the answer) pushes to the list the new one reads.
  if (!deskEntries.has(id)) deskEntries.set(id, []);
  const mine = deskEntries.get(id);
  for (let i = mine.length - 1; i >= 0; i--) if (!current || mine[i].round !== current.round) mine.splice(i, 1);
  const undo = async (board) => {
    const last = board == null ? mine[mine.length - 1] : null;
    const b = board == null ? null : current.boards.find((x) => x.board === board);
    const target = last || (b && b.result ? { round: current.round, board, result: b.result } : null);
    if (!target) { toast(t('arb.desk.nothing_to_undo'), 'error', 6000); return false; }
    return send({ action: 'undo', ...target }, null, () => {
      const at = mine.findIndex((x) => x.board === target.board);
      if (at >= 0) mine.splice(at, 1);
    });
  };
  const lastEntry = mine[mine.length - 1];
  const undoButton = () => (lastEntry && T.status === 'running' && T.round_state !== 'paired'
    ? h('button.btn.small#arb-undo', { type: 'button', on: { click: () => undo(null) } },
      t('arb.desk.undo', { board: lastEntry.board, result: resultShown(lastEntry.result) }))
    : null);
  if (T.over_the_board && current && current.state === 'published') {
    const missing = current.boards.filter((b) => !b.result);
    const disputed = missing.filter((b) => b.reports && b.reports.disputed);
    const desk = h('input#arb-desk', { type: 'text', autocomplete: 'off', spellcheck: 'false', placeholder: '12 1-0', 'aria-describedby': 'arb-desk-help' });
    desk.addEventListener('keydown', async (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      const text = desk.value;
      const taken = parseDeskUndo(text);
      if (taken) {
        desk.value = '';
        if (!await undo(taken.board)) desk.value = text;
        return;
      }
      const entry = parseDeskEntry(text);
      if (!entry) { toast(t('arb.desk.bad', { text }), 'error', 6000); return; }
      // Cleared at once so that the next board can be typed; put back if it is refused.
      desk.value = '';
      const typed = { round: current.round, ...entry };
      if (!await send({ action: 'enter', ...typed }, null, () => mine.push(typed))) desk.value = text;
    });
    deskBox = h('div.arb-box#arb-desk-box',
      h('h3', t('arb.desk', { n: current.round })),
      h('p.hint#arb-desk-help', t('arb.desk.help')),
      desk,
      undoButton(),
      h('p#arb-missing', missing.length
        ? t('arb.desk.missing', { boards: missing.map((b) => b.board).join(', ') })
        : t('arb.desk.complete')),
      // Boards whose two players reported different results from their phones: the desk
      // decides (typed like any result).
      disputed.length ? h('ul.warn#arb-disputed', disputed.map((b) => h('li', { dataset: { board: b.board } },
        t('arb.desk.disputed', { board: b.board, white: b.white, black: b.black, w: resultShown(b.reports.white), b: resultShown(b.reports.black) })))) : null,
      incidentForm(current, missing.length ? missing[0].board : 1, send));
  } else if (T.over_the_board && current && current.state === 'finished') {
    // An irregularity found once the round is over is still recorded (the result stands); the
    // entry that closed the round can still be undone.
    deskBox = h('div', undoButton(), incidentForm(current, 1, send));
  }

  // The whole tournament: end or cancel.
  const eReason = reasonInput('arb-end-reason');
  const endBox = T.status === 'running' || T.status === 'upcoming' ? h('div.arb-box#arb-end',
    h('h3', t('arb.finish')), eReason,
    h('div.arb-row',
      T.status === 'running' ? confirmButton(t('arb.end'), t('common.confirm'), () => { const r = reasonOf(eReason, 'end'); if (r !== null) send({ action: 'end', reason: r }); }, { class: 'btn small', id: 'arb-end-submit' }) : null,
      confirmButton(t('arb.cancel'), t('common.confirm'), () => { const r = reasonOf(eReason, 'cancel'); if (r !== null) send({ action: 'cancel', reason: r }); }, { class: 'btn small', id: 'arb-cancel-submit' }))) : null;

  return h('section.panel.arbiter-panel#arbiter-panel',
    h('h2', t('arb.title')),
    flow.length ? h('div.arb-flow', flow) : null,
    deskBox, team ? teamDesk(T, send) : null, rosterBoxes(T, { send, onDone }), playersBox, forbidBox, boardBox, endBox);
}

/** Who may use the panel: the creator. */
export const isArbiter = (T, name) => !!name && T.created_by === name;
