//! `rookery pgn replay|check|export|stats` end to end: the built binary on files and on
//! standard input, its output formats and exit statuses (RULES.md §10, issue 3).

use std::io::Write;
use std::process::{Command, Output, Stdio};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../pgn/tests/data");

fn rookery(args: &[&str], stdin: &str) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    child.stdin.take().unwrap().write_all(stdin.as_bytes()).unwrap();
    child.wait_with_output().unwrap()
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).expect("UTF-8 output")
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).expect("UTF-8 output")
}

fn replay_json(pgn: &str) -> Vec<String> {
    let o = rookery(&["pgn", "replay", "-", "--json"], pgn);
    assert!(o.status.success(), "{}", stderr(&o));
    stdout(&o).lines().map(str::to_owned).collect()
}

fn json(game: u64, plies: u64, fen: &str, result: &str, termination: &str, error: &str) -> String {
    format!(
        "{{\"game\": {game}, \"plies\": {plies}, \"final_fen\": \"{fen}\", \"result\": \"{result}\", \
         \"termination\": {termination}, \"error\": {error}}}"
    )
}

#[test]
fn replay_json_classifies_final_positions() {
    let twice = "Nf3 Nf6 Ng1 Ng8 ";
    let cases: Vec<(String, String)> = vec![
        (
            "1. f3 e5 2. g4 Qh4# 0-1".into(),
            json(
                1,
                4,
                "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3",
                "0-1",
                "\"checkmate\"",
                "null",
            ),
        ),
        (
            "[FEN \"7k/8/6K1/8/8/8/8/5Q2 w - - 0 1\"]\n1. Qf7 1/2-1/2".into(),
            json(1, 1, "7k/5Q2/6K1/8/8/8/8/8 b - - 1 1", "1/2-1/2", "\"stalemate\"", "null"),
        ),
        (
            "[FEN \"7k/8/8/8/8/8/6q1/6K1 w - - 0 1\"]\n1. Kxg2 1/2-1/2".into(),
            json(
                1,
                1,
                "7k/8/8/8/8/8/6K1/8 b - - 0 1",
                "1/2-1/2",
                "\"insufficient_material\"",
                "null",
            ),
        ),
        (
            format!("{} *", twice.repeat(2)),
            json(
                1,
                8,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 8 5",
                "*",
                "\"threefold_repetition\"",
                "null",
            ),
        ),
        (
            format!("{} *", twice.repeat(4)),
            json(
                1,
                16,
                "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 16 9",
                "*",
                "\"fivefold_repetition\"",
                "null",
            ),
        ),
        (
            "[FEN \"7k/8/8/8/8/8/8/KR6 w - - 99 80\"]\n80. Rb2 *".into(),
            json(1, 1, "7k/8/8/8/8/8/1R6/K7 b - - 100 80", "*", "\"fifty_moves\"", "null"),
        ),
        (
            "[FEN \"7k/8/8/8/8/8/8/KR6 w - - 149 80\"]\n80. Rb2 *".into(),
            json(1, 1, "7k/8/8/8/8/8/1R6/K7 b - - 150 80", "*", "\"seventy_five_moves\"", "null"),
        ),
        (
            "[Result \"1-0\"]\n1. e4 *".into(),
            json(
                1,
                1,
                "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1",
                "1-0",
                "null",
                "null",
            ),
        ),
        (
            "1. d4".into(),
            json(
                1,
                1,
                "rnbqkbnr/pppppppp/8/8/3P4/8/PPP1PPPP/RNBQKBNR b KQkq - 0 1",
                "*",
                "null",
                "null",
            ),
        ),
    ];
    for (pgn, want) in cases {
        assert_eq!(replay_json(&pgn), [want], "{pgn}");
    }
}

