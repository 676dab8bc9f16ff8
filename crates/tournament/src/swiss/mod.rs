//! What the FIDE Swiss systems share: who is to be paired and what the rules read of each
//! player (C.04.1, C.04.2), the colour rules the Dutch and Burstein texts word alike and the
//! board order (C.04.2 3.6), why a round cannot be paired, the narrowest edge weights that
//! hold a round's criteria, and the pairings checker (C.04.A).

pub(crate) mod colour;
pub(crate) mod entrant;

use std::fmt;

use rookery_core::Color;

use crate::matching::{Weight, Wide};
use crate::model::{Pair, PlayerId, ResultCode, RoundPairing, Tournament};
use crate::score::Score;

/// Why no pairing comes out of the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum NoPairing {
    /// No pairing of the players complies with the absolute criteria C1–C3 (C.04.3 1.9.3,
    /// C.04.4.2 1.9.3: the chief arbiter decides).
    Absolute,
    /// The number of players is odd and none may receive the pairing-allocated bye (C2).
    NoByeCandidate,
}

/// Why a round cannot be paired.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PairError {
    /// The round number is 0.
    NoRound,
    /// The number of rounds of the tournament is not known (TRF `142` or `XXR`): the Dutch
    /// system treats topscorers apart in the last round, the Burstein system counts its
    /// seeding rounds from it (C.04.4.2 1.6.2).
    RoundsUnknown,
    /// The round is beyond the tournament's number of rounds.
    RoundAfterLast {
        /// The round asked for.
        round: u32,
        /// The tournament's number of rounds.
        rounds: u32,
    },
    /// Two players who never played meet (C.04.3 5.2.5, C.04.4.2 5.2.1) and the initial
    /// colour is neither given (TRF `152` or `XXC white1|black1`) nor to be inferred from
    /// earlier rounds.
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
                "the number of rounds is not given (TRF line 142, or XXR): the pairing rules depend on it"
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
                "no pairing complies with the absolute criteria C1-C3 (1.9.3: the chief arbiter decides)"
            ),
            PairError::NoPairing(NoPairing::NoByeCandidate) => write!(
                f,
                "the number of players is odd and none of them may receive the pairing-allocated bye (C2)"
            ),
        }
    }
}

impl std::error::Error for PairError {}

/// The checks every system makes before pairing `round`: a round number from 1 up to the
/// tournament's number of rounds, which is returned.
pub(crate) fn rounds_for(tournament: &Tournament, round: u32) -> Result<u32, PairError> {
    if round == 0 {
        return Err(PairError::NoRound);
    }
    let rounds = tournament.rounds.ok_or(PairError::RoundsUnknown)?;
    if round > rounds {
        return Err(PairError::RoundAfterLast { round, rounds });
    }
    Ok(rounds)
}

/// Bits needed to hold every value up to `max`.
pub(crate) fn bits_for(max: u64) -> u32 {
    64 - max.leading_zeros()
}

/// The number of players with each score, in the order the scores first come.
pub(crate) fn tally(scores: impl IntoIterator<Item = Score>) -> Vec<(Score, u32)> {
    let mut counts: Vec<(Score, u32)> = Vec::new();
    for score in scores {
        match counts.iter_mut().find(|(s, _)| *s == score) {
            Some((_, count)) => *count += 1,
            None => counts.push((score, 1)),
        }
    }
    counts
}

/// A score field of an edge weight: one sub-field per score, the highest score highest, each
/// wide enough for every player with that score to add 1 to it, twice over.
#[derive(Clone, Debug)]
pub(crate) struct ScoreField {
    /// The scores, ascending, with the offset of their sub-field.
    places: Vec<(Score, u32)>,
    /// The width of the whole field.
    pub width: u32,
}

impl ScoreField {
    /// The field for `scores`: (score, number of players with it).
    pub fn new(scores: &[(Score, u32)]) -> ScoreField {
        let mut sorted = scores.to_vec();
        sorted.sort();
        let mut width = 0;
        let mut places = Vec::with_capacity(sorted.len());
        for &(score, players) in &sorted {
            places.push((score, width));
            width += bits_for(2 * u64::from(players) + 1);
        }
        ScoreField { places, width }
    }

    /// The offset of `score`'s sub-field inside the field.
    pub fn offset(&self, score: Score) -> u32 {
        self.places
            .iter()
            .find(|(s, _)| *s == score)
            .map(|&(_, offset)| offset)
            .expect("every score of the bracket and the next scoregroup has a place")
    }
}

/// Fields laid out from bit 0 up: each call takes the next `width` bits and returns their
/// offset; [`Fields::end`] is the first bit above them all.
#[derive(Default)]
pub(crate) struct Fields {
    pub end: u32,
}

impl Fields {
    pub fn take(&mut self, width: u32) -> u32 {
        let at = self.end;
        self.end += width;
        at
    }
}

/// Why a pairing attempt stopped.
pub(crate) enum Stop {
    /// No pairing complies with the absolute criteria.
    NoPairing(NoPairing),
    /// The weights need more bits than the weight type has.
    Overflow,
}

/// One pairing of a round with edge weights of a type to be chosen.
pub(crate) trait Attempt {
    /// What a successful attempt finds.
    type Found;
    /// Pairs with weights of type `W`, or stops with [`Stop::Overflow`] when they are too
    /// narrow for the criteria.
    fn run<W: Weight>(&self) -> Result<Self::Found, Stop>;
}

/// Runs `attempt` with the narrowest weights that hold `bits` bits, and wider ones while
/// they overflow.
pub(crate) fn narrowest<A: Attempt>(bits: u32, attempt: &A) -> Result<A::Found, NoPairing> {
    macro_rules! with {
        ($w:ty) => {
            match attempt.run::<$w>() {
                Ok(found) => return Ok(found),
                Err(Stop::NoPairing(why)) => return Err(why),
                Err(Stop::Overflow) => {}
            }
        };
    }
    if bits < 63 {
        with!(i64);
    }
    if bits < 127 {
        with!(i128);
    }
    if bits < 191 {
        with!(Wide<3>);
    }
    if bits < 255 {
        with!(Wide<4>);
    }
    if bits < 319 {
        with!(Wide<5>);
    }
    if bits < 383 {
        with!(Wide<6>);
    }
    if bits < 511 {
        with!(Wide<8>);
    }
    if bits < 767 {
        with!(Wide<12>);
    }
    if bits < 1023 {
        with!(Wide<16>);
    }
    with!(Wide<32>);
    with!(Wide<64>);
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
            (None, _) if entry.result == ResultCode::PairingAllocatedBye => pairing.bye = Some(id),
            _ => {}
        }
    }
    pairing
}

/// Re-pairs every round of `tournament` by `pair` from the rounds before it, as a pairing
/// checker does (FIDE's "free pairings checker", C.04.A): for round R, the tournament as it
/// stood before R was paired ([`Tournament::before_round`]) against the pairing the
/// tournament has. With no number of rounds declared, the rounds played are the tournament's.
pub(crate) fn check_with(
    tournament: &Tournament,
    pair: fn(&Tournament, u32) -> Result<RoundPairing, PairError>,
) -> Vec<RoundCheck> {
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
