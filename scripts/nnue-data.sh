#!/usr/bin/env bash
# Play the games whose positions `crates/engine/nets/default.nnue` is trained on, into
# target/nnue/ (`rookery-nnue`'s command, in crates/tune/README.md, reads them).
#
# Usage: scripts/nnue-data.sh
#
# Every set is played by the engine of commit d356275 (the second network, trained on the
# hand-written evaluation's games; bench signature 824495) against itself with
# `rookery-selfplay --positions`, at a fixed number of nodes a move, built in a git worktree
# (target/d356275): the same games, and so the same positions, come out on any machine whatever
# its load. Two threads play games in any order; the trainer sorts the lines, so the order does
# not matter. A set whose file already holds its games is not played again; one with fewer (a
# stopped run) is continued from the next game. Roughly 1,300 to 1,500 positions a second on
# two idle cores, about 75 minutes in all.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
mkdir -p target/nnue

commit=d356275
count_games() { if [ -f "$1" ]; then LC_ALL=C grep -c '^\[Round ' "$1" || true; else echo 0; fi; }

# play NAME GAMES NODES SEED: games 1..GAMES, into target/nnue/NAME.pgn and NAME.txt.
play() {
    local name=$1 games=$2 nodes=$3 seed=$4
    local have
    have=$(count_games "target/nnue/$name.pgn")
    if [ "$have" -ge "$games" ]; then
        echo "target/nnue/$name.txt: $have games, nothing to play"
        return
    fi
    [ -d "target/$commit" ] || git worktree add --detach "target/$commit" "$commit"
    echo "target/nnue/$name.txt: playing games $((have + 1))..$games"
    (cd "target/$commit" && cargo run --release -p rookery-tune --bin rookery-selfplay -- \
        --games $((games - have)) --first $((have + 1)) --nodes "$nodes" --random-plies 8 \
        --seed "$seed" --threads 2 --out "../nnue/$name.pgn" --positions "../nnue/$name.txt")
}

play net2-2k 95000 2000 10
play net2-validation 500 2000 1010
wc -l target/nnue/net2-2k.txt target/nnue/net2-validation.txt
