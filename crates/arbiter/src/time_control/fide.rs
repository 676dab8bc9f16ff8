//! FIDE's classes of game by time (Laws of Chess, Appendices A.1 and B.1), which the `fide`
//! rule set applies (RULES.md §8.4) instead of the lobby's [`Speed`](super::Speed) bands.
//!
//! A.1: a *rapid* game is one where all the moves must be completed in a fixed time of more than
//! 10 minutes but less than 60 minutes for each player, or where the time allotted plus 60 times
//! any increment is of more than 10 minutes but less than 60 minutes. B.1: a *blitz* game is one
//! where that time is 10 minutes or less. Every other game is a *standard* game, played under
//! the Laws without the appendices.
//!
//! The "60 times any increment" counts a game of 60 moves, as FIDE's Rating Regulations (1.1)
//! say outright for standard games: "the following minimum periods in which to complete all the
//! moves, assuming the game lasts 60 moves", with "40 moves in 75 minutes, followed by all the
//! moves in 15 minutes" plus 30 seconds a move as an example of 120 minutes. Rookery counts
//! every kind of control that way ([`TimeControl::fide_allotted_ms`]):
//!
//! - **Periods** (sudden death, increments, multi-period): the base time of every period that
//!   starts within the first 60 moves (a period with a move count repeating as often as it
//!   does), plus, for each of the 60 moves, the increment of the period it is played in. So
//!   `40/5400:1800+30` allots 90 + 30 + 60 × 0.5 = 150 minutes (standard) and
//!   `40/4500:900+30` 120 minutes, the Regulations' example; `20/300` repeating allots 3 × 5
//!   minutes (rapid).
//! - **Delays** (simple and Bronstein) count as increments. The Laws know delay mode (6.3.2)
//!   but A.1 and B.1 name only increments; a delay lets a player spend up to its amount on each
//!   move without the main time running down, as an increment of that amount would.
//! - **Sandclock**: one side's starting half; the time flowing between the sides is not
//!   allotted to either.
//! - **Correspondence** (days per move): 60 allowances, always standard. The FIDE Laws do not
//!   govern correspondence chess; nothing in their rapid or blitz appendices fits a game of days.
//! - **Untimed and unknown** controls have no class: no time is allotted, and a rule that adds
//!   time has no clock to add it to.

use core::fmt;

use super::{TimeControl, TimeControlSpec, MS_PER_DAY};

/// The moves FIDE's definitions count a game as lasting (Laws A.1: "60 times any increment";
/// Rating Regulations 1.1: "assuming the game lasts 60 moves").
pub const FIDE_GAME_MOVES: u32 = 60;

/// A game's class under the FIDE Laws of Chess, by [`TimeControl::fide_allotted_ms`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum FideCategory {
    /// Appendix B.1: 10 minutes or less for each player.
    Blitz,
    /// Appendix A.1: more than 10 minutes and less than 60 minutes for each player.
    Rapid,
    /// 60 minutes or more: the Laws without the rapid and blitz appendices.
    Standard,
}

impl FideCategory {
    /// Every class, fastest first.
    pub const ALL: [FideCategory; 3] =
        [FideCategory::Blitz, FideCategory::Rapid, FideCategory::Standard];

    /// The class of a game allotting each player `allotted_ms` (A.1, B.1): blitz up to and
    /// including 10 minutes, rapid below 60 minutes, standard from 60 minutes.
    pub const fn from_allotted_ms(allotted_ms: u64) -> FideCategory {
        if allotted_ms <= 10 * 60_000 {
            FideCategory::Blitz
        } else if allotted_ms < 60 * 60_000 {
            FideCategory::Rapid
        } else {
            FideCategory::Standard
        }
    }

    /// The lowercase English name, as the Laws write it.
    pub const fn name(self) -> &'static str {
        match self {
            FideCategory::Blitz => "blitz",
            FideCategory::Rapid => "rapid",
            FideCategory::Standard => "standard",
        }
    }
}

impl fmt::Display for FideCategory {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl TimeControl {
    /// The time FIDE's definitions count as allotted to each player for a game of
    /// [`FIDE_GAME_MOVES`] moves, increments and delays included (the module docs say how each
    /// kind of control counts). `None` when untimed or unknown.
    ///
    /// No overflow: every duration is at most [`super::MAX_DURATION_MS`], and at most 61 base
    /// times and 60 bonuses are added.
    pub fn fide_allotted_ms(&self) -> Option<u64> {
        match self.spec() {
            TimeControlSpec::Unknown | TimeControlSpec::Untimed => None,
            TimeControlSpec::Periods(periods) => {
                let last = periods.len() - 1;
                let mut index = 0;
                let mut allotted = periods[0].base_ms;
                let mut left = periods[0].moves;
                for _ in 0..FIDE_GAME_MOVES {
                    if left == Some(0) {
                        // The period's moves are made: the next one starts, and its time is
                        // added (FIDE 6.3.2); a last period with a move count repeats.
                        index = (index + 1).min(last);
                        allotted += periods[index].base_ms;
                        left = periods[index].moves;
                    }
                    allotted += periods[index].bonus.amount_ms();
                    left = left.map(|n| n - 1);
                }
                Some(allotted)
            }
            TimeControlSpec::Sandclock { .. } => self.initial_ms(),
            TimeControlSpec::Correspondence { days } => {
                Some(u64::from(FIDE_GAME_MOVES) * u64::from(*days) * MS_PER_DAY)
            }
        }
    }

