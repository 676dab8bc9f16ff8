#!/bin/sh
# Are Rookery's levels 1-8 strictly ordered? Level k plays level k+1 (see scripts/README.md).
#
#   scripts/levels.sh                  # 100 games per pair at 10+0.1
#   GAMES=20 LEVELS="1 2 3" scripts/levels.sh
#
# Environment: GAMES (per pair, default 100), LEVELS (default "1 2 3 4 5 6 7 8"), TC (default
# 10+0.1), CONCURRENCY (default 1), OPENINGS (default scripts/data/openings.epd), OUT (default
# target/levels).
# Also ROOKERY (a binary to test instead of building one) and NICE: see match-common.sh.
set -eu
. "$(dirname "$0")/match-common.sh"

GAMES=${GAMES:-100}
LEVELS=${LEVELS:-"1 2 3 4 5 6 7 8"}
TC=${TC:-10+0.1}
OUT=${OUT:-target/levels}

mkdir -p "$OUT"
SUMMARY="$OUT/summary.md"
{
    echo "Rookery levels, level k against level k+1: $TC, $GAMES games per pair, openings $OPENINGS."
    echo
    echo "| pair | games | W - L - D (stronger level's side) | score | Elo difference (95%) | LOS | ordered (LOS ≥ 95%) |"
    echo "|---|---|---|---|---|---|---|"
} > "$SUMMARY"

PREVIOUS=
for LEVEL in $LEVELS; do
    if [ -n "$PREVIOUS" ]; then
        echo "levels: level $LEVEL against level $PREVIOUS, $GAMES games" >&2
        REPORT="$OUT/level$LEVEL-vs-$PREVIOUS.txt"
        rookery_match \
            --engine "$ROOKERY uci option.Threads=1 option.Level=$LEVEL name=level$LEVEL" \
            --engine "$ROOKERY uci option.Threads=1 option.Level=$PREVIOUS name=level$PREVIOUS" \
            --tc "$TC" --games "$GAMES" --pgn "$OUT/level$LEVEL-vs-$PREVIOUS.pgn" \
            --event "Rookery level $LEVEL vs level $PREVIOUS" > "$REPORT"
        cat "$REPORT"
        awk -v pair="$LEVEL vs $PREVIOUS" '
            /^Score of/ { split($0, a, ": "); split(a[2], n, /[ \[\]]+/); w = n[1]; l = n[3]; d = n[5]; s = n[6]; g = n[7] }
            /^Elo difference/ { diff = $3; err = $5; los = $8 }
            END {
                # The likelihood of superiority, from wins and losses: unlike the Elo error bar
                # it stays finite when the weaker level scores nothing.
                ordered = (los >= 95) ? "yes" : ((s >= 0.5) ? "not shown" : "NO")
                printf "| %s | %s | %s - %s - %s | %s | %s ± %s | %s %% | %s |\n", pair, g, w, l, d, s, diff, err, los, ordered
            }' "$REPORT" >> "$SUMMARY"
    fi
    PREVIOUS=$LEVEL
done
echo
cat "$SUMMARY"
