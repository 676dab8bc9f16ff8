//! What the tournament host needs of the server that runs it, as traits the server
//! implements: its games ([`GameHost`]), its players' lobby ([`Lobby`]) and, on a cluster,
//! its claim on a tournament ([`Claims`]). Nothing else of the server is reached; results
//! come back as events (`Tournaments::game_ended`).

use std::future::Future;

use rookery_core::ByColor;
use rookery_protocol::{GameAction, GameId, NewLiveGame, Refusal};
use rookery_store::Writer;

use crate::handle::TournamentHandle;
use crate::message::GameNotice;
use crate::refusal::TournamentError;

/// What a live game answered an action of the arbiter's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Acted {
    /// Done: stored and told like any action.
    Done,
    /// Refused, with the game's reason (berserk after one's first move …).
    Refused(Refusal),
    /// The game is not live here (it is over).
    NotLive,
}

/// The live games, as a tournament uses them.
pub trait GameHost: Send + Sync + 'static {
    /// Whether the game's actor runs here.
    fn is_live(&self, game: &GameId) -> bool;

    /// Creates a game (the same call as every game's) unless it exists; whether it is live
    /// here afterwards (`false`: it existed and ended, or is being resumed elsewhere).
    fn create(
        &self,
        game: NewLiveGame,
    ) -> impl Future<Output = Result<bool, TournamentError>> + Send;

    /// An arbiter's or an arena player's action on a live game: time added, a result
    /// declared, berserk.
    fn act(&self, game: &GameId, action: GameAction) -> impl Future<Output = Acted> + Send;

    /// The time each side has left in a live game (`None`: not live here).
    fn clocks(&self, game: &GameId) -> impl Future<Output = Option<ByColor<Option<u64>>>> + Send;

    /// Stops a live game's actor and forgets it (an unstarted game about to be deleted).
    fn stop(&self, game: &GameId) -> impl Future<Output = ()> + Send;

    /// On a cluster, passes the news of the tournament's games that other nodes serve to its
    /// actor (`handle`) until the actor ends; nothing on a single node.
    fn follow_elsewhere(
        &self,
        tournament: &str,
        handle: TournamentHandle,
    ) -> impl Future<Output = ()> + Send;
}

/// The players' lobby sockets.
pub trait Lobby: Send + Sync + 'static {
    /// Tells the player `name` (their lobby sockets) of a new game of theirs.
    fn tell(&self, name: &str, notice: &GameNotice);
}

/// Who runs a tournament, as this node's claim on it found.
#[derive(Debug)]
pub enum TournamentClaim {
    /// This node: the writer of its log, fenced by the claim on a cluster (issue 39).
    Here(Writer),
    /// Another node, whose lease runs: its id.
    Elsewhere(String),
    /// Nobody: the tournament is over (or gone).
    Over,
}

/// Who runs what: one node runs a tournament at a time.
pub trait Claims: Send + Sync + 'static {
    /// Claims the tournament `id` for this node (always granted on a single node).
    fn claim_tournament(
        &self,
        id: &str,
    ) -> impl Future<Output = Result<TournamentClaim, TournamentError>> + Send;
}

/// Everything the host needs: the server's one value implementing the three ports.
pub trait Host: GameHost + Lobby + Claims + Clone {}

impl<T: GameHost + Lobby + Claims + Clone> Host for T {}
