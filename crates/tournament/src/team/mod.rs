//! Team competitions (RULES.md §12, "Teams"; issue 54): teams with boards and reserves, the
//! line-ups captains field, matches whose board results roll up into game and match points,
//! the team round robin over the Berger tables, the team Swiss system of FIDE C.04.6 (2026),
//! team standings with C.07 tie-breaks, and a board prize table.
//!
//! - [`roster`]: [`Team`], [`TeamPlayer`], [`LineUp`] and their errors.
//! - [`scoring`]: [`BoardResult`], [`BoardColours`], [`TeamScoring`] (match points 2/1/0 or
//!   as set, the primary score, the bye).
//! - [`competition`]: [`TeamCompetition`], [`TeamRound`], [`TeamMatch`], checked as rounds
//!   are added.
//! - [`round_robin`]: Berger tables over teams.
//! - [`swiss`] with [`colour`] (and the private `bracket`, the search of Art. 3.6): C.04.6.
//! - [`standings`]: ranking with team tie-breaks; [`board_prizes`]: results per board.
//! - [`text`]: a small text format for a team Swiss, read by `rookery pair --team-swiss`.
//!
//! Time is not read here: a line-up's deadline is the caller's to enforce (the competition
//! host knows the clock); what this module checks is the line-up itself.

pub mod board_prizes;
mod bracket;
pub mod colour;
pub mod competition;
pub mod roster;
pub mod round_robin;
pub mod scoring;
pub mod standings;
pub mod swiss;
pub mod text;

pub use competition::{TeamCompetition, TeamCompetitionError, TeamEntry, TeamMatch, TeamRound};
pub use roster::{
    by_rating, LineUp, LineUpError, Team, TeamError, TeamId, TeamPlayer, DEFAULT_BOARDS,
};
pub use scoring::{
    BoardColours, BoardResult, ByeGamePoints, PrimaryScore, RoundScore, TeamScoring,
};

use std::fmt;

/// The pairing of one round of a team competition.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TeamPairing {
    /// The matches, table 1 first: (the team with White on board 1, the other).
    pub matches: Vec<(TeamId, TeamId)>,
    /// The team with the pairing-allocated bye.
    pub bye: Option<TeamId>,
}

impl fmt::Display for TeamPairing {
    /// `1-4 2-3 (bye 5)`: the teams by number, White on board 1 first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (white, black)) in self.matches.iter().enumerate() {
            let sep = if i == 0 { "" } else { " " };
            write!(f, "{sep}{white}-{black}")?;
        }
        if let Some(bye) = self.bye {
            let sep = if self.matches.is_empty() { "" } else { " " };
            write!(f, "{sep}(bye {bye})")?;
        }
        Ok(())
    }
}
