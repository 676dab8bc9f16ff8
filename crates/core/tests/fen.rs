//! FEN: round trips on random legal positions, no panic on any input, and every error path with
//! its message (property tests with proptest).

use proptest::prelude::*;
use rookery_core::fen::board_fen;
use rookery_core::{
    Board, Color, Fen, FenError, ParseFenError, Piece, Position, PositionError, Role, Square,
};

/// A position reached by `plies` pseudo-random legal moves from the start.
fn playout(seed: u64, plies: usize) -> Position {
    let mut pos = Position::new();
    let mut x = seed | 1;
    for _ in 0..plies {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            break;
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        pos.play_unchecked(moves[(x % moves.len() as u64) as usize]);
    }
    pos
}

fn parse_error(fen: &str) -> ParseFenError {
    match Position::from_fen(fen) {
        Err(FenError::Parse(e)) => e,
        other => panic!("{fen}: expected a parse error, got {other:?}"),
    }
}

fn position_error(fen: &str) -> PositionError {
    match Position::from_fen(fen) {
        Err(FenError::Position(e)) => e,
        other => panic!("{fen}: expected a position error, got {other:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2_000))]

    #[test]
    fn legal_positions_round_trip(seed in any::<u64>(), plies in 0usize..200) {
        let pos = playout(seed, plies);
        let fen = pos.to_fen();
        let back: Position = fen.parse().unwrap();
        prop_assert_eq!(back.to_fen(), fen.clone());
        prop_assert_eq!(back.repetition_key(), pos.repetition_key());
        prop_assert_eq!(back.legal_moves().len(), pos.legal_moves().len());
        // The setup round-trips through the FEN type too.
        prop_assert_eq!(Fen::parse(&fen).unwrap().to_string(), fen);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
        let _ = Position::from_fen(&text);
    }

    #[test]
    fn fen_like_text_never_panics(
        ranks in proptest::collection::vec("[pnbrqkPNBRQK1-9x]{0,10}", 0..10),
        turn in "[wbx-]",
        castling in "[KQkqA-]{0,5}",
        ep in "(-|[a-i][0-9])",
        counters in "( [0-9]{1,3} [0-9]{1,3})?",
    ) {
        let fen = format!("{} {turn} {castling} {ep}{counters}", ranks.join("/"));
        if let Ok(pos) = Position::from_fen(&fen) {
            // Whatever is accepted is a position we can work with.
            let _ = pos.legal_moves();
            prop_assert_eq!(Position::from_fen(&pos.to_fen()).unwrap(), pos);
        }
    }

    #[test]
    fn random_placements_are_accepted_or_refused_cleanly(
        placements in proptest::collection::vec((0u32..64, 0usize..12), 0..40),
        black in any::<bool>(),
    ) {
        let mut board = Board::empty();
        for (sq, p) in placements {
            let piece = Piece { color: if p >= 6 { Color::Black } else { Color::White }, role: Role::ALL[p % 6] };
            board.set_piece_at(Square::new(sq).unwrap(), piece);
        }
        let fen = format!("{} {} - - 0 1", board_fen(&board), if black { 'b' } else { 'w' });
        match Position::from_fen(&fen) {
            Ok(pos) => prop_assert_eq!(pos.to_fen(), fen),
            Err(FenError::Position(_)) => {}
            Err(e) => prop_assert!(false, "board_fen wrote unreadable FEN {fen}: {e}"),
        }
    }

    #[test]
    fn a_rank_with_an_extra_square_is_named(seed in any::<u64>(), plies in 0usize..60, rank in 0usize..8) {
        let fen = playout(seed, plies).to_fen();
        let (board, rest) = fen.split_once(' ').unwrap();
        let mut ranks: Vec<String> = board.split('/').map(str::to_owned).collect();
        ranks[rank].push('p');
        let bad = format!("{} {rest}", ranks.join("/"));
        let expected_rank = (8 - rank).to_string();
        match parse_error(&bad) {
            ParseFenError::RankLength { rank: r, squares: 9, text } => {
                prop_assert_eq!(r.to_string(), expected_rank);
                prop_assert_eq!(text, ranks[rank].clone());
            }
            other => prop_assert!(false, "{bad}: {other:?}"),
        }
    }
}

#[test]
fn every_parse_error_names_its_field() {
    let cases = [
        ("", "empty FEN"),
        ("8/8/8/8/8/8/8/8", "expected 6 fields (4 at least), found 1"),
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "placement has 7 ranks, expected 8: \"4k3/8/8/8/8/8/4K3\""),
        ("4k3/8/8/8/8/8/8/4K4 w - - 0 1", "rank 1 has 9 squares: \"4K4\""),
        ("4k3/8/8/8/8/8/8/4K2 w - - 0 1", "rank 1 has 7 squares: \"4K2\""),
        ("4k3/8/8/8/8/8/8/4X3 w - - 0 1", "rank 1 has an invalid piece letter 'X'"),
        ("4k3/8/8/8/8/8/8/4K3 white - - 0 1", "side to move must be w or b, found \"white\""),
        (
            "4k3/8/8/8/8/8/8/4K3 w KK - 0 1",
            "castling field must be - or KQkq, or the rooks' files (AHah), each right once, found \"KK\"",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w X - 0 1",
            "castling field must be - or KQkq, or the rooks' files (AHah), each right once, found \"X\"",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - e4 0 1",
            "en passant field must be - or a square on rank 3 or 6, found \"e4\"",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "halfmove clock must be a number, found \"x\""),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 -1", "fullmove number must be a number, found \"-1\""),
        // Issue 41: a number too large for its field is out of range, not "not a number".
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 0 99999999999999",
            "fullmove number is out of range (at most 4294967295), found \"99999999999999\"",
        ),
        (
            "4k3/8/8/8/8/8/8/4K3 w - - 4294967296 1",
            "halfmove clock is out of range (at most 4294967295), found \"4294967296\"",
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "expected 6 fields (4 at least), found 7"),
    ];
    for (fen, message) in cases {
        assert_eq!(parse_error(fen).to_string(), message, "{fen:?}");
        assert!(Position::from_fen(fen).unwrap_err().to_string().starts_with("invalid FEN: "));
    }
}

