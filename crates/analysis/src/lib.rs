#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod judge;
mod position;
mod worker;

pub use position::{Analysts, PositionAnalysis, PositionError};
pub use worker::{run, Analyst, Progress, ReadLine, Report};
