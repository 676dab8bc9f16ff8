//! The game record of a board played over the board (RULES.md §12, "Over the board"): its
//! PGN, from the tournament's tags and the moves typed from the paper scoresheet (none until
//! someone types them), with the opening's name as an online game's record has it; and the
//! check that typed moves agree with the board's result (issue 53).

use rookery_core::scoresheet;
use rookery_core::{Color, GameResult, Move, Position, SanPlus};
use rookery_pgn::Writer;
use rookery_tournament::competition::BoardResult;

use crate::refusal::TournamentRefusal;

/// A board's record as saved: the answer to the moves typed (docs/api.md).
#[derive(Clone, Debug, serde::Serialize)]
pub struct SavedRecord {
    /// The game's id (`GET /api/v1/games/{id}` shows it).
    pub game: String,
    /// The number of half-moves saved.
    pub plies: usize,
    /// The record in PGN, as the game's and the tournament's exports give it.
    pub pgn: String,
}

/// What a board's record says besides its moves.
#[derive(Clone, Debug)]
pub struct BoardTags<'a> {
    /// The tournament's name.
    pub event: &'a str,
    /// The round.
    pub round: u32,
    /// The board.
    pub board: u32,
    /// White's name.
    pub white: &'a str,
    /// Black's name.
    pub black: &'a str,
    /// The game's result as stored (the desk's).
    pub result: GameResult,
}

/// The start of a board's game: the round's Chess960 start, else the standard position.
pub fn start_of(chess960: Option<u16>) -> Position {
    chess960.and_then(rookery_core::chess960::position).unwrap_or_default()
}

/// The board's record in PGN: the tags (a Chess960 start as `[Variant]`, `[SetUp]` and
/// `[FEN]`, which the PGN reader reads back), `[ECO]` and `[Opening]` when the moves reach a
/// named opening, then the moves and the result.
pub fn board_pgn(tags: &BoardTags<'_>, start: &Position, moves: &[Move]) -> String {
    let mut pairs: Vec<(&str, String)> = vec![
        ("Event", tags.event.to_owned()),
        ("Site", "over the board".to_owned()),
        ("Round", format!("{}.{}", tags.round, tags.board)),
        ("White", tags.white.to_owned()),
        ("Black", tags.black.to_owned()),
        ("Result", tags.result.as_str().to_owned()),
    ];
    if start.is_chess960() {
        pairs.push(("Variant", "Chess960".to_owned()));
        pairs.push(("SetUp", "1".to_owned()));
        pairs.push(("FEN", start.to_fen()));
    }
    if let Some(o) = rookery_openings::of_game(start, moves) {
        pairs.push(("ECO", o.eco.to_owned()));
        pairs.push(("Opening", o.name.to_owned()));
    }
    let mut w = Writer::new(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.tags(&pairs);
    w.set_start(start.fullmoves(), start.turn());
    let mut pos = *start;
    for &m in moves {
        let _ = w.san(&SanPlus::from_move(&pos, m));
        pos.play_unchecked(m);
    }
    let _ = w.end_game(tags.result);
    String::from_utf8_lossy(&w.into_inner()).into_owned()
}

/// Reads a board's typed move list from `start` and checks its end against the board's
/// `result`: a mate must be the winner's, a stalemate a draw (RULES.md §5). The moves, or the
/// refusal naming the first bad move by its number and text, or the contradiction.
///
/// # Errors
/// [`TournamentRefusal::BadMove`], [`TournamentRefusal::ContradictsResult`].
pub fn read_board_moves(
    start: &Position,
    text: &str,
    result: BoardResult,
) -> Result<Vec<Move>, TournamentRefusal> {
    let moves = scoresheet::read_moves(start, text).map_err(TournamentRefusal::BadMove)?;
    let mut end = *start;
    moves.iter().for_each(|&m| end.play_unchecked(m));
    let ending = if end.is_checkmate() {
        let winner = !end.turn();
        let agrees = matches!(
            (winner, result),
            (Color::White, BoardResult::WhiteWon) | (Color::Black, BoardResult::BlackWon)
        );
        (!agrees).then_some(if winner == Color::White {
            "checkmate, White winning"
        } else {
            "checkmate, Black winning"
        })
    } else if end.is_stalemate() {
        (result != BoardResult::Draw).then_some("stalemate, a draw")
    } else {
        None
    };
    match ending {
        Some(ending) => Err(TournamentRefusal::ContradictsResult {
            ending,
            result: crate::log::result_name(result),
        }),
        None => Ok(moves),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tags(result: GameResult) -> BoardTags<'static> {
        BoardTags { event: "Hall", round: 2, board: 3, white: "Ada", black: "Ben", result }
    }

    #[test]
    fn a_record_carries_its_moves_and_opening() {
        let start = start_of(None);
        let moves =
            read_board_moves(&start, "1. e4 e5 2. nf3 nc6 3. Bb5", BoardResult::WhiteWon).unwrap();
        let pgn = board_pgn(&tags(GameResult::Win(Color::White)), &start, &moves);
        assert!(pgn.contains("[Round \"2.3\"]"), "{pgn}");
        assert!(pgn.contains("[Opening \"Ruy Lopez"), "{pgn}");
        assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 1-0"), "{pgn}");
        let tags_only = board_pgn(&tags(GameResult::Draw), &start, &[]);
        assert!(!tags_only.contains("Opening"), "{tags_only}");
        assert!(tags_only.trim_end().ends_with("1/2-1/2"), "{tags_only}");
    }

    #[test]
    fn a_mate_or_stalemate_must_agree_with_the_result() {
        let start = start_of(None);
        let mate = "1. f3 e5 2. g4 Qh4#";
        assert!(read_board_moves(&start, mate, BoardResult::BlackWon).is_ok());
        let e = read_board_moves(&start, mate, BoardResult::Draw).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the moves end in checkmate, Black winning, but the board's result is 1/2-1/2"
        );
        let e = read_board_moves(&start, "1. e4 e5 2. Ke3", BoardResult::Draw).unwrap_err();
        assert_eq!(e.to_string(), "move 2. \"Ke3\" is not legal here: no piece can go there");
    }

    #[test]
    fn a_chess960_record_starts_from_its_round_start() {
        let start = start_of(Some(0));
        assert!(start.is_chess960());
        let moves = read_board_moves(&start, "1. g3 g6", BoardResult::Draw).unwrap();
        let pgn = board_pgn(&tags(GameResult::Draw), &start, &moves);
        assert!(pgn.contains("[Variant \"Chess960\"]"), "{pgn}");
        assert!(pgn.contains("[FEN \"bbqnnrkr/"), "{pgn}");
        let line = rookery_pgn::read_main_line(&pgn, Default::default()).unwrap().unwrap();
        assert_eq!(line.plies.len(), 2);
    }
}
