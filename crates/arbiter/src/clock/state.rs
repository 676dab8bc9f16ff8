//! Snapshot and restore: a plain [`ClockState`] the server stores with each move and rebuilds
//! a [`Clock`] from after a restart (ARCHITECTURE.md, "a restart loses nothing").

use core::fmt;

use rookery_core::{ByColor, Color};

use super::{period_end, period_start, Clock};
use crate::time_control::TimeControl;

/// Everything a [`Clock`] knows besides its [`TimeControl`], as plain data.
///
/// Invariants, checked by [`Clock::from_state`]:
/// - `running_since` is `Some` only when `active` is (a running clock runs for someone);
/// - `move_elapsed` is 0 when `active` is `None`;
/// - the active side's `move_elapsed` is within its allowance (main time, plus the simple
///   delay if one is in force): a clock is never stored with a fallen flag *before* its last
///   start, though a running one may fall afterwards;
/// - each side's `period` agrees with its `moves`: period `k` starts after the move counts of
///   periods `0..k` and, unless it is sudden death, ends before its own count is reached (the
///   last period repeats); controls without periods stay in period 0.
///
/// `remaining` is not checked against the control: time may have been added.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ClockState {
    /// Each side's main time in ms, not counting the move in progress. Ignored when untimed.
    pub remaining: ByColor<u64>,
    /// Moves each side has completed.
    pub moves: ByColor<u32>,
    /// Each side's 0-based period.
    pub period: ByColor<u32>,
    /// The side whose clock is on (running or paused); `None` before the start.
    pub active: Option<Color>,
    /// When the active side's clock started running; `None` when paused or never started.
    pub running_since: Option<u64>,
    /// Time the active side already used on the current move before `running_since` (or up to
    /// the pause).
    pub move_elapsed: u64,
}

/// Why a [`ClockState`] does not describe a clock for the given control.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClockStateError {
    /// `running_since` without an active side.
    RunningWithoutSide {
        /// The stored `running_since`.
        since: u64,
    },
    /// `move_elapsed` without an active side.
    ElapsedWithoutSide {
        /// The stored `move_elapsed`.
        elapsed: u64,
    },
    /// A side's period does not match its move count under this control.
    PeriodMismatch {
        /// The side.
        color: Color,
        /// The stored period.
        period: u32,
        /// The stored move count.
        moves: u32,
    },
    /// The active side had used more than its allowance on this move: its flag fell before
    /// the state was taken.
    ElapsedBeyondAllowance {
        /// The side.
        color: Color,
        /// The stored `move_elapsed`.
        elapsed: u64,
        /// Main time plus simple delay.
        allowance: u64,
    },
}

impl fmt::Display for ClockStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            ClockStateError::RunningWithoutSide { since } => {
                write!(f, "clock state runs since {since} ms but names no side to move")
            }
            ClockStateError::ElapsedWithoutSide { elapsed } => {
                write!(f, "clock state has {elapsed} ms used on a move but names no side to move")
            }
            ClockStateError::PeriodMismatch { color, period, moves } => write!(
                f,
                "clock state puts {color} in period {period} after {moves} moves, \
                 which this time control does not allow"
            ),
            ClockStateError::ElapsedBeyondAllowance { color, elapsed, allowance } => write!(
                f,
                "clock state has {color} using {elapsed} ms on a move allowed {allowance} ms: \
                 the flag had already fallen"
            ),
        }
    }
}

impl std::error::Error for ClockStateError {}

impl Clock {
    /// The clock's state, to store; [`Clock::from_state`] rebuilds an equal clock.
    pub fn state(&self) -> ClockState {
        ClockState {
            remaining: self.remaining,
            moves: self.moves,
            period: self.period,
            active: self.active,
            running_since: self.since,
            move_elapsed: self.move_elapsed,
        }
    }

    /// Rebuilds a clock set to `tc` from a stored `state`. A clock stored while running keeps
    /// running from `running_since` (the downtime is charged to the side on move); to forgive
    /// it, store the clock after [`Clock::stop`] and [`Clock::resume`] after the restart.
    ///
    /// # Errors
    /// The first violated invariant listed on [`ClockState`].
    pub fn from_state(tc: TimeControl, state: ClockState) -> Result<Clock, ClockStateError> {
        match (state.active, state.running_since) {
            (None, Some(since)) => return Err(ClockStateError::RunningWithoutSide { since }),
            (None, None) if state.move_elapsed != 0 => {
                return Err(ClockStateError::ElapsedWithoutSide { elapsed: state.move_elapsed })
            }
            _ => {}
        }
        let periods = tc.periods();
        for color in Color::ALL {
            let (period, moves) = (state.period[color], state.moves[color]);
            let consistent = if periods.is_empty() {
                period == 0
            } else {
                let moves = u64::from(moves);
                period_start(periods, period).is_some_and(|start| start <= moves)
                    && period_end(periods, period).is_none_or(|end| moves < end)
            };
            if !consistent {
                return Err(ClockStateError::PeriodMismatch { color, period, moves });
            }
        }
        let clock = Clock {
            tc,
            remaining: state.remaining,
            moves: state.moves,
            period: state.period,
            active: state.active,
            since: state.running_since,
            move_elapsed: state.move_elapsed,
            no_bonus: ByColor::default(),
        };
        if let Some(color) = clock.active {
            if let Some(allowance) = clock.allowance(color) {
                if clock.move_elapsed > allowance {
                    return Err(ClockStateError::ElapsedBeyondAllowance {
                        color,
                        elapsed: clock.move_elapsed,
                        allowance,
                    });
                }
            }
        }
        Ok(clock)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap()
    }

