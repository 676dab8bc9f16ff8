// Moves as a person copies them from a paper scoresheet (issue 53): the page's reading of a
// typed move, the twin of the server's (crates/core/src/scoresheet.rs), which checks the list
// again when it is saved. SAN or UCI with the usual slips forgiven — a piece letter in small
// letters (`nf3`), the origin written out (`ng1f3`, `Ng1-f3`), plain UCI (`g1f3`), castling
// with zeros or small letters (`0-0`, `o-o`), `e.p.` after the capture, a missing `x`, `+`
// or `=` (`ed6`, `e8Q`). A move is taken only when exactly one legal move fits.

import { legalMoves, toSan, play, parseUci, castlingOf } from './chess.js';

const SAN = /^([PNBRQK])?([a-h])?([1-8])?[-x:]?([a-h][1-8])(?:=?([NBRQ]))?[+#]*[!?]*$/;
const UCI = /^([a-h][1-8])[-x]?([a-h][1-8])([qrbn])?$/;
const CASTLE = /^O-O(-O)?[+#]*[!?]*$/;

/** `exd6e.p.`, `exd6 ep`: the en passant mark dropped. */
function stripEnPassant(text) {
  const m = /^(.*\d)\s*e\.?p\.?$/i.exec(text);
  return m ? m[1] : text;
}

/** The texts a typed move may stand for (see the server's `readings`). */
function readings(text) {
  const out = [text];
  const castle = text.replace(/[0o]/g, 'O');
  if (/^[O-]+[+#!?]*$/.test(castle)) out.push(castle);
  const promo = /^(.*[18]=?)([qrbn])$/.exec(text);
  if (promo) out.push(promo[1] + promo[2].toUpperCase());
  for (const r of out.slice()) if (/^[nbrqk]/.test(r)) out.push(r[0].toUpperCase() + r.slice(1));
  return out;
}

/** The legal moves (UCI) one reading names; `null` when it is no notation at all. */
function matches(pos, legal, reading) {
  const uci = UCI.exec(reading.toLowerCase());
  if (uci && /^[a-h]/.test(reading)) {
    const text = uci[1] + uci[2] + (uci[3] || '');
    // A king's two-square move is castling in Chess960 too: the legal list writes it as the
    // king taking its rook there.
    const castle = castlingOf(pos, text);
    return legal.filter((m) => m === text || (castle && castlingOf(pos, m)?.side === castle.side && parseUci(m).from === uci[1]));
  }
  if (CASTLE.test(reading)) {
    const side = reading.startsWith('O-O-O') ? 'q' : 'k';
    return legal.filter((m) => castlingOf(pos, m)?.side === side);
  }
  const san = SAN.exec(reading);
  if (!san) return null;
  const [, letter, file, rank, to, promotion] = san;
  const role = (letter || 'P').toLowerCase();
  return legal.filter((m) => {
    const { from, to: dest, promotion: p } = parseUci(m);
    const piece = pos.board['abcdefgh'.indexOf(from[0]) + 8 * (Number(from[1]) - 1)];
    if (!piece || piece.toLowerCase() !== role || dest !== to || castlingOf(pos, m)) return false;
    if (file && from[0] !== file) return false;
    if (rank && from[1] !== rank) return false;
    // A pawn named without its file moves straight (`d6` is not `exd6`).
    if (role === 'p' && !file && from[0] !== to[0]) return false;
    return (p || null) === (promotion ? promotion.toLowerCase() : null);
  });
}

/**
 * Reads one typed move in `pos`: `{uci, san}`, or `{error, text, candidates}` with `error`
 * `unreadable`, `illegal` or `ambiguous` (`candidates` in SAN).
 */
export function readMove(pos, text) {
  const typed = String(text).trim();
  const legal = legalMoves(pos);
  const found = new Set();
  let readable = false;
  for (const reading of readings(stripEnPassant(typed))) {
    const ms = matches(pos, legal, reading);
    if (ms === null) continue;
    readable = true;
    // Several moves under one reading is an ambiguity; so are different readings' moves.
    ms.forEach((m) => found.add(m));
  }
  const list = [...found];
  if (list.length === 1) return { uci: list[0], san: toSan(pos, list[0]) };
  if (list.length > 1) return { error: 'ambiguous', text: typed, candidates: list.map((m) => toSan(pos, m)) };
  return { error: readable ? 'illegal' : 'unreadable', text: typed, candidates: [] };
}

/** The move tokens of a pasted list: numbers (`12.`, `12...`), results and `e.p.` dropped. */
export function moveTokens(text) {
  const out = [];
  for (const raw of String(text).split(/\s+/)) {
    const token = raw.replace(/^\d+\.+/, '');
    if (!token || /^\d+$/.test(token) || /^(1-0|0-1|1\/2-1\/2|½-½|\*)$/.test(token) || /^e\.?p\.?$/i.test(token)) continue;
    out.push(token);
  }
  return out;
}

/**
 * Reads a pasted move list from `start`: `{moves: [{uci, san}], error}`, the moves up to the
 * first that does not read, and that one's `{number, color, error, text, candidates}`.
 */
export function readMoves(start, text) {
  let pos = start;
  const moves = [];
  for (const token of moveTokens(text)) {
    const m = readMove(pos, token);
    if (m.error) return { moves, error: { ...m, number: pos.fullmove, color: pos.turn } };
    moves.push(m);
    pos = play(pos, m.uci);
  }
  return { moves, error: null };
}

/** `12.` or `12...`: a move's number as a scoresheet writes it. */
export const moveNumber = (number, color) => `${number}${color === 'white' ? '.' : '...'}`;

/** The moves as a numbered list (`1. e4 e5 2. Nf3`), from a start with `fullmove` and `turn`. */
export function movetext(moves, { fullmove = 1, turn = 'white' } = {}) {
  const parts = [];
  let n = fullmove, color = turn;
  moves.forEach((m, i) => {
    if (color === 'white' || i === 0) parts.push(moveNumber(n, color));
    parts.push(m.san);
    if (color === 'black') n++;
    color = color === 'white' ? 'black' : 'white';
  });
  return parts.join(' ');
}

/** Who may type a board's moves (the server decides again): the arbiter, or one of its two players when neither is a guest; once it has a played result. */
export function mayTypeMoves(T, b, me) {
  if (!T.over_the_board || !me || !b.game || !b.result || b.forfeit) return false;
  if (T.created_by === me) return true;
  const guest = new Set((T.players || []).filter((p) => p.guest).map((p) => p.name));
  return (b.white === me || b.black === me) && !guest.has(b.white) && !guest.has(b.black);
}

/** The page where a board's moves are typed. */
export const movesPath = (id, round, board) => `/tournaments/${encodeURIComponent(id)}/boards/${round}/${board}/moves`;
