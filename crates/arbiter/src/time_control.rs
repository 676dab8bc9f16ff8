//! Time controls (RULES.md §9): what a [`Clock`](crate::clock::Clock) is set to.
//!
//! A [`TimeControlSpec`] is the raw description (any values); a [`TimeControl`] is a
//! validated one, reached only through [`TimeControl::from_spec`], the constructors below or
//! [`str::parse`]. All durations are whole milliseconds.
//!
//! # Kinds
//!
//! - **Sudden death**: a base time for the whole game.
//! - **Fischer increment**: a fixed bonus is added after every move made in time (FIDE Laws
//!   6.3.1, "any additional amount of time with each move").
//! - **Bronstein delay**: after every move the time used on it is added back, up to the delay,
//!   so a move never ends with more time than it started with (unlike an increment).
//! - **Simple (US) delay**: the main time only starts to run after the delay of each move has
//!   passed (FIDE Laws 6.3.2, "time-delay mode").
//! - **Multi-period**: "40 moves in 90 minutes, then 30 minutes, plus 30 seconds per move from
//!   move 1". A period with a move count ends with that many moves by the player and then the
//!   next period's time is added (FIDE Laws 6.3.2: time saved carries over); the last period
//!   repeats when it has a move count (PGN standard §9.6.1: "the last field appearing is
//!   considered to be implicitly repeated"). Each period has its own increment or delay.
//! - **Sandclock** (hourglass): a total time with equal halves; while one side thinks, its
//!   time runs down and the opponent's grows by the same amount (PGN standard §9.6.1).
//! - **Correspondence**: a number of days per move; the allowance starts afresh with every
//!   move.
//! - **Untimed** (`-`) and **unknown** (`?`): no clock runs and no flag falls.
//!
//! # Text form: the PGN `TimeControl` tag and Rookery's extensions
//!
//! [`Display`](fmt::Display) writes and [`FromStr`] reads the PGN standard (1994) §9.6.1
//! forms, extended where the standard has no syntax. Seconds may carry up to three decimals
//! (an extension: `10+0.1`); everything else is as below.
//!
//! | text | meaning | source |
//! |---|---|---|
//! | `?` | unknown | PGN |
//! | `-` | untimed | PGN |
//! | `300` | sudden death, 300 s | PGN |
//! | `180+2` | 180 s, Fischer increment 2 s | PGN |
//! | `40/9000` | 40 moves in 9000 s, repeating | PGN |
//! | `40/5400:1800` | 40 moves in 90 min, then 30 min sudden death | PGN |
//! | `*180` | sandclock holding 180 s in all (90 s a side) | PGN |
//! | `300d5` | 300 s, simple (US) delay 5 s | Rookery |
//! | `300b5` | 300 s, Bronstein delay 5 s | Rookery |
//! | `3d` | correspondence, 3 days per move | Rookery |
//! | `10+0.1` | 10 s, increment 0.1 s | Rookery |
//! | `40/5400:1800+30` | increment 30 s in *both* periods (shorthand) | common usage |
//! | `40/5400+30:1800+30` | the same, written out per period | common usage |
//! | `40/5400+0:1800+30` | increment only from the second period on | Rookery |
//!
//! The grammar (`:` separates periods; no spaces):
//!
//! ```text
//! control  = "?" | "-" | days "d" | "*" seconds | period *(":" period)
//! period   = [moves "/"] seconds [bonus]
//! bonus    = ("+" | "d" | "b") seconds     ; increment, simple delay, Bronstein delay
//! seconds  = digits ["." 1*3digit]
//! moves    = digits (at least 1)            days = digits (at least 1)
//! ```
//!
//! Shorthand: when only the last period writes a bonus, that bonus applies to every period.
//! Writing a bonus on any earlier period (`+0` included) turns the shorthand off, and each
//! period then has exactly the bonus written on it. A zero bonus is the same as none.
//!
//! [`Display`](fmt::Display) is canonical and round-trips: `s.parse::<TimeControl>()` of a
//! written control gives back an equal value. It uses the shorthand when every period has the
//! same bonus, and otherwise writes each bonus out (with `+0` on the first period when it has
//! none, to keep the shorthand off).
//!
//! ```
//! use rookery_arbiter::time_control::{FideCategory, Speed, TimeControl};
//!
//! let tc: TimeControl = "40/5400+30:1800+30".parse()?;
//! assert_eq!(tc.to_string(), "40/5400:1800+30");
//! assert_eq!(tc.speed(), Speed::Classical);
//! assert_eq!(tc.fide_category(), Some(FideCategory::Standard));
//! // The lobby's bands and FIDE's differ: 30 minutes is classical in one, rapid in the other.
//! let half_hour: TimeControl = "1800".parse()?;
//! assert_eq!(half_hour.speed(), Speed::Classical);
//! assert_eq!(half_hour.fide_category(), Some(FideCategory::Rapid));
//! assert_eq!(TimeControl::fischer(180_000, 2_000)?.to_string(), "180+2");
//! assert_eq!("300d5".parse::<TimeControl>()?, TimeControl::simple_delay(300_000, 5_000)?);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod fide;
mod text;