    #[test]
    fn new_clock_state_round_trips() {
        for text in ["300+2", "40/5400:1800+30", "*180", "3d", "-", "?", "300d5"] {
            let clock = Clock::new(tc(text));
            assert_eq!(Clock::from_state(tc(text), clock.state()), Ok(clock), "{text}");
        }
    }

    #[test]
    fn every_invariant_is_checked() {
        let ok = ClockState {
            remaining: ByColor { white: 60_000, black: 60_000 },
            active: Some(Color::White),
            running_since: Some(1_000),
            ..ClockState::default()
        };
        assert!(Clock::from_state(tc("60"), ok).is_ok());

        let bad = ClockState { active: None, ..ok };
        assert_eq!(
            Clock::from_state(tc("60"), bad),
            Err(ClockStateError::RunningWithoutSide { since: 1_000 })
        );
        let bad = ClockState { active: None, running_since: None, move_elapsed: 5, ..ok };
        assert_eq!(
            Clock::from_state(tc("60"), bad),
            Err(ClockStateError::ElapsedWithoutSide { elapsed: 5 })
        );
        let bad = ClockState { move_elapsed: 60_001, ..ok };
        assert_eq!(
            Clock::from_state(tc("60"), bad),
            Err(ClockStateError::ElapsedBeyondAllowance {
                color: Color::White,
                elapsed: 60_001,
                allowance: 60_000
            })
        );
        // With a simple delay the allowance includes the delay.
        let paused = ClockState { running_since: None, move_elapsed: 65_000, ..ok };
        assert!(Clock::from_state(tc("60d5"), paused).is_ok());
        assert!(Clock::from_state(tc("60b5"), paused).is_err());

        let mismatch = |text: &str, period: u32, moves: u32| {
            let state = ClockState {
                period: ByColor { white: period, black: 0 },
                moves: ByColor { white: moves, black: 0 },
                ..ok
            };
            Clock::from_state(tc(text), state)
        };
        let error = |period, moves| {
            Err(ClockStateError::PeriodMismatch { color: Color::White, period, moves })
        };
        assert!(mismatch("40/5400:1800", 0, 39).is_ok());
        assert_eq!(mismatch("40/5400:1800", 0, 40), error(0, 40));
        assert!(mismatch("40/5400:1800", 1, 40).is_ok());
        assert!(mismatch("40/5400:1800", 1, 400).is_ok());
        assert_eq!(mismatch("40/5400:1800", 1, 39), error(1, 39));
        assert_eq!(mismatch("40/5400:1800", 2, 90), error(2, 90));
        assert!(mismatch("40/5400:20/3600", 5, 130).is_ok());
        assert_eq!(mismatch("40/5400:20/3600", 5, 140), error(5, 140));
        assert_eq!(mismatch("300", 1, 0), error(1, 0));
        assert_eq!(mismatch("3d", 1, 7), error(1, 7));
        assert!(mismatch("3d", 0, 7).is_ok());
    }

    #[test]
    fn messages_are_lowercase_and_name_the_values() {
        let e = ClockStateError::PeriodMismatch { color: Color::Black, period: 2, moves: 3 };
        assert_eq!(
            e.to_string(),
            "clock state puts black in period 2 after 3 moves, \
             which this time control does not allow"
        );
        let e = ClockStateError::ElapsedBeyondAllowance {
            color: Color::White,
            elapsed: 7,
            allowance: 6,
        };
        assert_eq!(
            e.to_string(),
            "clock state has white using 7 ms on a move allowed 6 ms: the flag had already fallen"
        );
        assert_eq!(
            ClockStateError::RunningWithoutSide { since: 9 }.to_string(),
            "clock state runs since 9 ms but names no side to move"
        );
        assert_eq!(
            ClockStateError::ElapsedWithoutSide { elapsed: 9 }.to_string(),
            "clock state has 9 ms used on a move but names no side to move"
        );
    }
}
