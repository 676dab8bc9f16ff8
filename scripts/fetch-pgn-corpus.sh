#!/usr/bin/env bash
# Fetch a corpus of ~145,000 real chess games in PGN for Rookery's parser tests and benchmarks.
#
# Usage: scripts/fetch-pgn-corpus.sh [DIR]     (DIR defaults to <repo>/target/corpus)
#
# Source: the Debian *source* package `gnuchess-book` (upstream GNU Chess opening-book
# collection book_1.02.pgn, public domain). It is fetched with `apt-get source` by package
# name only. No repository address appears here: the deb-src entries are derived from the
# machine's own apt configuration, in a private apt configuration under a temporary
# directory, so the system's apt state is left untouched.
#
# Result: DIR/corpus.pgn (about 86 MB, 145,716 games) and DIR/SOURCE.txt. Idempotent: if
# DIR/corpus.pgn already exists nothing is downloaded. Needs root (or write access to DIR)
# and the ordinary tools of a Debian 12 system: apt-get, tar, gzip, sha256sum, grep, awk.
set -euo pipefail

PKG=gnuchess-book
ORIG=gnuchess-book_1.02.orig.tar.gz
ORIG_SHA256=d673ffa6986a3beca27cc23ef126ea0a73f1098762e3ccd00f791c096f2bfb48
MEMBER=gnuchess-book-1.02/book_1.02.pgn
EXPECTED_GAMES=145716

repo_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$repo_root/target/corpus}"
corpus="$out/corpus.pgn"

count_games() { LC_ALL=C grep -c '^\[Event ' "$1" || true; }

report() {
    local n size
    n="$(count_games "$corpus")"
    size="$(awk -v b="$(stat -c %s "$corpus")" 'BEGIN { printf "%.1f", b / 1000000 }')"
    echo "$corpus: $n games, ${size} MB (source: Debian source package $PKG, public domain)"
    if [ "$n" -ne "$EXPECTED_GAMES" ]; then
        echo "warning: expected $EXPECTED_GAMES games" >&2
    fi
}

mkdir -p "$out"
if [ -s "$corpus" ]; then
    echo "corpus already present, skipping download"
    report
    exit 0
fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# --- A private apt configuration with deb-src entries derived from the system's 'deb' entries.
codename="$(. /etc/os-release && echo "${VERSION_CODENAME:-}")"
[ -n "$codename" ] || { echo "error: cannot tell the Debian codename from /etc/os-release" >&2; exit 1; }
mkdir -p "$work/apt/parts" "$work/apt/lists/partial" "$work/apt/cache/archives/partial" "$work/dl"

# deb822 files (*.sources): keep stanzas of type 'deb' that carry the release's own suite,
# and turn them into 'deb-src' stanzas.
for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    awk -v codename="$codename" '
        function flush() {
            if (stanza != "" && isdeb && hassuite && !disabled) printf "%s\n", stanza
            stanza = ""; isdeb = 0; hassuite = 0; disabled = 0
        }
        /^[ \t]*$/ { flush(); next }
        /^[ \t]*#/ { next }
        /^Types:/ {
            for (i = 2; i <= NF; i++) if ($i == "deb") isdeb = 1
            stanza = stanza "Types: deb-src\n"; next
        }
        /^Suites:/ { for (i = 2; i <= NF; i++) if ($i == codename) hassuite = 1 }
        /^Enabled:[ \t]*[Nn]o/ { disabled = 1 }
        { stanza = stanza $0 "\n" }
        END { flush() }
    ' "$f" >> "$work/apt/parts/derived-src.sources"
done
# One-line files (*.list): 'deb ... <codename> ...' lines become 'deb-src' lines.
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
    [ -f "$f" ] || continue
    awk -v codename="$codename" '
        $1 == "deb" { for (i = 2; i <= NF; i++) if ($i == codename) { $1 = "deb-src"; print; next } }
    ' "$f" >> "$work/apt/parts/derived-src.list"
done
if [ ! -s "$work/apt/parts/derived-src.sources" ] && [ ! -s "$work/apt/parts/derived-src.list" ]; then
    echo "error: found no Debian '$codename' entry in the apt configuration to derive deb-src from" >&2
    exit 1
fi

cat > "$work/apt/apt.conf" <<EOF
Dir::Etc::sourcelist "/dev/null";
Dir::Etc::sourceparts "$work/apt/parts";
Dir::State::Lists "$work/apt/lists";
Dir::Cache "$work/apt/cache";
Dir::Cache::archives "$work/apt/cache/archives";
APT::Sandbox::User "root";
EOF
export APT_CONFIG="$work/apt/apt.conf"

echo "updating a private apt index of source packages..."
if ! apt-get -q update > "$work/apt-update.log" 2>&1; then
    # A third-party repository without sources may fail; go on if Debian's index came through.
    echo "warning: apt-get update reported errors (see below); trying anyway" >&2
    grep -E '^(E|W):' "$work/apt-update.log" >&2 || true
fi

echo "downloading source package $PKG (upstream tarball only)..."
(cd "$work/dl" && apt-get -q source --download-only --tar-only "$PKG")

[ -f "$work/dl/$ORIG" ] || { echo "error: $ORIG was not downloaded" >&2; ls -la "$work/dl" >&2; exit 1; }
echo "$ORIG_SHA256  $work/dl/$ORIG" | sha256sum -c --quiet - \
    || { echo "error: $ORIG does not have the expected sha256" >&2; exit 1; }

# --- Extract (the tarball holds one plain PGN file), then move into place atomically.
tar -xzf "$work/dl/$ORIG" -C "$work" "$MEMBER"
cat "$work/$MEMBER" > "$corpus.tmp"
# Make sure the file ends with a newline.
if [ -n "$(tail -c1 "$corpus.tmp")" ]; then echo >> "$corpus.tmp"; fi
mv "$corpus.tmp" "$corpus"

cat > "$out/SOURCE.txt" <<EOF
corpus.pgn = $MEMBER from $ORIG
  Debian source package: $PKG (bookworm: 1.02-2.1), fetched with 'apt-get source --tar-only $PKG'
  sha256 of $ORIG: $ORIG_SHA256
  Games: $EXPECTED_GAMES real over-the-board master games (1792-2000), collected by Stuart
  Cracraft and Simon Waters for the GNU Chess opening book.
  Licence: public domain (see /usr/share/doc/gnuchess-book/copyright in the binary package).
  Encoding: ASCII except 147 tag lines with stray 8-bit bytes (not valid UTF-8); the move
  text is plain ASCII with no comments, variations or NAGs.
EOF

report
