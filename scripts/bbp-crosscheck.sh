#!/usr/bin/env bash
# Rookery's Dutch engine against bbpPairings' on random tournaments, both ways, as FIDE's
# endorsement procedure (C.04.A) asks of a pairing program. Never in CI: bbpPairings is
# fetched and built by hand (`make` in its source gives bbpPairings.exe) and named by BBP.
#
#   BBP=/path/to/bbpPairings.exe scripts/bbp-crosscheck.sh [--baku] [COUNT] [FIRST_SEED]
#
# For each seed (COUNT, default 1000, from FIRST_SEED, default 1), with every generator key
# drawn in bbpPairings' ranges (its own generator's number of rounds, 5 unless told, set to
# 3 + SEED mod 9):
#   theirs  bbpPairings generates a tournament (`--dutch -g -o F -s SEED`), Rookery checks it
#           (`rookery pair --dutch F -c`): every round must come out as the file has it. Its
#           generator stops on some seeds: counted apart.
#   ours    Rookery generates one (`rookery pair --dutch -g`), bbpPairings checks it
#           (`--dutch F -c`). When the generation meets a round no pairing satisfies (exit 3,
#           the file written up to it), bbpPairings is asked to pair that round (`-p`) and
#           must say that no valid pairing exists (its status 1).
# With --baku the tournaments are Rookery's only, accelerated by the Baku method (the virtual
# points as 250 lines, which bbpPairings reads): bbpPairings re-pairs every round with the
# same points. Its own `092 FIDE_DUTCH_BAKU` is not compared: in 6.0.0 it pairs round 1 of an
# eight-player probe as if no points were given (1-5 6-2 3-7 8-4, where the same points as XXA
# lines give 1-3 4-2 5-7 8-6), and its GA is the first ceil(n/2) players where the text
# (C.04.5.1, "Initial Groups Division") says the first half rounded up to an even number.
# Environment: ROOKERY (default target/release/rookery, else target/debug/rookery).
set -euo pipefail
cd "$(dirname "$0")/.."

baku=()
if [ "${1:-}" = --baku ]; then baku=(--baku); shift; fi
count=${1:-1000}
first=${2:-1}
bbp=${BBP:?set BBP to a built bbpPairings.exe}
rookery=${ROOKERY:-}
if [ -z "$rookery" ]; then
    for candidate in target/release/rookery target/debug/rookery; do
        [ -x "$candidate" ] && { rookery=$candidate; break; }
    done
fi
[ -x "${rookery:-}" ] || { echo "bbp-crosscheck: no rookery binary (cargo build -p rookery)" >&2; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
: > "$work/empty.cfg"

theirs_ok=0 theirs_bad=0 theirs_stopped=0 theirs_rounds=0
ours_ok=0 ours_bad=0 ours_unpairable=0 ours_confirmed=0 ours_rounds=0
bad=()
rounds_of() { tr '\r' '\n' < "$1" | awk '/^001/ { n = int((length($0) - 89) / 10); if (n > m) m = n } END { print m + 0 }'; }

for ((seed = first; seed < first + count; seed++)); do
    if [ ${#baku[@]} -eq 0 ]; then
        file=$work/theirs.trf
        # bbpPairings' generator plays 5 rounds unless told: 3 to 11, by the seed.
        echo "RoundsNumber=$((3 + seed % 9))" > "$work/theirs.cfg"
        if "$bbp" --dutch -g "$work/theirs.cfg" -o "$file" -s "$seed" > /dev/null 2>&1 && [ -s "$file" ]; then
            theirs_rounds=$((theirs_rounds + $(rounds_of "$file")))
            if "$rookery" pair --dutch "$file" -c > "$work/check.txt" 2>&1; then
                theirs_ok=$((theirs_ok + 1))
            else
                theirs_bad=$((theirs_bad + 1)); bad+=("theirs:$seed")
            fi
        else
            theirs_stopped=$((theirs_stopped + 1))
        fi
    fi
    file=$work/ours.trf
    status=0
    "$rookery" pair --dutch "${baku[@]}" -g "$work/empty.cfg" -o "$file" -s "$seed" 2> "$work/err.txt" || status=$?
    if [ "$status" -eq 3 ]; then
        ours_unpairable=$((ours_unpairable + 1))
        pstatus=0
        "$bbp" --dutch "$file" -p > /dev/null 2>&1 || pstatus=$?
        if [ "$pstatus" -eq 1 ]; then ours_confirmed=$((ours_confirmed + 1)); else bad+=("unpairable:$seed"); fi
    elif [ "$status" -eq 0 ]; then
        ours_rounds=$((ours_rounds + $(rounds_of "$file")))
        if "$bbp" --dutch "$file" -c > "$work/check.txt" 2>&1 && ! grep -q 'Checker pairings' "$work/check.txt"; then
            ours_ok=$((ours_ok + 1))
        else
            ours_bad=$((ours_bad + 1)); bad+=("ours:$seed")
        fi
    else
        bad+=("generate:$seed"); cat "$work/err.txt" >&2
    fi
    if (( (seed - first + 1) % 100 == 0 )); then echo "bbp-crosscheck: $((seed - first + 1)) of $count seeds" >&2; fi
done

echo "seeds $first..$((first + count - 1)), ${baku[*]:-no acceleration} ($rookery against $bbp)"
if [ ${#baku[@]} -eq 0 ]; then
    echo "theirs: $theirs_ok tournaments ($theirs_rounds rounds) re-paired the same by Rookery, $theirs_bad not; the generator stopped on $theirs_stopped seeds"
fi
echo "ours:   $ours_ok tournaments ($ours_rounds rounds) re-paired the same by bbpPairings, $ours_bad not"
echo "        $ours_unpairable reached a round no pairing satisfies; bbpPairings agreed there is none for $ours_confirmed"
[ ${#bad[@]} -eq 0 ] || { echo "discrepancies: ${bad[*]}"; exit 1; }
