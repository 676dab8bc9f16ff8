//! Round robin by the Berger tables (FIDE Handbook C.05, Annex 1 "Berger Tables for
//! Round-Robin Tournaments"), single or double.
//!
//! The Handbook prints the tables for 3 to 16 players; they are all one construction, which
//! this module computes for any even size `n` (an odd field plays the table of `n + 1`, where
//! the highest number is a dummy: whoever meets it has the bye, as the Annex says). Writing
//! `m = n - 1` for the number of rounds and reading numbers `1..=m` modulo `m`:
//!
//! - In round `r`, two players `a, b < n` meet when `a + b ≡ r + 1 (mod m)`; the one player
//!   `k` left over (`2k ≡ r + 1`) meets `n`. Every pair has exactly one round in which its sum
//!   has the right residue, so everybody meets everybody once.
//! - `n` is on board 1, with Black in odd rounds and White in even ones (`1-16`, `16-9`,
//!   `2-16`, `16-10` …). Boards 2, 3 … hold the players `k + 1`, `k + 2` … (wrapping past `m`)
//!   with White against their partner: that is the published layout, in which the white
//!   player's number minus the black one's is `2, 4, … n - 2` modulo `m`.
//!
//! `tests/berger_tables.rs` compares this with the Handbook's tables, stored as text.
//!
//! A double round robin plays the table twice, the second cycle with colours reversed, and
//! (as C.05 Annex 1 recommends) with the last two rounds of the first cycle swapped: in the
//! plain table the last round gives most players the colour opposite to their first round's,
//! so the reversed first round of cycle two would give them that colour again, and player 1
//! (and player `n/2 + 1`) would have it three times running.
//!
//! Varma tables (C.05 Annex 2) are not here: they are a restricted drawing of lots, run with
//! envelopes at the opening, to spread federations over the pairing numbers. Their result is
//! the pairing numbers that this module takes as given; nothing in the pairing changes.

use std::fmt;

use crate::model::{Pair, PlayerId, RoundPairing, Tournament};

/// The largest field [`schedule`] accepts. A cap, not a rule: a table of `n` players holds
/// `n²/2` games per cycle, and a size typed by hand must not be able to exhaust memory. No
/// round robin ever played comes near it.
pub const MAX_PLAYERS: u32 = 1000;

/// How many times every two players meet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cycles {
    /// Once: one pass through the table.
    Single,
    /// Twice, colours reversed the second time (C.05 Annex 1).
    Double,
}

impl Cycles {
    /// The number of cycles, 1 or 2.
    pub const fn count(self) -> u32 {
        match self {
            Cycles::Single => 1,
            Cycles::Double => 2,
        }
    }

    /// The cycles a round robin of `players` players with `rounds` rounds has, if it is one of
    /// the two: e.g. what a TRF's declared number of rounds (`142`, `XXR`) says.
    pub fn from_rounds(players: u32, rounds: u32) -> Option<Cycles> {
        let per_cycle = rounds_per_cycle(players);
        if per_cycle == 0 {
            None
        } else if rounds == per_cycle {
            Some(Cycles::Single)
        } else if rounds == 2 * per_cycle {
            Some(Cycles::Double)
        } else {
            None
        }
    }
}

/// Why there is no schedule or no such round.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BergerError {
    /// Fewer than two players.
    TooFewPlayers {
        /// The number asked for.
        players: u32,
    },
    /// More than [`MAX_PLAYERS`].
    TooManyPlayers {
        /// The number asked for.
        players: u32,
    },
    /// A round number outside `1..=rounds`.
    NoSuchRound {
        /// The round asked for.
        round: u32,
        /// The number of rounds the round robin has.
        rounds: u32,
    },
}

impl fmt::Display for BergerError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BergerError::TooFewPlayers { players } => {
                write!(f, "a round robin needs at least 2 players, got {players}")
            }
            BergerError::TooManyPlayers { players } => {
                write!(f, "a round robin of {players} players is over the limit of {MAX_PLAYERS}")
            }
            BergerError::NoSuchRound { round, rounds } => {
                write!(f, "round {round} does not exist: this round robin has rounds 1 to {rounds}")
            }
        }
    }
}

