//! Any bytes as a PGN file: the reader never panics, reads to the end, and replaying every
//! SAN it delivers against the game's position never panics either.
#![no_main]

use std::ops::ControlFlow;

use libfuzzer_sys::fuzz_target;
use rookery_core::{Position, SanPlus};
use rookery_pgn::{Location, RawTag, Reader, Visitor};

#[derive(Default)]
struct Replay {
    pos: Option<Position>,
}

impl Visitor for Replay {
    type Output = ();

    fn begin_game(&mut self) {
        self.pos = Some(Position::new());
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, _at: Location) {
        if name == b"FEN" {
            self.pos = Position::from_fen(&value.decode_utf8()).ok();
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn san(&mut self, san: SanPlus, _at: Location) -> ControlFlow<()> {
        let Some(pos) = self.pos.as_mut() else { return ControlFlow::Break(()) };
        match san.san.to_move(pos) {
            Ok(m) => {
                pos.play_unchecked(m);
                ControlFlow::Continue(())
            }
            Err(_) => ControlFlow::Break(()),
        }
    }

    fn end_game(&mut self) {}
}

fuzz_target!(|data: &[u8]| {
    let mut reader = Reader::with_capacity(256, data);
    let mut visitor = Replay::default();
    let mut games = 0;
    while let Ok(Some(())) = reader.read_game(&mut visitor) {
        games += 1;
        assert!(games <= data.len() + 1, "the reader must make progress");
    }
});
