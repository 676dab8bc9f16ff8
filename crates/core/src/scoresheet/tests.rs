use super::*;
use crate::CastlingMode;

fn pos(fen: &str) -> Position {
    fen.parse().unwrap()
}

/// Plays `moves` (SAN) from the start.
fn after(moves: &str) -> Position {
    let mut p = Position::new();
    for m in moves.split_whitespace() {
        let m = p.parse_san(m).unwrap();
        p.play_unchecked(m);
    }
    p
}

#[test]
fn the_usual_slips_are_forgiven() {
    let start = Position::new();
    // (typed, the SAN it is read as), each from its own position.
    let cases: &[(&Position, &str, &str)] = &[
        (&start, "Nf3", "Nf3"),
        (&start, "nf3", "Nf3"),
        (&start, "ng1f3", "Nf3"),
        (&start, "Ng1-f3", "Nf3"),
        (&start, "g1f3", "Nf3"),
        (&start, "e2e4", "e4"),
        (&start, "e4+", "e4"),
    ];
    let castle = after("e4 e5 Nf3 Nc6 Bc4 Bc5");
    let ep = after("e4 Nf6 e5 d5");
    let promo = pos("8/4P1k1/8/8/8/8/6K1/8 w - - 0 1");
    let capture = after("e4 d5");
    let more: &[(&Position, &str, &str)] = &[
        (&castle, "0-0", "O-O"),
        (&castle, "O-O", "O-O"),
        (&castle, "o-o", "O-O"),
        (&castle, "e1g1", "O-O"),
        (&ep, "exd6e.p.", "exd6"),
        (&ep, "exd6 e.p.", "exd6"),
        (&ep, "ed6", "exd6"),
        (&ep, "e5d6", "exd6"),
        (&promo, "e8Q", "e8=Q"),
        (&promo, "e8=Q", "e8=Q"),
        (&promo, "e8=q", "e8=Q"),
        (&promo, "e8q", "e8=Q"),
        (&promo, "e7e8n", "e8=N+"),
        (&capture, "ed5", "exd5"),
        (&capture, "exd5", "exd5"),
    ];
    for (p, typed, san) in cases.iter().chain(more) {
        let m = read_move(p, typed).unwrap_or_else(|e| panic!("{typed:?} in {}: {e}", p.to_fen()));
        assert_eq!(p.san(m), *san, "{typed:?} in {}", p.to_fen());
    }
}

#[test]
fn an_illegal_or_ambiguous_move_is_named() {
    let start = Position::new();
    let e = read_move(&start, "Nf6").unwrap_err();
    assert!(matches!(&e, TypedMoveError::Illegal { text, .. } if text == "Nf6"), "{e:?}");
    assert_eq!(read_move(&start, "hello").unwrap_err(), unreadable("hello"));
    // Two knights reach d2: both are listed.
    let two = pos("4k3/8/8/8/8/5N2/8/1N2K3 w - - 0 1");
    match read_move(&two, "Nd2").unwrap_err() {
        TypedMoveError::Ambiguous { text, candidates } => {
            assert_eq!(text, "Nd2");
            assert_eq!(candidates, ["Nbd2", "Nfd2"]);
        }
        e => panic!("{e:?}"),
    }
    // `bxc3`, `Bxc3`: typed in small letters, both a pawn's and a bishop's capture fit.
    let both = pos("4k3/8/8/B7/8/2n5/1P6/4K3 w - - 0 1");
    match read_move(&both, "bxc3").unwrap_err() {
        TypedMoveError::Ambiguous { candidates, .. } => assert_eq!(candidates, ["bxc3", "Bxc3"]),
        e => panic!("{e:?}"),
    }
    assert!(e.to_string().contains("\"Nf6\""), "{e}");
}

#[test]
fn a_move_list_is_read_with_or_without_numbers() {
    let start = Position::new();
    for text in [
        "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0",
        "1.e4 e5 2.Nf3 Nc6 3.Bb5 a6",
        "e4 e5 nf3 nc6 f1b5 a7a6",
        "1. e4 1... e5 2. Nf3 2... Nc6 3. Bb5 3... a6 *",
    ] {
        let moves = read_moves(&start, text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(moves.len(), 6, "{text}");
    }
    let e = read_moves(&start, "1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke6 4. O-O").unwrap_err();
    assert_eq!((e.ply, e.number, e.color), (5, 3, Color::Black));
    assert_eq!(e.error.text(), "Ke6");
    assert!(e.to_string().starts_with("move 3... \"Ke6\""), "{e}");
}

#[test]
fn chess960_castling_reads_from_its_own_start() {
    // Start 518 is the standard array, castled as in Chess960 (the king onto its rook).
    let start = crate::chess960::position(518).unwrap();
    assert_eq!(start.castling_mode(), CastlingMode::Chess960);
    let moves = read_moves(&start, "1. e4 e5 2. Nf3 Nf6 3. Bc4 Bc5 4. O-O e8h8").unwrap();
    assert_eq!(moves.len(), 8);
    assert_eq!(moves[6].castling_side(), Some(crate::CastlingSide::KingSide));
    assert_eq!(moves[7].castling_side(), Some(crate::CastlingSide::KingSide));
}
