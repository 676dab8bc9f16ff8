//! The position arguments shared by the subcommands that take one: `--fen` and `--960`.
//!
//! A FEN is read as standard chess unless it says it is Chess960 (RULES.md §13) or `--960` says
//! so. It says so when its castling field only makes sense in Chess960: a right written as its
//! rook's file (X-FEN or Shredder-FEN letters, `HAha`, `Bkq`), or a `KQkq` right whose king is
//! not on the e-file or whose rook is not in the corner. Otherwise, a FEN such as the standard
//! start's reads the same in both, but for how castling is written: `e1g1` in standard chess,
//! the king taking its rook (`e1h1`) in Chess960; `--960` chooses the latter.

use rookery_core::{chess960, CastlingMode, FenError, Position, PositionError};

use crate::usage::UsageError;

/// `--fen` and `--960 [N]`, for the subcommands that work on one position.
#[derive(clap::Args, Debug)]
pub struct PositionArgs {
    /// The position (default: the standard start; `startpos` names it too). Read as Chess960
    /// when its castling field only makes sense there: a rook's file (`HAha`, `Bkq`), or a
    /// `KQkq` right with the king off the e-file or the rook off the corner.
    #[arg(long, value_name = "FEN")]
    fen: Option<String>,
    /// Chess960: start position N (0–959; 518 is the standard start); with --fen and no N,
    /// read the FEN as Chess960. Castling is then written as the king taking its rook (e1h1).
    #[arg(long = "960", value_name = "N", num_args = 0..=1, allow_negative_numbers = true,
        value_parser = parse_start_number)]
    chess960: Option<Option<u16>>,
}

impl PositionArgs {
    /// The position the arguments give.
    ///
    /// # Errors
    /// [`UsageError`] naming the FEN's problem, or `--960` given both a number and `--fen`, or
    /// neither.
    pub fn position(&self) -> Result<Position, UsageError> {
        match (self.fen.as_deref(), self.chess960) {
            (fen, None) => parse_position(fen),
            (None, Some(Some(n))) => start_position(n),
            (Some(fen), Some(None)) => read_fen(fen, Some(CastlingMode::Chess960)),
            (Some(_), Some(Some(n))) => Err(fen_and_number(n)),
            (None, Some(None)) => Err(UsageError(
                "--960 needs a start position number N (0 to 959) or a --fen to read as Chess960"
                    .into(),
            )),
        }
    }
}

/// The error of `--960 N` given with `--fen`: two positions.
pub fn fen_and_number(n: u16) -> UsageError {
    UsageError(format!(
        "--960 {n} and --fen both give the position: use one (--960 alone reads the FEN as \
         Chess960)"
    ))
}

/// Reads `--960 N`: a Chess960 start position number.
///
/// # Errors
/// The text, when it is not a number from 0 to 959.
pub fn parse_start_number(text: &str) -> Result<u16, String> {
    let last = chess960::COUNT - 1;
    match text.trim().parse::<u16>() {
        Ok(n) if n < chess960::COUNT => Ok(n),
        _ => Err(format!(
            "{text:?} is no Chess960 start position: expected a number from 0 to {last}"
        )),
    }
}

/// Chess960 start position `n`.
///
/// # Errors
/// [`UsageError`] naming `n` and the range, for a number from 960 on.
pub fn start_position(n: u16) -> Result<Position, UsageError> {
    chess960::position(n).ok_or_else(|| {
        UsageError(format!("bad --960 {n}: expected a start position number from 0 to 959"))
    })
}

/// The position of a `--fen` argument, or the starting position when there is none or it is
/// `startpos` (UCI's name for it, which GUI users type); in Chess960 when the FEN says so
/// (see the module's documentation).
///
/// # Errors
/// [`UsageError`] naming the FEN problem.
pub fn parse_position(fen: Option<&str>) -> Result<Position, UsageError> {
    match fen {
        None => Ok(Position::new()),
        Some(fen) => read_fen(fen, None),
    }
}

