//! The `perft` and `moves` subcommands as a user runs them: output format, exit status, and a
//! one-line error naming the bad input.

use std::process::{Command, Output};

fn rookery(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_rookery")).args(args).output().expect("the binary runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

#[test]
fn perft_prints_nodes_searched_last() {
    let o = rookery(&["perft", "3"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "Nodes searched: 8902\n");
}

#[test]
fn perft_divide_matches_stockfish_format() {
    let fen = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let o = rookery(&["perft", "2", "--fen", fen, "--divide", "--threads", "3"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let (moves, total) = out.split_once("\n\n").expect("a blank line before the total");
    assert_eq!(total, "Nodes searched: 2039\n");
    let lines: Vec<&str> = moves.lines().collect();
    assert_eq!(lines.len(), 48);
    assert!(lines.contains(&"e1g1: 43"), "castling is written as the king's move: {out}");
    assert!(lines.contains(&"e1c1: 43"));
    let sum: u64 =
        lines.iter().map(|l| l.rsplit_once(": ").unwrap().1.parse::<u64>().unwrap()).sum();
    assert_eq!(sum, 2039);
}

#[test]
fn perft_threads_agree() {
    let one = stdout(&rookery(&["perft", "4", "--threads", "1"]));
    let two = stdout(&rookery(&["perft", "4", "--threads", "2"]));
    assert_eq!(one, two);
    assert_eq!(one, "Nodes searched: 197281\n");
}

#[test]
fn moves_lists_uci() {
    let o = rookery(&["moves", "--fen", "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for m in ["b7b8q", "b7b8r", "b7b8b", "b7b8n", "e1d1"] {
        assert!(out.lines().any(|l| l == m), "{m} missing from {out}");
    }
    assert_eq!(out.lines().count(), 9);
    assert_eq!(stdout(&rookery(&["moves"])).lines().count(), 20);
    let san = stdout(&rookery(&["moves", "--san", "--fen", "4k3/1P6/8/8/8/8/8/R3K3 w Q - 0 1"]));
    for m in ["b8=Q+", "b8=R+", "b8=B", "b8=N", "O-O-O", "Ra8+", "Kd1"] {
        assert!(san.lines().any(|l| l == m), "{m} missing from {san}");
    }
}

#[test]
fn bad_input_exits_2_with_one_line_naming_it() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["perft", "3", "--fen", "rnbqkbnr/ppppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"],
            r#"invalid FEN: rank 7 has 9 squares: "ppppppppp""#,
        ),
        (&["moves", "--fen", "8/8/8/8/8/8/8/8 w - - 0 1"], "white has no king"),
        (
            &["moves", "--fen", "4k3/8/8/8/8/8/8/4K3 x - - 0 1"],
            r#"side to move must be w or b, found "x""#,
        ),
        (&["moves", "--fen", ""], "empty FEN"),
        (&["perft", "0"], "0"),
        (&["perft", "two"], "two"),
        (&["perft", "2", "--threads", "0"], "--threads"),
        (&["nonsense"], "nonsense"),
    ];
    for (args, needle) in cases {
        let o = rookery(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle), "{args:?}: {err:?} should name {needle:?}");
        assert!(!err.contains("panicked"), "{args:?}");
    }
}

/// Issue 41: what a newcomer trips on, each as exit status 2 and one line on stderr that names
/// the input: missing arguments, a directory or a file where the other was wanted, a program
/// that does not exist, a database that cannot be used.
#[test]
fn issue_41_usage_errors_are_one_line_naming_the_input() {
    let dir = tempfile::tempdir().unwrap();
    let dir_path = dir.path().to_str().unwrap();
    let file = dir.path().join("a-file");
    std::fs::write(&file, "not a directory").unwrap();
    let file_path = file.to_str().unwrap();
    let addr = ["--addr", "127.0.0.1:0"];
    let cases: Vec<(Vec<&str>, String)> = vec![
        (vec!["rate", "--a", "1", "--b", "2"], "--result".into()),
        (vec!["perft"], "<DEPTH>".into()),
        (vec!["ladder"], "<FILE>".into()),
        (vec!["pgn", "replay"], "<FILE>".into()),
        (vec!["match"], "--engine".into()),
        (vec!["play", "--color", "white"], "--level".into()),
        (vec!["pgn", "replay", dir_path], format!("{dir_path}: is a directory")),
        (vec!["pgn", "check", dir_path], format!("{dir_path}: is a directory")),
        (vec!["pgn", "export", dir_path], format!("{dir_path}: is a directory")),
        (vec!["pgn", "stats", dir_path], format!("{dir_path}: is a directory")),
        (vec!["ladder", dir_path], format!("{dir_path}: is a directory")),
        (
            vec!["match", "--engine", "/nonexistent", "--engine", "/nonexistent", "--games", "2"],
            "--engine /nonexistent: no such program".into(),
        ),
        (
            vec!["match", "--engine", env!("CARGO_BIN_EXE_rookery"), "--engine", "x"],
            "--engine".into(),
        ),
        (
            vec!["match", "--engine", "x"],
            "--engine must be given twice, once for each engine; it was given once".into(),
        ),
        (
            vec![
                "match",
                "--engine",
                concat!(env!("CARGO_BIN_EXE_rookery"), " uci"),
                "--engine",
                concat!(env!("CARGO_BIN_EXE_rookery"), " uci"),
                "--pgn",
                dir_path,
            ],
            format!("--pgn {dir_path}: is a directory"),
        ),
        (
            [&["serve", "--data-dir", file_path][..], &addr].concat(),
            format!("--data-dir {file_path}: is a file, not a directory"),
        ),
        (
            [&["serve", "--database", "mysql://x"][..], &addr].concat(),
            r#"invalid database url "mysql://x""#.into(),
        ),
        (
            vec!["moves", "--fen", "8/8/8/8/8/8/8/K1k5 w - - 0 99999999999999"],
            r#"fullmove number is out of range (at most 4294967295), found "99999999999999""#
                .into(),
        ),
    ];
    for (args, needle) in &cases {
        let o = rookery(args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
        assert!(err.contains(needle.as_str()), "{args:?}: {err:?} should name {needle:?}");
        // clap's errors too: one prefix for every error of the binary.
        assert!(err.starts_with("rookery: "), "{args:?}: {err}");
    }
}

/// Issue 41: a PostgreSQL server that refuses connections is named at once, not after the
/// pool's 30 s timeout as "pool timed out" three times.
#[test]
fn a_refused_database_connection_is_named_within_seconds() {
    // A port nothing listens on: bound, then released.
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let url = format!("postgres://rookery:secret@127.0.0.1:{port}/rookery");
    let started = std::time::Instant::now();
    let o = rookery(&["serve", "--database", &url, "--addr", "127.0.0.1:0"]);
    let err = stderr(&o);
    assert!(started.elapsed() < std::time::Duration::from_secs(10), "{err}");
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().filter(|l| l.starts_with("rookery:")).count(), 1, "{err}");
    assert!(err.contains(&format!("connection refused at 127.0.0.1:{port}")), "{err}");
    assert!(!err.contains("secret"), "the password is not shown: {err}");
}

/// `--fen startpos`, UCI's name for the starting position, is what a GUI user types.
#[test]
fn fen_startpos_is_the_starting_position() {
    let o = rookery(&["moves", "--fen", "startpos"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(stdout(&o).lines().count(), 20);
    assert_eq!(stdout(&rookery(&["perft", "2", "--fen", "startpos"])), "Nodes searched: 400\n");
}

/// `rookery … | head`: a reader that goes away is no error of ours. Each command's output is
/// written after its work, into a pipe whose reader has already closed it: the command must
/// end quietly with status 0, not panic on the broken pipe.
#[test]
fn a_closed_pipe_on_stdout_ends_a_command_quietly() {
    use std::process::Stdio;
    let dir = tempfile::tempdir().unwrap();
    let pgn = dir.path().join("games.pgn");
    std::fs::write(&pgn, "[Result \"1-0\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# 1-0\n")
        .unwrap();
    let pgn = pgn.to_str().unwrap();
    let commands: [&[&str]; 5] = [
        &["pgn", "stats", pgn],
        &["pgn", "check", pgn],
        &["pgn", "replay", pgn],
        &["perft", "3", "--divide"],
        &["rate", "--a", "10", "--b", "20", "--result", "a"],
    ];
    for args in commands {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
            .args(args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader is gone before the first byte
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!err.contains("panicked"), "rookery {args:?}: {err}");
        assert!(out.status.success(), "rookery {args:?}: {:?} {err}", out.status);
    }
}
