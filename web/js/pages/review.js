// The review board for a game: step through the moves (buttons, move list, arrow keys), have
// the engine analyse the whole of a finished game in the background (issue 38: a graph under
// the board, ?!/?/?? marks with the better move, each player's accuracy), or ask it about one
// position. Never while the game is played (RULES.md §8.5). docs/api.md, "Analysis".

import * as api from '../api.js';
import { Board, uciSquares, boardThemeSelect, pieceSetSelect } from '../board.js';
import { h, clear, copyText } from '../dom.js';
import { t, tCount, resultText, apiText } from '../i18n.js';
import { evalGraph, scoreText } from '../evalgraph.js';
import { toFen, replay, toSan, play, parseUci } from '../chess.js';
import { pieceLists } from '../speech.js';
import { tcLabel, playerName, openingLine, variantBadge } from '../format.js';
import { moveList, adviceText, navKeys } from '../movelist.js';
import { movesPath } from '../scoresheet.js';

export async function mount(page, [id], ctx) {
  page.classList.add('review-page');
  let g;
  try {
    g = await api.game(id);
  } catch (e) {
    page.append(e.status === 404 ? ctx.notFound() : h('p.notice.error', t('common.error', { msg: apiText(e) })));
    return null;
  }
  const positions = replay(g.initial_fen, g.moves.map((m) => m.uci), { chess960: g.variant === 'chess960' });
  let ply = g.moves.length;
  const finished = g.status === 'finished';

  const boardEl = h('div.board#board');
  const pieces = pieceLists(); // the position shown, as text for a screen reader (issue 51)
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
  const analyseBtn = h('button.btn#analyse', { type: 'button', on: { click: analyse } }, t('review.analyse'));
  // The whole game's analysis (issue 38): asked for with a button, shown when done.
  let report = null;
  let graph = null;
  let poll = null;
  let closed = false;
  const gameBtn = h('button.btn.primary#analyse-game', { type: 'button', on: { click: analyseGame } }, t('review.analyse_game'));
  const progressEl = h('div.analysis-progress#analysis-progress', { role: 'status', 'aria-live': 'polite' });
  const graphBox = h('div.graph-box#analysis-graph');
  const accuracyEl = h('div.accuracy#accuracy');
  const adviceEl = h('div.move-advice#move-advice', { 'aria-live': 'polite' });

  page.append(h('div.game-layout',
    h('div.board-col', barTop, h('div.board-frame.with-eval', evalBar, boardEl, pieces.el), barBottom, graphBox),
    h('div.side-col',
      h('h1.review-title', t('review.title')),
      h('div.game-info',
        h('div.players', playerName(g.white), ' – ', playerName(g.black)),
        h('div.tc', tcLabel(g.time_control), ' · ', t('rules.' + g.rules), ' · ', g.rated ? t('common.rated') : t('common.casual')),
        g.variant === 'chess960' ? h('div.variant#game-variant', variantBadge(g)) : null,
        openingLine(g.opening)),
      finished || g.status === 'aborted'
        ? h('div.result-banner', h('div.result-score', (g.result || '*').replace(/1\/2/g, '½')), h('div.result-text', resultText(g.result, g.termination, g.reason)))
        : h('div.notice', t('review.in_progress'), ' ', h('a', { href: `/game/${id}`, 'data-link': true }, t('review.back_to_game'))),
      h('div.move-panel', movesEl),
      h('div.stepper',
        h('button.btn#first', { type: 'button', title: t('review.first'), on: { click: () => set(0) } }, '«'),
        h('button.btn#prev', { type: 'button', title: t('review.prev'), on: { click: () => set(ply - 1) } }, '‹'),
        h('button.btn#next', { type: 'button', title: t('review.next'), on: { click: () => set(ply + 1) } }, '›'),
        h('button.btn#last', { type: 'button', title: t('review.last'), on: { click: () => set(g.moves.length) } }, '»')),
      h('div.analysis-panel', finished ? gameBtn : null, progressEl, accuracyEl, adviceEl, finished ? analyseBtn : null, evalBox),
      h('div.tools',
        h('button.btn.small#flip', { type: 'button', on: { click: () => { board.flip(); renderBars(); } } }, '⇅ ', t('game.flip')),
        h('a.btn.small#pgn-link', { href: api.pgnUrl(id), download: `rookery-${id}.pgn` }, t('game.pgn')),
        // Over the board, its players type (or correct) the moves from the scoresheet.
        g.termination === 'over_the_board' && g.tournament && g.tournament.round !== null && [g.white, g.black].some((p) => p && p.name === ctx.name)
          ? h('a.btn.small#type-moves', { href: movesPath(g.tournament.id, g.tournament.round, g.tournament.board), 'data-link': true }, t('sheet.title'))
          : null,
        fenBtn, boardThemeSelect(), pieceSetSelect()))));

  const board = new Board(boardEl, { orientation: ctx.name && g.black && g.black.name === ctx.name ? 'black' : 'white' });
  boardEl.setAttribute('role', 'img');
  boardEl.setAttribute('aria-label', t('game.board_label'));

  function set(p) {
    ply = Math.max(0, Math.min(g.moves.length, p));
    const mv = g.moves[ply - 1];
    board.set({ fen: toFen(positions[ply]), turn: positions[ply].turn, lastMove: uciSquares(mv && mv.uci), check: !!mv && /[+#]/.test(mv.san || ''), movable: undefined });
    board.setShapes([]);
    pieces.show(positions[ply]);
    clear(movesEl, moveList(g.moves, ply, set, report && report.moves));
    const active = movesEl.querySelector('.move.active');
    if (active) active.scrollIntoView({ block: 'nearest' });
    clear(evalBox);
    evalBar.hidden = true;
    if (report) showStored();
  }

  /** The stored analysis at the current move: bar, score, the move's judgement, the arrow. */
  function showStored() {
    const e = report.evals[ply];
    if (graph) graph.setPly(ply);
    if (!e) return;
    evalBar.hidden = false;
    evalBar.firstChild.style.height = `${Math.round(e.win)}%`;
    const m = ply > 0 ? report.moves[ply - 1] : null;
    clear(adviceEl,
      h('span.score', scoreText(e)),
      m ? [' ', h('span.advice-move', `${m.san}${m.glyph || ''}`)] : null,
      m && m.judgement ? [' ', h('span.advice', { class: m.judgement }, adviceText(m))] : null);
    const judged = m && m.judgement && report.evals[ply - 1];
    // A judged move shows the better move; otherwise the engine's move from here.
    const arrow = judged ? report.evals[ply - 1].best : e.best;
    if (arrow) board.setShapes([arrowShape(arrow, judged ? 'green' : 'paleBlue')]);
  }

  function showReport(a) {
    report = a;
    gameBtn.hidden = true;
    clear(progressEl);
    const width = Math.max(300, Math.round(graphBox.clientWidth || boardEl.clientWidth || 600));
    graph = evalGraph(a, width, set);
    clear(graphBox, graph.svg);
    const player = (color) => {
      const p = a.players[color];
      const acc = p.accuracy === null || p.accuracy === undefined ? '–' : `${Math.round(p.accuracy)}%`;
      return h('div.player-accuracy', { dataset: { color } },
        h('span.piece-icon', color === 'white' ? '♔' : '♚'), ' ', h('span.name', playerName(g[color])), ' ',
        h('strong.accuracy-value', acc), ' ', h('small', t('review.accuracy')),
        h('div.counts',
          h('span.inaccuracy', tCount('review.inaccuracies', p.inaccuracies)), ' · ',
          h('span.mistake', tCount('review.mistakes', p.mistakes)), ' · ',
          h('span.blunder', tCount('review.blunders', p.blunders))));
    };
    clear(accuracyEl, player('white'), player('black'));
    set(ply);
  }

  /** Shows the job's state; polls until it is done. */
  function showJob(job) {
    if (closed) return;
    clearTimeout(poll);
    if (job.status === 'done') { showReport(job.analysis); return; }
    if (job.status === 'none') { gameBtn.hidden = false; clear(progressEl); return; }
    gameBtn.hidden = true;
    if (job.status === 'failed') {
      gameBtn.hidden = false;
      clear(progressEl, h('p.notice.error', t('review.failed', { msg: job.error || '' })));
      return;
    }
    const p = job.progress;
    clear(progressEl,
      job.status === 'running' && p
        ? [h('span', t('review.progress', { done: p.done, total: p.total })), h('progress', { max: p.total, value: p.done })]
        : h('span', t('review.queued', { n: job.queued_before || 0 })));
    poll = setTimeout(async () => {
      try { showJob(await api.gameAnalysis(id)); } catch (e) { clear(progressEl, h('p.notice.error', t('common.error', { msg: apiText(e) }))); }
    }, 700);
  }

  async function analyseGame() {
    gameBtn.disabled = true;
    try {
      showJob(await api.requestAnalysis(id));
    } catch (e) {
      const msg = e.code === 'game_in_progress' ? t('review.in_progress') : t('common.error', { msg: apiText(e) });
      clear(progressEl, h('p.notice#analysis-message', msg));
    } finally {
      gameBtn.disabled = false;
    }
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
    if (a.pv && a.pv[0]) board.setShapes([arrowShape(a.pv[0], 'paleBlue')]);
  }

  renderBars();
  const keys = navKeys(() => ply, set, () => g.moves.length);
  document.addEventListener('keydown', keys);
  set(ply);
  if (finished) api.gameAnalysis(id).then(showJob, () => {});
  return () => { closed = true; clearTimeout(poll); document.removeEventListener('keydown', keys); board.destroy(); };
}

/** A UCI move as a chessground arrow. */
function arrowShape(uci, brush) {
  const { from, to } = parseUci(uci);
  return { orig: from, dest: to, brush };
}
