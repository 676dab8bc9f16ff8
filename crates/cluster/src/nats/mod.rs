//! Live games across the nodes of a cluster, over NATS (issue 39): a player's socket on one
//! node plays a game whose actor runs on another.
//!
//! The owner of a game (the node whose actor holds it; see [`crate::Ownership`]) answers
//! requests on `rookery.game.<id>.cmd` for as long as its actor runs ([`owner`]). A node
//! holding a socket for a game it does not own first asks the owner to hand the game over
//! (the owner agrees when no player of the game is connected to it: the balancer hashes a
//! game's sockets to one node, so the game moves to where its players are, and their moves
//! need no relay); if the owner keeps it, the socket is relayed ([`remote`]):
//!
//! - `join` makes the owner join the game on the socket's behalf: it answers the `hello`,
//!   and forwards every message its actor broadcasts to the socket's own inbox, numbered
//!   1, 2, 3 … (a gap, a message NATS lost, makes the relaying node ask for the full
//!   `state`; a message with no text after its number says the actor ended);
//! - `send` carries a client message (docs/protocol.md) with the socket's seat and lag, and
//!   answers what a local socket would be sent (a `rejected`, a `state`, or nothing);
//! - `alive`, every few seconds, keeps the joined socket present (the owner lets a socket go
//!   after [`ALIVE_FOR`] without one: its node died) and tells the relaying node the owner
//!   still serves the game; `leave` ends it.
//!
//! The owner's answers are the protocol's own texts: nothing is read twice. A request that no
//! node answers (`no responders`, in a fraction of a millisecond) means the owner died or
//! stopped serving: the socket closes, the client reconnects, and the node it reaches takes
//! the game over once the owner's lease has run out.
//!
//! An owner that is stopped (SIGSTOP, a stalled VM) rather than dead still has its
//! subscriptions, so requests to it wait out their timeout instead. Each node therefore asks
//! the nodes it relays to whether they answer (`rookery.node.<id>.alive`, every
//! [`PROBE_EVERY`]): one silent for [`SILENT_FOR`] is taken for stopped, its relayed sockets
//! are closed (1013, connect again) within about 1.5 s, and a socket that connects again waits
//! for its lease to run out to take the game over, rather than relaying to it (issue 51).

mod owner;
mod remote;

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::future::BoxFuture;
use futures_util::stream::BoxStream;
use futures_util::{FutureExt, StreamExt};
use rookery_core::Color;
use rookery_protocol::GameId;
use serde::{Deserialize, Serialize};
use tokio::sync::watch;

pub use remote::{RemoteGame, RemoteUpdate};

use crate::{now_ms, LocalGame, Relay, RelayCounts, RelayError, Seat};

/// How long an owner waits for a relayed socket's `alive` before it lets the socket go.
const ALIVE_FOR: Duration = Duration::from_secs(20);
/// How often a relayed socket says it is alive (well inside [`ALIVE_FOR`]).
pub const ALIVE_EVERY: Duration = Duration::from_secs(2);
/// How long a request waits for the owner's answer.
const REQUEST_TIMEOUT: Duration = Duration::from_secs(3);
/// How long a request for a hand-over waits (the owner stores one action and releases).
const HANDOFF_TIMEOUT: Duration = Duration::from_millis(500);
/// How often a node asks each node it relays sockets to whether it answers.
const PROBE_EVERY: Duration = Duration::from_millis(250);
/// A node that has answered no probe for this long is taken for stopped (issue 51): long
/// enough that a busy node is not, short enough that its relayed players hear within 2 s.
const SILENT_FOR: Duration = Duration::from_millis(1_200);
/// How long a node goes on probing a node no relayed socket follows any more: a socket that
/// connects again soon after its owner fell silent finds it known.
const PROBE_LINGER: Duration = Duration::from_secs(10);

/// Why the relay could not be reached at start.
#[derive(Debug, thiserror::Error)]
#[error("cannot connect to NATS at {url}: {reason}")]
pub struct ConnectError {
    /// The server's URL.
    pub url: String,
    /// Why.
    pub reason: String,
}

/// This node's connection to NATS: the [`Relay`] of a node with other nodes to talk to.
pub(crate) struct Nats {
    client: async_nats::Client,
    /// This node's id.
    node: String,
    /// The nodes this node relays to, by id: whether each answers probes (see
    /// [`Relay::answering`]).
    probed: Mutex<HashMap<String, watch::Sender<bool>>>,
    /// What the relay saved or carried, for `GET /health`.
    counts: Counts,
}

/// Counters of one node's games across the cluster (`GET /health`, `relay`).
#[derive(Default)]
struct Counts {
    /// Player actions from sockets on this node, to games it serves.
    local_actions: AtomicU64,
    /// Player actions relayed to this node from sockets on others.
    relayed_actions: AtomicU64,
    /// Games this node handed over to the node of their sockets.
    handed_over: AtomicU64,
}

