// A small position model for the browser: just enough chess to replay the server's UCI moves
// (to review earlier positions), to offer pattern moves on the board in `seed` and `fide`
// games (RULES.md §8.2: an illegal attempt must be possible), and to write an engine line in
// SAN. The server is the arbiter; nothing here decides legality of a game move.
//
// Chess960 (RULES.md §13) is a setting of the position, as in the server's rules: castling
// rights name their rook's file (X-FEN `KQkq` for the outermost rooks, Shredder-FEN letters
// otherwise), a castling is written as the king taking its own rook (`e1h1`), and the king's
// two-square move to its castling square is read as castling too.

const FILES = 'abcdefgh';
const ROLE = { p: 'pawn', n: 'knight', b: 'bishop', r: 'rook', q: 'queen', k: 'king' };

export const squareName = (i) => FILES[i & 7] + (1 + (i >> 3));
export const squareIndex = (s) => FILES.indexOf(s[0]) + 8 * (Number(s[1]) - 1);

/** A UCI move's parts: `e7e8q` → `{from: 'e7', to: 'e8', promotion: 'q'}` (promotion null if none). */
export function parseUci(uci) {
  return { from: uci.slice(0, 2), to: uci.slice(2, 4), promotion: uci.length > 4 ? uci[4] : null };
}

const colorOf = (p) => (p === p.toUpperCase() ? 'white' : 'black');
const roleOf = (p) => ROLE[p.toLowerCase()];
const fileOf = (i) => i & 7;
const rankOf = (i) => i >> 3;

const backRank = (color) => (color === 'white' ? 0 : 7);
const isRook = (p, color) => !!p && roleOf(p) === 'rook' && colorOf(p) === color;

/** The files of `color`'s rooks on its back rank beyond its king towards `side` ('k' or 'q'), nearest first. */
function rookFiles(board, color, side) {
  const rank = backRank(color);
  const king = board.indexOf(color === 'white' ? 'K' : 'k');
  if (king < 0 || rankOf(king) !== rank) return [];
  const out = [];
  const step = side === 'k' ? 1 : -1;
  for (let f = fileOf(king) + step; f >= 0 && f < 8; f += step) if (isRook(board[8 * rank + f], color)) out.push(f);
  return out;
}

/** Reads a FEN castling field (`KQkq`, X-FEN or Shredder-FEN) as each side's castling rook files: `{white: {k, q}, black: {k, q}}`, a file index or null. */
function readRights(board, field) {
  const rights = { white: { k: null, q: null }, black: { k: null, q: null } };
  for (const ch of field === '-' ? '' : field) {
    const color = ch === ch.toUpperCase() ? 'white' : 'black';
    const c = ch.toLowerCase();
    const king = board.indexOf(color === 'white' ? 'K' : 'k');
    if (king < 0) continue;
    if (c === 'k' || c === 'q') {
      const files = rookFiles(board, color, c);
      if (files.length) rights[color][c] = files[files.length - 1]; // the outermost
    } else if (FILES.includes(c)) {
      const f = FILES.indexOf(c);
      rights[color][f > fileOf(king) ? 'k' : 'q'] = f;
    }
  }
  return rights;
}

/** Writes the castling field in X-FEN: `K`/`Q` for the outermost rook of a side, its file's letter for another. */
function writeRights(pos) {
  let field = '';
  for (const color of ['white', 'black']) {
    for (const side of ['k', 'q']) {
      const f = pos.rights[color][side];
      if (f === null) continue;
      const files = rookFiles(pos.board, color, side);
      const letter = files[files.length - 1] === f ? side : FILES[f];
      field += color === 'white' ? letter.toUpperCase() : letter;
    }
  }
  return field || '-';
}

/**
 * Parses a FEN into `{board, turn, rights, chess960, ep, halfmove, fullmove}`; board[sq] is a
 * piece letter or null, `rights` each side's castling rook files (`chess960`: castling is
 * played and written as in Chess960).
 */
export function parseFen(fen, { chess960 = false } = {}) {
  const [placement, turn = 'w', castling = '-', ep = '-', half = '0', full = '1'] = fen.trim().split(/\s+/);
  const board = new Array(64).fill(null);
  const rows = placement.split('/');
  rows.forEach((row, r) => {
    let file = 0;
    for (const ch of row) {
      if (/\d/.test(ch)) file += Number(ch);
      else board[8 * (7 - r) + file++] = ch;
    }
  });
  return {
    board,
    turn: turn === 'b' ? 'black' : 'white',
    rights: readRights(board, castling),
    chess960,
    ep: ep === '-' ? null : squareIndex(ep),
    halfmove: Number(half) || 0,
    fullmove: Number(full) || 1,
  };
}

