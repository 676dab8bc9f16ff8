//! One node of several on one database (issue 39): its identity, its lease, and its claims.
//!
//! The database decides who owns a game (rookery-store's `claim_game`): a node claims a game
//! when it creates it, when it resumes it after a restart, and when a player's socket or
//! request reaches it for a live game that no live node serves (its owner died or stopped:
//! its lease ran out). Every write of the game goes through the writer of that claim, fenced
//! by its epoch, so a node that was paused or cut off past its lease writes nothing once it
//! has been replaced: its actor stops and its sockets close, and the players reconnect to the
//! new owner. A node renews its lease every quarter of it; one that finds its lease had
//! lapsed (it was paused, or the database was out of reach) has each of its actors check its
//! claim again ([`crate::lease`]).

use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use rookery_store::{Store, StoreError, Writer};
use tokio::sync::watch;

use crate::lease::Lease;
use crate::{now_ms, Claim, Claimed, LeaseState, Ownership};

/// A node's identity in a cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeConfig {
    /// Unique among the nodes sharing the database.
    pub id: String,
    /// How long a heartbeat keeps the node's games its own: after that, another node may
    /// take them over. Renewed every quarter of it.
    pub lease: Duration,
    /// The NATS server through which nodes relay the games of each other's sockets
    /// ([`crate::Relay`]); `None`: a socket reaching a node that does not own its game is
    /// told where it is (`elsewhere`).
    pub nats: Option<String>,
}

impl NodeConfig {
    /// The default lease: short enough that a dead node's games move within a few seconds,
    /// long enough that a busy node renews it many times over.
    pub const DEFAULT_LEASE: Duration = Duration::from_secs(3);
}

/// A node of a cluster: [`Ownership`] by leases and claims in the shared database. Cheap to
/// clone.
#[derive(Clone)]
pub(crate) struct Node(Arc<Inner>);

struct Inner {
    store: Store,
    config: NodeConfig,
    lease: Lease,
}

impl Node {
    /// Joins the cluster: the first heartbeat, before this node claims any game (the games it
    /// resumes are claimed under it).
    pub(crate) async fn join(store: Store, config: NodeConfig) -> Result<Node, StoreError> {
        let node = Node(Arc::new(Inner { store, config, lease: Lease::new() }));
        let (sent, sent_ms) = (Instant::now(), now_ms());
        let lease = node.0.config.lease;
        node.0.store.heartbeat(&node.0.config.id, lease.as_millis() as i64).await?;
        node.0.lease.renewed(sent, sent_ms, lease);
        tracing::info!(node = %node.0.config.id, lease_ms = lease.as_millis() as u64, "joined the cluster");
        Ok(node)
    }

    async fn claim(&self, id: &str) -> Result<Claimed, StoreError> {
        let Inner { store, config, .. } = &*self.0;
        match store.claim_game(id, &config.id).await {
            Ok(rookery_store::Claim::Claimed { epoch, previous, now_ms }) => {
                let dead_owner_heartbeat = previous.and_then(|previous| {
                    let outage = previous.last_heartbeat_ms.map(|beat| now_ms - beat);
                    tracing::warn!(game = id, from = %previous.node, outage_ms = ?outage, epoch, "taken over from a node whose lease ran out");
                    previous.last_heartbeat_ms
                });
                Ok(Claimed::Here { claim: Claim::Epoch(epoch), dead_owner_heartbeat })
            }
            Ok(rookery_store::Claim::Owned { owner }) => Ok(Claimed::Elsewhere(owner)),
            Err(StoreError::Conflict(_) | StoreError::NotFound(_)) => Ok(Claimed::Over),
            Err(e) => Err(e),
        }
    }

    /// Whether `id` is still this node's under `claim`, by the store.
    async fn still_holds(&self, id: &str, claim: Claim) -> bool {
        let Claim::Epoch(epoch) = claim else { return true };
        let node = &self.0.config.id;
        match self.0.store.game_owner(id).await {
            Ok((owner, stored)) => owner.as_deref() == Some(node.as_str()) && stored == epoch,
            Err(StoreError::NotFound(_)) => false,
            Err(e) => {
                tracing::error!(game = id, error = %e, "cannot read a game's owner: its actor stops");
                false
            }
        }
    }

    /// Renews this node's lease until the server stops; after a lapse, tells the actors.
    async fn beat(self) {
        let Inner { store, config, lease } = &*self.0;
        let lease_ms = config.lease.as_millis() as i64;
        let mut every = tokio::time::interval(config.lease / 4);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            every.tick().await;
            let (sent, sent_ms) = (Instant::now(), now_ms());
            match store.heartbeat(&config.id, lease_ms).await {
                Ok(beat) if beat.lapsed => {
                    tracing::warn!(node = %config.id, "this node's lease had lapsed: the games it serves are checked");
                    lease.lapsed(sent, sent_ms, config.lease);
                }
                Ok(_) => lease.renewed(sent, sent_ms, config.lease),
                Err(e) => {
                    tracing::error!(node = %config.id, error = %e, "cannot renew this node's lease")
                }
            }
        }
    }
}

impl Ownership for Node {
    fn node(&self) -> Option<&NodeConfig> {
        Some(&self.0.config)
    }

    fn claim_game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Claimed, StoreError>> {
        self.claim(id).boxed()
    }

    fn claim_tournament<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Claimed, StoreError>> {
        async move {
            Ok(match self.0.store.claim_tournament(id, &self.0.config.id).await? {
                rookery_store::Claim::Claimed { epoch, previous, .. } => Claimed::Here {
                    claim: Claim::Epoch(epoch),
                    dead_owner_heartbeat: previous.and_then(|p| p.last_heartbeat_ms),
                },
                rookery_store::Claim::Owned { owner } => Claimed::Elsewhere(owner),
            })
        }
        .boxed()
    }

    fn writer(&self, claim: Claim) -> Writer {
        self.0.store.writer(claim.epoch())
    }

    fn holds<'a>(&'a self, id: &'a str, claim: Claim) -> BoxFuture<'a, bool> {
        self.still_holds(id, claim).boxed()
    }

    fn release_game<'a>(
        &'a self,
        id: &'a str,
        claim: Claim,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        async move {
            let Claim::Epoch(epoch) = claim else { return Ok(false) };
            self.0.store.release_game(id, &self.0.config.id, epoch).await
        }
        .boxed()
    }

    fn lease(&self) -> Option<watch::Receiver<LeaseState>> {
        Some(self.0.lease.subscribe())
    }

    fn heartbeats(&self) -> BoxFuture<'static, ()> {
        self.clone().beat().boxed()
    }

    fn leave(&self) -> BoxFuture<'_, ()> {
        async move {
            let id = &self.0.config.id;
            match self.0.store.leave_cluster(id).await {
                Ok(games) => tracing::info!(node = %id, games, "left the cluster"),
                Err(e) => {
                    tracing::warn!(node = %id, error = %e, "cannot leave the cluster; its lease will run out")
                }
            }
        }
        .boxed()
    }
}