impl std::error::Error for BergerError {}

/// The size of the table a field of `players` plays: the next even number.
const fn table_size(players: u32) -> u32 {
    players + players % 2
}

/// Rounds per cycle: one fewer than the table size (0 for an empty field).
const fn rounds_per_cycle(players: u32) -> u32 {
    table_size(players).saturating_sub(1)
}

fn check_players(players: u32) -> Result<(), BergerError> {
    if players < 2 {
        Err(BergerError::TooFewPlayers { players })
    } else if players > MAX_PLAYERS {
        Err(BergerError::TooManyPlayers { players })
    } else {
        Ok(())
    }
}

/// Round `round` (from 1) of the Handbook's table for `n` (even, at least 2) players, as
/// (White, Black) numbers in board order, the dummy included.
fn table_round(n: u32, round: u32) -> Vec<(u32, u32)> {
    let m = n - 1;
    // Numbers 1..=m as residues modulo m, with m itself standing for 0.
    let wrap = |x: u32| (x - 1) % m + 1;
    // 2k ≡ r + 1 (mod m), m odd: k = (r + 1) / 2 when r is odd, (r + 1 + m) / 2 when even.
    let k = (round + 1 + if round.is_multiple_of(2) { m } else { 0 }) / 2;
    let mut games = Vec::with_capacity(n as usize / 2);
    games.push(if round % 2 == 1 { (k, n) } else { (n, k) });
    for board in 2..=n / 2 {
        let white = wrap(k + board - 1);
        // The partner: white + black ≡ r + 1 (mod m).
        let black = wrap(round + 1 + m - white % m);
        games.push((white, black));
    }
    games
}

/// The table round and whether colours are reversed, for round `round` of a round robin
/// whose table has `per_cycle` rounds.
fn table_position(per_cycle: u32, cycles: Cycles, round: u32) -> (u32, bool) {
    match cycles {
        Cycles::Single => (round, false),
        Cycles::Double if round > per_cycle => (round - per_cycle, true),
        // C.05 Annex 1: the last two rounds of the first cycle are swapped.
        Cycles::Double if per_cycle >= 2 && round == per_cycle - 1 => (per_cycle, false),
        Cycles::Double if per_cycle >= 2 && round == per_cycle => (per_cycle - 1, false),
        Cycles::Double => (round, false),
    }
}

/// The number of rounds of a round robin of `players` players.
///
/// # Errors
///
/// If `players` is under 2 or over [`MAX_PLAYERS`].
pub fn rounds(players: u32, cycles: Cycles) -> Result<u32, BergerError> {
    check_players(players)?;
    Ok(rounds_per_cycle(players) * cycles.count())
}

/// The pairing of round `round` (from 1) of a round robin of `players` players: the games by
/// pairing number, White first, board 1 first, and the player with the bye when the field is
/// odd.
///
/// # Errors
///
/// If `players` is under 2 or over [`MAX_PLAYERS`], or the round does not exist.
pub fn round_pairing(
    players: u32,
    cycles: Cycles,
    round: u32,
) -> Result<RoundPairing, BergerError> {
    let total = rounds(players, cycles)?;
    if round == 0 || round > total {
        return Err(BergerError::NoSuchRound { round, rounds: total });
    }
    let n = table_size(players);
    let (table_round, reversed) = table_position(n - 1, cycles, round);
    let mut pairing = RoundPairing::default();
    for (white, black) in table_round_games(n, table_round, reversed) {
        // The dummy of an odd field is the number n = players + 1.
        if white > players {
            pairing.bye = PlayerId::new(black);
        } else if black > players {
            pairing.bye = PlayerId::new(white);
        } else {
            let id = |n| PlayerId::new(n).expect("table numbers start at 1");
            pairing.pairs.push(Pair { white: id(white), black: id(black) });
        }
    }
    Ok(pairing)
}

