//! Round trips over recorded UCI sessions: every line parses, formats, and parses again to
//! the same value; lines in canonical form format back to the same text.

use rookery_uci::{Command, Message};

/// The `>` (to the engine) and `<` (from the engine) lines of a recorded session, with their
/// line numbers; `#` lines are comments.
fn session(name: &str) -> Vec<(usize, char, String)> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.starts_with('#') && !l.is_empty())
        .map(|(i, l)| {
            let mut chars = l.chars();
            let dir = chars.next().unwrap();
            assert!(dir == '>' || dir == '<', "{name}:{}: no direction: {l}", i + 1);
            (i + 1, dir, chars.as_str().to_owned())
        })
        .collect()
}

fn round_trip(name: &str, exact: bool) -> (usize, usize) {
    let (mut commands, mut messages) = (0, 0);
    for (n, dir, text) in session(name) {
        let formatted = if dir == '>' {
            commands += 1;
            let cmd: Command = text.parse().unwrap_or_else(|e| panic!("{name}:{n}: {e}: {text}"));
            let again: Command = cmd.to_string().parse().unwrap();
            assert_eq!(cmd, again, "{name}:{n}: {text}");
            cmd.to_string()
        } else {
            messages += 1;
            let msg: Message = text.parse().unwrap_or_else(|e| panic!("{name}:{n}: {e}: {text}"));
            let again: Message = msg.to_string().parse().unwrap();
            assert_eq!(msg, again, "{name}:{n}: {text}");
            msg.to_string()
        };
        if exact {
            assert_eq!(formatted, text, "{name}:{n}");
        }
    }
    (commands, messages)
}

#[test]
fn stockfish_session_round_trips() {
    let (commands, messages) = round_trip("stockfish-15.1.log", false);
    assert!(commands > 20 && messages > 100, "{commands} {messages}");
}

#[test]
fn rookery_session_round_trips_exactly() {
    let (commands, messages) = round_trip("rookery.log", true);
    assert!(commands > 20 && messages > 50, "{commands} {messages}");
}

#[test]
fn stockfish_lines_that_format_differently() {
    // Stockfish writes an empty string default as nothing at all; UCI's spelling is <empty>.
    let msg: Message = "option name Debug Log File type string default ".parse().unwrap();
    assert_eq!(msg.to_string(), "option name Debug Log File type string default <empty>");
    let msg: Message = "bestmove (none)".parse().unwrap();
    assert_eq!(msg.to_string(), "bestmove 0000");
}

/// Issue 41's behaviour, recorded: every line round-trips exactly, and the session answers
/// every accepted `go` with exactly one `bestmove` and every `isready` with `readyok`.
#[test]
fn issue_41_session_round_trips_exactly() {
    let (commands, messages) = round_trip("rookery-issue-41.log", true);
    assert!(commands > 15 && messages > 30, "{commands} {messages}");
    let lines = session("rookery-issue-41.log");
    let count = |dir: char, pred: &dyn Fn(&str) -> bool| {
        lines.iter().filter(|(_, d, text)| *d == dir && pred(text)).count()
    };
    let gos = count('>', &|t| t.starts_with("go ") && t.parse::<Command>().is_ok());
    assert_eq!(count('<', &|t| t.starts_with("bestmove")), gos);
    assert_eq!(count('<', &|t| t == "readyok"), count('>', &|t| t == "isready"));
    assert_eq!(count('<', &|t| t.contains(" wdl ")), count('<', &|t| t.contains(" score ")));
}
