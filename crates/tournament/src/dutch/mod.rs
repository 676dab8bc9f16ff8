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
mod entrant;
mod pairer;

use std::fmt;

use rookery_core::Color;

use crate::matching::Wide;
use crate::model::{Pair, PlayerId, RoundPairing, Tournament};
use crate::score::Score;

use entrant::Entrant;
use pairer::{Found, Pairer, Stop};

/// Why no pairing comes out of the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoPairing {
    /// No pairing of the players complies with the absolute criteria C1–C3 (1.9.3: the
    /// chief arbiter decides).
    Absolute,
    /// The number of players is odd and none may receive the pairing-allocated bye (C2).
    NoByeCandidate,
}

/// Why a round cannot be paired.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PairError {
    /// The round number is 0.
    NoRound,
    /// The number of rounds of the tournament is not known (TRF `142` or `XXR`): it decides
    /// whether this is the last round, where topscorers are treated apart.
    RoundsUnknown,
    /// The round is beyond the tournament's number of rounds.
    RoundAfterLast {
        /// The round asked for.
        round: u32,
        /// The tournament's number of rounds.
        rounds: u32,
    },
    /// Two players need the initial colour (5.2.5) and it is neither given (TRF `152` or
    /// `XXC white1|black1`) nor to be inferred from earlier rounds.
    InitialColourUnknown,
    /// The rules give no pairing.
    NoPairing(NoPairing),
}

impl fmt::Display for PairError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PairError::NoRound => write!(f, "rounds are numbered from 1"),
            PairError::RoundsUnknown => write!(
                f,
                "the number of rounds is not given (TRF line 142, or XXR): it is needed to know the last round"
            ),
            PairError::RoundAfterLast { round, rounds } => {
                write!(f, "round {round} is after the last round ({rounds})")
            }
            PairError::InitialColourUnknown => write!(
                f,
                "the initial colour is not given (TRF line 152 W|B, or XXC white1|black1) and no earlier round shows it"
            ),
            PairError::NoPairing(NoPairing::Absolute) => write!(
                f,
                "no pairing complies with the absolute criteria C1-C3 (C.04.3 1.9.3: the chief arbiter decides)"
            ),
            PairError::NoPairing(NoPairing::NoByeCandidate) => write!(
                f,
                "the number of players is odd and none of them may receive the pairing-allocated bye (C2)"
            ),
        }
    }
}

impl std::error::Error for PairError {}

/// Pairs round `round` (from 1) of `tournament` by the Dutch system, from its rounds before
/// `round`.
///
/// # Errors
///
/// [`PairError`]: the number of rounds or the initial colour is missing where it is needed,
/// or no pairing complies with the absolute criteria.
pub fn pair(tournament: &Tournament, round: u32) -> Result<RoundPairing, PairError> {
    if round == 0 {
        return Err(PairError::NoRound);
    }
    let rounds = tournament.rounds.ok_or(PairError::RoundsUnknown)?;
    if round > rounds {
        return Err(PairError::RoundAfterLast { round, rounds });
    }
    let mut entrants = entrant::entrants(tournament, round);
    pairer::sort_entrants(&mut entrants);
    let played = round - 1;
    let scoring = &tournament.scoring;
    // 1.8: topscorers exist when the last round is paired: more than half the maximum score.
    let topscorer =
        (round == rounds).then(|| Score(played * scoring.win.0.max(scoring.draw.0) / 2));
    let forbidden = |a, b| tournament.is_forbidden(a, b, round);
    let found = solve(&entrants, played, topscorer, &forbidden).map_err(PairError::NoPairing)?;
    let initial = tournament.initial_colour.or_else(|| tournament.inferred_initial_colour());
    let mut pairs = Vec::with_capacity(found.pairs.len());
    for &(a, b) in &found.pairs {
        let (p, q) = (&entrants[a], &entrants[b]);
        let needs_initial = p.preference.is_none() && q.preference.is_none();
        let initial = match initial {
            Some(c) => c,
            None if needs_initial => return Err(PairError::InitialColourUnknown),
            // Not read when a preference decides.
            None => Color::White,
        };
        pairs.push(colour::make_pair(p, q, initial));
    }
    let index: std::collections::HashMap<PlayerId, usize> =
        entrants.iter().enumerate().map(|(i, e)| (e.id, i)).collect();
    colour::board_order(&mut pairs, &|id| &entrants[index[&id]]);
    Ok(RoundPairing { pairs, bye: found.bye.map(|v| entrants[v].id) })
}

