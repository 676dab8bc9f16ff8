//! Match statistics: the score, the Elo difference with its 95% error bar, the likelihood of
//! superiority, and the per-engine failure counts.
//!
//! The formulas are cutechess-cli's (`elo.cpp`), which fastchess also uses for the trinomial
//! case: the score `s = (W + D/2) / N`; the Elo difference of a score is the logistic
//! `-400 log10(1/s - 1)`; the per-game variance is the trinomial
//! `σ² = w (1 - s)² + d (½ - s)² + l (0 - s)²` with `w, d, l` the fractions of wins, draws and
//! losses; the 95% interval of the score is `s ± 1.96 σ / √N`, and the error bar is half the
//! Elo width of that interval. The likelihood of superiority is
//! `½ + ½ erf((W - L) / √(2 (W + L)))`.

use core::fmt;

/// The 97.5% quantile of the standard normal distribution: a two-sided 95% interval.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses of one engine against the other.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// A record of `wins`, `draws` and `losses`.
    pub const fn new(wins: u64, draws: u64, losses: u64) -> Wdl {
        Wdl { wins, draws, losses }
    }

    /// Games played.
    pub const fn games(&self) -> u64 {
        self.wins + self.draws + self.losses
    }

    /// The same games from the opponent's side.
    pub const fn flipped(&self) -> Wdl {
        Wdl { wins: self.losses, draws: self.draws, losses: self.wins }
    }

    /// Points scored: a win is 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + self.draws as f64 / 2.0
    }

    /// The score: points per game, from 0 to 1; `None` before any game.
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.points() / n as f64)
    }

    /// The fraction of games drawn; `None` before any game.
    pub fn draw_ratio(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| self.draws as f64 / n as f64)
    }

    /// The trinomial variance of one game's result around the score; `None` before any game.
    pub fn variance(&self) -> Option<f64> {
        let n = self.games() as f64;
        let s = self.score()?;
        let (w, d, l) = (self.wins as f64 / n, self.draws as f64 / n, self.losses as f64 / n);
        Some(w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2))
    }

    /// The Elo difference the score stands for, with its 95% error bar; `None` before any
    /// game. At a score of 0 or 1 the difference is infinite, as cutechess prints it.
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let sd = (self.variance()? / self.games() as f64).sqrt();
        // An interval reaching past a score of 0 or 1 is unbounded on that side.
        let low = elo_from_score((s - Z_95 * sd).max(0.0));
        let high = elo_from_score((s + Z_95 * sd).min(1.0));
        // At a score of 0 or 1 both ends are infinite and their difference undefined.
        let error = if s <= 0.0 || s >= 1.0 { f64::INFINITY } else { (high - low) / 2.0 };
        Some(EloEstimate { elo: elo_from_score(s), error })
    }

    /// The likelihood of superiority, from 0 to 1: how sure one may be that the engine is the
    /// stronger, from its wins and losses alone (draws say nothing). ½ with neither.
    pub fn los(&self) -> f64 {
        let (w, l) = (self.wins as f64, self.losses as f64);
        if w + l == 0.0 {
            return 0.5;
        }
        0.5 + 0.5 * erf((w - l) / (2.0 * (w + l)).sqrt())
    }
}

impl core::ops::AddAssign for Wdl {
    fn add_assign(&mut self, other: Wdl) {
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }
}

/// An Elo difference and its 95% error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The difference.
    pub elo: f64,
    /// Half the width of the 95% interval: infinite when the interval reaches a score of 0
    /// or 1.
    pub error: f64,
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:.1} +/- {:.1}", self.elo, self.error)
    }
}

/// The Elo difference of a score (logistic model): `-400 log10(1/s - 1)`. Infinite at 0 and 1.
pub fn elo_from_score(score: f64) -> f64 {
    // `+ 0.0` turns the -0.0 of an even score into 0.0.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// The expected score of an Elo difference (logistic model): `1 / (1 + 10^(-elo/400))`.
pub fn score_from_elo(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The error function, by Abramowitz and Stegun's formula 7.1.26 (absolute error below
/// 1.5e-7: plenty for a percentage).
pub fn erf(x: f64) -> f64 {
    const P: f64 = 0.327_591_1;
    const A: [f64; 5] =
        [0.254_829_592, -0.284_496_736, 1.421_413_741, -1.453_152_027, 1.061_405_429];
    let sign = x.signum();
    let x = x.abs();
    let t = 1.0 / (1.0 + P * x);
    let poly = A.iter().rev().fold(0.0, |acc, a| acc * t + a) * t;
    sign * (1.0 - poly * (-x * x).exp())
}

/// What went wrong for one engine over the match.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Failures {
    /// Games lost on time: the arbiter's flag fell (stalls included).
    pub time_losses: u64,
    /// Games in which the engine stopped answering: no `bestmove` within its time and the
    /// margin. Each is also a time loss; the process is restarted.
    pub stalls: u64,
    /// Games in which the engine's process died (or could not be started).
    pub crashes: u64,
    /// Games lost by an illegal or unreadable move.
    pub illegal_moves: u64,
}

impl core::ops::AddAssign for Failures {
    fn add_assign(&mut self, other: Failures) {
        self.time_losses += other.time_losses;
        self.stalls += other.stalls;
        self.crashes += other.crashes;
        self.illegal_moves += other.illegal_moves;
    }
}
