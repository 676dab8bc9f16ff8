//! The SPRT: bounds, log-likelihood ratios worked out by hand, and decisions.

use rookery_match::sprt::{Sprt, SprtDecision, SprtError};
use rookery_match::stats::Wdl;

fn close(got: f64, want: f64, what: &str) {
    assert!((got - want).abs() <= 1e-4, "{what}: got {got}, want {want}");
}

#[test]
fn bounds_for_the_default_error_rates() {
    let sprt = Sprt::parse("0,10").unwrap();
    // ln(0.05 / 0.95) and ln(0.95 / 0.05), as fishtest and fastchess print them (±2.94).
    close(sprt.lower_bound(), -2.944_439, "lower");
    close(sprt.upper_bound(), 2.944_439, "upper");
    let strict = Sprt::new(0.0, 5.0, 0.01, 0.05).unwrap();
    close(strict.lower_bound(), (0.05f64 / 0.99).ln(), "lower, α = 0.01");
    close(strict.upper_bound(), (0.95f64 / 0.01).ln(), "upper, α = 0.01");
}

/// (wins, draws, losses, elo0, elo1, LLR)
///
/// Worked example, 100-50-50 with [0, 10]: s = 0.625, σ² = 0.171875 (tests/stats.rs);
/// s0 = 0.5, s1 = 1 / (1 + 10^(-10/400)) = 0.514387;
/// LLR = 200 × 0.014387 × (1.25 - 0.5 - 0.514387) / (2 × 0.171875) = 1.97225.
const CASES: [(u64, u64, u64, f64, f64, f64); 7] = [
    (100, 50, 50, 0.0, 10.0, 1.972_250),
    (100, 50, 50, 0.0, 5.0, 1.016_437),
    (100, 50, 50, -5.0, 0.0, 1.076_678),
    (30, 40, 30, 0.0, 10.0, -0.068_997),
    (300, 400, 100, 0.0, 10.0, 12.397_001),
    (100, 400, 300, 0.0, 10.0, -13.910_993),
    (1000, 1000, 900, 0.0, 10.0, 2.564_115),
];

#[test]
fn log_likelihood_ratios() {
    for (w, d, l, elo0, elo1, llr) in CASES {
        let sprt = Sprt::new(elo0, elo1, 0.05, 0.05).unwrap();
        close(sprt.llr(&Wdl::new(w, d, l)), llr, &format!("{w}-{d}-{l} [{elo0}, {elo1}]"));
    }
}

#[test]
fn decisions() {
    let sprt = Sprt::parse("0,10").unwrap();
    assert_eq!(sprt.decide(&Wdl::new(300, 400, 100)), SprtDecision::H1);
    assert_eq!(sprt.decide(&Wdl::new(100, 400, 300)), SprtDecision::H0);
    assert_eq!(sprt.decide(&Wdl::new(100, 50, 50)), SprtDecision::Continue);
    assert_eq!(sprt.decide(&Wdl::new(1000, 1000, 900)), SprtDecision::Continue);
    // No spread yet: no evidence.
    assert_eq!(sprt.llr(&Wdl::default()), 0.0);
    assert_eq!(sprt.llr(&Wdl::new(0, 7, 0)), 0.0);
    assert_eq!(sprt.decide(&Wdl::new(3, 0, 0)), SprtDecision::Continue);
    // A clearly stronger engine is accepted as H1 after enough games, one game at a time.
    let mut wdl = Wdl::default();
    let mut decided_after = None;
    for game in 0..2000u64 {
        match game % 4 {
            0 | 1 => wdl.wins += 1,
            2 => wdl.draws += 1,
            _ => wdl.losses += 1,
        }
        if sprt.decide(&wdl) != SprtDecision::Continue {
            decided_after = Some((game + 1, sprt.decide(&wdl)));
            break;
        }
    }
    let (games, decision) = decided_after.expect("a decision within 2000 games");
    assert_eq!(decision, SprtDecision::H1);
    assert!(games < 400, "decided after {games} games");
}

#[test]
fn bad_hypotheses_are_refused() {
    assert_eq!(Sprt::parse("10,0"), Err(SprtError::Order { elo0: 10.0, elo1: 0.0 }));
    assert_eq!(Sprt::parse("5,5"), Err(SprtError::Order { elo0: 5.0, elo1: 5.0 }));
    assert_eq!(Sprt::parse("0;10"), Err(SprtError::Syntax("0;10".to_owned())));
    assert_eq!(Sprt::parse("zero,10"), Err(SprtError::Syntax("zero,10".to_owned())));
    assert_eq!(Sprt::new(0.0, 10.0, 0.0, 0.05), Err(SprtError::Rate(0.0)));
    assert_eq!(Sprt::new(0.0, 10.0, 0.05, 0.7), Err(SprtError::Rate(0.7)));
    assert_eq!(
        Sprt::parse("10,0").unwrap_err().to_string(),
        "elo0 (10) must be less than elo1 (0)"
    );
    let sprt = Sprt::parse(" -3.5 , 1.5 ").unwrap();
    assert_eq!((sprt.elo0, sprt.elo1, sprt.alpha, sprt.beta), (-3.5, 1.5, 0.05, 0.05));
}
