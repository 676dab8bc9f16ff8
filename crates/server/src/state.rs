//! What every handler shares.

use std::sync::Arc;
use std::time::{SystemTime, UNIX_EPOCH};

use rookery_cluster::{Cluster, Ownership, Relay};
pub use rookery_protocol::random_id;
use rookery_store::Store;
use tokio::sync::{watch, Mutex, MutexGuard};

use crate::limits::Limits;
use crate::live::LiveGames;
use crate::lobby::Lobby;
use crate::ratelimit::{LoginThrottle, RateLimiter};
use crate::sockets::SocketLimiter;

/// The server's shared state.
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The live games, one actor each.
    pub live: LiveGames,
    /// Open seeks.
    pub lobby: Lobby,
    /// The tournaments not over, one actor each, and the finished ones read lately.
    pub tournaments: crate::competitions::Tournaments,
    /// Failed log-ins, per name and address, per address, and per name.
    pub logins: LoginThrottle,
    /// Sign-ups per client address.
    pub signups: RateLimiter,
    /// Class accounts one organiser may create per day (`--class-accounts-per-day`).
    pub class_accounts_per_day: u32,
    /// Every visitor's WebSockets and their message budgets.
    pub sockets: SocketLimiter,
    /// Engine analyses of one position running, at most one per core.
    pub analysts: rookery_analysis::Analysts,
    /// The background worker that analyses whole games, one at a time.
    pub analyst: Arc<rookery_analysis::Analyst>,
    /// Who serves what: this node's lease and claims when several share the database
    /// (issue 39); everything is this node's alone.
    pub ownership: Arc<dyn Ownership>,
    /// The other nodes (NATS), when this node has any: then a socket may play a game another
    /// node serves (issue 39); nobody to relay to alone.
    pub relay: Arc<dyn Relay>,
    /// On a cluster, the count of live games on every node, when it was read (Unix ms) and
    /// how many this node served then: the lobby shows it, read at most every few seconds
    /// whatever the lobby's size, and again at once when this node's own games change.
    live_count: std::sync::Mutex<(u64, usize, usize)>,
    /// Set to `true` when the server shuts down: sockets close.
    pub closing: watch::Sender<bool>,
    /// Taken around game creation and results when the database is SQLite (see
    /// [`AppState::write_turn`]).
    sqlite_writer: Mutex<()>,
}

impl AppState {
    /// Fresh state over a store, with these limits, as a node of `cluster`.
    pub fn new(store: Store, limits: &Limits, cluster: Cluster) -> Arc<AppState> {
        let node_id = cluster.ownership.node().map(|n| n.id.clone());
        Arc::new_cyclic(|state| AppState {
            tournaments: crate::competitions::Tournaments::new(
                store.clone(),
                crate::competitions::ServerHost::new(state.clone()),
                node_id,
            ),
            store,
            live: LiveGames::default(),
            lobby: Lobby::new(limits.seeks.clone()),
            logins: LoginThrottle::new(limits.accounts.clone()),
            signups: RateLimiter::new(limits.accounts.signups_per_address, 10 * 60_000),
            class_accounts_per_day: limits.accounts.class_accounts_per_day,
            sockets: SocketLimiter::new(limits.sockets.clone()),
            analysts: rookery_analysis::Analysts::default(),
            analyst: Arc::new(rookery_analysis::Analyst::new(limits.analysis.nodes_per_position)),
            ownership: cluster.ownership,
            relay: cluster.relay,
            live_count: std::sync::Mutex::new((0, 0, 0)),
            closing: watch::Sender::new(false),
            sqlite_writer: Mutex::new(()),
        })
    }

    /// How many games are live: this server's actors, or on a cluster every node's (read
    /// from the store at most every 5 s, and at once when this node has started, ended or
    /// handed over a game since: a lobby on the node where a game was just made never shows
    /// the count from before it, which its list of games, read fresh, contradicts).
    pub async fn live_games(&self) -> usize {
        let here = self.live.len();
        if self.ownership.node().is_none() {
            return here;
        }
        let now = now_ms();
        let (at, count, served) = *self.live_count.lock().unwrap_or_else(|e| e.into_inner());
        if now < at + 5_000 && served == here {
            return count;
        }
        match self.store.count_live_games().await {
            Ok(n) => {
                let n = n as usize;
                *self.live_count.lock().unwrap_or_else(|e| e.into_inner()) = (now, n, here);
                n
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot count the live games");
                count
            }
        }
    }

    /// Waits for this task's turn to create or finish a game, when the database is SQLite.
    ///
    /// SQLite has one writer at a time; pool connections that race for its lock sleep in its
    /// busy handler (1, 2, 5, 10 … ms), which made creating 5,000 games in the load benchmark
    /// (BENCHMARKS.md, "Server load") take 44 s instead of 19 s. Queued here, in order, these
    /// writes rarely meet the lock taken. (Moves need no turn: the store commits them in
    /// groups from one task.) PostgreSQL needs no turn.
    pub async fn write_turn(&self) -> Option<MutexGuard<'_, ()>> {
        match self.store.backend() {
            rookery_store::Backend::Sqlite => Some(self.sqlite_writer.lock().await),
            rookery_store::Backend::Postgres => None,
        }
    }
}

/// Wall-clock time in milliseconds since the Unix epoch: the only place the server reads the
/// time of day. The arbiter and the store are given it.
pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as u64)
}

/// `bytes` random bytes from the operating system, as lowercase hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // The OS generator failing is not recoverable in a server that must issue secrets.
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    hex(&buf)
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
