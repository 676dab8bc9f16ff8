//! Property tests: no byte sequence makes the reader panic or loop, the read does not depend
//! on how the input arrives, errors point inside the input, and generated legal games with
//! comments, NAGs and variations survive write → read.

mod common;

use std::io::{self, Read};

use common::{
    read_all_from, read_all_without_comments_from, without_comments, write_all, Event, Game,
};
use proptest::prelude::*;
use rookery_core::{Position, SanPlus};
use rookery_pgn::{GameResult, Nag};

/// Hands out the input in reads of the given sizes, cycling.
struct Chunked<'a> {
    data: &'a [u8],
    sizes: Vec<usize>,
    next: usize,
}

impl Read for Chunked<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let size = self.sizes[self.next % self.sizes.len()].max(1);
        self.next += 1;
        let n = size.min(out.len()).min(self.data.len());
        out[..n].copy_from_slice(&self.data[..n]);
        self.data = &self.data[n..];
        Ok(n)
    }
}

fn check_invariants(input: &[u8], games: &[Game]) {
    let lines = input.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for (i, game) in games.iter().enumerate() {
        for e in &game.errors {
            assert_eq!(e.game, i as u64 + 1);
            assert!(e.location.line >= 1 && e.location.line <= lines, "{e}");
            assert!(e.location.column >= 1, "{e}");
            assert!(!e.to_string().is_empty());
        }
        let opens = game.events.iter().filter(|e| **e == Event::Begin).count();
        let closes = game.events.iter().filter(|e| **e == Event::End).count();
        assert!(closes <= opens);
        if game.errors.is_empty() {
            assert_eq!(opens, closes, "variations are balanced for the visitor");
        }
    }
}

/// Fragments of PGN, valid and not, to make inputs that reach deep into the reader.
const FRAGMENTS: &[&str] = &[
    "[Event \"x\"]",
    "[Site \"a\\\"b\"]",
    "[",
    "]",
    "\"",
    "\\",
    "{",
    "}",
    "{c}",
    "(",
    ")",
    ";",
    "%",
    "\n",
    "\r\n",
    " ",
    "1.",
    "1...",
    "...",
    "12",
    "e4",
    "e5",
    "Nf3",
    "Nxe5+",
    "O-O",
    "0-0-0",
    "e8=Q#",
    "--",
    "Z0",
    "$",
    "$12",
    "$999",
    "!",
    "?!",
    "!!?",
    "+-",
    "=",
    "N",
    "1-0",
    "0-1",
    "1/2-1/2",
    "*",
    "\u{feff}",
    "\u{e9}",
    "\u{ff}",
    "\0",
    "Kx9",
    "[%clk 0:01:00]",
];

fn soup() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec((0..FRAGMENTS.len(), prop::bool::ANY), 0..120).prop_map(|parts| {
        let mut out = Vec::new();
        for (i, space) in parts {
            out.extend_from_slice(FRAGMENTS[i].as_bytes());
            if space {
                out.push(b' ');
            }
        }
        out
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn random_bytes_never_panic(input in prop::collection::vec(any::<u8>(), 0..2000),
                                sizes in prop::collection::vec(1usize..300, 1..8)) {
        let whole = read_all_from(&input[..], 2048);
        check_invariants(&input, &whole);
        let chunked = read_all_from(Chunked { data: &input, sizes: sizes.clone(), next: 0 }, 2048);
        prop_assert_eq!(&whole, &chunked);
        // Comments stepped over, not handed over: all else the same, errors and places too.
        let skipped = read_all_without_comments_from(Chunked { data: &input, sizes, next: 0 }, 2048);
        prop_assert_eq!(without_comments(&whole), skipped);
    }

    #[test]
    fn token_soup_never_panics(input in soup(), sizes in prop::collection::vec(1usize..64, 1..8)) {
        let whole = read_all_from(&input[..], 2048);
        check_invariants(&input, &whole);
        let chunked = read_all_from(Chunked { data: &input, sizes: sizes.clone(), next: 0 }, 2048);
        prop_assert_eq!(&whole, &chunked);
        // Comments stepped over, not handed over: all else the same, errors and places too.
        let skipped = read_all_without_comments_from(Chunked { data: &input, sizes, next: 0 }, 2048);
        prop_assert_eq!(without_comments(&whole), skipped);
    }

    #[test]
    fn generated_games_round_trip(
        choices in prop::collection::vec((any::<u16>(), 0u8..12, "[a-zA-Z0-9 .,!?]{0,30}"), 0..120),
        result in 0usize..4,
    ) {
        let mut pos = Position::new();
        let mut game = Game::default();
        game.tags.push(("Event".to_owned(), "generated".to_owned()));
        let mut before = None;
        for (choice, extra, text) in choices {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            // Sometimes a one-move variation replacing the last move.
            if extra == 11 {
                if let Some(prev) = before {
                    let prev: Position = prev;
                    let alt = prev.legal_moves()[choice as usize % prev.legal_moves().len()];
                    game.events.push(Event::Begin);
                    game.events.push(Event::San(SanPlus::from_move(&prev, alt)));
                    game.events.push(Event::End);
                }
            }
            let m = moves[choice as usize % moves.len()];
            game.events.push(Event::San(SanPlus::from_move(&pos, m)));
            before = Some(pos);
            pos.play_unchecked(m);
            match extra {
                0..=2 => game.events.push(Event::Nag(Nag(extra * 7))),
                3 => game.events.push(Event::Comment(common::collapse(&text))),
                _ => {}
            }
        }
        game.result = Some(GameResult::ALL[result]);
        let text = write_all(std::slice::from_ref(&game));
        let back = read_all_from(&text[..], 2048);
        prop_assert_eq!(back.len(), 1);
        prop_assert!(back[0].errors.is_empty(), "{:?}", back[0].errors);
        prop_assert_eq!(&back[0].events, &game.events);
        prop_assert_eq!(back[0].result, game.result);
    }
}
