//! Live games across the nodes of a cluster, over NATS (issue 39): a player's socket on one
//! node plays a game whose actor runs on another.
//!
//! The owner of a game (the node whose actor holds it; see [`crate::cluster`]) answers
//! requests on `rookery.game.<id>.cmd` for as long as its actor runs. A node holding a socket
//! for a game it does not own first asks the owner to hand the game over (the owner agrees
//! when no player of the game is connected to it: the balancer hashes a game's sockets to one
//! node, so the game moves to where its players are, and their moves need no relay); if the
//! owner keeps it, the socket is relayed:
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

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use futures_util::{FutureExt, StreamExt};
use rookery_core::{ByColor, Color};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

use crate::live::{GameHandle, Seat};
use crate::protocol::{ClientMessage, GameId};
use crate::state::now_ms;

/// How long an owner waits for a relayed socket's `alive` before it lets the socket go.
const ALIVE_FOR: Duration = Duration::from_secs(20);
/// How often a relayed socket says it is alive (well inside [`ALIVE_FOR`]).
pub(crate) const ALIVE_EVERY: Duration = Duration::from_secs(2);
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

/// This node's connection to NATS.
pub struct Relay {
    client: async_nats::Client,
    /// This node's id.
    node: String,
    /// The nodes this node relays to, by id: whether each answers probes (see
    /// [`Relay::answering`]).
    probed: Mutex<HashMap<String, watch::Sender<bool>>>,
    /// What the relay saved or carried, for `GET /health`.
    pub(crate) counts: Counts,
}

/// Counters of one node's games across the cluster (`GET /health`, `relay`).
#[derive(Default)]
pub(crate) struct Counts {
    /// Player actions from sockets on this node, to games it serves.
    pub(crate) local_actions: AtomicU64,
    /// Player actions relayed to this node from sockets on others.
    pub(crate) relayed_actions: AtomicU64,
    /// Games this node handed over to the node of their sockets.
    pub(crate) handed_over: AtomicU64,
}

impl Counts {
    /// As JSON.
    pub(crate) fn to_json(&self) -> serde_json::Value {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        serde_json::json!({
            "local_actions": n(&self.local_actions),
            "relayed_actions": n(&self.relayed_actions),
            "handed_over": n(&self.handed_over),
        })
    }
}

/// Why a relayed request got no answer.
#[derive(Debug, thiserror::Error)]
pub(crate) enum RelayError {
    /// No node serves the game: its owner died or stopped serving it.
    #[error("no node serves the game")]
    NoOwner,
    /// The owner did not answer in time, or NATS is out of reach.
    #[error("relay: {0}")]
    Failed(String),
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
            Seat::Player(Color::White) => WireSeat::White,
            Seat::Player(Color::Black) => WireSeat::Black,
            Seat::Spectator => WireSeat::Spectator,
        }
    }
}

impl From<WireSeat> for Seat {
    fn from(seat: WireSeat) -> Seat {
        match seat {
            WireSeat::White => Seat::Player(Color::White),
            WireSeat::Black => Seat::Player(Color::Black),
            WireSeat::Spectator => Seat::Spectator,
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

impl Relay {
    /// Connects to the NATS server at `url`, as node `node`.
    ///
    /// # Errors
    /// [`ConnectError`] naming the server.
    pub async fn connect(url: &str, node: &str) -> Result<Relay, ConnectError> {
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
        Ok(Relay { client, node: node.to_owned(), probed, counts: Counts::default() })
    }

    /// Whether the node `node` answers: `false` once it has answered no probe for
    /// [`SILENT_FOR`], `true` again when it answers. Probed from the first call until no
    /// receiver has been held for [`PROBE_LINGER`].
    pub(crate) fn answering(self: &Arc<Self>, node: &str) -> watch::Receiver<bool> {
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

    /// The connection, for the other parts of the cluster that speak over it (the lobby).
    pub(crate) fn client(&self) -> &async_nats::Client {
        &self.client
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

    /// Asks the owner of `id` to hand the game over to this node: `true` once it has stored
    /// the clocks and released the game (claim it then), `false` if it keeps it.
    pub(crate) async fn handoff(&self, id: &GameId) -> Result<bool, RelayError> {
        // Short: an owner that handed the game to another node just now may drop the request
        // unanswered; the asker looks again rather than wait.
        match tokio::time::timeout(HANDOFF_TIMEOUT, self.request(id, &Request::Handoff)).await {
            Ok(reply) => Ok(reply?.ok),
            Err(_) => Err(RelayError::Failed("no answer to a hand-over request".into())),
        }
    }

    /// Joins the game `id`, served by another node, as `seat`.
    pub(crate) async fn join(
        self: &Arc<Self>,
        id: &GameId,
        seat: Seat,
    ) -> Result<(ServerText, RemoteGame), RelayError> {
        let inbox = self.client.new_inbox();
        // Subscribed before joining: nothing the owner forwards after the `hello` is missed.
        let events = self
            .client
            .subscribe(inbox.clone())
            .await
            .map_err(|e| RelayError::Failed(e.to_string()))?;
        let reply =
            self.request(id, &Request::Join { seat: seat.into(), inbox: inbox.clone() }).await?;
        let hello = match (reply.ok, reply.text) {
            (true, Some(hello)) => hello,
            _ => return Err(RelayError::NoOwner),
        };
        let owner = reply.node.map(|node| self.answering(&node));
        let game =
            RemoteGame { relay: self.clone(), id: id.clone(), seat, inbox, events, next: 1, owner };
        Ok((hello, game))
    }

    /// Publishes `news` of a tournament's game for the node that runs the tournament (at most
    /// once: a result lost is read from the store when the tournament is next rebuilt).
    pub(crate) async fn tell_tournament(&self, tournament: &str, news: Vec<u8>) {
        if let Err(e) = self.client.publish(tournament_subject(tournament), news.into()).await {
            tracing::warn!(tournament, error = %e, "cannot pass a game's news to its tournament");
        }
    }

    /// The news of a tournament's games published by other nodes (see
    /// [`Relay::tell_tournament`]), for the node that runs it.
    pub(crate) async fn tournament_news(
        &self,
        tournament: &str,
    ) -> Option<impl futures_util::Stream<Item = Vec<u8>> + Unpin + use<>> {
        match self.client.subscribe(tournament_subject(tournament)).await {
            Ok(news) => Some(news.map(|msg| msg.payload.to_vec())),
            Err(e) => {
                tracing::error!(tournament, error = %e, "cannot follow the tournament's games on other nodes");
                None
            }
        }
    }

    /// Answers requests for the game of `handle`, which this node owns, until its actor ends:
    /// subscribed (and the NATS server told) before it returns.
    pub(crate) async fn serve(self: &Arc<Self>, handle: GameHandle) {
        let relay = self.clone();
        let id = handle.meta.id.clone();
        let mut requests = match relay.client.subscribe(cmd_subject(&id)).await {
            Ok(requests) => requests,
            Err(e) => {
                tracing::error!(game = %id, error = %e, "cannot serve the game to other nodes");
                return;
            }
        };
        // Bounded: while NATS is down, games are still made and served (their sockets here).
        match tokio::time::timeout(Duration::from_millis(500), relay.client.flush()).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) | Err(_) => {
                tracing::warn!(game = %id, "NATS is out of reach: the game is served to this node's sockets only until it returns");
            }
        }
        tokio::spawn(async move {
            let mut owner = Owner { relay: relay.clone(), handle, remote: HashMap::new() };
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
                        let _ = relay.client.publish(reply_to, payload.into()).await;
                    }
                    () = owner.handle.closed() => break,
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
                    let _ = relay.client.publish(reply_to, payload.into()).await;
                }
            }
        });
    }
}

