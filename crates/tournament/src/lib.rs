#![doc = include_str!("../README.md")]

pub mod matching;
mod model;

pub use model::{
    Acceleration, Colour, ForbiddenPairs, Outcome, Pair, Player, PlayerId, Points, ResultCode,
    RoundEntry, RoundPairing, Scoring, Tournament,
};
