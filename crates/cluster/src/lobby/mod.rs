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
//! Every node keeps the others' lobbies in its [`Elsewhere`]: the server's lobby shows them
//! with its own, and a node not heard of for [`SILENT_FOR`] is forgotten, its seeks closed
//! for the lobby sockets (it died, or this node lost NATS: its seeks cannot be accepted from
//! here). A seek's owner is present while a lobby socket of theirs is open on any node.
//!
//! A seek is accepted (or cancelled) where it is held: a node asks the seek's node on
//! `rookery.lobby.<node id in hex>.ask` (request/reply), which runs its own accept under its
//! lobby's lock (so of accepters on every node exactly one gets the game) and answers the
//! game or the error a local accept gives. No answer within [`ASK_TIMEOUT`], or no node to
//! answer, is "the seek is gone".
//!
//! The lobby itself is the server's: this part reaches it through [`LocalLobby`]. On a
//! single node nothing is shared, and [`Elsewhere`] stays empty.

mod mirror;
mod share;
mod wire;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};
use std::time::Duration;

use futures_util::future::BoxFuture;
use rookery_protocol::Seek;
use rookery_store::Player;
use tokio::sync::{broadcast, mpsc};

use mirror::Mirror;
pub use share::share;
use wire::{Answer, Ask, WirePlayer};
pub use wire::{Note, SeekRefusal, WireSeek};

use crate::now_ms;

/// The subject of every node's lobby notes.
const NOTES: &str = "rookery.lobby";
/// How often a node publishes its whole lobby.
pub const SNAPSHOT_EVERY: Duration = Duration::from_secs(2);
/// A node not heard of for this long is forgotten (three snapshots missed).
pub const SILENT_FOR: Duration = Duration::from_secs(6);
/// How long a node waits for another's answer to an accept: the answering node creates the
/// game (one write) first.
const ASK_TIMEOUT: Duration = Duration::from_secs(3);

/// The subject on which `node` answers accepts and cancels of its seeks. The id is in hex:
/// a node id may hold `.`, NATS's separator, and `a..b` would make no subject.
fn ask_subject(node: &str) -> String {
    let hex: String = node.bytes().map(|b| format!("{b:02x}")).collect();
    format!("rookery.lobby.{hex}.ask")
}

/// This node's connection to the other nodes' lobbies ([`crate::Relay::lobby_link`]).
#[derive(Clone)]
pub struct Link {
    pub(crate) client: async_nats::Client,
    pub(crate) node: String,
}

/// What a node's lobby says, for the other nodes: this node's, to publish, or another's, heard.
#[derive(Debug)]
pub enum Said {
    /// A seek opened (or opened again).
    Opened(Arc<Seek>),
    /// A seek closed (or its node is no longer heard).
    Closed(Arc<Seek>),
    /// A message for the players named (`None`: every lobby socket).
    Message {
        /// Who may receive it: names (case-insensitive).
        audience: Option<Vec<String>>,
        /// The message.
        text: String,
    },
}

/// What this node's lobby sockets are told of the other nodes' lobbies.
#[derive(Debug)]
pub enum Heard {
    /// What another node's lobby said.
    Said(Said),
    /// `name` closed its last lobby socket on another node: if it has none left anywhere,
    /// its seeks here close too (nobody accepts a seek whose owner has gone).
    Left(String),
}

/// This node's lobby, as the shared lobby reaches it (the server implements it).
pub trait LocalLobby: Send + Sync + 'static {
    /// What the lobby tells its sockets.
    type Message: Clone + Send + 'static;

    /// The other nodes' lobbies, as this node holds them.
    fn elsewhere(&self) -> &Elsewhere;
    /// Follows what the lobby tells its sockets, from now on.
    fn subscribe(&self) -> broadcast::Receiver<Self::Message>;
    /// What `message` says for the other nodes: `None` for one heard from another node.
    fn said(message: &Self::Message) -> Option<Said>;
    /// This node's own open seeks, and the names with a lobby socket open here.
    fn own(&self) -> (Vec<Arc<Seek>>, Vec<String>);
    /// Tells this node's lobby sockets what another node's lobby said.
    fn tell(&self, heard: Heard);
    /// `by` (a player of another node) accepts the seek `seek` of this node: the game's id.
    fn accept(&self, seek: String, by: Player) -> BoxFuture<'_, Result<String, SeekRefusal>>;
    /// `by` (a player of another node) cancels the seek `seek` of this node.
    ///
    /// # Errors
    /// As a cancel on this node.
    fn cancel(&self, seek: &str, by: &Player) -> Result<(), SeekRefusal>;
}

/// The other nodes' lobbies as this node last heard of them: their seeks and present names,
/// kept up to date by [`share`]. Empty on a single node.
#[derive(Default)]
pub struct Elsewhere {
    mirror: Mutex<Mirror>,
    /// Where a name's first lobby socket opening here (`true`) or its last closing is told,
    /// for the other nodes: set once the lobby is shared.
    presence: OnceLock<mpsc::UnboundedSender<(String, bool)>>,
    /// The connection to the other nodes, once the lobby is shared.
    link: OnceLock<Link>,
    counts: Counts,
}

