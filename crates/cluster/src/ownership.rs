//! Who serves a game or a tournament: the [`Ownership`] face of the cluster.

use std::time::Duration;

use futures_util::future::BoxFuture;
use rookery_store::{StoreError, Writer};
use tokio::sync::watch;

use crate::{LeaseState, NodeConfig};

/// What this node holds of a game or a tournament it serves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Claim {
    /// A single node owns everything: nobody else can write, and its writes are not fenced.
    Single,
    /// This node's claim on a node of a cluster: the epoch it set, which fences every write
    /// (rookery-store, `claim_game`).
    Epoch(i64),
}

impl Claim {
    /// The epoch of the claim; `None` on a single node.
    #[must_use]
    pub fn epoch(self) -> Option<i64> {
        match self {
            Claim::Single => None,
            Claim::Epoch(epoch) => Some(epoch),
        }
    }
}

/// Who serves a stored live game (or a tournament), as this node's claim on it found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claimed {
    /// This node, under `claim`.
    Here {
        /// This node's claim.
        claim: Claim,
        /// When taken from a node whose lease ran out: that node's last heartbeat (the
        /// database's clock, Unix ms), up to which the game was served.
        dead_owner_heartbeat: Option<i64>,
    },
    /// Another node, whose lease runs: its id.
    Elsewhere(String),
    /// Nobody: the game is over (or gone).
    Over,
}

/// Who owns what: this node's lease, its claims on games and tournaments, and the fenced
/// writer of each claim. On a single node everything is its own; on a node of a cluster the
/// database decides (ARCHITECTURE.md, "Growing past one machine").
pub trait Ownership: Send + Sync {
    /// This node's place in the cluster; `None` on a single node.
    fn node(&self) -> Option<&NodeConfig>;

    /// Claims the stored live game `id` for this node: granted if nobody serves it (it is
    /// new, its owner stopped, or its owner's lease ran out), or it is this node's already.
    /// A game that is not live is [`Claimed::Over`].
    ///
    /// # Errors
    /// The store failing.
    fn claim_game<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Claimed, StoreError>>;

    /// Claims the tournament `id` for this node, as [`Ownership::claim_game`] claims a game:
    /// one node runs a tournament at a time (its pairings, its clock). Never
    /// [`Claimed::Over`].
    ///
    /// # Errors
    /// The store failing, and its errors for a tournament that is unknown or cancelled.
    fn claim_tournament<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Claimed, StoreError>>;

    /// The writer of every write made under `claim` (fenced by its epoch on a cluster).
    fn writer(&self, claim: Claim) -> Writer;

    /// Whether this node still owns the game `id` under `claim`, by the store: asked after
    /// its lease lapsed, when other nodes may have claimed it meanwhile. A store that cannot
    /// say counts as no: the game is never served unchecked.
    fn holds<'a>(&'a self, id: &'a str, claim: Claim) -> BoxFuture<'a, bool>;

    /// Gives up the claim on the game `id` (a game handed over to another node): whether it
    /// still held. A single node gives up nothing.
    ///
    /// # Errors
    /// The store failing.
    fn release_game<'a>(
        &'a self,
        id: &'a str,
        claim: Claim,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;

    /// This node's lease as its game actors follow it: `None` on a single node, whose games
    /// are always its own.
    fn lease(&self) -> Option<watch::Receiver<LeaseState>>;

    /// How long the lease of another node may still run: how long to wait for a stopped
    /// owner's games; `None` on a single node.
    fn lease_length(&self) -> Option<Duration> {
        self.node().map(|node| node.lease)
    }

    /// Renews this node's lease until the server stops; after a lapse, tells the actors (see
    /// [`LeaseState`]). Resolves at once on a single node.
    fn heartbeats(&self) -> BoxFuture<'static, ()>;

    /// Takes this node out of the cluster at a clean shutdown, once its games' clocks are
    /// stored: its games and tournaments are the other nodes' to claim at once.
    fn leave(&self) -> BoxFuture<'_, ()>;
}
