//! Glicko-2 ratings, as in Mark Glickman, "Example of the Glicko-2 system" (2013), with the
//! Illinois algorithm for the new volatility (step 5 of that paper).
//!
//! This is the strength estimate shown beside the RULES.md §11 points, not part of them: §11
//! points are exact hundredths ([`Points`](crate::Points)), while Glicko-2 is statistics and
//! uses `f64`. Defaults follow lichess: rating 1500, deviation 350, volatility 0.06, τ = 0.75,
//! one game per rating period ([`Glicko2::rate_game`]), and the deviation kept within
//! [45, 350] after every update.
//!
//! Why [45, 350]: 45 is lichess's floor, so a settled player's rating still moves; 350 is the
//! deviation of a new player, so no one becomes less certain than a newcomer. (lila itself now
//! starts players at deviation 500 and volatility 0.09, and caps volatility at 0.1; Rookery
//! keeps the paper's 350 and 0.06 and caps only the deviation.) Deviation growth with time
//! away is not modelled: a rating period here is a game, not a span of time.

use std::error::Error;
use std::f64::consts::PI;
use std::fmt;

use crate::PairResult;

/// Glicko-1 points per unit of the Glicko-2 scale (step 2 of the paper).
const SCALE: f64 = 173.7178;

/// The Glicko-1 rating at the centre (μ = 0) of the Glicko-2 scale.
const CENTRE: f64 = 1500.0;

/// The convergence tolerance ε of the volatility iteration (step 5 of the paper).
const TOLERANCE: f64 = 0.000_001;

/// A bound on the volatility iteration; the paper's inputs converge in under ten steps, so this
/// only stops a pathological input (NaN, infinities) from spinning.
const MAX_ITERATIONS: u32 = 1_000;

/// A Glicko-2 rating on the Glicko-1 scale: rating `r`, deviation `RD` and volatility `σ`.
///
/// [`Display`](fmt::Display) writes `rating ± deviation`, rounded to whole points unless a
/// precision is given (`{:.2}`).
///
/// ```
/// use rookery_ladder::Rating;
///
/// let r = Rating::new(1464.0627, 151.5165, 0.059_996);
/// assert_eq!(r.to_string(), "1464 ± 152");
/// assert_eq!(format!("{r:.2}"), "1464.06 ± 151.52");
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Rating {
    /// The rating `r` (1500 for a new player).
    pub rating: f64,
    /// The rating deviation `RD`: one standard deviation of the estimate.
    pub deviation: f64,
    /// The volatility `σ`: how erratic the player's results are.
    pub volatility: f64,
}

impl Rating {
    /// A rating from its three parts.
    #[must_use]
    pub const fn new(rating: f64, deviation: f64, volatility: f64) -> Rating {
        Rating { rating, deviation, volatility }
    }

    /// μ, the rating on the Glicko-2 scale.
    fn mu(self) -> f64 {
        (self.rating - CENTRE) / SCALE
    }

    /// φ, the deviation on the Glicko-2 scale.
    fn phi(self) -> f64 {
        self.deviation / SCALE
    }
}

impl fmt::Display for Rating {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let precision = f.precision().unwrap_or(0);
        write!(f, "{:.*} ± {:.*}", precision, self.rating, precision, self.deviation)
    }
}

/// One game of a rating period: the opponent's rating before the period and the player's score.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatedGame {
    /// The opponent's rating at the start of the rating period.
    pub opponent: Rating,
    /// The player's score: 1 for a win, 0.5 for a draw, 0 for a loss.
    pub score: f64,
}

/// The Glicko-2 system and its parameters; [`Glicko2::default`] is the lichess-like setting.
///
/// ```
/// use rookery_ladder::{PairResult, Glicko2};
///
/// let glicko = Glicko2::default();
/// let newcomer = glicko.initial();
/// let (winner, loser) = glicko.rate_game(newcomer, newcomer, PairResult::AWins);
/// assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
/// assert!(winner.deviation < 350.0);
/// ```
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct Glicko2 {
    tau: f64,
    initial: Rating,
    min_deviation: f64,
    max_deviation: f64,
}

