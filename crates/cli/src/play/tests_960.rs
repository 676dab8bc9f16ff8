//! `rookery play --960 [N]` (issue 55, RULES.md §13): the start position chosen or drawn, the
//! FEN and the tags the game is created with, and the game itself — castling typed as `O-O`,
//! as the king taking its rook (`g1h1`), as the king's two-square move, or by clicking the king
//! onto its rook; the engine answering; the saved PGN read back as Chess960.

use std::collections::HashSet;

use rookery_core::{chess960, CastlingMode, Color, Role, Square};
use rookery_pgn::main_line::{read_main_line, Options};
use rookery_pgn::Variant;

use super::app::App;
use super::setup::{configure, random_start, Config, WallClock};
use super::tests::{click, parse_args, sans, screen, temp_file, type_move};

const WALL: WallClock = WallClock { unix_secs: 0, nanos: 0 };

fn config(args: &[&str]) -> Config {
    configure(parse_args(args), &WALL).unwrap_or_else(|e| panic!("{args:?}: {}", e.0))
}

fn error(args: &[&str]) -> String {
    match configure(parse_args(args), &WALL) {
        Ok(_) => panic!("{args:?} is accepted"),
        Err(e) => e.0,
    }
}

fn variant_tag(config: &Config) -> Option<&str> {
    config.spec.tags.iter().find(|(k, _)| k == "Variant").map(|(_, v)| v.as_str())
}

#[test]
fn a_numbered_start_is_that_position_in_chess960() {
    let c = config(&["--960", "714", "--ascii"]);
    assert_eq!(c.spec.castling_mode, CastlingMode::Chess960);
    assert_eq!(c.chess960, Some(714));
    let fen = chess960::position(714).unwrap().to_fen();
    assert_eq!(fen, "rkqnbbnr/pppppppp/8/8/8/8/PPPPPPPP/RKQNBBNR w KQkq - 0 1");
    assert_eq!(c.spec.fen.as_deref(), Some(fen.as_str()));
    assert_eq!(variant_tag(&c), Some("Chess960"));
    // 518 is the standard start, still a Chess960 game.
    let c = config(&["--960", "518"]);
    assert_eq!((c.spec.castling_mode, variant_tag(&c)), (CastlingMode::Chess960, Some("Chess960")));
    // Standard chess as before: no FEN, no tag.
    let c = config(&[]);
    assert_eq!(
        (c.spec.castling_mode, c.chess960, c.spec.fen.clone()),
        (CastlingMode::Standard, None, None)
    );
    assert_eq!(variant_tag(&c), None);
}

#[test]
fn a_random_start_comes_from_the_seed() {
    let c = config(&["--960", "--seed", "12345"]);
    let n = c.chess960.expect("a number is drawn");
    assert_eq!(n, random_start(12_345));
    assert_eq!(config(&["--seed", "12345", "--960"]).chess960, Some(n), "the same seed");
    assert_eq!(c.spec.fen, Some(chess960::position(n).unwrap().to_fen()));
    // Every number can come up: 5,000 seeds draw nearly all of the 960.
    let drawn: HashSet<u16> = (0..5_000).map(random_start).collect();
    assert!(drawn.iter().all(|&n| n < chess960::COUNT));
    assert!(drawn.len() > 940, "{} of 960", drawn.len());
}

#[test]
fn a_fen_is_chess960_when_it_says_so_or_when_asked() {
    let g1 = "bbqnr1kr/pppppppp/8/8/8/8/PPPPPPPP/BBQNR1KR w KQkq - 0 1";
    let c = config(&["--fen", g1]);
    assert_eq!((c.spec.castling_mode, c.chess960), (CastlingMode::Chess960, None));
    assert_eq!(variant_tag(&c), Some("Chess960"));
    let corners = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    assert_eq!(config(&["--fen", corners]).spec.castling_mode, CastlingMode::Standard);
    assert_eq!(config(&["--fen", corners, "--960"]).spec.castling_mode, CastlingMode::Chess960);

    let e = error(&["--fen", corners, "--960", "4"]);
    assert!(e.starts_with("--960 4 and --fen both give the position"), "{e}");
    let both_left = "rrknnqbb/pppppppp/8/8/8/8/PPPPPPPP/RRKNNQBB w KQkq - 0 1";
    let e = error(&["--fen", both_left, "--960"]);
    assert!(e.starts_with("bad --fen: illegal position in FEN: castling right K"), "{e}");
}

