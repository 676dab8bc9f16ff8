#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod bench;
mod correction;
mod engine;
mod eval;
mod handler;
mod history;
mod limits;
mod movepick;
pub mod nnue;
mod params;
mod pawns;
mod score;
mod search;
mod see;
mod skill;
mod thread;
mod threats;
mod timeman;
mod trace;
mod tracer;
mod tt;
#[doc(hidden)]
pub mod tuning;

pub use engine::{Engine, EvalFileError, HashSizeError, Options};
pub use handler::{BestMove, Collect, Handler, SearchInfo, SearchOutcome};
pub use limits::{Limits, Signals, TimeLeft};
pub use score::{Bound, Score, MAX_PLY};
pub use skill::{Level, ELO_RANGE};
pub use timeman::{Clock, ManualClock};

/// The hand-written static evaluation of a position in centipawns, from the side to move's
/// point of view (what the search's leaves see with `UseNNUE` off, before any search).
pub fn evaluate(pos: &rookery_core::Position) -> i32 {
    eval::classical(pos)
}
