#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

pub mod clock;
pub mod time_control;

pub use clock::{format_clk, format_clk_tenths, Clock, ClockError, ClockState, MoveReport};
pub use time_control::{ParseTimeControlError, Speed, TimeControl};
