//! What every handler shares: handles, no logic. Nothing below the edges (live games,
//! lobby, tournaments) sees it; each is given the handles it needs.

use std::sync::Arc;

use rookery_cluster::{Cluster, Ownership, Relay};
use rookery_store::Store;
use tokio::sync::watch;

use crate::limits::Limits;
use crate::live::{LiveGames, Services};
use crate::lobby::Lobby;
use crate::ratelimit::{LoginThrottle, RateLimiter};
use crate::sockets::SocketLimiter;

/// The server's shared state.
pub struct AppState {
    /// The database.
    pub store: Store,
    /// The live games, one actor each.
    pub live: Arc<LiveGames>,
    /// Open seeks.
    pub lobby: Arc<Lobby>,
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
    /// Set to `true` when the server shuts down: sockets close.
    pub closing: watch::Sender<bool>,
    /// The address players reach the site at, if the operator gave it (`serve --public-url`).
    pub public_url: Option<String>,
}

impl AppState {
    /// Fresh state over a store, with these limits, as a node of `cluster`, reached at
    /// `public_url` when the operator gave it.
    pub fn new(
        store: Store,
        limits: &Limits,
        cluster: Cluster,
        public_url: Option<String>,
    ) -> Arc<AppState> {
        let node_id = cluster.ownership.node().map(|n| n.id.clone());
        let live = LiveGames::new(Services {
            store: store.clone(),
            ownership: cluster.ownership.clone(),
            relay: cluster.relay.clone(),
        });
        let lobby = Arc::new(Lobby::new(limits.seeks.clone()));
        let host = crate::competitions::ServerHost::new(&live, &lobby);
        Arc::new(AppState {
            tournaments: crate::competitions::Tournaments::new(store.clone(), host, node_id),
            live,
            lobby,
            store,
            logins: LoginThrottle::new(limits.accounts.clone()),
            signups: RateLimiter::new(limits.accounts.signups_per_address, 10 * 60_000),
            class_accounts_per_day: limits.accounts.class_accounts_per_day,
            sockets: SocketLimiter::new(limits.sockets.clone()),
            analysts: rookery_analysis::Analysts::default(),
            analyst: Arc::new(rookery_analysis::Analyst::new(limits.analysis.nodes_per_position)),
            ownership: cluster.ownership,
            relay: cluster.relay,
            closing: watch::Sender::new(false),
            public_url,
        })
    }
}
