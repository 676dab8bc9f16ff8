//! The other nodes, as this node speaks to them: the [`Relay`] face of the cluster, and the
//! [`LocalGame`] port through which it reaches a game this node serves.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use rookery_core::{ByColor, Color};
use rookery_protocol::{ClientMessage, GameId};
use tokio::sync::{broadcast, watch};

use crate::nats::RemoteGame;

/// Why a relayed request got no answer.
#[derive(Debug, thiserror::Error)]
pub enum RelayError {
    /// No node serves the game: its owner died or stopped serving it.
    #[error("no node serves the game")]
    NoOwner,
    /// This node has no relay (a single node, or one without NATS): nobody to ask.
    #[error("no relay to the other nodes")]
    Alone,
    /// The owner did not answer in time, or NATS is out of reach.
    #[error("relay: {0}")]
    Failed(String),
}

/// A seat at a game: a player's colour, or `None` for a spectator.
pub type Seat = Option<Color>;

/// A game this node serves, as the relay reaches it for the sockets of other nodes (the
/// server implements it on its stub of the game's actor). What the game tells its sockets
/// crosses as the protocol's own texts (docs/protocol.md): the relay never reads them.
pub trait LocalGame: Send + Sync + 'static {
    /// The game's id.
    fn id(&self) -> &GameId;

    /// Joins the game as `seat`: its `hello`, and what the game tells its sockets from now
    /// on; `None` once its actor has ended.
    fn join(&self, seat: Seat) -> BoxFuture<'_, Option<Joined>>;

    /// A socket as `seat` left.
    fn leave(&self, seat: Seat) -> BoxFuture<'_, ()>;

    /// The client `message` of a socket as `seat`, received at `received_ms` over a link of
    /// one-way lag `lag_ms`: the text the socket is sent back, if any (a `rejected`, a
    /// `state`, a `pong`).
    fn answer(
        &self,
        seat: Seat,
        message: ClientMessage,
        lag_ms: u64,
        received_ms: u64,
    ) -> BoxFuture<'_, Option<String>>;

    /// Asks the game's actor to hand the game over to another node, whose players' sockets
    /// relayed here are counted in `remote`: whether it did (its clocks stored, its claim
    /// released, its actor ended).
    fn hand_off(&self, remote: ByColor<u32>) -> BoxFuture<'_, bool>;

    /// Resolves once the game's actor has ended.
    fn closed(&self) -> BoxFuture<'_, ()>;
}

/// A socket's view of a game when it joins ([`LocalGame::join`]).
pub struct Joined {
    /// The `hello` message.
    pub hello: String,
    /// Everything the game tells its sockets from now on.
    pub updates: broadcast::Receiver<Arc<str>>,
}

/// What the relay of one node saved or carried (`GET /health`, `relay`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct RelayCounts {
    /// Player actions from sockets on this node, to games it serves.
    pub local_actions: u64,
    /// Player actions relayed to this node from sockets on others.
    pub relayed_actions: u64,
    /// Games this node handed over to the node of their sockets.
    pub handed_over: u64,
}

/// The other nodes: a client message sent to its game's owner, a socket relayed to a game
/// another node serves, a game handed over, news fanned out. On a single node (or a cluster
/// without NATS) there is nobody to relay to: every request is [`RelayError::Alone`].
pub trait Relay: Send + Sync {
    /// Answers the other nodes' requests for `game`, which this node owns, until its actor
    /// ends: subscribed (and the NATS server told) before this resolves.
    fn serve(&self, game: Arc<dyn LocalGame>) -> BoxFuture<'_, ()>;

    /// Asks the owner of the game `id` to hand it over to this node: `true` once it has
    /// stored the clocks and released the game (claim it then), `false` if it keeps it.
    ///
    /// # Errors
    /// [`RelayError::NoOwner`] when no node serves it; [`RelayError::Alone`];
    /// [`RelayError::Failed`].
    fn handoff<'a>(&'a self, id: &'a GameId) -> BoxFuture<'a, Result<bool, RelayError>>;

    /// Joins the game `id`, served by another node, as `seat`: its `hello` and the socket's
    /// view of it.
    ///
    /// # Errors
    /// [`RelayError::NoOwner`] when no node serves it; [`RelayError::Alone`];
    /// [`RelayError::Failed`].
    fn join<'a>(
        &'a self,
        id: &'a GameId,
        seat: Seat,
    ) -> BoxFuture<'a, Result<(String, RemoteGame), RelayError>>;

    /// Whether the node `node` answers: `false` once it has answered no probe for a while
    /// (stopped), `true` again when it answers. Always `true` with nobody to probe.
    fn answering(&self, node: &str) -> watch::Receiver<bool>;

    /// A player's action from a socket of this node, played on its game here: counted for
    /// `GET /health` (the moves that needed no relay).
    fn count_local_action(&self);

    /// Publishes `news` of a tournament's game for the node that runs the tournament (at most
    /// once: a result lost is read from the store when the tournament is next rebuilt).
    fn tell_tournament<'a>(&'a self, tournament: &'a str, news: Vec<u8>) -> BoxFuture<'a, ()>;

    /// The news of a tournament's games published by other nodes, for the node that runs
    /// it; `None` with nobody to hear from.
    fn tournament_news<'a>(
        &'a self,
        tournament: &'a str,
    ) -> BoxFuture<'a, Option<BoxStream<'static, Vec<u8>>>>;

    /// The link to the other nodes' lobbies (see [`crate::lobby`]); `None` with nobody to
    /// share the lobby with.
    fn lobby_link(&self) -> Option<crate::lobby::Link>;

    /// What the relay saved or carried, for `GET /health`; `None` with no relay.
    fn counts(&self) -> Option<RelayCounts>;
}
