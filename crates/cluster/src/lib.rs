#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod alone;
mod lease;
pub mod lobby;
mod nats;
mod node;
mod ownership;
mod relay;

use std::sync::Arc;

use rookery_store::{Store, StoreError};

pub use lease::{Lapse, LeaseState};
pub use nats::{ConnectError, RemoteGame, RemoteUpdate, ALIVE_EVERY};
pub use node::NodeConfig;
pub use ownership::{Claim, Claimed, Ownership};
pub use relay::{Joined, LocalGame, Relay, RelayCounts, RelayError, Seat};

/// This node's two faces of the cluster: who owns what, and the other nodes.
#[derive(Clone)]
pub struct Cluster {
    /// Leases, claims and their fenced writers.
    pub ownership: Arc<dyn Ownership>,
    /// The other nodes.
    pub relay: Arc<dyn Relay>,
}

/// Why a node could not join its cluster.
#[derive(Debug, thiserror::Error)]
pub enum JoinError {
    /// The NATS server cannot be reached.
    #[error(transparent)]
    Relay(#[from] ConnectError),
    /// The first heartbeat cannot be written.
    #[error(transparent)]
    Store(#[from] StoreError),
}

/// A single node (`rookery serve` without `--node-id`): it owns every game and tournament,
/// its writes are not fenced, and it has nobody to relay to.
#[must_use]
pub fn alone(store: Store) -> Cluster {
    Cluster { ownership: Arc::new(alone::Everything(store)), relay: Arc::new(alone::Nobody) }
}

/// Joins the cluster as `config` says: connects to its NATS server, if it has one, then
/// writes the first heartbeat, before this node claims any game (the games it resumes are
/// claimed under that lease).
///
/// # Errors
/// [`JoinError`] naming what cannot be reached.
pub async fn join(store: Store, config: NodeConfig) -> Result<Cluster, JoinError> {
    let relay: Arc<dyn Relay> = match &config.nats {
        Some(url) => Arc::new(nats::Linked(nats::Nats::connect(url, &config.id).await?)),
        None => Arc::new(alone::Nobody),
    };
    let ownership = Arc::new(node::Node::join(store, config).await?);
    Ok(Cluster { ownership, relay })
}

/// The time of day (leases by the wall clock, probes, the lobby's snapshots).
pub(crate) use rookery_store::now_ms;
