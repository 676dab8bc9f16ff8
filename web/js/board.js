// The board: chessground (the lichess board) with a promotion picker, pattern-move or
// legal-move destinations, premoves and arrows. The page decides what may move; this module
// turns a finished gesture into a UCI move.

import { Chessground } from '../vendor/chessground/chessground.min.js';
import { t } from './i18n.js';
import { parseUci } from './chess.js';

const PROMOTION = [['q', 'queen'], ['r', 'rook'], ['b', 'bishop'], ['n', 'knight']];

/** Board colours (css/app.css `board-theme-*`), remembered per browser (issue 38). */
export const BOARD_THEMES = ['brown', 'blue', 'green', 'grey'];
export function boardTheme() {
  const saved = localStorage.getItem('rookery.board');
  return BOARD_THEMES.includes(saved) ? saved : 'brown';
}
export function setBoardTheme(name) {
  if (!BOARD_THEMES.includes(name)) return;
  localStorage.setItem('rookery.board', name);
  for (const n of BOARD_THEMES) document.documentElement.classList.toggle(`board-theme-${n}`, n === name);
}

/** A select of the board colours, labelled, that applies and remembers the choice. */
export function boardThemeSelect() {
  const sel = document.createElement('select');
  sel.id = 'board-theme';
  sel.className = 'theme-select';
  sel.setAttribute('aria-label', t('game.board_theme'));
  sel.title = t('game.board_theme');
  for (const n of BOARD_THEMES) {
    const o = document.createElement('option');
    o.value = n;
    o.textContent = t('board.' + n);
    o.selected = n === boardTheme();
    sel.appendChild(o);
  }
  sel.addEventListener('change', () => setBoardTheme(sel.value));
  return sel;
}

/** Piece sets (css/pieces.css; credits in vendor/README.md), remembered per browser (issue 38). */
export const PIECE_SETS = ['cburnett', 'merida', 'chessnut'];
export function pieceSet() {
  const saved = localStorage.getItem('rookery.pieces');
  return PIECE_SETS.includes(saved) ? saved : 'cburnett';
}
export function setPieceSet(name) {
  if (!PIECE_SETS.includes(name)) return;
  localStorage.setItem('rookery.pieces', name);
  for (const n of PIECE_SETS) document.documentElement.classList.toggle(`piece-set-${n}`, n === name);
}

/** A select of the piece sets, labelled, that applies and remembers the choice. */
export function pieceSetSelect() {
  const sel = document.createElement('select');
  sel.id = 'piece-set';
  sel.className = 'theme-select';
  sel.setAttribute('aria-label', t('game.piece_set'));
  sel.title = t('game.piece_set');
  for (const n of PIECE_SETS) {
    const o = document.createElement('option');
    o.value = n;
    o.textContent = t('pieces.' + n);
    o.selected = n === pieceSet();
    sel.appendChild(o);
  }
  sel.addEventListener('change', () => setPieceSet(sel.value));
  return sel;
}

export class Board {
  /**
   * `onMove(uci, {premove})` when the user completes a move (promotion chosen);
   * `onSelect(key)` when a square is picked (for touch-move reports).
   */
  constructor(el, { orientation = 'white', onMove, onSelect, viewOnly = false } = {}) {
    setBoardTheme(boardTheme());
    setPieceSet(pieceSet());
    this.el = el;
    this.onMove = onMove || (() => {});
    this.onSelect = onSelect || (() => {});
    this.picker = null;
    this.cg = Chessground(el, {
      orientation,
      viewOnly,
      coordinates: true,
      autoCastle: true,
      animation: { enabled: true, duration: 200 },
      highlight: { lastMove: true, check: true },
      movable: {
        free: false,
        color: undefined,
        showDests: true,
        // Kept: a king dropped on its own rook castles (chessground moves both), which
        // Chess960 needs (its dests hold the rook's square, RULES.md §13); a standard game's
        // dests hold only the king's two-square move.
        rookCastle: true,
        events: { after: (orig, dest, meta) => this.afterMove(orig, dest, meta) },
      },
      premovable: { enabled: true, showDests: true, castle: true },
      draggable: { enabled: true, showGhost: true },
      drawable: { enabled: true, visible: true },
      events: { select: (key) => this.onSelect(key) },
    });
    // chessground caches the board's position and forgets it only on scroll and resize: if
    // anything moved the board since, a click would land on another square, and under
    // touch-move bind another piece (issue 38). Measure afresh at every press.
    this.remeasure = () => this.cg.state.dom.bounds.clear();
    for (const type of ['mousedown', 'touchstart']) el.addEventListener(type, this.remeasure, { capture: true, passive: true });
  }

