//! PGN parse + replay speed: rookery-pgn with rookery-core against pgn-reader with shakmaty,
//! measured in the same run, interleaved, on a corpus of real games.
//!
//! Each side reads every game, resolves every main-line SAN to a legal move and plays it
//! (variations skipped, `[FEN]` starts honoured), and the two must agree on games, plies and
//! errors. The corpus is read into memory once so the disk is not measured.
//!
//! Run: `scripts/fetch-pgn-corpus.sh && cargo bench -p rookery-pgn --bench replay`
//! (`-- --rounds N`, `-- FILE` for another corpus, `-- --limit N` for its first `N` games only,
//! as `scripts/bench-pgn-python.py --limit N` reads them).

use std::hint::black_box;
use std::ops::ControlFlow;
use std::path::PathBuf;
use std::time::{Duration, Instant};

#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
struct Totals {
    games: u64,
    plies: u64,
    errors: u64,
}

mod rookery {
    use super::*;
    use rookery_core::{Position, SanPlus};
    use rookery_pgn::{Location, RawTag, Reader, Visitor};

    struct Replay {
        pos: Position,
        ok: bool,
        totals: Totals,
    }

    impl Visitor for Replay {
        type Output = ();

        fn begin_game(&mut self) {
            self.pos = Position::new();
            self.ok = true;
            self.totals.games += 1;
        }

        fn tag(&mut self, name: &[u8], value: RawTag<'_>, _at: Location) {
            if name == b"FEN" {
                match std::str::from_utf8(value.as_bytes()).ok().and_then(|f| f.parse().ok()) {
                    Some(pos) => self.pos = pos,
                    None => self.ok = false,
                }
            }
        }

        fn begin_variation(&mut self) -> ControlFlow<()> {
            ControlFlow::Break(())
        }

        fn san(&mut self, san: SanPlus, _at: Location) -> ControlFlow<()> {
            if !self.ok {
                return ControlFlow::Break(());
            }
            match san.san.to_move(&self.pos) {
                Ok(m) => {
                    self.pos.play_unchecked(m);
                    self.totals.plies += 1;
                    ControlFlow::Continue(())
                }
                Err(_) => {
                    self.ok = false;
                    ControlFlow::Break(())
                }
            }
        }

        fn end_game(&mut self) {
            if !self.ok {
                self.totals.errors += 1;
            }
        }
    }

    #[inline(never)]
    pub fn run(data: &[u8]) -> Totals {
        let mut reader = Reader::new(data);
        let mut visitor = Replay { pos: Position::new(), ok: true, totals: Totals::default() };
        while reader.read_game(&mut visitor).expect("reading memory never fails").is_some() {}
        visitor.totals
    }
}

mod reference {
    use super::*;
    use pgn_reader::{RawTag, Reader, SanPlus, Visitor};
    use shakmaty::{fen::Fen, CastlingMode, Chess, Position};

    pub struct Replay {
        totals: Totals,
    }

    impl Visitor for Replay {
        type Tags = Option<Chess>;
        type Movetext = (Chess, bool);
        type Output = ();

        fn begin_tags(&mut self) -> ControlFlow<(), Option<Chess>> {
            self.totals.games += 1;
            ControlFlow::Continue(None)
        }

        fn tag(
            &mut self,
            tags: &mut Option<Chess>,
            name: &[u8],
            value: RawTag<'_>,
        ) -> ControlFlow<()> {
            if name == b"FEN" {
                let pos = Fen::from_ascii(value.as_bytes())
                    .ok()
                    .and_then(|f| f.into_position(CastlingMode::Standard).ok());
                match pos {
                    Some(pos) => *tags = Some(pos),
                    None => {
                        self.totals.errors += 1;
                        return ControlFlow::Break(());
                    }
                }
            }
            ControlFlow::Continue(())
        }

        fn begin_movetext(&mut self, tags: Option<Chess>) -> ControlFlow<(), (Chess, bool)> {
            ControlFlow::Continue((tags.unwrap_or_default(), true))
        }

        fn san(&mut self, movetext: &mut (Chess, bool), san: SanPlus) -> ControlFlow<()> {
            match san.san.to_move(&movetext.0) {
                Ok(m) => {
                    movetext.0.play_unchecked(m);
                    self.totals.plies += 1;
                    ControlFlow::Continue(())
                }
                Err(_) => {
                    movetext.1 = false;
                    ControlFlow::Break(())
                }
            }
        }

        fn end_game(&mut self, movetext: (Chess, bool)) {
            if !movetext.1 {
                self.totals.errors += 1;
            }
        }
    }

    #[inline(never)]
    pub fn run(data: &[u8]) -> Totals {
        let mut reader = Reader::new(data);
        let mut visitor = Replay { totals: Totals::default() };
        while reader.read_game(&mut visitor).expect("reading memory never fails").is_some() {}
        visitor.totals
    }
}

/// The length of the first `n` games of `data`: up to where the reader leaves the `n`-th.
fn first_games_len(data: &[u8], n: u64) -> usize {
    let mut reader = rookery_pgn::Reader::new(data);
    for _ in 0..n {
        if !reader.skip_game().expect("reading memory never fails") {
            break;
        }
    }
    reader.bytes_read() as usize
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let rounds = args
        .iter()
        .position(|a| a == "--rounds")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    let path = args.iter().find(|a| a.ends_with(".pgn")).map(PathBuf::from).unwrap_or_else(|| {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../target/corpus/corpus.pgn")
    });
    let limit: Option<u64> = args
        .iter()
        .position(|a| a == "--limit")
        .and_then(|i| args.get(i + 1))
        .and_then(|n| n.parse().ok());
    let mut data = std::fs::read(&path).unwrap_or_else(|e| {
        eprintln!(
            "cannot read the corpus {}: {e}\nfetch it first with scripts/fetch-pgn-corpus.sh",
            path.display()
        );
        std::process::exit(2);
    });
    if let Some(n) = limit {
        let len = first_games_len(&data, n);
        data.truncate(len);
    }
    let mb = data.len() as f64 / 1e6;
    let games = limit.map_or(String::new(), |n| format!(", first {n} games"));
    println!(
        "PGN parse + replay of {}{games} ({mb:.1} MB), best of {rounds} interleaved rounds\n",
        path.display()
    );
    let mut best = [Duration::MAX; 2];
    let mut totals = [Totals::default(); 2];
    for _ in 0..rounds {
        for (i, run) in [rookery::run as fn(&[u8]) -> Totals, reference::run].iter().enumerate() {
            let start = Instant::now();
            totals[i] = black_box(run(black_box(&data)));
            best[i] = best[i].min(start.elapsed());
        }
    }
    assert_eq!(totals[0], totals[1], "rookery and pgn-reader+shakmaty disagree");
    let t = totals[0];
    println!("games {}, plies {}, games with errors {}\n", t.games, t.plies, t.errors);
    println!(
        "{:<26} {:>9} {:>10} {:>8} {:>10}",
        "implementation", "seconds", "games/s", "MB/s", "Mplies/s"
    );
    for (name, took) in
        [("rookery-pgn + rookery-core", best[0]), ("pgn-reader + shakmaty", best[1])]
    {
        let s = took.as_secs_f64();
        println!(
            "{name:<26} {s:>9.3} {:>10.0} {:>8.1} {:>10.2}",
            t.games as f64 / s,
            mb / s,
            t.plies as f64 / s / 1e6
        );
    }
    println!(
        "\nratio (rookery speed / pgn-reader+shakmaty speed): {:.2}",
        best[1].as_secs_f64() / best[0].as_secs_f64()
    );
}