/// What the lobby's cluster part did, for `GET /health` (`relay.lobby`).
#[derive(Default)]
struct Counts {
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

/// What the lobby's cluster part did and holds (`GET /health`, `relay.lobby`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct LobbyCounts {
    /// Other nodes heard of.
    pub nodes_heard: usize,
    /// Their open seeks.
    pub seeks_elsewhere: usize,
    /// Notes heard from other nodes.
    pub notes_heard: u64,
    /// Notes that did not read.
    pub notes_unread: u64,
    /// Accepts and cancels this node asked other nodes for.
    pub asked: u64,
    /// Accepts and cancels of this node's seeks asked by other nodes.
    pub answered: u64,
    /// Asks that found no node to answer, or no answer in time.
    pub unanswered: u64,
}

impl Elsewhere {
    fn mirror(&self) -> std::sync::MutexGuard<'_, Mirror> {
        self.mirror.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The other nodes' open seeks that `keep` keeps.
    pub fn seeks(&self, keep: impl Fn(&Seek) -> bool) -> Vec<Arc<Seek>> {
        self.mirror().seeks().filter(|s| keep(s)).cloned().collect()
    }

    /// How many seeks `owner` holds on the other nodes.
    pub fn seeks_of(&self, owner: &str) -> usize {
        self.mirror().seeks_of(owner)
    }

    /// The node that holds the seek `id`, when another node does.
    pub fn holder(&self, id: &str) -> Option<String> {
        self.mirror().find(id).map(|(node, _)| node.to_owned())
    }

    /// Whether `name` has a lobby socket open on another node.
    pub fn is_present(&self, name: &str) -> bool {
        self.mirror().is_present(name)
    }

    /// `name` opened its first lobby socket on this node (`here`), or closed its last: told
    /// to the other nodes, once the lobby is shared.
    pub fn present(&self, name: &str, here: bool) {
        if let Some(presence) = self.presence.get() {
            let _ = presence.send((name.to_owned(), here));
        }
    }

    /// What this node's lobby holds of the others, for `GET /health`.
    pub fn counts(&self) -> LobbyCounts {
        let n = |c: &AtomicU64| c.load(Ordering::Relaxed);
        let mirror = self.mirror();
        LobbyCounts {
            nodes_heard: mirror.nodes(),
            seeks_elsewhere: mirror.seeks().count(),
            notes_heard: n(&self.counts.notes_heard),
            notes_unread: n(&self.counts.notes_unread),
            asked: n(&self.counts.asked),
            answered: n(&self.counts.answered),
            unanswered: n(&self.counts.unanswered),
        }
    }

