//! Accelerated pairings by the Baku method (FIDE Handbook C.04.5.1, "Baku Acceleration
//! Method"): virtual points added to the scores of the stronger half for pairing only, in the
//! first half of the tournament, so that the top players meet one another sooner.
//!
//! The method, article by article:
//! - *Premise*: the standard scoring, one point a win and half a point a draw.
//! - *Initial groups division*: before round 1 the players to be paired, in pairing-number
//!   order, are split in two: GA holds the first half rounded up to an even number (`2·⌈n/4⌉`;
//!   161 players give 82), GB the rest.
//! - *Late entries*: a player entered after round 1 takes the place C.04.2 gives him in the
//!   list; the last GA player stays the one of round 1, so GA is every player up to him
//!   ([`Baku::last_ga`]).
//! - *Virtual points*: the accelerated rounds are the first half of the tournament, rounded up;
//!   GA players have one virtual point when the first half (rounded up) of them is paired, half
//!   a point for the rest, GB players never. A nine-round event: 1, 1, 1, ½, ½, then none.
//!
//! The points are [`Acceleration`]s, the tournament's TRF `250` records: [`apply`] writes them
//! into a [`Tournament`], after which any pairing engine of the crate pairs with them and
//! [`crate::trf::write`] records them.

use std::fmt;

use crate::model::{Acceleration, PlayerId, Scoring, Tournament};
use crate::score::Score;

/// The Baku acceleration of one tournament: who is in GA and how many rounds it lasts.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Baku {
    /// The last player of group GA: GA is every player with a pairing number up to his, GB
    /// every player after.
    pub last_ga: PlayerId,
    /// The number of rounds of the tournament.
    pub rounds: u32,
}

impl Baku {
    /// The groups as they are drawn before round 1 from `players` players to be paired, for a
    /// tournament of `rounds` rounds; `None` without players.
    pub fn new(players: u32, rounds: u32) -> Option<Baku> {
        let ga = (2 * players.div_ceil(4)).min(players);
        Some(Baku { last_ga: PlayerId::new(ga)?, rounds })
    }

    /// The number of accelerated rounds: the first half of the tournament, rounded up.
    pub fn accelerated_rounds(&self) -> u32 {
        self.rounds.div_ceil(2)
    }

    /// The number of rounds with a whole virtual point: the first half (rounded up) of the
    /// accelerated rounds.
    pub fn full_point_rounds(&self) -> u32 {
        self.accelerated_rounds().div_ceil(2)
    }

    /// Whether `player` is in group GA.
    pub fn in_ga(&self, player: PlayerId) -> bool {
        player <= self.last_ga
    }

    /// The virtual points of `player` when round `round` (from 1) is paired.
    pub fn virtual_points(&self, player: PlayerId, round: u32) -> Score {
        if !self.in_ga(player) || round == 0 || round > self.accelerated_rounds() {
            Score::ZERO
        } else if round <= self.full_point_rounds() {
            Score::ONE
        } else {
            Score::HALF
        }
    }

    /// The virtual points as the tournament's accelerations: one per GA player, round by round.
    pub fn accelerations(&self) -> Vec<Acceleration> {
        let points: Vec<Score> =
            (1..=self.accelerated_rounds()).map(|r| self.virtual_points(self.last_ga, r)).collect();
        (1..=self.last_ga.get())
            .filter_map(PlayerId::new)
            .map(|player| Acceleration { player, points: points.clone() })
            .collect()
    }
}

/// Why the Baku acceleration cannot be applied to a tournament.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BakuError {
    /// The number of rounds is neither declared (TRF `142` or `XXR`) nor shown by rounds
    /// played: the accelerated rounds are the first half of it.
    RoundsUnknown,
    /// The tournament has no players.
    NoPlayers,
    /// The scoring is not one point a win, half a point a draw (the method's premise).
    Scoring {
        /// The points of a win, as the tournament scores it.
        win: Score,
        /// The points of a draw.
        draw: Score,
    },
    /// The tournament already has accelerations (`250` / `XXA`): the arbiter's, kept.
    AlreadyAccelerated,
    /// The last GA player named is not a player of the tournament.
    NoSuchPlayer(PlayerId),
}

impl fmt::Display for BakuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BakuError::RoundsUnknown => write!(
                f,
                "the number of rounds is not given (TRF line 142, or XXR): the Baku method accelerates its first half"
            ),
            BakuError::NoPlayers => write!(f, "the tournament has no players to accelerate"),
            BakuError::Scoring { win, draw } => write!(
                f,
                "the Baku method needs 1 point a win and 0.5 a draw; this tournament scores {win} and {draw}"
            ),
            BakuError::AlreadyAccelerated => write!(
                f,
                "the tournament already has accelerations (TRF 250 or XXA lines): they are kept, not computed again"
            ),
            BakuError::NoSuchPlayer(p) => {
                write!(f, "the last GA player {p} is not a player of the tournament")
            }
        }
    }
}

impl std::error::Error for BakuError {}