use core::fmt;
use core::str::FromStr;

pub use fide::{FideCategory, FIDE_GAME_MOVES};
pub use text::{ParseTimeControlError, ParseTimeControlErrorKind};

/// One millisecond-per-day factor, for correspondence allowances.
pub const MS_PER_DAY: u64 = 86_400_000;

/// The longest duration a time control may name: 3650 days (about ten years). The cap keeps
/// every sum a clock forms far from `u64` overflow.
pub const MAX_DURATION_MS: u64 = 3650 * MS_PER_DAY;

/// What a move earns on top of the base time.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Bonus {
    /// Nothing.
    #[default]
    None,
    /// Fischer increment: added after every move made in time (FIDE Laws 6.3.1).
    Increment(u64),
    /// Simple (US) delay: the main time runs only after this long into each move (FIDE Laws
    /// 6.3.2, "time-delay mode").
    SimpleDelay(u64),
    /// Bronstein delay: after every move, the time used is added back, up to this amount.
    Bronstein(u64),
}

impl Bonus {
    /// The amount in milliseconds (0 for [`Bonus::None`]).
    pub const fn amount_ms(self) -> u64 {
        match self {
            Bonus::None => 0,
            Bonus::Increment(ms) | Bonus::SimpleDelay(ms) | Bonus::Bronstein(ms) => ms,
        }
    }

    /// `true` for [`Bonus::None`].
    pub const fn is_none(self) -> bool {
        matches!(self, Bonus::None)
    }

    /// A zero amount is no bonus at all.
    const fn normalized(self) -> Bonus {
        if self.amount_ms() == 0 {
            Bonus::None
        } else {
            self
        }
    }
}

/// One period of a multi-period control (or the only one).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Period {
    /// Moves a player must make in this period; `None` for sudden death (the last period
    /// only). A last period with a move count repeats.
    pub moves: Option<u32>,
    /// Time added to the player's clock when the period starts, in milliseconds.
    pub base_ms: u64,
    /// Increment or delay for every move made in this period.
    pub bonus: Bonus,
}

impl Period {
    /// A sudden-death period of `base_ms`, no bonus.
    pub const fn sudden_death(base_ms: u64) -> Period {
        Period { moves: None, base_ms, bonus: Bonus::None }
    }

    /// `moves` moves in `base_ms`, no bonus.
    pub const fn moves_in(moves: u32, base_ms: u64) -> Period {
        Period { moves: Some(moves), base_ms, bonus: Bonus::None }
    }

    /// The same period with `bonus`.
    pub const fn with_bonus(self, bonus: Bonus) -> Period {
        Period { bonus, ..self }
    }
}

/// A time control as written, not yet checked. [`TimeControl::from_spec`] validates it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum TimeControlSpec {
    /// `?`: the time control is not known; run untimed.
    Unknown,
    /// `-`: no time control.
    Untimed,
    /// One or more periods (sudden death, increments, delays, move counts).
    Periods(Vec<Period>),
    /// A sandclock holding `total_ms` in all, half on each side at the start.
    Sandclock {
        /// Both sides' time together.
        total_ms: u64,
    },
    /// Correspondence: `days` per move, starting afresh with every move.
    Correspondence {
        /// Days allowed for each move.
        days: u32,
    },
}