    /// Applies a note of another node, heard at `now`: what this node's lobby sockets are to
    /// be told of it.
    pub fn hear(&self, note: Note, now: u64) -> Vec<Heard> {
        let mut mirror = self.mirror();
        match note {
            Note::Opened { node, seek } => match Seek::try_from(seek) {
                Ok(seek) => mirror.add(&node, seek, now).map(opened).into_iter().collect(),
                Err(e) => {
                    self.counts.notes_unread.fetch_add(1, Ordering::Relaxed);
                    tracing::warn!(node, error = %e, "another node's seek does not read");
                    Vec::new()
                }
            },
            Note::Closed { node, id } => {
                mirror.remove(&node, &id, now).map(closed).into_iter().collect()
            }
            Note::Message { node: _, audience, text } => {
                vec![Heard::Said(Said::Message { audience, text })]
            }
            Note::Present { node, name, here } => {
                mirror.set_present(&node, &name, here, now);
                // As when the owner's last socket here closes: gone from every node's lobby,
                // their seeks here close.
                if here {
                    Vec::new()
                } else {
                    vec![Heard::Left(name)]
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
                let added = changes.added.into_iter().map(opened);
                added.chain(changes.removed.into_iter().map(closed)).collect()
            }
        }
    }

    /// Forgets the nodes not heard of for [`SILENT_FOR`] at `now`: their seeks, closed.
    pub fn forget_silent(&self, now: u64) -> Vec<Heard> {
        let gone = self.mirror().forget_silent(now, SILENT_FOR.as_millis() as u64);
        gone.into_iter().map(closed).collect()
    }

    /// Sends `ask` to `node`: its answer, or `None` when no node answers it in time.
    async fn ask(&self, node: &str, ask: &Ask) -> Option<Answer> {
        self.counts.asked.fetch_add(1, Ordering::Relaxed);
        let failure = match self.link.get() {
            None => "the lobby is not shared".to_owned(),
            Some(link) => {
                let payload = serde_json::to_vec(ask).ok()?;
                let request = link.client.request(ask_subject(node), payload.into());
                match tokio::time::timeout(ASK_TIMEOUT, request).await {
                    Ok(Ok(reply)) => match serde_json::from_slice::<Answer>(&reply.payload) {
                        Ok(answer) => return Some(answer),
                        Err(e) => format!("its answer does not read: {e}"),
                    },
                    Ok(Err(e)) => e.to_string(),
                    Err(_) => format!("no answer within {ASK_TIMEOUT:?}"),
                }
            }
        };
        self.counts.unanswered.fetch_add(1, Ordering::Relaxed);
        tracing::info!(node, error = failure, "a seek's node does not answer: the seek is gone");
        None
    }
}

/// Another node's seek opened, as heard.
fn opened(seek: Arc<Seek>) -> Heard {
    Heard::Said(Said::Opened(seek))
}

/// Another node's seek closed, as heard.
fn closed(seek: Arc<Seek>) -> Heard {
    Heard::Said(Said::Closed(seek))
}

/// `me` accepts the seek `id` held by the other node `node`: the game's id.
///
/// # Errors
/// What the seek's node answered; [`SeekRefusal::Gone`] when no node answers in time (the
/// seek's node died or is cut off: its seek is closed here).
pub async fn accept_elsewhere<L: LocalLobby>(
    local: &L,
    node: &str,
    id: &str,
    me: &Player,
) -> Result<String, SeekRefusal> {
    let elsewhere = local.elsewhere();
    let ask = Ask::Accept { seek: id.to_owned(), by: WirePlayer::of(me) };
    match elsewhere.ask(node, &ask).await {
        Some(Answer::Game { game }) => Ok(game),
        Some(Answer::Refused { error }) => Err(error),
        Some(Answer::Cancelled) => {
            Err(SeekRefusal::Internal(format!("node {node:?} cancelled seek {id:?} to accept it")))
        }
        None => {
            let removed = elsewhere.mirror().remove(node, id, now_ms());
            if let Some(seek) = removed {
                local.tell(closed(seek));
            }
            Err(SeekRefusal::Gone(id.to_owned()))
        }
    }
}

/// `me` cancels the seek `id` held by the other node `node`.
///
/// # Errors
/// What the seek's node answered; [`SeekRefusal::NotFound`] when no node answers in time.
pub async fn cancel_elsewhere<L: LocalLobby>(
    local: &L,
    node: &str,
    id: &str,
    me: &Player,
) -> Result<(), SeekRefusal> {
    let ask = Ask::Cancel { seek: id.to_owned(), by: WirePlayer::of(me) };
    match local.elsewhere().ask(node, &ask).await {
        Some(Answer::Cancelled) => Ok(()),
        Some(Answer::Refused { error }) => Err(error),
        Some(Answer::Game { game }) => Err(SeekRefusal::Internal(format!(
            "node {node:?} answered a cancel with game {game:?}"
        ))),
        None => Err(SeekRefusal::NotFound(format!("seek {id:?}"))),
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use rookery_protocol::{ClientAddr, ColorChoice};
    use rookery_store::PlayerKind;

    use super::*;

    /// A guest's open 300+3 seek.
    pub(crate) fn seek(id: &str, owner: &str) -> Seek {
        let time_control: rookery_arbiter::TimeControl = "300+3".parse().unwrap();
        Seek {
            id: id.to_owned(),
            owner: Player {
                kind: PlayerKind::Anonymous,
                user_id: None,
                name: owner.to_owned(),
                engine_level: None,
            },
            speed: time_control.speed().name(),
            time_control,
            rated: false,
            rules: rookery_arbiter::RuleSet::SEED,
            variant: rookery_protocol::VariantChoice::Standard,
            color: ColorChoice::Random,
            to: None,
            created_at_ms: 0,
            addr: ClientAddr::from_ip("192.0.2.1".parse().unwrap()),
        }
    }

    #[test]
    fn node_ids_make_subjects_of_one_token() {
        assert_eq!(ask_subject("a.b"), "rookery.lobby.612e62.ask");
    }

    #[test]
    fn a_node_that_falls_silent_closes_its_seeks_here() {
        let elsewhere = Elsewhere::default();
        let opened = Note::Opened { node: "b".into(), seek: WireSeek::of(&seek("s1", "ann")) };
        let heard = elsewhere.hear(opened, 1_000);
        assert!(matches!(&heard[..], [Heard::Said(Said::Opened(s))] if s.id == "s1"), "{heard:?}");
        assert_eq!(elsewhere.holder("s1").as_deref(), Some("b"));
        assert_eq!(elsewhere.seeks_of("ann"), 1);
        let left = Note::Present { node: "b".into(), name: "ann".into(), here: false };
        assert!(matches!(&elsewhere.hear(left, 1_001)[..], [Heard::Left(name)] if name == "ann"));
        let gone = elsewhere.forget_silent(1_001 + SILENT_FOR.as_millis() as u64 + 1);
        assert!(matches!(&gone[..], [Heard::Said(Said::Closed(s))] if s.id == "s1"), "{gone:?}");
        assert_eq!(elsewhere.counts().nodes_heard, 0);
    }
}
