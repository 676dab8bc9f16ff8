//! How a search reports: a handler receives the progress and the best move. The engine does
//! no I/O; the UCI loop's handler writes `info` and `bestmove` lines, a test's handler
//! collects them.

use std::time::Duration;

use rookery_core::Move;

use crate::{Bound, Score};

/// Receives a search's reports, on the thread that called [`crate::Engine::search`].
pub trait Handler {
    /// A completed iteration, one call per principal variation (MultiPV), or a bound found
    /// by an aspiration window.
    fn info(&mut self, info: &SearchInfo);

    /// The search's final answer, sent once, after the last [`Handler::info`].
    fn best_move(&mut self, best: &BestMove) {
        let _ = best;
    }
}

/// A handler that ignores everything.
impl Handler for () {
    fn info(&mut self, _: &SearchInfo) {}
}

/// Collects every report, for tests and tools.
#[derive(Clone, Debug, Default)]
pub struct Collect {
    /// The reports, in order.
    pub infos: Vec<SearchInfo>,
    /// The final answer, once sent.
    pub best: Option<BestMove>,
}

impl Handler for Collect {
    fn info(&mut self, info: &SearchInfo) {
        self.infos.push(info.clone());
    }

    fn best_move(&mut self, best: &BestMove) {
        self.best = Some(*best);
    }
}

/// The state of a search after an iteration, for one principal variation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchInfo {
    /// The iteration's depth in plies.
    pub depth: u32,
    /// The deepest ply reached.
    pub seldepth: u32,
    /// Which line this is, from 1 (always 1 unless MultiPV is on).
    pub multipv: u32,
    /// The score, from the side to move's point of view.
    pub score: Score,
    /// [`Bound::Exact`], or the bound an aspiration window found.
    pub bound: Bound,
    /// Nodes searched so far, by all threads.
    pub nodes: u64,
    /// Nodes per second.
    pub nps: u64,
    /// How full the transposition table is, in permill.
    pub hashfull: u32,
    /// Time searched so far.
    pub time: Duration,
    /// The principal variation, starting with the root move.
    pub pv: Vec<Move>,
}

/// The answer of a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move to play; `None` only when the position has no legal move (UCI: `bestmove
    /// 0000`).
    pub best: Option<Move>,
    /// The expected reply, to ponder on.
    pub ponder: Option<Move>,
}

/// Everything a finished search knows, as [`crate::Engine::search`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchOutcome {
    /// The move to play, `None` only when there is no legal move.
    pub best: Option<Move>,
    /// The expected reply.
    pub ponder: Option<Move>,
    /// The score of the best move, if an iteration completed.
    pub score: Option<Score>,
    /// The last completed depth (0 if none completed).
    pub depth: u32,
    /// Nodes searched by all threads.
    pub nodes: u64,
    /// Time searched.
    pub time: Duration,
    /// The principal variation of the best move.
    pub pv: Vec<Move>,
}