    /// The game's class under the FIDE Laws (Appendices A.1, B.1) by
    /// [`TimeControl::fide_allotted_ms`]; `None` when untimed or unknown. The `fide` rule set
    /// applies its rapid and blitz rules by this, never by [`TimeControl::speed`], whose
    /// lichess bands call 30 minutes classical where FIDE calls it rapid.
    pub fn fide_category(&self) -> Option<FideCategory> {
        self.fide_allotted_ms().map(FideCategory::from_allotted_ms)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The band edges of A.1 and B.1 ("10 minutes or less", "less than 60 minutes"), counting
    /// the time allotted plus 60 times any increment; each case names its text.
    #[test]
    fn fide_category_at_the_band_edges() {
        use FideCategory::{Blitz, Rapid, Standard};
        let cases = [
            ("60", Blitz),
            ("180+2", Blitz), // 3 + 2 minutes
            ("599", Blitz),
            ("600", Blitz), // B.1: 10 minutes or less
            ("600+0", Blitz),
            ("540+1", Blitz),   // 9 + 1 = 10 minutes
            ("600.001", Rapid), // more than 10 minutes
            ("599+1", Rapid),   // 599 + 60 s
            ("0+10", Blitz),    // 60 × 10 s
            ("0+10.001", Rapid),
            ("600+5", Rapid),      // 10 + 5 minutes
            ("1800", Rapid),       // 30 minutes: rapid, although the lobby says classical
            ("1800+30", Standard), // 30 + 60 × 0.5 = 60 minutes
            ("2700+10", Rapid),    // 45 + 10 minutes
            ("3599", Rapid),       // less than 60 minutes
            ("3599.999", Rapid),
            ("3600", Standard),   // 60 minutes is no longer rapid
            ("3540+1", Standard), // 59 + 1 minutes
            ("3000+10", Standard),
            ("5400+30", Standard),
        ];
        for (text, want) in cases {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.fide_category(), Some(want), "{text}");
        }
    }

    /// Delays count as increments, a sandclock by one side's half, correspondence as standard,
    /// untimed controls have no class.
    #[test]
    fn fide_category_for_every_kind_of_control() {
        use FideCategory::{Blitz, Rapid, Standard};
        let cases = [
            ("300d5", Some(Blitz)), // 5 + 60 × 5 s = 10 minutes
            ("300b5", Some(Blitz)),
            ("300d5.001", Some(Rapid)),
            ("300b5.001", Some(Rapid)),
            ("1800d30", Some(Standard)), // 30 + 30 minutes
            ("*1200", Some(Blitz)),      // 10 minutes a side
            ("*1200.002", Some(Rapid)),
            ("*7200", Some(Standard)),
            ("1d", Some(Standard)),
            ("-", None),
            ("?", None),
        ];
        for (text, want) in cases {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.fide_category(), want, "{text}");
        }
    }

    /// What a multi-period control allots for a game of 60 moves: the periods that start within
    /// them, each move's own increment, a repeating last period as often as it starts.
    #[test]
    fn fide_allotted_time_of_multi_period_controls() {
        let cases: [(&str, u64); 8] = [
            // 90 + 30 minutes + 60 × 30 s (the shorthand: the increment in both periods).
            ("40/5400:1800+30", 9_000_000),
            // The Rating Regulations' example of 120 minutes (1.1).
            ("40/4500:900+30", 7_200_000),
            ("40/5400:1800", 7_200_000),
            // The increment only from move 41: 20 moves of it within 60.
            ("40/5400+0:1800+30", 7_800_000),
            // The second period starts only after move 60.
            ("60/3000:1800", 3_000_000),
            ("59/3000:1800", 4_800_000),
            // A repeating period starts three times in 60 moves.
            ("20/300", 900_000),
            ("40/7200", 14_400_000),
        ];
        for (text, want) in cases {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.fide_allotted_ms(), Some(want), "{text}");
        }
        let category = |s: &str| s.parse::<TimeControl>().unwrap().fide_category();
        assert_eq!(category("20/300"), Some(FideCategory::Rapid), "three periods of 5 minutes");
        assert_eq!(category("60/3000:1800"), Some(FideCategory::Rapid));
        assert_eq!(category("59/3000:1800"), Some(FideCategory::Standard));
    }
}
