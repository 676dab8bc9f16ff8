#!/usr/bin/env bash
# A Stockfish self-play corpus for the PGN command benchmark (scripts/bench-pgn-commands.sh):
# Debian's `stockfish` against itself through `rookery match`, at a fixed node count.
#
# Usage: scripts/stockfish-corpus.sh [GAMES] [DIR]
#        (GAMES defaults to 10000, DIR to <repo>/target/corpus; writes DIR/stockfish.pgn)
#
# Reproducible without committed data: the openings are the main lines of the 2,000 games of
# crates/pgn/tests/data/real/gnuchess-book-first-2000.pgn, cut to 8 plies for the first 4,000
# games, 10 for the next 4,000, and so on (each opening twice, colours swapped), and Stockfish
# searches NODES (default 200) nodes a move on one thread with its table cleared before each
# game, so the same Stockfish plays the same games on any machine whatever its load. The games
# end by the rules or by `rookery match`'s adjudication (both engines' scores agreeing), as
# engine-testing frameworks end theirs, so the file has every kind of ending a real self-play
# file has. Progress lines go to DIR/stockfish.log. Environment: ROOKERY (the rookery binary;
# default: build target/release/rookery), STOCKFISH (default: stockfish on PATH, else
# /usr/games/stockfish; install with `apt-get install -y stockfish`), NODES, CONCURRENCY
# (games at a time, default 2).
#
# Idempotent: an existing DIR/stockfish.pgn with GAMES games is kept. About 18 minutes for
# 10,000 games on two cores (Stockfish 15.1, 200 nodes), most of it the engines talking.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
games=${1:-10000}
out=${2:-$repo_root/target/corpus}
nodes=${NODES:-200}
concurrency=${CONCURRENCY:-2}
pgn="$out/stockfish.pgn"
openings=crates/pgn/tests/data/real/gnuchess-book-first-2000.pgn
per_cut=4000 # two games for each of the 2,000 openings

count_games() { LC_ALL=C grep -c '^\[Event ' "$1" || true; }

if [ -f "$pgn" ] && [ "$(count_games "$pgn")" -eq "$games" ]; then
    echo "$pgn: $games games (kept; delete it to play them again)"
    exit 0
fi

stockfish=${STOCKFISH:-$(command -v stockfish || echo /usr/games/stockfish)}
[ -x "$stockfish" ] || {
    echo "stockfish-corpus: no Stockfish at $stockfish (apt-get install -y stockfish)" >&2
    exit 1
}
if [ -z "${ROOKERY:-}" ]; then
    cargo build --release -q -p rookery
    ROOKERY=target/release/rookery
fi

mkdir -p "$out"
tmp="$out/stockfish.pgn.partial"
rm -f "$tmp" "$out/stockfish.log"
left=$games
plies=8
while [ "$left" -gt 0 ]; do
    n=$((left < per_cut ? left : per_cut))
    echo "stockfish-corpus: $n games from $plies-ply openings" >&2
    "$ROOKERY" match \
        --engine "$stockfish option.Threads=1 option.Hash=16 nodes=$nodes name=Stockfish" \
        --engine "$stockfish option.Threads=1 option.Hash=16 nodes=$nodes name=Stockfish" \
        --tc 600+1 --games "$n" --concurrency "$concurrency" \
        --openings "$openings" --opening-plies "$plies" \
        --resign-adjudication 4,1000 --draw-adjudication 40,8,10 \
        --event "Stockfish self-play, $nodes nodes" --site "rookery stockfish-corpus.sh" \
        --pgn "$tmp.part" >>"$out/stockfish.log" 2>&1
    cat "$tmp.part" >>"$tmp"
    rm -f "$tmp.part"
    left=$((left - n))
    plies=$((plies + 2))
done
mv "$tmp" "$pgn"
size=$(du -m "$pgn" | cut -f1)
echo "$pgn: $(count_games "$pgn") games, $size MB ($("$stockfish" <<<quit | head -1 | cut -d' ' -f1-2), $nodes nodes a move)"
