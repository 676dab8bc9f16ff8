#!/usr/bin/env bash
# Play the games whose positions `crates/engine/nets/default.nnue` is trained on, into
# target/nnue/ (`rookery-nnue`'s command, in crates/tune/README.md, reads them).
#
# Usage: scripts/nnue-data.sh
#
# Every set is played by the engine of commit 9f320c5 (the hand-written evaluation, bench
# signature 840754) against itself with `rookery-selfplay --positions`, at a fixed number of
# nodes a move, built in a git worktree (target/9f320c5): the same games, and so the same
# positions, come out on any machine whatever its load. Two threads play games in any order;
# the trainer sorts the lines, so the order does not matter. A set whose file already holds
# its games is not played again; one with fewer (a stopped run) is continued from the next
# game. Roughly 700 to 1,000 positions a second on two cores, three hours in all.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
mkdir -p target/nnue

commit=9f320c5
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

play positions-5k 2516 5000 8
play positions-2k 94018 2000 9
play validation-2k 500 2000 1009
wc -l target/nnue/positions-5k.txt target/nnue/positions-2k.txt target/nnue/validation-2k.txt
