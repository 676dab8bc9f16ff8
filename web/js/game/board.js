// The game page's board: the position (the game's, or an earlier one under review) with what
// the player may move, the moves the player makes on it or types, sent over the socket, and
// the board in words for a screen reader (issue 38: a description and each move announced;
// issue 51: the pieces as a list per side, moves said in words).

import { Board, uciSquares, destsFromServer } from '../board.js';
import { h, toast } from '../dom.js';
import { t, colorName } from '../i18n.js';
import { parseFen, toFen, patternMoves, destsMap, parseUci, squareIndex } from '../chess.js';
import { sanWords, pieceList, pieceLists } from '../speech.js';

const UCI_RE = /^[a-h][1-8][a-h][1-8][qrbn]?$/i;

/**
 * `send(msg)` sends over the game socket (false when it is closed); `offerWanted()` says
 * whether a move goes with a draw offer. `attach()` puts the board on the page once it is laid out.
 */
export function gameBoard(s, { send, offerWanted, firstMoveEl }) {
  const el = h('div.board#board');
  const desc = h('div.visually-hidden#board-desc');
  const announce = h('div.visually-hidden#board-announce', { 'aria-live': 'polite', role: 'status' });
  const pieces = pieceLists();
  const frame = h('div.board-frame', el, firstMoveEl, desc, announce, pieces.el);
  const viewNote = h('div.view-note#view-note', { hidden: true });
  const moveInput = h('input#move-input', { type: 'text', placeholder: t('game.move_input'), 'aria-label': t('game.move_input.label'), autocomplete: 'off', autocapitalize: 'off', spellcheck: 'false' });
  const moveForm = h('form.move-form', { on: { submit: onTypedMove } }, moveInput);
  let board = null;
  let lastSent = null;

  function attach() {
    board = new Board(el, { onMove: onBoardMove, onSelect: onBoardSelect });
    el.setAttribute('role', 'img');
    el.setAttribute('aria-label', t('game.board_label'));
    el.setAttribute('aria-describedby', 'board-desc');
  }

  function sendMove(fields, offer = offerWanted(), { resent = false } = {}) {
    const sent = send({ t: 'move', ...fields, ply: s.g.ply, offer_draw: offer });
    // Settled once the server answers it; a move not sent at all (offline, said so) is not
    // sent later behind the player's back.
    lastSent = { fields, ply: s.g.ply, offer_draw: offer, resent, settled: !sent };
    if (!sent) { toast(t('net.offline'), 'error'); render(); }
    return sent;
  }

  function onBoardMove(uci, opts = {}) {
    if (!uci || !s.isLive() || s.viewPly !== null) { render(); return; }
    if (opts.premove && s.touchMove()) send({ t: 'touch', square: parseUci(uci).from, ply: s.g.ply });
    sendMove({ uci });
  }

  function onBoardSelect(key) {
    if (!s.myTurn() || !s.touchMove() || s.viewPly !== null) return;
    if (s.g.obligation && s.g.obligation.color === s.you) return;
    const pos = s.positions[s.positions.length - 1];
    const p = pos && pos.board[squareIndex(key)];
    if (!p || (p === p.toUpperCase() ? 'white' : 'black') !== s.you) return;
    if (s.lastTouch === key) return;
    s.lastTouch = key;
    send({ t: 'touch', square: key, ply: s.g.ply });
  }

  function onTypedMove(e) {
    e.preventDefault();
    const text = moveInput.value.trim();
    if (!text || !s.isLive() || !s.you) return;
    const fields = UCI_RE.test(text) ? { uci: text.toLowerCase() } : { san: text };
    if (sendMove(fields)) moveInput.value = '';
  }

  /** The position shown on the board (the game's, or an earlier one under review) in words. */
  function describe() {
    const ply = s.viewPly ?? s.positions.length - 1;
    const pos = s.positions[ply];
    if (!pos) return;
    const last = s.g.moves[ply - 1];
    const list = pieceList(pos);
    desc.textContent = [
      t('game.board_desc', { turn: colorName(pos.turn), last: last ? t('game.board_desc.last', { san: sanWords(last.san || last.uci) }) : t('game.board_desc.start') }),
      t('game.board_pieces', { white: list.white.join(', '), black: list.black.join(', ') }),
    ].join(' ');
    pieces.show(pos);
  }

  function render() {
    const { g, you } = s;
    if (!g) return;
    board.closePicker();
    if (s.viewPly !== null) {
      const pos = s.positions[s.viewPly];
      const mv = g.moves[s.viewPly - 1];
      board.set({ fen: toFen(pos), turn: pos.turn, lastMove: uciSquares(mv && mv.uci), check: !!mv && /[+#]/.test(mv.san || ''), movable: undefined, premove: false });
      viewNote.hidden = false;
      viewNote.textContent = t('game.review_mode', { ply: s.viewPly });
      return;
    }
    viewNote.hidden = true;
    const last = g.moves[g.moves.length - 1];
    let dests = new Map();
    let showDests = true;
    if (s.myTurn()) {
      if (s.touchMove()) {
        // RULES.md §8.2: any move the piece's pattern allows may be attempted; the server
        // judges. No destination hints, as over the board.
        dests = destsMap(patternMoves(parseFen(g.fen, s.variant())));
        showDests = false;
        const ob = g.obligation && (g.obligation.color || g.turn) === you ? g.obligation : null;
        if (ob && ob.kind === 'move_piece') dests = new Map([[ob.square, dests.get(ob.square) || []]]);
        if (ob && ob.kind === 'capture') {
          const only = new Map();
          for (const [from, tos] of dests) if (tos.includes(ob.square)) only.set(from, [ob.square]);
          dests = only;
        }
      } else {
        dests = destsFromServer(g.dests);
      }
    }
    const custom = new Map();
    if (g.obligation && s.isLive()) custom.set(g.obligation.square, 'obligation');
    board.set({
      fen: g.fen, turn: g.turn, lastMove: uciSquares(last && last.uci), check: g.check,
      movable: s.isLive() && you ? you : undefined, dests, showDests,
      premove: s.isLive() && !!you && g.turn !== you, customHighlight: custom,
    });
  }

  return {
    frame, viewNote, moveForm, moveInput, attach, render, describe, sendMove,
    /** The last move sent, with the ply and offer it went with, and whether it is settled. */
    lastSent: () => lastSent,
    /** The server answered the last move sent (played it, or refused it). */
    settled: () => { if (lastSent) lastSent.settled = true; },
    /** Says a move to a screen reader. */
    announce: (text) => { announce.textContent = text; },
    orientation: () => board.orientation(),
    setOrientation: (c) => board.setOrientation(c),
    flip: () => board.flip(),
    playPremove: () => board.playPremove(),
    cancelPremove: () => board.cancelPremove(),
    destroy: () => board.destroy(),
  };
}
