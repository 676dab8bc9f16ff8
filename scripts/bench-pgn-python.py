#!/usr/bin/env python3
"""PGN parse + replay speed of python-chess, for comparison with Rookery's benchmark.

Reads the first N games of a PGN file with python-chess and replays each game's main line:
every SAN is resolved to a legal move and played (python-chess's reader does that itself);
variations are skipped and `[FEN]` starts are honoured, as in

    cargo bench -p rookery-pgn --bench replay -- --limit N

which reads the same games with rookery-pgn + rookery-core and pgn-reader + shakmaty. Prints
games, plies and games with errors (to compare with the Rust benchmark's line), then
games/s and MB/s for the best of the rounds.

Install python-chess first:  pip install chess   (measured with 1.11.2)

Usage: scripts/bench-pgn-python.py [FILE] [--limit N] [--rounds R]
FILE defaults to target/corpus/corpus.pgn (fetch it with scripts/fetch-pgn-corpus.sh).
"""

import argparse
import pathlib
import sys
import time

try:
    import chess
    import chess.pgn
except ImportError:
    sys.exit("python-chess is missing: pip install chess")


class Replay(chess.pgn.BaseVisitor):
    """Counts the main line's moves; the reader parses and plays them on its own board."""

    def begin_game(self):
        self.plies = 0
        self.error = False

    def begin_variation(self):
        return chess.pgn.SKIP

    def visit_move(self, board, move):
        self.plies += 1

    def handle_error(self, error):
        self.error = True

    def result(self):
        return self.plies, self.error


def run(path, limit):
    """Reads up to `limit` games; returns games, plies, errors, bytes read and seconds."""
    games = plies = errors = 0
    # Latin-1 reads every byte as one character, so the file position counts bytes (the
    # corpus has stray 8-bit bytes in a few tags).
    with open(path, encoding="latin-1") as handle:
        start = time.perf_counter()
        while games < limit:
            outcome = chess.pgn.read_game(handle, Visitor=Replay)
            if outcome is None:
                break
            games += 1
            plies += outcome[0]
            errors += outcome[1]
        seconds = time.perf_counter() - start
        size = handle.tell()
    return games, plies, errors, size, seconds


def main():
    root = pathlib.Path(__file__).resolve().parent.parent
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("file", nargs="?", default=root / "target/corpus/corpus.pgn")
    parser.add_argument("--limit", type=int, default=10_000, help="games to read (10000)")
    parser.add_argument("--rounds", type=int, default=1, help="best of this many runs (1)")
    args = parser.parse_args()
    if not pathlib.Path(args.file).exists():
        sys.exit(f"cannot read {args.file}: fetch it with scripts/fetch-pgn-corpus.sh")

    best = None
    for _ in range(args.rounds):
        games, plies, errors, size, seconds = run(args.file, args.limit)
        best = seconds if best is None else min(best, seconds)
    mb = size / 1e6
    print(f"python-chess {chess.__version__}: parse + replay of {args.file}, first {games} "
          f"games ({mb:.1f} MB), best of {args.rounds}")
    print(f"games {games}, plies {plies}, games with errors {errors}")
    print(f"{'seconds':>9} {'games/s':>10} {'MB/s':>8} {'Mplies/s':>10}")
    print(f"{best:>9.3f} {games / best:>10.0f} {mb / best:>8.2f} {plies / best / 1e6:>10.3f}")


if __name__ == "__main__":
    main()