/// The Baku acceleration of `tournament`, GA ending at `last_ga` when given (a late entry moved
/// the last GA player of round 1 down the list), or else drawn from all its players.
pub fn baku(tournament: &Tournament, last_ga: Option<PlayerId>) -> Result<Baku, BakuError> {
    // The declared number of rounds, or for a finished file the rounds it has (as the checkers
    // of JaVaFo and bbpPairings assume).
    let rounds = tournament.planned_rounds();
    if rounds == 0 {
        return Err(BakuError::RoundsUnknown);
    }
    let standard = Scoring::default();
    let scoring = &tournament.scoring;
    if (scoring.win, scoring.draw, scoring.loss) != (standard.win, standard.draw, standard.loss) {
        return Err(BakuError::Scoring { win: scoring.win, draw: scoring.draw });
    }
    let players = tournament.players.len() as u32;
    match last_ga {
        Some(last) if last.get() > players => Err(BakuError::NoSuchPlayer(last)),
        Some(last) => Ok(Baku { last_ga: last, rounds }),
        None => Baku::new(players, rounds).ok_or(BakuError::NoPlayers),
    }
}

/// Computes the Baku acceleration of `tournament` (see [`baku`]) and writes it into the
/// tournament's accelerations, refusing a tournament that already has some.
pub fn apply(tournament: &mut Tournament, last_ga: Option<PlayerId>) -> Result<Baku, BakuError> {
    if !tournament.accelerations.is_empty() {
        return Err(BakuError::AlreadyAccelerated);
    }
    let method = baku(tournament, last_ga)?;
    tournament.accelerations = method.accelerations();
    Ok(method)
}

/// An acceleration a Swiss may be paired with: what an organiser chooses, before the players
/// are known; [`accelerate`] turns it into a tournament's virtual points.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Method {
    /// The Baku method (C.04.5.1).
    Baku {
        /// The last player of group GA when late entries moved him from where the split before
        /// round 1 put him; `None`: drawn from the players ([`baku`]).
        last_ga: Option<PlayerId>,
    },
}

/// Gives `tournament` the virtual points of `method`, unless it has accelerations of its own
/// (TRF `250`, `XXA`: the arbiter's, kept as they are). Returns the Baku groups when it
/// computed them.
///
/// # Errors
///
/// [`BakuError`]: the method cannot be applied (see [`baku`]).
pub fn accelerate(tournament: &mut Tournament, method: Method) -> Result<Option<Baku>, BakuError> {
    if !tournament.accelerations.is_empty() {
        return Ok(None);
    }
    match method {
        Method::Baku { last_ga } => apply(tournament, last_ga).map(Some),
    }
}

/// Whether the tournament's type (TRF `092`) asks for the Baku acceleration, as bbpPairings
/// reads it: `FIDE_DUTCH_BAKU`, `FIDE_DUTCH_2025_BAKU`, `FIDE_BURSTEIN_BAKU`.
pub fn declared(tournament: &Tournament) -> bool {
    tournament.kind.as_deref().is_some_and(|kind| kind.trim().ends_with("_BAKU"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> PlayerId {
        PlayerId::new(n).unwrap()
    }

    #[test]
    fn ga_is_the_first_half_rounded_up_to_an_even_number() {
        // The text's own example: 161 players, GA ends at 82.
        assert_eq!(Baku::new(161, 9).unwrap().last_ga, id(82));
        for (players, ga) in [
            (1, 1),
            (2, 2),
            (3, 2),
            (4, 2),
            (5, 4),
            (6, 4),
            (7, 4),
            (8, 4),
            (9, 6),
            (100, 50),
            (101, 52),
        ] {
            assert_eq!(Baku::new(players, 5).unwrap().last_ga, id(ga), "{players} players");
        }
        assert_eq!(Baku::new(0, 5), None);
    }

    #[test]
    fn nine_rounds_give_one_point_three_times_then_half_twice() {
        // The text's example: five accelerated rounds, the first three with a whole point.
        let method = Baku::new(20, 9).unwrap();
        let points: Vec<Score> = (1..=9).map(|r| method.virtual_points(id(1), r)).collect();
        let (one, half, zero) = (Score::ONE, Score::HALF, Score::ZERO);
        assert_eq!(points, [one, one, one, half, half, zero, zero, zero, zero]);
        assert_eq!(method.virtual_points(id(10), 1), one, "the last GA player");
        assert!((1..=9).all(|r| method.virtual_points(id(11), r) == zero), "GB never");
    }

    #[test]
    fn accelerated_rounds_for_every_length() {
        for (rounds, accelerated, full) in
            [(1, 1, 1), (2, 1, 1), (3, 2, 1), (4, 2, 1), (5, 3, 2), (7, 4, 2), (11, 6, 3)]
        {
            let method = Baku::new(10, rounds).unwrap();
            assert_eq!(
                (method.accelerated_rounds(), method.full_point_rounds()),
                (accelerated, full),
                "{rounds} rounds"
            );
        }
    }

    #[test]
    fn accelerations_cover_ga_only() {
        let records = Baku::new(10, 7).unwrap().accelerations();
        assert_eq!(records.len(), 6);
        assert!(records
            .iter()
            .all(|a| a.points == [Score::ONE, Score::ONE, Score::HALF, Score::HALF]));
        assert_eq!(records.last().unwrap().player, id(6));
    }
}
