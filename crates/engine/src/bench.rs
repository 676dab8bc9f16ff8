//! The bench: a fixed search of fixed positions whose total node count is the engine's
//! signature (as Stockfish's `bench`). Single-threaded with fresh tables per position, it is
//! deterministic: any change to search or evaluation that changes the tree changes the
//! signature, and a change that should not (a refactoring, a speed-up) proves it did not.

use std::time::Duration;

use rookery_core::{Move, Position};

use crate::handler::SearchOutcome;
use crate::timeman::Clock;
use crate::{Engine, Limits, Options, Signals};

/// The depth of the bench when none is given.
pub const BENCH_DEPTH: u32 = 13;

/// The bench positions: the five standard perft positions (CPW "Perft Results": the
/// starting position, "Kiwipete", positions 3, 4 and 5), then middlegames and endgames from
/// Stockfish's bench set, a pawn ending and a mate to find.
pub const BENCH_POSITIONS: [&str; 12] = [
    "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
    "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
    "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1",
    "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
    "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8",
    "r4rk1/1pp1qppp/p1np1n2/2b1p1B1/2B1P1b1/P1NP1N2/1PP1QPPP/R4RK1 w - - 0 10",
    "r3r1k1/2p2ppp/p1p1bn2/8/1q2P3/2NPQN2/PPP3PP/R4RK1 b - - 2 15",
    "r1bbk1nr/pp3p1p/2n5/1N4p1/2Np1B2/8/PPP2PPP/2KR1B1R w kq - 0 13",
    "4rrk1/pp1n3p/3q2pQ/2p1pb2/2PP4/2P3N1/P2B2PP/4RRK1 b - - 7 19",
    "3r1rk1/p5pp/bpp1pp2/8/q1PP1P2/b3P3/P2NQRPP/1R2B1K1 b - - 6 22",
    "8/8/3k4/3p4/3P4/3K4/8/8 w - - 0 1",
    "6k1/5ppp/8/8/8/8/5PPP/3R2K1 w - - 0 1",
];

/// The bench's result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BenchReport {
    /// Per position: its FEN, the nodes searched and the best move.
    pub positions: Vec<(&'static str, u64, Option<Move>)>,
    /// The total of the nodes: the signature.
    pub nodes: u64,
    /// The time it took.
    pub time: Duration,
}

impl BenchReport {
    /// Nodes per second.
    pub fn nps(&self) -> u64 {
        let micros = self.time.as_micros().max(1);
        u64::try_from(u128::from(self.nodes) * 1_000_000 / micros).unwrap_or(u64::MAX)
    }
}

/// Runs the bench at `depth` on one thread with a 16 MB table, timing it with `clock`.
pub fn bench(depth: u32, clock: &dyn Clock) -> BenchReport {
    let mut engine = Engine::with_options(Options::default()).expect("16 MB for the hash table");
    let limits = Limits::depth(depth);
    let signals = Signals::new();
    let start = clock.elapsed();
    let mut positions = Vec::new();
    let mut nodes = 0;
    for fen in BENCH_POSITIONS {
        let pos: Position = fen.parse().expect("bench positions are legal");
        engine.clear();
        let SearchOutcome { best, nodes: n, .. } =
            engine.search(&pos, &[], &limits, &signals, clock, &mut ());
        nodes += n;
        positions.push((fen, n, best));
    }
    BenchReport { positions, nodes, time: clock.elapsed().saturating_sub(start) }
}