/// A request to a game's owner.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Request {
    Handoff,
    Join { seat: WireSeat, inbox: String },
    Alive { inbox: String },
    Leave { inbox: String },
    Send { seat: WireSeat, message: serde_json::Value, lag_ms: u64, received_ms: u64 },
}

/// A seat, as it crosses the wire.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum WireSeat {
    White,
    Black,
    Spectator,
}

impl From<Seat> for WireSeat {
    fn from(seat: Seat) -> WireSeat {
        match seat {
            Some(Color::White) => WireSeat::White,
            Some(Color::Black) => WireSeat::Black,
            None => WireSeat::Spectator,
        }
    }
}

impl From<WireSeat> for Seat {
    fn from(seat: WireSeat) -> Seat {
        match seat {
            WireSeat::White => Some(Color::White),
            WireSeat::Black => Some(Color::Black),
            WireSeat::Spectator => None,
        }
    }
}

/// The owner's answer: whether it did, the text for the socket, if any, and (to a `join`) the
/// owner's node id, which the relaying node probes.
#[derive(Debug, Default, Serialize, Deserialize)]
struct Reply {
    ok: bool,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    text: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    node: Option<String>,
}

fn cmd_subject(id: &GameId) -> String {
    format!("rookery.game.{id}.cmd")
}

/// Where a node answers probes: while it runs, at once.
fn alive_subject(node: &str) -> String {
    format!("rookery.node.{node}.alive")
}

/// News of a tournament's games (a first move, an end) for the node that runs the
/// tournament, from the nodes that serve its games.
fn tournament_subject(tournament: &str) -> String {
    format!("rookery.tournament.{tournament}.games")
}

impl Nats {
    /// Connects to the NATS server at `url`, as node `node`.
    ///
    /// # Errors
    /// [`ConnectError`] naming the server.
    pub(crate) async fn connect(url: &str, node: &str) -> Result<Arc<Nats>, ConnectError> {
        let error = |reason: String| ConnectError { url: url.to_owned(), reason };
        let options = async_nats::ConnectOptions::new()
            .name(format!("rookery {node}"))
            .request_timeout(Some(REQUEST_TIMEOUT))
            // A NATS server that restarts is waited for, forever: the games whose sockets sit
            // on their owner go on meanwhile, and relayed ones resume when it returns.
            .max_reconnects(None)
            .retry_on_initial_connect();
        let client = tokio::time::timeout(Duration::from_secs(5), async {
            let client = options.connect(url).await.map_err(|e| error(e.to_string()))?;
            // `retry_on_initial_connect` returns at once: wait to be connected, so that a
            // wrong address is said at start, not found later.
            while client.connection_state() != async_nats::connection::State::Connected {
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            Ok::<_, ConnectError>(client)
        })
        .await
        .map_err(|_| error("no answer within 5 s".to_owned()))??;
        let mut probes =
            client.subscribe(alive_subject(node)).await.map_err(|e| error(e.to_string()))?;
        let answer = client.clone();
        tokio::spawn(async move {
            while let Some(probe) = probes.next().await {
                if let Some(reply_to) = probe.reply {
                    let _ = answer.publish(reply_to, Vec::new().into()).await;
                }
            }
        });
        let probed = Mutex::new(HashMap::new());
        tracing::info!(node, nats = url, "relaying games through NATS");
        Ok(Arc::new(Nats { client, node: node.to_owned(), probed, counts: Counts::default() }))
    }

    /// Whether the node `node` answers: `false` once it has answered no probe for
    /// [`SILENT_FOR`], `true` again when it answers. Probed from the first call until no
    /// receiver has been held for [`PROBE_LINGER`].
    fn answering(self: &Arc<Self>, node: &str) -> watch::Receiver<bool> {
        let mut probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(answering) = probed.get(node) {
            return answering.subscribe();
        }
        let (answering, rx) = watch::channel(true);
        probed.insert(node.to_owned(), answering.clone());
        tokio::spawn(self.clone().probe(node.to_owned(), answering));
        rx
    }

    /// Probes `node` every [`PROBE_EVERY`], each probe waiting up to [`SILENT_FOR`], and says
    /// on `answering` whether one was answered within the last [`SILENT_FOR`].
    async fn probe(self: Arc<Self>, node: String, answering: watch::Sender<bool>) {
        let heard = Arc::new(AtomicU64::new(now_ms()));
        let mut every = tokio::time::interval(PROBE_EVERY);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut unwatched_since = None;
        let mut ticked = now_ms();
        loop {
            every.tick().await;
            let now = now_ms();
            // This node was stopped itself (or starved): the probes it could not send or hear
            // meanwhile say nothing of the other node, which is given its time again.
            if now.saturating_sub(ticked) > 2 * PROBE_EVERY.as_millis() as u64 {
                heard.fetch_max(now, Ordering::Relaxed);
            }
            ticked = now;
            if answering.receiver_count() == 0 {
                let since = *unwatched_since.get_or_insert(now);
                if now >= since + PROBE_LINGER.as_millis() as u64 {
                    let mut probed = self.probed.lock().unwrap_or_else(|e| e.into_inner());
                    // Taken again under the lock: a receiver handed out meanwhile keeps it.
                    if answering.receiver_count() == 0 {
                        if probed.get(&node).is_some_and(|a| a.same_channel(&answering)) {
                            probed.remove(&node);
                        }
                        return;
                    }
                }
            } else {
                unwatched_since = None;
            }
            let (client, subject, heard_now) =
                (self.client.clone(), alive_subject(&node), heard.clone());
            tokio::spawn(async move {
                let asked = client.request(subject, Vec::new().into());
                if let Ok(Ok(_)) = tokio::time::timeout(SILENT_FOR, asked).await {
                    heard_now.fetch_max(now_ms(), Ordering::Relaxed);
                }
            });
            let silent = now_ms().saturating_sub(heard.load(Ordering::Relaxed))
                > SILENT_FOR.as_millis() as u64;
            answering.send_if_modified(|a| {
                let changed = *a == silent;
                match (changed, silent) {
                    (true, true) => {
                        tracing::warn!(node = %node, "a node relayed to answers no probe: its sockets here are closed")
                    }
                    (true, false) => tracing::info!(node = %node, "a node relayed to answers again"),
                    _ => {}
                }
                *a = !silent;
                changed
            });
        }
    }

    async fn request(&self, id: &GameId, request: &Request) -> Result<Reply, RelayError> {
        let payload = serde_json::to_vec(request).map_err(|e| RelayError::Failed(e.to_string()))?;
        match self.client.request(cmd_subject(id), payload.into()).await {
            Ok(msg) => serde_json::from_slice(&msg.payload)
                .map_err(|e| RelayError::Failed(format!("an owner's answer does not read: {e}"))),
            Err(e) if e.kind() == async_nats::RequestErrorKind::NoResponders => {
                Err(RelayError::NoOwner)
            }
            Err(e) => Err(RelayError::Failed(e.to_string())),
        }
    }
}

/// The [`Relay`] over NATS: the shared connection, so that a relayed socket and the probes
/// it starts outlive the call that made them.
pub(crate) struct Linked(pub(crate) Arc<Nats>);

impl Relay for Linked {
    fn serve(&self, game: Arc<dyn LocalGame>) -> BoxFuture<'_, ()> {
        owner::serve(self.0.clone(), game).boxed()
    }

