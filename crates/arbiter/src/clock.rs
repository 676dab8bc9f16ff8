//! The game clock (RULES.md §9; FIDE Laws article 6).
//!
//! A [`Clock`] is pure arithmetic on whole milliseconds: every operation takes `now`, a
//! reading in milliseconds from any fixed epoch, and nothing here reads a system clock. The
//! caller (the game's actor) stamps each action once and passes the stamp in; tests advance a
//! fake clock.
//!
//! # Conventions
//!
//! - **Flag fall is exact to the millisecond.** The running side's flag falls at
//!   [`Clock::flag_deadline`]; a press *at* the deadline millisecond is in time, and the flag
//!   has fallen only when `now > deadline`. So a move that mates in the very millisecond the
//!   flag would fall wins (RULES.md §5; FIDE Laws 5.1.1: checkmate ends the game at once,
//!   and 6.9 applies only once the flag has fallen).
//! - **A press completes a move** (RULES.md §9, FIDE Laws 6.2.1): it stops the mover's clock,
//!   applies the increment or delay, counts the move for period control, adds the next
//!   period's time when the period's moves are made (FIDE Laws 6.3.2), and starts the other
//!   side's clock at the same millisecond.
//! - **Bonus rules.** Fischer: the increment is added after every move made in time (FIDE
//!   6.3.1), the first included. Bronstein: after the move, the time spent is added back, up
//!   to the delay. Simple (US) delay: the main time does not move during the first `delay` ms
//!   of each move (FIDE 6.3.2, "time-delay mode"), so the flag falls `delay` ms later than
//!   the main time alone says. Sandclock: the opponent's
//!   time grows by exactly what the mover's shrinks (PGN §9.6.1). Correspondence: each move
//!   may take up to the days per move; after a move the allowance starts afresh (time added
//!   with [`Clock::add_time`] above the allowance is kept until used).
//! - **Untimed** and **unknown** controls count moves but never flag; their remaining time
//!   is `None`.
//! - **Accounting.** For every side, at any moment between moves, exactly
//!   `initial + Σ bonus + Σ period_added + Σ opponent_added + Σ add_time`
//!   `= Σ spent + remaining`, with the sums over that side's [`MoveReport`]s (for
//!   `opponent_added`, the opponent's reports). For a simple delay, `bonus` is the part of
//!   the move covered by the delay. Arithmetic saturates at `u64::MAX`, which validated
//!   controls keep out of reach.
//!
//! ```
//! use rookery_arbiter::clock::Clock;
//! use rookery_arbiter::time_control::TimeControl;
//! use rookery_core::Color;
//!
//! let mut clock = Clock::new("180+2".parse::<TimeControl>()?);
//! clock.start(Color::White, 1_000)?;
//! assert_eq!(clock.flag_deadline(Color::White), Some(181_000));
//! let report = clock.press(6_000)?; // White took 5 s and gets 2 s back
//! assert_eq!((report.spent, report.bonus, report.remaining), (5_000, 2_000, Some(177_000)));
//! assert_eq!(clock.running(), Some(Color::Black));
//! assert_eq!(clock.flagged(186_000), None);
//! assert_eq!(clock.flagged(186_001), Some(Color::Black));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod state;

use core::fmt;

use rookery_core::{ByColor, Color};

use crate::time_control::{Bonus, Period, TimeControl, TimeControlSpec, MS_PER_DAY};

pub use state::{ClockState, ClockStateError};

/// A chess clock set to a [`TimeControl`]. See the [module docs](self) for the conventions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Clock {
    tc: TimeControl,
    /// Each side's main time, not counting the move in progress.
    remaining: ByColor<u64>,
    moves: ByColor<u32>,
    period: ByColor<u32>,
    /// The side whose clock is on (running or paused).
    active: Option<Color>,
    /// When the active side's clock last started running; `None` when paused or idle.
    since: Option<u64>,
    /// Time the active side already used on this move before `since` (pauses split a move).
    move_elapsed: u64,
    /// Sides that gave up their increment or delay (an arena's berserk).
    no_bonus: ByColor<bool>,
}

