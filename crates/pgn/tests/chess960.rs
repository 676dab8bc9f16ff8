//! Chess960 games (RULES.md §13, issue 55) as lichess exports them, and as engine matches and
//! other programs write them (tests/data/chess960, hand-made in those formats; see
//! tests/data/README.md): every move of every game is checked against shakmaty's Chess960 board,
//! an implementation of the rules independent of rookery-core, and the castlings against squares
//! worked out by hand; the writer's tags read back to the same games.

use rookery_core::{Color, Role, Square};
use rookery_pgn::main_line::{MainLineErrorKind, Options};
use rookery_pgn::start::set_start_tags;
use rookery_pgn::{MainLine, MainLineError, MainLineReader, Reader, Variant, Writer};
use shakmaty::fen::Fen as OracleFen;
use shakmaty::san::San as OracleSan;
use shakmaty::{CastlingMode, Chess, EnPassantMode, Position as _};

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/chess960/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn read_games(text: &str) -> Vec<Result<MainLine, MainLineError>> {
    let mut reader = Reader::new(text.as_bytes());
    let mut visitor = MainLineReader::new(Options::default());
    let mut games = Vec::new();
    while let Some(game) = reader.read_game(&mut visitor).expect("reading memory") {
        games.push(game);
    }
    games
}

fn games(name: &str) -> Vec<MainLine> {
    read_games(&data(name))
        .into_iter()
        .enumerate()
        .map(|(i, g)| g.unwrap_or_else(|e| panic!("{name}, game {}: {e}", i + 1)))
        .collect()
}

fn oracle_fen(pos: &Chess) -> String {
    OracleFen::from_position(pos, EnPassantMode::Legal).to_string()
}

/// Replays `line` on shakmaty's board from the game's own `[FEN]` tag (or the standard start)
/// and compares every move, in UCI as the game's mode writes it, and every position's FEN.
fn check_against_the_oracle(name: &str, game: usize, line: &MainLine) {
    let mode = if line.variant() == Variant::Chess960 {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    };
    let mut oracle: Chess = match line.tag("FEN") {
        Some(fen) => {
            let fen: OracleFen = fen.parse().expect("shakmaty reads the FEN tag");
            fen.into_position(mode).expect("shakmaty sets up the FEN tag")
        }
        None => Chess::default(),
    };
    assert_eq!(line.start.to_fen(), oracle_fen(&oracle), "{name}, game {game}: start");
    let mut pos = line.start;
    for (i, ply) in line.plies.iter().enumerate() {
        let at = format!("{name}, game {game}, ply {i} ({}, {})", ply.san, ply.at);
        let san: OracleSan = ply.san.san.to_string().parse().expect("shakmaty reads the SAN");
        let m = san.to_move(&oracle).unwrap_or_else(|e| panic!("{at}: shakmaty: {e}"));
        assert_eq!(ply.m.to_uci(), m.to_uci(mode).to_string(), "{at}: the move");
        assert_eq!(ply.m.is_castle(), m.is_castle(), "{at}: castling");
        oracle.play_unchecked(m);
        pos.play_unchecked(ply.m);
        assert_eq!(pos.to_fen(), oracle_fen(&oracle), "{at}: the position after it");
    }
    assert_eq!(line.end(), pos, "{name}, game {game}: MainLine::end");
}

#[test]
fn lichess_chess960_exports_replay_move_for_move_as_shakmaty_does() {
    let lines = games("lichess.pgn");
    assert_eq!(lines.len(), 3);
    for (i, line) in lines.iter().enumerate() {
        assert_eq!(line.variant(), Variant::Chess960, "game {}", i + 1);
        assert!(line.start.is_chess960());
        check_against_the_oracle("lichess.pgn", i + 1, line);
    }
    let plies: Vec<usize> = lines.iter().map(|l| l.plies.len()).collect();
    assert_eq!(plies, [28, 48, 20]);
    // The final positions, from the last move on (the board after it, as shakmaty gives it).
    assert_eq!(
        lines[0].end().to_fen(),
        "2krb2r/pppq1pp1/2nbpn1p/3p4/3P4/2NBPNQ1/PPP2PPP/2KRB2R w - - 12 15"
    );
    assert_eq!(lines[1].end().to_fen(), "bb1r4/pp1kppp1/3p4/3P4/3NP3/6P1/PP3K1r/BBR5 w - - 0 25");
    assert_eq!(
        lines[2].end().to_fen(),
        "r2q1rk1/ppp2p2/2np1n1p/2b1p1pb/2B1P3/2PP1NBP/PP3PP1/RN1Q1RK1 w - - 1 11"
    );
}