/// Pairs the sorted entrants with the narrowest weights that hold the criteria.
fn solve(
    entrants: &[Entrant],
    played: u32,
    topscorer: Option<Score>,
    forbidden: &dyn Fn(PlayerId, PlayerId) -> bool,
) -> Result<Found, NoPairing> {
    macro_rules! attempt {
        ($w:ty) => {
            match Pairer::<$w>::new(entrants, played, topscorer, forbidden).run() {
                Ok(found) => return Ok(found),
                Err(Stop::NoPairing(why)) => return Err(why),
                Err(Stop::Overflow) => {}
            }
        };
    }
    let bits = pairer::estimated_bits(entrants);
    if bits < 63 {
        attempt!(i64);
    }
    if bits < 127 {
        attempt!(i128);
    }
    if bits < 191 {
        attempt!(Wide<3>);
    }
    if bits < 255 {
        attempt!(Wide<4>);
    }
    if bits < 319 {
        attempt!(Wide<5>);
    }
    if bits < 383 {
        attempt!(Wide<6>);
    }
    if bits < 511 {
        attempt!(Wide<8>);
    }
    if bits < 767 {
        attempt!(Wide<12>);
    }
    if bits < 1023 {
        attempt!(Wide<16>);
    }
    attempt!(Wide<32>);
    attempt!(Wide<64>);
    unreachable!("4,095 bits hold the criteria of any tournament a TRF file can describe")
}

/// The pairing of one round of a tournament compared with what the rules give.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RoundCheck {
    /// The round.
    pub round: u32,
    /// What the rules give, or why they give nothing.
    pub expected: Result<RoundPairing, PairError>,
    /// What the tournament has.
    pub actual: RoundPairing,
}

impl RoundCheck {
    /// Whether the tournament's pairing is the rules' (pairs, colours and PAB; board order
    /// aside).
    pub fn agrees(&self) -> bool {
        match &self.expected {
            Ok(expected) => same_pairing(expected, &self.actual),
            Err(_) => false,
        }
    }
}

fn same_pairing(a: &RoundPairing, b: &RoundPairing) -> bool {
    let mut x = a.pairs.clone();
    let mut y = b.pairs.clone();
    let key = |p: &Pair| (p.white, p.black);
    x.sort_by_key(key);
    y.sort_by_key(key);
    x == y && a.bye == b.bye
}

/// The pairing a tournament has in `round`: its games (by the entries of White) and its PAB.
pub fn pairing_of(tournament: &Tournament, round: u32) -> RoundPairing {
    let mut pairing = RoundPairing::default();
    for (i, player) in tournament.players.iter().enumerate() {
        let id = PlayerId::from_index(i);
        let Some(entry) = player.round(round) else { continue };
        match (entry.opponent, entry.colour) {
            (Some(opponent), Some(Color::White)) => {
                pairing.pairs.push(Pair { white: id, black: opponent })
            }
            (None, _) if entry.result == crate::model::ResultCode::PairingAllocatedBye => {
                pairing.bye = Some(id)
            }
            _ => {}
        }
    }
    pairing
}

/// Re-pairs every round of `tournament` from the rounds before it, as a pairing checker does
/// (FIDE's "free pairings checker", C.04.A): for round R, the tournament as it stood before
/// R was paired ([`Tournament::before_round`]), paired by [`pair`], against the pairing the
/// tournament has. With no number of rounds declared, the rounds played are the tournament's.
pub fn check(tournament: &Tournament) -> Vec<RoundCheck> {
    let initial = tournament.initial_colour.or_else(|| tournament.inferred_initial_colour());
    (1..=tournament.rounds_played())
        .map(|round| {
            let mut before = tournament.before_round(round);
            before.initial_colour = initial;
            RoundCheck {
                round,
                expected: pair(&before, round),
                actual: pairing_of(tournament, round),
            }
        })
        .collect()
}