impl Default for Glicko2 {
    /// τ = 0.75, a new player at 1500 ± 350 with volatility 0.06, deviation kept in [45, 350].
    fn default() -> Glicko2 {
        Glicko2 {
            tau: 0.75,
            initial: Rating::new(1500.0, 350.0, 0.06),
            min_deviation: 45.0,
            max_deviation: 350.0,
        }
    }
}

impl Glicko2 {
    /// The default system with another system constant τ (the paper's example uses 0.5;
    /// Glickman suggests 0.3 to 1.2).
    ///
    /// # Errors
    ///
    /// [`Glicko2Error::Tau`] unless `tau` is finite and positive.
    pub fn with_tau(tau: f64) -> Result<Glicko2, Glicko2Error> {
        if tau.is_finite() && tau > 0.0 {
            Ok(Glicko2 { tau, ..Glicko2::default() })
        } else {
            Err(Glicko2Error::Tau(tau))
        }
    }

    /// The same system with the deviation kept within `[min, max]` after every update.
    ///
    /// # Errors
    ///
    /// [`Glicko2Error::DeviationBounds`] unless `0 < min ≤ max` and `max` is finite.
    pub fn with_deviation_bounds(self, min: f64, max: f64) -> Result<Glicko2, Glicko2Error> {
        if 0.0 < min && min <= max && max.is_finite() {
            Ok(Glicko2 { min_deviation: min, max_deviation: max, ..self })
        } else {
            Err(Glicko2Error::DeviationBounds { min, max })
        }
    }

    /// The same system with another rating for new players.
    ///
    /// # Errors
    ///
    /// [`Glicko2Error::Initial`] unless all three parts are finite and the deviation and
    /// volatility are positive.
    pub fn with_initial(self, initial: Rating) -> Result<Glicko2, Glicko2Error> {
        let Rating { rating, deviation, volatility } = initial;
        if rating.is_finite()
            && deviation.is_finite()
            && deviation > 0.0
            && volatility.is_finite()
            && volatility > 0.0
        {
            Ok(Glicko2 { initial, ..self })
        } else {
            Err(Glicko2Error::Initial(initial))
        }
    }

    /// The system constant τ, which limits how fast the volatility changes.
    #[must_use]
    pub fn tau(&self) -> f64 {
        self.tau
    }

    /// The rating of a new player.
    #[must_use]
    pub fn initial(&self) -> Rating {
        self.initial
    }

    /// The bounds `(min, max)` that every updated deviation is kept within.
    #[must_use]
    pub fn deviation_bounds(&self) -> (f64, f64) {
        (self.min_deviation, self.max_deviation)
    }

    /// One game as its own rating period for both players, as lichess rates: each side is
    /// updated against the other's rating from before the game. `result` is from A's side.
    #[must_use]
    pub fn rate_game(&self, a: Rating, b: Rating, result: PairResult) -> (Rating, Rating) {
        let score_a = result.score_a();
        let new_a = self.rate(a, &[RatedGame { opponent: b, score: score_a }]);
        let new_b = self.rate(b, &[RatedGame { opponent: a, score: 1.0 - score_a }]);
        (new_a, new_b)
    }

