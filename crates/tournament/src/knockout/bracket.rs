//! The seeded bracket: where each entrant starts, who has a bye, and which match each winner
//! goes on to. Fixed from the start, like a Berger table: results fill it, never reshape it.

use std::fmt;

use crate::model::PlayerId;

/// The largest field [`Bracket::new`] accepts. A cap, not a rule: a size typed by hand must
/// not be able to exhaust memory, and no chess knockout comes near it.
pub const MAX_ENTRANTS: u32 = 4096;

/// Why there is no such bracket.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum BracketError {
    /// Fewer than two entrants.
    TooFewEntrants {
        /// The number asked for.
        entrants: u32,
    },
    /// More than [`MAX_ENTRANTS`].
    TooManyEntrants {
        /// The number asked for.
        entrants: u32,
    },
}

impl fmt::Display for BracketError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            BracketError::TooFewEntrants { entrants } => {
                write!(f, "a knockout needs at least 2 players, got {entrants}")
            }
            BracketError::TooManyEntrants { entrants } => {
                write!(f, "a knockout of {entrants} players is over the limit of {MAX_ENTRANTS}")
            }
        }
    }
}

impl std::error::Error for BracketError {}

/// One match of the bracket: its round (from 1) and its place in that round (from 1, top of
/// the drawn bracket first). Written `round.number`: `1.1`, `1.2` … `2.1`.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct MatchId {
    /// The round, from 1.
    pub round: u32,
    /// The place in the round, from 1.
    pub number: u32,
}

impl MatchId {
    /// The match its winner plays next, and on which side (0 the upper, 1 the lower); `None`
    /// after the final, which is the last of `rounds` rounds.
    pub const fn next(self, rounds: u32) -> Option<(MatchId, usize)> {
        if self.round >= rounds {
            return None;
        }
        let next = MatchId { round: self.round + 1, number: self.number.div_ceil(2) };
        Some((next, if self.number % 2 == 1 { 0 } else { 1 }))
    }

    /// The two matches whose winners meet here, upper first; `None` in round 1.
    pub const fn feeders(self) -> Option<[MatchId; 2]> {
        if self.round <= 1 {
            return None;
        }
        let round = self.round - 1;
        Some([
            MatchId { round, number: 2 * self.number - 1 },
            MatchId { round, number: 2 * self.number },
        ])
    }
}

impl fmt::Display for MatchId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}", self.round, self.number)
    }
}

/// Where one side of a match comes from.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Side {
    /// An entrant placed there by seed (round 1).
    Seed(PlayerId),
    /// Nobody: the other side advances without playing (round 1 of a field that is not a
    /// power of two).
    Bye,
    /// Whoever wins that match of the round before.
    Winner(MatchId),
}

impl fmt::Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Side::Seed(seed) => seed.fmt(f),
            Side::Bye => f.write_str("bye"),
            Side::Winner(id) => write!(f, "winner {id}"),
        }
    }
}

/// What a round is called, by how many rounds are left after it.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum RoundName {
    /// The last round: two players.
    Final,
    /// Four players.
    SemiFinal,
    /// Eight players.
    QuarterFinal,
    /// Any earlier round, by its number of places: `RoundOf(16)`, `RoundOf(32)` …
    RoundOf(u32),
}

impl fmt::Display for RoundName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RoundName::Final => f.write_str("final"),
            RoundName::SemiFinal => f.write_str("semi-final"),
            RoundName::QuarterFinal => f.write_str("quarter-final"),
            RoundName::RoundOf(places) => write!(f, "round of {places}"),
        }
    }
}

