//! `UCI_Chess960` (RULES.md §13): with it on, positions are read as Chess960 and castling is
//! written as the king taking its own rook (`e1h1`), in `bestmove`, `info pv` and `go perft`;
//! with it off, standard chess as before, and a FEN whose castling only Chess960 allows is
//! read as Chess960 with a note.

use rookery_core::{CastlingMode, Position};
use rookery_uci::{run, InfoField, Message, UciMove};

/// Runs a script and returns the output lines.
fn session(script: &str) -> Vec<String> {
    let out = run(script.as_bytes(), Vec::new()).expect("in-memory I/O does not fail");
    String::from_utf8(out).expect("UTF-8 output").lines().map(str::to_owned).collect()
}

fn best_moves(lines: &[String]) -> Vec<String> {
    lines.iter().filter_map(|l| l.strip_prefix("bestmove ")).map(|m| m[..4].to_owned()).collect()
}

fn info_strings(lines: &[String]) -> Vec<String> {
    lines.iter().filter_map(|l| l.strip_prefix("info string ")).map(str::to_owned).collect()
}

/// The `pv` lines of the `info` messages.
fn pvs(lines: &[String]) -> Vec<Vec<UciMove>> {
    lines
        .iter()
        .filter_map(|l| match l.parse::<Message>() {
            Ok(Message::Info(fields)) => fields.into_iter().find_map(|f| match f {
                InfoField::Pv(pv) => Some(pv),
                _ => None,
            }),
            _ => None,
        })
        .collect()
}

const ON: &str = "setoption name UCI_Chess960 value true\n";
/// The Italian game with both sides ready to castle short.
const ITALIAN: &str = "position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6\n";

#[test]
fn declared_off_by_default() {
    let lines = session("uci\n");
    assert!(lines.contains(&"option name UCI_Chess960 type check default false".to_owned()));
}

#[test]
fn castling_is_written_as_the_king_taking_its_rook() {
    let standard = session(&format!("{ITALIAN}go perft 1\n"));
    assert!(standard.contains(&"e1g1: 1".to_owned()), "{standard:?}");
    assert!(!standard.iter().any(|l| l.starts_with("e1h1")), "{standard:?}");
    let chess960 = session(&format!("{ON}{ITALIAN}go perft 1\n"));
    assert!(chess960.contains(&"e1h1: 1".to_owned()), "{chess960:?}");
    assert!(!chess960.iter().any(|l| l.starts_with("e1g1")), "{chess960:?}");
    assert_eq!(standard.last(), chess960.last(), "the same count: {chess960:?}");
}

/// A GUI may send castling either way; in Chess960 mode both name the same move.
#[test]
fn castling_is_read_in_either_notation() {
    for castle in ["e1h1", "e1g1"] {
        let lines = session(&format!(
            "{ON}position startpos moves e2e4 e7e5 g1f3 b8c6 f1c4 g8f6 {castle} f8c5\ngo perft 1\n"
        ));
        assert!(info_strings(&lines).is_empty(), "{castle}: {lines:?}");
        // After castling White has no castling left: the king on g1, the rook on f1.
        assert!(lines.contains(&"g1h1: 1".to_owned()), "{castle}: {lines:?}");
        assert!(lines.contains(&"f1e1: 1".to_owned()), "{castle}: {lines:?}");
    }
}

/// Mates in one by castling (each checked in rookery-engine's tests/chess960.rs to be the
/// only one): the king standing still on g1, the king on b1 castling long, the rook staying
/// on f1 while the king leaves the first rank open (in X-FEN and in Shredder-FEN).
#[test]
fn the_only_mate_is_castling_and_is_answered_king_takes_rook() {
    for (fen, mate) in [
        ("4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1", "g1h1"),
        ("2rkr3/2p1p3/8/8/8/8/8/RK6 w Q - 0 1", "b1a1"),
        ("8/8/8/8/8/B1N5/PP1PPP2/k3KR2 w F - 0 1", "e1f1"),
    ] {
        let lines = session(&format!("{ON}position fen {fen}\ngo depth 3\n"));
        assert_eq!(best_moves(&lines), [mate], "{fen}: {lines:?}");
        assert!(lines.iter().any(|l| l.contains(" score mate 1 ")), "{fen}: {lines:?}");
        let pos = Position::from_fen_in(fen, CastlingMode::Chess960).unwrap();
        for pv in pvs(&lines) {
            assert!(pv[0].to_move(&pos).is_ok(), "{fen}: {pv:?}");
            assert_eq!(pv[0].to_string(), mate, "{fen}: {lines:?}");
        }
    }
}

/// With the option off, a FEN whose castling rights fit only Chess960 is still read, as
/// Chess960, and said so once however often the GUI sends it; castling comes king-takes-rook.
#[test]
fn a_chess960_fen_without_the_option_is_read_as_chess960_with_a_note() {
    let fen = "4rkr1/4p1p1/8/8/8/8/8/6KR w K - 0 1";
    let lines = session(&format!("position fen {fen}\nposition fen {fen}\ngo depth 3\n"));
    assert_eq!(
        info_strings(&lines),
        [format!(
            "FEN {fen} has castling rights only Chess960 allows: read as Chess960, castling \
             written as the king taking its rook (set UCI_Chess960 to say so)"
        )],
        "{lines:?}"
    );
    assert_eq!(best_moves(&lines), ["g1h1"], "{lines:?}");
    // With the option on there is nothing to say; a standard FEN needs no note either.
    let quiet = session(&format!("{ON}position fen {fen}\nposition startpos\n"));
    assert!(info_strings(&quiet).is_empty(), "{quiet:?}");
    // A FEN wrong in both modes is refused with the standard reading's reason.
    let bad = "position fen 4k3/8/8/8/8/8/8/R3K3 w Kq - 0 1";
    let lines = session(&format!("{bad}\n"));
    assert_eq!(
        info_strings(&lines),
        [format!(
            "ignored: {bad}: illegal position: castling right K without the king and rook on \
             their starting squares"
        )],
        "{lines:?}"
    );
}

/// Turning the option on or off rewrites the current position's castling when its rights
/// fit, so that `go` answers in the notation just asked for.
#[test]
fn the_option_applies_to_the_current_position() {
    let lines = session(&format!("{ITALIAN}{ON}go perft 1\n"));
    assert!(lines.contains(&"e1h1: 1".to_owned()), "{lines:?}");
    let off = "setoption name UCI_Chess960 value false\n";
    let lines = session(&format!("{ON}{ITALIAN}{off}go perft 1\n"));
    assert!(lines.contains(&"e1g1: 1".to_owned()), "{lines:?}");
    let bad = session("setoption name UCI_Chess960 value yes\n");
    assert_eq!(
        info_strings(&bad),
        ["ignored: setoption name UCI_Chess960 value yes: option \"UCI_Chess960\" takes true or false, not \"yes\""]
    );
}
