#!/usr/bin/env bash
# Play the games that `crates/engine/src/params/tuned.rs` is fitted on, and join them into
# target/selfplay/combined.pgn (its header names this script and the tuner's command).
#
# Usage: scripts/tuning-data.sh
#
# Each set is the engine of one commit playing itself with `rookery-selfplay` at a fixed
# number of nodes a move, in a worktree of that commit (selfplay-common.sh: the same games on
# any machine; a stopped run is continued). About an hour and a half on two cores plus two
# release builds, most of it the second set (1.9 games a second).
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/selfplay-common.sh"
mkdir -p target/selfplay

count_games() { LC_ALL=C grep -c '^\[Round ' "$1" || true; }

# The engine of fa6f845 (the hand-set weights) at 5,000 nodes, then the engine of 6e9da08
# (weights tuned on the first set; correction and capture history) at 10,000.
selfplay_set fa6f845 target/selfplay/games.pgn 8000 --nodes 5000 --threads 2
selfplay_set 6e9da08 target/selfplay/games-6e9da08-10k.pgn 6346 --nodes 10000 --threads 2
cat target/selfplay/games.pgn target/selfplay/games-6e9da08-10k.pgn > target/selfplay/combined.pgn
echo "target/selfplay/combined.pgn: $(count_games target/selfplay/combined.pgn) games"