/// A knockout bracket of `entrants` players in seed order (seed 1 the strongest).
///
/// The bracket has `size` places, the next power of two; the `size - entrants` missing
/// entrants are byes. Standard seeding: in round 1 seed `s` meets seed `size + 1 - s`, so the
/// byes fall to seeds `1, 2 …`, and the matches are placed so that, if the higher seed always
/// wins, every round pairs the strongest left with the weakest left (`1-4`, `2-3` in the
/// semi-finals): seeds 1 and 2 can meet only in the final, seeds 1 to 4 only from the
/// semi-finals on, 1 to 8 from the quarter-finals on. The order is built by doubling: the
/// upper seeds of round 1, top to bottom, are the bracket of half the size read side by side,
/// each match of it unfolded into two with its lower seed's match placed second and turned
/// over. For eight places round 1 is `1-8 4-5 3-6 2-7`, the semi-finals `1-4 3-2`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Bracket {
    entrants: u32,
    size: u32,
}

impl Bracket {
    /// The bracket of `entrants` players.
    ///
    /// # Errors
    ///
    /// If `entrants` is under 2 or over [`MAX_ENTRANTS`].
    pub fn new(entrants: u32) -> Result<Bracket, BracketError> {
        if entrants < 2 {
            Err(BracketError::TooFewEntrants { entrants })
        } else if entrants > MAX_ENTRANTS {
            Err(BracketError::TooManyEntrants { entrants })
        } else {
            Ok(Bracket { entrants, size: entrants.next_power_of_two() })
        }
    }

    /// The number of entrants.
    pub const fn entrants(&self) -> u32 {
        self.entrants
    }

    /// The number of places: the next power of two from the entrants.
    pub const fn size(&self) -> u32 {
        self.size
    }

    /// The number of byes: places without an entrant. They go to seeds `1..=byes()`.
    pub const fn byes(&self) -> u32 {
        self.size - self.entrants
    }

    /// The number of rounds, the final included.
    pub const fn rounds(&self) -> u32 {
        self.size.trailing_zeros()
    }

    /// The number of matches in round `round` (from 1); 0 for a round the bracket lacks.
    pub const fn matches_in(&self, round: u32) -> u32 {
        if round == 0 || round > self.rounds() {
            0
        } else {
            self.size >> round
        }
    }

    /// What round `round` (from 1) is called.
    pub const fn round_name(&self, round: u32) -> RoundName {
        match self.rounds().saturating_sub(round) {
            0 => RoundName::Final,
            1 => RoundName::SemiFinal,
            2 => RoundName::QuarterFinal,
            left => RoundName::RoundOf(2 << left),
        }
    }

    /// The seeds of round 1, two a match, in bracket order, the higher seed of each match
    /// first: `[1, 8, 4, 5, 3, 6, 2, 7]` for eight places. Numbers above [`entrants`]
    /// (`Bracket::entrants`) are byes.
    fn first_round_seeds(&self) -> Vec<u32> {
        // The higher seeds, top to bottom: [1] for two places, then each match of the half
        // bracket unfolded (seed s and the seed it meets, 2k + 1 - s) in alternating order.
        let mut upper = vec![1u32];
        while 2 * (upper.len() as u32) < self.size {
            let places = 2 * upper.len() as u32;
            upper = upper
                .iter()
                .enumerate()
                .flat_map(|(i, &s)| {
                    let partner = places + 1 - s;
                    if i % 2 == 0 {
                        [s, partner]
                    } else {
                        [partner, s]
                    }
                })
                .collect();
        }
        upper.iter().flat_map(|&s| [s, self.size + 1 - s]).collect()
    }

    /// The sides of every match of round `round` (from 1), in bracket order: seeds and byes in
    /// round 1, winners of the round before afterwards. Empty for a round the bracket lacks.
    pub fn round(&self, round: u32) -> Vec<(MatchId, [Side; 2])> {
        if round == 1 {
            let seed = |n: u32| match PlayerId::new(n) {
                Some(id) if n <= self.entrants => Side::Seed(id),
                _ => Side::Bye,
            };
            self.first_round_seeds()
                .chunks(2)
                .zip(1..)
                .map(|(pair, number)| (MatchId { round, number }, [seed(pair[0]), seed(pair[1])]))
                .collect()
        } else {
            (1..=self.matches_in(round))
                .map(|number| {
                    let id = MatchId { round, number };
                    let [upper, lower] = id.feeders().expect("rounds after the first have feeders");
                    (id, [Side::Winner(upper), Side::Winner(lower)])
                })
                .collect()
        }
    }
}

