//! One lobby across the nodes of a cluster, over NATS (issue 39).
//!
//! Every node publishes on [`NOTES`], each note tagged with its node id (a node skips its
//! own):
//!
//! - what changes in its lobby as it happens: a seek `opened` or `closed`, a `message` for
//!   named players (a game started, a tournament's pairing), a name `present` (its first
//!   lobby socket on the node opened) or not (its last closed);
//! - its whole `lobby` (its seeks and present names) every [`SNAPSHOT_EVERY`], which
//!   replaces what the others held of it: a note NATS lost, or one published while NATS was
//!   out of reach, is healed by the next snapshot.
//!
//! Every node keeps the others' lobbies in a [`super::mirror::Mirror`]: `GET /api/v1/seeks`
//! and the lobby sockets show them with its own, and a node not heard of for
//! [`SILENT_FOR`] is forgotten, its seeks closed for the lobby sockets (it died, or this
//! node lost NATS: its seeks cannot be accepted from here). A seek's owner is present while
//! a lobby socket of theirs is open on any node.
//!
//! A seek is accepted (or cancelled) where it is held: a node asks the seek's node on
//! `rookery.lobby.<node id in hex>.ask` (request/reply), which runs its own accept under its
//! lobby's lock (so of accepters on every node exactly one gets the game) and answers the
//! game or the error a local accept gives. No answer within [`ASK_TIMEOUT`], or no node to
//! answer, is "the seek is gone".

use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use rookery_arbiter::RuleSet;
use rookery_store::{Player, PlayerKind, UserId};
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, mpsc};

use super::{accept_here, cancel_here, ColorChoice, Lobby, LobbyMessage, Seek, SeekNews};
use crate::client::ClientAddr;
use crate::error::ApiError;
use crate::protocol::GameId;
use crate::relay::Relay;
use crate::state::{hex, now_ms, AppState};

/// The subject of every node's lobby notes.
const NOTES: &str = "rookery.lobby";
/// How often a node publishes its whole lobby.
pub(crate) const SNAPSHOT_EVERY: Duration = Duration::from_secs(2);
/// A node not heard of for this long is forgotten (three snapshots missed).
const SILENT_FOR: Duration = Duration::from_secs(6);
/// How long a node waits for another's answer to an accept: the answering node creates the
/// game (one write) first.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);
/// How long publishing a note may take before it is given up (NATS out of reach: the next
/// snapshot after it returns says all).
const PUBLISH_TIMEOUT: Duration = Duration::from_secs(1);

/// The subject on which `node` answers accepts and cancels of its seeks. The id is in hex:
/// a node id may hold `.`, NATS's separator, and `a..b` would make no subject.
fn ask_subject(node: &str) -> String {
    format!("rookery.lobby.{}.ask", hex(node.as_bytes()))
}

/// What the lobby's cluster part did, for `GET /health` (`relay.lobby`).
#[derive(Default)]
pub(crate) struct Counts {
    /// Notes heard from other nodes.
    notes_heard: AtomicU64,
    /// Notes that did not read (another version of Rookery on the cluster?).
    notes_unread: AtomicU64,
    /// Accepts and cancels this node asked other nodes for.
    asked: AtomicU64,
    /// Accepts and cancels of this node's seeks asked by other nodes.
    answered: AtomicU64,
    /// Asks that found no node to answer, or no answer in time.
    unanswered: AtomicU64,
}

impl Lobby {
    /// The lobby's cluster part, as JSON for `GET /health`.
    pub(crate) fn cluster_json(&self) -> serde_json::Value {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mirror = self.mirror.lock().unwrap_or_else(|e| e.into_inner());
        serde_json::json!({
            "nodes_heard": mirror.nodes(),
            "seeks_elsewhere": mirror.seeks().count(),
            "notes_heard": n(&self.counts.notes_heard),
            "notes_unread": n(&self.counts.notes_unread),
            "asked": n(&self.counts.asked),
            "answered": n(&self.counts.answered),
            "unanswered": n(&self.counts.unanswered),
        })
    }

