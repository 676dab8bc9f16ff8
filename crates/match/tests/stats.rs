//! The statistics against values worked out by hand with the formulas cutechess-cli and
//! fastchess print (see `src/stats.rs`), each case a W/D/L record.

use rookery_match::stats::{elo_from_score, erf, score_from_elo, Wdl};

fn close(got: f64, want: f64, tolerance: f64, what: &str) {
    assert!((got - want).abs() <= tolerance, "{what}: got {got}, want {want}");
}

/// (wins, draws, losses, score, Elo, error bar, LOS)
///
/// Worked example, 100-50-50: N = 200, s = (100 + 25) / 200 = 0.625;
/// Elo = -400 log10(1/0.625 - 1) = -400 log10(0.6) = 88.739;
/// σ² = 0.5 (0.375)² + 0.25 (0.125)² + 0.25 (0.625)² = 0.0703125 + 0.00390625 + 0.09765625
///    = 0.171875; σ/√N = 0.414578 / 14.1421 = 0.0293151; s ± 1.96 σ/√N = 0.567543 .. 0.682457;
/// Elo of those: 47.054 and 132.740, half the difference 42.843;
/// LOS = ½ + ½ erf(50 / √600) = ½ + ½ erf(2.04124) = 0.99998 (cutechess: "LOS: 100.0 %").
///
/// 3-6-1 is a cutechess-sized sample: s = 0.6, Elo 70.4, σ² = 0.3 (0.4)² + 0.6 (0.1)² + 0.1
/// (0.6)² = 0.09, error 143.1, LOS = ½ + ½ erf(2/√8) = 0.841 (cutechess prints
/// "Elo difference: 70.4 +/- 143.1, LOS: 84.1 %, DrawRatio: 60.0 %").
const CASES: [(u64, u64, u64, f64, f64, f64, f64); 5] = [
    (100, 50, 50, 0.625, 88.7395, 42.8430, 0.999_977_7),
    (30, 40, 30, 0.5, 0.0, 53.1580, 0.5),
    (3, 6, 1, 0.6, 70.4365, 143.1274, 0.841_344_7),
    (300, 400, 100, 0.625, 88.7395, 17.0023, 1.0),
    (1000, 1000, 900, 0.517_241_4, 11.9853, 10.2412, 0.989_109_3),
];

#[test]
fn score_elo_error_bar_and_los() {
    for (w, d, l, score, elo, error, los) in CASES {
        let wdl = Wdl::new(w, d, l);
        let case = format!("{w}-{d}-{l}");
        close(wdl.score().unwrap(), score, 1e-6, &format!("{case} score"));
        let estimate = wdl.elo().unwrap();
        close(estimate.elo, elo, 1e-3, &format!("{case} elo"));
        close(estimate.error, error, 1e-3, &format!("{case} error bar"));
        close(wdl.los(), los, 1e-6, &format!("{case} LOS"));
        // From the other side: the same bar, the opposite difference.
        let flipped = wdl.flipped().elo().unwrap();
        close(flipped.elo, -elo, 1e-3, &format!("{case} flipped elo"));
        close(flipped.error, error, 1e-3, &format!("{case} flipped error bar"));
    }
}

#[test]
fn display_like_cutechess() {
    assert_eq!(Wdl::new(100, 50, 50).elo().unwrap().to_string(), "88.7 +/- 42.8");
    assert_eq!(Wdl::new(3, 6, 1).elo().unwrap().to_string(), "70.4 +/- 143.1");
    assert_eq!(Wdl::new(30, 40, 30).elo().unwrap().to_string(), "0.0 +/- 53.2");
}

#[test]
fn edges() {
    assert_eq!(Wdl::default().score(), None);
    assert_eq!(Wdl::default().elo(), None);
    assert_eq!(Wdl::default().los(), 0.5);
    // All wins: the difference is infinite, as cutechess prints "inf".
    let sweep = Wdl::new(5, 0, 0).elo().unwrap();
    assert!(sweep.elo.is_infinite() && sweep.error == f64::INFINITY, "{sweep:?}");
    assert_eq!(sweep.to_string(), "inf +/- inf");
    // Nearly all wins: the interval reaches a score of 1, so the bar is unbounded (it was
    // NaN, from the logarithm of a negative number).
    let lopsided = Wdl::new(19, 0, 1).elo().unwrap();
    assert!(lopsided.elo.is_finite() && lopsided.error == f64::INFINITY, "{lopsided:?}");
    assert_eq!(lopsided.to_string(), "511.5 +/- inf");
    // All draws: no spread, no error bar.
    let draws = Wdl::new(0, 10, 0).elo().unwrap();
    assert_eq!((draws.elo, draws.error), (0.0, 0.0));
    assert_eq!(Wdl::new(0, 10, 0).los(), 0.5);
}

#[test]
fn logistic_model_round_trips() {
    for elo in [-800.0, -200.0, -10.0, 0.0, 5.0, 100.0, 400.0] {
        close(elo_from_score(score_from_elo(elo)), elo, 1e-9, "round trip");
    }
    close(score_from_elo(400.0), 10.0 / 11.0, 1e-12, "400 Elo is 10:1");
}

#[test]
fn erf_matches_tabulated_values() {
    // Abramowitz and Stegun, table 7.1.
    for (x, want) in
        [(0.0, 0.0), (0.5, 0.520_499_877_8), (1.0, 0.842_700_792_9), (2.0, 0.995_322_265)]
    {
        close(erf(x), want, 2e-7, &format!("erf({x})"));
        close(erf(-x), -want, 2e-7, &format!("erf(-{x})"));
    }
}
