#!/usr/bin/env bash
# Play the games that `crates/engine/src/params/tuned.rs` is fitted on, and join them into
# target/selfplay/combined.pgn (its header names this script and the tuner's command).
#
# Usage: scripts/tuning-data.sh
#
# Each set is the engine of one commit playing itself with `rookery-selfplay` at a fixed
# number of nodes a move, built in a git worktree (target/COMMIT) from that commit's sources:
# a fixed node count, not time, bounds each move, so the same games come out on any machine
# whatever its load. A set whose file already holds its games is not played again; a file
# with fewer games (a stopped run) is continued from the next game. About an hour and a half
# on two cores plus two release builds, most of it the second set (1.9 games a second).
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
mkdir -p target/selfplay

count_games() { if [ -f "$1" ]; then LC_ALL=C grep -c '^\[Round ' "$1" || true; else echo 0; fi; }

# play COMMIT GAMES NODES FILE: games 1..GAMES of that commit's engine, into target/selfplay/FILE.
play() {
    local commit=$1 games=$2 nodes=$3 file=target/selfplay/$4
    local have
    have=$(count_games "$file")
    if [ "$have" -ge "$games" ]; then
        echo "$file: $have games, nothing to play"
        return
    fi
    [ -d "target/$commit" ] || git worktree add --detach "target/$commit" "$commit"
    local resume=()
    if [ "$have" -gt 0 ]; then
        resume=(--first $((have + 1)))
    fi
    echo "$file: playing games $((have + 1))..$games with the engine of $commit"
    (cd "target/$commit" && cargo run --release -p rookery-tune --bin rookery-selfplay -- \
        --games $((games - have)) "${resume[@]}" --nodes "$nodes" --threads 2 \
        --out "../selfplay/$4")
}

# The engine of fa6f845 (the hand-set weights) at 5,000 nodes, then the engine of 6e9da08
# (weights tuned on the first set; correction and capture history) at 10,000.
play fa6f845 8000 5000 games.pgn
play 6e9da08 6346 10000 games-6e9da08-10k.pgn
cat target/selfplay/games.pgn target/selfplay/games-6e9da08-10k.pgn > target/selfplay/combined.pgn
echo "target/selfplay/combined.pgn: $(count_games target/selfplay/combined.pgn) games"