/// Why a [`TimeControlSpec`] is not a valid time control. Periods are counted from 1.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeControlError {
    /// `Periods` with an empty list.
    NoPeriods,
    /// A period asks for zero moves.
    ZeroMoves {
        /// The period, from 1.
        period: usize,
    },
    /// A period has neither a base time nor a bonus, so it gives no time to move.
    NoTime {
        /// The period, from 1.
        period: usize,
    },
    /// A period follows a sudden-death period and could never start.
    AfterSuddenDeath {
        /// The unreachable period, from 1.
        period: usize,
    },
    /// A sandclock holding no time.
    EmptySandclock,
    /// Correspondence with zero days per move.
    ZeroDays,
    /// A duration beyond [`MAX_DURATION_MS`].
    TooLong {
        /// The offending duration in milliseconds.
        ms: u64,
    },
}

impl fmt::Display for TimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            TimeControlError::NoPeriods => f.write_str("a timed control needs at least one period"),
            TimeControlError::ZeroMoves { period } => {
                write!(f, "period {period} asks for zero moves")
            }
            TimeControlError::NoTime { period } => {
                write!(f, "period {period} gives no time: no base time and no increment or delay")
            }
            TimeControlError::AfterSuddenDeath { period } => {
                write!(f, "period {period} follows a sudden-death period and would never start")
            }
            TimeControlError::EmptySandclock => f.write_str("a sandclock must hold some time"),
            TimeControlError::ZeroDays => {
                f.write_str("correspondence needs at least one day per move")
            }
            TimeControlError::TooLong { ms } => {
                write!(f, "{ms} ms is longer than the limit of {MAX_DURATION_MS} ms (3650 days)")
            }
        }
    }
}

impl std::error::Error for TimeControlError {}

/// Speed category by estimated game duration (lichess's rule: base + 40 × increment).
///
/// The lobby's bands: for display, seeks, first-move deadlines and abandonment. Not FIDE's:
/// the `fide` rule set classifies by [`TimeControl::fide_category`] (RULES.md §8.4), under
/// which 30 minutes a side is rapid, not classical. lichess's *UltraBullet* (under 30 s) counts
/// as [`Speed::Bullet`] here.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Estimated duration under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// Days per move.
    Correspondence,
    /// No clock (`-` or `?`).
    Untimed,
}

impl Speed {
    /// Every category, fastest first.
    pub const ALL: [Speed; 6] = [
        Speed::Bullet,
        Speed::Blitz,
        Speed::Rapid,
        Speed::Classical,
        Speed::Correspondence,
        Speed::Untimed,
    ];

    /// The category of a timed game whose estimated duration is `estimate_ms`
    /// (lichess: < 180 s bullet, < 480 s blitz, < 1500 s rapid, else classical).
    pub const fn from_estimate_ms(estimate_ms: u64) -> Speed {
        if estimate_ms < 180_000 {
            Speed::Bullet
        } else if estimate_ms < 480_000 {
            Speed::Blitz
        } else if estimate_ms < 1_500_000 {
            Speed::Rapid
        } else {
            Speed::Classical
        }
    }

    /// The lowercase English name.
    pub const fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
            Speed::Untimed => "untimed",
        }
    }
}

impl fmt::Display for Speed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A validated time control.
///
/// Invariants (checked by [`TimeControl::from_spec`]): periods are non-empty; only the last
/// may be sudden death; every move count is at least 1; every period gives some time (a base
/// or a bonus); zero bonuses are stored as [`Bonus::None`]; a sandclock holds time;
/// correspondence allows at least one day; no duration exceeds [`MAX_DURATION_MS`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TimeControl {
    spec: TimeControlSpec,
}

impl TimeControl {
    /// `?`: the time control is not known. Runs like [`TimeControl::untimed`].
    pub const fn unknown() -> TimeControl {
        TimeControl { spec: TimeControlSpec::Unknown }
    }