#[test]
fn every_position_error_is_reported() {
    use PositionError::*;
    let cases = [
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", MissingKing(Color::Black)),
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", MissingKing(Color::White)),
        ("4k3/8/8/8/8/8/8/3KK3 w - - 0 1", TooManyKings(Color::White)),
        ("4k2P/8/8/8/8/8/8/4K3 w - - 0 1", PawnOnBackRank(Square::H8)),
        ("4k3/8/8/8/8/8/8/p3K3 w - - 0 1", PawnOnBackRank(Square::A1)),
        ("QQQQk3/QQQQ4/QQ6/8/8/8/8/4K3 w - - 0 1", TooMuchMaterial(Color::White)),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 w - - 0 1", TooMuchMaterial(Color::Black)),
        (
            "4k3/8/8/8/8/8/8/4K3 w K - 0 1",
            InvalidCastlingRight(rookery_core::CastlingRights::WHITE_KING_SIDE),
        ),
        (
            "r3k3/8/8/8/8/8/8/4K3 w k - 0 1",
            InvalidCastlingRight(rookery_core::CastlingRights::BLACK_KING_SIDE),
        ),
        ("4k3/8/8/8/8/8/8/4K3 w - e6 0 1", InvalidEnPassant(Square::E6)),
        ("4k3/8/8/4p3/8/8/8/4K3 b - e3 0 1", InvalidEnPassant(Square::E3)),
        ("4k3/8/8/8/8/8/8/4R2K w - - 0 1", OppositeCheck),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", ZeroFullmoves),
    ];
    for (fen, expected) in cases {
        assert_eq!(position_error(fen), expected, "{fen}");
        assert!(Position::from_fen(fen)
            .unwrap_err()
            .to_string()
            .starts_with("illegal position in FEN: "));
    }
    // A single rook check is possible; three checkers, and two checkers neither of which is a slider, cannot come from a move.
    assert!(Position::from_fen("4k3/8/8/8/8/8/8/4K2r w - - 0 1").is_ok());
    assert_eq!(position_error("4k3/8/8/8/8/3n1n2/8/r3K3 w - - 0 1"), ImpossibleCheck);
    assert_eq!(position_error("4k3/8/8/8/8/5n2/3p4/4K3 w - - 0 1"), ImpossibleCheck);
    // Messages name what is wrong.
    assert_eq!(TooManyKings(Color::White).to_string(), "white has more than one king");
    assert_eq!(PawnOnBackRank(Square::H8).to_string(), "pawn on the back rank at h8");
}

#[test]
fn en_passant_is_written_only_when_legal() {
    // d6 is capturable by e5 in the first; in the second the capture would expose the king
    // to the rook on the fifth rank (the horizontal pin).
    let legal: Position = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1".parse().unwrap();
    assert_eq!(legal.to_fen(), "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1");
    let pinned: Position = "4k3/8/8/K2pP2r/8/8/8/8 w - d6 0 1".parse().unwrap();
    assert_eq!(pinned.to_fen(), "4k3/8/8/K2pP2r/8/8/8/8 w - - 0 1");
    assert_eq!(pinned.ep_square(), Some(Square::D6), "kept for the Polyglot key");
    assert_ne!(pinned.zobrist(), pinned.repetition_key());
    // With no pawn beside the double-stepped pawn the square is dropped altogether.
    let nobody: Position = "4k3/8/8/3p4/8/8/8/4K3 w - d6 0 1".parse().unwrap();
    assert_eq!(nobody.ep_square(), None);
    assert_eq!(nobody.zobrist(), nobody.repetition_key());
}

#[test]
fn four_field_epd_style_fen_defaults_the_counters() {
    let pos: Position = "4k3/8/8/8/8/8/8/4K3 b - -".parse().unwrap();
    assert_eq!(pos.to_fen(), "4k3/8/8/8/8/8/8/4K3 b - - 0 1");
}
