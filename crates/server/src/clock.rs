//! The time of day, read in one place (rookery-store's `now_ms`, which the crates the server
//! hosts share): the arbiter, the store and the actors are given it.

pub use rookery_store::now_ms;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// When the stall watcher last ticked (wall ms; 0 before it runs).
static WATCHED_MS: AtomicU64 = AtomicU64::new(0);
/// When the last stall of this process ended (wall ms; 0: none seen).
static STALL_ENDED_MS: AtomicU64 = AtomicU64::new(0);

/// How often the stall watcher ticks.
const WATCH_EVERY: Duration = Duration::from_secs(1);
/// A tick this late after the one before means the process was stopped (issue 51: a node
/// paused by `SIGSTOP`, a VM frozen) or starved of the CPU.
const STALL_MS: u64 = 3_000;

/// Watches this process's own stalls, for as long as the server runs: one task for the whole
/// process, where each game socket had a watchdog of its own ticking every second (18,000
/// wake-ups a second at 9,000 games, issue 56).
pub(crate) async fn watch_stalls() {
    let mut every = tokio::time::interval(WATCH_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let now = now_ms();
        let before = WATCHED_MS.swap(now, Ordering::Relaxed);
        if before != 0 && now.saturating_sub(before) > STALL_MS {
            STALL_ENDED_MS.fetch_max(now, Ordering::Relaxed);
        }
    }
}

/// Since when a client's silence counts, given the last message heard from it at `heard_ms`:
/// not from before this process's last stall ended, for the process heard nothing during it.
/// While a stall has just ended and the watcher has not ticked since (it is overdue), the
/// silence counts from now.
pub(crate) fn silence_counts_from(heard_ms: u64, now: u64) -> u64 {
    let watched = WATCHED_MS.load(Ordering::Relaxed);
    if watched != 0 && now.saturating_sub(watched) > WATCH_EVERY.as_millis() as u64 * 2 {
        return heard_ms.max(now);
    }
    heard_ms.max(STALL_ENDED_MS.load(Ordering::Relaxed))
}