    /// `-`: no clock.
    pub const fn untimed() -> TimeControl {
        TimeControl { spec: TimeControlSpec::Untimed }
    }

    /// Sudden death: `base_ms` for the whole game.
    ///
    /// # Errors
    /// [`TimeControlError::NoTime`] for 0, [`TimeControlError::TooLong`] beyond the cap.
    pub fn sudden_death(base_ms: u64) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_periods(vec![Period::sudden_death(base_ms)])
    }

    /// `base_ms` plus a Fischer increment of `increment_ms` after every move.
    ///
    /// # Errors
    /// [`TimeControlError::NoTime`] when both are 0, [`TimeControlError::TooLong`].
    pub fn fischer(base_ms: u64, increment_ms: u64) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_periods(vec![
            Period::sudden_death(base_ms).with_bonus(Bonus::Increment(increment_ms))
        ])
    }

    /// `base_ms` with a Bronstein delay of `delay_ms`.
    ///
    /// # Errors
    /// [`TimeControlError::NoTime`] when both are 0, [`TimeControlError::TooLong`].
    pub fn bronstein(base_ms: u64, delay_ms: u64) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_periods(vec![
            Period::sudden_death(base_ms).with_bonus(Bonus::Bronstein(delay_ms))
        ])
    }

    /// `base_ms` with a simple (US) delay of `delay_ms`.
    ///
    /// # Errors
    /// [`TimeControlError::NoTime`] when both are 0, [`TimeControlError::TooLong`].
    pub fn simple_delay(base_ms: u64, delay_ms: u64) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_periods(vec![
            Period::sudden_death(base_ms).with_bonus(Bonus::SimpleDelay(delay_ms))
        ])
    }

    /// A multi-period control, e.g. `vec![Period::moves_in(40, 5_400_000),
    /// Period::sudden_death(1_800_000)]`, with [`Period::with_bonus`] on each period that has
    /// one (no shorthand here: each period gets exactly its own bonus).
    ///
    /// # Errors
    /// Any [`TimeControlError`] about periods.
    pub fn from_periods(periods: Vec<Period>) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_spec(TimeControlSpec::Periods(periods))
    }

    /// A sandclock holding `total_ms` in all (each side starts with half; White gets the odd
    /// millisecond).
    ///
    /// # Errors
    /// [`TimeControlError::EmptySandclock`] for 0, [`TimeControlError::TooLong`].
    pub fn sandclock(total_ms: u64) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_spec(TimeControlSpec::Sandclock { total_ms })
    }

    /// Correspondence with `days` per move.
    ///
    /// # Errors
    /// [`TimeControlError::ZeroDays`] for 0, [`TimeControlError::TooLong`] beyond 3650.
    pub fn correspondence(days: u32) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_spec(TimeControlSpec::Correspondence { days })
    }

    /// Checks `spec` and normalizes zero bonuses to [`Bonus::None`].
    ///
    /// # Errors
    /// The first [`TimeControlError`] found, periods in order.
    pub fn from_spec(spec: TimeControlSpec) -> Result<TimeControl, TimeControlError> {
        let check = |ms: u64| {
            if ms > MAX_DURATION_MS {
                Err(TimeControlError::TooLong { ms })
            } else {
                Ok(())
            }
        };
        let spec = match spec {
            TimeControlSpec::Unknown | TimeControlSpec::Untimed => spec,
            TimeControlSpec::Periods(mut periods) => {
                if periods.is_empty() {
                    return Err(TimeControlError::NoPeriods);
                }
                let last = periods.len() - 1;
                for (i, p) in periods.iter_mut().enumerate() {
                    let period = i + 1;
                    p.bonus = p.bonus.normalized();
                    check(p.base_ms)?;
                    check(p.bonus.amount_ms())?;
                    match p.moves {
                        Some(0) => return Err(TimeControlError::ZeroMoves { period }),
                        None if i < last => {
                            return Err(TimeControlError::AfterSuddenDeath { period: period + 1 })
                        }
                        _ => {}
                    }
                    if p.base_ms == 0 && p.bonus.is_none() {
                        return Err(TimeControlError::NoTime { period });
                    }
                }
                TimeControlSpec::Periods(periods)
            }
            TimeControlSpec::Sandclock { total_ms } => {
                if total_ms == 0 {
                    return Err(TimeControlError::EmptySandclock);
                }
                check(total_ms)?;
                spec
            }
            TimeControlSpec::Correspondence { days } => {
                if days == 0 {
                    return Err(TimeControlError::ZeroDays);
                }
                check(u64::from(days) * MS_PER_DAY)?;
                spec
            }
        };
        Ok(TimeControl { spec })
    }

    /// The validated description.
    pub const fn spec(&self) -> &TimeControlSpec {
        &self.spec
    }

    /// The description, giving up validation.
    pub fn into_spec(self) -> TimeControlSpec {
        self.spec
    }

    /// The periods, empty unless this is a period control.
    pub fn periods(&self) -> &[Period] {
        match &self.spec {
            TimeControlSpec::Periods(periods) => periods,
            _ => &[],
        }
    }

    /// `false` for untimed and unknown controls, which never flag.
    pub const fn is_timed(&self) -> bool {
        !matches!(self.spec, TimeControlSpec::Unknown | TimeControlSpec::Untimed)
    }

    /// The time each side starts with: the first period's base, half the sandclock (White's
    /// half when the total is odd) or one correspondence allowance. `None` when untimed.
    pub fn initial_ms(&self) -> Option<u64> {
        match &self.spec {
            TimeControlSpec::Unknown | TimeControlSpec::Untimed => None,
            TimeControlSpec::Periods(periods) => Some(periods[0].base_ms),
            TimeControlSpec::Sandclock { total_ms } => Some(total_ms - total_ms / 2),
            TimeControlSpec::Correspondence { days } => Some(u64::from(*days) * MS_PER_DAY),
        }
    }

    /// The estimated duration of one side's game: the base times of all periods (each listed
    /// period once) plus 40 × the first period's increment or delay; for a sandclock, one
    /// side's half. `None` for correspondence and untimed controls.
    pub fn estimated_duration_ms(&self) -> Option<u64> {
        match &self.spec {
            TimeControlSpec::Periods(periods) => {
                let base: u64 = periods.iter().map(|p| p.base_ms).sum();
                Some(base + 40 * periods[0].bonus.amount_ms())
            }
            TimeControlSpec::Sandclock { .. } => self.initial_ms(),
            _ => None,
        }
    }

    /// The speed category: by [`TimeControl::estimated_duration_ms`] and
    /// [`Speed::from_estimate_ms`] for period controls and sandclocks, otherwise
    /// [`Speed::Correspondence`] or [`Speed::Untimed`] (unknown controls included).
    pub fn speed(&self) -> Speed {
        match &self.spec {
            TimeControlSpec::Unknown | TimeControlSpec::Untimed => Speed::Untimed,
            TimeControlSpec::Correspondence { .. } => Speed::Correspondence,
            _ => Speed::from_estimate_ms(self.estimated_duration_ms().unwrap_or(0)),
        }
    }
}

