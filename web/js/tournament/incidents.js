// Over the board, the incidents at a board (RULES.md §12, *Over the board*; api.md
// `incident`): the desk's compact form, and the notes under the crosstable that its marks
// point to.

import { h } from '../dom.js';
import { t } from '../i18n.js';

const KINDS = ['illegal_move', 'time_added', 'colour_mixup', 'irregularity_after', 'misconduct'];
const WHAT = ['notes', 'outside_help', 'repeated_draw_offers', 'other'];
const SANCTIONS = ['warning', 'time_deducted', 'loss'];
/** The kinds that concern one player. */
const WITH_PLAYER = new Set(['illegal_move', 'time_added', 'misconduct']);

/** One incident in words: what, whose, the decision and its reason. */
export function incidentText(i) {
  const what = {
    illegal_move: () => t('inc.text.illegal_move', { n: i.count, penalty: t('inc.penalty.' + i.penalty, { s: Math.round((i.added_ms || 0) / 1000) }) }),
    time_added: () => t('inc.text.time_added', { s: i.seconds }),
    colour_mixup: () => t(i.before_quarter ? 'inc.text.mixup_replayed' : 'inc.text.mixup_continues'),
    irregularity_after: () => t('inc.text.irregularity_after'),
    misconduct: () => t('inc.text.misconduct', { what: t('inc.what.' + i.what), sanction: t('inc.sanction.' + i.sanction) }),
  }[i.kind];
  const head = (i.player ? i.player + ': ' : '') + (what ? what() : i.kind);
  return `${head}. ${t('inc.decision')}: ${i.decision}` + (i.reason ? ` (${i.reason})` : '');
}

/**
 * The boards with incidents, numbered in round and board order: `{ n, round, board, list }`.
 * The crosstable marks a player's round with the number of the board's note.
 */
export function incidentNotes(T) {
  const notes = [];
  for (const r of T.rounds_list || []) {
    for (const b of r.boards || []) {
      if ((b.incidents || []).length) notes.push({ n: notes.length + 1, round: r.round, board: b.board, white: b.white, black: b.black, list: b.incidents });
    }
  }
  return notes;
}

/** The notes under the crosstable, or nothing when there are none. */
export function notesList(T) {
  const notes = incidentNotes(T);
  if (!notes.length) return null;
  return h('div.xt-notes#crosstable-notes',
    h('h3', t('inc.notes')),
    h('ol', notes.map((note) => h('li', { id: `xt-note-${note.n}`, value: note.n, dataset: { round: note.round, board: note.board } },
      h('strong', t('inc.where', { round: note.round, board: note.board, white: note.white, black: note.black })), ' ',
      note.list.map((i, k) => h('span.xt-incident', { dataset: { kind: i.kind } }, (k ? '; ' : '') + incidentText(i)))))));
}

/**
 * The desk's incident form for the published round `round`: board (prefilled with `board`),
 * kind, player, the kind's own fields, decision and reason. `send` posts the action.
 */
export function incidentForm(round, board, send) {
  const boards = round.boards || [];
  const bSel = h('select#inc-board', { 'aria-label': t('inc.board') },
    boards.map((b) => h('option', { value: b.board, selected: b.board === board }, `${b.board}: ${b.white} – ${b.black}`)));
  const kind = h('select#inc-kind', { 'aria-label': t('inc.kind') }, KINDS.map((k) => h('option', { value: k }, t('inc.kind.' + k))));
  const player = h('select#inc-player', { 'aria-label': t('inc.player') });
  const seconds = h('input#inc-seconds', { type: 'number', min: 1, max: 3600, value: 120, 'aria-label': t('inc.seconds') });
  const quarter = h('input#inc-quarter', { type: 'checkbox', checked: true });
  const what = h('select#inc-what', { 'aria-label': t('inc.what') }, WHAT.map((w) => h('option', { value: w }, t('inc.what.' + w))));
  const sanction = h('select#inc-sanction', { 'aria-label': t('inc.sanction') }, SANCTIONS.map((s) => h('option', { value: s }, t('inc.sanction.' + s))));
  const decision = h('input#inc-decision', { type: 'text', autocomplete: 'off', placeholder: t('inc.decision') });
  const reason = h('input#inc-reason', { type: 'text', autocomplete: 'off', placeholder: t('arb.reason'), class: 'reason' });
  const count = h('small.hint#inc-count');
  const extras = {
    time_added: h('span.inc-extra', seconds),
    colour_mixup: h('label.inc-extra', quarter, ' ', t('inc.before_quarter')),
    misconduct: h('span.inc-extra', what, sanction),
  };
  const chosen = () => boards.find((b) => b.board === Number(bSel.value)) || {};
  // The illegal moves so far of each player of the board, as the rule set counts them.
  const illegal = (name) => (chosen().incidents || []).filter((i) => i.kind === 'illegal_move' && i.player === name).length;
  const update = () => {
    const b = chosen();
    const keep = player.value;
    player.replaceChildren(...[b.white, b.black].filter(Boolean).map((n) => h('option', { value: n, selected: n === keep }, n)));
    player.hidden = !WITH_PLAYER.has(kind.value);
    for (const [k, el] of Object.entries(extras)) el.hidden = k !== kind.value;
    count.hidden = kind.value !== 'illegal_move';
    count.textContent = t('inc.count', { white: b.white, w: illegal(b.white), black: b.black, b: illegal(b.black) });
  };
  bSel.addEventListener('change', update);
  kind.addEventListener('change', update);
  update();
  const submit = h('button.btn.small#inc-submit', { type: 'button', on: { click: async (e) => {
    const action = { action: 'incident', round: round.round, board: Number(bSel.value), kind: kind.value, decision: decision.value.trim() };
    if (WITH_PLAYER.has(kind.value)) action.player = player.value;
    if (kind.value === 'time_added') action.seconds = Number(seconds.value);
    if (kind.value === 'colour_mixup') action.before_quarter = quarter.checked;
    if (kind.value === 'misconduct') Object.assign(action, { what: what.value, sanction: sanction.value });
    if (reason.value.trim()) action.reason = reason.value.trim();
    await send(action, e.currentTarget);
  } } }, t('inc.record'));
  return h('div.arb-box#arb-incident',
    h('h3', t('inc.title')),
    h('div.arb-row', bSel, kind, player),
    h('div.arb-row', ...Object.values(extras), count),
    h('div.arb-row', decision, reason, submit));
}
