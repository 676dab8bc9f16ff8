//! The owner's side of a relayed game: the requests of other nodes' sockets for a game this
//! node serves, answered through its [`LocalGame`] port until its actor ends.

use std::collections::HashMap;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{FutureExt, StreamExt};
use rookery_core::ByColor;
use rookery_protocol::ClientMessage;
use tokio::sync::broadcast;

use super::{cmd_subject, Nats, Reply, Request, ALIVE_EVERY, ALIVE_FOR};
use crate::{now_ms, LocalGame, Seat};

/// Answers requests for `game`, which this node owns, until its actor ends: subscribed (and
/// the NATS server told) before it returns.
pub(super) async fn serve(nats: Arc<Nats>, game: Arc<dyn LocalGame>) {
    let id = game.id().clone();
    let mut requests = match nats.client.subscribe(cmd_subject(&id)).await {
        Ok(requests) => requests,
        Err(e) => {
            tracing::error!(game = %id, error = %e, "cannot serve the game to other nodes");
            return;
        }
    };
    // Bounded: while NATS is down, games are still made and served (their sockets here).
    match tokio::time::timeout(Duration::from_millis(500), nats.client.flush()).await {
        Ok(Ok(())) => {}
        Ok(Err(_)) | Err(_) => {
            tracing::warn!(game = %id, "NATS is out of reach: the game is served to this node's sockets only until it returns");
        }
    }
    tokio::spawn(async move {
        let mut owner = Owner { nats: nats.clone(), game, remote: HashMap::new() };
        let mut sweep = tokio::time::interval(ALIVE_EVERY);
        loop {
            tokio::select! {
                request = requests.next() => {
                    let Some(request) = request else { break };
                    let Some(reply_to) = request.reply else { continue };
                    let answer = match serde_json::from_slice::<Request>(&request.payload) {
                        Ok(r) => owner.answer(r).await,
                        Err(e) => {
                            tracing::error!(game = %id, error = %e, "a relayed request does not read");
                            Reply::default()
                        }
                    };
                    let payload = serde_json::to_vec(&answer).unwrap_or_default();
                    let _ = nats.client.publish(reply_to, payload.into()).await;
                }
                () = owner.game.closed() => break,
                _ = sweep.tick() => owner.sweep().await,
            }
        }
        // The actor ended (its sockets' forwarders end with it, telling their sockets).
        // Requests already here are answered "not here": a node that asked for the game
        // together with the node it was handed to looks again at once, instead of waiting
        // out its request.
        let _ = requests.unsubscribe().await;
        while let Some(Some(request)) = requests.next().now_or_never() {
            if let Some(reply_to) = request.reply {
                let payload = serde_json::to_vec(&Reply::default()).unwrap_or_default();
                let _ = nats.client.publish(reply_to, payload.into()).await;
            }
        }
    });
}

/// The owner's side: the relayed sockets joined to its game.
struct Owner {
    nats: Arc<Nats>,
    game: Arc<dyn LocalGame>,
    /// By inbox: the socket's seat, when it was last heard of (Unix ms), and its forwarder.
    remote: HashMap<String, RemoteSocket>,
}

struct RemoteSocket {
    seat: Seat,
    alive_ms: u64,
    forwarder: tokio::task::JoinHandle<()>,
}

impl Owner {
    async fn answer(&mut self, request: Request) -> Reply {
        match request {
            Request::Handoff => {
                let mut remote = ByColor { white: 0, black: 0 };
                for socket in self.remote.values() {
                    if let Some(c) = socket.seat {
                        remote[c] += 1;
                    }
                }
                let handed = self.game.hand_off(remote).await;
                if handed {
                    self.nats.counts.handed_over.fetch_add(1, Ordering::Relaxed);
                }
                Reply { ok: handed, ..Reply::default() }
            }
            Request::Join { seat, inbox } => {
                let seat = Seat::from(seat);
                let Some(joined) = self.game.join(seat).await else { return Reply::default() };
                let forwarder =
                    tokio::spawn(forward(self.nats.client.clone(), inbox.clone(), joined.updates));
                if let Some(old) =
                    self.remote.insert(inbox, RemoteSocket { seat, alive_ms: now_ms(), forwarder })
                {
                    old.forwarder.abort();
                    self.game.leave(old.seat).await;
                }
                let node = Some(self.nats.node.clone());
                Reply { ok: true, text: Some(joined.hello), node }
            }
            Request::Alive { inbox } => match self.remote.get_mut(&inbox) {
                Some(socket) => {
                    socket.alive_ms = now_ms();
                    Reply { ok: true, ..Reply::default() }
                }
                None => Reply::default(),
            },
            Request::Leave { inbox } => {
                if let Some(socket) = self.remote.remove(&inbox) {
                    socket.forwarder.abort();
                    self.game.leave(socket.seat).await;
                }
                Reply { ok: true, ..Reply::default() }
            }
            Request::Send { seat, message, lag_ms, received_ms } => {
                let message = match ClientMessage::parse(&message.to_string()) {
                    Ok(message) => message,
                    Err(e) => {
                        tracing::error!(game = %self.game.id(), error = ?e, "a relayed message does not read");
                        return Reply::default();
                    }
                };
                if matches!(message, ClientMessage::Act { .. }) {
                    self.nats.counts.relayed_actions.fetch_add(1, Ordering::Relaxed);
                }
                let text = self.game.answer(seat.into(), message, lag_ms, received_ms).await;
                Reply { ok: true, text, ..Reply::default() }
            }
        }
    }

    /// Lets go of the relayed sockets not heard of for [`ALIVE_FOR`]: their node died.
    async fn sweep(&mut self) {
        let now = now_ms();
        let gone: Vec<String> = self
            .remote
            .iter()
            .filter(|(_, s)| now.saturating_sub(s.alive_ms) > ALIVE_FOR.as_millis() as u64)
            .map(|(inbox, _)| inbox.clone())
            .collect();
        for inbox in gone {
            if let Some(socket) = self.remote.remove(&inbox) {
                socket.forwarder.abort();
                self.game.leave(socket.seat).await;
            }
        }
    }
}

/// Forwards what a game's actor broadcasts to one relayed socket's inbox, numbered.
async fn forward(
    client: async_nats::Client,
    inbox: String,
    mut updates: broadcast::Receiver<Arc<str>>,
) {
    let mut number = 0u64;
    loop {
        match updates.recv().await {
            Ok(text) => {
                number += 1;
                let payload = format!("{number}\n{text}");
                if client.publish(inbox.clone(), payload.into()).await.is_err() {
                    return;
                }
            }
            // Messages the relay was too slow for: the numbers say so, and the socket
            // catches up from the full state.
            Err(broadcast::error::RecvError::Lagged(missed)) => number += missed,
            Err(broadcast::error::RecvError::Closed) => {
                let _ = client.publish(inbox.clone(), format!("{}\n", number + 1).into()).await;
                return;
            }
        }
    }
}