    /// The player's rating after one rating period with `games` (steps 1–8 of the paper).
    ///
    /// With no games only the deviation changes, growing to `√(RD² + σ²)` on the Glicko-2
    /// scale (step 6). The new deviation is then kept within [`Glicko2::deviation_bounds`].
    #[must_use]
    pub fn rate(&self, player: Rating, games: &[RatedGame]) -> Rating {
        let (mu, phi, sigma) = (player.mu(), player.phi(), player.volatility);
        if games.is_empty() {
            let phi_star = phi.hypot(sigma);
            return Rating { deviation: self.clamp(phi_star * SCALE), ..player };
        }

        // Steps 3 and 4: the estimated variance v and improvement Δ (kept as Δ / v).
        let mut information = 0.0; // 1 / v
        let mut improvement = 0.0; // Δ / v
        for game in games {
            let g = g(game.opponent.phi());
            let e = expected(mu, game.opponent.mu(), g);
            information += g * g * e * (1.0 - e);
            improvement += g * (game.score - e);
        }
        let v = 1.0 / information;
        let delta = v * improvement;

        // Steps 5 to 7.
        let sigma_new = self.volatility(phi, sigma, v, delta);
        let phi_star = phi.hypot(sigma_new);
        let phi_new = 1.0 / (1.0 / (phi_star * phi_star) + 1.0 / v).sqrt();
        let mu_new = mu + phi_new * phi_new * improvement;

        // Step 8.
        Rating {
            rating: SCALE * mu_new + CENTRE,
            deviation: self.clamp(SCALE * phi_new),
            volatility: sigma_new,
        }
    }

    /// Step 5: the new volatility σ′, the root of `f` found by the Illinois algorithm.
    fn volatility(&self, phi: f64, sigma: f64, v: f64, delta: f64) -> f64 {
        let tau = self.tau;
        let a = (sigma * sigma).ln();
        let phi2_v = phi * phi + v;
        let f = |x: f64| {
            let ex = x.exp();
            let d = phi2_v + ex;
            ex * (delta * delta - phi2_v - ex) / (2.0 * d * d) - (x - a) / (tau * tau)
        };

        // Step 5.2: bracket the root between A and B.
        let mut big_a = a;
        let mut big_b = if delta * delta > phi2_v {
            (delta * delta - phi2_v).ln()
        } else {
            let mut k = 1.0;
            while f(a - k * tau) < 0.0 && k < f64::from(MAX_ITERATIONS) {
                k += 1.0;
            }
            a - k * tau
        };

        // Steps 5.3 and 5.4: regula falsi, halving the retained end's value when it is kept
        // twice (Illinois). The 2013 paper tests f(C)·f(B) ≤ 0.
        let (mut f_a, mut f_b) = (f(big_a), f(big_b));
        let mut iterations = 0;
        while (big_b - big_a).abs() > TOLERANCE && iterations < MAX_ITERATIONS {
            let big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a);
            let f_c = f(big_c);
            if f_c * f_b <= 0.0 {
                big_a = big_b;
                f_a = f_b;
            } else {
                f_a /= 2.0;
            }
            big_b = big_c;
            f_b = f_c;
            iterations += 1;
        }
        (big_a / 2.0).exp()
    }

    fn clamp(&self, deviation: f64) -> f64 {
        deviation.clamp(self.min_deviation, self.max_deviation)
    }
}

/// g(φ), which discounts a game against an uncertain opponent (step 3).
fn g(phi: f64) -> f64 {
    1.0 / (1.0 + 3.0 * phi * phi / (PI * PI)).sqrt()
}

/// E(μ, μⱼ, φⱼ), the expected score against the opponent (step 3), given `g = g(φⱼ)`.
fn expected(mu: f64, mu_j: f64, g: f64) -> f64 {
    1.0 / (1.0 + (-g * (mu - mu_j)).exp())
}

/// A rejected [`Glicko2`] parameter.
#[derive(Copy, Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Glicko2Error {
    /// τ is not finite and positive.
    Tau(f64),
    /// The deviation bounds are not `0 < min ≤ max < ∞`.
    DeviationBounds {
        /// The rejected lower bound.
        min: f64,
        /// The rejected upper bound.
        max: f64,
    },
    /// The rating of new players is not finite or has a deviation or volatility of zero or less.
    Initial(Rating),
}

