//! A file read by parts on several threads (`rookery_pgn::parallel`) gives what one reader
//! gives, game for game: the same tags, moves, comments and results, and every error and move
//! with the same game, line and column; whatever the size of the parts, however many threads,
//! and wherever a cut falls (in a comment, in a game without a result, before a game that is
//! not one).

mod common;

use std::io::Write;
use std::path::Path;

use common::{data_dir, read_all, Game, Recorder};
use proptest::prelude::*;
use rookery_pgn::parallel::{self, Origin, Parallel};

/// The games of `path` read by parts of `part` bytes on `threads` threads, renumbered.
fn read_by_parts(path: &Path, part: u64, threads: usize) -> Vec<Game> {
    let mut games = Vec::new();
    let mut last_done = 0;
    let bytes = parallel::read_file(
        path,
        Parallel { threads, part },
        Recorder::default,
        |mut game: Game, origin: Origin, done| -> std::io::Result<()> {
            for error in &mut game.errors {
                origin.read_error(error);
            }
            for at in &mut game.move_locations {
                *at = origin.location(*at);
            }
            assert!(done >= last_done, "the offset handed on went back: {last_done} → {done}");
            last_done = done;
            games.push(game);
            Ok(())
        },
    )
    .expect("reading a file of the tests");
    assert_eq!(bytes, std::fs::metadata(path).unwrap().len());
    games
}

/// A file of `bytes` in the temporary directory, removed when dropped.
fn temp_file(bytes: &[u8]) -> tempfile::NamedTempFile {
    let mut file = tempfile::NamedTempFile::new().unwrap();
    file.write_all(bytes).unwrap();
    file
}

fn assert_same_by_parts(name: &str, bytes: &[u8], parts: &[u64], threads: &[usize]) {
    let want = read_all(bytes);
    let file = temp_file(bytes);
    for &part in parts {
        for &threads in threads {
            let got = read_by_parts(file.path(), part, threads);
            assert_eq!(got.len(), want.len(), "{name}: parts of {part}, {threads} threads");
            for (i, (got, want)) in got.iter().zip(&want).enumerate() {
                assert_eq!(got, want, "{name}, game {}: parts of {part}, {threads} threads", i + 1);
            }
        }
    }
}

/// Cuts the part finder takes for a game's start and the reader does not.
const TRAPS: &str = "[Event \"a comment with an empty line and a tag in it\"]\n\n1. e4 { look:\n\n[Event \"no game\"] } e5 1-0\n\n[Event \"no result, then an empty line and a tag\"]\n\n1. d4 d5\n\n[Event \"next\"]\n\n1. c4 *\n\n[Event \"a variation\"]\n\n1. e4 (1. d4\n\n[Event \"cut in a variation\"] d5) e5 *\r\n\r\n[Event \"crlf\"]\r\n\r\n1. Nf3 Nf6 2. Zz9 *\n\n%escape\n\n[Event \"after an escape line\"]\n\n1. e4 e5 2. Ke3 *\n";

#[test]
fn every_data_file_reads_the_same_by_parts() {
    let mut all = Vec::new();
    for dir in ["nasty", "real"] {
        for (name, bytes) in data_dir(dir) {
            assert_same_by_parts(&name, &bytes, &[1, 97, 4096], &[1, 2, 3]);
            all.extend_from_slice(&bytes);
            all.extend_from_slice(b"\n\n");
        }
    }
    all.extend_from_slice(TRAPS.as_bytes());
    assert_same_by_parts("all.pgn", &all, &[1, 50, 1000, 20_000, 1 << 20], &[1, 2, 4]);
}

#[test]
fn cuts_that_are_not_game_starts_are_read_through() {
    let text = TRAPS.repeat(5);
    assert_same_by_parts("traps.pgn", text.as_bytes(), &[1, 2, 3, 10, 60, 200, 700], &[1, 2, 3]);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random files of game-like pieces, cut anywhere.
    #[test]
    fn random_files_read_the_same_by_parts(
        pieces in prop::collection::vec(prop::sample::select(vec![
            "[Event \"x\"]\n", "[Site \"y\"]\r\n", "\n", "\r\n", "\n\n", "1. e4 ", "e5 ", "2. Nf3 ",
            "Nc6 ", "{ c\n\n[Event \"z\"] } ", "{ open ", "} ", "( ", ") ", "1-0\n", "*\n",
            "% esc\n", "; line\n", "Qxz9 ", "$1 ", "[", "]", "\"", "\u{feff}", "1... ",
        ]), 0..80),
        part in 1u64..200,
        threads in 1usize..4,
    ) {
        let text: String = pieces.concat();
        let want = read_all(text.as_bytes());
        let file = temp_file(text.as_bytes());
        let got = read_by_parts(file.path(), part, threads);
        prop_assert_eq!(got, want);
    }
}

#[test]
fn an_error_of_the_caller_stops_the_reading_and_is_returned() {
    let text = "[Event \"a\"]\n\n1. e4 *\n\n".repeat(1000);
    let file = temp_file(text.as_bytes());
    let mut seen = 0;
    let result = parallel::read_file(
        file.path(),
        Parallel { threads: 2, part: 100 },
        Recorder::default,
        |_game: Game, _origin, _done| {
            seen += 1;
            if seen == 10 {
                Err(std::io::Error::other("enough"))
            } else {
                Ok(())
            }
        },
    );
    assert_eq!(result.unwrap_err().to_string(), "enough");
    assert_eq!(seen, 10);
}
