//! Search threads and iterative deepening.
//!
//! Every thread runs the same iterative deepening over the same root moves and shares only
//! the transposition table: Lazy SMP (Dan Homan 2013; CPW "Lazy SMP"). Helpers differ by
//! searching odd depths one ply deeper, so that they fill the table ahead of the main thread.
//! The main thread alone watches the clock and the limits, reports, and decides; when it
//! stops, everyone stops.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use rookery_core::{Move, Piece, Position};

use crate::handler::{Handler, SearchInfo};
use crate::history::{History, Killers};
use crate::movepick::{Mode, MoveBuffer, MovePicker, QuietHints};
use crate::nnue::{Accumulators, Weights};
use crate::score::{Bound, Score, INFINITE, MATE, MAX_PLY};
use crate::timeman::{Clock, TimeManager};
use crate::tt::TranspositionTable;
use crate::{Limits, Signals};

/// Nodes between two looks at the clock and the signals.
const CHECK_EVERY: u64 = 1024;

/// What all threads of one search share.
pub(crate) struct Shared<'a> {
    pub(crate) tt: &'a TranspositionTable,
    pub(crate) signals: &'a Signals,
    pub(crate) clock: &'a dyn Clock,
    pub(crate) limits: &'a Limits,
    pub(crate) time: TimeManager,
    /// Set by the main thread: every thread stops.
    pub(crate) abort: AtomicBool,
    /// Nodes per thread, published every [`CHECK_EVERY`] nodes.
    pub(crate) nodes: Vec<AtomicU64>,
    /// Principal variations to search.
    pub(crate) multipv: usize,
    /// The last iteration's depth.
    pub(crate) max_depth: i32,
    /// Prune and reduce (off when searching for a mate, where a null move's answer to a
    /// zugzwang or a reduced quiet key move would hide the shortest mate).
    pub(crate) selective: bool,
    /// Evaluate with the network rather than the hand-written terms.
    pub(crate) use_nnue: bool,
    /// The network.
    pub(crate) net: &'a Weights,
}

impl Shared<'_> {
    /// All threads' nodes (as last published).
    pub(crate) fn total_nodes(&self) -> u64 {
        self.nodes.iter().map(|n| n.load(Ordering::Relaxed)).sum()
    }
}

/// A root move with what the search found out about it.
#[derive(Clone, Debug)]
pub(crate) struct RootMove {
    pub(crate) mv: Move,
    /// The value of this iteration (`-INFINITE` until searched).
    pub(crate) score: i32,
    /// The value of the previous iteration.
    pub(crate) previous_score: i32,
    /// What `score` is.
    pub(crate) bound: Bound,
    pub(crate) seldepth: usize,
    pub(crate) pv: Vec<Move>,
}

/// One ply of the search stack.
#[derive(Clone, Copy, Default)]
pub(crate) struct Frame {
    pub(crate) static_eval: i32,
    /// The move played from this ply, with the piece that made it (`None` for a null move).
    pub(crate) played: Option<(Piece, Move)>,
    pub(crate) killers: Killers,
    /// Plies since the last null move, which repetitions cannot reach across.
    pub(crate) plies_from_null: usize,
    /// The move a singular-extension search leaves out at this ply.
    pub(crate) excluded: Option<Move>,
    /// Moves extended by two plies on the path to this ply, which may not be many.
    pub(crate) double_extensions: u8,
}

/// One search thread.
pub(crate) struct Worker<'a> {
    pub(crate) shared: &'a Shared<'a>,
    pub(crate) id: usize,
    pub(crate) history: &'a mut History,
    pub(crate) nodes: u64,
    pub(crate) seldepth: usize,
    pub(crate) stack: Vec<Frame>,
    /// The network's hidden layers along the search path ([`crate::nnue`]).
    pub(crate) accumulators: Accumulators,
    pub(crate) pv: Vec<[Move; MAX_PLY + 1]>,
    pub(crate) pv_len: Vec<usize>,
    /// One move buffer per ply, lent to that ply's move picker.
    pub(crate) buffers: Vec<MoveBuffer>,
    /// Repetition keys: the game before the root, then the root and the search path.
    pub(crate) keys: Vec<u64>,
    pub(crate) root_moves: Vec<RootMove>,
    pub(crate) root_depth: i32,
    pub(crate) pv_idx: usize,
    pub(crate) stopped: bool,
    pub(crate) completed_depth: i32,
    /// When the time manager's clock started: at the start, or at the ponder hit (`None`
    /// while pondering).
    origin: Option<Duration>,
    /// How often the best move changed lately (decays by half per iteration).
    best_move_changes: f64,
}