impl fmt::Display for Glicko2Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Glicko2Error::Tau(tau) => {
                write!(f, "invalid glicko-2 tau {tau}: expected a positive finite number")
            }
            Glicko2Error::DeviationBounds { min, max } => write!(
                f,
                "invalid glicko-2 deviation bounds [{min}, {max}]: expected 0 < min <= max < inf"
            ),
            Glicko2Error::Initial(r) => write!(
                f,
                "invalid glicko-2 initial rating {} ± {} (volatility {}): expected finite \
                 values and a positive deviation and volatility",
                r.rating, r.deviation, r.volatility
            ),
        }
    }
}

impl Error for Glicko2Error {}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(actual: f64, expected: f64, tolerance: f64) -> bool {
        (actual - expected).abs() <= tolerance
    }

    /// The worked example of Glickman's paper, steps 1–8.
    ///
    /// The paper prints r′ = 1464.06, RD′ = 151.52 and σ′ = 0.05999, computed from intermediates
    /// rounded to four places (v = 1.7785, Δ = −0.4834). Carried in full `f64` precision the same
    /// steps give r′ = 1464.0507, RD′ = 151.5165, σ′ = 0.059996: within 0.01 of the paper, which
    /// is the tolerance here, while the unrounded values are pinned more tightly.
    #[test]
    fn glickman_paper_example() {
        let glicko = Glicko2::with_tau(0.5).unwrap();
        let player = Rating::new(1500.0, 200.0, 0.06);
        let games = [
            RatedGame { opponent: Rating::new(1400.0, 30.0, 0.06), score: 1.0 },
            RatedGame { opponent: Rating::new(1550.0, 100.0, 0.06), score: 0.0 },
            RatedGame { opponent: Rating::new(1700.0, 300.0, 0.06), score: 0.0 },
        ];
        let new = glicko.rate(player, &games);
        assert!(close(new.rating, 1464.06, 0.01), "r' = {}", new.rating);
        assert!(close(new.deviation, 151.52, 0.01), "RD' = {}", new.deviation);
        assert!(close(new.volatility, 0.05999, 0.00001), "σ' = {}", new.volatility);
        assert!(close(new.rating, 1464.0507, 0.0001), "r' = {}", new.rating);
        assert!(close(new.deviation, 151.5165, 0.0001), "RD' = {}", new.deviation);
        assert!(close(new.volatility, 0.059_996, 0.000_001), "σ' = {}", new.volatility);
    }

    /// Intermediate quantities of the same example (steps 2–4 of the paper).
    #[test]
    fn glickman_paper_intermediates() {
        let player = Rating::new(1500.0, 200.0, 0.06);
        assert!(close(player.mu(), 0.0, 1e-12));
        assert!(close(player.phi(), 1.1513, 0.0001));
        // Opponent rating and deviation, score, and the paper's g(φⱼ) and E.
        let rows = [
            (1400.0, 30.0, 1.0, 0.9955, 0.639),
            (1550.0, 100.0, 0.0, 0.9531, 0.432),
            (1700.0, 300.0, 0.0, 0.7242, 0.303),
        ];
        let mut information = 0.0;
        let mut improvement = 0.0;
        for (r, rd, score, want_g, want_e) in rows {
            let opponent = Rating::new(r, rd, 0.06);
            let g = g(opponent.phi());
            let e = expected(player.mu(), opponent.mu(), g);
            assert!(close(g, want_g, 0.0001), "g for {r}: {g}");
            assert!(close(e, want_e, 0.001), "E for {r}: {e}");
            information += g * g * e * (1.0 - e);
            improvement += g * (score - e);
        }
        // The paper's v = 1.7785 and Δ = −0.4834 come from the rounded g and E above.
        let v = 1.0 / information;
        assert!(close(v, 1.7785, 0.001), "v = {v}");
        assert!(close(v * improvement, -0.4834, 0.001), "Δ = {}", v * improvement);
    }

    #[test]
    fn no_games_only_widens_the_deviation() {
        let glicko = Glicko2::default();
        let player = Rating::new(1700.0, 100.0, 0.06);
        let idle = glicko.rate(player, &[]);
        assert_eq!(idle.rating, 1700.0);
        assert_eq!(idle.volatility, 0.06);
        let want = (100.0f64 / SCALE).hypot(0.06) * SCALE;
        assert!(close(idle.deviation, want, 1e-9), "{}", idle.deviation);
        // A newcomer cannot become less certain than 350.
        assert_eq!(glicko.rate(glicko.initial(), &[]).deviation, 350.0);
    }

    #[test]
    fn deviation_is_clamped() {
        let glicko = Glicko2::default();
        let mut a = glicko.initial();
        let mut b = glicko.initial();
        for i in 0..2_000 {
            let result = if i % 3 == 0 { PairResult::Draw } else { PairResult::AWins };
            (a, b) = glicko.rate_game(a, b, result);
            for r in [a, b] {
                assert!((45.0..=350.0).contains(&r.deviation), "game {i}: {r:?}");
                assert!(r.rating.is_finite() && r.volatility.is_finite(), "game {i}: {r:?}");
            }
        }
        // A settled player who plays again would drop below the floor; the floor holds.
        let settled = Rating::new(1500.0, 45.2, 0.001);
        let (x, y) = glicko.rate_game(settled, settled, PairResult::Draw);
        assert_eq!((x.deviation, y.deviation), (45.0, 45.0));
        let unclamped = glicko.with_deviation_bounds(1.0, 350.0).unwrap();
        assert!(unclamped.rate_game(settled, settled, PairResult::Draw).0.deviation < 45.0);
        let wide = glicko.with_deviation_bounds(10.0, 500.0).unwrap();
        assert_eq!(wide.rate(Rating::new(1500.0, 499.0, 0.5), &[]).deviation, 500.0);
    }

    #[test]
    fn one_game_is_symmetric() {
        let glicko = Glicko2::default();
        let even = glicko.initial();
        let (a, b) = glicko.rate_game(even, even, PairResult::AWins);
        assert!(close(a.rating - 1500.0, 1500.0 - b.rating, 1e-9));
        assert!(close(a.deviation, b.deviation, 1e-9));
        let (a, b) = glicko.rate_game(even, even, PairResult::Draw);
        assert!(close(a.rating, 1500.0, 1e-9) && close(b.rating, 1500.0, 1e-9));
        assert!(a.deviation < 350.0);
        let (x, y) = glicko.rate_game(a, b, PairResult::BWins);
        let (y2, x2) = glicko.rate_game(b, a, PairResult::AWins);
        assert_eq!((x, y), (x2, y2));
    }

    #[test]
    fn rejects_bad_parameters() {
        for tau in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            let err = Glicko2::with_tau(tau).unwrap_err();
            assert!(matches!(err, Glicko2Error::Tau(t) if t.to_bits() == tau.to_bits()), "{err}");
            assert!(err.to_string().starts_with("invalid glicko-2 tau"), "{err}");
        }
        let glicko = Glicko2::default();
        assert!(glicko.with_deviation_bounds(0.0, 350.0).is_err());
        assert!(glicko.with_deviation_bounds(100.0, 50.0).is_err());
        assert!(glicko.with_deviation_bounds(45.0, f64::INFINITY).is_err());
        assert!(glicko.with_deviation_bounds(45.0, 45.0).is_ok());
        assert!(glicko.with_initial(Rating::new(1500.0, 0.0, 0.06)).is_err());
        assert!(glicko.with_initial(Rating::new(f64::NAN, 350.0, 0.06)).is_err());
        assert!(glicko.with_initial(Rating::new(1500.0, 350.0, 0.0)).is_err());
        let custom = glicko.with_initial(Rating::new(1200.0, 300.0, 0.09)).unwrap();
        assert_eq!(custom.initial().rating, 1200.0);
        assert_eq!(glicko.tau(), 0.75);
        assert_eq!(glicko.deviation_bounds(), (45.0, 350.0));
    }
}
