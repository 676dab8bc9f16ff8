//! The evaluation's trace is the evaluation: for every position, the coefficients times the
//! weights give back what `evaluate` says (to within the engine's integer rounding), for the
//! engine's parameters and for perturbed ones, so that no term escapes the tuner.
//!
//! Positions: the perft suite of `rookery-core` (`crates/core/tests/data/perftsuite.epd`),
//! the engine's test suites, and seeded random playouts from each, which reach the bare-king,
//! pawnless and opposite-bishop endings that the nonlinear terms handle.

use rookery_core::Position;
use rookery_engine::evaluate;
use rookery_engine::tuning::{
    evaluate_with_params, trace, Params, Term, ACTIVE, HAND_SET, ROUNDING, S, TUNED,
};

/// A xorshift64* generator: deterministic positions without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

fn suite_positions() -> Vec<Position> {
    let mut positions = Vec::new();
    let dir = env!("CARGO_MANIFEST_DIR");
    let files = [
        format!("{dir}/../core/tests/data/perftsuite.epd"),
        format!("{dir}/tests/data/wac.epd"),
        format!("{dir}/tests/data/mates.epd"),
    ];
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let fen: Vec<&str> = line.split_whitespace().take(4).collect();
            let fen = format!("{} 0 1", fen.join(" "));
            let pos = fen.parse().unwrap_or_else(|e| panic!("{path}:{}: {e}", i + 1));
            positions.push(pos);
        }
    }
    positions
}

/// The suite positions and, from each, positions along seeded random games.
fn positions() -> Vec<Position> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
    let mut all = Vec::new();
    for start in suite_positions() {
        all.push(start);
        for _ in 0..4 {
            let mut pos = start;
            for ply in 0..160 {
                let moves = pos.legal_moves();
                if moves.is_empty() {
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len() as u64) as usize]);
                if ply % 5 == 4 {
                    all.push(pos);
                }
            }
        }
    }
    all
}

fn check(positions: &[Position], params: &Params, name: &str) {
    let mut worst = 0.0f64;
    for pos in positions {
        let (trace, value) = trace(pos, params);
        assert_eq!(value, evaluate_with_params(pos, params), "{name}: {pos}");
        let linear = trace.value(params);
        let error = (linear - f64::from(value)).abs();
        assert!(error <= ROUNDING, "{name}: trace {linear:.2}, evaluation {value} for {pos}");
        worst = worst.max(error);
    }
    println!("{name}: {} positions, largest difference {worst:.2} cp", positions.len());
}

#[test]
fn trace_reproduces_the_evaluation() {
    let positions = positions();
    assert!(positions.len() > 3000, "{}", positions.len());
    for pos in &positions {
        assert_eq!(evaluate(pos), evaluate_with_params(pos, &ACTIVE), "{pos}");
    }
    check(&positions, &HAND_SET, "hand-set");
    check(&positions, &TUNED, "tuned");
}

#[test]
fn every_term_is_traced() {
    // Random weights everywhere: a term the trace missed would show as a difference.
    let positions = positions();
    let mut rng = Rng(7);
    for round in 0..3 {
        let mut params = HAND_SET;
        for term in Term::all() {
            let mut r = || rng.below(61) as i32 - 30;
            let S(mg, eg) = params.get(term);
            params.set(term, S(mg + r(), eg + r()));
        }
        check(&positions, &params, &format!("random weights {round}"));
    }
}