    /// This node's own lobby: its seeks and present names.
    fn own(&self) -> (Vec<WireSeek>, Vec<String>) {
        // One lock at a time: [`Lobby::expire_absent`] takes them in another order.
        let seeks: Vec<WireSeek> = {
            let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            seeks.values().map(|s| WireSeek::of(s)).collect()
        };
        let present = self.present.lock().unwrap_or_else(|e| e.into_inner());
        (seeks, present.keys().cloned().collect())
    }

    /// Tells this node's lobby sockets what changed in the mirror.
    fn tell(&self, news: impl IntoIterator<Item = SeekNews>) {
        for news in news {
            let _ = self.events.send(LobbyMessage::of_seek(news, true));
        }
    }

    /// Applies a note of another node, heard at `now`.
    fn hear(&self, note: Note, now: u64) {
        let mut mirror = self.mirror.lock().unwrap_or_else(|e| e.into_inner());
        match note {
            Note::Opened { node, seek } => match Seek::try_from(seek) {
                Ok(seek) => {
                    let added = mirror.add(&node, seek, now);
                    drop(mirror);
                    self.tell(added.map(SeekNews::Added));
                }
                Err(e) => {
                    self.counts.notes_unread.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(node, error = %e, "another node's seek does not read");
                }
            },
            Note::Closed { node, id } => {
                let removed = mirror.remove(&node, &id, now);
                drop(mirror);
                self.tell(removed.map(SeekNews::Removed));
            }
            Note::Message { node: _, audience, text } => {
                drop(mirror);
                let _ = self.events.send(LobbyMessage {
                    audience,
                    seek: None,
                    text: text.into(),
                    relayed: true,
                });
            }
            Note::Present { node, name, here } => {
                mirror.set_present(&node, &name, here, now);
                drop(mirror);
                // As when the owner's last socket here closes: gone from every node's lobby,
                // their seeks here close.
                if !here && !self.is_present(&name) {
                    self.close_seeks_of(&name);
                }
            }
            Note::Lobby { node, seeks, present } => {
                let mut read = Vec::with_capacity(seeks.len());
                for seek in seeks {
                    match Seek::try_from(seek) {
                        Ok(seek) => read.push(seek),
                        Err(e) => {
                            self.counts.notes_unread.fetch_add(1, Ordering::Relaxed);
                            tracing::warn!(node, error = %e, "another node's seek does not read");
                        }
                    }
                }
                let changes = mirror.replace(&node, read, present, now);
                drop(mirror);
                let added = changes.added.into_iter().map(SeekNews::Added);
                self.tell(added.chain(changes.removed.into_iter().map(SeekNews::Removed)));
            }
        }
    }

    /// Forgets the nodes not heard of for [`SILENT_FOR`] at `now`.
    fn forget_silent(&self, now: u64) {
        let gone = {
            let mut mirror = self.mirror.lock().unwrap_or_else(|e| e.into_inner());
            mirror.forget_silent(now, SILENT_FOR.as_millis() as u64)
        };
        self.tell(gone.into_iter().map(SeekNews::Removed));
    }
}

/// A note of one node's lobby, as it crosses the wire.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
enum Note {
    /// A seek opened.
    Opened { node: String, seek: WireSeek },
    /// A seek closed.
    Closed { node: String, id: String },
    /// A message for named players (`None`: every lobby socket).
    Message { node: String, audience: Option<Vec<String>>, text: String },
    /// A name's first lobby socket on the node opened (`here`), or its last closed.
    Present { node: String, name: String, here: bool },
    /// The node's whole lobby.
    Lobby { node: String, seeks: Vec<WireSeek>, present: Vec<String> },
}

