#!/usr/bin/env python3
"""Chess960 oracle games from python-chess, for the rookery-core Chess960 tests.

Writes crates/core/tests/data/chess960-games.txt: random games from Chess960 start positions,
with, at every ply, python-chess's FEN, the number of legal moves, FNV-1a hashes of the
legal-move sets in UCI and in SAN, and the move played (UCI and SAN).

Run (python-chess in a throwaway venv; the committed file was made with python-chess 1.11.2):

    python3 -m venv /tmp/venv960 && /tmp/venv960/bin/pip install chess
    /tmp/venv960/bin/python scripts/chess960-oracle.py            # seed 960, default sizes
    /tmp/venv960/bin/python scripts/chess960-oracle.py --seed 7 --games 50 --out /tmp/x.txt

The output is the same bytes for the same seed, options and python-chess version: moves are
chosen with random.Random(seed) from the legal moves sorted by UCI string, so python-chess's
move-generation order does not matter. Summary counts go to stderr and into the file header.

Output format (the file repeats it in its '#' header):

    # ...                                  comment lines (header only)
    game <start number 0..959>             starts a game from Board.from_chess960_pos(n)
    <fen>|<n legal>|<uci hash>|<san hash>|<uci played>|<san played>     one line per ply,
                                           describing the position BEFORE the move
    end <fen>|<result>|<termination>       after the last ply

FEN: board.fen() of a chess960=True board, i.e. X-FEN (KQkq, or the rook's file letter when the
castling rook is not the outermost rook on its side), en-passant square only when an en-passant
capture is legal, 6 fields. UCI: chess960 form, castling as king-takes-own-rook ("e1h1").
SAN: board.san(), with '+'/'#' suffixes, castling "O-O"/"O-O-O". Hashes: 64-bit FNV-1a
(offset 0xcbf29ce484222325, prime 0x100000001b3) over the UTF-8 bytes of the set's strings
sorted in byte order and joined by one space, written as 16 lowercase hex digits.
Result: 1-0, 0-1, 1/2-1/2 or *; termination: checkmate, stalemate, insufficient_material,
seventyfive_moves, fivefold_repetition (python-chess's Board.outcome(claim_draw=False)) or
max_plies (result *).
"""

import argparse
import random
import sys
from collections import Counter
from pathlib import Path

try:
    import chess
except ImportError:
    sys.exit("python-chess is missing: python3 -m venv /tmp/venv960 && "
             "/tmp/venv960/bin/pip install chess, then run this with /tmp/venv960/bin/python")

FIXED_STARTS = [0, 1, 2, 518, 959, 100, 200, 300, 400, 500]
FNV_OFFSET = 0xCBF29CE484222325
FNV_PRIME = 0x100000001B3


def fnv1a64(data: bytes) -> int:
    h = FNV_OFFSET
    for b in data:
        h ^= b
        h = (h * FNV_PRIME) & 0xFFFFFFFFFFFFFFFF
    return h


def set_hash(strings) -> str:
    joined = " ".join(sorted(strings, key=lambda s: s.encode()))
    return "%016x" % fnv1a64(joined.encode())


def castling_letters(fen: str) -> bool:
    """True when the X-FEN castling field uses a file letter instead of KQkq."""
    return any(c not in "KQkq-" for c in fen.split()[2])


def play_game(start: int, rng: random.Random, max_plies: int, castle_prob: float, stats: Counter):
    board = chess.Board.from_chess960_pos(start)
    board.chess960 = True
    lines = ["game %d" % start]
    castled = False
    for _ in range(max_plies):
        if board.outcome(claim_draw=False) is not None:
            break
        moves = sorted(board.legal_moves, key=lambda m: board.uci(m, chess960=True))
        ucis = [board.uci(m, chess960=True) for m in moves]
        sans = [board.san(m) for m in moves]
        fen = board.fen()
        castles = [m for m in moves if board.is_castling(m)]
        if castles:
            stats["positions with castling legal"] += 1
        if castling_letters(fen):
            stats["positions with file letters in X-FEN castling"] += 1
        if castles and rng.random() < castle_prob:
            move = rng.choice(castles)
        else:
            move = rng.choice(moves)
        uci = board.uci(move, chess960=True)
        san = board.san(move)
        lines.append("%s|%d|%s|%s|%s|%s" % (fen, len(moves), set_hash(ucis), set_hash(sans), uci, san))
        stats["plies"] += 1
        if board.is_castling(move):
            castled = True
            kingside = board.is_kingside_castling(move)
            stats["O-O" if kingside else "O-O-O"] += 1
            rank = chess.square_rank(move.from_square)
            king_to = chess.square(6 if kingside else 2, rank)
            rook_to = chess.square(5 if kingside else 3, rank)
            if move.from_square == king_to:
                stats["castlings where the king does not move"] += 1
            if move.to_square == rook_to:
                stats["castlings where the rook does not move"] += 1
            if move.from_square == rook_to and move.to_square == king_to:
                stats["castlings where king and rook swap squares"] += 1
        board.push(move)
    outcome = board.outcome(claim_draw=False)
    if outcome is None:
        result, termination = "*", "max_plies"
    else:
        result, termination = outcome.result(), outcome.termination.name.lower()
    stats["games"] += 1
    stats["games with a castling"] += castled
    stats["end: " + termination] += 1
    lines.append("end %s|%s|%s" % (board.fen(), result, termination))
    return lines