#[test]
fn a_mixed_file_replays_each_game_in_its_own_mode() {
    let lines = games("mixed.pgn");
    let variants: Vec<Variant> = lines.iter().map(MainLine::variant).collect();
    assert_eq!(variants, [Variant::Chess960, Variant::Standard, Variant::Chess960]);
    for (i, line) in lines.iter().enumerate() {
        check_against_the_oracle("mixed.pgn", i + 1, line);
    }
    // The engine match's `[Variant]` comes after its `[FEN]`, and `[PlyCount]` agrees.
    assert_eq!(lines[0].tag("PlyCount"), Some("29"));
    assert_eq!(lines[0].plies.len(), 29);
    assert_eq!(
        lines[0].end().to_fen(),
        "q1kr2bb/ppp3p1/3r1p1n/3P3p/2P1P3/2N2NBP/PP4P1/Q2R1RKB b - - 2 15"
    );
    // The Shredder-FEN start (`GEge`) is the same as start position 3's X-FEN (`KQkq`).
    assert_eq!(lines[2].start, rookery_core::chess960::position(3).unwrap());
}

/// Each castling of the fixtures, worked out by hand: the game, the ply, the move in UCI (the
/// king takes its own rook in Chess960, the king's two-square step in standard chess), and
/// where king and rook stand after it.
const CASTLINGS: &[(&str, usize, usize, &str, Square, Square)] = &[
    // Start 714, RKQNBBNR: the king on b1 castles long with the a1 rook, one step to the
    // right; the rook jumps over it to d1. Black the same on the eighth rank.
    ("lichess.pgn", 1, 8, "b1a1", Square::C1, Square::D1),
    ("lichess.pgn", 1, 13, "b8a8", Square::C8, Square::D8),
    // Start 96, BBQNRNKR: the king on g1 castles short and does not move; the rook comes from
    // h1 to f1. Black's king goes from g8 past its own rook on e8 to c8.
    ("lichess.pgn", 2, 4, "g1h1", Square::G1, Square::F1),
    ("lichess.pgn", 2, 9, "g8e8", Square::C8, Square::D8),
    // Start 518, the standard one, as a Chess960 game: the king takes its rook.
    ("lichess.pgn", 3, 6, "e1h1", Square::G1, Square::F1),
    ("lichess.pgn", 3, 9, "e8h8", Square::G8, Square::F8),
    // Start 15, QNNRKRBB: the rooks on d8 and f1 do not move; only the kings do.
    ("mixed.pgn", 1, 3, "e8d8", Square::C8, Square::D8),
    ("mixed.pgn", 1, 4, "e1f1", Square::G1, Square::F1),
    // A standard game in the same file castles as standard chess writes it.
    ("mixed.pgn", 2, 8, "e1g1", Square::G1, Square::F1),
    // Start 3, BQNNRKRB: king f1 and rook g1 swap squares on move 1; Black's king passes its
    // rook on e8.
    ("mixed.pgn", 3, 0, "f1g1", Square::G1, Square::F1),
    ("mixed.pgn", 3, 13, "f8e8", Square::C8, Square::D8),
];

#[test]
fn castlings_land_where_worked_out_by_hand() {
    for &(name, game, ply, uci, king, rook) in CASTLINGS {
        let line = &games(name)[game - 1];
        let case = format!("{name}, game {game}, ply {ply}");
        let m = line.plies[ply].m;
        assert!(m.is_castle(), "{case}: {m:?} is no castling");
        assert_eq!(m.to_uci(), uci, "{case}");
        let after = line.position_after(ply + 1);
        let color = if ply % 2 == 0 { Color::White } else { Color::Black };
        assert_eq!(after.king_of(color), king, "{case}: the king");
        assert_eq!(after.board().piece_at(rook), Some(Role::Rook.of(color)), "{case}: the rook");
        // The other squares of the back rank that king and rook left are empty, unless the
        // castling put one of them there.
        let before = line.position_after(ply);
        let from = [before.king_of(color), m.to()];
        for sq in from.into_iter().filter(|&sq| sq != king && sq != rook) {
            assert_eq!(after.board().piece_at(sq), None, "{case}: {sq} left empty");
        }
        assert!(after.castles().rook(color, rookery_core::CastlingSide::KingSide).is_none());
        assert!(after.castles().rook(color, rookery_core::CastlingSide::QueenSide).is_none());
    }
}

/// Writes the games with the writer, their start tags put right, and reads them back.
fn write_and_read(lines: &[MainLine]) -> (String, Vec<MainLine>) {
    let mut w = Writer::new(Vec::new());
    for line in lines {
        let mut tags = line.tags.clone();
        set_start_tags(&mut tags, &line.start);
        w.tags(&tags).unwrap();
        w.set_start(line.start.fullmoves(), line.start.turn());
        let mut pos = line.start;
        for ply in &line.plies {
            w.san(&rookery_core::SanPlus::from_move(&pos, ply.m)).unwrap();
            pos.play_unchecked(ply.m);
        }
        w.end_game(line.stated_result().unwrap()).unwrap();
    }
    let text = String::from_utf8(w.into_inner()).unwrap();
    let again = read_games(&text)
        .into_iter()
        .map(|g| g.unwrap_or_else(|e| panic!("{e}\n{text}")))
        .collect();
    (text, again)
}

