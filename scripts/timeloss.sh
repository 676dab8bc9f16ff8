#!/bin/sh
# Time management under pressure: Rookery against itself at 1+0.01, counting time losses
# (see scripts/README.md). The target is none in 1000 games.
#
#   scripts/timeloss.sh                      # 1000 games, one at a time
#   GAMES=200 scripts/timeloss.sh
#
# Environment: GAMES (default 1000), TC (default 1+0.01), CONCURRENCY (default 1), OPENINGS
# (default scripts/data/openings.epd), OUT (default target/timeloss).
# Also ROOKERY (a binary to test instead of building one) and NICE: see match-common.sh.
set -eu
. "$(dirname "$0")/match-common.sh"

GAMES=${GAMES:-1000}
TC=${TC:-1+0.01}
OUT=${OUT:-target/timeloss}

mkdir -p "$OUT"
echo "timeloss: $GAMES games at $TC, concurrency $CONCURRENCY" >&2
rookery_match \
    --engine "$ROOKERY uci option.Threads=1 name=rookery-a" \
    --engine "$ROOKERY uci option.Threads=1 name=rookery-b" \
    --tc "$TC" --games "$GAMES" --pgn "$OUT/games.pgn" --event "Rookery time losses $TC" \
    > "$OUT/report.txt"
cat "$OUT/report.txt"
LOSSES=$(awk '/^rookery-[ab] / { t += $2 } END { print t + 0 }' "$OUT/report.txt")
echo "time losses: $LOSSES in $GAMES games at $TC"
[ "$LOSSES" -eq 0 ]
