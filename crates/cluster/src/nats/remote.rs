//! The relaying side: a socket of this node following and playing a game another node serves.

use std::sync::Arc;

use futures_util::StreamExt;
use rookery_protocol::{ClientMessage, GameId};
use tokio::sync::watch;

use super::{Nats, Reply, Request};
use crate::{RelayError, Seat};

/// A socket's view of a game another node serves ([`crate::Relay::join`]).
pub struct RemoteGame {
    nats: Arc<Nats>,
    id: GameId,
    seat: Seat,
    inbox: String,
    events: async_nats::Subscriber,
    /// The number of the next message expected.
    next: u64,
    /// Whether the owner's node answers (`None` from an owner of an earlier version).
    owner: Option<watch::Receiver<bool>>,
}

/// The next thing for a relayed socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RemoteUpdate {
    /// A message for the client.
    Text(String),
    /// Messages were lost: send the full state, then go on.
    Gap,
    /// The game's actor ended, or the owner is gone or no longer answers.
    Ended,
}

/// Joins the game `id`, served by another node, as `seat`.
pub(super) async fn join(
    nats: Arc<Nats>,
    id: &GameId,
    seat: Seat,
) -> Result<(String, RemoteGame), RelayError> {
    let inbox = nats.client.new_inbox();
    // Subscribed before joining: nothing the owner forwards after the `hello` is missed.
    let events = nats
        .client
        .subscribe(inbox.clone())
        .await
        .map_err(|e| RelayError::Failed(e.to_string()))?;
    let reply =
        nats.request(id, &Request::Join { seat: seat.into(), inbox: inbox.clone() }).await?;
    let hello = match (reply.ok, reply.text) {
        (true, Some(hello)) => hello,
        _ => return Err(RelayError::NoOwner),
    };
    let owner = reply.node.map(|node| nats.answering(&node));
    let game = RemoteGame { nats, id: id.clone(), seat, inbox, events, next: 1, owner };
    Ok((hello, game))
}

/// Resolves once the owner's node no longer answers (never without a probe of it).
async fn silenced(owner: &mut Option<watch::Receiver<bool>>) {
    if let Some(answering) = owner {
        if answering.wait_for(|a| !a).await.is_ok() {
            return;
        }
    }
    std::future::pending().await
}

impl RemoteGame {
    /// The next message of the game. Cancel safe.
    pub async fn next(&mut self) -> RemoteUpdate {
        loop {
            let msg = tokio::select! {
                msg = self.events.next() => msg,
                () = silenced(&mut self.owner) => return RemoteUpdate::Ended,
            };
            let Some(msg) = msg else { return RemoteUpdate::Ended };
            let text = String::from_utf8_lossy(&msg.payload);
            let Some((number, body)) = text.split_once('\n') else { continue };
            let Ok(number) = number.parse::<u64>() else { continue };
            if number < self.next {
                continue;
            }
            let gap = number > self.next;
            self.next = number + 1;
            return match (gap, body.is_empty()) {
                (_, true) => RemoteUpdate::Ended,
                (true, false) => RemoteUpdate::Gap,
                (false, false) => RemoteUpdate::Text(body.to_owned()),
            };
        }
    }

    /// Sends a client message to the owner; what to send the client back, if anything.
    ///
    /// # Errors
    /// [`RelayError::NoOwner`] once the owner is gone or no longer answers;
    /// [`RelayError::Failed`].
    pub async fn send(
        &self,
        message: &ClientMessage,
        lag_ms: u64,
        received_ms: u64,
    ) -> Result<Option<String>, RelayError> {
        let request = Request::Send {
            seat: self.seat.into(),
            message: message.to_json(),
            lag_ms,
            received_ms,
        };
        let reply = self.ask(&request).await?;
        if !reply.ok {
            return Err(RelayError::NoOwner);
        }
        Ok(reply.text)
    }

    /// Asks the owner, or gives up with [`RelayError::NoOwner`] as soon as its node is found
    /// to answer no probe: a stopped owner's requests would wait out NATS's request timeout,
    /// and the socket waiting on one heard nothing else meanwhile. Chromium was told of a
    /// stopped owner after 3 s, past its closing handshake (issue 51).
    async fn ask(&self, request: &Request) -> Result<Reply, RelayError> {
        let mut owner = self.owner.clone();
        tokio::select! {
            reply = self.nats.request(&self.id, request) => reply,
            () = silenced(&mut owner) => Err(RelayError::NoOwner),
        }
    }

    /// Tells the owner this socket is still there.
    ///
    /// # Errors
    /// [`RelayError::NoOwner`] once the owner has let the socket go or is gone;
    /// [`RelayError::Failed`].
    pub async fn alive(&self) -> Result<(), RelayError> {
        let reply = self.ask(&Request::Alive { inbox: self.inbox.clone() }).await?;
        if reply.ok {
            Ok(())
        } else {
            Err(RelayError::NoOwner)
        }
    }

    /// The socket leaves.
    pub async fn leave(self) {
        let _ = self.ask(&Request::Leave { inbox: self.inbox.clone() }).await;
    }
}
