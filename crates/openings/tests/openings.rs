//! Opening names: every line of the vendored data reads, and games are named by their last
//! named position (data/README.md).

use rookery_core::{Move, Position};
use rookery_openings::{by_epd, by_position, of_game, Index};

fn moves(sans: &[&str]) -> Vec<Move> {
    let mut pos = Position::new();
    sans.iter()
        .map(|san| {
            let m = pos.parse_san(san).unwrap_or_else(|e| panic!("{san}: {e}"));
            pos.play_unchecked(m);
            m
        })
        .collect()
}

#[test]
fn every_line_of_the_data_reads() {
    let index = Index::vendored().unwrap_or_else(|e| panic!("{e}"));
    // 3,807 lines of openings in the snapshot; a few name the same position twice.
    assert!(index.len() > 3_700, "{} positions", index.len());
}

#[test]
fn a_bad_line_is_named() {
    let mut index = Index::default();
    let err = index
        .add_file("x.tsv", "eco\tname\tpgn\nA00\tGood\t1. e4\nB00\tBad\t1. e4 e4\n")
        .unwrap_err();
    assert_eq!((err.file, err.line), ("x.tsv", 3));
    assert!(err.to_string().starts_with("x.tsv, line 3: move \"e4\""), "{err}");
    let err = index.add_file("y.tsv", "eco\tname\tpgn\nZ99\tOdd\t1. e4\n").unwrap_err();
    assert_eq!(err.to_string(), "y.tsv, line 2: \"Z99\" is no ECO code");
}

/// The ECO code and name of a game.
type Named = Option<(&'static str, &'static str)>;

/// Each row: the moves, the ECO code and name of the game.
#[test]
fn games_are_named_by_their_last_named_position() {
    let cases: &[(&[&str], Named)] = &[
        (&[], None),
        (&["e4"], Some(("B00", "King's Pawn Game"))),
        (&["e4", "e5", "Nf3", "Nc6", "Bb5"], Some(("C60", "Ruy Lopez"))),
        (&["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"], Some(("C70", "Ruy Lopez: Morphy Defense"))),
        // Out of the book, the game keeps the name of where it left.
        (
            &["e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "Qe2", "h5", "h4"],
            Some(("C77", "Ruy Lopez: Morphy Defense, Wormald Attack")),
        ),
        // A transposition: the Queen's Gambit Declined reached from 1. c4.
        (
            &["c4", "e6", "Nc3", "d5", "d4"],
            Some(("D31", "Queen's Gambit Declined: Queen's Knight Variation")),
        ),
        (&["f3", "e5", "g4", "Qh4#"], Some(("A00", "Barnes Opening: Fool's Mate"))),
    ];
    for (sans, expected) in cases {
        let got = of_game(&Position::new(), &moves(sans)).map(|o| (o.eco, o.name));
        assert_eq!(got, *expected, "{sans:?}");
    }
}

#[test]
fn positions_by_epd_or_fen() {
    let sicilian = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq -";
    assert_eq!(by_epd(sicilian).unwrap().map(|o| o.name), Some("Sicilian Defense"));
    // With counters too, and the en passant square written when no capture is legal.
    let fen = "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2";
    assert_eq!(by_epd(fen).unwrap().map(|o| o.eco), Some("B20"));
    assert_eq!(by_epd("8/8/8/4k3/8/8/8/4K3 w - -").unwrap(), None);
    assert!(by_epd("not a position").is_err());
    assert_eq!(by_position(&Position::new()), None);
}

#[test]
fn a_set_up_game_has_no_name() {
    let start: Position =
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1".parse().unwrap();
    let m = start.parse_san("c5").unwrap();
    assert_eq!(of_game(&start, &[m]), None);
}