impl Note {
    /// The note for a lobby message of this node; `None` for one relayed from another.
    fn of(message: &LobbyMessage, node: &str) -> Option<Note> {
        if message.relayed {
            return None;
        }
        let node = node.to_owned();
        Some(match &message.seek {
            Some(SeekNews::Added(seek)) => Note::Opened { node, seek: WireSeek::of(seek) },
            Some(SeekNews::Removed(seek)) => Note::Closed { node, id: seek.id.clone() },
            None => Note::Message {
                node,
                audience: message.audience.clone(),
                text: message.text.to_string(),
            },
        })
    }

    /// The node that wrote it.
    fn node(&self) -> &str {
        match self {
            Note::Opened { node, .. }
            | Note::Closed { node, .. }
            | Note::Message { node, .. }
            | Note::Present { node, .. }
            | Note::Lobby { node, .. } => node,
        }
    }
}

/// A player, as it crosses the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct WirePlayer {
    kind: String,
    user_id: Option<i64>,
    name: String,
    engine_level: Option<u8>,
}

impl WirePlayer {
    fn of(p: &Player) -> WirePlayer {
        WirePlayer {
            kind: p.kind.as_str().to_owned(),
            user_id: p.user_id.map(|id| id.0),
            name: p.name.clone(),
            engine_level: p.engine_level,
        }
    }
}

impl TryFrom<WirePlayer> for Player {
    type Error = String;

    fn try_from(p: WirePlayer) -> Result<Player, String> {
        let kind = match p.kind.as_str() {
            "user" => PlayerKind::User,
            "anonymous" => PlayerKind::Anonymous,
            "engine" => PlayerKind::Engine,
            other => return Err(format!("player {:?}: unknown kind {other:?}", p.name)),
        };
        if (kind == PlayerKind::User) != p.user_id.is_some() {
            return Err(format!("player {:?}: a user id exactly for a user", p.name));
        }
        Ok(Player {
            kind,
            user_id: p.user_id.map(UserId),
            name: p.name,
            engine_level: p.engine_level,
        })
    }
}

/// A seek, as it crosses the wire: all of it, its client address included (another node
/// checks who may see it, and shows it as its own node would).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct WireSeek {
    id: String,
    owner: WirePlayer,
    time_control: String,
    rated: bool,
    rules: String,
    color: String,
    to: Option<String>,
    created_at_ms: u64,
    addr: IpAddr,
}

impl WireSeek {
    fn of(s: &Seek) -> WireSeek {
        WireSeek {
            id: s.id.clone(),
            owner: WirePlayer::of(&s.owner),
            time_control: s.time_control.to_string(),
            rated: s.rated,
            rules: s.rules.label().to_owned(),
            color: s.color.name().to_owned(),
            to: s.to.clone(),
            created_at_ms: s.created_at_ms,
            addr: s.addr.ip(),
        }
    }
}

impl TryFrom<WireSeek> for Seek {
    type Error = String;

    fn try_from(w: WireSeek) -> Result<Seek, String> {
        let id = w.id;
        let bad = |field: &str, e: &dyn std::fmt::Display| format!("seek {id:?}, {field}: {e}");
        let time_control: rookery_arbiter::TimeControl =
            w.time_control.parse().map_err(|e| bad("time_control", &e))?;
        let rules: RuleSet = w.rules.parse().map_err(|e| bad("rules", &e))?;
        let color = ColorChoice::from_name(&w.color)
            .ok_or_else(|| bad("color", &format!("{:?} is not white, black or random", w.color)))?;
        let owner = Player::try_from(w.owner).map_err(|e| bad("owner", &e))?;
        Ok(Seek {
            speed: time_control.speed().name(),
            id,
            owner,
            time_control,
            rated: w.rated,
            rules,
            color,
            to: w.to,
            created_at_ms: w.created_at_ms,
            addr: ClientAddr::from_ip(w.addr),
        })
    }
}

/// A request to the node that holds a seek.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Ask {
    Accept { seek: String, by: WirePlayer },
    Cancel { seek: String, by: WirePlayer },
}

