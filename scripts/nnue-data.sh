#!/usr/bin/env bash
# Play the games whose positions `crates/engine/nets/default.nnue` is trained on, into
# target/nnue/ (the training command in scripts/README.md reads them).
#
# Usage: scripts/nnue-data.sh
#
# Each set is one commit's engine against itself, `rookery-selfplay --positions` at 2,000
# nodes a move, in a worktree of that commit (selfplay-common.sh: the same games on any
# machine; a stopped run is continued). Two threads play games in any order; the trainer sorts
# the lines, so the order does not matter. At the end each set's sorted lines are compared with
# those the committed network was trained on (by SHA-256), so that a difference in the data
# shows here and not later as a different network. Three to five hours on two cores.
set -euo pipefail
. "$(dirname "${BASH_SOURCE[0]}")/selfplay-common.sh"
mkdir -p target/nnue

# nnue_set COMMIT NAME GAMES SEED: games 1..GAMES into target/nnue/NAME.pgn and NAME.txt.
nnue_set() {
    selfplay_set "$1" "target/nnue/$2.pgn" "$3" --nodes 2000 --random-plies 8 --seed "$4" \
        --threads 2 --positions "$repo_root/target/nnue/$2.txt"
}

# check NAME SHA256: whether the set's sorted lines are the ones the committed network was made
# with.
status=0
check() {
    local file="target/nnue/$1.txt" sum
    sum=$(LC_ALL=C sort "$file" | sha256sum | cut -d' ' -f1)
    if [ "$sum" = "$2" ]; then
        echo "$file: $(wc -l < "$file") positions, the same as the committed network's"
    else
        echo "$file: NOT the committed network's positions (sorted, SHA-256 $sum)" >&2
        status=1
    fi
}

# The games of d356275 (the second network; bench signature 824495), of 6848263 (the network
# with eight output buckets; 811639), of d019923 (the network on two rounds of games; 782060)
# and of 3001b30 (the network on three rounds; 691435). The validation set only measures the
# network.
nnue_set d356275 net2-2k 95000 10
nnue_set d356275 net2-validation 500 1010
nnue_set 6848263 buckets-2k 60000 12
nnue_set d019923 net5-2k 60000 13
nnue_set 3001b30 net6-2k 60000 14

check net2-2k c23dfd7cd2f37a16f037f8fdde8c32fdac1a927558ac12b9bdbce7c695324385
check net2-validation faf264751d7afb67a9e960c9b8555611cd75b42dd9a52e83ead710859378ce4e
check buckets-2k 216e36cb23216387ba713d252dc0a718d74c0c243ab206a4025f6d735eab7ddd
check net5-2k ed3dbd3dc3824c317e30f7b474f2973da078db3537b4609a69c4af0a5e8f0b42
check net6-2k 3d3abd5f7a842eda06bd5bf4fc3caeb662a8c8bdda16c2d070646aa1aad024b7
exit $status
