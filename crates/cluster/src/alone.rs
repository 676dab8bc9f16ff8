//! A node alone: it owns everything, and has nobody to relay to. A single node is one
//! (`rookery serve` without `--node-id`), and so is the relay of a cluster's node without NATS.

use std::sync::Arc;

use futures_util::future::{self, BoxFuture};
use futures_util::stream::BoxStream;
use futures_util::FutureExt;
use rookery_protocol::GameId;
use rookery_store::{Store, StoreError, Writer};
use tokio::sync::watch;

use crate::nats::RemoteGame;
use crate::{
    Claim, Claimed, LeaseState, LocalGame, NodeConfig, Ownership, Relay, RelayError, Seat,
};

/// The [`Ownership`] of a single node: every game and tournament is its own, and its writes
/// are not fenced.
pub(crate) struct Everything(pub(crate) Store);

impl Ownership for Everything {
    fn node(&self) -> Option<&NodeConfig> {
        None
    }

    fn claim_game<'a>(&'a self, _: &'a str) -> BoxFuture<'a, Result<Claimed, StoreError>> {
        future::ready(Ok(Claimed::Here { claim: Claim::Single, dead_owner_heartbeat: None }))
            .boxed()
    }

    fn claim_tournament<'a>(&'a self, id: &'a str) -> BoxFuture<'a, Result<Claimed, StoreError>> {
        self.claim_game(id)
    }

    fn writer(&self, _: Claim) -> Writer {
        self.0.writer(None)
    }

    fn holds<'a>(&'a self, _: &'a str, _: Claim) -> BoxFuture<'a, bool> {
        future::ready(true).boxed()
    }

    fn release_game<'a>(&'a self, _: &'a str, _: Claim) -> BoxFuture<'a, Result<bool, StoreError>> {
        future::ready(Ok(false)).boxed()
    }

    fn lease(&self) -> Option<watch::Receiver<LeaseState>> {
        None
    }

    fn heartbeats(&self) -> BoxFuture<'static, ()> {
        future::ready(()).boxed()
    }

    fn leave(&self) -> BoxFuture<'_, ()> {
        future::ready(()).boxed()
    }
}

/// The [`Relay`] of a node with nobody to relay to: every request is [`RelayError::Alone`].
pub(crate) struct Nobody;

impl Relay for Nobody {
    fn serve(&self, _: Arc<dyn LocalGame>) -> BoxFuture<'_, ()> {
        future::ready(()).boxed()
    }

    fn handoff<'a>(&'a self, _: &'a GameId) -> BoxFuture<'a, Result<bool, RelayError>> {
        future::ready(Err(RelayError::Alone)).boxed()
    }

    fn join<'a>(
        &'a self,
        _: &'a GameId,
        _: Seat,
    ) -> BoxFuture<'a, Result<(String, RemoteGame), RelayError>> {
        future::ready(Err(RelayError::Alone)).boxed()
    }

    fn answering(&self, _: &str) -> watch::Receiver<bool> {
        watch::channel(true).1
    }

    fn count_local_action(&self) {}

    fn tell_tournament<'a>(&'a self, _: &'a str, _: Vec<u8>) -> BoxFuture<'a, ()> {
        future::ready(()).boxed()
    }

    fn tournament_news<'a>(
        &'a self,
        _: &'a str,
    ) -> BoxFuture<'a, Option<BoxStream<'static, Vec<u8>>>> {
        future::ready(None).boxed()
    }

    fn lobby_link(&self) -> Option<crate::lobby::Link> {
        None
    }

    fn counts(&self) -> Option<crate::RelayCounts> {
        None
    }
}
