// The move list of a game, shared by the game page and the review page: numbered pairs of SAN
// buttons (with the analysis's judgement when there is one), and the keys that step through it.

import { h } from './dom.js';
import { t } from './i18n.js';

/**
 * The move list: numbered pairs of SAN buttons; `onPick(ply)` when one is clicked. `judged`,
 * when given, is the analysis's `moves` (one per move): a judged move gets its glyph, and
 * its title says what it was and the better move.
 */
export function moveList(moves, current, onPick, judged = null) {
  const rows = [];
  const cellOf = (j) => {
    const m = judged && judged[j];
    const glyph = m && m.judgement ? h('span.glyph', { class: m.judgement, 'aria-hidden': 'true' }, m.glyph) : null;
    const attrs = { type: 'button', role: 'listitem', dataset: { ply: j + 1 }, class: [j + 1 === current ? 'active' : null, m && m.judgement ? `judged ${m.judgement}` : null].filter(Boolean).join(' ') || null, on: { click: () => onPick(j + 1) } };
    if (glyph) attrs.title = adviceText(m);
    if (glyph) attrs['aria-label'] = `${moves[j].san || moves[j].uci} ${adviceText(m)}`;
    return h('button.move', attrs, moves[j].san || moves[j].uci, glyph);
  };
  for (let i = 0; i < moves.length; i += 2) {
    const cell = (j) => (j < moves.length ? cellOf(j) : h('span.move.empty'));
    rows.push(h('div.move-row', h('span.move-no', `${i / 2 + 1}.`), cell(i), cell(i + 1)));
  }
  return rows;
}

/** "Blunder. Best was Nc3." for a judged move of the analysis. */
export function adviceText(m) {
  const what = t('judgement.' + m.judgement);
  return m.better ? t('review.advice', { what, san: m.better }) : t('review.advice_plain', { what });
}

/** Arrow keys, Home and End over plies 0…max; ignored while typing in a field. */
export function navKeys(current, set, max) {
  return (e) => {
    if (e.target.closest && e.target.closest('input, textarea, select')) return;
    const c = current();
    const go = { ArrowLeft: c - 1, ArrowRight: c + 1, ArrowUp: 0, Home: 0, ArrowDown: max(), End: max() }[e.key];
    if (go === undefined) return;
    e.preventDefault();
    set(go);
  };
}
