//! The Burstein system: implements FIDE Handbook C.04.4.2 (2026), the text applied from
//! 1 February 2026.
//!
//! [`pair`] pairs one round of a [`Tournament`]. The seeding rounds, the first half of the
//! rounds (rounded down) but at most four (1.6.2), are paired by the rules of the Dutch system
//! (1.6.1: [`crate::dutch::pair`], PAB, colours and board order included). Every later round:
//!
//! - the players are ranked by the Opposition Evaluation Index ([`opposition_index`]: the
//!   Buchholz, then the Sonneborn-Berger, with the system's own rules for unplayed rounds and
//!   without virtual points, 1.7), then by pairing number (1.8);
//! - the pairing-allocated bye goes, among the players who may have it ([C2]) and leave the
//!   others pairable ([C4]), to the lowest score, then the most games played, then the lowest
//!   ranking (3.1);
//! - brackets are paired from the highest score (3.2): the absolute criteria [C1] no second
//!   meeting (nor a forbidden pair) and [C3] no two players with the same absolute colour
//!   preference (with no exception for topscorers), the completion criterion [C4], then the
//!   quality criteria [C5] most pairs, [C6] lowest floater scores, [C7] the next bracket's
//!   [C5]–[C6], [C8] most colour preferences granted; between equally good pairings, the
//!   order of Art. 4: the highest-ranked player meets the lowest-ranked player it can;
//! - colours by Art. 5 (its steps are the Dutch system's, the higher-ranked player being the
//!   one ranked higher by 1.8), boards in the order of C.04.2 3.6.
//!
//! Acceleration (TRF `250`/`XXA`) makes the scoregroups but not the Index; forbidden pairs
//! (`260`/`XXP`) are [C1]; players with a bye or absence entered for the round (`0000 - H`,
//! `F`, `Z`) are not paired. The Dutch system's float criteria have no counterpart here.
//!
//! How: the crate's README, "Burstein system", and the module `pairer`. The reference
//! tournaments of `tests/data/burstein-rtg/` were paired by an engine of the text before 2026,
//! which this one does not follow where the 2026 text differs (`tests/burstein.rs` says which
//! article decides each round that differs).

mod index;
mod pairer;

use std::collections::HashMap;

use crate::model::{PlayerId, RoundPairing, Tournament};
use crate::swiss::colour::Allocation;
use crate::swiss::entrant::{self, Entrant};
use crate::swiss::{self, Attempt, Stop};

pub use crate::swiss::{pairing_of, NoPairing, PairError, RoundCheck};
pub use index::{opposition_index, OppositionIndex};

use pairer::{Found, Pairer};

/// The number of seeding rounds of a tournament of `rounds` rounds (1.6.2): half the rounds,
/// rounded down, but at most four.
pub const fn seeding_rounds(rounds: u32) -> u32 {
    let half = rounds / 2;
    if half < 4 {
        half
    } else {
        4
    }
}

/// Pairs round `round` (from 1) of `tournament` by the Burstein system, from its rounds
/// before `round`.
///
/// # Errors
///
/// [`PairError`]: the number of rounds (which fixes the seeding rounds) or the initial colour
/// is missing where it is needed, or no pairing complies with the absolute criteria.
pub fn pair(tournament: &Tournament, round: u32) -> Result<RoundPairing, PairError> {
    let rounds = swiss::rounds_for(tournament, round)?;
    if round <= seeding_rounds(rounds) {
        return crate::dutch::pair(tournament, round);
    }
    let mut entrants = entrant::entrants(tournament, round);
    let index = opposition_index(tournament, round);
    // 1.8: the Index, the higher first, then the pairing number.
    entrants.sort_by(|a, b| {
        index[b.id.index()].cmp_rank(&index[a.id.index()]).then(a.rank.cmp(&b.rank))
    });
    let place_of: HashMap<PlayerId, usize> =
        entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    // Scoregroups from the highest score, each in the order of 1.8 (a stable sort).
    entrants.sort_by_key(|e| std::cmp::Reverse(e.score));
    let place: Vec<usize> = entrants.iter().map(|e| place_of[&e.id]).collect();
    let forbidden = |a, b| tournament.is_forbidden(a, b, round);
    let attempt = Round { entrants: &entrants, place: &place, forbidden: &forbidden };
    let found = swiss::narrowest(pairer::estimated_bits(&entrants), &attempt)
        .map_err(PairError::NoPairing)?;
    let rules = Colours { place: &place_of };
    let pairs = swiss::colour::allocate(tournament, &entrants, &found.pairs, &rules)?;
    Ok(RoundPairing { pairs, bye: found.bye.map(|v| entrants[v].id) })
}

/// The pairing of the sorted entrants of one round, with weights of any width.
struct Round<'a> {
    entrants: &'a [Entrant],
    place: &'a [usize],
    forbidden: &'a dyn Fn(PlayerId, PlayerId) -> bool,
}

impl Attempt for Round<'_> {
    type Found = Found;

    fn run<W: crate::matching::Weight>(&self) -> Result<Found, Stop> {
        Pairer::<W>::new(self.entrants, self.place, self.forbidden).run()
    }
}

/// Art. 5: the steps the Dutch system has too, ranking by 1.8 for the last one (5.2.5, the
/// higher-ranked player's preference), and by score then pairing number when neither player
/// has played (5.2.1: the initial colour to the higher-ranked player if their pairing number
/// is odd).
struct Colours<'a> {
    place: &'a HashMap<PlayerId, usize>,
}

impl Allocation for Colours<'_> {
    fn higher(&self, p: &Entrant, q: &Entrant) -> bool {
        if p.preference.is_none() && q.preference.is_none() {
            (q.score, p.rank) < (p.score, q.rank)
        } else {
            self.place[&p.id] < self.place[&q.id]
        }
    }
}

/// Re-pairs every round of `tournament` from the rounds before it, as a pairing checker does
/// (FIDE's "free pairings checker", C.04.A): for round R, the tournament as it stood before
/// R was paired ([`Tournament::before_round`]), paired by [`pair`], against the pairing the
/// tournament has. With no number of rounds declared, the rounds played are the tournament's.
pub fn check(tournament: &Tournament) -> Vec<RoundCheck> {
    swiss::check_with(tournament, pair)
}
