//! The `--fen` argument shared by several subcommands.

use rookery_core::Position;

use crate::usage::UsageError;

/// The position of a `--fen` argument, or the starting position when there is none or it is
/// `startpos` (UCI's name for it, which GUI users type).
///
/// # Errors
/// [`UsageError`] naming the FEN problem.
pub fn parse_position(fen: Option<&str>) -> Result<Position, UsageError> {
    match fen.map(str::trim) {
        None | Some("startpos") => Ok(Position::new()),
        Some(text) => Position::from_fen(text).map_err(|e| UsageError(e.to_string())),
    }
}
