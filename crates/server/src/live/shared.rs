//! Live games shared with the other nodes of a cluster (issue 39): where a socket's game is
//! served ([`locate`]), and a game's actor as the relay reaches it for other nodes' sockets
//! (a [`LocalGame`]). On a single node every live game is served here.

use std::sync::Arc;
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::FutureExt;
use rookery_cluster::{Joined, LocalGame, RelayError};
use rookery_core::{ByColor, Color};

use super::{GameHandle, LiveGames, LocateError, Seat};
use crate::clock::now_ms;
use crate::protocol::{ClientMessage, GameId};

/// Where a socket's game is served.
pub(crate) enum Located {
    /// On this node.
    Here(GameHandle),
    /// On another node, through the relay.
    Elsewhere,
    /// Nowhere: the game is over (or there is no such game).
    Over,
}

/// Finds who serves the game `id` for a socket that reached this node: its actor here; else,
/// on a cluster, a live game no live node serves is taken over; one another node serves is
/// handed over to this node if no player is connected there (the balancer sends a game's
/// sockets here: its moves then need no relay), and relayed otherwise. While the owner has
/// died, or is stopped (its node answers no probe: [`rookery_cluster::Relay::answering`]),
/// but its lease still runs, waits for the lease to run out (a few seconds), and takes the
/// game over then.
///
/// # Errors
/// [`LocateError::Elsewhere`] on a node without a relay, or when the owner neither answers nor
/// lets its lease run out; the store failing.
pub(crate) async fn locate(live: &Arc<LiveGames>, id: &GameId) -> Result<Located, LocateError> {
    if let Some(handle) = live.get(id) {
        return Ok(Located::Here(handle));
    }
    let give_up_at = live
        .services
        .ownership
        .lease_length()
        .map_or(0, |lease| now_ms() + lease.as_millis() as u64 + 1_000);
    let relay = &live.services.relay;
    let mut asked = false;
    loop {
        let owner = match live.take_over(id).await {
            Ok(Some(handle)) => return Ok(Located::Here(handle)),
            Ok(None) => return Ok(Located::Over),
            Err(LocateError::Elsewhere(owner)) => owner,
            Err(e) => return Err(e),
        };
        // A stopped owner cannot be relayed to, nor asked for the game (issue 51).
        if !*relay.answering(&owner).borrow() && now_ms() < give_up_at {
            asked = false;
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        }
        // One hand-over asked for at most (two nodes asking at once must not bounce the
        // game), then one more look: granted, or given to another socket of this node meanwhile.
        if asked {
            return Ok(Located::Elsewhere);
        }
        asked = true;
        match relay.handoff(id).await {
            Ok(_) => continue,
            // Nobody to relay to: the socket is told where the game is.
            Err(RelayError::Alone) => return Err(LocateError::Elsewhere(owner)),
            Err(RelayError::NoOwner) if now_ms() < give_up_at => {
                asked = false;
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(RelayError::NoOwner) => return Err(LocateError::Elsewhere(owner)),
            Err(e @ RelayError::Failed(_)) => {
                tracing::debug!(game = %id, error = %e, "no answer to a hand-over: looking again");
            }
        }
    }
}

impl From<Seat> for rookery_cluster::Seat {
    fn from(seat: Seat) -> rookery_cluster::Seat {
        match seat {
            Seat::Player(color) => Some(color),
            Seat::Spectator => None,
        }
    }
}

impl From<Option<Color>> for Seat {
    fn from(seat: Option<Color>) -> Seat {
        seat.map_or(Seat::Spectator, Seat::Player)
    }
}

/// A game's actor as the relay reaches it for the sockets of other nodes.
impl LocalGame for GameHandle {
    fn id(&self) -> &GameId {
        &self.meta.id
    }

    fn join(&self, seat: rookery_cluster::Seat) -> BoxFuture<'_, Option<Joined>> {
        async move {
            let joined = GameHandle::join(self, seat.into()).await?;
            Some(Joined { hello: joined.hello.to_text(), updates: joined.updates })
        }
        .boxed()
    }

    fn leave(&self, seat: rookery_cluster::Seat) -> BoxFuture<'_, ()> {
        GameHandle::leave(self, seat.into()).boxed()
    }

    fn answer(
        &self,
        seat: rookery_cluster::Seat,
        message: ClientMessage,
        lag_ms: u64,
        received_ms: u64,
    ) -> BoxFuture<'_, Option<String>> {
        async move {
            let answer = GameHandle::answer(self, seat.into(), message, lag_ms, received_ms).await;
            answer.map(|m| m.to_text())
        }
        .boxed()
    }

    fn hand_off(&self, remote: ByColor<u32>) -> BoxFuture<'_, bool> {
        GameHandle::hand_off(self, remote).boxed()
    }

    fn closed(&self) -> BoxFuture<'_, ()> {
        GameHandle::closed(self).boxed()
    }
}
