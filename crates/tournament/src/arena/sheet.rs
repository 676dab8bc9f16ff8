//! Arena scoring: 2 points a win, 1 a draw, 0 a loss (RULES.md §12), with lichess's two
//! optional extras, each a switch of the arena (lila `modules/tournament/.../arena/
//! ArenaSheet.scala`, and lichess's arena FAQ):
//!
//! - Streaks ("on fire"): after two wins in a row, every game scores double (a win 4, a
//!   draw 2) until a game is not won. Only counted games make or break a streak.
//! - Berserk: a player who gave up half the clock (and the increment) gets one extra point
//!   for a win of at least 7 moves (14 plies), so that a quick flag or resignation does not
//!   pay. The bonus is not doubled.
//!
//! lichess has two more draw rules (a draw in under 10 moves scores nothing; of consecutive
//! short draws only the first scores) that RULES.md does not ask for; they are not here.

use std::fmt;

use rookery_core::Color;

use super::GameId;
use crate::model::{Outcome, PlayerId};

/// The fewest plies a won berserk game needs for its bonus point: 7 moves each side, as
/// lichess counts it (lila `Pairing.notSoQuickFinish`: 14 turns).
pub const BERSERK_MIN_PLIES: u32 = 14;

/// Arena points (not tenths: an arena scores whole points).
pub type ArenaPoints = u32;

/// One counted game on a player's sheet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct SheetEntry {
    /// The game.
    pub game: GameId,
    /// The opponent.
    pub opponent: PlayerId,
    /// The player's colour.
    pub colour: Color,
    /// Win, draw or loss, for this player.
    pub outcome: Outcome,
    /// The number of half-moves the game had.
    pub plies: u32,
    /// What the game scored, bonus included.
    pub points: ArenaPoints,
    /// Scored double: the player was on fire (two wins running before it).
    pub doubled: bool,
    /// The player went berserk in this game.
    pub berserk: bool,
    /// The berserk point was earned (a win of at least [`BERSERK_MIN_PLIES`]).
    pub berserk_bonus: bool,
}

impl fmt::Display for SheetEntry {
    /// The points, then `*` when they were doubled and `+` when they include the berserk
    /// point: `2`, `4*`, `5*+`, `3+`, `0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.points)?;
        if self.doubled {
            f.write_str("*")?;
        }
        if self.berserk_bonus {
            f.write_str("+")?;
        }
        Ok(())
    }
}

/// A player's counted games, first game first.
#[derive(Clone, PartialEq, Eq, Hash, Debug, Default)]
pub struct Sheet(pub Vec<SheetEntry>);

impl Sheet {
    /// The sum of the entries' points: the player's score.
    pub fn total(&self) -> ArenaPoints {
        self.0.iter().map(|entry| entry.points).sum()
    }

    /// Whether the last two counted games were wins: with streaks on, the next game scores
    /// double.
    pub fn is_on_fire(&self) -> bool {
        matches!(
            self.0.as_slice(),
            [.., a, b] if a.outcome == Outcome::Win && b.outcome == Outcome::Win
        )
    }

    /// The performance rating over the games on the sheet: the average of each opponent's
    /// rating plus 500 for a win and minus 500 for a loss (lila `Performance.scala`, after
    /// the linear approximation of the Elo performance), or `None` without games.
    pub fn performance(&self, rating_of: impl Fn(PlayerId) -> u16) -> Option<i32> {
        let games = i64::try_from(self.0.len()).ok().filter(|&n| n > 0)?;
        let sum: i64 = self
            .0
            .iter()
            .map(|entry| {
                let swing = match entry.outcome {
                    Outcome::Win => 500,
                    Outcome::Draw => 0,
                    Outcome::Loss => -500,
                };
                i64::from(rating_of(entry.opponent)) + swing
            })
            .sum();
        i32::try_from(sum / games).ok()
    }
}

impl fmt::Display for Sheet {
    /// The entries, space-separated, first game first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, entry) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{entry}")?;
        }
        Ok(())
    }
}

/// The extras an arena scores with.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub(super) struct Extras {
    pub streaks: bool,
    pub berserk: bool,
}

/// The entry a finished game adds to a sheet.
pub(super) struct Game {
    pub game: GameId,
    pub opponent: PlayerId,
    pub colour: Color,
    pub outcome: Outcome,
    pub plies: u32,
    pub berserk: bool,
}

/// Scores `game` for the player whose sheet is `sheet` (before the game).
pub(super) fn score(extras: Extras, sheet: &Sheet, game: Game) -> SheetEntry {
    let doubled = extras.streaks && sheet.is_on_fire() && game.outcome != Outcome::Loss;
    let base = match game.outcome {
        Outcome::Win => 2,
        Outcome::Draw => 1,
        Outcome::Loss => 0,
    };
    let berserk_bonus = extras.berserk
        && game.berserk
        && game.outcome == Outcome::Win
        && game.plies >= BERSERK_MIN_PLIES;
    SheetEntry {
        game: game.game,
        opponent: game.opponent,
        colour: game.colour,
        outcome: game.outcome,
        plies: game.plies,
        points: if doubled { 2 * base } else { base } + ArenaPoints::from(berserk_bonus),
        doubled,
        berserk: game.berserk,
        berserk_bonus,
    }
}
