#!/bin/sh
# Rookery's strength against Debian's Stockfish 15.1 at UCI_LimitStrength (see scripts/README.md).
#
#   scripts/strength.sh                       # 200 games per level, 10+0.1, one game at a time
#   GAMES=4 ELOS=1600 scripts/strength.sh     # a smoke run
#   ROOKERY=target/bins/new BASELINE=target/bins/old GAMES=300 ELOS=2500 scripts/strength.sh
#                                             # a candidate and its baseline, side by side
#
# Environment: GAMES (per Elo level, default 200), ELOS (default "1600 2000 2400 2500 2800"),
# TC (default 10+0.1), CONCURRENCY (default 1), OPENINGS (default scripts/data/openings.epd),
# OUT (default target/strength: one PGN and one report per level, and summary.md).
# Also ROOKERY (a binary to test instead of building one) and NICE: see match-common.sh.
#
# BASELINE=BINARY plays a second Rookery build against the same Stockfish in the same run: the
# two matches run side by side, each with CONCURRENCY games at a time (so CONCURRENCY=1 on two
# cores), and the summary has a row for each. The machine's speed drifts between runs, and
# Rookery's strength depends on it more than the limited Stockfish's does, so a candidate is
# compared with its baseline measured alongside it, not with an earlier run.
set -eu
. "$(dirname "$0")/match-common.sh"

GAMES=${GAMES:-200}
ELOS=${ELOS:-"1600 2000 2400 2500 2800"}
TC=${TC:-10+0.1}
OUT=${OUT:-target/strength}

find_stockfish() {
    command -v stockfish 2>/dev/null || { [ -x /usr/games/stockfish ] && echo /usr/games/stockfish; } || true
}
SF=$(find_stockfish)
if [ -z "$SF" ]; then
    echo "strength: installing Debian's stockfish package" >&2
    apt-get install -y stockfish >&2 || { apt-get update >&2 && apt-get install -y stockfish >&2; }
    SF=$(find_stockfish)
fi
[ -n "$SF" ] || { echo "strength: no stockfish binary after installing" >&2; exit 1; }
SF_VERSION=$(dpkg-query -W -f '${Version}' stockfish 2>/dev/null || echo unknown)

if [ -n "${BASELINE:-}" ] && [ ! -x "$BASELINE" ]; then
    echo "strength: BASELINE=$BASELINE is not an executable" >&2
    exit 1
fi
mkdir -p "$OUT"

# Speed, measured in this run: each engine's own bench (one thread).
SF_NPS=$("$SF" bench 2>&1 | awk -F: '/Nodes\/second/ { gsub(/ /, "", $2); print $2 }')
# "nps (signature N nodes)" of a Rookery binary's bench.
rookery_speed() {
    "$1" bench 2>/dev/null | awk -F: '
        /Nodes searched/ { gsub(/ /, "", $2); nodes = $2 }
        /Nodes\/second/ { gsub(/ /, "", $2); nps = $2 }
        END { printf "%s (signature %s nodes)", nps, nodes }'
}
RK_SPEED=$(rookery_speed "$ROOKERY")
if [ -n "${BASELINE:-}" ]; then
    RK_SPEED="$RK_SPEED, baseline bench $(rookery_speed "$BASELINE")"
fi

SUMMARY="$OUT/summary.md"
{
    echo "Stockfish $SF_VERSION ($SF), $TC, Threads=1, Hash=16, $GAMES games per level,"
    echo "openings $OPENINGS (each twice, colours swapped), concurrency $CONCURRENCY${BASELINE:+ in each of the two matches}."
    echo "nps: rookery bench $RK_SPEED, stockfish bench $SF_NPS."
    echo
    echo "| Engine | Stockfish UCI_Elo | games | W - L - D | score | Elo difference (95%) | Rookery ≈ | time losses (R/S) | crashes (R/S) | illegal (R/S) |"
    echo "|---|---|---|---|---|---|---|---|---|---|"
} > "$SUMMARY"

# One match of engine NAME (binary BIN) against Stockfish at ELO: report in REPORT, PGN next
# to it.
play() { # NAME BIN ELO REPORT
    rookery_match \
        --engine "$2 uci option.Threads=1 option.Hash=16 name=$1" \
        --engine "$SF option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=$3 name=stockfish-$3" \
        --tc "$TC" --games "$GAMES" --pgn "${4%.txt}.pgn" --event "Rookery vs Stockfish $3" \
        > "$4"
}

# The summary's row for one report.
row() { # NAME ELO REPORT
    awk -v name="$1" -v elo="$2" '
        /^Score of/ { split($0, a, ": "); split(a[2], n, /[ \[\]]+/); w = n[1]; l = n[3]; d = n[5]; s = n[6]; g = n[7] }
        /^Elo difference/ { diff = $3; err = $5 }
        $1 == name { rt = $2; rc = $3; ri = $5 }
        /^stockfish-/ { st = $2; sc = $3; si = $5 }
        END {
            est = (diff == "inf" || diff == "-inf") ? diff : sprintf("%.0f", elo + diff)
            printf "| %s | %s | %s | %s - %s - %s | %s | %s ± %s | %s | %s / %s | %s / %s | %s / %s |\n",
                name, elo, g, w, l, d, s, diff, err, est, rt, st, rc, sc, ri, si
        }' "$3" >> "$SUMMARY"
}

for ELO in $ELOS; do
    echo "strength: $GAMES games against Stockfish UCI_Elo $ELO at $TC" >&2
    REPORT="$OUT/sf$ELO.txt"
    BASELINE_REPORT="$OUT/sf$ELO-baseline.txt"
    # The baseline's match, if any, runs in the background while the candidate's runs.
    [ -z "${BASELINE:-}" ] || { play baseline "$BASELINE" "$ELO" "$BASELINE_REPORT" & }
    STATUS=0
    play rookery "$ROOKERY" "$ELO" "$REPORT" || STATUS=$?
    [ -z "${BASELINE:-}" ] || wait $! || STATUS=$?
    [ "$STATUS" -eq 0 ] || exit "$STATUS"
    cat "$REPORT"
    row rookery "$ELO" "$REPORT"
    if [ -n "${BASELINE:-}" ]; then
        cat "$BASELINE_REPORT"
        row baseline "$ELO" "$BASELINE_REPORT"
    fi
done
echo
cat "$SUMMARY"