/// What one press did: the move just completed by `color`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveReport {
    /// The side that moved.
    pub color: Color,
    /// Wall time the move took, in ms (across pauses).
    pub spent: u64,
    /// Time credited for the move: the Fischer increment, the Bronstein add-back, the part
    /// of the move a simple delay covered, or what resets a correspondence allowance.
    pub bonus: u64,
    /// The base time of the period this move entered (0 when no period started).
    pub period_added: u64,
    /// Sandclock: the time the opponent gained (equal to `spent`); otherwise 0.
    pub opponent_added: u64,
    /// The mover's time after the move (for `[%clk]`); `None` when untimed.
    pub remaining: Option<u64>,
    /// Moves the mover has made, this one included.
    pub moves: u32,
    /// The mover's period after the move (0-based).
    pub period: u32,
}

impl MoveReport {
    /// All time added to the mover's clock: `bonus + period_added`.
    pub const fn added(&self) -> u64 {
        self.bonus + self.period_added
    }
}

/// Why a clock operation was refused. The clock is left unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockError {
    /// `press`, `stop` or `resume` before `start`.
    NotStarted,
    /// `start` on a clock already started.
    AlreadyStarted {
        /// The side whose clock is on.
        color: Color,
    },
    /// `press` or `stop` while paused.
    Paused {
        /// The side whose clock is paused.
        color: Color,
    },
    /// `resume` while running.
    Running {
        /// The side whose clock runs.
        color: Color,
    },
    /// The running side's flag fell before `now`: the move (or stop) came too late.
    Flagged {
        /// The side whose flag fell.
        color: Color,
        /// The last millisecond that was still in time.
        deadline: u64,
        /// The stamp of the refused operation.
        now: u64,
    },
    /// `now` is earlier than the moment the running clock started.
    TimeWentBackwards {
        /// When the clock started running.
        since: u64,
        /// The stamp of the refused operation.
        now: u64,
    },
}

impl fmt::Display for ClockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClockError::NotStarted => f.write_str("the clock has not been started"),
            ClockError::AlreadyStarted { color } => {
                write!(f, "the clock is already started, with {color} to move")
            }
            ClockError::Paused { color } => {
                write!(f, "the clock is paused with {color} to move; resume it first")
            }
            ClockError::Running { color } => {
                write!(f, "the clock is running for {color}, not paused")
            }
            ClockError::Flagged { color, deadline, now } => {
                write!(f, "{color}'s flag fell after {deadline} ms, before the action at {now} ms")
            }
            ClockError::TimeWentBackwards { since, now } => write!(
                f,
                "time went backwards: {now} ms is before the clock started running at {since} ms"
            ),
        }
    }
}

impl std::error::Error for ClockError {}

/// The period in force at 0-based index `k`: past the list, the last period repeats.
fn period_at(periods: &[Period], k: u32) -> &Period {
    &periods[(k as usize).min(periods.len() - 1)]
}

/// The number of moves after which period `k` ends; `None` for sudden death (or a period
/// that cannot exist because a sudden-death period came first).
fn period_end(periods: &[Period], k: u32) -> Option<u64> {
    let k = k as usize;
    let last = periods.len() - 1;
    let mut total = 0u64;
    for p in &periods[..=k.min(last)] {
        total += u64::from(p.moves?);
    }
    if k > last {
        total += (k - last) as u64 * u64::from(periods[last].moves?);
    }
    Some(total)
}

/// The number of moves made when period `k` starts.
fn period_start(periods: &[Period], k: u32) -> Option<u64> {
    match k {
        0 => Some(0),
        _ => period_end(periods, k - 1),
    }
}

impl Clock {
    /// A clock set to `tc`, nobody's clock running, no moves made. Each side starts with
    /// [`TimeControl::initial_ms`] (for a sandclock, White holds the odd millisecond).
    pub fn new(tc: TimeControl) -> Clock {
        let remaining = match *tc.spec() {
            TimeControlSpec::Sandclock { total_ms } => {
                ByColor { white: total_ms - total_ms / 2, black: total_ms / 2 }
            }
            _ => {
                let initial = tc.initial_ms().unwrap_or(0);
                ByColor { white: initial, black: initial }
            }
        };
        Clock {
            tc,
            remaining,
            moves: ByColor::default(),
            period: ByColor::default(),
            active: None,
            since: None,
            move_elapsed: 0,
            no_bonus: ByColor::default(),
        }
    }

    /// The time control the clock is set to.
    pub const fn time_control(&self) -> &TimeControl {
        &self.tc
    }

    /// The side whose clock is on, running or paused.
    pub const fn active(&self) -> Option<Color> {
        self.active
    }

