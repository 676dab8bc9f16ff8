// The page's reading of a typed move (web/js/scoresheet.js, issue 53), the twin of the
// server's (crates/core/src/scoresheet.rs, whose tests/scoresheet.rs checks the same spellings
// in the same positions): every legal move, written as SAN, as UCI, in small letters, with its
// origin square or without its `x` and `+`, reads back as that move (or as an ambiguity that
// lists it); an illegal or ambiguous move and a pasted list's first bad move are named. No
// browser: plain modules under node.

import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readMove, readMoves, movetext } from '../js/scoresheet.js';
import { parseFen, legalMoves, toSan, castlingOf } from '../js/chess.js';

const POSITIONS = [
  'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1',
  'r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1',
  'r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1',
  '8/8/8/K2pP2q/8/8/8/7k w - d6 0 1',
  'rnbqkb1r/ppp1pppp/5n2/3pP3/8/8/PPPP1PPP/RNBQKBNR w KQkq d6 0 3',
];
const START = parseFen(POSITIONS[0]);

test('every legal move reads back however it is written', () => {
  for (const fen of POSITIONS) {
    const pos = parseFen(fen);
    for (const m of legalMoves(pos)) {
      const san = toSan(pos, m);
      const spellings = [san, m, san.replace(/[+#]$/, '').replace('x', '')];
      const castle = castlingOf(pos, m);
      if (castle) spellings.push(castle.side === 'k' ? '0-0' : '0-0-0', castle.side === 'k' ? 'o-o' : 'o-o-o');
      const piece = pos.board['abcdefgh'.indexOf(m[0]) + 8 * (Number(m[1]) - 1)];
      if (!'pPkK'.includes(piece)) spellings.push(piece.toLowerCase() + m, piece.toUpperCase() + m, san.toLowerCase());
      for (const text of spellings) {
        const r = readMove(pos, text);
        if (r.error === 'ambiguous') assert.ok(r.candidates.includes(san), `${text} in ${fen}: ${r.candidates}`);
        else assert.equal(r.uci, m, `${text} in ${fen}: ${JSON.stringify(r)}`);
      }
    }
  }
});

test('the slips of the brief, an illegal and an ambiguous move', () => {
  const ep = readMoves(START, '1. e4 Nf6 2. e5 d5 3. exd6e.p.');
  assert.equal(ep.error, null);
  assert.deepEqual(ep.moves.map((m) => m.san), ['e4', 'Nf6', 'e5', 'd5', 'exd6']);
  const promo = parseFen('8/4P1k1/8/8/8/8/6K1/8 w - - 0 1');
  for (const text of ['e8Q', 'e8=Q', 'e8q', 'e8=q']) assert.equal(readMove(promo, text).uci, 'e7e8q', text);
  assert.deepEqual(readMove(START, 'Nf6'), { error: 'illegal', text: 'Nf6', candidates: [] });
  assert.deepEqual(readMove(START, 'hello'), { error: 'unreadable', text: 'hello', candidates: [] });
  const { moves, error } = readMoves(START, '1. d4 d5 2. Nf3 Nf6 3. Nd2');
  assert.equal(moves.length, 4);
  assert.deepEqual(error, { error: 'ambiguous', text: 'Nd2', candidates: ['Nbd2', 'Nfd2'], number: 3, color: 'white' });
  assert.equal(movetext(moves, START), '1. d4 d5 2. Nf3 Nf6');
});