/// The answer of the node that holds the seek.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
enum Answer {
    /// Accepted: the game.
    Game { game: String },
    /// Cancelled.
    Cancelled,
    /// Refused, as a local accept or cancel would be.
    Refused { error: WireError },
}

/// The errors of an accept or a cancel, as they cross the wire: the asking node answers
/// its client with the same status and code as the seek's node would.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "code", content = "message", rename_all = "snake_case")]
enum WireError {
    Gone(String),
    Forbidden(String),
    NotFound(String),
    Internal(String),
}

impl From<ApiError> for WireError {
    fn from(e: ApiError) -> WireError {
        match e {
            ApiError::SeekGone(id) => WireError::Gone(id),
            ApiError::Forbidden(why) => WireError::Forbidden(why),
            ApiError::NotFound(what) => WireError::NotFound(what),
            ApiError::Internal(why) => WireError::Internal(why),
            other => {
                tracing::warn!(error = %other, "an accept for another node failed");
                WireError::Internal(other.to_string())
            }
        }
    }
}

impl From<WireError> for ApiError {
    fn from(e: WireError) -> ApiError {
        match e {
            WireError::Gone(id) => ApiError::SeekGone(id),
            WireError::Forbidden(why) => ApiError::Forbidden(why),
            WireError::NotFound(what) => ApiError::NotFound(what),
            WireError::Internal(why) => ApiError::Internal(format!("on another node: {why}")),
        }
    }
}

/// Asks `node` to accept its seek `id` for `me`: the game.
///
/// # Errors
/// What the seek's node answered; [`ApiError::SeekGone`] when no node answers in time (the
/// seek's node died or is cut off: its seek is closed here).
pub(super) async fn accept_elsewhere(
    state: &AppState,
    relay: &Relay,
    node: &str,
    me: &Player,
    id: &str,
) -> Result<GameId, ApiError> {
    let ask = Ask::Accept { seek: id.to_owned(), by: WirePlayer::of(me) };
    match ask_node(&state.lobby, relay, node, &ask).await {
        Some(Answer::Game { game }) => GameId::parse(&game)
            .ok_or_else(|| ApiError::Internal(format!("node {node:?} answered game {game:?}"))),
        Some(Answer::Refused { error }) => Err(error.into()),
        Some(Answer::Cancelled) => {
            Err(ApiError::Internal(format!("node {node:?} cancelled seek {id:?} to accept it")))
        }
        None => {
            let removed = {
                let mut mirror = state.lobby.mirror.lock().unwrap_or_else(|e| e.into_inner());
                mirror.remove(node, id, now_ms())
            };
            state.lobby.tell(removed.map(SeekNews::Removed));
            Err(ApiError::SeekGone(id.to_owned()))
        }
    }
}

/// Asks `node` to cancel its seek `id` for `me`.
///
/// # Errors
/// What the seek's node answered; [`ApiError::NotFound`] when no node answers in time.
pub(super) async fn cancel_elsewhere(
    relay: &Relay,
    lobby: &Lobby,
    node: &str,
    me: &Player,
    id: &str,
) -> Result<(), ApiError> {
    let ask = Ask::Cancel { seek: id.to_owned(), by: WirePlayer::of(me) };
    match ask_node(lobby, relay, node, &ask).await {
        Some(Answer::Cancelled) => Ok(()),
        Some(Answer::Refused { error }) => Err(error.into()),
        Some(Answer::Game { game }) => {
            Err(ApiError::Internal(format!("node {node:?} answered a cancel with game {game:?}")))
        }
        None => Err(ApiError::NotFound(format!("seek {id:?}"))),
    }
}