  afterMove(orig, dest, meta) {
    const piece = this.cg.state.pieces.get(dest);
    const lastRank = dest[1] === '8' || dest[1] === '1';
    if (piece && piece.role === 'pawn' && lastRank) {
      if (meta && meta.premove) return this.onMove(orig + dest + 'q', { premove: true });
      return this.pickPromotion(orig, dest, piece.color);
    }
    this.onMove(orig + dest, { premove: !!(meta && meta.premove), captured: !!(meta && meta.captured) });
  }

  /** Shows the four pieces over the promotion file; resolves with the move or nothing. */
  pickPromotion(orig, dest, color) {
    this.closePicker();
    const picker = document.createElement('div');
    picker.className = 'promotion';
    picker.setAttribute('role', 'dialog');
    picker.setAttribute('aria-label', t('game.promote'));
    const file = dest.charCodeAt(0) - 97;
    const col = this.cg.state.orientation === 'white' ? file : 7 - file;
    const fromTop = (dest[1] === '8') === (this.cg.state.orientation === 'white');
    PROMOTION.forEach(([letter, role], i) => {
      const sq = document.createElement('button');
      sq.type = 'button';
      sq.className = 'promotion-choice';
      sq.dataset.role = role;
      sq.title = role;
      sq.style.left = `${col * 12.5}%`;
      sq.style.top = `${(fromTop ? i : 7 - i) * 12.5}%`;
      const p = document.createElement('piece');
      p.className = `${color} ${role}`;
      sq.appendChild(p);
      sq.addEventListener('click', (e) => { e.stopPropagation(); this.closePicker(); this.onMove(orig + dest + letter, {}); });
      picker.appendChild(sq);
    });
    picker.addEventListener('click', () => { this.closePicker(); this.onMove(null, { cancelled: true }); });
    this.el.querySelector('.cg-wrap')?.appendChild(picker) || this.el.appendChild(picker);
    this.picker = picker;
  }

  closePicker() {
    if (this.picker) this.picker.remove();
    this.picker = null;
  }

  /**
   * Shows a position. `movable`: the colour the user may move (or undefined);
   * `dests`: Map from → [to]; `showDests` whether to mark them; `premove` enables premoves.
   */
  set({ fen, turn, lastMove, check, movable, dests, showDests = true, premove = false, customHighlight }) {
    this.cg.set({
      fen,
      turnColor: turn,
      lastMove: lastMove || undefined,
      check: check ? turn : false,
      movable: { color: movable, dests: dests || new Map(), showDests },
      premovable: { enabled: premove },
      highlight: { custom: customHighlight || new Map() },
    });
  }

  playPremove() { return this.cg.playPremove(); }
  cancelPremove() { this.cg.cancelPremove(); }
  flip() { this.cg.toggleOrientation(); }
  orientation() { return this.cg.state.orientation; }
  setOrientation(c) { if (this.cg.state.orientation !== c) this.cg.toggleOrientation(); }
  setShapes(shapes) { this.cg.setAutoShapes(shapes); }
  destroy() { this.closePicker(); this.cg.destroy(); }
}

/** The `[from, to]` squares of a UCI move for the last-move highlight. */
export function uciSquares(uci) {
  if (!uci) return undefined;
  const { from, to } = parseUci(uci);
  return [from, to];
}

/** The protocol's `dests` object as a chessground Map. */
export function destsFromServer(obj) {
  const m = new Map();
  for (const [from, tos] of Object.entries(obj || {})) if (/^[a-h][1-8]$/.test(from) && tos.length) m.set(from, tos);
  return m;
}
