// A board's scoresheet typed in (issue 53; api.md `PUT …/boards/{round}/{board}/moves`): the
// arbiter, or one of the board's players once its result is in, copies the paper scoresheet
// move by move or pastes the whole list. Each move is read as typed (scoresheet.js: the usual
// slips forgiven) and refused with its number and text when it is illegal or ambiguous (the
// candidates listed); the board beside it shows the position reached. Saving sends the list,
// which the server checks again; the review page then shows the game.

import * as api from '../api.js';
import { Board, uciSquares, boardThemeSelect, pieceSetSelect } from '../board.js';
import { h, clear, toast } from '../dom.js';
import { t, colorName } from '../i18n.js';
import { toFen, play, parseFen } from '../chess.js';
import { pieceLists } from '../speech.js';
import { moveList } from '../movelist.js';
import { resultShown, errorText } from '../tournament/format.js';
import { readMove, readMoves, moveNumber, movetext, mayTypeMoves } from '../scoresheet.js';

export async function mount(page, [id, roundText, boardText], ctx) {
  page.classList.add('review-page', 'scoresheet-page');
  const round = Number(roundText), boardNo = Number(boardText);
  let T, g;
  try {
    T = await api.tournament(id);
  } catch (e) {
    page.append(e.status === 404 ? ctx.notFound() : h('p.notice.error', t('common.error', { msg: errorText(e) })));
    return null;
  }
  const r = (T.rounds_list || []).find((x) => x.round === round);
  const b = r && r.boards.find((x) => x.board === boardNo);
  if (!b) { page.append(ctx.notFound(t('sheet.no_board', { round, board: boardNo }))); return null; }
  const back = h('a.btn.small#sheet-back', { href: `/tournaments/${encodeURIComponent(id)}`, 'data-link': true }, t('sheet.back'));
  const head = h('div.game-info',
    h('div.players#sheet-players', b.white, ' – ', b.black),
    h('div.tc', T.name, ' · ', t('sheet.seat', { round, board: boardNo }), b.result ? [' · ', h('strong#sheet-result', resultShown(b.result))] : null));
  if (!mayTypeMoves(T, b, ctx.name)) {
    const why = !b.result ? t('sheet.no_result') : b.forfeit ? t('sheet.forfeit') : t('sheet.not_yours');
    page.append(h('section.panel', h('h1', t('sheet.title')), head, h('p.notice#sheet-refused', why), back));
    return null;
  }
  try {
    g = await api.game(b.game);
  } catch (e) {
    page.append(h('p.notice.error', t('common.error', { msg: errorText(e) })));
    return null;
  }
  const start = parseFen(g.initial_fen, { chess960: g.variant === 'chess960' });
  // The moves typed so far, each `{uci, san}`: those saved before, for a correction.
  let moves = g.moves.map((m) => ({ uci: m.uci, san: m.san }));
  let saved = movetext(moves, start);
  const positions = () => moves.reduce((ps, m) => { ps.push(play(ps[ps.length - 1], m.uci)); return ps; }, [start]);

  const boardEl = h('div.board#board');
  const pieces = pieceLists();
  const movesEl = h('div.moves#sheet-moves', { role: 'list' });
  const errorEl = h('div.notice.error#sheet-error', { role: 'alert', hidden: true });
  const statusEl = h('div.sheet-status#sheet-status', { role: 'status', 'aria-live': 'polite' });
  const input = h('input#sheet-move', { type: 'text', autocomplete: 'off', spellcheck: 'false', autocapitalize: 'off', placeholder: t('sheet.move_placeholder'), 'aria-label': t('sheet.move_label') });
  const paste = h('textarea#sheet-paste', { rows: 4, spellcheck: 'false', placeholder: t('sheet.paste_placeholder'), 'aria-label': t('sheet.paste_label') });
  const saveBtn = h('button.btn.primary#sheet-save', { type: 'button', on: { click: save } }, t('sheet.save'));
  const undoBtn = h('button.btn#sheet-undo', { type: 'button', on: { click: () => { moves = moves.slice(0, -1); showError(null); render(); input.focus(); } } }, t('sheet.undo'));

  page.append(h('div.game-layout',
    h('div.board-col', h('div.board-frame', boardEl, pieces.el)),
    h('div.side-col',
      h('h1.review-title', t('sheet.title')), head,
      g.variant === 'chess960' && r.chess960 != null ? h('div.variant', t('variant.chess960_n', { n: r.chess960 })) : null,
      h('p.hint', t('sheet.hint')),
      h('form.sheet-form#sheet-form', { on: { submit: (e) => { e.preventDefault(); typed(); } } },
        h('label', { for: 'sheet-move' }, h('span#sheet-next', '')), input,
        h('button.btn#sheet-play', { type: 'submit' }, t('sheet.play'))),
      errorEl,
      h('div.move-panel', movesEl),
      h('div.actions', undoBtn, saveBtn),
      statusEl,
      h('details.sheet-paste-box', h('summary', t('sheet.paste_title')), paste,
        h('button.btn#sheet-read', { type: 'button', on: { click: readPasted } }, t('sheet.read'))),
      h('div.tools', back, boardThemeSelect(), pieceSetSelect()))));
  const board = new Board(boardEl, { orientation: ctx.name === b.black ? 'black' : 'white', viewOnly: true });
  boardEl.setAttribute('role', 'img');
  boardEl.setAttribute('aria-label', t('game.board_label'));

  function render() {
    const ps = positions();
    const pos = ps[ps.length - 1];
    const last = moves[moves.length - 1];
    board.set({ fen: toFen(pos), turn: pos.turn, lastMove: uciSquares(last && last.uci), check: !!last && /[+#]/.test(last.san) });
    pieces.show(pos);
    clear(movesEl, moveList(moves, moves.length, () => {}));
    document.getElementById('sheet-next').textContent = t('sheet.next', { n: moveNumber(pos.fullmove, pos.turn), color: colorName(pos.turn) });
    undoBtn.disabled = !moves.length;
    const dirty = movetext(moves, start) !== saved;
    saveBtn.disabled = !dirty;
    clear(statusEl, dirty ? t('sheet.unsaved', { n: moves.length }) : savedNote());
  }

  function savedNote() {
    return moves.length ? [t('sheet.saved_n', { n: moves.length }), ' ', h('a#sheet-review', { href: `/review/${b.game}`, 'data-link': true }, t('sheet.review'))] : t('sheet.empty');
  }

  /** A move that did not read: its number, its text, why (and the candidates). */
  function showError(e) {
    errorEl.hidden = !e;
    if (!e) { clear(errorEl); return; }
    const where = { n: moveNumber(e.number, e.color), text: e.text };
    clear(errorEl, e.error === 'ambiguous'
      ? t('sheet.ambiguous', { ...where, candidates: e.candidates.join(', ') })
      : t(e.error === 'illegal' ? 'sheet.illegal' : 'sheet.unreadable', where));
  }

  function typed() {
    const text = input.value.trim();
    if (!text) return;
    const ps = positions();
    const pos = ps[ps.length - 1];
    const m = readMove(pos, text);
    if (m.error) { showError({ ...m, number: pos.fullmove, color: pos.turn }); input.select(); return; }
    moves = [...moves, m];
    input.value = '';
    showError(null);
    render();
  }

  /** A pasted list replaces the moves, read up to its first bad move. */
  function readPasted() {
    const { moves: read, error } = readMoves(start, paste.value);
    moves = read;
    showError(error);
    render();
    if (!error) toast(t('sheet.read_n', { n: read.length }), 'ok');
  }

  async function save() {
    saveBtn.disabled = true;
    const text = movetext(moves, start);
    try {
      await api.saveMoves(id, round, boardNo, text);
      saved = text;
      toast(t('sheet.saved_toast'), 'ok');
    } catch (e) {
      clear(errorEl, errorText(e));
      errorEl.hidden = false;
    }
    render();
  }

  render();
  input.focus();
  return () => board.destroy();
}
