//! Openings from EPD and PGN.

use std::path::Path;

use rookery_core::Position;
use rookery_match::opening::{self, parse_epd, parse_pgn, OpeningErrorKind};

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
