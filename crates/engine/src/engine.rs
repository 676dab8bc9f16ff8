//! The engine as its users see it: options, a transposition table that lives across
//! searches, and one blocking call that searches a position and reports to a handler.

use core::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use rookery_core::{Move, Position};

use crate::handler::{BestMove, Handler, SearchOutcome};
use crate::history::History;
use crate::nnue::{self, Weights};
use crate::score::{Score, MAX_PLY};
use crate::skill::{splitmix64, Level};
use crate::thread::{Shared, Worker};
use crate::timeman::{Clock, TimeManager};
use crate::tt::TranspositionTable;
use crate::{Limits, Signals};

/// The engine's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// Transposition table size in megabytes (UCI `Hash`).
    pub hash_mb: usize,
    /// Search threads (UCI `Threads`).
    pub threads: usize,
    /// Principal variations to find and report (UCI `MultiPV`).
    pub multipv: usize,
    /// Time lost per move outside the engine (UCI `Move Overhead`). The default, 50 ms, is
    /// generous: on a busy machine pipes and schedulers can stall for tens of milliseconds,
    /// and at 1+0.01 that is the difference between a game and a loss on time.
    pub move_overhead: Duration,
    /// A playing level for people, or `None` for full strength.
    pub level: Option<Level>,
    /// Seeds the level's choices; with the same seed, the same searches choose alike.
    pub seed: u64,
    /// Evaluate with the network ([`crate::nnue`]) rather than the hand-written terms
    /// (UCI `UseNNUE`).
    pub use_nnue: bool,
}

impl Default for Options {
    fn default() -> Options {
        Options {
            hash_mb: 16,
            threads: 1,
            multipv: 1,
            move_overhead: Duration::from_millis(50),
            level: None,
            seed: 0,
            use_nnue: true,
        }
    }
}

/// The transposition table could not be had at the size asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct HashSizeError {
    /// The size asked for, in megabytes.
    pub mb: usize,
}

impl fmt::Display for HashSizeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot allocate a hash table of {} MB", self.mb)
    }
}

impl std::error::Error for HashSizeError {}

/// A network file could not be used.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EvalFileError {
    /// The file.
    pub path: PathBuf,
    /// Why: it could not be read, or it is not a network this engine reads.
    pub reason: String,
}

impl fmt::Display for EvalFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot use network {}: {}", self.path.display(), self.reason)
    }
}

impl std::error::Error for EvalFileError {}

/// The engine: a transposition table, per-thread move statistics, and options.
pub struct Engine {
    options: Options,
    tt: TranspositionTable,
    histories: Vec<Box<History>>,
    searches: u64,
    /// A network read from a file, and the file; `None`: the built-in network.
    net: Option<(PathBuf, Box<Weights>)>,
}

impl Default for Engine {
    fn default() -> Engine {
        Engine::new()
    }
}

impl fmt::Debug for Engine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Engine").field("options", &self.options).finish_non_exhaustive()
    }
}

impl Engine {
    /// An engine with the default options (16 MB, one thread, full strength).
    ///
    /// # Panics
    /// If 16 MB cannot be had.
    pub fn new() -> Engine {
        Engine::with_options(Options::default()).expect("16 MB for the hash table")
    }

    /// An engine with these options.
    ///
    /// # Errors
    /// [`HashSizeError`] if the transposition table cannot be allocated.
    pub fn with_options(options: Options) -> Result<Engine, HashSizeError> {
        let mb = options.hash_mb;
        let tt = TranspositionTable::new(mb).map_err(|_| HashSizeError { mb })?;
        let mut engine = Engine { options, tt, histories: Vec::new(), searches: 0, net: None };
        engine.set_threads(engine.options.threads);
        Ok(engine)
    }

    /// The current options.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Resizes (and clears) the transposition table.
    ///
    /// # Errors
    /// [`HashSizeError`] if the memory cannot be had; the old table stays.
    pub fn set_hash_mb(&mut self, mb: usize) -> Result<(), HashSizeError> {
        // Free the old table first, or both would have to fit at once.
        self.tt = TranspositionTable::new(0).map_err(|_| HashSizeError { mb })?;
        match TranspositionTable::new(mb) {
            Ok(tt) => {
                self.tt = tt;
                self.options.hash_mb = mb;
                Ok(())
            }
            Err(_) => {
                self.tt = TranspositionTable::new(self.options.hash_mb)
                    .or_else(|_| TranspositionTable::new(1))
                    .map_err(|_| HashSizeError { mb })?;
                Err(HashSizeError { mb })
            }
        }
    }

