//! Cost of the dead-position analysis (RULES.md §6.2 after every move, §5 at a flag fall),
//! per call, on positions of random but plausible games and on the textbook suite of
//! `tests/data/dead_positions.txt`. Prints median, p99 and maximum microseconds, and the
//! verdict counts and search nodes, which are deterministic: the benchmark asserts them, so a
//! change of the analysis that changes a verdict or a node count shows here (STYLE §14).
//!
//! Run: `cargo bench -p rookery-arbiter --bench dead`.

#[path = "../tests/dead/support.rs"]
mod support;

use std::hint::black_box;
use std::time::Instant;

use rookery_arbiter::dead::{analyse, is_dead, Budget, Winnability};
use rookery_core::{Color, Position};

/// Median, p99 and maximum of per-call times, in microseconds.
fn summary(mut micros: Vec<f64>) -> String {
    micros.sort_by(f64::total_cmp);
    let at = |q: f64| micros[((micros.len() - 1) as f64 * q).round() as usize];
    format!(
        "median {:8.2} µs   p99 {:9.2} µs   max {:10.2} µs   ({} calls)",
        at(0.5),
        at(0.99),
        micros[micros.len() - 1],
        micros.len()
    )
}

/// Times `f` on every position, one call each, after one untimed warm-up pass.
fn time_each<T>(positions: &[Position], mut f: impl FnMut(&Position) -> T) -> Vec<f64> {
    for pos in positions.iter().take(200) {
        black_box(f(pos));
    }
    positions
        .iter()
        .map(|pos| {
            let start = Instant::now();
            black_box(f(pos));
            start.elapsed().as_secs_f64() * 1e6
        })
        .collect()
}

/// Verdict counts and total nodes of `analyse` with `budget` over both colours.
fn signature(positions: &[Position], budget: &Budget) -> ([usize; 3], u64) {
    let mut counts = [0; 3];
    let mut nodes = 0;
    for pos in positions {
        for side in Color::ALL {
            let a = analyse(pos, side, budget);
            nodes += a.nodes;
            counts[match a.winnability {
                Winnability::Winnable => 0,
                Winnability::Unwinnable => 1,
                Winnability::Undetermined => 2,
            }] += 1;
        }
    }
    (counts, nodes)
}

fn main() {
    let games = support::positions(0xbe9c_4dea, 480, 240, 8);
    let cases = support::cases();
    let suite: Vec<Position> = cases.iter().map(support::Case::position).collect();
    assert!(games.len() >= 10_000, "only {} game positions", games.len());
    println!(
        "dead-position analysis, {} game positions, {} textbook positions",
        games.len(),
        suite.len()
    );

    let mut signatures = Vec::new();
    for (name, set) in [("games", &games), ("textbook", &suite)] {
        println!("\n[{name}]");
        let dead = set.iter().filter(|p| is_dead(p)).count();
        println!(
            "is_dead (per move)            {}   dead: {dead}",
            summary(time_each(set, is_dead))
        );
        let quick = time_each(set, |p| analyse(p, p.turn(), &Budget::PER_MOVE).winnability);
        println!("winnability, side to move     {}", summary(quick));
        let other = time_each(set, |p| analyse(p, !p.turn(), &Budget::PER_MOVE).winnability);
        println!("winnability, side that moved  {}", summary(other));
        let (counts, nodes) = signature(set, &Budget::PER_MOVE);
        println!(
            "verdicts (PER_MOVE budget, both sides): winnable {}, unwinnable {}, undetermined {}; nodes {nodes}",
            counts[0], counts[1], counts[2]
        );
        signatures.push((dead, counts, nodes));
    }
    let timeout = time_each(&suite, |p| rookery_arbiter::can_ever_mate(p, !p.turn()));
    println!("\n[textbook] can_ever_mate (timeout budget) {}", summary(timeout));

    // Every textbook dead position is found after a move, and the verdicts and node counts are
    // those of the analysis as committed: a change to it must change these on purpose.
    let dead_lines = cases.iter().filter(|c| c.label == "dead").count();
    let dead_found = cases.iter().filter(|c| c.label == "dead" && is_dead(&c.position())).count();
    assert_eq!(dead_found, dead_lines, "textbook dead positions found per move");
    assert_eq!(signatures, SIGNATURES, "verdict signature changed");
}

/// (positions `is_dead`, [winnable, unwinnable, undetermined], nodes) for the game positions
/// and the textbook suite.
const SIGNATURES: [(usize, [usize; 3], u64); 2] =
    [(176, [20193, 2844, 719], 2_679_339), (36, [32, 84, 36], 48_121)];
