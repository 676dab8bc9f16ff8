//! `rookery play` refuses bad arguments before it touches the terminal: exit status 2 and one
//! line naming the input. (The game itself is tested without a terminal in
//! crates/cli/src/play/tests.rs.)

use std::process::{Command, Output, Stdio};

fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("the binary runs")
}

fn one_line_error(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(2), "{o:?}");
    let err = String::from_utf8(o.stderr.clone()).expect("UTF-8 output");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(o.stdout.is_empty());
    err
}

#[test]
fn bad_fen_is_named() {
    let err = one_line_error(&rookery(&["play", "--fen", "8/8/8 w - - 0 1"]));
    assert!(err.starts_with("rookery: bad --fen: "), "{err}");
}

#[test]
fn finished_start_position_is_refused() {
    let mate = "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3";
    let err = one_line_error(&rookery(&["play", "--fen", mate]));
    assert!(err.contains("has no legal move"), "{err}");
}

#[test]
fn bad_time_control_is_named() {
    let err = one_line_error(&rookery(&["play", "--tc", "300+x"]));
    assert!(err.contains("--tc") && err.contains("300+x"), "{err}");
}

#[test]
fn bad_rules_and_level_are_named() {
    let err = one_line_error(&rookery(&["play", "--rules", "blitz"]));
    assert!(err.contains("--rules") && err.contains("blitz"), "{err}");
    let err = one_line_error(&rookery(&["play", "--level", "9"]));
    assert!(err.contains("--level"), "{err}");
    let err = one_line_error(&rookery(&["play", "--color", "white"]));
    assert!(err.contains("required arguments"), "--color needs --level: {err}");
}

#[test]
fn unreadable_pgn_is_named() {
    let err = one_line_error(&rookery(&["play", "--pgn", "/nonexistent/game.pgn"]));
    assert!(err.starts_with("rookery: cannot read /nonexistent/game.pgn: "), "{err}");
}

#[test]
fn pgn_with_a_bad_move_names_its_line() {
    let path = std::env::temp_dir().join(format!("rookery-play-cli-{}.pgn", std::process::id()));
    std::fs::write(&path, "[Event \"x\"]\n\n1. e4 e5\n2. Nf3 Nf6 3. Bb5 Qxe4 *\n")
        .expect("a temp file");
    let err = one_line_error(&rookery(&["play", "--pgn", path.to_str().expect("UTF-8 path")]));
    let _ = std::fs::remove_file(&path);
    assert!(
        err.starts_with(&format!(
            "rookery: {}: line 4, column 19: cannot play Qxe4",
            path.display()
        )),
        "{err}"
    );
}

/// Issue 41: without a terminal the game says it needs one (it printed "No such device or
/// address (os error 6)"); a `--save` directory is refused before the game, not at Ctrl-S.
#[test]
fn no_terminal_and_a_save_directory_are_named() {
    let err = one_line_error(&rookery(&["play"]));
    assert_eq!(err, "rookery: play needs a terminal: its standard input and output must be one\n");
    let dir = std::env::temp_dir();
    let dir = dir.to_str().expect("a UTF-8 temp path");
    let err = one_line_error(&rookery(&["play", "--save", dir]));
    assert_eq!(err, format!("rookery: --save {dir}: is a directory, not a file\n"));
}