/// Sends `ask` to `node`: its answer, or `None` when no node answers it in time.
async fn ask_node(lobby: &Lobby, relay: &Relay, node: &str, ask: &Ask) -> Option<Answer> {
    lobby.counts.asked.fetch_add(1, Ordering::Relaxed);
    let payload = serde_json::to_vec(ask).ok()?;
    let request = relay.client().request(ask_subject(node), payload.into());
    let failure = match tokio::time::timeout(ASK_TIMEOUT, request).await {
        Ok(Ok(reply)) => match serde_json::from_slice::<Answer>(&reply.payload) {
            Ok(answer) => return Some(answer),
            Err(e) => format!("its answer does not read: {e}"),
        },
        Ok(Err(e)) => e.to_string(),
        Err(_) => format!("no answer within {ASK_TIMEOUT:?}"),
    };
    lobby.counts.unanswered.fetch_add(1, Ordering::Relaxed);
    tracing::info!(node, error = failure, "a seek's node does not answer: the seek is gone");
    None
}

/// Answers another node's `ask` of a seek of this node.
async fn answer(state: &Arc<AppState>, ask: Ask) -> Answer {
    state.lobby.counts.answered.fetch_add(1, Ordering::Relaxed);
    let (seek, by) = match &ask {
        Ask::Accept { seek, by } | Ask::Cancel { seek, by } => (seek, by.clone()),
    };
    let me = match Player::try_from(by) {
        Ok(me) => me,
        Err(e) => {
            let error = WireError::Internal(format!("the asking player does not read: {e}"));
            return Answer::Refused { error };
        }
    };
    let done = match ask {
        Ask::Accept { .. } => {
            accept_here(state, &me, seek).await.map(|game| Answer::Game { game: game.to_string() })
        }
        Ask::Cancel { .. } => cancel_here(&state.lobby, &me, seek).map(|()| Answer::Cancelled),
    };
    done.unwrap_or_else(|e| Answer::Refused { error: e.into() })
}