export function toFen(pos) {
  const rows = [];
  for (let r = 7; r >= 0; r--) {
    let row = '', empty = 0;
    for (let f = 0; f < 8; f++) {
      const p = pos.board[8 * r + f];
      if (!p) empty++;
      else { if (empty) row += empty; empty = 0; row += p; }
    }
    if (empty) row += empty;
    rows.push(row);
  }
  return [rows.join('/'), pos.turn === 'white' ? 'w' : 'b', writeRights(pos),
    pos.ep === null ? '-' : squareName(pos.ep), pos.halfmove, pos.fullmove].join(' ');
}

const clone = (pos) => ({
  ...pos, board: pos.board.slice(), rights: { white: { ...pos.rights.white }, black: { ...pos.rights.black } },
});

/**
 * The castling a UCI move of `pos` is, if it is one: the king taken onto its own castling
 * rook, or moved two files or more to its castling square (g- or c-file) with the right
 * still held. `{side, kingFrom, rookFrom, kingTo, rookTo}` (square indices) or null.
 */
export function castlingOf(pos, uci) {
  const move = parseUci(uci);
  const from = squareIndex(move.from), to = squareIndex(move.to);
  const king = pos.board[from];
  if (!king || roleOf(king) !== 'king' || move.promotion) return null;
  const color = colorOf(king);
  const rank = backRank(color);
  if (rankOf(from) !== rank || rankOf(to) !== rank) return null;
  const side = fileOf(to) > fileOf(from) ? 'k' : 'q';
  const rookFile = pos.rights[color][side];
  if (rookFile === null) return null;
  const rookFrom = 8 * rank + rookFile;
  const kingTo = 8 * rank + (side === 'k' ? 6 : 2);
  const ontoRook = to === rookFrom && isRook(pos.board[to], color);
  const twoSquares = to === kingTo && Math.abs(fileOf(to) - fileOf(from)) >= 2 && isRook(pos.board[rookFrom], color);
  if (!ontoRook && !twoSquares) return null;
  return { side, kingFrom: from, rookFrom, kingTo, rookTo: 8 * rank + (side === 'k' ? 5 : 3) };
}

/** Plays a UCI move without checking it (the server already did); returns the new position. */
export function play(pos, uci) {
  const next = clone(pos);
  const move = parseUci(uci);
  const from = squareIndex(move.from), to = squareIndex(move.to);
  const piece = next.board[from];
  if (!piece) return next;
  const white = colorOf(piece) === 'white';
  const color = colorOf(piece);
  const role = roleOf(piece);
  const castle = castlingOf(pos, uci);
  const captured = castle ? null : next.board[to];
  next.board[from] = null;
  let placed = piece;
  if (role === 'pawn') {
    if (to === pos.ep && !captured && fileOf(from) !== fileOf(to)) next.board[to + (white ? -8 : 8)] = null;
    if (move.promotion) placed = white ? move.promotion.toUpperCase() : move.promotion.toLowerCase();
  }
  if (castle) {
    // King and rook leave first: in Chess960 either may land where the other stood.
    const rook = next.board[castle.rookFrom];
    next.board[castle.rookFrom] = null;
    next.board[castle.rookTo] = rook;
    next.board[castle.kingTo] = placed;
  } else {
    next.board[to] = placed;
  }
  next.ep = role === 'pawn' && Math.abs(to - from) === 16 ? (from + to) / 2 : null;
  // A king that moves loses both rights; a rook that moves or is taken on its square, its own.
  if (role === 'king') next.rights[color] = { k: null, q: null };
  for (const c of ['white', 'black']) {
    for (const side of ['k', 'q']) {
      const f = next.rights[c][side];
      const sq = f === null ? -1 : 8 * backRank(c) + f;
      if (sq === from || (sq === to && !castle)) next.rights[c][side] = null;
    }
  }
  next.halfmove = role === 'pawn' || captured ? 0 : pos.halfmove + 1;
  if (!white) next.fullmove += 1;
  next.turn = white ? 'black' : 'white';
  return next;
}