def main():
    root = Path(__file__).resolve().parent.parent
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--seed", type=int, default=960)
    ap.add_argument("--games", type=int, default=200,
                    help="games from random start numbers (default 200)")
    ap.add_argument("--fixed-games", type=int, default=3,
                    help="games from each of the start numbers %s (default 3)" % FIXED_STARTS)
    ap.add_argument("--max-plies", type=int, default=120)
    ap.add_argument("--castle-prob", type=float, default=0.5,
                    help="probability of playing a castling move when one is legal (default 0.5)")
    ap.add_argument("--out", type=Path, default=root / "crates/core/tests/data/chess960-games.txt")
    args = ap.parse_args()

    rng = random.Random(args.seed)
    stats = Counter()
    starts = [n for n in FIXED_STARTS for _ in range(args.fixed_games)]
    starts += [rng.randrange(960) for _ in range(args.games)]
    body = []
    for start in starts:
        body.extend(play_game(start, rng, args.max_plies, args.castle_prob, stats))

    castlings = stats["O-O"] + stats["O-O-O"]
    keys = ["games", "plies", "games with a castling", "O-O", "O-O-O",
            "castlings where the king does not move", "castlings where the rook does not move",
            "castlings where king and rook swap squares", "positions with castling legal",
            "positions with file letters in X-FEN castling"]
    ends = sorted(k for k in stats if k.startswith("end: "))
    header = [
        "# Chess960 oracle games: python-chess %s, chess960=True. Made by scripts/chess960-oracle.py" % chess.__version__,
        "#   --seed %d --games %d --fixed-games %d --max-plies %d --castle-prob %s"
        % (args.seed, args.games, args.fixed_games, args.max_plies, args.castle_prob),
        "# Games: %d from each of the start numbers %s, then %d from random start numbers"
        % (args.fixed_games, " ".join(map(str, FIXED_STARTS)), args.games),
        "# (Board.from_chess960_pos(n); 518 is the standard position). Moves are uniformly random",
        "# among the legal moves, except that when castling is legal a castling move is played with",
        "# probability %s. A game stops at the first position where python-chess's" % args.castle_prob,
        "# Board.outcome(claim_draw=False) is not None, or after %d plies." % args.max_plies,
        "#",
        "# Format (lines starting with '#' are comments and appear only here):",
        "#   game <start number>",
        "#   <fen>|<number of legal moves>|<uci set hash>|<san set hash>|<uci played>|<san played>",
        "#   ... one such line per ply, describing the position BEFORE the move is played ...",
        "#   end <fen of the final position>|<result>|<termination>",
        "# FEN: X-FEN (python-chess board.fen(), chess960 mode): KQkq for the outermost rook on a",
        "#   side, the rook's file letter (A-H / a-h) otherwise; en-passant square written only when",
        "#   an en-passant capture is legal; always 6 fields.",
        "# UCI: chess960 form, castling written king-takes-own-rook (e.g. b1a1, f8h8).",
        "# SAN: with +/# suffixes; castling O-O / O-O-O; promotions like e8=Q.",
        "# Hashes: 64-bit FNV-1a (offset 0xcbf29ce484222325, prime 0x100000001b3) over the strings",
        "#   of the legal-move set, sorted in byte order and joined by single spaces (UTF-8), as 16",
        "#   lowercase hex digits.",
        "# result: 1-0, 0-1, 1/2-1/2 or *. termination: checkmate, stalemate, insufficient_material,",
        "#   seventyfive_moves, fivefold_repetition, or max_plies (result *).",
        "#",
        "# Counts: castlings played %d in %d positions where castling was legal." % (castlings, stats["positions with castling legal"]),
    ]
    header += ["#   %s: %d" % (k, stats[k]) for k in keys]
    header += ["#   %s: %d" % (k, stats[k]) for k in ends]
    text = "\n".join(header + body) + "\n"
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(args.out.suffix + ".tmp")
    tmp.write_text(text)
    tmp.replace(args.out)
    for k in keys + ends:
        print("%s: %d" % (k, stats[k]), file=sys.stderr)
    print("%s: %d lines, %d bytes" % (args.out, len(header) + len(body), len(text.encode())), file=sys.stderr)


if __name__ == "__main__":
    main()
