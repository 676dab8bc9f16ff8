//! Openings from EPD and PGN.

use std::path::Path;

use rookery_core::{chess960, CastlingMode, Position};
use rookery_match::opening::{self, parse_epd, parse_epd_in, parse_pgn, OpeningErrorKind};
use rookery_match::Opening;

#[test]
fn epd_forms() {
    let text = "\
# comment lines and blank lines are skipped

rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq -
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2
rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - hmvc 3; fmvn 7; id \"x\";
rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - moves e2e4 c5 Nf3; c0 \"Sicilian\";
";
    let openings = parse_epd(text, "t.epd").unwrap();
    assert_eq!(openings.len(), 4);
    assert_eq!(
        openings[0].position().to_fen(),
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1"
    );
    assert!(openings[0].moves.is_empty());
    assert_eq!(openings[1].position().fullmoves(), 2);
    assert_eq!(openings[2].position().halfmoves(), 3);
    assert_eq!(openings[2].position().fullmoves(), 7);
    // UCI and SAN mixed in the `moves` operation.
    assert_eq!(openings[3].moves.len(), 3);
    assert_eq!(
        openings[3].position().to_fen(),
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"
    );
}

#[test]
fn epd_errors_name_the_line() {
    let error = parse_epd("8/8/8/8/8/8/8/8 w - -\n", "bad.epd").unwrap_err();
    assert_eq!(error.place, "bad.epd, line 1");
    assert!(matches!(error.kind, OpeningErrorKind::Fen(_)), "{error}");
    let text = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq -\n\
                rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - moves e2e5;\n";
    let error = parse_epd(text, "m.epd").unwrap_err();
    assert_eq!(error.place, "m.epd, line 2");
    assert!(error.to_string().contains("\"e2e5\" is not a legal move"), "{error}");
    let error = parse_epd("rnbqkbnr/pppppppp/8/8 w\n", "short.epd").unwrap_err();
    assert!(error.to_string().contains("fewer than four FEN fields"), "{error}");
    // Fool's mate: the game would be over before it starts.
    let mated = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\n";
    assert!(matches!(parse_epd(mated, "m.epd").unwrap_err().kind, OpeningErrorKind::NoLegalMove));
    assert!(matches!(parse_epd("# nothing\n", "e.epd").unwrap_err().kind, OpeningErrorKind::Empty));
}

#[test]
fn pgn_main_lines_cut_to_plies() {
    let pgn = "\
[Event \"a\"]\n\n1. e4 e5 (1... c5 2. Nf3) 2. Nf3 Nc6 3. Bb5 a6 *\n\n\
[Event \"b\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n[SetUp \"1\"]\n\n1. Kd2 Kd7 *\n";
    let all = parse_pgn(pgn.as_bytes(), "o.pgn", None).unwrap();
    assert_eq!(all.len(), 2);
    assert_eq!(all[0].moves.len(), 6, "the variation is skipped");
    assert_eq!(all[1].start.to_fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
    assert_eq!(all[1].position().to_fen(), "8/3k4/8/8/8/8/3KP3/8 w - - 2 2");
    let cut = parse_pgn(pgn.as_bytes(), "o.pgn", Some(2)).unwrap();
    assert_eq!(cut[0].moves.len(), 2);
    assert_eq!(
        cut[0].position(),
        Position::from_fen("rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2").unwrap()
    );
    let error = parse_pgn("1. e4 e5 2. Ke3 *\n".as_bytes(), "x.pgn", None).unwrap_err();
    assert_eq!(error.place, "x.pgn");
    assert!(error.to_string().starts_with("x.pgn: game 1, line 1, column 13: move 2. Ke3: "));
}

#[test]
fn real_files() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    // The first 2,000 public-domain master games of the GNU Chess book, as 8-ply openings.
    let path = root.join("crates/pgn/tests/data/real/gnuchess-book-first-2000.pgn");
    let openings = opening::load(&path, Some(8)).unwrap();
    assert_eq!(openings.len(), 2000);
    assert!(openings.iter().all(|o| o.moves.len() <= 8));
    // The committed balanced set (scripts/data/openings.epd).
    let openings = opening::load(&root.join("scripts/data/openings.epd"), None).unwrap();
    assert!(openings.len() >= 100, "{}", openings.len());
    assert!(openings.iter().all(|o| o.position().has_legal_moves()));
    assert!(matches!(
        opening::load(Path::new("x.txt"), None).unwrap_err().kind,
        OpeningErrorKind::UnknownFormat
    ));
}