const KNIGHT = [[1, 2], [2, 1], [2, -1], [1, -2], [-1, -2], [-2, -1], [-2, 1], [-1, 2]];
const KING = [[1, 0], [1, 1], [0, 1], [-1, 1], [-1, 0], [-1, -1], [0, -1], [1, -1]];
const ROOK = [[1, 0], [-1, 0], [0, 1], [0, -1]];
const BISHOP = [[1, 1], [1, -1], [-1, 1], [-1, -1]];

function offset(sq, df, dr) {
  const f = fileOf(sq) + df, r = rankOf(sq) + dr;
  return f >= 0 && f < 8 && r >= 0 && r < 8 ? 8 * r + f : -1;
}

/** Squares the piece on `sq` attacks (pattern only: own pieces included as blockers). */
function attacks(board, sq) {
  const p = board[sq];
  const role = roleOf(p), white = colorOf(p) === 'white';
  const out = [];
  const step = (dirs) => dirs.forEach(([df, dr]) => { const t = offset(sq, df, dr); if (t >= 0) out.push(t); });
  const slide = (dirs) => dirs.forEach(([df, dr]) => {
    let t = offset(sq, df, dr);
    while (t >= 0) { out.push(t); if (board[t]) break; t = offset(t, df, dr); }
  });
  if (role === 'pawn') step([[-1, white ? 1 : -1], [1, white ? 1 : -1]]);
  else if (role === 'knight') step(KNIGHT);
  else if (role === 'king') step(KING);
  else if (role === 'bishop') slide(BISHOP);
  else if (role === 'rook') slide(ROOK);
  else slide([...ROOK, ...BISHOP]);
  return out;
}

export function isAttacked(board, sq, byColor) {
  for (let i = 0; i < 64; i++) {
    if (board[i] && colorOf(board[i]) === byColor && attacks(board, i).includes(sq)) return true;
  }
  return false;
}

const other = (c) => (c === 'white' ? 'black' : 'white');

/**
 * Pattern moves of the side to move, as UCI without promotion letters: every move the
 * piece's movement allows (RULES.md §8.2), including moves into check and castling attempts
 * through attacked squares; never onto an own piece.
 */
export function patternMoves(pos) {
  const { board, turn } = pos;
  const moves = [];
  for (let from = 0; from < 64; from++) {
    const p = board[from];
    if (!p || colorOf(p) !== turn) continue;
    const role = roleOf(p);
    if (role === 'pawn') {
      const dir = turn === 'white' ? 1 : -1;
      const one = offset(from, 0, dir);
      if (one >= 0 && !board[one]) {
        moves.push([from, one]);
        const two = offset(from, 0, 2 * dir);
        if (rankOf(from) === (turn === 'white' ? 1 : 6) && !board[two]) moves.push([from, two]);
      }
      for (const t of attacks(board, from)) {
        if ((board[t] && colorOf(board[t]) !== turn) || t === pos.ep) moves.push([from, t]);
      }
    } else {
      for (const t of attacks(board, from)) if (!board[t] || colorOf(board[t]) !== turn) moves.push([from, t]);
    }
    if (role === 'king') for (const c of castlingPatterns(pos, from)) moves.push(...c.moves);
  }
  return moves.map(([f, t]) => squareName(f) + squareName(t));
}

/**
 * The castlings the king on `from` may attempt (its right held, every square the king and
 * the rook cross or reach empty but for the two of them), each with the `[from, to]` moves
 * that play it: the king's two-square move in standard chess; in Chess960 the king onto its
 * rook and, when the king travels two files or more, onto its castling square.
 */
function castlingPatterns(pos, from) {
  const { board, turn } = pos;
  const rank = backRank(turn);
  if (rankOf(from) !== rank) return [];
  const out = [];
  for (const side of ['k', 'q']) {
    const rookFile = pos.rights[turn][side];
    if (rookFile === null) continue;
    const rookFrom = 8 * rank + rookFile;
    if (!isRook(board[rookFrom], turn)) continue;
    const kingTo = 8 * rank + (side === 'k' ? 6 : 2), rookTo = 8 * rank + (side === 'k' ? 5 : 3);
    const span = [from, rookFrom, kingTo, rookTo];
    const [lo, hi] = [Math.min(...span), Math.max(...span)];
    let clear = true;
    for (let sq = lo; sq <= hi; sq++) if (sq !== from && sq !== rookFrom && board[sq]) clear = false;
    if (!clear) continue;
    const moves = [];
    if (pos.chess960) {
      moves.push([from, rookFrom]);
      if (Math.abs(fileOf(kingTo) - fileOf(from)) >= 2) moves.push([from, kingTo]);
    } else if (Math.abs(fileOf(kingTo) - fileOf(from)) === 2) {
      moves.push([from, kingTo]);
    }
    if (moves.length) out.push({ side, rookFrom, kingTo, moves });
  }
  return out;
}

