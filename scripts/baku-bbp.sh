#!/usr/bin/env bash
# The Baku acceleration (rookery pair --dutch --baku) against bbpPairings' own: random
# tournaments generated and accelerated by Rookery, checked by bbpPairings. Never in CI: bbp
# is fetched and built by hand (its README; `make` gives bbpPairings.exe), and named by BBP.
#
#   BBP=/path/to/bbpPairings.exe scripts/baku-bbp.sh [COUNT] [FIRST_SEED]
#
# For each seed: Rookery generates the tournament with its Baku virtual points (250 lines in
# the file), and bbpPairings re-pairs every round with those points (`--dutch FILE -c`): the
# two Dutch engines agree under acceleration. bbpPairings' own Baku (the type line
# `092 FIDE_DUTCH_BAKU` without 250 lines) is not compared: in 6.0.0 it pairs round 1 of an
# eight-player probe as if no points were given (1-5 6-2 3-7 8-4, where the same points as
# XXA lines give 1-3 4-2 5-7 8-6), and its group GA is the first ceil(n/2) players where the
# text (C.04.5.1, "Initial Groups Division") says the first half rounded up to an even
# number, 2*ceil(n/4). A seed whose generation meets a round no pairing satisfies is counted
# apart.
# Environment: ROOKERY (default target/release/rookery, else target/debug/rookery).
set -euo pipefail
cd "$(dirname "$0")/.."

count=${1:-200}
first=${2:-1}
bbp=${BBP:?set BBP to a built bbpPairings.exe}
rookery=${ROOKERY:-}
if [ -z "$rookery" ]; then
    for candidate in target/release/rookery target/debug/rookery; do
        [ -x "$candidate" ] && { rookery=$candidate; break; }
    done
fi
[ -x "${rookery:-}" ] || { echo "baku-bbp: no rookery binary (cargo build -p rookery)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/empty.cfg" # every key drawn in bbpPairings' ranges

agree=0 differ=0 unpairable=0 accelerated_rounds=0
bad_seeds=()
for ((seed = first; seed < first + count; seed++)); do
    file=$work/t.trf
    if ! "$rookery" pair --dutch --baku -g "$work/empty.cfg" -o "$file" -s "$seed" 2> "$work/err.txt"; then
        unpairable=$((unpairable + 1))
        continue
    fi
    rounds=$(tr '\r' '\n' < "$file" | awk '/^142/ {print $2}')
    accelerated_rounds=$((accelerated_rounds + (rounds + 1) / 2))
    if "$bbp" --dutch "$file" -c > "$work/check.txt" 2>&1 && ! grep -q 'Checker pairings' "$work/check.txt"; then
        agree=$((agree + 1))
    else
        differ=$((differ + 1))
        bad_seeds+=("$seed")
    fi
done

echo "seeds $first..$((first + count - 1)) ($rookery against $bbp)"
echo "tournaments every round of which bbpPairings re-pairs the same: $agree"
echo "tournaments with a round it pairs otherwise:                  $differ"
echo "accelerated rounds among them: $accelerated_rounds"
echo "generation met an unpairable round (not counted):            $unpairable"
[ ${#bad_seeds[@]} -eq 0 ] || { echo "differing seeds: ${bad_seeds[*]}"; exit 1; }