impl TryFrom<TimeControlSpec> for TimeControl {
    type Error = TimeControlError;

    fn try_from(spec: TimeControlSpec) -> Result<TimeControl, TimeControlError> {
        TimeControl::from_spec(spec)
    }
}

impl FromStr for TimeControl {
    type Err = ParseTimeControlError;

    fn from_str(s: &str) -> Result<TimeControl, ParseTimeControlError> {
        text::parse(s)
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        text::write(&self.spec, f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constructors_validate_and_normalize() {
        assert_eq!(TimeControl::sudden_death(0), Err(TimeControlError::NoTime { period: 1 }));
        assert_eq!(TimeControl::fischer(0, 0), Err(TimeControlError::NoTime { period: 1 }));
        // 0+1 is a real control: one second per move and nothing banked.
        assert!(TimeControl::fischer(0, 1_000).is_ok());
        assert_eq!(TimeControl::fischer(60_000, 0), TimeControl::sudden_death(60_000));
        assert_eq!(TimeControl::bronstein(60_000, 0), TimeControl::sudden_death(60_000));
        assert_eq!(TimeControl::sandclock(0), Err(TimeControlError::EmptySandclock));
        assert_eq!(TimeControl::correspondence(0), Err(TimeControlError::ZeroDays));
        assert!(TimeControl::correspondence(3650).is_ok());
        assert_eq!(
            TimeControl::correspondence(3651),
            Err(TimeControlError::TooLong { ms: 3651 * MS_PER_DAY })
        );
        assert_eq!(
            TimeControl::sudden_death(MAX_DURATION_MS + 1),
            Err(TimeControlError::TooLong { ms: MAX_DURATION_MS + 1 })
        );
        assert_eq!(TimeControl::from_periods(vec![]), Err(TimeControlError::NoPeriods));
        assert_eq!(
            TimeControl::from_periods(vec![Period::moves_in(0, 60_000)]),
            Err(TimeControlError::ZeroMoves { period: 1 })
        );
        assert_eq!(
            TimeControl::from_periods(vec![Period::sudden_death(60_000), Period::moves_in(40, 1)]),
            Err(TimeControlError::AfterSuddenDeath { period: 2 })
        );
    }

    #[test]
    fn error_messages_are_lowercase_without_final_period() {
        let errors = [
            TimeControlError::NoPeriods,
            TimeControlError::ZeroMoves { period: 1 },
            TimeControlError::NoTime { period: 2 },
            TimeControlError::AfterSuddenDeath { period: 2 },
            TimeControlError::EmptySandclock,
            TimeControlError::ZeroDays,
            TimeControlError::TooLong { ms: 1 },
        ];
        for e in errors {
            let msg = e.to_string();
            assert!(msg.starts_with(|c: char| !c.is_uppercase()), "{msg}");
            assert!(!msg.ends_with('.'), "{msg}");
        }
    }

    /// lichess's thresholds on base + 40 × increment (the lobby's bands; FIDE's are tested in
    /// `fide.rs`).
    #[test]
    fn speed_follows_lichess_estimate() {
        let cases = [
            ("15", Speed::Bullet), // ultrabullet counts as bullet
            ("60+1", Speed::Bullet),
            ("120+1", Speed::Bullet), // 120 + 40 = 160 s
            ("180+0", Speed::Blitz),
            ("180+2", Speed::Blitz),
            ("300+3", Speed::Blitz),
            ("479", Speed::Blitz),
            ("480", Speed::Rapid),
            ("600+5", Speed::Rapid),
            ("1499.999", Speed::Rapid),
            ("1500", Speed::Classical),
            ("40/5400:1800+30", Speed::Classical),
            ("300d5", Speed::Rapid), // 300 + 200
            ("300b2", Speed::Blitz), // 300 + 80
            ("*360", Speed::Blitz),  // 180 s a side
            ("3d", Speed::Correspondence),
            ("-", Speed::Untimed),
            ("?", Speed::Untimed),
        ];
        for (text, want) in cases {
            let tc: TimeControl = text.parse().unwrap();
            assert_eq!(tc.speed(), want, "{text}");
        }
        assert_eq!(Speed::from_estimate_ms(179_999), Speed::Bullet);
        assert_eq!(Speed::from_estimate_ms(180_000), Speed::Blitz);
        assert_eq!(Speed::from_estimate_ms(479_999), Speed::Blitz);
        assert_eq!(Speed::from_estimate_ms(1_499_999), Speed::Rapid);
    }

    #[test]
    fn initial_time_per_kind() {
        let initial = |s: &str| s.parse::<TimeControl>().unwrap().initial_ms();
        assert_eq!(initial("300+2"), Some(300_000));
        assert_eq!(initial("40/5400:1800"), Some(5_400_000));
        assert_eq!(initial("*180"), Some(90_000));
        assert_eq!(initial("*0.003"), Some(2)); // White gets the odd millisecond
        assert_eq!(initial("2d"), Some(2 * MS_PER_DAY));
        assert_eq!(initial("-"), None);
        assert_eq!(initial("?"), None);
    }
}
