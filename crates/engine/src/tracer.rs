//! What the evaluation reports its terms to ([`Tracer`]): nothing in play ([`NoTrace`]), each
//! term's coefficient when tuning (`trace::Trace`). The evaluation is generic over it, so the
//! search's evaluation pays nothing for the tuner's bookkeeping.

use rookery_core::Color;

use crate::params::Term;

/// Receives the terms of an evaluation. The evaluation is generic over it, so that
/// [`NoTrace`] costs nothing.
pub(crate) trait Tracer {
    /// `false` when nothing is recorded: the evaluation skips the bookkeeping.
    const ENABLED: bool;

    /// `term` counts `n` more times for `color`, middlegame and endgame alike.
    fn add(&mut self, color: Color, term: Term, n: i32);

    /// `term`'s middlegame value counts `coefficient` more times for `color`.
    fn add_mg(&mut self, color: Color, term: Term, coefficient: f64);

    /// The blend: the game phase, the endgame scale in eighths, and the untuned rest in
    /// White's view.
    fn taper(&mut self, phase: i32, scale: i32, fixed: i32);
}

/// Records nothing: the evaluation the search uses.
pub(crate) struct NoTrace;

impl Tracer for NoTrace {
    const ENABLED: bool = false;

    #[inline(always)]
    fn add(&mut self, _: Color, _: Term, _: i32) {}

    #[inline(always)]
    fn add_mg(&mut self, _: Color, _: Term, _: f64) {}

    #[inline(always)]
    fn taper(&mut self, _: i32, _: i32, _: i32) {}
}
