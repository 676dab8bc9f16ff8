// The review board for a game: step through the moves (buttons, move list, arrow keys) and ask
// the engine about a position of a finished game (RULES.md §8.5: never while it is played).
// Analysis uses the proposed `GET /api/v1/games/{id}/analysis?ply=N`; a 404 says so.

import * as api from '../api.js';
import { Board, uciSquares, boardThemeSelect } from '../board.js';
import { h, clear, copyText } from '../dom.js';
import { t, resultText, apiText } from '../i18n.js';
import { toFen, replay, toSan, play } from '../chess.js';
import { tcLabel, playerName } from './lobby.js';

/** The move list: numbered pairs of SAN buttons; `onPick(ply)` when one is clicked. */
export function moveList(moves, current, onPick) {
  const rows = [];
  for (let i = 0; i < moves.length; i += 2) {
    const cell = (j) => (j < moves.length
      ? h('button.move', { type: 'button', role: 'listitem', dataset: { ply: j + 1 }, class: j + 1 === current ? 'active' : null, on: { click: () => onPick(j + 1) } }, moves[j].san || moves[j].uci)
      : h('span.move.empty'));
    rows.push(h('div.move-row', h('span.move-no', `${i / 2 + 1}.`), cell(i), cell(i + 1)));
  }
  return rows;
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

export async function mount(page, [id], ctx) {
  page.classList.add('review-page');
  let g;
  try {
    g = await api.game(id);
  } catch (e) {
    page.append(e.status === 404 ? ctx.notFound() : h('p.notice.error', t('common.error', { msg: apiText(e) })));
    return null;
  }
  const positions = replay(g.initial_fen, g.moves.map((m) => m.uci));
  let ply = g.moves.length;
  const finished = g.status === 'finished';

  const boardEl = h('div.board#board');
  const movesEl = h('div.moves#moves', { role: 'list' });
  const evalBox = h('div.analysis#analysis');
  const evalBar = h('div.eval-bar', h('div.eval-fill'));
  const fenBtn = h('button.btn.small#copy-fen', { type: 'button', on: { click: async () => { if (await copyText(toFen(positions[ply]))) fenBtn.textContent = t('common.copied'); } } }, t('game.fen'));
  const barTop = h('div.player-bar.top');
  const barBottom = h('div.player-bar.bottom');
  const renderBars = () => {
    const bottom = board.orientation();
    const other = bottom === 'white' ? 'black' : 'white';
    clear(barBottom, h('span.piece-icon', bottom === 'white' ? '♔' : '♚'), h('span.name', playerName(g[bottom])));
    clear(barTop, h('span.piece-icon', other === 'white' ? '♔' : '♚'), h('span.name', playerName(g[other])));
  };
  const analyseBtn = h('button.btn.primary#analyse', { type: 'button', on: { click: analyse } }, t('review.analyse'));

  page.append(h('div.game-layout',
    h('div.board-col', barTop, h('div.board-frame.with-eval', evalBar, boardEl), barBottom),
    h('div.side-col',
      h('h1.review-title', t('review.title')),
      h('div.game-info',
        h('div.players', playerName(g.white), ' – ', playerName(g.black)),
        h('div.tc', tcLabel(g.time_control), ' · ', t('rules.' + g.rules), ' · ', g.rated ? t('common.rated') : t('common.casual'))),
      finished || g.status === 'aborted'
        ? h('div.result-banner', h('div.result-score', (g.result || '*').replace(/1\/2/g, '½')), h('div.result-text', resultText(g.result, g.termination, g.reason)))
        : h('div.notice', t('review.in_progress'), ' ', h('a', { href: `/game/${id}`, 'data-link': true }, t('review.back_to_game'))),
      h('div.move-panel', movesEl),
      h('div.stepper',
        h('button.btn#first', { type: 'button', title: t('review.first'), on: { click: () => set(0) } }, '«'),
        h('button.btn#prev', { type: 'button', title: t('review.prev'), on: { click: () => set(ply - 1) } }, '‹'),
        h('button.btn#next', { type: 'button', title: t('review.next'), on: { click: () => set(ply + 1) } }, '›'),
        h('button.btn#last', { type: 'button', title: t('review.last'), on: { click: () => set(g.moves.length) } }, '»')),
      h('div.analysis-panel', finished ? analyseBtn : null, evalBox),
      h('div.tools',
        h('button.btn.small#flip', { type: 'button', on: { click: () => { board.flip(); renderBars(); } } }, '⇅ ', t('game.flip')),
        h('a.btn.small#pgn-link', { href: api.pgnUrl(id), download: `rookery-${id}.pgn` }, t('game.pgn')),
        fenBtn, boardThemeSelect()))));

  const board = new Board(boardEl, { orientation: ctx.name && g.black && g.black.name === ctx.name ? 'black' : 'white' });

  function set(p) {
    ply = Math.max(0, Math.min(g.moves.length, p));
    const mv = g.moves[ply - 1];
    board.set({ fen: toFen(positions[ply]), turn: positions[ply].turn, lastMove: uciSquares(mv && mv.uci), check: !!mv && /[+#]/.test(mv.san || ''), movable: undefined });
    board.setShapes([]);
    clear(movesEl, moveList(g.moves, ply, set));
    const active = movesEl.querySelector('.move.active');
    if (active) active.scrollIntoView({ block: 'nearest' });
    clear(evalBox);
    evalBar.hidden = true;
  }

  async function analyse() {
    const at = ply;
    clear(evalBox, h('span.muted', t('review.analysing')));
    try {
      const a = await api.analysis(id, at);
      if (at !== ply) return;
      showAnalysis(a);
    } catch (e) {
      if (at !== ply) return;
      const msg = e.status === 404 || e.status === 405 || e.status === 501 ? t('review.unavailable')
        : e.status === 403 || e.status === 409 ? t('review.in_progress') : t('common.error', { msg: apiText(e) });
      clear(evalBox, h('p.notice#analysis-message', msg));
    }
  }

  function showAnalysis(a) {
    const pos = positions[ply];
    let score;
    let share;
    const mate = a.mate !== null && a.mate !== undefined ? a.mate : null;
    if (mate === 0) {
      // The side to move is mated (`mate: 0` has no sign): the other side has won (issue 38).
      const white = pos.turn !== 'white';
      score = white ? '1-0 #' : '0-1 #';
      share = white ? 1 : 0;
    } else if (mate !== null) {
      score = (mate > 0 ? '#' : '#-') + Math.abs(mate);
      share = mate > 0 ? 1 : 0;
    } else {
      score = ((a.score_cp || 0) / 100).toFixed(2).replace(/^(?=\d)/, '+');
      // The score is from White's side (proposed contract); the bar shows White's share.
      share = 1 / (1 + Math.exp(-(a.score_cp || 0) / 250));
    }
    evalBar.hidden = false;
    evalBar.firstChild.style.height = `${Math.round(share * 100)}%`;
    const sans = [];
    let p = pos;
    for (const uci of a.pv || []) {
      try { sans.push(toSan(p, uci)); p = play(p, uci); } catch { sans.push(uci); }
    }
    clear(evalBox,
      h('div.eval-line', h('strong.score', score), ' ', a.depth ? h('small', t('review.depth', { n: a.depth })) : null),
      sans.length ? h('div.pv', h('span.label', t('review.best'), ': '), sans.join(' ')) : null);
    if (a.pv && a.pv[0]) board.setShapes([{ orig: a.pv[0].slice(0, 2), dest: a.pv[0].slice(2, 4), brush: 'paleBlue' }]);
  }

  renderBars();
  const keys = navKeys(() => ply, set, () => g.moves.length);
  document.addEventListener('keydown', keys);
  set(ply);
  return () => { document.removeEventListener('keydown', keys); board.destroy(); };
}