/// Reads a FEN in `mode`, or in the mode it says it is in when `None`.
///
/// # Errors
/// [`UsageError`] naming the FEN problem.
pub fn read_fen(fen: &str, mode: Option<CastlingMode>) -> Result<Position, UsageError> {
    let text = fen.trim();
    let mode = mode.unwrap_or_else(|| castling_mode_of(text));
    if text == "startpos" {
        return match mode {
            CastlingMode::Standard => Ok(Position::new()),
            CastlingMode::Chess960 => start_position(chess960::STANDARD),
        };
    }
    Position::from_fen_in(text, mode).map_err(|e| UsageError(e.to_string()))
}

/// The castling mode a FEN says it is in: Chess960 when its castling field names a rook by its
/// file, or gives a right that standard chess refuses and Chess960 accepts.
pub fn castling_mode_of(fen: &str) -> CastlingMode {
    let field = fen.split_ascii_whitespace().nth(2).unwrap_or("-");
    if field.bytes().any(|b| matches!(b.to_ascii_lowercase(), b'a'..=b'h')) {
        return CastlingMode::Chess960;
    }
    let standard_refuses = matches!(
        Position::from_fen(fen),
        Err(FenError::Position(PositionError::InvalidCastlingRight(_)))
    );
    if standard_refuses && Position::from_fen_in(fen, CastlingMode::Chess960).is_ok() {
        CastlingMode::Chess960
    } else {
        CastlingMode::Standard
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_castling_field_says_chess960() {
        let cases = [
            // Standard chess: the standard rights, or none.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", CastlingMode::Standard),
            ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", CastlingMode::Standard),
            // Shredder-FEN letters, even for the standard geometry.
            ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w HAha - 0 1", CastlingMode::Chess960),
            // X-FEN: the inner of two rooks on the king's left.
            ("rk2r3/8/8/8/8/8/8/RK2R3 w Ekq - 0 1", CastlingMode::Chess960),
            // `KQkq` with the king on g1: only Chess960 has that right.
            ("bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1", CastlingMode::Chess960),
            // An illegal FEN stays standard, whose error is then reported.
            ("8/8/8/8/8/8/8/8 w KQkq - 0 1", CastlingMode::Standard),
        ];
        for (fen, mode) in cases {
            assert_eq!(castling_mode_of(fen), mode, "{fen}");
            if let Ok(pos) = read_fen(fen, None) {
                assert_eq!(pos.castling_mode(), mode, "{fen}");
            }
        }
        let pos = read_fen("startpos", Some(CastlingMode::Chess960)).unwrap();
        assert_eq!(pos, chess960::position(518).unwrap());
        assert_eq!(parse_position(Some(" startpos ")).unwrap(), Position::new());
    }

    #[test]
    fn start_numbers_name_the_range() {
        assert_eq!(parse_start_number("0"), Ok(0));
        assert_eq!(parse_start_number("959"), Ok(959));
        for bad in ["960", "-1", "x", "65536"] {
            let e = parse_start_number(bad).unwrap_err();
            assert!(e.contains(&format!("{bad:?}")) && e.contains("0 to 959"), "{e}");
        }
    }

    #[test]
    fn fen_and_numbers_combine_as_documented() {
        let args =
            |fen: Option<&str>, chess960| PositionArgs { fen: fen.map(str::to_owned), chess960 };
        let standard = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
        assert_eq!(args(None, None).position().unwrap(), Position::new());
        assert_eq!(args(Some(standard), None).position().unwrap(), Position::new());
        let as960 = args(Some(standard), Some(None)).position().unwrap();
        assert_eq!(as960, chess960::position(518).unwrap());
        assert_eq!(args(None, Some(Some(0))).position().unwrap(), chess960::position(0).unwrap());
        let e = args(Some(standard), Some(Some(3))).position().unwrap_err();
        assert!(e.0.starts_with("--960 3 and --fen both give the position"), "{}", e.0);
        let e = args(None, Some(None)).position().unwrap_err();
        assert!(e.0.starts_with("--960 needs a start position number"), "{}", e.0);
    }
}