function kingSquare(board, color) {
  const k = color === 'white' ? 'K' : 'k';
  return board.indexOf(k);
}

export function inCheck(pos, color = pos.turn) {
  const k = kingSquare(pos.board, color);
  return k >= 0 && isAttacked(pos.board, k, other(color));
}

/**
 * Legal moves (UCI, promotions spelled out; a castling once, as the server writes it: the
 * king's two-square move in standard chess, the king taking its rook in Chess960).
 */
export function legalMoves(pos) {
  const out = [];
  for (const uci of patternMoves(pos)) {
    const move = parseUci(uci);
    const from = squareIndex(move.from), to = squareIndex(move.to);
    const role = roleOf(pos.board[from]);
    const castle = castlingOf(pos, uci);
    if (castle) {
      if (pos.chess960 && to !== castle.rookFrom) continue;
      // Not out of check, nor through or onto an attacked square (the two castling pieces
      // lifted: in Chess960 the rook may stand on the king's path).
      const lifted = pos.board.slice();
      lifted[from] = null;
      lifted[castle.rookFrom] = null;
      const [lo, hi] = [Math.min(from, castle.kingTo), Math.max(from, castle.kingTo)];
      let safe = true;
      for (let sq = lo; sq <= hi; sq++) if (isAttacked(lifted, sq, other(pos.turn))) safe = false;
      if (!safe) continue;
    } else if (pos.board[to] && colorOf(pos.board[to]) === pos.turn) {
      continue;
    }
    const after = play(pos, uci);
    if (inCheck(after, pos.turn)) continue;
    if (role === 'pawn' && (rankOf(to) === 7 || rankOf(to) === 0)) for (const r of 'qrbn') out.push(uci + r);
    else out.push(uci);
  }
  return out;
}

/** Destinations as chessground wants them: Map<from, to[]>. */
export function destsMap(moves) {
  const dests = new Map();
  for (const uci of moves) {
    const { from, to } = parseUci(uci);
    if (!dests.has(from)) dests.set(from, []);
    if (!dests.get(from).includes(to)) dests.get(from).push(to);
  }
  return dests;
}

/** Writes a UCI move of `pos` in SAN (used for engine lines; the server writes game SAN). */
export function toSan(pos, uci) {
  const move = parseUci(uci);
  const from = squareIndex(move.from), to = squareIndex(move.to);
  const p = pos.board[from];
  if (!p) return uci;
  const role = roleOf(p);
  let san;
  const castle = castlingOf(pos, uci);
  if (castle) {
    san = castle.side === 'k' ? 'O-O' : 'O-O-O';
  } else {
    const capture = !!pos.board[to] || (role === 'pawn' && fileOf(from) !== fileOf(to));
    if (role === 'pawn') {
      san = (capture ? FILES[fileOf(from)] + 'x' : '') + squareName(to);
      if (move.promotion) san += '=' + move.promotion.toUpperCase();
    } else {
      const letter = p.toUpperCase();
      const rivals = legalMoves(pos).map(parseUci).filter((m) => m.to === move.to && m.from !== move.from
        && pos.board[squareIndex(m.from)] === p);
      let dis = '';
      if (rivals.length) {
        const sameFile = rivals.some((m) => m.from[0] === move.from[0]);
        const sameRank = rivals.some((m) => m.from[1] === move.from[1]);
        dis = !sameFile ? move.from[0] : !sameRank ? move.from[1] : move.from;
      }
      san = letter + dis + (capture ? 'x' : '') + squareName(to);
    }
  }
  const after = play(pos, uci);
  if (inCheck(after)) san += legalMoves(after).length ? '+' : '#';
  return san;
}

/** Every position of a game: positions[0] is the initial one, positions[i] after move i. */
export function replay(initialFen, ucis, { chess960 = false } = {}) {
  const out = [parseFen(initialFen, { chess960 })];
  for (const u of ucis) out.push(play(out[out.length - 1], u));
  return out;
}

export function pieceAt(pos, key) {
  const p = pos.board[squareIndex(key)];
  return p ? { color: colorOf(p), role: roleOf(p) } : null;
}