    /// Sets the number of search threads (at least one).
    pub fn set_threads(&mut self, threads: usize) {
        let threads = threads.max(1);
        self.options.threads = threads;
        self.histories.truncate(threads);
        while self.histories.len() < threads {
            self.histories.push(History::new());
        }
    }

    /// Sets the number of principal variations (at least one).
    pub fn set_multipv(&mut self, multipv: usize) {
        self.options.multipv = multipv.max(1);
    }

    /// Sets the time lost per move outside the engine.
    pub fn set_move_overhead(&mut self, overhead: Duration) {
        self.options.move_overhead = overhead;
    }

    /// Evaluates with the network (`true`) or the hand-written terms. A change clears the
    /// transposition table, whose entries keep the other evaluation's static scores.
    pub fn set_use_nnue(&mut self, use_nnue: bool) {
        if use_nnue != self.options.use_nnue {
            self.tt.clear();
        }
        self.options.use_nnue = use_nnue;
    }

    /// Evaluates with the network in the file at `path` (UCI `EvalFile`), or with the
    /// built-in one (`None`). A new network clears the transposition table, whose entries
    /// keep the old one's static scores.
    ///
    /// # Errors
    /// [`EvalFileError`] if the file cannot be read or is not a network of this engine's
    /// shape; the network in use stays.
    pub fn set_eval_file(&mut self, path: Option<&Path>) -> Result<(), EvalFileError> {
        let net = match path {
            None => None,
            Some(path) => {
                let error = |reason: String| EvalFileError { path: path.to_owned(), reason };
                let bytes = std::fs::read(path).map_err(|e| error(e.to_string()))?;
                let weights = Weights::from_bytes(&bytes).map_err(|e| error(e.to_string()))?;
                Some((path.to_owned(), Box::new(weights)))
            }
        };
        self.net = net;
        self.tt.clear();
        Ok(())
    }

    /// The network file in use, or `None` for the built-in network.
    pub fn eval_file(&self) -> Option<&Path> {
        self.net.as_ref().map(|(path, _)| path.as_path())
    }

    /// Sets the playing level (`None`: full strength).
    pub fn set_level(&mut self, level: Option<Level>) {
        self.options.level = level;
    }

    /// Sets the seed of the level's choices.
    pub fn set_seed(&mut self, seed: u64) {
        self.options.seed = seed;
    }

    /// Forgets everything learned: the transposition table and the move statistics (UCI
    /// `ucinewgame`, `Clear Hash`).
    pub fn clear(&mut self) {
        self.tt.clear();
        for history in &mut self.histories {
            history.clear();
        }
    }

