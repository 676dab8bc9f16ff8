//! The time of day, read in one place: the arbiter, the store and the actors are given it.

use std::time::{SystemTime, UNIX_EPOCH};

/// Wall-clock time in milliseconds since the Unix epoch: the only place the server reads the
/// time of day. The arbiter and the store are given it.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}
