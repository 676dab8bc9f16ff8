//! The bench signature: the node count of the fixed bench search. It changes only when the
//! search or the evaluation does, and every such change states the new signature here and in
//! its commit (as Stockfish's `bench`).

use std::time::Duration;

use rookery_engine::bench::{bench, BENCH_DEPTH, BENCH_POSITIONS};
use rookery_engine::ManualClock;

/// The signature at [`BENCH_DEPTH`].
const SIGNATURE: u64 = 818_541;

#[test]
fn bench_signature_is_stable() {
    let report = bench(BENCH_DEPTH, &ManualClock::new(Duration::ZERO));
    assert_eq!(report.positions.len(), BENCH_POSITIONS.len());
    for (fen, nodes, best) in &report.positions {
        assert!(*nodes > 0 && best.is_some(), "{fen}");
    }
    assert_eq!(report.nodes, SIGNATURE, "the bench signature changed");
}