/// Chess960 start positions by number (RULES.md §13): 518 is the standard position written
/// the Chess960 way, and 960 is none.
#[test]
fn chess960_start_positions() {
    let standard = Opening::chess960(518).unwrap();
    assert!(standard.start.is_chess960() && standard.moves.is_empty());
    assert_eq!(standard.start.to_setup(), Position::new().to_setup());
    assert_eq!(
        Opening::chess960(0).unwrap().start.to_fen(),
        chess960::position(0).unwrap().to_fen()
    );
    assert!(Opening::chess960(960).is_none());
}

/// A seed draws a shuffle of the 960: none comes twice before all have come, the same seed
/// draws the same, another seed another.
#[test]
fn random_chess960_positions_follow_the_seed() {
    let numbers = |count, seed| -> Vec<u16> {
        opening::random_chess960(count, seed)
            .iter()
            .map(|o| {
                assert!(o.start.is_chess960() && o.moves.is_empty());
                chess960::number(o.start.board()).expect("a start position")
            })
            .collect()
    };
    let all = numbers(1_000, 7);
    assert_eq!(all.len(), 1_000);
    let mut first = all[..960].to_vec();
    first.sort_unstable();
    first.dedup();
    assert_eq!(first.len(), 960, "each of the 960 once before any repeats");
    assert_eq!(numbers(50, 7), all[..50], "the same seed, the same positions");
    assert_ne!(numbers(50, 8), all[..50], "another seed, other positions");
    assert!(opening::random_chess960(0, 7).is_empty());
}

/// In Chess960 mode an EPD file may use X-FEN or Shredder-FEN castling fields and castle
/// king-takes-rook in its `moves`; read as standard chess, the same line is refused by its
/// line number.
#[test]
fn epd_in_chess960() {
    let text = "\
# rooks on b1 and g1, in Shredder-FEN, castling long at once: the king to c1, the rook to d1
1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w GBgb - 0 1 moves e1b1;
1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/1R2K1R1 w KQkq - 0 1
";
    let openings = parse_epd_in(text, "c.epd", CastlingMode::Chess960).unwrap();
    assert_eq!(openings.len(), 2);
    assert_eq!(openings[0].start, openings[1].start, "Shredder-FEN and X-FEN agree");
    assert!(openings[0].moves[0].is_castle());
    assert_eq!(openings[0].moves[0].to_uci(), "e1b1", "the king takes its rook");
    assert_eq!(
        openings[0].position().to_fen(),
        "1r2k1r1/pppppppp/8/8/8/8/PPPPPPPP/2KR2R1 b kq - 1 1"
    );
    let error = parse_epd(text, "c.epd").unwrap_err();
    assert_eq!(error.place, "c.epd, line 2");
    assert!(matches!(error.kind, OpeningErrorKind::Fen(_)), "{error}");
}

/// An opening rewritten for Chess960 keeps its moves, castling now written king-takes-rook;
/// a Chess960 opening does not fit standard chess unless it is the standard position.
#[test]
fn openings_change_castling_mode() {
    let text =
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - moves e4 e5 Nf3 Nc6 Bc4 Nf6 O-O;";
    let standard = &parse_epd(text, "s.epd").unwrap()[0];
    assert_eq!(standard.moves[6].to_uci(), "e1g1");
    let chess960 = standard.in_mode(CastlingMode::Chess960).unwrap();
    assert!(chess960.start.is_chess960());
    assert_eq!(chess960.moves[6].to_uci(), "e1h1");
    assert_eq!(chess960.position().to_setup(), standard.position().to_setup());
    assert_eq!(chess960.in_mode(CastlingMode::Standard).unwrap(), *standard);
    assert!(Opening::chess960(0).unwrap().in_mode(CastlingMode::Standard).is_err());
}
