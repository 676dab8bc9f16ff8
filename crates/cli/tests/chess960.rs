//! Chess960 on the command line (issue 55, RULES.md §13): `perft` and `moves` take `--960 N`
//! for a start position and `--960` to read a `--fen` as Chess960, and read a FEN whose
//! castling field only makes sense in Chess960 as Chess960 without it; castling is then the
//! king taking its rook. Bad values are named with the range, exit status 2, on one line.

use std::process::{Command, Output, Stdio};

fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    assert!(o.status.success(), "{o:?}");
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn one_line_error(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8(o.stderr.clone()).expect("UTF-8 output");
    assert_eq!(err.lines().count(), 1, "{err}");
    err
}

fn nodes(args: &[&str]) -> u64 {
    let out = stdout(&rookery(args));
    let n = out.trim().strip_prefix("Nodes searched: ").unwrap_or_else(|| panic!("{out}"));
    n.parse().unwrap()
}

/// The counts are shakmaty 0.30.1's (`perft` in `CastlingMode::Chess960`).
#[test]
fn perft_from_numbered_start_positions() {
    let cases: &[(&str, &str, u64)] = &[
        ("0", "4", 201_143),   // BBQNNRKR
        ("959", "4", 201_143), // RKRNNQBB, its mirror
        ("714", "4", 201_064), // RKQNBBNR: the king on b1
        ("518", "4", 197_281), // the standard start
    ];
    for &(n, depth, want) in cases {
        assert_eq!(nodes(&["perft", depth, "--960", n]), want, "--960 {n}");
    }
    // The number may come before the depth too.
    assert_eq!(nodes(&["perft", "--960", "0", "3"]), 9_006);
}

#[test]
fn castling_is_the_king_taking_its_rook_in_chess960() {
    // The king on g1 castles short without moving: Chess960 by its `KQkq` rights alone.
    let g1 = "bbqnr1kr/pppppppp/8/8/8/8/PPPPPPPP/BBQNR1KR w KQkq - 0 1";
    let uci = stdout(&rookery(&["moves", "--fen", g1]));
    assert!(uci.lines().any(|m| m == "g1h1"), "{uci}");
    let san = stdout(&rookery(&["moves", "--fen", g1, "--san"]));
    assert!(san.lines().any(|m| m == "O-O"), "{san}");
    assert_eq!(nodes(&["perft", "3", "--fen", g1]), 10_152);

    // The standard geometry: standard chess unless `--960` or Shredder-FEN letters say not.
    let corners = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
    let castlings = |args: &[&str]| -> Vec<String> {
        let out = stdout(&rookery(args));
        // The king's moves along the back rank that are no step: castlings.
        let mut moves: Vec<String> = out
            .lines()
            .map(|l| l.split(':').next().unwrap().to_owned())
            .filter(|m| ["e1a1", "e1b1", "e1c1", "e1g1", "e1h1"].contains(&m.as_str()))
            .collect();
        moves.sort();
        moves
    };
    assert_eq!(castlings(&["moves", "--fen", corners]), ["e1c1", "e1g1"]);
    assert_eq!(castlings(&["moves", "--fen", corners, "--960"]), ["e1a1", "e1h1"]);
    let shredder = corners.replace("KQkq", "HAha");
    assert_eq!(castlings(&["moves", "--fen", &shredder]), ["e1a1", "e1h1"]);
    assert_eq!(castlings(&["perft", "1", "--fen", corners, "--960", "--divide"]), ["e1a1", "e1h1"]);
    // The tree is the same: only the notation differs.
    for args in [&["--fen", corners][..], &["--fen", corners, "--960"], &["--fen", &shredder]] {
        let mut all = vec!["perft", "3"];
        all.extend_from_slice(args);
        assert_eq!(nodes(&all), 13_744, "{args:?}");
    }
    // `startpos` in Chess960 is start position 518.
    assert_eq!(
        stdout(&rookery(&["moves", "--fen", "startpos", "--960"])),
        stdout(&rookery(&["moves", "--960", "518"]))
    );
}

#[test]
fn bad_chess960_arguments_are_named() {
    for bad in ["960", "-1", "x"] {
        let err = one_line_error(&rookery(&["perft", "3", "--960", bad]));
        assert!(err.contains(&format!("\"{bad}\"")) && err.contains("0 to 959"), "{err}");
    }
    let err = one_line_error(&rookery(&["moves", "--960", "4", "--fen", "startpos"]));
    assert!(err.starts_with("rookery: --960 4 and --fen both give the position"), "{err}");
    let err = one_line_error(&rookery(&["perft", "2", "--960"]));
    assert!(err.starts_with("rookery: --960 needs a start position number"), "{err}");
    // Both rooks on the king's left: no Chess960 position has that right.
    let fen = "rrknnqbb/pppppppp/8/8/8/8/PPPPPPPP/RRKNNQBB w KQkq - 0 1";
    let err = one_line_error(&rookery(&["moves", "--fen", fen, "--960"]));
    assert!(err.contains("castling right K"), "{err}");
}

/// `rookery play --960 N` checks N before anything else, as every `play` argument is checked
/// before the terminal is touched (crates/cli/tests/play.rs).
#[test]
fn play_names_a_bad_start_number() {
    for bad in ["960", "-3", "x"] {
        let err = one_line_error(&rookery(&["play", "--960", bad]));
        assert!(err.contains(&format!("\"{bad}\"")) && err.contains("0 to 959"), "{err}");
    }
    let err = one_line_error(&rookery(&["play", "--960", "3", "--pgn", "game.pgn"]));
    assert!(err.contains("--960") && err.contains("--pgn"), "{err}");
    let err = one_line_error(&rookery(&["play", "--960", "3", "--fen", "startpos"]));
    assert!(err.starts_with("rookery: --960 3 and --fen both give the position"), "{err}");
}