    fn handoff<'a>(&'a self, id: &'a GameId) -> BoxFuture<'a, Result<bool, RelayError>> {
        async move {
            // Short: an owner that handed the game to another node just now may drop the
            // request unanswered; the asker looks again rather than wait.
            let asked = self.0.request(id, &Request::Handoff);
            match tokio::time::timeout(HANDOFF_TIMEOUT, asked).await {
                Ok(reply) => Ok(reply?.ok),
                Err(_) => Err(RelayError::Failed("no answer to a hand-over request".into())),
            }
        }
        .boxed()
    }

    fn join<'a>(
        &'a self,
        id: &'a GameId,
        seat: Seat,
    ) -> BoxFuture<'a, Result<(String, RemoteGame), RelayError>> {
        remote::join(self.0.clone(), id, seat).boxed()
    }

    fn answering(&self, node: &str) -> watch::Receiver<bool> {
        self.0.answering(node)
    }

    fn count_local_action(&self) {
        self.0.counts.local_actions.fetch_add(1, Ordering::Relaxed);
    }

    fn tell_tournament<'a>(&'a self, tournament: &'a str, news: Vec<u8>) -> BoxFuture<'a, ()> {
        async move {
            let subject = tournament_subject(tournament);
            if let Err(e) = self.0.client.publish(subject, news.into()).await {
                tracing::warn!(tournament, error = %e, "cannot pass a game's news to its tournament");
            }
        }
        .boxed()
    }

    fn tournament_news<'a>(
        &'a self,
        tournament: &'a str,
    ) -> BoxFuture<'a, Option<BoxStream<'static, Vec<u8>>>> {
        async move {
            match self.0.client.subscribe(tournament_subject(tournament)).await {
                Ok(news) => Some(news.map(|msg| msg.payload.to_vec()).boxed()),
                Err(e) => {
                    tracing::error!(tournament, error = %e, "cannot follow the tournament's games on other nodes");
                    None
                }
            }
        }
        .boxed()
    }

    fn lobby_link(&self) -> Option<crate::lobby::Link> {
        Some(crate::lobby::Link { client: self.0.client.clone(), node: self.0.node.clone() })
    }

    fn counts(&self) -> Option<RelayCounts> {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let counts = &self.0.counts;
        Some(RelayCounts {
            local_actions: n(&counts.local_actions),
            relayed_actions: n(&counts.relayed_actions),
            handed_over: n(&counts.handed_over),
        })
    }
}
