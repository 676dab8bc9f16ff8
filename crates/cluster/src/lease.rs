//! This node's lease as its game actors see it (issue 51): by this machine's clock, whether
//! it surely still runs, and what the last lapse found.
//!
//! Past a heartbeat's sending plus the lease, another node may have taken this node's games,
//! so its actors serve nothing (no `hello`, no view, no clock, no flag) until a heartbeat has
//! renewed the lease and, if it had lapsed in the database, each game's claim has been
//! checked again ([`crate::Ownership::holds`]). A game still its own after a lapse is
//! credited the time since the node's last good heartbeat, as a game taken over from a dead
//! node is: nobody could have served it meanwhile, and nobody did.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::sync::watch;

/// This node's lease, as the heartbeats renew it (see [`LeaseState`]).
pub(crate) struct Lease(watch::Sender<LeaseState>);

/// Where this node's lease stands, as a game actor reads it.
#[derive(Clone, Debug)]
pub struct LeaseState {
    /// Until when the lease surely runs: the last good heartbeat's sending plus the lease (the
    /// database starts the lease when it writes the heartbeat, later). Past it, another node
    /// may have claimed this node's games.
    valid_until: Instant,
    /// The wall clock (Unix ms) at the last good heartbeat's sending.
    beat_ms: u64,
    /// How many lapses have been found since the node started.
    pub lapses: u64,
    /// The last of them.
    pub lapse: Option<Arc<Lapse>>,
}

/// What a node found when a heartbeat told it its lease had lapsed in the database.
#[derive(Debug)]
pub struct Lapse {
    /// The wall clock (Unix ms) at the last good heartbeat before the lapse: the node served
    /// its games until then at least, and perhaps no longer.
    pub served_until_ms: u64,
    /// The wall clock when the lease had run out by this node's reckoning: a game this node
    /// began serving after it (claimed by the awake node) was served all along.
    pub ran_out_ms: u64,
}

impl LeaseState {
    /// Whether the lease surely runs now, read together with the state: a renewal that
    /// comes after this reading and finds the lease run out wakes the reader.
    #[must_use]
    pub fn runs(&self) -> bool {
        Instant::now() < self.valid_until
    }
}

impl Lease {
    /// A lease not yet renewed: nothing is served under it until the first heartbeat.
    pub(crate) fn new() -> Lease {
        let state = LeaseState { valid_until: Instant::now(), beat_ms: 0, lapses: 0, lapse: None };
        Lease(watch::Sender::new(state))
    }

    /// Follows the lease: a change is sent when a lapse is found, and when a renewal comes
    /// after the lease had run out by this node's clock (not on every heartbeat).
    pub(crate) fn subscribe(&self) -> watch::Receiver<LeaseState> {
        self.0.subscribe()
    }

    /// A heartbeat sent at `sent` (wall clock `sent_ms`) renewed the lease, which had not
    /// lapsed in the database.
    pub(crate) fn renewed(&self, sent: Instant, sent_ms: u64, lease: Duration) {
        self.0.send_if_modified(|s| {
            // Under the state's lock: an actor that read the old state and found it run out
            // is woken, since this check comes after its reading.
            let ran_out = Instant::now() >= s.valid_until;
            s.valid_until = sent + lease;
            s.beat_ms = sent_ms;
            ran_out
        });
    }

    /// A heartbeat sent at `sent` renewed the lease, which had lapsed in the database: each
    /// actor checks its claim again before it serves, and a game still this node's is
    /// credited the time since the last good heartbeat.
    pub(crate) fn lapsed(&self, sent: Instant, sent_ms: u64, lease: Duration) {
        self.0.send_modify(|s| {
            let served_until_ms = s.beat_ms;
            let ran_out_ms = s.beat_ms + lease.as_millis() as u64;
            s.lapses += 1;
            s.lapse = Some(Arc::new(Lapse { served_until_ms, ran_out_ms }));
            s.valid_until = sent + lease;
            s.beat_ms = sent_ms;
        });
    }
}
