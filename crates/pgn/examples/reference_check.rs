//! The reference for the whole-process timing of `rookery pgn check|replay|stats`
//! (scripts/bench-pgn-commands.sh): pgn-reader 0.29 + shakmaty 0.30.1 as a program of its own,
//! reading a file as a user's command would.
//!
//! It reads every game, resolves every main-line SAN to a legal move and plays it (variations
//! skipped, a `[FEN]` start honoured), and prints one line, `games G plies P errors E`, which
//! the script compares with `rookery pgn stats` on the same file: a game counts as an error
//! when its `[FEN]` or one of its main-line moves is rejected (its plies count up to there).
//!
//! ```sh
//! cargo build --release -p rookery-pgn --example reference_check
//! target/release/examples/reference_check FILE.pgn
//! ```

use std::ops::ControlFlow;

use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

#[derive(Default)]
struct Totals {
    games: u64,
    plies: u64,
    errors: u64,
}

impl Visitor for Totals {
    /// The `[FEN]` start, `Err` when the tag was rejected.
    type Tags = Result<Option<Chess>, ()>;
    type Movetext = Chess;
    type Output = ();

    fn begin_tags(&mut self) -> ControlFlow<(), Self::Tags> {
        self.games += 1;
        ControlFlow::Continue(Ok(None))
    }

    fn tag(&mut self, tags: &mut Self::Tags, name: &[u8], value: RawTag<'_>) -> ControlFlow<()> {
        if name == b"FEN" {
            *tags = Fen::from_ascii(value.as_bytes())
                .ok()
                .and_then(|f| f.into_position(CastlingMode::Standard).ok())
                .map(Some)
                .ok_or(());
        }
        ControlFlow::Continue(())
    }

    fn begin_movetext(&mut self, tags: Self::Tags) -> ControlFlow<(), Self::Movetext> {
        match tags {
            Ok(start) => ControlFlow::Continue(start.unwrap_or_default()),
            Err(()) => {
                self.errors += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn begin_variation(
        &mut self,
        _movetext: &mut Self::Movetext,
    ) -> ControlFlow<(), pgn_reader::Skip> {
        ControlFlow::Continue(pgn_reader::Skip(true))
    }

    fn san(&mut self, pos: &mut Chess, san: SanPlus) -> ControlFlow<()> {
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                self.plies += 1;
                ControlFlow::Continue(())
            }
            // The rest of the game is skipped, as `rookery pgn` stops replaying it.
            Err(_) => {
                self.errors += 1;
                ControlFlow::Break(())
            }
        }
    }

    fn end_game(&mut self, _pos: Chess) {}
}

fn main() {
    let Some(path) = std::env::args_os().nth(1) else {
        eprintln!("usage: reference_check FILE.pgn");
        std::process::exit(2);
    };
    let file = std::fs::File::open(&path).unwrap_or_else(|e| {
        eprintln!("cannot read {}: {e}", path.to_string_lossy());
        std::process::exit(2);
    });
    let mut reader = Reader::new(file);
    let mut totals = Totals::default();
    while let Some(()) = reader.read_game(&mut totals).unwrap_or_else(|e| {
        eprintln!("reading {}: {e}", path.to_string_lossy());
        std::process::exit(2);
    }) {}
    println!("games {} plies {} errors {}", totals.games, totals.plies, totals.errors);
}
