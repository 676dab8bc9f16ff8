#!/bin/sh
# Is a new Rookery build as strong as an old one? The two builds play each other head to head
# (see scripts/README.md); the verdict is whether the Elo difference is within ±MARGIN.
#
#   OLD=target/bins/old scripts/regression.sh                    # 1000 games at 10+0.1
#   OLD=target/bins/old GAMES=20 TC=2+0.05 scripts/regression.sh # a smoke run (about 3 minutes)
#   OLD=target/bins/old ROOKERY=target/bins/new scripts/regression.sh --960
#                                                                 # Chess960, random starts
#
# Environment: OLD (required: the old build's binary), GAMES (default 1000), TC (default
# 10+0.1), MARGIN (default 10 Elo), OUT (default target/regression: the report, the PGN and
# summary.md). Also ROOKERY (the new build; default: build target/release/rookery), CONCURRENCY
# (default 1), OPENINGS (default scripts/data/openings.epd) and NICE: see match-common.sh.
# Further arguments go to `rookery match` as they are (--960, --sprt 0,5, --resign-adjudication
# 4,700, ...).
#
# Exits 0 when the difference (new minus old) is within ±MARGIN, 1 when it is not; the 95%
# error bar is printed beside it and decides nothing: at 1,000 games it is about ±15 Elo.
set -eu
. "$(dirname "$0")/match-common.sh"

GAMES=${GAMES:-1000}
TC=${TC:-10+0.1}
MARGIN=${MARGIN:-10}
OUT=${OUT:-target/regression}

if [ -z "${OLD:-}" ] || [ ! -x "$OLD" ]; then
    echo "regression: OLD=${OLD:-} is not an executable (the old build's rookery binary)" >&2
    exit 2
fi
mkdir -p "$OUT"
REPORT="$OUT/report.txt"
PGN="$OUT/games.pgn"

# "nps (signature N nodes)" of a build's bench: the same signature means the same search.
bench_of() {
    "$1" bench 2>/dev/null | awk -F: '
        /Nodes searched/ { gsub(/ /, "", $2); nodes = $2 }
        /Nodes\/second/ { gsub(/ /, "", $2); nps = $2 }
        END { printf "%s nps (signature %s nodes)", nps, nodes }'
}
NEW_BENCH=$(bench_of "$ROOKERY")
OLD_BENCH=$(bench_of "$OLD")

echo "regression: $GAMES games at $TC, $ROOKERY (new) against $OLD (old)${*:+, $*}" >&2
rookery_match \
    --engine "$ROOKERY uci option.Threads=1 option.Hash=16 name=new" \
    --engine "$OLD uci option.Threads=1 option.Hash=16 name=old" \
    --tc "$TC" --games "$GAMES" --pgn "$PGN" --event "Rookery regression" "$@" \
    > "$REPORT"
cat "$REPORT"

# The difference and its error bar, from the report's "Elo difference: D +/- E (95%)".
VERDICT=$(awk -v margin="$MARGIN" '
    /^Score of/ { split($0, a, ": "); split(a[2], n, /[ \[\]]+/); wdl = n[1] " - " n[3] " - " n[5]; games = n[7] }
    /^Elo difference/ { diff = $3; err = $5 }
    END {
        finite = (diff != "" && diff != "inf" && diff != "-inf")
        within = finite && diff + 0 >= -margin && diff + 0 <= margin
        if (diff == "") { diff = "?"; err = "?" }
        printf "%s|%s|%s|%s|%s\n", games, wdl, diff, err, within ? "yes" : "no"
    }' "$REPORT")
IFS='|' read -r PLAYED WDL DIFF ERR WITHIN <<EOF
$VERDICT
EOF
{
    echo "New build $ROOKERY: bench $NEW_BENCH."
    echo "Old build $OLD: bench $OLD_BENCH."
    echo "$TC, Threads=1, Hash=16, openings $OPENINGS (each twice, colours swapped), concurrency $CONCURRENCY${*:+, rookery match $*}."
    echo
    echo "| games | W - L - D (new) | Elo difference, new − old (95%) | within ±$MARGIN |"
    echo "|---|---|---|---|"
    echo "| $PLAYED | $WDL | $DIFF ± $ERR | $WITHIN |"
} > "$OUT/summary.md"
echo
cat "$OUT/summary.md"
[ "$WITHIN" = yes ]