#[test]
fn written_games_carry_the_chess960_tags_and_read_back_the_same() {
    for name in ["lichess.pgn", "mixed.pgn"] {
        let lines = games(name);
        let (text, again) = write_and_read(&lines);
        for (i, (line, back)) in lines.iter().zip(&again).enumerate() {
            assert_eq!(back.start, line.start, "{name}, game {}", i + 1);
            let moves: Vec<_> = line.moves().collect();
            assert_eq!(back.moves().collect::<Vec<_>>(), moves, "{name}, game {}", i + 1);
            if line.variant() == Variant::Chess960 {
                assert_eq!(back.tag("Variant"), Some("Chess960"));
                assert_eq!(back.tag("SetUp"), Some("1"));
                assert_eq!(back.tag("FEN"), Some(line.start.to_fen().as_str()));
            } else {
                assert_eq!(back.tag("Variant"), None);
            }
        }
        if name == "mixed.pgn" {
            // The Shredder-FEN is written in X-FEN, the engine's `fischerandom` as Chess960.
            let fen = "[FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]";
            assert!(text.contains(fen), "{text}");
            assert!(!text.contains("fischerandom") && !text.contains("Fischer Random"), "{text}");
        }
    }
}

#[test]
fn the_standard_start_as_a_chess960_game_keeps_its_tags() {
    let line = &games("lichess.pgn")[2];
    assert_eq!(line.start, rookery_core::chess960::position(518).unwrap());
    assert_ne!(line.start, rookery_core::Position::new(), "the castling mode differs");
    let (text, _) = write_and_read(std::slice::from_ref(line));
    assert!(text.contains("[Variant \"Chess960\"]\n"), "{text}");
    assert!(text.contains("[SetUp \"1\"]\n"), "{text}");
    assert!(
        text.contains("[FEN \"rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1\"]\n"),
        "{text}"
    );
}

fn error_of(pgn: &str) -> MainLineError {
    match read_games(pgn).pop() {
        Some(Err(e)) => e,
        other => panic!("expected an error, got {other:?}"),
    }
}

#[test]
fn errors_name_the_game_the_tag_and_the_place() {
    let ok = "[Variant \"Chess960\"]\n[FEN \"bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1\"]\n\n1. e4 *\n\n";

    // A Chess960 game must give its start.
    let e =
        error_of(&format!("{ok}[Event \"x\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\n1. e4 *\n"));
    assert!(matches!(e.kind, MainLineErrorKind::MissingFen { .. }), "{e:?}");
    assert_eq!(
        e.to_string(),
        "game 2, line 7, column 1: [Variant \"Chess960\"]: no [FEN] tag: a Chess960 game must \
         give its start position ([SetUp \"1\"] and [FEN])"
    );

    // Other variants are refused by name, as before.
    let e = error_of(&format!(
        "{ok}[Variant \"Crazyhouse\"]\n[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n"
    ));
    assert_eq!(e.to_string(), "game 2, line 6, column 1: unsupported variant \"Crazyhouse\"");

    // A Chess960 [FEN] that is no Chess960 position: both rooks on the king's left.
    let fen = "rrknnqbb/pppppppp/8/8/8/8/PPPPPPPP/RRKNNQBB w KQkq - 0 1";
    let e = error_of(&format!("[Variant \"chess960\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n"));
    assert!(matches!(e.kind, MainLineErrorKind::Fen { .. }), "{e:?}");
    assert!(
        e.to_string().starts_with(&format!("game 1, line 2, column 1: [FEN {fen:?}]: ")),
        "{e}"
    );

    // A Chess960 start in a game that does not say it is one: the message says what is missing.
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    let e = error_of(&format!("[Event \"x\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n"));
    assert!(
        e.to_string().ends_with("(a Chess960 position: the game needs [Variant \"Chess960\"])"),
        "{e}"
    );
}

#[test]
fn an_illegal_castling_in_chess960_is_named_by_its_place() {
    // Start 0, BBQNNRKR: short castling would leave the king on g1 and bring the h1 rook to f1,
    // where the other rook stands; only the castling king and rook may be in the way (§13).
    let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    let e = error_of(&format!("[Variant \"Chess960\"]\n[FEN \"{fen}\"]\n\n1. e4 e5 2. O-O *\n"));
    let MainLineErrorKind::Move { at, number: 2, turn: Color::White, .. } = e.kind else {
        panic!("{e:?}")
    };
    assert_eq!((at.line, at.column), (4, 13));
    let oracle: Chess =
        fen.parse::<OracleFen>().unwrap().into_position(CastlingMode::Chess960).unwrap();
    assert!(!oracle.legal_moves().iter().any(|m| m.is_castle()), "shakmaty agrees");
}
