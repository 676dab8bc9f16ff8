//! The tuner's mathematics: the gradient is the derivative of the error (against finite
//! differences), K fitting recovers the K that made the data, the optimiser descends, the
//! work split over threads does not change a bit of the result, and the sampled positions
//! and their traces agree with the engine.

use rookery_core::Color;
use rookery_engine::tuning::{evaluate_with_params, Term, HAND_SET};
use rookery_tune::data::splitmix;
use rookery_tune::model::default_mask;
use rookery_tune::{
    error, fit_k, gradient, optimise, sample, sigmoid, Dataset, Sampling, Schedule, Weights,
};

/// A uniform number in `[0, 1)` from a counter.
fn uniform(i: u64) -> f64 {
    (splitmix(i) >> 11) as f64 / (1u64 << 53) as f64
}

/// Positions with random sparse coefficients over a few terms, phases and results.
fn synthetic(n: usize, terms: usize, seed: u64) -> Dataset {
    let mut data = Dataset::new();
    let mut c = seed << 32;
    let mut next = || {
        c += 1;
        uniform(c)
    };
    for _ in 0..n {
        let mut coefs = Vec::new();
        for t in 0..terms {
            if next() < 0.5 {
                coefs.push((t, (next() * 5.0).floor() - 2.0));
            }
        }
        let phase = (next() * 25.0).floor();
        let result = [0.0, 0.5, 1.0][(next() * 3.0) as usize];
        data.push(coefs, phase / 24.0, (24.0 - phase) / 24.0, next() * 20.0 - 10.0, result);
    }
    data
}

fn random_weights(seed: u64) -> Weights {
    Weights(
        (0..2 * Term::COUNT).map(|i| 200.0 * uniform((seed << 20) ^ i as u64) - 100.0).collect(),
    )
}

#[test]
fn gradient_matches_finite_differences() {
    let data = synthetic(400, 12, 1);
    let weights = random_weights(2);
    let k = 1.3;
    let (e, grad) = gradient(&data, &weights, k, 2);
    assert!((e - error(&data, &weights, k, 1)).abs() < 1e-12);
    // 12 terms, middlegame and endgame values.
    for (i, &analytic) in grad.iter().enumerate().take(24) {
        let h = 1e-3;
        let mut plus = weights.clone();
        plus.0[i] += h;
        let mut minus = weights.clone();
        minus.0[i] -= h;
        let numeric = (error(&data, &plus, k, 1) - error(&data, &minus, k, 1)) / (2.0 * h);
        let scale = numeric.abs().max(analytic.abs()).max(1e-9);
        assert!(
            (numeric - analytic).abs() / scale < 1e-5,
            "weight {i}: analytic {analytic:e}, numeric {numeric:e}"
        );
    }
    // Terms that never occur have no gradient.
    assert!(grad[24..].iter().all(|&g| g == 0.0));
}

fn evaluation_weights() -> Weights {
    let mut w = Weights(vec![0.0; 2 * Term::COUNT]);
    w.0[0] = 1.0;
    w
}

#[test]
fn k_fitting_recovers_the_k_of_the_data() {
    for k in [0.6, 1.0, 1.7] {
        // Exact expected scores: the error is zero at the true K.
        let mut data = Dataset::new();
        for i in 0..2000 {
            let v = 1600.0 * uniform(i) - 800.0;
            data.push([(0, v)], 1.0, 0.0, 0.0, sigmoid(k, v) as f32);
        }
        let fitted = fit_k(&data, &evaluation_weights(), 2);
        assert!((fitted - k).abs() < 1e-3, "K {k}: fitted {fitted}");
    }
}

#[test]
fn k_fitting_recovers_the_k_of_sampled_results() {
    for k in [0.8, 1.4] {
        let mut data = Dataset::new();
        for i in 0..60_000u64 {
            let v = 1600.0 * uniform(i) - 800.0;
            let p = sigmoid(k, v);
            let u = uniform(i ^ 0x5eed_0000_0000);
            data.push([(0, v)], 1.0, 0.0, 0.0, if u < p { 1.0 } else { 0.0 });
        }
        let fitted = fit_k(&data, &evaluation_weights(), 2);
        assert!((fitted - k).abs() / k < 0.05, "K {k}: fitted {fitted}");
    }
}

#[test]
fn adam_descends_and_threads_do_not_change_the_result() {
    let data = synthetic(3000, 20, 3);
    let start = random_weights(4);
    let schedule = Schedule { epochs: 60, rate: 2.0, l2: 0.0 };
    let mut errors = Vec::new();
    let one = optimise(&data, &start, &default_mask(), 1.0, &schedule, 1, |_, e, _| errors.push(e));
    let two = optimise(&data, &start, &default_mask(), 1.0, &schedule, 2, |_, _, _| {});
    assert_eq!(one, two, "the result depends on the number of threads");
    assert!(errors.last() < errors.first(), "{errors:?}");
    // Masked weights stay.
    let mut mask = default_mask();
    mask[0] = false;
    let held = optimise(&data, &start, &mask, 1.0, &schedule, 2, |_, _, _| {});
    assert_eq!(held.0[0], start.0[0]);
}

#[test]
fn sampled_positions_are_traced_as_the_engine_evaluates_their_leaves() {
    let pgn = include_bytes!("../../pgn/tests/data/real/gnuchess-book-first-2000.pgn");
    let sampling = Sampling { skip_plies: 8, every: 25, seed: 1, max_games: Some(300) };
    let (positions, stats) = sample(pgn, &sampling).unwrap();
    assert_eq!(stats.games, 300);
    assert_eq!(stats.kept, positions.len() as u64);
    assert!(positions.len() > 500 && positions.len() < 1500, "{}", positions.len());
    assert!(positions.iter().all(|p| !p.pos.is_check() && [0.0, 0.5, 1.0].contains(&p.result)));
    // The same sample again; another seed, another sample.
    assert_eq!(sample(pgn, &sampling).unwrap().0, positions);
    let other = sample(pgn, &Sampling { seed: 2, ..sampling }).unwrap().0;
    assert_ne!(other, positions);

    let data = Dataset::build(&positions, &HAND_SET, 2);
    assert_eq!(data.len(), positions.len());
    let weights = Weights::from_params(&HAND_SET);
    for (i, labelled) in positions.iter().enumerate() {
        let (leaf, value) = rookery_engine::tuning::quiet(&labelled.pos, &HAND_SET);
        let white = if leaf.turn() == Color::White { 1 } else { -1 };
        let static_eval = white * evaluate_with_params(&leaf, &HAND_SET);
        let linear = weights.evaluate(&data.get(i));
        // The f32 storage adds a little to the engine's rounding.
        assert!(
            (linear - f64::from(static_eval)).abs() < 5.5,
            "{}: {linear} vs {static_eval}",
            labelled.pos
        );
        // The quiescence value of the sampled position is its leaf's evaluation.
        let sign = if leaf.turn() == labelled.pos.turn() { 1 } else { -1 };
        assert_eq!(value, sign * evaluate_with_params(&leaf, &HAND_SET), "{}", labelled.pos);
    }
}