/// A text of the protocol, as the owner wrote it.
pub(crate) type ServerText = String;

/// The owner's side: the relayed sockets joined to its game.
struct Owner {
    relay: Arc<Relay>,
    handle: GameHandle,
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
                    if let Seat::Player(c) = socket.seat {
                        remote[c] += 1;
                    }
                }
                let handed = self.handle.hand_off(remote).await;
                if handed {
                    self.relay.counts.handed_over.fetch_add(1, Ordering::Relaxed);
                }
                Reply { ok: handed, ..Reply::default() }
            }
            Request::Join { seat, inbox } => {
                let seat = Seat::from(seat);
                let Some(joined) = self.handle.join(seat).await else { return Reply::default() };
                let forwarder =
                    tokio::spawn(forward(self.relay.client.clone(), inbox.clone(), joined.updates));
                if let Some(old) =
                    self.remote.insert(inbox, RemoteSocket { seat, alive_ms: now_ms(), forwarder })
                {
                    old.forwarder.abort();
                    self.handle.leave(old.seat).await;
                }
                let node = Some(self.relay.node.clone());
                Reply { ok: true, text: Some(joined.hello.to_text()), node }
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
                    self.handle.leave(socket.seat).await;
                }
                Reply { ok: true, ..Reply::default() }
            }
            Request::Send { seat, message, lag_ms, received_ms } => {
                let message = match ClientMessage::parse(&message.to_string()) {
                    Ok(message) => message,
                    Err(e) => {
                        tracing::error!(game = %self.handle.meta.id, error = ?e, "a relayed message does not read");
                        return Reply::default();
                    }
                };
                if matches!(message, ClientMessage::Act { .. }) {
                    self.relay.counts.relayed_actions.fetch_add(1, Ordering::Relaxed);
                }
                let answer = self.handle.answer(seat.into(), message, lag_ms, received_ms).await;
                Reply { ok: true, text: answer.map(|m| m.to_text()), ..Reply::default() }
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
                self.handle.leave(socket.seat).await;
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

/// A socket's view of a game another node serves.
pub(crate) struct RemoteGame {
    relay: Arc<Relay>,
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
pub(crate) enum RemoteUpdate {
    /// A message for the client.
    Text(ServerText),
    /// Messages were lost: send the full state, then go on.
    Gap,
    /// The game's actor ended, or the owner is gone or no longer answers.
    Ended,
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
    pub(crate) async fn next(&mut self) -> RemoteUpdate {
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
    pub(crate) async fn send(
        &self,
        message: &ClientMessage,
        lag_ms: u64,
        received_ms: u64,
    ) -> Result<Option<ServerText>, RelayError> {
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
            reply = self.relay.request(&self.id, request) => reply,
            () = silenced(&mut owner) => Err(RelayError::NoOwner),
        }
    }

    /// Tells the owner this socket is still there; an error once the owner has let it go or
    /// is gone.
    pub(crate) async fn alive(&self) -> Result<(), RelayError> {
        let reply = self.ask(&Request::Alive { inbox: self.inbox.clone() }).await?;
        if reply.ok {
            Ok(())
        } else {
            Err(RelayError::NoOwner)
        }
    }

    /// The socket leaves.
    pub(crate) async fn leave(self) {
        let _ = self.ask(&Request::Leave { inbox: self.inbox.clone() }).await;
    }
}