    /// The side whose clock is running now (`None` when idle or paused).
    pub const fn running(&self) -> Option<Color> {
        match self.since {
            Some(_) => self.active,
            None => None,
        }
    }

    /// `true` after [`Clock::stop`] and before [`Clock::resume`].
    pub const fn is_paused(&self) -> bool {
        self.active.is_some() && self.since.is_none()
    }

    /// Moves `color` has completed (presses).
    pub fn moves(&self, color: Color) -> u32 {
        self.moves[color]
    }

    /// The 0-based period `color` is in (beyond the list when the last period repeats).
    pub fn period(&self, color: Color) -> u32 {
        self.period[color]
    }

    /// Moves `color` still has to make in the current period; `None` in sudden death and for
    /// controls without periods.
    pub fn moves_to_control(&self, color: Color) -> Option<u32> {
        let periods = self.tc.periods();
        if periods.is_empty() {
            return None;
        }
        let end = period_end(periods, self.period[color])?;
        u32::try_from(end - u64::from(self.moves[color])).ok()
    }

    /// Simple delay in force for `color`'s current move (0 if none).
    fn simple_delay(&self, color: Color) -> u64 {
        match self.tc.periods() {
            [] => 0,
            periods => match period_at(periods, self.period[color]).bonus {
                Bonus::SimpleDelay(delay) => delay,
                _ => 0,
            },
        }
    }

    /// Wall time `color` may use on its current move in all: main time plus simple delay.
    fn allowance(&self, color: Color) -> Option<u64> {
        self.tc.is_timed().then(|| self.remaining[color].saturating_add(self.simple_delay(color)))
    }

    /// Time the active side has spent on its current move by `now`.
    fn elapsed(&self, now: u64) -> u64 {
        let running = self.since.map_or(0, |since| now.saturating_sub(since));
        self.move_elapsed.saturating_add(running)
    }

    /// The time `color`'s display shows at `now`: for the side to move, its main time minus
    /// what this move has used (for a simple delay, only what it used past the delay); for a
    /// sandclock's waiting side, its time plus what the mover has used. Never negative: 0
    /// once the flag has fallen. `None` when untimed.
    pub fn remaining(&self, color: Color, now: u64) -> Option<u64> {
        if !self.tc.is_timed() {
            return None;
        }
        let own = self.remaining[color];
        Some(match self.active {
            Some(active) if active == color => {
                own.saturating_sub(self.elapsed(now).saturating_sub(self.simple_delay(color)))
            }
            Some(active) if matches!(self.tc.spec(), TimeControlSpec::Sandclock { .. }) => {
                own.saturating_add(self.elapsed(now).min(self.remaining[active]))
            }
            _ => own,
        })
    }

    /// What is left of the simple delay of `color`'s current move at `now`; `None` unless
    /// `color`'s clock is on and a simple delay is in force.
    pub fn delay_remaining(&self, color: Color, now: u64) -> Option<u64> {
        let delay = self.simple_delay(color);
        (self.active == Some(color) && delay > 0).then(|| delay.saturating_sub(self.elapsed(now)))
    }

    /// The last millisecond in which `color` may still press: `Some` only while `color`'s
    /// clock runs under a timed control. The flag has fallen when `now > deadline`.
    pub fn flag_deadline(&self, color: Color) -> Option<u64> {
        if self.running() != Some(color) {
            return None;
        }
        let left = self.allowance(color)?.saturating_sub(self.move_elapsed);
        self.since.map(|since| since.saturating_add(left))
    }

    /// The side whose flag has fallen by `now`, if any (only a running clock can flag).
    pub fn flagged(&self, now: u64) -> Option<Color> {
        let color = self.running()?;
        (now > self.flag_deadline(color)?).then_some(color)
    }

    /// Starts `color`'s clock at `now` on a clock that was never started.
    ///
    /// # Errors
    /// [`ClockError::AlreadyStarted`] once started (after [`Clock::stop`], use
    /// [`Clock::resume`]).
    pub fn start(&mut self, color: Color, now: u64) -> Result<(), ClockError> {
        if let Some(active) = self.active {
            return Err(ClockError::AlreadyStarted { color: active });
        }
        self.active = Some(color);
        self.since = Some(now);
        self.move_elapsed = 0;
        Ok(())
    }