#[test]
fn a_chess960_pgn_continues_as_chess960() {
    let path = temp_file("960-continue.pgn");
    let pgn = "[Event \"x\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
               [FEN \"bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRNKR w KQkq - 0 1\"]\n\n\
               1. Ng3 Ng6 2. O-O *\n";
    std::fs::write(&path, pgn).expect("a temp file");
    let c = config(&["--pgn", path.to_str().expect("a UTF-8 temp path")]);
    let _ = std::fs::remove_file(&path);
    assert_eq!(c.spec.castling_mode, CastlingMode::Chess960);
    assert_eq!(c.moves.len(), 3);
    assert_eq!(variant_tag(&c), Some("Chess960"));
    assert_eq!(
        c.spec.fen.as_deref(),
        Some("bbqnrnkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNRNKR w KQkq - 0 1")
    );
}

/// The game starts in Chess960 from the chosen position (518 included: the standard start,
/// castling written king-takes-rook); it never goes on as standard chess.
#[test]
fn a_chess960_game_starts_as_one() {
    for n in ["714", "518"] {
        let app = App::new(config(&["--960", n, "--ascii"]), 0).expect("a Chess960 game starts");
        let start = app.game.start_position();
        assert!(start.is_chess960(), "--960 {n}");
        assert_eq!(*start, chess960::position(n.parse().unwrap()).unwrap());
    }
}

/// A hot-seat game from start position `n`.
fn hot_seat_960(n: &str) -> App {
    App::new(config(&["--960", n, "--ascii"]), 0).expect("the arbiter starts Chess960 games")
}

#[test]
fn castling_typed_in_every_form() {
    // Start 96, BBQNRNKR: the king on g1 castles short without moving, the rook h1 to f1.
    for castle in ["O-O", "0-0", "g1h1"] {
        let mut app = hot_seat_960("96");
        type_move(&mut app, "Ng3", 1_000);
        type_move(&mut app, "Ng6", 2_000);
        type_move(&mut app, castle, 3_000);
        assert_eq!(sans(&app), ["Ng3", "Ng6", "O-O"], "{castle}");
        let pos = app.game.position();
        assert_eq!(pos.king_of(Color::White), Square::G1, "{castle}");
        assert_eq!(pos.board().piece_at(Square::F1), Some(Role::Rook.of(Color::White)));
        assert_eq!(pos.board().piece_at(Square::H1), None, "{castle}");
    }
    // Start 15, QNNRKRBB: the king's two-square move e1g1 castles, the f1 rook stays.
    let mut app = hot_seat_960("15");
    for m in ["f4", "Nd6", "Bf2", "Nc4", "e1g1"] {
        type_move(&mut app, m, 1_000);
    }
    assert_eq!(sans(&app).last().map(String::as_str), Some("O-O"));
    assert_eq!(app.game.position().king_of(Color::White), Square::G1);
    // Start 714, RKQNBBNR: the king on b1 castles long by typing the rook's square.
    let mut app = hot_seat_960("714");
    for m in ["Nc3", "Nc6", "d3", "d6", "Qd2", "Qd7", "b1a1"] {
        type_move(&mut app, m, 1_000);
    }
    assert_eq!(sans(&app).last().map(String::as_str), Some("O-O-O"));
    let pos = app.game.position();
    assert_eq!(pos.king_of(Color::White), Square::C1);
    assert_eq!(pos.board().piece_at(Square::D1), Some(Role::Rook.of(Color::White)));
}

#[test]
fn castling_by_clicking_the_king_onto_its_rook() {
    let mut app = hot_seat_960("96");
    type_move(&mut app, "Ng3", 1_000);
    type_move(&mut app, "Ng6", 2_000);
    click(&mut app, Square::G1, 3_000);
    click(&mut app, Square::H1, 3_000);
    assert_eq!(sans(&app), ["Ng3", "Ng6", "O-O"]);
    assert!(screen(&mut app).contains("Chess960 #96"), "the header names the start");
}

#[test]
fn the_saved_game_reads_back_as_chess960_and_the_engine_plays_it() {
    let path = temp_file("960-save.pgn");
    let save = path.to_str().expect("a UTF-8 temp path").to_owned();
    let args = ["--960", "714", "--level", "1", "--color", "black", "--save", &save, "--ascii"];
    let mut app = App::new(config(&args), 0).expect("the game starts");
    app.await_engine(1_000);
    assert_eq!(app.game.plies().len(), 1, "the engine opens as White");
    type_move(&mut app, "Nc6", 2_000);
    app.await_engine(3_000);
    super::tests::ctrl(&mut app, 's', 4_000);
    let pgn = std::fs::read_to_string(&path).expect("saved");
    let _ = std::fs::remove_file(&path);
    for tag in [
        "[Variant \"Chess960\"]",
        "[SetUp \"1\"]",
        "[FEN \"rkqnbbnr/pppppppp/8/8/8/8/PPPPPPPP/RKQNBBNR w KQkq - 0 1\"]",
    ] {
        assert!(pgn.contains(tag), "{tag}\n{pgn}");
    }
    let line = read_main_line(&pgn, Options::default()).expect("a game").expect("it replays");
    assert_eq!(line.variant(), Variant::Chess960);
    assert_eq!(line.start, chess960::position(714).unwrap());
    assert_eq!(line.plies.len(), 3);
}
