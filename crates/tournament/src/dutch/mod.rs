//! The Dutch system: implements FIDE Handbook C.04.3 (2026), the rules approved on
//! 28 October 2025 and applied from 1 February 2026 (the 2025 text with its amendments).
//!
//! [`pair`] pairs one round of a [`Tournament`]: the absolute criteria C1–C3 (no second
//! meeting, forbidden pairs, one PAB per player and none after a win without playing,
//! non-topscorers with the same absolute colour preference kept apart), the completion
//! criterion C4, the PAB criterion C5, the quality criteria C6–C21 in their order,
//! the generation order of Art. 4 between equally good candidates, the colours of Art. 5 and
//! the board order of C.04.2 3.6. Acceleration (TRF `250`/`XXA`) and forbidden pairs
//! (`260`/`XXP`) are read from the tournament; players with a bye or absence entered for the
//! round (`0000 - H`, `F`, `Z`) are not paired.
//!
//! How: the crate's README, "Dutch system", and the module `pairer`. The results were checked
//! round by round against the 499 tournaments of an independent Dutch engine (bbpPairings
//! 6.0.0; `tests/dutch.rs`).

mod colour;
mod criteria;
mod pairer;

use crate::model::{PlayerId, RoundPairing, Tournament};
use crate::score::Score;
use crate::swiss::entrant::{self, Entrant};
use crate::swiss::{self, Attempt, Stop};

pub use crate::swiss::{pairing_of, NoPairing, PairError, RoundCheck};

use pairer::{Found, Pairer};

/// Pairs round `round` (from 1) of `tournament` by the Dutch system, from its rounds before
/// `round`.
///
/// # Errors
///
/// [`PairError`]: the number of rounds or the initial colour is missing where it is needed,
/// or no pairing complies with the absolute criteria.
pub fn pair(tournament: &Tournament, round: u32) -> Result<RoundPairing, PairError> {
    let rounds = swiss::rounds_for(tournament, round)?;
    let mut entrants = entrant::entrants(tournament, round);
    pairer::sort_entrants(&mut entrants);
    let played = round - 1;
    let scoring = &tournament.scoring;
    // 1.8: topscorers exist when the last round is paired: more than half the maximum score.
    let topscorer =
        (round == rounds).then(|| Score(played * scoring.win.0.max(scoring.draw.0) / 2));
    let forbidden = |a, b| tournament.is_forbidden(a, b, round);
    let attempt = Round { entrants: &entrants, played, topscorer, forbidden: &forbidden };
    let found = swiss::narrowest(pairer::estimated_bits(&entrants), &attempt)
        .map_err(PairError::NoPairing)?;
    let pairs = swiss::colour::allocate(tournament, &entrants, &found.pairs, &colour::Dutch)?;
    Ok(RoundPairing { pairs, bye: found.bye.map(|v| entrants[v].id) })
}

/// The pairing of the sorted entrants of one round, with weights of any width.
struct Round<'a> {
    entrants: &'a [Entrant],
    played: u32,
    topscorer: Option<Score>,
    forbidden: &'a dyn Fn(PlayerId, PlayerId) -> bool,
}

impl Attempt for Round<'_> {
    type Found = Found;

    fn run<W: crate::matching::Weight>(&self) -> Result<Found, Stop> {
        Pairer::<W>::new(self.entrants, self.played, self.topscorer, self.forbidden).run()
    }
}

/// Re-pairs every round of `tournament` from the rounds before it, as a pairing checker does
/// (FIDE's "free pairings checker", C.04.A): for round R, the tournament as it stood before
/// R was paired ([`Tournament::before_round`]), paired by [`pair`], against the pairing the
/// tournament has. With no number of rounds declared, the rounds played are the tournament's.
pub fn check(tournament: &Tournament) -> Vec<RoundCheck> {
    swiss::check_with(tournament, pair)
}