    /// Checks that the running clock may act at `now`; gives the side and its start stamp.
    fn check_running(&self, now: u64) -> Result<(Color, u64), ClockError> {
        let color = self.active.ok_or(ClockError::NotStarted)?;
        let since = self.since.ok_or(ClockError::Paused { color })?;
        if now < since {
            return Err(ClockError::TimeWentBackwards { since, now });
        }
        if let Some(deadline) = self.flag_deadline(color) {
            if now > deadline {
                return Err(ClockError::Flagged { color, deadline, now });
            }
        }
        Ok((color, since))
    }

    /// The running side completes its move at `now` (RULES.md §9): its clock stops, the
    /// increment or delay applies, the move counts for period control (entering the next
    /// period adds that period's time), and the opponent's clock starts at `now`.
    ///
    /// # Errors
    /// [`ClockError::Flagged`] when `now` is past the deadline (the flag had already
    /// fallen), [`ClockError::NotStarted`], [`ClockError::Paused`],
    /// [`ClockError::TimeWentBackwards`]. The clock is unchanged on error.
    pub fn press(&mut self, now: u64) -> Result<MoveReport, ClockError> {
        self.press_after_lag(now, 0)
    }

    /// [`Clock::press`] for a move that reached the arbiter `lag` ms after it was made (a
    /// server's lag allowance): the mover's clock stops at `now - lag` (never before it
    /// started), and the opponent's starts at `now`. The time in between is charged to
    /// neither side, so the opponent never pays for the mover's network (lichess does the
    /// same).
    ///
    /// # Errors
    /// As for [`Clock::press`]; the flag is judged at the stop, `now - lag`.
    pub fn press_after_lag(&mut self, now: u64, lag: u64) -> Result<MoveReport, ClockError> {
        let since = self.since.unwrap_or(now);
        if now < since {
            return Err(ClockError::TimeWentBackwards { since, now });
        }
        let stop = now.saturating_sub(lag).max(since);
        let (color, since) = self.check_running(stop)?;
        let spent = self.move_elapsed + (stop - since);
        let moves = self.moves[color].saturating_add(1);
        let mut report = MoveReport {
            color,
            spent,
            bonus: 0,
            period_added: 0,
            opponent_added: 0,
            remaining: None,
            moves,
            period: self.period[color],
        };
        let own = self.remaining[color];
        match *self.tc.spec() {
            TimeControlSpec::Unknown | TimeControlSpec::Untimed => {}
            TimeControlSpec::Periods(ref periods) => {
                let period = self.period[color];
                report.bonus = match period_at(periods, period).bonus {
                    _ if self.no_bonus[color] => 0,
                    Bonus::None => 0,
                    Bonus::Increment(increment) => increment,
                    Bonus::SimpleDelay(delay) | Bonus::Bronstein(delay) => delay.min(spent),
                };
                // In time means spent <= own (+ delay), so this never goes below zero.
                let mut after = own.saturating_add(report.bonus) - spent;
                if period_end(periods, period) == Some(u64::from(moves)) {
                    report.period = period + 1;
                    report.period_added = period_at(periods, period + 1).base_ms;
                    after = after.saturating_add(report.period_added);
                }
                self.remaining[color] = after;
                self.period[color] = report.period;
            }
            TimeControlSpec::Sandclock { .. } => {
                self.remaining[color] = own - spent;
                self.remaining[!color] = self.remaining[!color].saturating_add(spent);
                report.opponent_added = spent;
            }
            TimeControlSpec::Correspondence { days } => {
                let left = own - spent;
                let after = left.max(u64::from(days) * MS_PER_DAY);
                report.bonus = after - left;
                self.remaining[color] = after;
            }
        }
        report.remaining = self.tc.is_timed().then_some(self.remaining[color]);
        self.moves[color] = moves;
        self.active = Some(!color);
        self.since = Some(now);
        self.move_elapsed = 0;
        Ok(report)
    }

    /// Pauses the running clock at `now` (adjournment, server shutdown); the time used so far
    /// on the move is kept. Gives the side whose clock was running.
    ///
    /// # Errors
    /// As for [`Clock::press`]: a clock whose flag has fallen cannot be stopped.
    pub fn stop(&mut self, now: u64) -> Result<Color, ClockError> {
        let (color, since) = self.check_running(now)?;
        self.move_elapsed += now - since;
        self.since = None;
        Ok(color)
    }