    /// Searches `pos`, which the game reached after the positions whose repetition keys are
    /// `history` (oldest first, [`Position::repetition_key`]), within `limits`, reading time
    /// from `clock` and watching `signals`. Reports to `handler` on this thread, ends with
    /// [`Handler::best_move`], and returns the outcome.
    ///
    /// Always answers with a legal move when there is one, however little time or how few
    /// nodes it is given. Under [`Limits::infinite`] or while pondering, it does not return
    /// before [`Signals::stop`] (or, pondering, [`Signals::ponderhit`]), as UCI requires.
    pub fn search(
        &mut self,
        pos: &Position,
        history: &[u64],
        limits: &Limits,
        signals: &Signals,
        clock: &dyn Clock,
        handler: &mut dyn Handler,
    ) -> SearchOutcome {
        self.searches += 1;
        let mut root_moves: Vec<Move> = pos.legal_moves().to_vec();
        if !limits.search_moves.is_empty() {
            let restricted: Vec<Move> =
                root_moves.iter().copied().filter(|m| limits.search_moves.contains(m)).collect();
            if !restricted.is_empty() {
                root_moves = restricted;
            }
        }
        if root_moves.is_empty() {
            wait_for_stop(limits, signals);
            let best = BestMove { best: None, ponder: None };
            handler.best_move(&best);
            return SearchOutcome {
                best: None,
                ponder: None,
                score: None,
                depth: 0,
                nodes: 0,
                time: clock.elapsed(),
                pv: Vec::new(),
            };
        }

        let level = self.options.level;
        let mut limits = limits.clone();
        let mut multipv = self.options.multipv;
        if let Some(level) = level {
            limits.depth = Some(limits.depth.map_or(level.depth(), |d| d.min(level.depth())));
            limits.nodes = Some(limits.nodes.map_or(level.nodes(), |n| n.min(level.nodes())));
            multipv = multipv.max(level.candidates());
        }
        let max_depth = match (limits.depth, limits.mate) {
            (Some(depth), _) => depth,
            (None, Some(moves)) => 4 * moves + 4,
            (None, None) => MAX_PLY as u32 - 8,
        };
        self.tt.new_search();
        for history in &mut self.histories {
            history.age();
        }
        let threads = self.options.threads;
        let shared = Shared {
            tt: &self.tt,
            signals,
            clock,
            limits: &limits,
            time: TimeManager::new(&limits, self.options.move_overhead),
            abort: Default::default(),
            nodes: (0..threads).map(|_| Default::default()).collect(),
            multipv,
            max_depth: max_depth.clamp(1, MAX_PLY as u32 - 8) as i32,
            selective: limits.mate.is_none(),
            use_nnue: self.options.use_nnue,
            net: match &self.net {
                Some((_, net)) => net,
                None => nnue::network(),
            },
        };
        let (main_history, helpers) =
            self.histories.split_first_mut().expect("at least one thread");
        let mut main = Worker::new(&shared, 0, main_history, pos, history, &root_moves);
        std::thread::scope(|scope| {
            let mut handles = Vec::new();
            for (i, helper_history) in helpers.iter_mut().enumerate() {
                let shared = &shared;
                let root_moves = &root_moves;
                handles.push(scope.spawn(move || {
                    let mut worker =
                        Worker::new(shared, i + 1, helper_history, pos, history, root_moves);
                    worker.iterate(pos, &mut ());
                }));
            }
            main.iterate(pos, handler);
            if !main.stopped {
                wait_for_stop(&limits, signals);
            }
            shared.abort.store(true, std::sync::atomic::Ordering::Relaxed);
            for handle in handles {
                // A helper that panicked only loses its share of the work.
                let _ = handle.join();
            }
        });
        shared.nodes[0].store(main.nodes, std::sync::atomic::Ordering::Relaxed);
        let completed_depth = main.completed_depth;
        let root_moves = std::mem::take(&mut main.root_moves);
        drop(main);

        let best_line = &root_moves[0];
        let mut best = best_line.mv;
        let mut pv = best_line.pv.clone();
        if let Some(level) = level {
            let seed = self.options.seed ^ pos.zobrist() ^ splitmix64(self.searches);
            if let Some(choice) = level.pick(&root_moves, seed) {
                if choice != best {
                    best = choice;
                    pv = root_moves
                        .iter()
                        .find(|rm| rm.mv == choice)
                        .map_or_else(|| vec![choice], |rm| rm.pv.clone());
                }
            }
        }
        let ponder = pv.get(1).copied().or_else(|| self.ponder_from_tt(pos, best));
        let score = (completed_depth > 0).then(|| {
            let value = root_moves.iter().find(|rm| rm.mv == best).map_or(0, |rm| {
                if rm.score == -crate::score::INFINITE {
                    rm.previous_score
                } else {
                    rm.score
                }
            });
            Score::from_value(value)
        });
        let outcome = SearchOutcome {
            best: Some(best),
            ponder,
            score,
            depth: completed_depth as u32,
            nodes: shared.total_nodes(),
            time: clock.elapsed(),
            pv,
        };
        handler.best_move(&BestMove { best: outcome.best, ponder: outcome.ponder });
        outcome
    }

    /// The reply the table expects after `best`, when the principal variation is one move long.
    fn ponder_from_tt(&self, pos: &Position, best: Move) -> Option<Move> {
        let mut child = *pos;
        child.play_unchecked(best);
        let reply = self.tt.probe(child.zobrist())?.mv?;
        child.is_legal(reply).then_some(reply)
    }
}

/// Under `go infinite` or while pondering, the best move waits for `stop` (or `ponderhit`).
fn wait_for_stop(limits: &Limits, signals: &Signals) {
    while (limits.infinite || signals.is_pondering()) && !signals.is_stopped() {
        std::thread::sleep(Duration::from_millis(1));
    }
}
