//! What bounds a search: depth, nodes, time, a mate to find, the root moves to consider; and
//! the signals another thread uses to stop a running search or end its pondering.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use rookery_core::Move;

/// The bounds of one search. The default searches until stopped (as `go infinite`, but
/// without waiting for `stop` once the search runs out of depth).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Complete at most this many iterations (plies).
    pub depth: Option<u32>,
    /// Search about this many nodes: exactly this many with one thread, the sum over all
    /// threads with several.
    pub nodes: Option<u64>,
    /// Search this long, no longer.
    pub movetime: Option<Duration>,
    /// Stop as soon as a mate in at most this many moves is proven.
    pub mate: Option<u32>,
    /// Search until stopped; once the search has nothing left to do, it waits for the stop
    /// signal before it reports its best move (the UCI rule for `go infinite`).
    pub infinite: bool,
    /// The clock of the side to move, for the time manager.
    pub clock: Option<TimeLeft>,
    /// Consider only these root moves (all legal moves when empty).
    pub search_moves: Vec<Move>,
}

/// The clock of the side to move, as a game stands when it is asked to move.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct TimeLeft {
    /// Time left on the clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control adds time; `None` for sudden death.
    pub moves_to_go: Option<u32>,
}

impl Limits {
    /// Search to a fixed depth.
    pub fn depth(depth: u32) -> Limits {
        Limits { depth: Some(depth), ..Limits::default() }
    }

    /// Search a fixed number of nodes.
    pub fn nodes(nodes: u64) -> Limits {
        Limits { nodes: Some(nodes), ..Limits::default() }
    }

    /// Search for a fixed time.
    pub fn movetime(movetime: Duration) -> Limits {
        Limits { movetime: Some(movetime), ..Limits::default() }
    }

    /// Play with a clock.
    pub fn clock(clock: TimeLeft) -> Limits {
        Limits { clock: Some(clock), ..Limits::default() }
    }

    /// Search for a mate in at most `moves` moves.
    pub fn mate(moves: u32) -> Limits {
        Limits { mate: Some(moves), ..Limits::default() }
    }

    /// `true` if the time manager has a budget to keep to.
    pub(crate) fn is_timed(&self) -> bool {
        self.movetime.is_some() || self.clock.is_some()
    }
}

/// Signals to a running search from another thread: stop now, or stop pondering.
///
/// A search that starts while [`Signals::is_pondering`] ignores its time limits until
/// [`Signals::ponderhit`]; its clock then starts at the ponder hit.
#[derive(Debug, Default)]
pub struct Signals {
    stop: AtomicBool,
    ponder: AtomicBool,
}

impl Signals {
    /// Signals for a normal search.
    pub fn new() -> Signals {
        Signals::default()
    }

    /// Signals for a search that starts pondering.
    pub fn pondering() -> Signals {
        Signals { stop: AtomicBool::new(false), ponder: AtomicBool::new(true) }
    }

    /// Asks the search to stop as soon as it can and report its best move.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// `true` once [`Signals::stop`] was called.
    pub fn is_stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The expected move was played: pondering turns into a normal timed search.
    pub fn ponderhit(&self) {
        self.ponder.store(false, Ordering::Relaxed);
    }

    /// `true` while the search ponders.
    pub fn is_pondering(&self) -> bool {
        self.ponder.load(Ordering::Relaxed)
    }
}
