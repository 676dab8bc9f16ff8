//! Zobrist keys against the test vectors of the Polyglot book format specification
//! (`tests/data/polyglot_keys.txt`, source cited there): from the FEN, and incrementally by
//! playing the moves from the start.

use rookery_core::{Move, Position};

fn find_move(pos: &Position, uci: &str) -> Move {
    *pos.legal_moves()
        .iter()
        .find(|m| m.to_uci() == uci)
        .unwrap_or_else(|| panic!("{uci} is not legal in {}", pos.to_fen()))
}

#[test]
fn keys_match_the_polyglot_specification() {
    let text = include_str!("data/polyglot_keys.txt");
    let mut moves_line: Option<&str> = None;
    let mut checked = 0;
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix("# ") {
            moves_line = Some(comment);
            continue;
        }
        let Some((fen, key)) = line.split_once(";key") else { continue };
        let expected = u64::from_str_radix(key.trim(), 16).expect("hex key");
        let pos: Position = fen.trim().parse().unwrap_or_else(|e| panic!("{e}: {fen}"));
        assert_eq!(pos.zobrist(), expected, "key of {fen}");
        let mut played = Position::new();
        if let Some(moves) = moves_line.filter(|m| !m.contains("start position")) {
            for uci in moves.split_whitespace().take_while(|w| !w.starts_with('(')) {
                played.play_unchecked(find_move(&played, uci));
            }
        }
        assert_eq!(played.zobrist(), expected, "incremental key after {moves_line:?}");
        checked += 1;
    }
    assert!(checked >= 9, "only {checked} vectors");
}