/// Runs this node's part of the cluster's lobby until the server stops: publishes its
/// lobby's notes, hears the others', and answers accepts of its seeks.
pub(crate) async fn run(state: Arc<AppState>, relay: Arc<Relay>, node: String) {
    let client = relay.client().clone();
    let (mut notes, mut asks) =
        match (client.subscribe(NOTES).await, client.subscribe(ask_subject(&node)).await) {
            (Ok(notes), Ok(asks)) => (notes, asks),
            (Err(e), _) | (_, Err(e)) => {
                tracing::error!(error = %e, "cannot share the lobby with the other nodes");
                return;
            }
        };
    let (presence_tx, mut presence) = mpsc::unbounded_channel();
    if state.lobby.presence.set(presence_tx).is_err() {
        tracing::error!("the lobby is already shared");
        return;
    }
    let mut events = state.lobby.events.subscribe();
    let mut snapshot = tokio::time::interval(SNAPSHOT_EVERY);
    snapshot.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    let publish = |note: Note| {
        let client = client.clone();
        async move {
            // While NATS is out of reach nothing is queued: the snapshot after it returns
            // says all, and a publish must not hold up hearing the others.
            if client.connection_state() != async_nats::connection::State::Connected {
                return;
            }
            let Ok(payload) = serde_json::to_vec(&note) else { return };
            match tokio::time::timeout(PUBLISH_TIMEOUT, client.publish(NOTES, payload.into())).await
            {
                Ok(Ok(())) => {}
                Ok(Err(e)) => tracing::debug!(error = %e, "a lobby note is not published"),
                Err(_) => tracing::debug!("a lobby note is not published in time"),
            }
        }
    };
    loop {
        tokio::select! {
            note = notes.next() => {
                let Some(note) = note else { break };
                match serde_json::from_slice::<Note>(&note.payload) {
                    Ok(note) if note.node() == node => {}
                    Ok(note) => {
                        state.lobby.counts.notes_heard.fetch_add(1, Ordering::Relaxed);
                        state.lobby.hear(note, now_ms());
                    }
                    Err(e) => {
                        state.lobby.counts.notes_unread.fetch_add(1, Ordering::Relaxed);
                        tracing::warn!(error = %e, "a lobby note does not read");
                    }
                }
            }
            ask = asks.next() => {
                let Some(ask) = ask else { break };
                let Some(reply_to) = ask.reply else { continue };
                let (state, client) = (state.clone(), client.clone());
                // Each on its own: an accept creates a game, and others need not wait.
                tokio::spawn(async move {
                    let answer = match serde_json::from_slice::<Ask>(&ask.payload) {
                        Ok(ask) => answer(&state, ask).await,
                        Err(e) => Answer::Refused {
                            error: WireError::Internal(format!("the request does not read: {e}")),
                        },
                    };
                    let payload = serde_json::to_vec(&answer).unwrap_or_default();
                    let _ = client.publish(reply_to, payload.into()).await;
                });
            }
            event = events.recv() => match event {
                Ok(message) => if let Some(note) = Note::of(&message, &node) { publish(note).await },
                // Missed: the next snapshot says all.
                Err(broadcast::error::RecvError::Lagged(_)) => {}
                Err(broadcast::error::RecvError::Closed) => break,
            },
            Some((name, here)) = presence.recv() => {
                publish(Note::Present { node: node.clone(), name, here }).await;
            }
            _ = snapshot.tick() => {
                let (seeks, present) = state.lobby.own();
                publish(Note::Lobby { node: node.clone(), seeks, present }).await;
                state.lobby.forget_silent(now_ms());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn seek(owner: Player, to: Option<&str>) -> Seek {
        let addr = ClientAddr::from_ip("2001:db8:1:2::7".parse().unwrap());
        let tc = "900+10".parse().unwrap();
        crate::lobby::new_seek(
            owner,
            addr,
            tc,
            true,
            RuleSet::FIDE,
            ColorChoice::Black,
            to.map(str::to_owned),
        )
        .unwrap()
    }

    fn user(name: &str, id: i64) -> Player {
        Player {
            kind: PlayerKind::User,
            user_id: Some(UserId(id)),
            name: name.to_owned(),
            engine_level: None,
        }
    }

    #[test]
    fn a_seek_crosses_the_wire_whole() {
        let sent = seek(user("ann", 7), Some("Bob"));
        let wire = serde_json::to_string(&WireSeek::of(&sent)).unwrap();
        let got = Seek::try_from(serde_json::from_str::<WireSeek>(&wire).unwrap()).unwrap();
        assert_eq!(WireSeek::of(&got), WireSeek::of(&sent), "{wire}");
        assert_eq!(got.speed, sent.speed);
        assert_eq!(got.addr, sent.addr);
        assert!(got.visible_to("bob") && !got.visible_to("cy"));
    }

    #[test]
    fn a_seek_that_does_not_read_names_its_field() {
        let mut wire = WireSeek::of(&seek(user("ann", 7), None));
        wire.rules = "blitz".into();
        let e = Seek::try_from(wire.clone()).unwrap_err();
        assert!(e.contains("rules") && e.contains(&wire.id), "{e}");
        let mut wire = WireSeek::of(&seek(user("ann", 7), None));
        wire.owner.user_id = None;
        let e = Seek::try_from(wire).unwrap_err();
        assert!(e.contains("owner") && e.contains("user id"), "{e}");
    }

    #[test]
    fn errors_cross_the_wire_with_their_status_and_code() {
        let cases = [
            ApiError::SeekGone("abc".into()),
            ApiError::Forbidden("this challenge is for someone else".into()),
            ApiError::NotFound("seek \"abc\"".into()),
            ApiError::Internal("database".into()),
        ];
        for sent in cases {
            let (status, code, text) = (sent.status(), sent.code(), sent.to_string());
            let wire = serde_json::to_string(&WireError::from(sent)).unwrap();
            let got = ApiError::from(serde_json::from_str::<WireError>(&wire).unwrap());
            assert_eq!((got.status(), got.code()), (status, code), "{wire}");
            if code != "internal" {
                assert_eq!(got.to_string(), text, "{wire}");
            }
        }
    }

    #[test]
    fn a_node_publishes_its_own_messages_only() {
        let news = SeekNews::Added(Arc::new(seek(user("ann", 7), None)));
        let own = LobbyMessage::of_seek(news.clone(), false);
        assert!(matches!(Note::of(&own, "a"), Some(Note::Opened { .. })));
        let relayed = LobbyMessage::of_seek(news, true);
        assert!(Note::of(&relayed, "a").is_none(), "a relayed message goes round again");
    }

    #[test]
    fn notes_of_another_node_reach_the_lobby_and_its_sockets() {
        let lobby = Lobby::new(crate::limits::SeekLimits::default());
        let mut sockets = lobby.events.subscribe();
        let sent = seek(user("ann", 7), None);
        let id = sent.id.clone();
        let opened = Note::Opened { node: "b".into(), seek: WireSeek::of(&sent) };
        lobby.hear(opened, 1_000);
        assert_eq!(lobby.holder(&id).as_deref(), Some("b"));
        assert_eq!(lobby.visible("cy").len(), 1);
        let told = sockets.try_recv().unwrap();
        assert!(told.relayed && told.text.contains("seek_added"), "{}", told.text);
        // The same seek in b's snapshot is not news; b falling silent closes it.
        let snapshot =
            Note::Lobby { node: "b".into(), seeks: vec![WireSeek::of(&sent)], present: vec![] };
        lobby.hear(snapshot, 2_000);
        assert!(sockets.try_recv().is_err(), "a seek told twice");
        lobby.forget_silent(2_000 + SILENT_FOR.as_millis() as u64 + 1);
        assert!(lobby.visible("cy").is_empty());
        assert!(sockets.try_recv().unwrap().text.contains("seek_removed"));
    }

    #[test]
    fn an_owner_present_on_another_node_keeps_the_seeks_here() {
        let limits = crate::limits::SeekLimits::default();
        let grace = limits.owner_grace.as_millis() as u64;
        let lobby = Lobby::new(limits);
        let ann = user("ann", 7);
        let mine = lobby.add(seek(ann.clone(), None)).unwrap();
        let theirs = lobby.add(seek(user("bob", 8), None)).unwrap();
        lobby.hear(Note::Present { node: "b".into(), name: "ann".into(), here: true }, 0);
        let later = mine.created_at_ms.max(theirs.created_at_ms) + grace;
        assert_eq!(lobby.expire_absent(later), 1, "bob is nowhere: his seek closes");
        assert!(lobby.peek(&mine.id).is_some(), "ann is in b's lobby");
        // Ann leaves b's lobby, and so every lobby: her seeks close.
        lobby.hear(Note::Present { node: "b".into(), name: "ann".into(), here: false }, 1);
        assert!(lobby.peek(&mine.id).is_none());
    }

    #[test]
    fn an_owners_seeks_on_other_nodes_count_against_the_limit_here() {
        let lobby = Lobby::new(crate::limits::SeekLimits::default());
        let ann = user("ann", 7);
        // Ann holds three seeks on b and one here: one more is allowed, then none.
        let on_b: Vec<WireSeek> = (0..3).map(|_| WireSeek::of(&seek(ann.clone(), None))).collect();
        lobby.hear(Note::Lobby { node: "b".into(), seeks: on_b, present: vec![] }, 0);
        lobby.add(seek(ann.clone(), None)).unwrap();
        lobby.add(seek(ann.clone(), None)).unwrap();
        let refused = lobby.add(seek(ann.clone(), None)).unwrap_err();
        assert_eq!(refused.code(), "too_many_seeks");
        assert_eq!(refused.to_string(), "at most 5 open seeks each", "as on one node");
        assert!(lobby.add(seek(user("bob", 8), None)).is_ok(), "another owner's count is his");
        // b's seeks close: Ann may seek here again.
        lobby.hear(Note::Lobby { node: "b".into(), seeks: vec![], present: vec![] }, 1);
        assert!(lobby.add(seek(ann, None)).is_ok());
    }
}
