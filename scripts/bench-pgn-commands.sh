#!/usr/bin/env bash
# `rookery pgn check|replay|stats FILE` timed as a user runs them, whole processes, against a
# reference program built on pgn-reader 0.29 + shakmaty 0.30.1 (crates/pgn/examples/
# reference_check.rs) on the same files, interleaved, best of ROUNDS.
#
# Usage: scripts/bench-pgn-commands.sh [--rounds N] [FILE...]
#
# Default files: target/corpus/lichess-twic.pgn, always made here when missing (the lichess and TWIC
# samples of the pgn-reader 0.29.0 crate, lichess_db_1000k.pgn then twic1599_1000k.pgn, ten
# times over: 15,480 games, 20 MB), and target/corpus/stockfish.pgn when it exists
# (scripts/stockfish-corpus.sh). Both programs are built with the release profile and the
# project's flags (.cargo/config.toml: for this processor); ROOKERY and REFERENCE name other
# binaries. Before timing, the script checks that the reference and `rookery pgn stats` count
# the same games, main-line plies and games with errors, that `check` checked as many games
# and that `replay` printed one line a game. Each round runs the four programs one after the
# other on a file already in the page cache, output to /dev/null; the figure of each is its
# best round, and the ratio is the reference's best time over the command's (above 1: the
# command is faster). The commands run as a user runs them: a file of 4 MiB or more is read
# by parts on every core (ROOKERY_THREADS=N adds `--threads N` to the timed commands; 1 reads
# in one pass on one core); the reference reads on one.
set -euo pipefail

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"
rounds=10
files=()
while [ $# -gt 0 ]; do
    case "$1" in
        --rounds) rounds=$2; shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) files+=("$1"); shift ;;
    esac
done

corpus=target/corpus
if [ ! -f "$corpus/lichess-twic.pgn" ]; then
    cargo fetch -q
    benches=$(ls -d "${CARGO_HOME:-$HOME/.cargo}"/registry/src/*/pgn-reader-0.29.0/benches | head -1)
    mkdir -p "$corpus"
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        cat "$benches/lichess_db_1000k.pgn"; echo
        cat "$benches/twic1599_1000k.pgn"; echo
    done >"$corpus/lichess-twic.pgn.partial"
    mv "$corpus/lichess-twic.pgn.partial" "$corpus/lichess-twic.pgn"
fi
if [ ${#files[@]} -eq 0 ]; then
    files+=("$corpus/lichess-twic.pgn")
    if [ -f "$corpus/stockfish.pgn" ]; then files+=("$corpus/stockfish.pgn"); fi
fi

if [ -z "${ROOKERY:-}" ]; then
    cargo build --release -q -p rookery
    ROOKERY=target/release/rookery
fi
if [ -z "${REFERENCE:-}" ]; then
    cargo build --release -q -p rookery-pgn --example reference_check
    REFERENCE=target/release/examples/reference_check
fi

now_ns() { date +%s%N; }

for file in "${files[@]}"; do
    cat "$file" >/dev/null # into the page cache
    # The same work: games, main-line plies, games with errors.
    read -r _ games _ plies _ errors < <("$REFERENCE" "$file")
    stats=$("$ROOKERY" pgn stats "$file")
    field() { awk -v k="$1:" '$1 == k { print $2 }' <<<"$stats"; }
    if [ "$(field games)" != "$games" ] || [ "$(field plies)" != "$plies" ] ||
        [ "$(field errors)" != "$errors" ]; then
        echo "bench-pgn-commands: $file: the reference counts games $games plies $plies" \
            "errors $errors, rookery pgn stats says:" >&2
        echo "$stats" >&2
        exit 1
    fi
    checked=$("$ROOKERY" pgn check "$file" | tail -1 | cut -d' ' -f1) || true
    lines=$("$ROOKERY" pgn replay "$file" | wc -l)
    if [ "$checked" != "$games" ] || [ "$lines" != "$games" ]; then
        echo "bench-pgn-commands: $file: $games games, but check says $checked, replay $lines" >&2
        exit 1
    fi

    names=("pgn-reader + shakmaty" "rookery pgn check" "rookery pgn replay" "rookery pgn stats")
    threads=${ROOKERY_THREADS:+--threads $ROOKERY_THREADS}
    commands=("$REFERENCE" "$ROOKERY pgn check $threads" "$ROOKERY pgn replay $threads"
        "$ROOKERY pgn stats $threads")
    best=(0 0 0 0)
    for ((round = 0; round < rounds; round++)); do
        for i in 0 1 2 3; do
            start=$(now_ns)
            ${commands[$i]} "$file" >/dev/null || true # check exits 1 when it finds problems
            took=$(($(now_ns) - start))
            if [ "${best[$i]}" -eq 0 ] || [ "$took" -lt "${best[$i]}" ]; then best[$i]=$took; fi
        done
    done
    mb=$(($(stat -c %s "$file") / 1000))
    echo "$file: $games games, $plies plies, $errors with errors, $((mb / 1000)).$(printf %03d $((mb % 1000))) MB; best of $rounds interleaved rounds${threads:+; rookery $threads}"
    printf '%-24s %9s %10s %8s %7s\n' program seconds games/s MB/s ratio
    for i in 0 1 2 3; do
        awk -v name="${names[$i]}" -v ns="${best[$i]}" -v ref="${best[0]}" -v g="$games" -v kb="$mb" \
            'BEGIN { s = ns / 1e9; printf "%-24s %9.3f %10.0f %8.1f %7.2f\n", name, s, g / s, kb / 1000 / s, ref / ns }'
    done
    echo
done