fn table_round_games(n: u32, round: u32, reversed: bool) -> impl Iterator<Item = (u32, u32)> {
    table_round(n, round).into_iter().map(move |(w, b)| if reversed { (b, w) } else { (w, b) })
}

/// The pairing of round `round` (from 1) of `tournament` played as a round robin: its
/// players by pairing number, as [`round_pairing`] gives it. Entries already in the
/// tournament do not change it: a Berger table is fixed from the start, and a withdrawn
/// player's remaining games are the arbiter's to declare (forfeits), not a new pairing.
///
/// # Errors
///
/// As [`round_pairing`], for the number of players of the tournament.
pub fn pair_round(
    tournament: &Tournament,
    cycles: Cycles,
    round: u32,
) -> Result<RoundPairing, BergerError> {
    let players = u32::try_from(tournament.players.len()).unwrap_or(u32::MAX);
    round_pairing(players, cycles, round)
}

/// The whole schedule of a round robin of `players` players.
///
/// # Errors
///
/// If `players` is under 2 or over [`MAX_PLAYERS`].
///
/// # Examples
///
/// ```
/// use rookery_tournament::berger::{self, Cycles};
///
/// let schedule = berger::schedule(4, Cycles::Single)?;
/// assert_eq!(schedule.to_string(), "Round 1: 1-4 2-3\nRound 2: 4-3 1-2\nRound 3: 2-4 3-1\n");
/// # Ok::<(), berger::BergerError>(())
/// ```
pub fn schedule(players: u32, cycles: Cycles) -> Result<Schedule, BergerError> {
    let total = rounds(players, cycles)?;
    let rounds =
        (1..=total).map(|round| round_pairing(players, cycles, round)).collect::<Result<_, _>>()?;
    Ok(Schedule { players, cycles, rounds })
}

/// Every round of a round robin, in order.
///
/// Its `Display` is one line per round, the games in board order as `white-black`, then the
/// bye if any: `Round 1: 2-5 3-4 (bye 1)`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Schedule {
    players: u32,
    cycles: Cycles,
    rounds: Vec<RoundPairing>,
}

impl Schedule {
    /// The number of players.
    pub fn players(&self) -> u32 {
        self.players
    }

    /// Single or double.
    pub fn cycles(&self) -> Cycles {
        self.cycles
    }

    /// The rounds, round 1 first.
    pub fn rounds(&self) -> &[RoundPairing] {
        &self.rounds
    }

    /// Round `round` (from 1), if it exists.
    pub fn round(&self, round: u32) -> Option<&RoundPairing> {
        self.rounds.get(round.checked_sub(1)? as usize)
    }
}

impl fmt::Display for Schedule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, round) in self.rounds.iter().enumerate() {
            write!(f, "Round {}:", index + 1)?;
            for pair in &round.pairs {
                write!(f, " {}-{}", pair.white, pair.black)?;
            }
            if let Some(bye) = round.bye {
                write!(f, " (bye {bye})")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sixteen_table_opens_as_printed() {
        // C.05 Annex 1, "15 or 16 players", rounds 1 and 2.
        assert_eq!(
            table_round(16, 1),
            [(1, 16), (2, 15), (3, 14), (4, 13), (5, 12), (6, 11), (7, 10), (8, 9)]
        );
        assert_eq!(
            table_round(16, 2),
            [(16, 9), (10, 8), (11, 7), (12, 6), (13, 5), (14, 4), (15, 3), (1, 2)]
        );
    }

    #[test]
    fn two_players_play_one_game_per_cycle() {
        let s = schedule(2, Cycles::Double).unwrap();
        assert_eq!(s.to_string(), "Round 1: 1-2\nRound 2: 2-1\n");
    }

    #[test]
    fn errors_name_the_input() {
        assert_eq!(
            schedule(1, Cycles::Single).unwrap_err().to_string(),
            "a round robin needs at least 2 players, got 1"
        );
        assert_eq!(
            round_pairing(5, Cycles::Single, 6).unwrap_err().to_string(),
            "round 6 does not exist: this round robin has rounds 1 to 5"
        );
    }
}