impl fmt::Display for Bracket {
    /// Round 1 by seed, `1.2  4 - 5`, the byes as `1.1  1 - bye`, then the later rounds by the
    /// matches that feed them (a bye's seed by number: `2.1  1 - winner 1.2`), each round
    /// headed by its number and name.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let first = self.round(1);
        // Who comes out of a round-1 match without playing it: the seed facing a bye.
        let shown = |side: Side| match side {
            Side::Winner(id) if id.round == 1 => {
                match first.get(id.number as usize - 1).map(|(_, sides)| *sides) {
                    Some([Side::Seed(seed), Side::Bye] | [Side::Bye, Side::Seed(seed)]) => {
                        Side::Seed(seed)
                    }
                    _ => side,
                }
            }
            _ => side,
        };
        writeln!(
            f,
            "{} players, {} places, {} byes, {} rounds",
            self.entrants,
            self.size,
            self.byes(),
            self.rounds()
        )?;
        for round in 1..=self.rounds() {
            writeln!(f, "Round {round}, {}:", self.round_name(round))?;
            for (id, [upper, lower]) in self.round(round) {
                writeln!(f, "  {id}  {} - {}", shown(upper), shown(lower))?;
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seeds(round: &[(MatchId, [Side; 2])]) -> Vec<String> {
        round.iter().map(|(_, [a, b])| format!("{a}-{b}")).collect()
    }

    #[test]
    fn eight_places_open_one_eight_four_five_three_six_two_seven() {
        let bracket = Bracket::new(8).unwrap();
        assert_eq!(seeds(&bracket.round(1)), ["1-8", "4-5", "3-6", "2-7"]);
        assert_eq!(seeds(&bracket.round(2)), ["winner 1.1-winner 1.2", "winner 1.3-winner 1.4"]);
        assert_eq!(bracket.round(4), []);
    }

    #[test]
    fn sixteen_places_keep_the_top_four_apart_until_the_semi_finals() {
        let bracket = Bracket::new(16).unwrap();
        assert_eq!(
            seeds(&bracket.round(1)),
            ["1-16", "8-9", "5-12", "4-13", "3-14", "6-11", "7-10", "2-15"]
        );
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        let bracket = Bracket::new(6).unwrap();
        assert_eq!(bracket.byes(), 2);
        assert_eq!(seeds(&bracket.round(1)), ["1-bye", "4-5", "3-6", "2-bye"]);
    }

    #[test]
    fn rounds_are_named_from_the_final_back() {
        let bracket = Bracket::new(33).unwrap();
        assert_eq!(bracket.size(), 64);
        let names: Vec<String> =
            (1..=bracket.rounds()).map(|r| bracket.round_name(r).to_string()).collect();
        assert_eq!(
            names,
            ["round of 64", "round of 32", "round of 16", "quarter-final", "semi-final", "final"]
        );
        assert_eq!(Bracket::new(2).unwrap().round_name(1), RoundName::Final);
    }

    #[test]
    fn winners_go_up_to_the_match_their_pair_feeds() {
        let id = MatchId { round: 1, number: 3 };
        assert_eq!(id.next(3), Some((MatchId { round: 2, number: 2 }, 0)));
        assert_eq!(MatchId { round: 1, number: 4 }.next(3).unwrap().1, 1);
        assert_eq!(MatchId { round: 3, number: 1 }.next(3), None);
        assert_eq!(
            MatchId { round: 2, number: 2 }.feeders(),
            Some([MatchId { round: 1, number: 3 }, MatchId { round: 1, number: 4 }])
        );
    }

    #[test]
    fn errors_name_the_input() {
        assert_eq!(
            Bracket::new(1).unwrap_err().to_string(),
            "a knockout needs at least 2 players, got 1"
        );
        assert_eq!(
            Bracket::new(5000).unwrap_err().to_string(),
            "a knockout of 5000 players is over the limit of 4096"
        );
    }
}