    /// Restarts a paused clock at `now` for the side that was on move. Gives that side.
    ///
    /// # Errors
    /// [`ClockError::NotStarted`], or [`ClockError::Running`] when not paused.
    pub fn resume(&mut self, now: u64) -> Result<Color, ClockError> {
        let color = self.active.ok_or(ClockError::NotStarted)?;
        if self.since.is_some() {
            return Err(ClockError::Running { color });
        }
        self.since = Some(now);
        Ok(color)
    }

    /// Adds `ms` to `color`'s time, running or not: the FIDE illegal-move penalty (Laws
    /// 7.5.5, RULES.md §8.4; the caller chooses 2 or 1 minutes by
    /// [`crate::time_control::FideCategory`])
    /// or an arbiter's correction. A running side's deadline moves `ms` later. No effect when
    /// untimed.
    ///
    /// This takes no `now`: poll [`Clock::flagged`] first, because time added to a side whose
    /// flag has already fallen would revive it.
    pub fn add_time(&mut self, color: Color, ms: u64) {
        if self.tc.is_timed() {
            self.remaining[color] = self.remaining[color].saturating_add(ms);
        }
    }

    /// An arena's berserk (taken before the first move): `color` keeps half its remaining
    /// time and plays without increment or delay from now on (lichess; RULES.md §12 leaves
    /// berserk to the product, issue 40 asks for half the clock and no increment). No effect
    /// when untimed.
    pub fn berserk(&mut self, color: Color) {
        if self.tc.is_timed() {
            self.remaining[color] /= 2;
            self.no_bonus[color] = true;
        }
    }

    /// Carries a berserk's lost increment over to a clock rebuilt by
    /// [`Clock::from_state`] (which stores times, not what a side gave up).
    pub fn keep_no_bonus(&mut self, color: Color) {
        self.no_bonus[color] = true;
    }

    /// Whether `color` plays without its increment (went berserk).
    pub fn has_no_bonus(&self, color: Color) -> bool {
        self.no_bonus[color]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn periods(text: &str) -> Vec<Period> {
        text.parse::<TimeControl>().unwrap().periods().to_vec()
    }

    /// Berserk (issue 40): half the time, and no increment for that side from then on.
    #[test]
    fn berserk_halves_the_time_and_drops_the_increment() {
        let mut clock = Clock::new("180+2".parse().unwrap());
        clock.berserk(Color::White);
        clock.start(Color::White, 0).unwrap();
        let white = clock.press(1_000).unwrap();
        assert_eq!((white.bonus, white.remaining), (0, Some(89_000)));
        let black = clock.press(2_000).unwrap();
        assert_eq!((black.bonus, black.remaining), (2_000, Some(181_000)));
    }

    #[test]
    fn period_boundaries_repeat_the_last_period() {
        let p = periods("40/5400:20/3600");
        assert_eq!(period_end(&p, 0), Some(40));
        assert_eq!(period_end(&p, 1), Some(60));
        assert_eq!(period_end(&p, 2), Some(80));
        assert_eq!(period_end(&p, 3), Some(100));
        assert_eq!(period_start(&p, 0), Some(0));
        assert_eq!(period_start(&p, 3), Some(80));
        assert_eq!(period_at(&p, 7).base_ms, 3_600_000);

        let p = periods("40/5400:1800+30");
        assert_eq!(period_end(&p, 0), Some(40));
        assert_eq!(period_end(&p, 1), None);
        assert_eq!(period_start(&p, 1), Some(40));
        assert_eq!(period_start(&p, 2), None);
    }

    /// PGN `[%clk]` (RULES.md §10): whole seconds, rounded down.
    #[test]
    fn error_messages_name_the_side_and_stamps() {
        let cases = [
            (ClockError::NotStarted, "the clock has not been started"),
            (
                ClockError::AlreadyStarted { color: Color::White },
                "the clock is already started, with white to move",
            ),
            (
                ClockError::Paused { color: Color::Black },
                "the clock is paused with black to move; resume it first",
            ),
            (
                ClockError::Running { color: Color::White },
                "the clock is running for white, not paused",
            ),
            (
                ClockError::Flagged { color: Color::Black, deadline: 10, now: 11 },
                "black's flag fell after 10 ms, before the action at 11 ms",
            ),
            (
                ClockError::TimeWentBackwards { since: 5, now: 4 },
                "time went backwards: 4 ms is before the clock started running at 5 ms",
            ),
        ];
        for (error, message) in cases {
            assert_eq!(error.to_string(), message);
        }
    }
}
