//! Team round robin: the Berger tables of [`crate::berger`] over teams.
//!
//! A Berger game `a-b` becomes the match in which `a`, the team named first, has White on
//! board 1; with [`BoardColours::Alternating`](super::BoardColours) it has White on the odd
//! boards (1, 3, …) and Black on the even ones, its opponent the reverse. That is how the
//! Olympiad and most team regulations read the tables (the first-named team is the "home"
//! team). Regulations that give the first-named team Black on board 1 set
//! [`RoundRobinSettings::first_named`] to Black. Over a single cycle a team is first-named in
//! about half its matches, so its board-1 colours alternate as the tables alternate a
//! player's colours; the second cycle of a double round robin reverses every match.

use rookery_core::Color;

use super::roster::TeamId;
use super::TeamPairing;
use crate::berger::{self, BergerError, Cycles};

/// How a team round robin gives colours.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct RoundRobinSettings {
    /// Single or double.
    pub cycles: Cycles,
    /// The colour the first-named team of a Berger game has on board 1.
    pub first_named: Color,
}

impl Default for RoundRobinSettings {
    fn default() -> RoundRobinSettings {
        RoundRobinSettings { cycles: Cycles::Single, first_named: Color::White }
    }
}

/// The number of rounds of a round robin of `teams` teams.
///
/// # Errors
///
/// If `teams` is under 2 or over [`berger::MAX_PLAYERS`].
pub fn rounds(teams: u32, settings: RoundRobinSettings) -> Result<u32, BergerError> {
    berger::rounds(teams, settings.cycles)
}

/// Round `round` (from 1) of a round robin of `teams` teams numbered by their initial order:
/// the matches, table 1 first, each with the team that has White on board 1 first, and the
/// team with the bye when the number is odd.
///
/// # Errors
///
/// As [`berger::round_pairing`].
///
/// # Examples
///
/// ```
/// use rookery_tournament::team::{round_robin, TeamId};
///
/// let round = round_robin::round(4, Default::default(), 1)?;
/// let id = |n| TeamId::new(n).unwrap();
/// assert_eq!(round.matches, [(id(1), id(4)), (id(2), id(3))]);
/// # Ok::<(), rookery_tournament::berger::BergerError>(())
/// ```
pub fn round(
    teams: u32,
    settings: RoundRobinSettings,
    round: u32,
) -> Result<TeamPairing, BergerError> {
    let pairing = berger::round_pairing(teams, settings.cycles, round)?;
    let id = |p: crate::PlayerId| TeamId::new(p.get()).expect("Berger numbers start at 1");
    let matches = pairing
        .pairs
        .iter()
        .map(|pair| match settings.first_named {
            Color::White => (id(pair.white), id(pair.black)),
            Color::Black => (id(pair.black), id(pair.white)),
        })
        .collect();
    Ok(TeamPairing { matches, bye: pairing.bye.map(id) })
}

/// Every round of a round robin of `teams` teams, round 1 first.
///
/// # Errors
///
/// As [`round`].
pub fn schedule(teams: u32, settings: RoundRobinSettings) -> Result<Vec<TeamPairing>, BergerError> {
    (1..=rounds(teams, settings)?).map(|r| round(teams, settings, r)).collect()
}
