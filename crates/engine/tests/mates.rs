//! The mate suite: forced mates in two and three moves from published sources, each with
//! every first move that mates in that many (`tests/data/mates.epd`). The engine must find
//! the mate, with the exact distance, within a node budget.

mod epd;

use std::time::Duration;

use rookery_engine::{Engine, Limits, ManualClock, Score, Signals};

/// Nodes per position: about a tenth of a second of search.
const BUDGET: u64 = 400_000;

#[test]
fn finds_every_mate() {
    let records = epd::read("mates.epd");
    assert!(records.len() >= 20, "{} positions", records.len());
    let mut engine = Engine::new();
    let mut failures = Vec::new();
    for r in &records {
        let mate = r.mate.expect("every record has dm");
        engine.clear();
        let limits = Limits { mate: Some(mate as u32), nodes: Some(BUDGET), ..Limits::default() };
        let outcome = engine.search(
            &r.position,
            &[],
            &limits,
            &Signals::new(),
            &ManualClock::new(Duration::ZERO),
            &mut (),
        );
        let best = outcome.best.expect("a move");
        if outcome.score != Some(Score::Mate(mate)) || !r.best.contains(&best) {
            failures.push(format!(
                "line {} ({}): {} — found {best} with {:?} after {} nodes, expected mate in {mate} by {:?}",
                r.line, r.id, r.fen, outcome.score, outcome.nodes, r.best
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} failed:\n{}",
        failures.len(),
        records.len(),
        failures.join("\n")
    );
}

/// The normal, selective search (as in a game) finds most of the mates too; composed
/// problems with quiet keys and zugzwang are what null-move pruning is known to miss.
#[test]
fn normal_search_finds_most_mates() {
    let records = epd::read("mates.epd");
    let mut engine = Engine::new();
    let mut solved = 0;
    let mut missed = Vec::new();
    for r in &records {
        engine.clear();
        let outcome = engine.search(
            &r.position,
            &[],
            &Limits::nodes(NORMAL_BUDGET),
            &Signals::new(),
            &ManualClock::new(Duration::ZERO),
            &mut (),
        );
        if outcome.score == r.mate.map(Score::Mate) && r.best.contains(&outcome.best.unwrap()) {
            solved += 1;
        } else {
            missed.push(format!("{} {:?}", r.id, outcome.score));
        }
    }
    eprintln!("normal search: {solved} of {} mates found; missed {missed:?}", records.len());
    assert!(solved >= NORMAL_FLOOR, "only {solved} of {} found; missed {missed:?}", records.len());
}

/// Nodes per position for the selective search.
const NORMAL_BUDGET: u64 = 150_000;

/// Mates the selective search must find at [`NORMAL_BUDGET`] nodes each (34 until the
/// network of 16e61b3, which finds 32: see `tactics.rs`; 34 again with the third network, 32
/// with its output buckets, 34 with the network trained on two rounds of games, 35 with the
/// one on three, 34 with the one on four, which plays 17 to 34 Elo stronger at fixed nodes;
/// 33 with double and negative singular extensions, 50 Elo stronger at fixed nodes and 0.563
/// against Stockfish 2500 where the search before scored 0.484).
const NORMAL_FLOOR: usize = 33;
