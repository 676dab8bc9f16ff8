# Shared by strength.sh, levels.sh and timeloss.sh (sourced, not run): the settings every
# engine match takes from the environment, and the Rookery binary under test.
#
#   ROOKERY      the binary to test (default: build target/release/rookery first)
#   NICE         niceness of the matches (default 0: a measurement wants whole cores)
#   CONCURRENCY  games at a time (default 1: both engines get a whole core on two cores)
#   OPENINGS     EPD or PGN openings (default scripts/data/openings.epd)
cd "$(dirname "$0")/.."

CONCURRENCY=${CONCURRENCY:-1}
OPENINGS=${OPENINGS:-scripts/data/openings.epd}
NICE=${NICE:-0}

if [ -z "${ROOKERY:-}" ]; then
    echo "$(basename "$0" .sh): building the release binary" >&2
    cargo build --release -q -p rookery
    ROOKERY=target/release/rookery
fi
[ -x "$ROOKERY" ] || { echo "$(basename "$0" .sh): ROOKERY=$ROOKERY is not an executable" >&2; exit 1; }

# `rookery match` with the shared settings; the caller adds engines, time control, games and
# output files.
rookery_match() {
    nice -n "$NICE" "$ROOKERY" match --concurrency "$CONCURRENCY" --openings "$OPENINGS" "$@"
}
