//! Time management: how long to think, from the clock of the side to move.
//!
//! Two budgets, as in most engines (CPW "Time Management"; Stockfish `timeman.cpp`): an
//! *optimum* time, checked between iterations (an iteration is not started once it is spent,
//! stretched when the best move keeps changing), and a *maximum* time, checked every few
//! thousand nodes, after which the search stops in the middle of an iteration. Neither ever
//! reaches past the time on the clock minus the move overhead (the time lost between the
//! engine and the clock: pipes, the GUI, the network).
//!
//! Time is passed in: the search reads a [`Clock`], which the caller starts when the request
//! arrives. Tests use a [`ManualClock`].

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::Limits;

/// The time elapsed since a search was requested. The search reads it, never the system
/// time, so that tests can run it on a [`ManualClock`].
pub trait Clock: Sync {
    /// The time since the search was requested.
    fn elapsed(&self) -> Duration;
}

impl Clock for Instant {
    fn elapsed(&self) -> Duration {
        Instant::elapsed(self)
    }
}

/// A clock for tests: it stands still, except that every reading advances it by a fixed step.
#[derive(Debug, Default)]
pub struct ManualClock {
    micros: AtomicU64,
    step_micros: u64,
}

impl ManualClock {
    /// A clock at zero that advances by `step` on every reading (zero: it stands still).
    pub fn new(step: Duration) -> ManualClock {
        let step_micros = u64::try_from(step.as_micros()).unwrap_or(u64::MAX);
        ManualClock { micros: AtomicU64::new(0), step_micros }
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let by = u64::try_from(by.as_micros()).unwrap_or(u64::MAX);
        self.micros.fetch_add(by, Ordering::Relaxed);
    }
}

impl Clock for ManualClock {
    fn elapsed(&self) -> Duration {
        Duration::from_micros(self.micros.fetch_add(self.step_micros, Ordering::Relaxed))
    }
}

/// Time budgets of one search, measured from the moment the clock started (or, when
/// pondering, from the ponder hit).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TimeManager {
    /// Do not start another iteration past this (scaled by the search's stability).
    optimum: Option<Duration>,
    /// Stop the search, even mid-iteration, at this.
    maximum: Option<Duration>,
}

/// The moves a sudden-death game is assumed to have left.
const HORIZON: u32 = 30;

impl TimeManager {
    /// The budgets for `limits` with `overhead` lost per move outside the engine.
    pub(crate) fn new(limits: &Limits, overhead: Duration) -> TimeManager {
        let mut tm = TimeManager { optimum: None, maximum: None };
        if let Some(clock) = limits.clock {
            let remaining = clock.remaining;
            let moves_to_go = clock.moves_to_go.unwrap_or(HORIZON).clamp(1, 50);
            // Never plan to spend the whole clock: the last move of a period may take most of
            // it, any other move at most half.
            let cap = if moves_to_go == 1 { remaining * 4 / 5 } else { remaining / 2 };
            let cap = cap.saturating_sub(overhead);
            let optimum = remaining / moves_to_go + clock.increment * 3 / 4;
            let maximum = (optimum * 4).min(cap);
            tm.optimum = Some(optimum.min(maximum));
            tm.maximum = Some(maximum);
        }
        if let Some(movetime) = limits.movetime {
            // A fixed time is the GUI's to enforce and the engine's to use up, as in
            // Stockfish: no optimum of its own, only the hard stop.
            tm.optimum = tm.optimum.map(|t| t.min(movetime));
            tm.maximum = Some(tm.maximum.map_or(movetime, |t| t.min(movetime)));
        }
        tm
    }

    /// `true` if no new iteration should start at `elapsed`; `instability` (about 0.5 to 2.5)
    /// stretches the optimum while the best move keeps changing.
    pub(crate) fn should_stop_iterating(&self, elapsed: Duration, instability: f64) -> bool {
        self.optimum.is_some_and(|optimum| {
            let stretched = optimum.mul_f64(instability.clamp(0.3, 3.0));
            elapsed >= stretched.min(self.maximum.unwrap_or(stretched))
        })
    }

    /// `true` once the search must stop, mid-iteration or not.
    pub(crate) fn is_out_of_time(&self, elapsed: Duration) -> bool {
        self.maximum.is_some_and(|maximum| elapsed >= maximum)
    }

    /// The maximum time, if the search has one.
    #[cfg(test)]
    pub(crate) fn maximum(&self) -> Option<Duration> {
        self.maximum
    }

    /// The optimum time, if the search has one.
    #[cfg(test)]
    pub(crate) fn optimum(&self) -> Option<Duration> {
        self.optimum
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::TimeLeft;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn budgets(remaining: u64, increment: u64, moves_to_go: Option<u32>) -> TimeManager {
        let clock = TimeLeft { remaining: ms(remaining), increment: ms(increment), moves_to_go };
        TimeManager::new(&Limits::clock(clock), ms(30))
    }

    #[test]
    fn never_plans_past_the_clock() {
        for remaining in [0, 1, 10, 31, 100, 1_000, 60_000, 3_600_000] {
            for increment in [0, 10, 100, 2_000, 30_000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let tm = budgets(remaining, increment, mtg);
                    let max = tm.maximum().unwrap();
                    assert!(
                        max + ms(30) <= ms(remaining).max(ms(30)),
                        "{remaining}+{increment} {mtg:?}: {max:?}"
                    );
                    assert!(tm.optimum().unwrap() <= max);
                }
            }
        }
    }

    #[test]
    fn spends_more_with_more_time() {
        let short = budgets(10_000, 0, None).optimum().unwrap();
        let long = budgets(100_000, 0, None).optimum().unwrap();
        let inc = budgets(10_000, 1_000, None).optimum().unwrap();
        assert!(short < long && short < inc, "{short:?} {long:?} {inc:?}");
        // 1+0.01: a minute split over about thirty moves.
        let bullet = budgets(60_000, 10, None).optimum().unwrap();
        assert!(ms(2_000) < bullet && bullet < ms(2_010), "{bullet:?}");
    }

    #[test]
    fn movetime_is_exact_and_unbounded_is_unbounded() {
        let tm = TimeManager::new(&Limits::movetime(ms(500)), ms(30));
        assert_eq!((tm.optimum(), tm.maximum()), (None, Some(ms(500))));
        assert!(tm.is_out_of_time(ms(500)) && !tm.is_out_of_time(ms(499)));
        let tm = TimeManager::new(&Limits::depth(5), ms(30));
        assert!(!tm.is_out_of_time(Duration::MAX) && !tm.should_stop_iterating(Duration::MAX, 1.0));
    }

    #[test]
    fn manual_clock_steps() {
        let clock = ManualClock::new(ms(2));
        assert_eq!(clock.elapsed(), ms(0));
        assert_eq!(clock.elapsed(), ms(2));
        clock.advance(ms(10));
        assert_eq!(clock.elapsed(), ms(14));
    }
}
