# Shared by tuning-data.sh and nnue-data.sh (sourced, not run): one set of an engine's games
# against itself, played by `rookery-selfplay` as built from the commit whose engine plays them.
#
# The commit's sources are checked out in a git worktree (target/COMMIT) and its binary built
# there, so the games come from that engine and that commit's opening file: a fixed node
# count, not time, bounds each move, and the same games come out on any machine whatever its
# load. A stopped run is continued by game number: the rounds already in the PGN are not played
# again, and those missing, the ones in flight when it stopped, are. (A game is appended to the
# PGN and then to the positions file; a stop between the two writes still leaves its positions
# out, which nnue-data.sh's check reports.)
repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$repo_root"

# The rounds 1..GAMES that PGN lacks, as ranges `FIRST LAST` of consecutive rounds, one a line.
missing_ranges() { # PGN GAMES
    { [ -f "$1" ] && LC_ALL=C grep -o '^\[Round "[0-9]*"' "$1" || true; } |
        awk -v games="$2" -F'"' '
            { have[$2] = 1 }
            END {
                for (r = 1; r <= games; r++) {
                    if (r in have) continue
                    first = r
                    while (r + 1 <= games && !((r + 1) in have)) r++
                    print first, r
                }
            }'
}

# selfplay_set COMMIT PGN GAMES ARGS...: games 1..GAMES of COMMIT's engine appended to PGN (a
# path from the repository's root), ARGS passed on to `rookery-selfplay` (paths in them
# absolute: it runs in the worktree).
selfplay_set() {
    local commit=$1 pgn=$2 games=$3
    shift 3
    local -a ranges
    mapfile -t ranges < <(missing_ranges "$pgn" "$games")
    if [ "${#ranges[@]}" -eq 0 ]; then
        echo "$pgn: all $games games, nothing to play"
        return
    fi
    [ -d "target/$commit" ] || git worktree add --detach "target/$commit" "$commit"
    (cd "target/$commit" && cargo build --release -q -p rookery-tune --bin rookery-selfplay)
    local range first last
    for range in "${ranges[@]}"; do
        read -r first last <<< "$range"
        echo "$pgn: playing games $first..$last with the engine of $commit"
        (cd "target/$commit" && target/release/rookery-selfplay --games $((last - first + 1)) \
            --first "$first" --out "$repo_root/$pgn" "$@")
    done
}
