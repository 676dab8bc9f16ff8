//! The corpus of real games in tests/data/real (tests/data/README.md names each file's source
//! and licence): every game reads without a syntax error, the counts are as counted by hand
//! (`grep -c`), every move of every line replays legally with rookery-core, and reading through
//! a tiny buffer fed one byte at a time gives the same games.

mod common;

use std::io::{self, Read};
use std::ops::ControlFlow;

use common::{data_dir, read_all, read_all_from, Event};
use rookery_core::{FenError, Position, PositionError, San, SanPlus};
use rookery_pgn::{Location, RawTag, Reader, Visitor};

/// File, games, moves (main lines and variations), games with variations.
const EXPECTED: &[(&str, usize, usize, usize)] = &[
    ("gnuchess-book-first-2000.pgn", 2000, 148115, 0),
    ("pgn-extract-eco.pgn", 2014, 20697, 0),
    ("pychess-lichess-practice-checkmate-patterns-i.pgn", 17, 0, 0),
    ("pychess-lichess-study-beautiful-chess-studies-1.pgn", 64, 1364, 58),
    ("pychess-mate_in_2.pgn", 166, 498, 0),
    ("pychess-mate_in_3.pgn", 375, 1875, 0),
    ("python-chess-anastasian-lewis.pgn", 1, 84, 0),
    ("python-chess-chessbase-empty-line.pgn", 1, 134, 0),
    ("python-chess-kasparov-deep-blue-1997.pgn", 6, 519, 0),
    ("python-chess-molinari-bordais-1979.pgn", 1, 10, 0),
    ("python-chess-nepomniachtchi-liren-game1.pgn", 1, 97, 0),
    ("python-chess-stockfish-learning.pgn", 1, 154, 0),
    ("python-chess-utf8-bom.pgn", 2, 0, 0),
];

#[test]
fn every_file_reads_cleanly_with_the_expected_counts() {
    let files = data_dir("real");
    assert_eq!(files.len(), EXPECTED.len(), "a file in tests/data/real is not in EXPECTED");
    for (name, bytes) in files {
        let &(_, games_want, moves_want, variations_want) = EXPECTED
            .iter()
            .find(|(n, ..)| *n == name)
            .unwrap_or_else(|| panic!("{name} is not in EXPECTED"));
        let games = read_all(&bytes);
        for game in &games {
            assert!(game.errors.is_empty(), "{name}: {:?}", game.errors);
        }
        let moves: usize = games.iter().map(|g| g.sans().len()).sum();
        let with_variations = games.iter().filter(|g| g.events.contains(&Event::Begin)).count();
        assert_eq!(
            (games.len(), moves, with_variations),
            (games_want, moves_want, variations_want),
            "{name}: games, moves, games with variations"
        );
    }
}

/// Plays every line of a game, variations included (each from the position before the move
/// it replaces).
#[derive(Default)]
struct Replay {
    pos: Position,
    before: Option<Position>,
    stack: Vec<(Position, Option<Position>)>,
    moves: usize,
    error: Option<String>,
}

impl Visitor for Replay {
    type Output = (usize, Option<String>);

    fn begin_game(&mut self) {
        *self = Replay::default();
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, at: Location) {
        if name == b"FEN" {
            match fen_position(&value.decode_utf8()) {
                Ok(pos) => self.pos = pos,
                Err(e) => self.error = Some(format!("{at}: {e}")),
            }
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        self.stack.push((self.pos, self.before));
        self.pos = self.before.expect("a variation follows a move");
        self.before = None;
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self) {
        (self.pos, self.before) = self.stack.pop().expect("balanced variations");
    }

    fn san(&mut self, san: SanPlus, at: Location) -> ControlFlow<()> {
        if self.error.is_some() {
            return ControlFlow::Break(());
        }
        if san.san == San::Null && !self.pos.is_check() {
            // Analysis files (and one game of the corpus) write `Z0` or `--` for a pass.
            self.before = Some(self.pos);
            self.pos.play_null();
            self.moves += 1;
            return ControlFlow::Continue(());
        }
        match san.san.to_move(&self.pos) {
            Ok(m) => {
                self.before = Some(self.pos);
                self.pos.play_unchecked(m);
                self.moves += 1;
                ControlFlow::Continue(())
            }
            Err(e) => {
                self.error = Some(format!("{at}: {e}"));
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self) -> (usize, Option<String>) {
        (self.moves, self.error.take())
    }
}

/// The position of a `[FEN]` tag; a fullmove number of 0, which real files (pychess's
/// puzzles) write, is read as 1.
fn fen_position(fen: &str) -> Result<Position, FenError> {
    match Position::from_fen(fen) {
        Err(FenError::Position(PositionError::ZeroFullmoves)) => {
            let fixed = fen.trim_end().strip_suffix(" 0").map(|f| format!("{f} 1"));
            Position::from_fen(fixed.as_deref().unwrap_or(fen))
        }
        other => other,
    }
}

#[test]
fn every_line_replays_legally() {
    for (name, bytes) in data_dir("real") {
        let mut reader = Reader::new(&bytes[..]);
        let mut replay = Replay::default();
        let mut total = 0;
        while let Some((moves, error)) = reader.read_game(&mut replay).unwrap() {
            assert_eq!(error, None, "{name}, game {}", reader.games());
            total += moves;
        }
        let want = EXPECTED.iter().find(|(n, ..)| *n == name).unwrap().2;
        assert_eq!(total, want, "{name}");
    }
}

/// Hands out at most one byte per read: every token straddles a refill somewhere.
struct Trickle<'a>(&'a [u8]);

impl Read for Trickle<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let n = out.len().min(self.0.len()).min(1);
        out[..n].copy_from_slice(&self.0[..n]);
        self.0 = &self.0[n..];
        Ok(n)
    }
}

#[test]
fn buffer_size_and_read_sizes_do_not_matter() {
    for (name, bytes) in data_dir("real") {
        let whole = read_all(&bytes);
        // 2 KiB is the smallest buffer: every comment in the corpus is shorter.
        assert_eq!(read_all_from(Trickle(&bytes), 2048), whole, "{name}");
    }
}

#[test]
fn latin1_tags_are_decoded() {
    let games = read_all(&common::data("real/pychess-mate_in_2.pgn"));
    // Line 1335 of the file has the byte 0xE1, Latin-1 for á.
    assert!(games.iter().any(|g| g.tag("White") == Some("Judit Polgár")));
}