impl<'a> Worker<'a> {
    /// A thread ready to search `root` (whose legal moves are `root_moves`), after the game
    /// whose earlier repetition keys are `history`.
    pub(crate) fn new(
        shared: &'a Shared<'a>,
        id: usize,
        history: &'a mut History,
        root: &Position,
        game: &[u64],
        root_moves: &[Move],
    ) -> Worker<'a> {
        let mut keys = Vec::with_capacity(game.len() + MAX_PLY + 2);
        // Only positions since the last irreversible move can repeat.
        let reach = (root.halfmoves() as usize).min(game.len());
        keys.extend_from_slice(&game[game.len() - reach..]);
        keys.push(root.repetition_key());
        let mut stack = vec![Frame::default(); MAX_PLY + 4];
        stack[0].plies_from_null = reach;
        let root_moves = root_moves
            .iter()
            .map(|&mv| RootMove {
                mv,
                score: -INFINITE,
                previous_score: -INFINITE,
                bound: Bound::Upper,
                seldepth: 0,
                pv: vec![mv],
            })
            .collect();
        Worker {
            shared,
            id,
            history,
            nodes: 0,
            seldepth: 0,
            stack,
            accumulators: Accumulators::new(MAX_PLY + 4),
            pv: vec![[Move::from_bits(0); MAX_PLY + 1]; MAX_PLY + 2],
            pv_len: vec![0; MAX_PLY + 2],
            buffers: (0..MAX_PLY + 2).map(|_| MoveBuffer::new()).collect(),
            keys,
            root_moves,
            root_depth: 0,
            pv_idx: 0,
            stopped: false,
            completed_depth: 0,
            origin: if shared.signals.is_pondering() { None } else { Some(Duration::ZERO) },
            best_move_changes: 0.0,
        }
    }

    fn is_main(&self) -> bool {
        self.id == 0
    }

    /// Counts a node and decides whether to stop: every node against an exact node limit
    /// (single thread), every [`CHECK_EVERY`] nodes against the clock and the signals.
    #[inline]
    pub(crate) fn count_node(&mut self) -> bool {
        if self.stopped {
            return true;
        }
        self.nodes += 1;
        let shared = self.shared;
        if self.is_main() && shared.nodes.len() == 1 {
            if let Some(limit) = shared.limits.nodes {
                if self.nodes >= limit.max(1) {
                    self.stopped = true;
                    shared.abort.store(true, Ordering::Relaxed);
                    return true;
                }
            }
        }
        if self.nodes.is_multiple_of(CHECK_EVERY) {
            shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
            if shared.abort.load(Ordering::Relaxed) {
                self.stopped = true;
            } else if self.is_main() && self.must_stop() {
                self.stopped = true;
                shared.abort.store(true, Ordering::Relaxed);
            }
        }
        self.stopped
    }

    /// The main thread's periodic check: the stop signal, the maximum time, the node limit.
    fn must_stop(&mut self) -> bool {
        let shared = self.shared;
        if shared.signals.is_stopped() {
            return true;
        }
        if let Some(limit) = shared.limits.nodes {
            if shared.total_nodes() >= limit {
                return true;
            }
        }
        // Depth 1 always completes: it is what guarantees a sensible move at no time.
        self.completed_depth >= 1
            && self.elapsed_for_time().is_some_and(|t| shared.time.is_out_of_time(t))
    }

    /// The time the time manager counts (from the ponder hit when pondering), or `None` while
    /// pondering.
    fn elapsed_for_time(&mut self) -> Option<Duration> {
        let elapsed = self.shared.clock.elapsed();
        if self.origin.is_none() && !self.shared.signals.is_pondering() {
            self.origin = Some(elapsed);
        }
        self.origin.map(|origin| elapsed.saturating_sub(origin))
    }

    /// Iterative deepening with aspiration windows and MultiPV; the main thread reports
    /// through `handler`, helpers report nothing.
    pub(crate) fn iterate(&mut self, root: &Position, handler: &mut dyn Handler) {
        let shared = self.shared;
        let multipv = shared.multipv.min(self.root_moves.len()).max(1);
        self.order_root_moves(root);
        let mut previous_best = self.root_moves[0].mv;
        for depth in 1..=shared.max_depth {
            let depth = if self.is_main() {
                depth
            } else {
                (depth + (self.id as i32 & 1)).min(shared.max_depth)
            };
            self.root_depth = depth;
            for rm in &mut self.root_moves {
                rm.previous_score = rm.score;
                rm.score = -INFINITE;
            }
            for pv_idx in 0..multipv {
                self.pv_idx = pv_idx;
                self.seldepth = 0;
                self.aspiration(root, depth, handler);
                // Stable: moves not searched this iteration keep their previous order. The
                // lines found so far are ranked again, as a later one may beat an earlier.
                self.root_moves[pv_idx..]
                    .sort_by_key(|rm| core::cmp::Reverse((rm.score, rm.previous_score)));
                if !self.stopped {
                    self.root_moves[..=pv_idx].sort_by_key(|rm| core::cmp::Reverse(rm.score));
                }
                if self.stopped {
                    break;
                }
            }
            if self.stopped {
                break;
            }
            self.completed_depth = depth;
            if !self.is_main() {
                continue;
            }
            for i in 0..multipv {
                self.report(handler, i, self.root_moves[i].bound);
            }
            let best = self.root_moves[0].mv;
            self.best_move_changes /= 2.0;
            if best != previous_best {
                self.best_move_changes += 1.0;
                previous_best = best;
            }
            if self.finished_iterating() {
                break;
            }
        }
        if self.is_main() && self.stopped && self.root_moves[0].mv != previous_best {
            // The interrupted iteration found a better move: say so before playing it.
            self.report(handler, 0, Bound::Exact);
        }
    }

    /// Whether the main thread should start no further iteration.
    fn finished_iterating(&mut self) -> bool {
        let shared = self.shared;
        if shared.signals.is_stopped() {
            return true;
        }
        let value = self.root_moves[0].score;
        if let Some(moves) = shared.limits.mate {
            if value >= MATE - 2 * moves as i32 {
                return true;
            }
        }
        // A mate found for either side: deeper iterations only confirm it.
        if shared.limits.is_timed() && crate::score::is_mate(value) && self.completed_depth >= 10 {
            let distance = MATE - value.abs();
            if self.completed_depth > 2 * distance + 4 {
                return true;
            }
        }
        if self.root_moves.len() == 1 && shared.limits.is_timed() && self.completed_depth >= 4 {
            // The only move: do not waste the clock on it.
            return self.origin.is_some();
        }
        let instability = 0.6 + 0.9 * self.best_move_changes;
        self.elapsed_for_time()
            .is_some_and(|elapsed| shared.time.should_stop_iterating(elapsed, instability))
    }

    /// One root search at `depth` in an aspiration window around the previous score, widened
    /// until the score falls inside (CPW "Aspiration Windows").
    fn aspiration(&mut self, root: &Position, depth: i32, handler: &mut dyn Handler) {
        let previous = self.root_moves[self.pv_idx].previous_score;
        let mut delta = 20;
        let (mut alpha, mut beta) = if depth >= 4 && previous.abs() < MATE - MAX_PLY as i32 {
            ((previous - delta).max(-INFINITE), (previous + delta).min(INFINITE))
        } else {
            (-INFINITE, INFINITE)
        };
        loop {
            let value = self.root_search(root, alpha, beta, depth);
            if self.stopped {
                return;
            }
            self.root_moves[self.pv_idx..]
                .sort_by_key(|rm| core::cmp::Reverse((rm.score, rm.previous_score)));
            let bound = if value <= alpha {
                Bound::Upper
            } else if value >= beta {
                Bound::Lower
            } else {
                Bound::Exact
            };
            self.root_moves[self.pv_idx].bound = bound;
            if bound == Bound::Exact {
                return;
            }
            // Report long fail-highs and fail-lows, as GUIs like to show them.
            if self.is_main() && self.shared.clock.elapsed() > Duration::from_secs(3) {
                self.report(handler, self.pv_idx, bound);
            }
            if bound == Bound::Upper {
                beta = (alpha + beta) / 2;
                alpha = (value - delta).max(-INFINITE);
            } else {
                beta = (value + delta).min(INFINITE);
            }
            delta += delta / 2 + 5;
        }
    }

    /// Orders the root moves once before the first iteration, as the move picker would.
    fn order_root_moves(&mut self, root: &Position) {
        let tt_move = self.shared.tt.probe(root.zobrist()).and_then(|hit| hit.mv);
        let mut picker = MovePicker::new(root, Mode::All, tt_move, QuietHints::default());
        let mut order = Vec::with_capacity(self.root_moves.len());
        while let Some(m) = picker.next(root, self.history, &mut self.buffers[0]) {
            order.push(m);
        }
        self.root_moves.sort_by_key(|rm| order.iter().position(|&m| m == rm.mv));
    }

    /// Reports principal variation `i`.
    fn report(&mut self, handler: &mut dyn Handler, i: usize, bound: Bound) {
        let shared = self.shared;
        shared.nodes[self.id].store(self.nodes, Ordering::Relaxed);
        let nodes = shared.total_nodes();
        let time = shared.clock.elapsed();
        let millis = time.as_millis().max(1) as u64;
        let rm = &self.root_moves[i];
        // A line not yet searched at this depth shows its previous value.
        let (value, depth) = if rm.score == -INFINITE {
            (rm.previous_score, self.completed_depth.max(1))
        } else {
            (rm.score, self.root_depth.max(1))
        };
        handler.info(&SearchInfo {
            depth: depth as u32,
            seldepth: rm.seldepth.max(1) as u32,
            multipv: i as u32 + 1,
            score: Score::from_value(value.clamp(-MATE + 1, MATE - 1)),
            bound,
            nodes,
            nps: nodes.saturating_mul(1000) / millis,
            hashfull: shared.tt.hashfull(),
            time,
            pv: rm.pv.clone(),
        });
    }
}
