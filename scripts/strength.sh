#!/bin/sh
# Rookery's strength against Debian's Stockfish 15.1 at UCI_LimitStrength (see scripts/README.md).
#
#   scripts/strength.sh                       # 200 games per level, 10+0.1, one game at a time
#   GAMES=4 ELOS=1600 scripts/strength.sh     # a smoke run
#
# Environment: GAMES (per Elo level, default 200), ELOS (default "1600 2000 2400 2500 2800"),
# TC (default 10+0.1), CONCURRENCY (default 1), OPENINGS (default scripts/data/openings.epd),
# OUT (default target/strength: one PGN and one report per level, and summary.md).
# Also ROOKERY (a binary to test instead of building one) and NICE: see match-common.sh.
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

mkdir -p "$OUT"

# Speed, measured in this run: each engine's own bench (one thread).
SF_NPS=$("$SF" bench 2>&1 | awk -F: '/Nodes\/second/ { gsub(/ /, "", $2); print $2 }')
RK_BENCH=$("$ROOKERY" bench 2>/dev/null)
RK_NPS=$(echo "$RK_BENCH" | awk -F: '/Nodes\/second/ { gsub(/ /, "", $2); print $2 }')
RK_NODES=$(echo "$RK_BENCH" | awk -F: '/Nodes searched/ { gsub(/ /, "", $2); print $2 }')

SUMMARY="$OUT/summary.md"
{
    echo "Stockfish $SF_VERSION ($SF), $TC, Threads=1, Hash=16, $GAMES games per level,"
    echo "openings $OPENINGS (each twice, colours swapped), concurrency $CONCURRENCY."
    echo "nps: rookery bench $RK_NPS (signature $RK_NODES nodes), stockfish bench $SF_NPS."
    echo
    echo "| Stockfish UCI_Elo | games | W - L - D | score | Elo difference (95%) | Rookery ≈ | time losses (R/S) | crashes (R/S) | illegal (R/S) |"
    echo "|---|---|---|---|---|---|---|---|---|"
} > "$SUMMARY"

for ELO in $ELOS; do
    echo "strength: $GAMES games against Stockfish UCI_Elo $ELO at $TC" >&2
    REPORT="$OUT/sf$ELO.txt"
    rookery_match \
        --engine "$ROOKERY uci option.Threads=1 option.Hash=16 name=rookery" \
        --engine "$SF option.Threads=1 option.Hash=16 option.UCI_LimitStrength=true option.UCI_Elo=$ELO name=stockfish-$ELO" \
        --tc "$TC" --games "$GAMES" --pgn "$OUT/sf$ELO.pgn" --event "Rookery vs Stockfish $ELO" \
        > "$REPORT"
    cat "$REPORT"
    awk -v elo="$ELO" '
        /^Score of/ { split($0, a, ": "); split(a[2], n, /[ \[\]]+/); w = n[1]; l = n[3]; d = n[5]; s = n[6]; g = n[7] }
        /^Elo difference/ { diff = $3; err = $5 }
        /^rookery / { rt = $2; rc = $3; ri = $5 }
        /^stockfish-/ { st = $2; sc = $3; si = $5 }
        END {
            est = (diff == "inf" || diff == "-inf") ? diff : sprintf("%.0f", elo + diff)
            printf "| %s | %s | %s - %s - %s | %s | %s ± %s | %s | %s / %s | %s / %s | %s / %s |\n",
                elo, g, w, l, d, s, diff, err, est, rt, st, rc, sc, ri, si
        }' "$REPORT" >> "$SUMMARY"
done
echo
cat "$SUMMARY"
