// A small position model for the browser: just enough chess to replay the server's UCI moves
// (to review earlier positions), to offer pattern moves on the board in `seed` and `fide`
// games (RULES.md §8.2: an illegal attempt must be possible), and to write an engine line in
// SAN. The server is the arbiter; nothing here decides legality of a game move.

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

/** Parses a FEN into `{board, turn, castling, ep, halfmove, fullmove}`; board[sq] is a piece letter or null. */
export function parseFen(fen) {
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
    castling: castling === '-' ? '' : castling,
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
  return [rows.join('/'), pos.turn === 'white' ? 'w' : 'b', pos.castling || '-',
    pos.ep === null ? '-' : squareName(pos.ep), pos.halfmove, pos.fullmove].join(' ');
}

const clone = (pos) => ({ ...pos, board: pos.board.slice() });

/** Plays a UCI move without checking it (the server already did); returns the new position. */
export function play(pos, uci) {
  const next = clone(pos);
  const move = parseUci(uci);
  const from = squareIndex(move.from), to = squareIndex(move.to);
  const piece = next.board[from];
  if (!piece) return next;
  const white = colorOf(piece) === 'white';
  const role = roleOf(piece);
  const captured = next.board[to];
  next.board[from] = null;
  let placed = piece;
  if (role === 'pawn') {
    if (to === pos.ep && !captured && fileOf(from) !== fileOf(to)) next.board[to + (white ? -8 : 8)] = null;
    if (move.promotion) placed = white ? move.promotion.toUpperCase() : move.promotion.toLowerCase();
  }
  if (role === 'king' && Math.abs(fileOf(to) - fileOf(from)) === 2) {
    const rank = rankOf(from) * 8;
    const [rf, rt] = fileOf(to) === 6 ? [rank + 7, rank + 5] : [rank, rank + 3];
    next.board[rt] = next.board[rf];
    next.board[rf] = null;
  }
  next.board[to] = placed;
  next.ep = role === 'pawn' && Math.abs(to - from) === 16 ? (from + to) / 2 : null;
  const lose = (sq, chars) => { if (from === sq || to === sq) next.castling = next.castling.replace(new RegExp(`[${chars}]`, 'g'), ''); };
  lose(4, 'KQ'); lose(60, 'kq'); lose(7, 'K'); lose(0, 'Q'); lose(63, 'k'); lose(56, 'q');
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
    if (role === 'king') {
      const home = turn === 'white' ? 4 : 60;
      const [k, q] = turn === 'white' ? ['K', 'Q'] : ['k', 'q'];
      if (from === home && pos.castling.includes(k) && !board[home + 1] && !board[home + 2]) moves.push([from, home + 2]);
      if (from === home && pos.castling.includes(q) && !board[home - 1] && !board[home - 2] && !board[home - 3]) moves.push([from, home - 2]);
    }
  }
  return moves.map(([f, t]) => squareName(f) + squareName(t));
}

function kingSquare(board, color) {
  const k = color === 'white' ? 'K' : 'k';
  return board.indexOf(k);
}

export function inCheck(pos, color = pos.turn) {
  const k = kingSquare(pos.board, color);
  return k >= 0 && isAttacked(pos.board, k, other(color));
}

/** Legal moves (UCI, promotions spelled out). */
export function legalMoves(pos) {
  const out = [];
  for (const uci of patternMoves(pos)) {
    const move = parseUci(uci);
    const from = squareIndex(move.from), to = squareIndex(move.to);
    const role = roleOf(pos.board[from]);
    if (role === 'king' && Math.abs(fileOf(to) - fileOf(from)) === 2) {
      const mid = (from + to) / 2;
      const rookSq = to > from ? from + 3 : from - 4;
      const rook = pos.board[rookSq];
      if (!rook || roleOf(rook) !== 'rook' || colorOf(rook) !== pos.turn) continue;
      if (inCheck(pos) || isAttacked(pos.board, mid, other(pos.turn))) continue;
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
  if (role === 'king' && Math.abs(fileOf(to) - fileOf(from)) === 2) {
    san = fileOf(to) === 6 ? 'O-O' : 'O-O-O';
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
export function replay(initialFen, ucis) {
  const out = [parseFen(initialFen)];
  for (const u of ucis) out.push(play(out[out.length - 1], u));
  return out;
}

export function pieceAt(pos, key) {
  const p = pos.board[squareIndex(key)];
  return p ? { color: colorOf(p), role: roleOf(p) } : null;
}