#[test]
fn replay_reports_the_bad_move_and_goes_on() {
    let pgn = "[Event \"a\"]\n\n1. e4 e5 2. Qh5 Nc6 3. Bc4 Nf6 4. Qxf7# Ke7 1-0\n\n\
               [Event \"b\"]\n\n1. e4 e5 2. Ke3 *\n\n\
               [Event \"c\"]\n\n1. Nf3 Nf6 2. N1d2 *\n\n\
               [Event \"d\"]\n[FEN \"not a fen\"]\n\n1. e4 *\n\n\
               [Event \"e\"]\n\n1. e4 \"quoted\" *\n\n\
               [Event \"f\"]\n\n1. e4 e5 *\n";
    let lines = replay_json(pgn);
    assert_eq!(lines.len(), 6, "{lines:#?}");
    let field = |line: &str, name: &str| -> String {
        let start = line.find(&format!("\"{name}\": ")).unwrap() + name.len() + 4;
        let rest = &line[start..];
        // A string runs to its closing quote (the one before `, "` or the final `}`).
        let end = match rest.strip_prefix('"') {
            Some(inner) => inner.find("\", \"").map_or(rest.len() - 1, |i| i + 2),
            None => rest.find(',').unwrap_or(rest.len() - 1),
        };
        rest[..end].to_owned()
    };
    assert_eq!(field(&lines[0], "plies"), "7");
    assert_eq!(field(&lines[0], "result"), "\"1-0\"");
    assert_eq!(field(&lines[0], "termination"), "\"checkmate\"");
    let e = field(&lines[0], "error");
    assert!(e.starts_with("\"game 1, line 3, column 41: move 4... Ke7: illegal move Ke7"), "{e}");
    let e = field(&lines[1], "error");
    assert!(e.contains("line 7, column 13") && e.contains("Ke3"), "{e}");
    assert_eq!(field(&lines[1], "plies"), "2");
    let e = field(&lines[2], "error");
    assert!(e.contains("N1d2") && e.contains("no piece can go there"), "{e}");
    let e = field(&lines[3], "error");
    assert!(e.contains("game 4, line 14, column 1") && e.contains("FEN"), "{e}");
    assert_eq!(field(&lines[3], "plies"), "0");
    // Quotes in the message are escaped for JSON.
    let e = field(&lines[4], "error");
    assert_eq!(e, r#""game 5, line 20, column 7: unexpected token \"\\\"\"""#);
    assert_eq!(field(&lines[5], "error"), "null");
    assert_eq!(field(&lines[5], "plies"), "2");
}

#[test]
fn replay_reads_files_and_counts_every_game() {
    let path = format!("{DATA}/real/python-chess-kasparov-deep-blue-1997.pgn");
    let o = rookery(&["pgn", "replay", &path, "--json"], "");
    assert!(o.status.success());
    let out = stdout(&o);
    assert_eq!(out.lines().count(), 6);
    assert!(out.lines().all(|l| l.ends_with("\"error\": null}")), "{out}");
    let text = stdout(&rookery(&["pgn", "replay", &path], ""));
    assert!(text.starts_with("game 1: 89 plies, 1-0, -, "), "{text}");
}

#[test]
fn check_lists_every_problem_and_exits_1() {
    let path = format!("{DATA}/nasty/garbage.pgn");
    let o = rookery(&["pgn", "check", &path], "");
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 8, "{out}");
    assert_eq!(lines[0], r#"game 1, line 3, column 13: not a move in SAN: "Kx9""#);
    assert!(lines[3].starts_with("game 5, line 19, column 7: invalid NAG"));
    assert_eq!(lines[7], "8 games checked: 7 problems in 7 games");
    // Variations are checked too.
    let o = rookery(&["pgn", "check", "-"], "1. e4 (1. d4 Ke7) (1. Nf3) e5 *\n");
    assert_eq!(o.status.code(), Some(1));
    assert!(stdout(&o).starts_with("game 1, line 1, column 14: move 1... Ke7: illegal move Ke7"));
    let o = rookery(&["pgn", "check", &format!("{DATA}/real/pgn-extract-eco.pgn")], "");
    assert_eq!(o.status.code(), Some(0), "{}", stdout(&o));
    assert_eq!(stdout(&o), "2014 games checked: 0 problems in 0 games\n");
}

#[test]
fn export_normalises_and_wraps() {
    let pgn = "[White \"Me\"]\n[Event \"Casual \\\"blitz\\\"\"]\n\n\
               1. Ng1f3 {[%clk 0:03:00]} Pd5 2. 0-0?! ; a line comment\n\
               (2. g3 $1) 2... Nc6 3. e4 dxe4 4. Nxe4 Kd7 1-0\n";
    let o = rookery(&["pgn", "export", "-"], pgn);
    // `0-0` is not legal at move 2 for White here: the game is left out.
    assert_eq!(stdout(&o), "");
    assert!(stderr(&o).contains("left out: game 1, line 4, column 34"), "{}", stderr(&o));
    assert_eq!(o.status.code(), Some(1));

    let pgn = "[White \"Me\"]\n[Event \"Casual \\\"blitz\\\"\"]\n\n\
               1. Ng1f3 {[%clk 0:03:00]} Pd5 2. g3?! ; a line comment\n\
               (2. e3 $1) 2... Nc6 3. Bg2 e5 4. 0-0 Nge7 5. d4 exd4 6. Nxd4 Nxd4 7. Qxd4 Nc6 1-0\n";
    let o = rookery(&["pgn", "export", "-"], pgn);
    assert!(o.status.success(), "{}", stderr(&o));
    let want = "[Event \"Casual \\\"blitz\\\"\"]\n[Site \"?\"]\n[Date \"????.??.??\"]\n\
                [Round \"?\"]\n[White \"Me\"]\n[Black \"?\"]\n[Result \"1-0\"]\n\n\
                1. Nf3 { [%clk 0:03:00] } 1... d5 2. g3 $6 { a line comment } (2. e3 $1) 2...\n\
                Nc6 3. Bg2 e5 4. O-O Nge7 5. d4 exd4 6. Nxd4 Nxd4 7. Qxd4 Nc6 1-0\n\n";
    assert_eq!(stdout(&o), want);

    let path = format!("{DATA}/real/pychess-lichess-study-beautiful-chess-studies-1.pgn");
    let o = rookery(&["pgn", "export", &path], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    for line in out.lines() {
        assert!(line.chars().count() < 80 || line.starts_with('['), "{line:?}");
    }
    // Exported text exports to itself.
    let again = rookery(&["pgn", "export", "-"], &out);
    assert_eq!(stdout(&again), out);
}

#[test]
fn stats_counts_and_measures() {
    let path = format!("{DATA}/real/python-chess-kasparov-deep-blue-1997.pgn");
    let o = rookery(&["pgn", "stats", &path], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines[0], "games: 6");
    assert_eq!(lines[1], "plies: 519");
    assert_eq!(lines[2], "results: 1-0 3, 0-1 0, 1/2-1/2 3, * 0");
    assert!(lines[3].starts_with("terminations: checkmate 0, "), "{out}");
    assert!(lines[3].ends_with("none 6"), "{out}");
    assert_eq!(lines[4], "errors: 0");
    assert!(lines[5].starts_with("throughput: ") && lines[5].contains("games/s"), "{out}");
    let o = rookery(&["pgn", "stats", "-"], "1. e4 Kx9 *\n1. d4 *\n");
    assert!(stdout(&o).contains("errors: 1\n"));
    assert!(stdout(&o).starts_with("games: 2\nplies: 2\n"));
}

#[test]
fn no_progress_bar_off_a_terminal_and_unreadable_files_exit_2() {
    let path = format!("{DATA}/real/pgn-extract-eco.pgn");
    let o = rookery(&["pgn", "stats", &path], "");
    assert!(stderr(&o).is_empty(), "{}", stderr(&o));
    let o = rookery(&["pgn", "replay", "/nonexistent/games.pgn"], "");
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1);
    assert!(err.contains("/nonexistent/games.pgn"), "{err}");
    let o = rookery(&["pgn", "replay"], "");
    assert_eq!(o.status.code(), Some(2));
}

/// Issue 41: a termination marker that contradicts the `[Result]` tag is a problem naming the
/// game and the tag's line (PGN standard 8.2.6: they must agree).
#[test]
fn check_reports_a_result_that_contradicts_its_tag() {
    let pgn = "[Result \"1-0\"]\n\n1. e4 e5 1-0\n\n[White \"A\"]\n[Result \"0-1\"]\n\n1. f3 e5 2. g4 Qh4# 1-0\n";
    let o = rookery(&["pgn", "check", "-"], pgn);
    assert_eq!(o.status.code(), Some(1), "{}", stdout(&o));
    assert_eq!(
        stdout(&o),
        "game 2, line 6, column 1: the game ends 1-0, but [Result] says 0-1\n\
         2 games checked: 1 problem in 1 game\n"
    );
}

/// Games that start from the same `[FEN]` as the game before (engine matches play each
/// opening twice) start from that position, whatever came between; a bad `[FEN]` after a good
/// one is still reported (issue 41: the last start is kept and not read again).
#[test]
fn a_repeated_fen_start_is_the_same_start() {
    let a = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1";
    let b = "4k3/8/8/8/8/8/3P4/4K3 b - - 3 7";
    let mut games: Vec<String> = [a, a, b, "4k3/8/8 w - - 0 1", a, b, b]
        .iter()
        .map(|fen| format!("[FEN \"{fen}\"]\n\n1. e3 *\n"))
        .collect();
    // Two `[FEN]` tags: the last is the start, whether or not it is the last game's.
    games.push(format!("[FEN \"{a}\"]\n[FEN \"{b}\"]\n\n1. e3 *\n"));
    games.push(format!("[FEN \"{a}\"]\n[FEN \"{b}\"]\n\n1. e3 *\n"));
    games.push(format!("[FEN \"{b}\"]\n[FEN \"{a}\"]\n\n1. e3 *\n"));
    let o = rookery(&["pgn", "replay", "-"], &games.join("\n"));
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    let after_a = "game {}: 1 plies, *, -, 4k3/8/8/8/8/4P3/8/4K3 b - - 0 1";
    let after_b = "game {}: 0 plies, *, -, 4k3/8/8/8/8/8/3P4/4K3 b - - 3 7; game {}, line ";
    assert_eq!(lines.len(), 10, "{lines:?}");
    for (i, line) in lines.iter().enumerate() {
        let game = i + 1;
        match i {
            0 | 1 | 4 | 9 => assert_eq!(line, &after_a.replace("{}", &game.to_string())),
            2 | 5 | 6 | 7 | 8 => {
                let want = after_b.replace("{}", &game.to_string());
                assert!(line.starts_with(&want), "game {game}: {line}");
                assert!(line.ends_with("move 7... e3: illegal move e3: no piece can go there"));
            }
            _ => assert!(line.contains("[FEN \"4k3/8/8 w - - 0 1\"]"), "game {game}: {line}"),
        }
    }
}

/// Issue 41: a file of a few MB is read by parts on several threads; what every command
/// prints, and its exit status, are those of one thread: the games in order, each problem with
/// its game, line and column in the whole file.
#[test]
fn threads_print_what_one_thread_prints() {
    let mut one_pass = Vec::new();
    for dir in ["nasty", "real", "chess960"] {
        let mut names: Vec<_> = std::fs::read_dir(format!("{DATA}/{dir}"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|e| e == "pgn"))
            .collect();
        names.sort();
        for name in names {
            one_pass.extend_from_slice(&std::fs::read(name).unwrap());
            one_pass.extend_from_slice(b"\n\n");
        }
    }
    // A cut may fall where an empty line and a tag are no game's start.
    one_pass.extend_from_slice(
        b"[Event \"x\"]\n\n1. e4 { see:\n\n[Event \"no game\"] } e5 1-0\n\n[Event \"y\"]\n\n1. d4 d5\n\n",
    );
    let mut text = Vec::new();
    while text.len() < 5 << 20 {
        text.extend_from_slice(&one_pass);
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.pgn");
    std::fs::write(&path, &text).unwrap();
    let path = path.to_str().unwrap();
    for command in [&["replay"][..], &["replay", "--json"], &["check"], &["export"], &["stats"]] {
        let run = |threads: &str| {
            let mut args = vec!["pgn"];
            args.extend_from_slice(command);
            args.extend_from_slice(&[path, "--threads", threads]);
            let o = rookery(&args, "");
            // `stats` ends with its throughput, which differs from run to run.
            let out = stdout(&o);
            let out = out.split("throughput:").next().unwrap().to_owned();
            (o.status.code(), out, stderr(&o))
        };
        let (one, three) = (run("1"), run("3"));
        assert!(one.1.len() > 200, "{command:?}: {}", one.1);
        assert!(one == three, "{command:?}: one thread and three differ");
    }
    for threads in ["0", "257", "-1", "many"] {
        let o = rookery(&["pgn", "stats", path, "--threads", threads], "");
        assert_eq!(o.status.code(), Some(2), "--threads {threads}: {}", stderr(&o));
        assert!(stderr(&o).contains("--threads"), "--threads {threads}: {}", stderr(&o));
    }
}

/// Issue 55: lichess's Chess960 exports replay, each from its own start, castling as Chess960
/// castles; the final positions are the ones shakmaty gives (crates/pgn/tests/chess960.rs).
#[test]
fn replay_plays_chess960_games_from_their_own_start() {
    let path = format!("{DATA}/chess960/lichess.pgn");
    let o = rookery(&["pgn", "replay", &path, "--json"], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let lines: Vec<String> = stdout(&o).lines().map(str::to_owned).collect();
    let want = [
        json(
            1,
            28,
            "2krb2r/pppq1pp1/2nbpn1p/3p4/3P4/2NBPNQ1/PPP2PPP/2KRB2R w - - 12 15",
            "1/2-1/2",
            "\"threefold_repetition\"",
            "null",
        ),
        json(
            2,
            48,
            "bb1r4/pp1kppp1/3p4/3P4/3NP3/6P1/PP3K1r/BBR5 w - - 0 25",
            "0-1",
            "null",
            "null",
        ),
        json(
            3,
            20,
            "r2q1rk1/ppp2p2/2np1n1p/2b1p1pb/2B1P3/2PP1NBP/PP3PP1/RN1Q1RK1 w - - 1 11",
            "1/2-1/2",
            "null",
            "null",
        ),
    ];
    assert_eq!(lines, want);
}

/// Issue 55: a file of standard and Chess960 games checks clean, each game in its own mode;
/// Chess960 problems are named by game, line and column like any other.
#[test]
fn check_takes_mixed_files_and_names_chess960_problems() {
    let o = rookery(&["pgn", "check", &format!("{DATA}/chess960/mixed.pgn")], "");
    assert_eq!(stdout(&o), "3 games checked: 0 problems in 0 games\n");
    assert_eq!(o.status.code(), Some(0));

    let start0 = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
    let pgn = format!(
        "[Event \"no start\"]\n[Variant \"Chess960\"]\n[SetUp \"1\"]\n\n1. e4 *\n\n\
         [Event \"blocked\"]\n[Variant \"Chess960\"]\n[FEN \"{start0}\"]\n\n1. e4 e5 2. O-O *\n\n\
         [Event \"no variant\"]\n[FEN \"{start0}\"]\n\n1. e4 *\n\n\
         [Event \"zh\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n\n\
         [Event \"fine\"]\n[Variant \"Chess960\"]\n[FEN \"{start0}\"]\n\n1. e4 e5 2. Nf3 Nf6 *\n"
    );
    let o = rookery(&["pgn", "check", "-"], &pgn);
    assert_eq!(o.status.code(), Some(1));
    let out = stdout(&o);
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(
        lines[0],
        "game 1, line 2, column 1: [Variant \"Chess960\"]: no [FEN] tag: a Chess960 game must \
         give its start position ([SetUp \"1\"] and [FEN])"
    );
    assert!(
        lines[1].starts_with("game 2, line 11, column 13: move 2. O-O: illegal move O-O: "),
        "{out}"
    );
    assert_eq!(
        lines[2],
        format!(
            "game 3, line 14, column 1: [FEN {start0:?}]: illegal position in FEN: castling \
             right K without the king and rook on their starting squares (a Chess960 position: \
             the game needs [Variant \"Chess960\"])"
        )
    );
    assert_eq!(lines[3], "game 4, line 19, column 1: unsupported variant \"Crazyhouse\"");
    assert_eq!(lines[4], "5 games checked: 4 problems in 4 games");
}

/// Issue 55: export writes a Chess960 game with the tags every reader knows —
/// `[Variant "Chess960"]`, `[SetUp "1"]`, the X-FEN of its start — and leaves standard games'
/// tags as they were; the export reads back to the same games.
#[test]
fn export_writes_chess960_tags_and_reads_back() {
    let path = format!("{DATA}/chess960/mixed.pgn");
    let o = rookery(&["pgn", "export", &path], "");
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let games: Vec<&str> = out.split("\n\n[Event").collect();
    assert_eq!(games.len(), 3, "{out}");
    // The engine match's `fischerandom`, after its FEN, becomes `Chess960` where it stood.
    assert!(
        games[0].contains(
            "[FEN \"qnnrkrbb/pppppppp/8/8/8/8/PPPPPPPP/QNNRKRBB w KQkq - 0 1\"]\n\
             [GameDuration \"00:00:41\"]\n[PlyCount \"29\"]\n[SetUp \"1\"]\n\
             [TimeControl \"40/60\"]\n[Variant \"Chess960\"]\n"
        ),
        "{out}"
    );
    assert!(!games[1].contains("Variant") && !games[1].contains("SetUp"), "{out}");
    // The Shredder-FEN is written in X-FEN.
    assert!(
        games[2].contains(
            "[Variant \"Chess960\"]\n[SetUp \"1\"]\n\
             [FEN \"bqnnrkrb/pppppppp/8/8/8/8/PPPPPPPP/BQNNRKRB w KQkq - 0 1\"]\n"
        ),
        "{out}"
    );
    assert!(games[2].contains("\n1. O-O d5 2. d4 Nd6 "), "{out}");
    // The export replays as the file does, and exports to itself.
    let replay = |text: &str| stdout(&rookery(&["pgn", "replay", "-"], text));
    assert_eq!(replay(&out), replay(&std::fs::read_to_string(&path).unwrap()));
    assert_eq!(stdout(&rookery(&["pgn", "export", "-"], &out)), out);
}

/// The start read for one game's `[FEN]` is kept for the next game with the same text (issue
/// 41), but only in the same variant: the same text is another position in Chess960.
#[test]
fn a_repeated_fen_in_another_variant_is_read_again() {
    let fen = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
    let standard = format!("[Event \"a\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n\n");
    let chess960 =
        format!("[Event \"b\"]\n[Variant \"Fischerandom\"]\n[FEN \"{fen}\"]\n\n1. e4 *\n\n");
    let o = rookery(&["pgn", "export", "-"], &format!("{standard}{chess960}{standard}"));
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let games: Vec<&str> = out.split("[Event").skip(1).collect();
    assert_eq!(games.len(), 3, "{out}");
    assert!(
        games[1].contains("[Variant \"Chess960\"]\n[FEN") && games[1].contains("[SetUp \"1\"]")
    );
    for game in [games[0], games[2]] {
        assert!(!game.contains("Variant") && !game.contains("SetUp"), "{out}");
    }
}
