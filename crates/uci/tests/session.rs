//! Scripted UCI sessions through the loop, with in-memory input and output.

use rookery_core::Position;
use rookery_uci::{run, Command, InfoField, Message, ScoreValue, UciMove, ENGINE_NAME};

/// Runs a script and returns the output lines.
fn session(script: &str) -> Vec<String> {
    let out = run(script.as_bytes(), Vec::new()).expect("in-memory I/O does not fail");
    String::from_utf8(out).expect("UTF-8 output").lines().map(str::to_owned).collect()
}

/// The parsed output lines that are UCI messages (perft and bench print plain lines).
fn messages(lines: &[String]) -> Vec<Message> {
    lines.iter().filter_map(|l| l.parse().ok()).collect()
}

fn best_moves(lines: &[String]) -> Vec<(UciMove, Option<UciMove>)> {
    messages(lines)
        .into_iter()
        .filter_map(|m| match m {
            Message::BestMove { best, ponder } => Some((best, ponder)),
            _ => None,
        })
        .collect()
}

fn info_strings(lines: &[String]) -> Vec<String> {
    messages(lines)
        .into_iter()
        .filter_map(|m| match m {
            Message::Info(fields) => fields.into_iter().find_map(|f| match f {
                InfoField::String(s) => Some(s),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

/// Asserts that `m` is legal after `position` (a `position` command).
fn assert_legal(position: &str, m: UciMove) {
    let Ok(Command::Position { start, moves }) = position.parse::<Command>() else {
        panic!("not a position command: {position}")
    };
    let mut pos = match start {
        rookery_uci::StartPosition::Standard => Position::new(),
        rookery_uci::StartPosition::Fen(fen) => fen.into_position().unwrap(),
    };
    for m in moves {
        pos.play_unchecked(m.to_move(&pos).unwrap());
    }
    assert!(m.to_move(&pos).is_ok(), "{m} is not legal after {position}");
}

#[test]
fn handshake_declares_the_options() {
    let lines = session("uci\nisready\nquit\n");
    assert_eq!(lines[0], format!("id name {ENGINE_NAME}"));
    assert_eq!(lines[1], "id author The Rookery developers");
    for option in [
        "Hash",
        "Threads",
        "MultiPV",
        "Move Overhead",
        "Ponder",
        "UseNNUE",
        "EvalFile",
        "Skill Level",
        "Level",
        "UCI_LimitStrength",
        "UCI_Elo",
        "UCI_ShowWDL",
        "UCI_AnalyseMode",
        "UCI_Chess960",
        "Clear Hash",
    ] {
        assert!(
            lines.iter().any(|l| l.starts_with(&format!("option name {option} type"))),
            "{option}: {lines:?}"
        );
    }
    let uciok = lines.iter().position(|l| l == "uciok").unwrap();
    assert_eq!(lines[uciok + 1], "readyok");
    assert_eq!(lines.len(), uciok + 2);
    for line in &lines {
        assert!(line.parse::<Message>().is_ok(), "not a UCI message: {line}");
    }
}

#[test]
fn search_reports_and_answers_a_legal_move() {
    let position = "position startpos moves e2e4 e7e5 g1f3";
    // The end of the input lets the search finish (`quit` would stop it).
    let lines = session(&format!("{position}\ngo depth 5\nisready\n"));
    let best = best_moves(&lines);
    assert_eq!(best.len(), 1, "{lines:?}");
    assert_legal(position, best[0].0);
    let depths: Vec<u32> = messages(&lines)
        .into_iter()
        .filter_map(|m| match m {
            Message::Info(fields) => fields.into_iter().find_map(|f| match f {
                InfoField::Depth(d) => Some(d),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    assert_eq!(depths, [1, 2, 3, 4, 5], "{lines:?}");
    assert!(lines.contains(&"readyok".to_owned()));
    for line in &lines {
        assert!(line.parse::<Message>().is_ok(), "not a UCI message: {line}");
    }
}

#[test]
fn mate_is_reported_in_moves() {
    let lines = session("position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo depth 4\n");
    assert_eq!(best_moves(&lines), [("d1d8".parse().unwrap(), None)]);
    let last_score = messages(&lines).into_iter().rev().find_map(|m| match m {
        Message::Info(fields) => fields.into_iter().find_map(|f| match f {
            InfoField::Score(s) => Some(s.value),
            _ => None,
        }),
        _ => None,
    });
    assert_eq!(last_score, Some(ScoreValue::Mate(1)));
}

#[test]
fn no_legal_move_answers_0000() {
    for fen in [
        "rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", // fool's mate
        "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1",                                // stalemate
    ] {
        for go in ["go depth 5", "go wtime 1000 btime 1000", "go infinite\nstop", "go nodes 1"] {
            let lines = session(&format!("position fen {fen}\n{go}\nquit\n"));
            assert_eq!(best_moves(&lines), [(UciMove::Null, None)], "{fen} {go}: {lines:?}");
        }
    }
}

#[test]
fn every_go_gets_a_legal_bestmove() {
    let position = "position fen r1bqkbnr/pppp1ppp/2n5/4p3/4P3/5N2/PPPP1PPP/RNBQKB1R w KQkq - 2 3";
    let gos = [
        "go wtime 0 btime 0",
        "go wtime 1 btime 1 winc 0 binc 0",
        "go movetime 0",
        "go movetime 20",
        "go nodes 1",
        "go nodes 500",
        "go depth 1",
        "go mate 1",
        "go infinite\nstop",
        "go ponder wtime 100 btime 100\nponderhit",
        "go ponder movetime 10\nstop",
        "go searchmoves a2a3 h2h3 depth 3",
        "go wtime 50 btime 50 winc 10 binc 10 movestogo 1",
    ];
    // With `quit` the search is stopped at once; without it, it runs to its limits.
    for go in gos.iter().flat_map(|go| [format!("{go}\nquit"), go.to_string()]) {
        let lines = session(&format!("{position}\n{go}\n"));
        let best = best_moves(&lines);
        assert_eq!(best.len(), 1, "{go}: {lines:?}");
        assert_legal(position, best[0].0);
        if let Some(ponder) = best[0].1 {
            let after = format!("{position} moves {}", best[0].0);
            assert_legal(&after, ponder);
        }
        if go.contains("searchmoves") {
            assert!(["a2a3", "h2h3"].contains(&best[0].0.to_string().as_str()), "{go}: {lines:?}");
        }
    }
}

#[test]
fn the_end_of_input_finishes_the_search() {
    let lines = session("position startpos\ngo infinite\n");
    assert_eq!(best_moves(&lines).len(), 1, "{lines:?}");
    let lines = session("position startpos\ngo depth 3\n");
    assert_eq!(best_moves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn consecutive_searches_answer_in_order() {
    let script = "position startpos\ngo depth 3\nposition startpos moves d2d4\ngo depth 3\nposition startpos moves d2d4 d7d5\ngo nodes 2000\n";
    let lines = session(script);
    let best = best_moves(&lines);
    assert_eq!(best.len(), 3, "{lines:?}");
    assert_legal("position startpos", best[0].0);
    assert_legal("position startpos moves d2d4", best[1].0);
    assert_legal("position startpos moves d2d4 d7d5", best[2].0);
}

#[test]
fn malformed_lines_are_ignored_with_a_reason() {
    let script = "\
hello
position startpos moves e2e5
position fen 8/8/8/8/8/8/8/8 w - - 0 1
setoption name Hash value lots
setoption name Hash value 0
setoption name Colour value blue
setoption name EvalFile value /nonexistent/rookery.nnue
go depth x
go depth 2
isready
quit
";
    let lines = session(script);
    let ignored = info_strings(&lines);
    assert_eq!(
        ignored,
        [
            "ignored: hello: unknown command \"hello\"",
            "ignored: position startpos moves e2e5: illegal move e2e5 (move 1)",
            "ignored: position fen 8/8/8/8/8/8/8/8 w - - 0 1: illegal position: white has no king",
            "ignored: setoption name Hash value lots: option \"Hash\" takes a whole number from 1 to 65536, not \"lots\"",
            "ignored: setoption name Hash value 0: option \"Hash\" takes a whole number from 1 to 65536, not \"0\"",
            "ignored: setoption name Colour value blue: unknown option \"Colour\"",
            "ignored: setoption name EvalFile value /nonexistent/rookery.nnue: cannot use network /nonexistent/rookery.nnue: No such file or directory (os error 2)",
            "ignored: go depth x: expected a number after \"depth\", found \"x\"",
        ],
        "{lines:?}"
    );
    // The malformed go starts nothing; the next one searches the starting position.
    let best = best_moves(&lines);
    assert_eq!(best.len(), 1);
    assert_legal("position startpos", best[0].0);
}

#[test]
fn a_network_file_is_declared_and_used() {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/../engine/nets/default.nnue");
    let lines = session(&format!(
        "setoption name EvalFile value {file}\nuci\nposition startpos\ngo depth 4\n\
         setoption name EvalFile value <empty>\nuci\nquit\n"
    ));
    assert!(info_strings(&lines).is_empty(), "{lines:?}");
    let declared: Vec<&String> =
        lines.iter().filter(|l| l.starts_with("option name EvalFile type string")).collect();
    assert_eq!(
        declared,
        [
            &format!("option name EvalFile type string default {file}"),
            &"option name EvalFile type string default <empty>".to_owned()
        ],
    );
    assert_eq!(best_moves(&lines).len(), 1, "{lines:?}");
}

#[test]
fn go_perft_counts_like_stockfish() {
    let lines = session("position startpos moves e2e4\ngo perft 3\nquit\n");
    assert_eq!(lines.len(), 22, "{lines:?}");
    assert!(
        lines.contains(&"e7e5: 600".to_owned()) || lines.iter().any(|l| l.starts_with("e7e5: "))
    );
    assert_eq!(lines[20], "");
    assert_eq!(lines[21], "Nodes searched: 13160");
    let kiwipete =
        "position fen r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1";
    let lines = session(&format!("{kiwipete}\ngo perft 3\nquit\n"));
    assert_eq!(lines.last().unwrap(), "Nodes searched: 97862");
    assert!(lines.contains(&"e1g1: 2059".to_owned()), "{lines:?}");
}

#[test]
fn multipv_reports_several_lines() {
    let lines = session("setoption name MultiPV value 3\nposition startpos\ngo depth 4\n");
    let multipvs: Vec<u32> = messages(&lines)
        .into_iter()
        .filter_map(|m| match m {
            Message::Info(fields) => fields.into_iter().find_map(|f| match f {
                InfoField::MultiPv(n) => Some(n),
                _ => None,
            }),
            _ => None,
        })
        .collect();
    assert_eq!(multipvs.len(), 12, "{lines:?}");
    assert_eq!(&multipvs[9..], [1, 2, 3]);
    assert_eq!(best_moves(&lines).len(), 1);
}

#[test]
fn options_and_levels_are_accepted() {
    let script = "\
setoption name hash value 8
setoption name Threads value 2
setoption name Move Overhead value 10
setoption name Ponder value true
setoption name Clear Hash
setoption name UCI_LimitStrength value true
setoption name UCI_Elo value 1200
ucinewgame
position startpos
go depth 3
setoption name UCI_LimitStrength value false
setoption name Skill Level value 3
go wtime 2000 btime 2000
isready
quit
";
    let lines = session(script);
    assert!(info_strings(&lines).is_empty(), "{lines:?}");
    let best = best_moves(&lines);
    assert_eq!(best.len(), 2, "{lines:?}");
    for (m, _) in best {
        assert_legal("position startpos", m);
    }
}

/// The nodes of the last `info … nodes N` line.
fn last_nodes(lines: &[String]) -> Option<u64> {
    messages(lines).into_iter().rev().find_map(|m| match m {
        Message::Info(fields) => fields.into_iter().find_map(|f| match f {
            InfoField::Nodes(n) => Some(n),
            _ => None,
        }),
        _ => None,
    })
}

#[test]
fn the_level_option_names_the_levels_for_people() {
    let declared = session("uci\nquit\n");
    assert!(
        declared.contains(&"option name Level type spin default 0 min 0 max 8".to_owned()),
        "{declared:?}"
    );
    // Level 1 searches 2,000 nodes at most, however long the clock (engine/src/skill.rs).
    let lines = session(
        "setoption name Level value 1\nposition startpos\ngo wtime 600000 btime 600000\nquit\n",
    );
    assert!(info_strings(&lines).is_empty(), "{lines:?}");
    assert_eq!(best_moves(&lines).len(), 1, "{lines:?}");
    let nodes = last_nodes(&lines).expect("an info line with nodes");
    assert!(nodes <= 4_000, "level 1 searched {nodes} nodes: {lines:?}");
    // Level 0 is full strength; 9 is out of range.
    let lines = session("setoption name Level value 0\nsetoption name Level value 9\nquit\n");
    assert_eq!(
        info_strings(&lines),
        ["ignored: setoption name Level value 9: option \"Level\" takes a whole number from 0 to 8, not \"9\""],
    );
}

#[test]
fn bench_prints_the_signature() {
    let lines = session("bench 3\nquit\n");
    let nodes = lines.iter().find_map(|l| l.strip_prefix("Nodes searched  : ")).expect("a total");
    assert!(nodes.parse::<u64>().unwrap() > 0);
    let again = session("bench 3\nquit\n");
    assert_eq!(
        again.iter().find_map(|l| l.strip_prefix("Nodes searched  : ")),
        Some(nodes),
        "the signature is deterministic"
    );
}

#[test]
fn isready_is_answered_during_a_search() {
    let lines = session("position startpos\ngo infinite\nisready\nisready\nstop\nquit\n");
    let ready = lines.iter().filter(|l| *l == "readyok").count();
    assert_eq!(ready, 2);
    let stop_answer = lines.iter().position(|l| l.starts_with("bestmove")).unwrap();
    let last_ready = lines.iter().rposition(|l| l == "readyok").unwrap();
    assert!(last_ready < stop_answer, "isready did not wait for the search: {lines:?}");
}

/// Runs a script on its own thread and fails if the loop has not ended within `seconds`.
fn session_within(script: &'static str, seconds: u64) -> Vec<String> {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(session(script));
    });
    rx.recv_timeout(std::time::Duration::from_secs(seconds))
        .unwrap_or_else(|_| panic!("the loop hung on {script:?}"))
}

/// Issue 41: a command that needs the engine stops the search first, as Stockfish does,
/// instead of waiting for a search that may never end.
#[test]
fn commands_during_a_search_stop_it_first() {
    for script in [
        "uci\ngo\nucinewgame\nisready\nstop\nquit\n",
        "go depth 60\ngo depth 3\n",
        "position fen 6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1\ngo mate 2\nposition startpos\ngo depth 2\n",
        "go movetime 60000\nucinewgame\nisready\n",
        "go\nsetoption name Hash value 2\nposition startpos moves e2e4\ngo depth 1\n",
        "go\nbench 1\n",
    ] {
        let lines = session_within(script, 30);
        let gos = script.lines().filter(|l| l.starts_with("go")).count();
        assert_eq!(best_moves(&lines).len(), gos, "{script:?}: {lines:?}");
        let isready = script.lines().filter(|l| *l == "isready").count();
        assert_eq!(lines.iter().filter(|l| *l == "readyok").count(), isready, "{script:?}");
    }
}

/// Issue 41: a `go` that does not parse starts no search (it used to search without limit).
#[test]
fn a_rejected_go_starts_nothing() {
    let lines = session_within("go depth -1\ngo movetime soon\ngo depth 2 nodes\nisready\n", 10);
    assert!(best_moves(&lines).is_empty(), "{lines:?}");
    assert_eq!(info_strings(&lines).len(), 3, "{lines:?}");
    assert_eq!(lines.last().unwrap(), "readyok");
}

/// Issue 41: at a mated or stalemated root the score comes before `bestmove 0000`, as GUIs
/// expect (Stockfish's `info depth 0 score mate 0` and `score cp 0`).
#[test]
fn a_finished_root_reports_its_score() {
    for (fen, score) in [
        ("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3", "mate 0"),
        ("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1", "cp 0"),
    ] {
        let lines = session(&format!("position fen {fen}\ngo depth 5\n"));
        assert_eq!(lines, [format!("info depth 0 score {score}"), "bestmove 0000".to_owned()]);
    }
}

/// Issue 41: `UCI_ShowWDL` puts the chances after the score of every `info` line, per mille,
/// summing to 1000, the better side's win the likelier.
#[test]
fn show_wdl_reports_the_chances_after_the_score() {
    // Two sessions: a `position` read while the first search runs would stop it (as it
    // must), and how deep it got first would depend on the machine's load.
    let mut lines = session(
        "setoption name UCI_ShowWDL value true\n\
         position fen 4k3/8/8/8/8/8/8/QQQQK3 w - - 0 1\ngo depth 3\n",
    );
    lines.extend(session(
        "setoption name UCI_ShowWDL value true\n\
         position fen rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w KQkq - 1 3\ngo depth 3\n",
    ));
    assert!(info_strings(&lines).is_empty(), "{lines:?}");
    let mut searched = 0;
    for message in messages(&lines) {
        let Message::Info(fields) = message else { continue };
        let score = fields.iter().position(|f| matches!(f, InfoField::Score(_))).unwrap();
        let InfoField::Wdl { win, draw, loss } = fields[score + 1] else {
            panic!("no wdl after the score: {fields:?}")
        };
        assert_eq!(win + draw + loss, 1000, "{fields:?}");
        if fields[0] == InfoField::Depth(0) {
            assert_eq!((win, draw, loss), (0, 0, 1000), "mated: {fields:?}");
        } else {
            searched += 1;
            assert!(win > 900 && loss < 10, "four queens up: {fields:?}");
        }
    }
    assert_eq!(searched, 3, "{lines:?}");
    // Off by default: no wdl.
    let lines = session("position startpos\ngo depth 2\n");
    assert!(lines.iter().all(|l| !l.contains(" wdl ")), "{lines:?}");
}

/// Issue 41: `UCI_AnalyseMode` is accepted and an analysis is at full strength: with level 1
/// set, it searches exactly as level 0 does (one thread: the search is deterministic).
#[test]
fn analyse_mode_searches_at_full_strength() {
    let go = "position startpos moves e2e4 e7e5\ngo depth 7\n";
    let analysis = session(&format!(
        "setoption name Level value 1\nsetoption name UCI_AnalyseMode value true\n{go}"
    ));
    assert!(info_strings(&analysis).is_empty(), "{analysis:?}");
    let full = session(&format!("setoption name Level value 0\n{go}"));
    let limited = session(&format!("setoption name Level value 1\n{go}"));
    assert_eq!(last_nodes(&analysis), last_nodes(&full), "{analysis:?}");
    assert_ne!(last_nodes(&limited), last_nodes(&full), "level 1 is weaker: {limited:?}");
}
