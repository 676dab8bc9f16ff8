//! The time of day, read in one place (rookery-store's `now_ms`, which the crates the server
//! hosts share): the arbiter, the store and the actors are given it.

pub use rookery_store::now_ms;
