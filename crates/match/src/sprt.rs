//! The sequential probability ratio test (Wald 1945) on Elo, as fishtest, OpenBench and
//! fastchess run it: H0 "the Elo difference is `elo0`" against H1 "it is `elo1`", stopping as
//! soon as the log-likelihood ratio leaves `[ln(β/(1-α)), ln((1-β)/α)]`.
//!
//! The log-likelihood ratio is the generalised SPRT's normal approximation in the logistic
//! model (Michel Van den Bergh, "A practical introduction to the GSPRT", 2016; fastchess
//! `sprt.cpp`, model `logistic`): with `s` the score, `σ²` the trinomial per-game variance
//! (see [`Wdl::variance`]), `N` games and `s0`, `s1` the expected scores of `elo0` and `elo1`,
//!
//! ```text
//! LLR = N (s1 - s0) (2s - s0 - s1) / (2 σ²)
//! ```
//!
//! No BayesElo draw model is involved. The LLR is 0 while σ² is 0 (no games, or only one kind
//! of result), as in fastchess.

use core::fmt;

use crate::stats::{score_from_elo, Wdl};

/// An SPRT's hypotheses and error rates.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The Elo difference of H0.
    pub elo0: f64,
    /// The Elo difference of H1.
    pub elo1: f64,
    /// The false positive rate: accepting H1 when H0 holds.
    pub alpha: f64,
    /// The false negative rate: accepting H0 when H1 holds.
    pub beta: f64,
}

/// What the test says so far.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SprtDecision {
    /// The LLR fell to the lower bound: H0 (`elo0`) is accepted.
    H0,
    /// The LLR rose to the upper bound: H1 (`elo1`) is accepted.
    H1,
    /// Neither bound has been reached: play on.
    Continue,
}

/// Why an SPRT cannot be set up.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// `elo0` must be below `elo1`.
    Order {
        /// The lower hypothesis as given.
        elo0: f64,
        /// The upper hypothesis as given.
        elo1: f64,
    },
    /// An error rate outside (0, ½).
    Rate(f64),
    /// Text that is not `elo0,elo1`.
    Syntax(String),
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::Order { elo0, elo1 } => {
                write!(f, "elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::Rate(rate) => write!(f, "error rate {rate} is not between 0 and 0.5"),
            SprtError::Syntax(text) => {
                write!(f, "expected two Elo values as elo0,elo1 (like 0,10), found {text:?}")
            }
        }
    }
}

impl std::error::Error for SprtError {}

impl Sprt {
    /// A test of `elo0` against `elo1` with error rates `alpha` and `beta`.
    ///
    /// # Errors
    /// [`SprtError`] unless `elo0 < elo1` and both rates lie strictly between 0 and ½.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, SprtError> {
        if elo0.partial_cmp(&elo1) != Some(core::cmp::Ordering::Less) {
            return Err(SprtError::Order { elo0, elo1 });
        }
        for rate in [alpha, beta] {
            if !(rate > 0.0 && rate < 0.5) {
                return Err(SprtError::Rate(rate));
            }
        }
        Ok(Sprt { elo0, elo1, alpha, beta })
    }

    /// Reads `elo0,elo1` (as on the command line) with α = β = 0.05.
    ///
    /// # Errors
    /// [`SprtError`] for text that is not two numbers, or numbers out of order.
    pub fn parse(text: &str) -> Result<Sprt, SprtError> {
        let syntax = || SprtError::Syntax(text.to_owned());
        let (a, b) = text.split_once(',').ok_or_else(syntax)?;
        let elo0 = a.trim().parse().map_err(|_| syntax())?;
        let elo1 = b.trim().parse().map_err(|_| syntax())?;
        Sprt::new(elo0, elo1, 0.05, 0.05)
    }

    /// The lower bound of the LLR: `ln(β / (1 - α))`.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// The upper bound of the LLR: `ln((1 - β) / α)`.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The log-likelihood ratio of the results so far (see the module documentation).
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let (Some(score), Some(variance)) = (wdl.score(), wdl.variance()) else { return 0.0 };
        if variance <= 0.0 {
            return 0.0;
        }
        let (s0, s1) = (score_from_elo(self.elo0), score_from_elo(self.elo1));
        wdl.games() as f64 * (s1 - s0) * (2.0 * score - s0 - s1) / (2.0 * variance)
    }

    /// The decision for the results so far.
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        let llr = self.llr(wdl);
        if llr >= self.upper_bound() {
            SprtDecision::H1
        } else if llr <= self.lower_bound() {
            SprtDecision::H0
        } else {
            SprtDecision::Continue
        }
    }
}

impl fmt::Display for Sprt {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0 {} elo1 {} alpha {} beta {} (bounds {:.2}, {:.2})",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.lower_bound(),
            self.upper_bound()
        )
    }
}
