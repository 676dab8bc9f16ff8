#![doc = include_str!("../README.md")]

mod model;

pub use model::{
    Acceleration, Colour, ForbiddenPairs, Outcome, Player, PlayerId, Points, ResultCode,
    RoundEntry, Scoring, Tournament,
};
