//! The evaluation as a linear function of its weights, for tuning (CPW "Texel's Tuning
//! Method"; the coefficient "trace" of Andrew Grant's Ethereal tuner).
//!
//! [`trace`] evaluates a position as [`crate::evaluate`] does, but records, instead of adding
//! weights up, how often each [`Term`] counts (White's minus Black's), the game phase and the
//! endgame scale. Then, with `mg` and `eg` the middlegame and endgame sums of coefficient
//! times weight,
//!
//! ```text
//! eval = (mg * phase + eg * scale * (24 - phase)) / 24 + fixed        (White's view)
//! ```
//!
//! and [`Trace::value`] computes it for any [`Params`]. The terms that are not linear in
//! their weights are linearised around the traced position or kept fixed:
//!
//! - **King attack**: the weight of the attackers is scaled by a percentage that depends on
//!   their number, and halved without a queen. The number of attackers and the queen are
//!   properties of the position, so the scaled sum is linear in the per-role weights
//!   ([`Term::KingAttack`], fractional coefficients); the percentages stay fixed.
//! - **Endgame scale** (no pawns and too little material to win; opposite bishops): the
//!   factor is chosen by the traced position's own endgame value and material, and kept.
//! - **Mop-up** (drive a bare king to the edge): not tuned; its value goes into `fixed`.
//! - **Tempo**: not tuned (a game result says little about it); it goes into `fixed`.
//!
//! The engine rounds where the linear form does not (the taper, the scale and the king
//! attack percentage divide integers), so [`Trace::value`] agrees with the evaluation to
//! within [`ROUNDING`] centipawns, for the parameters traced with.

use rookery_core::{Color, Position};

use crate::eval::evaluate_with;
use crate::params::{Params, Term, PHASE_MAX, S};
use crate::tracer::Tracer;

/// How far [`Trace::value`] may be from the engine's integer evaluation. Each integer
/// division truncates by less than one: the taper (< 1), the endgame scale (< 1 before the
/// taper), and each side's king attack (a percentage, then a halving: < 1.5 before the
/// taper), together less than 5.
pub const ROUNDING: f64 = 5.0;

/// The coefficients of one position's evaluation, in White's view
/// `(Σ c·mg · phase + Σ c·eg · scale · (24 − phase)) / 24 + fixed`; see [`Trace::value`].
#[derive(Clone, Debug, PartialEq)]
pub struct Trace {
    /// Middlegame coefficient of each term, White's minus Black's, by [`Term::index`].
    pub mg: Vec<f64>,
    /// Endgame coefficient of each term, White's minus Black's, by [`Term::index`].
    pub eg: Vec<f64>,
    /// The game phase, `0..=24` (24: all pieces on the board).
    pub phase: i32,
    /// The endgame scale in eighths (8: unscaled).
    pub scale: i32,
    /// The untuned part in White's view: mop-up and tempo.
    pub fixed: i32,
    /// The side to move, whose point of view [`crate::evaluate`] takes.
    pub turn: Color,
}

impl Trace {
    fn new(turn: Color) -> Trace {
        Trace {
            mg: vec![0.0; Term::COUNT],
            eg: vec![0.0; Term::COUNT],
            phase: 0,
            scale: 8,
            fixed: 0,
            turn,
        }
    }

    /// The weight of middlegame values at this phase: `phase / 24`.
    pub fn mg_weight(&self) -> f64 {
        f64::from(self.phase) / f64::from(PHASE_MAX)
    }

    /// The weight of endgame values at this phase and scale: `scale/8 · (24 − phase) / 24`.
    pub fn eg_weight(&self) -> f64 {
        f64::from(self.scale) / 8.0 * f64::from(PHASE_MAX - self.phase) / f64::from(PHASE_MAX)
    }

    /// The evaluation under `params` in White's view, unrounded.
    pub fn white_value(&self, params: &Params) -> f64 {
        let (mut mg, mut eg) = (0.0, 0.0);
        for (i, term) in Term::all().into_iter().enumerate() {
            let S(m, e) = params.get(term);
            mg += self.mg[i] * f64::from(m);
            eg += self.eg[i] * f64::from(e);
        }
        mg * self.mg_weight() + eg * self.eg_weight() + f64::from(self.fixed)
    }

    /// The evaluation under `params` from the side to move's point of view, as
    /// [`crate::evaluate`] gives it (to within [`ROUNDING`] for the traced parameters).
    pub fn value(&self, params: &Params) -> f64 {
        let white = self.white_value(params);
        if self.turn == Color::White {
            white
        } else {
            -white
        }
    }
}

impl Tracer for Trace {
    const ENABLED: bool = true;

    fn add(&mut self, color: Color, term: Term, n: i32) {
        let n = if color == Color::White { f64::from(n) } else { -f64::from(n) };
        self.mg[term.index()] += n;
        self.eg[term.index()] += n;
    }

    fn add_mg(&mut self, color: Color, term: Term, coefficient: f64) {
        let c = if color == Color::White { coefficient } else { -coefficient };
        self.mg[term.index()] += c;
    }

    fn taper(&mut self, phase: i32, scale: i32, fixed: i32) {
        self.phase = phase;
        self.scale = scale;
        self.fixed = fixed;
    }
}

/// Evaluates `pos` with `params`, recording the coefficients of every term. Also returns
/// the evaluation itself (side to move's view), which is what the engine would play with
/// those parameters.
pub fn trace(pos: &Position, params: &Params) -> (Trace, i32) {
    let mut trace = Trace::new(pos.turn());
    let value = evaluate_with(pos, params, &mut trace);
    (trace, value)
}
