// The board in words, for a screen reader (issue 51), after lichess's accessibility mode
// (nvui): where every piece stands, per side, and a move said as words ("knight takes f3,
// check") instead of read out as SAN letters ("N x f 3 plus").

import { h, clear } from './dom.js';
import { t, colorName } from './i18n.js';
import { squareName } from './chess.js';

const SAN_RE = /^(?:(O-O-O|O-O)|([KQRBN])?([a-h])?([1-8])?(x)?([a-h][1-8])(?:=?([QRBN]))?)([+#])?/;

/** A SAN move in the page's words: `Nf3` "knight f3", `exd5` "pawn e takes d5", `O-O` "castles kingside". */
export function sanWords(san) {
  const m = SAN_RE.exec(san || '');
  if (!m) return san || '';
  const [, castle, role, file, rank, capture, to, promotion, mark] = m;
  let words;
  if (castle) words = t(castle === 'O-O' ? 'san.castle_short' : 'san.castle_long');
  else {
    const from = (file || '') + (rank || '');
    words = t(capture ? 'san.capture' : 'san.move', { piece: t('piece.' + (role || 'p').toLowerCase()), from: from ? ` ${from}` : '', to });
    if (promotion) words += t('san.promote', { piece: t('piece.' + promotion.toLowerCase()) });
  }
  if (mark) words += t(mark === '#' ? 'san.mate' : 'san.check');
  return words;
}

/** Where each side's pieces stand, "king e1", by kind (king first) then square (a1, b1 … h8). */
export function pieceList(pos) {
  const out = { white: [], black: [] };
  for (const role of 'kqrbnp') {
    for (let sq = 0; sq < 64; sq++) {
      const p = pos.board[sq];
      if (!p || p.toLowerCase() !== role) continue;
      out[p === role ? 'black' : 'white'].push(`${t('piece.' + role)} ${squareName(sq)}`);
    }
  }
  return out;
}

/**
 * The position as lists a screen reader can walk, one per side, hidden from the eye only:
 * `el` to place once, `show(pos)` whenever the position shown changes.
 */
export function pieceLists() {
  const lists = { white: h('ul#pieces-white'), black: h('ul#pieces-black') };
  const el = h('section.visually-hidden#board-pieces', { 'aria-labelledby': 'board-pieces-title' },
    h('h2#board-pieces-title', t('game.pieces')),
    ['white', 'black'].map((c) => [h('h3', colorName(c)), lists[c]]));
  let shown = null;
  return {
    el,
    show(pos) {
      const pieces = pieceList(pos);
      const key = JSON.stringify(pieces);
      if (key === shown) return; // a list being read is not rebuilt under the reader
      shown = key;
      for (const c of ['white', 'black']) clear(lists[c], pieces[c].map((p) => h('li', p)));
    },
  };
}
