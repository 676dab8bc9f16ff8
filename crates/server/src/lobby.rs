//! The lobby: open seeks and challenges, held in memory (like lichess, a seek does not
//! survive a restart; a game does). Accepting removes the seek under one lock, so of many
//! accepters exactly one gets the game. A seek lives while its owner is in the lobby (a lobby
//! socket open, or opened within a grace period of creating it), and one client address holds
//! only so many (issue 37).
//!
//! On a cluster (issue 39) every node's lobby shows every node's seeks: a node holds its own
//! seeks and what it heard of the others' ([`Elsewhere`], kept by rookery-cluster over
//! NATS, through [`Shared`]), and an accepter on one node takes a seek of another by asking
//! its node, which runs the accept here, under its lock. Without NATS nothing is heard.

mod shared;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_arbiter::{RuleSet, TimeControl};
use rookery_cluster::lobby::{accept_elsewhere, cancel_elsewhere, Elsewhere, SeekRefusal};
use rookery_store::{Player, PlayerKind};
use tokio::sync::broadcast;

use crate::client::ClientAddr;
use crate::clock::now_ms;
use crate::limits::Limit;
use crate::limits::SeekLimits;
use crate::live::CreateError;
use crate::live::LiveGames;
use crate::protocol::random_id;
pub use crate::protocol::{ColorChoice, Seek};
use crate::protocol::{GameId, NewLiveGame, ServerMessage, VariantChoice};
use crate::ratelimit::RateLimiter;

pub(crate) use shared::Shared;

/// Why a seek was not opened, accepted or cancelled; the edge answers each as docs/api.md
/// says (error.rs), and another node's asker is told the same (lobby/shared.rs).
#[derive(Debug, thiserror::Error)]
pub enum SeekError {
    /// A rated seek with takebacks (field `rules`).
    #[error("rated games use the seed or fide rules (§8.1: no takebacks)")]
    RatedTakebacks,
    /// A limit reached (issue 37).
    #[error("{0}")]
    TooMany(Limit),
    /// The seek was accepted or cancelled already.
    #[error("seek {0:?} is no longer open: someone else accepted it or it was cancelled")]
    Gone(String),
    /// The seek is not the asker's to accept or cancel.
    #[error("{0}")]
    Forbidden(&'static str),
    /// No such seek.
    #[error("seek {0:?} not found")]
    NotFound(String),
    /// Its game could not be created (the seek is open again).
    #[error(transparent)]
    Create(#[from] CreateError),
    /// The node holding it refused, or did not answer.
    #[error("{0}")]
    Elsewhere(SeekRefusal),
    /// The node holding it answered a game id that is none.
    #[error("node {node:?} answered game {game:?}")]
    BadAnswer {
        /// The node.
        node: String,
        /// What it answered.
        game: String,
    },
}

/// The game a seek offers, as its owner asked for it: what its accepter plays.
#[derive(Clone, Debug)]
pub struct SeekTerms {
    /// The time control.
    pub time_control: TimeControl,
    /// Rated.
    pub rated: bool,
    /// The rule set.
    pub rules: RuleSet,
    /// Standard chess or Chess960, its start chosen or drawn with the game.
    pub variant: VariantChoice,
    /// The owner's colour.
    pub color: ColorChoice,
}

/// Checks and builds a seek made now, open to all or (`to`) a challenge to one user.
///
/// # Errors
/// [`SeekError::RatedTakebacks`].
pub fn new_seek(
    owner: Player,
    addr: ClientAddr,
    terms: SeekTerms,
    to: Option<String>,
) -> Result<Seek, SeekError> {
    let SeekTerms { time_control, rated, rules, variant, color } = terms;
    if rated && rules.takebacks {
        return Err(SeekError::RatedTakebacks);
    }
    Ok(Seek {
        id: random_id(8),
        owner,
        speed: time_control.speed().name(),
        time_control,
        rated,
        rules,
        variant,
        color,
        to,
        created_at_ms: now_ms(),
        addr,
    })
}

/// Whether `a` and `b` are the same person (an account by its id, a guest by its name).
pub fn same_player(a: &Player, b: &Player) -> bool {
    a.kind == b.kind
        && match a.kind {
            rookery_store::PlayerKind::User => a.user_id.is_some() && a.user_id == b.user_id,
            _ => a.name == b.name,
        }
}

/// What a lobby message says of a seek.
#[derive(Clone, Debug)]
pub enum SeekNews {
    /// It opened (or opened again: its game could not be created).
    Added(Arc<Seek>),
    /// It closed: accepted, cancelled, or its owner left.
    Removed(Arc<Seek>),
}

impl SeekNews {
    /// The seek.
    pub fn seek(&self) -> &Arc<Seek> {
        match self {
            SeekNews::Added(seek) | SeekNews::Removed(seek) => seek,
        }
    }
}

/// A lobby message with its audience (`None`: everyone who can see seeks).
#[derive(Clone, Debug)]
pub struct LobbyMessage {
    /// Who may receive it: names (case-insensitive), or `None` for the seek's audience.
    pub audience: Option<Vec<String>>,
    /// The seek it concerns, for visibility.
    pub seek: Option<SeekNews>,
    /// The JSON text.
    pub text: Arc<str>,
    /// It came from another node's lobby (issue 39): told here, not published again.
    pub relayed: bool,
}

impl LobbyMessage {
    /// A message for the players named, of this node.
    pub fn to_names(names: Vec<String>, text: Arc<str>) -> LobbyMessage {
        LobbyMessage { audience: Some(names), seek: None, text, relayed: false }
    }

    /// News of a seek, for everyone who can see it.
    fn of_seek(news: SeekNews, relayed: bool) -> LobbyMessage {
        let text = match &news {
            SeekNews::Added(seek) => ServerMessage::SeekAdded { seek: seek.clone() }.to_text(),
            SeekNews::Removed(seek) => ServerMessage::SeekRemoved { id: seek.id.clone() }.to_text(),
        };
        LobbyMessage { audience: None, seek: Some(news), text: text.into(), relayed }
    }

    /// Whether `name` receives it.
    pub fn is_for(&self, name: &str) -> bool {
        if let Some(names) = &self.audience {
            return names.iter().any(|n| n.eq_ignore_ascii_case(name));
        }
        self.seek.as_ref().is_none_or(|news| news.seek().visible_to(name))
    }
}

/// Open seeks.
pub struct Lobby {
    limits: SeekLimits,
    seeks: Mutex<HashMap<String, Arc<Seek>>>,
    /// Open lobby sockets per visitor name: a seek lives while its owner is in the lobby.
    present: Mutex<HashMap<String, usize>>,
    /// Seeks created per client address.
    created: RateLimiter,
    /// Lobby events for the lobby sockets.
    pub events: broadcast::Sender<LobbyMessage>,
    /// The other nodes' seeks and present names (issue 39); empty without NATS.
    pub(crate) elsewhere: Elsewhere,
}

/// At most this many open seeks per owner, on all the nodes together.
///
/// On a cluster each node counts the owner's seeks it holds and those its mirror holds of the
/// other nodes. The mirror learns of a seek when its node publishes it (a NATS message, under
/// a millisecond here) or, if that message is lost, at the next snapshot (2 s): seeks made on
/// several nodes within that window can each pass. The worst case is an owner who opens
/// seeks on every one of N nodes at once: 5 on each, 5 × N, as before this count existed;
/// after the window no more pass until the owner holds fewer than 5 in all. It is harmless:
/// each seek still needs its owner in a lobby, counts against its address's seeks, and is
/// one game at most; the limit keeps the lobby readable, it guards no resource.
const MAX_SEEKS_PER_OWNER: usize = 5;

impl Lobby {
    /// An empty lobby.
    pub fn new(limits: SeekLimits) -> Lobby {
        Lobby {
            created: RateLimiter::new(limits.created_per_address_per_minute, 60_000),
            limits,
            seeks: Mutex::new(HashMap::new()),
            present: Mutex::new(HashMap::new()),
            // A tournament round tells each of its players on this channel at once (issue 40:
            // 1,000 players, 1,000 messages): room for a round of 4,000 before a socket lags.
            events: broadcast::channel(4096).0,
            elsewhere: Elsewhere::default(),
        }
    }

    /// How often [`Lobby::expire_absent`] should run: often enough that a seek outlives its
    /// grace period by little.
    pub fn sweep_every(&self) -> std::time::Duration {
        (self.limits.owner_grace / 4)
            .clamp(std::time::Duration::from_millis(100), std::time::Duration::from_secs(1))
    }

    /// Opens a seek.
    ///
    /// A guest's seeks are counted per client address (a guest is a cookie, made at will); a
    /// signed-in player's per account, so a class sharing one address can all seek at once
    /// (issue 51), and so are the seeks of an address in a trusted network. Every owner holds
    /// at most [`MAX_SEEKS_PER_OWNER`].
    ///
    /// # Errors
    /// [`SeekError::TooMany`] (`too_many_seeks`) when its guest's address, or its account, holds
    /// or has created too many, or its owner holds [`MAX_SEEKS_PER_OWNER`] here and on the
    /// other nodes.
    pub fn add(&self, seek: Seek) -> Result<Arc<Seek>, SeekError> {
        let seek = Arc::new(seek);
        let by_address = |s: &Seek| s.owner.kind != PlayerKind::User && !s.addr.is_trusted();
        let counted_by_address = by_address(&seek);
        let created_key = if counted_by_address {
            seek.addr.to_string()
        } else {
            format!("owner {}", seek.owner.name.to_lowercase())
        };
        // Read before the seeks' lock: the sweep takes the seeks', then the other nodes'.
        let elsewhere = self.elsewhere.seeks_of(&seek.owner.name);
        {
            let mut seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            let per_address = self.limits.open_per_address;
            if counted_by_address
                && seeks.values().filter(|s| s.addr == seek.addr && by_address(s)).count()
                    >= per_address
            {
                return Err(SeekError::TooMany(Limit::SeeksPerAddress(per_address)));
            }
            if !self.created.allows(&created_key, seek.created_at_ms) {
                return Err(SeekError::TooMany(Limit::SeeksPerMinute(self.created.limit())));
            }
            let here = seeks.values().filter(|s| s.owner.name == seek.owner.name).count();
            if here + elsewhere >= MAX_SEEKS_PER_OWNER {
                return Err(SeekError::TooMany(Limit::SeeksPerOwner(MAX_SEEKS_PER_OWNER)));
            }
            seeks.insert(seek.id.clone(), seek.clone());
            self.created.record(&created_key, seek.created_at_ms);
        }
        let _ = self.events.send(LobbyMessage::of_seek(SeekNews::Added(seek.clone()), false));
        Ok(seek)
    }

    /// The open seeks `name` can see, this node's and the others', oldest first.
    pub fn visible(&self, name: &str) -> Vec<Arc<Seek>> {
        let mut list: Vec<Arc<Seek>> = {
            let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            seeks.values().filter(|s| s.visible_to(name)).cloned().collect()
        };
        list.extend(self.elsewhere.seeks(|s| s.visible_to(name)));
        list.sort_by(|a, b| a.created_at_ms.cmp(&b.created_at_ms).then_with(|| a.id.cmp(&b.id)));
        list
    }

    /// Looks at a seek of this node without taking it.
    pub fn peek(&self, id: &str) -> Option<Arc<Seek>> {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// The node that holds the seek `id`, when another node does.
    pub fn holder(&self, id: &str) -> Option<String> {
        self.elsewhere.holder(id)
    }

    /// Takes the seek `id` out of the lobby: the caller that gets `Some` is the one accepter.
    pub fn take(&self, id: &str) -> Option<Arc<Seek>> {
        let seek = self.seeks.lock().unwrap_or_else(|e| e.into_inner()).remove(id)?;
        let _ = self.events.send(LobbyMessage::of_seek(SeekNews::Removed(seek.clone()), false));
        Some(seek)
    }

    /// Puts a taken seek back (the game could not be created).
    pub fn put_back(&self, seek: Arc<Seek>) {
        self.seeks.lock().unwrap_or_else(|e| e.into_inner()).insert(seek.id.clone(), seek.clone());
        let _ = self.events.send(LobbyMessage::of_seek(SeekNews::Added(seek), false));
    }

    /// A lobby socket of `name` opened.
    pub fn enter(&self, name: &str) {
        let first = {
            let mut present = self.present.lock().unwrap_or_else(|e| e.into_inner());
            let count = present.entry(name.to_owned()).or_insert(0);
            *count += 1;
            *count == 1
        };
        if first {
            self.elsewhere.present(name, true);
        }
    }

    /// Whether `name` has a lobby socket open here or, on a cluster, on another node.
    fn is_present(&self, name: &str) -> bool {
        self.present.lock().unwrap_or_else(|e| e.into_inner()).contains_key(name)
            || self.elsewhere.is_present(name)
    }

    /// A lobby socket of `name` closed: when it was the last here and on every node, the
    /// seeks of `name` close too (as on lichess, nobody accepts a seek whose owner has gone).
    pub fn leave(&self, name: &str) {
        let gone = {
            let mut present = self.present.lock().unwrap_or_else(|e| e.into_inner());
            let count = present.entry(name.to_owned()).or_insert(1);
            *count -= 1;
            let gone = *count == 0;
            if gone {
                present.remove(name);
            }
            gone
        };
        if gone {
            self.elsewhere.present(name, false);
        }
        if gone && !self.is_present(name) {
            self.close_seeks_of(name);
        }
    }

    /// Closes the seeks of `name` held here.
    fn close_seeks_of(&self, name: &str) {
        let ids: Vec<String> = {
            let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            seeks.values().filter(|s| s.owner.name == name).map(|s| s.id.clone()).collect()
        };
        for id in ids {
            self.take(&id);
        }
    }

    /// Removes the seeks whose owners have not been in the lobby since the grace period after
    /// creating them ended, at `now` (Unix ms); how many.
    pub fn expire_absent(&self, now: u64) -> usize {
        let grace = self.limits.owner_grace.as_millis() as u64;
        let ids: Vec<String> = {
            let present = self.present.lock().unwrap_or_else(|e| e.into_inner());
            let seeks = self.seeks.lock().unwrap_or_else(|e| e.into_inner());
            seeks
                .values()
                .filter(|s| {
                    now >= s.created_at_ms + grace
                        && !present.contains_key(&s.owner.name)
                        && !self.elsewhere.is_present(&s.owner.name)
                })
                .map(|s| s.id.clone())
                .collect()
        };
        ids.iter().filter(|id| self.take(id).is_some()).count()
    }

    /// Tells two players their game has started.
    pub fn game_started(&self, seek: &str, game: &GameId, players: [&str; 2]) {
        let text =
            ServerMessage::GameStarted { seek: seek.to_owned(), game: game.clone() }.to_text();
        let audience = players.iter().map(|s| (*s).to_owned()).collect();
        let _ = self.events.send(LobbyMessage::to_names(audience, text.into()));
    }
}

/// `me` accepts the seek `id`, held here or, on a cluster, by another node: the game.
///
/// # Errors
/// As [`accept_here`]; on a cluster, [`SeekError::Gone`] also when the seek's node does
/// not answer.
pub async fn accept(
    lobby: &Arc<Lobby>,
    live: &Arc<LiveGames>,
    me: &Player,
    id: &str,
) -> Result<GameId, SeekError> {
    if lobby.peek(id).is_none() {
        if let Some(node) = lobby.holder(id) {
            let shared = Shared { lobby: lobby.clone(), live: live.clone() };
            let game =
                accept_elsewhere(&shared, &node, id, me).await.map_err(SeekError::Elsewhere)?;
            return GameId::parse(&game)
                .ok_or_else(|| SeekError::BadAnswer { node: node.clone(), game: game.clone() });
        }
    }
    accept_here(lobby, live, me, id).await
}

/// `me` accepts the seek `id` held here: of many accepters, exactly one gets the game (the
/// seek is taken under the lobby's lock), and both players are told on their lobby sockets.
///
/// # Errors
/// [`SeekError::Gone`] when no such seek is open; [`SeekError::Forbidden`] for one's own
/// seek, a challenge to someone else, or a rated seek for a guest; what creating the game
/// fails with (the seek is open again then).
pub async fn accept_here(
    lobby: &Lobby,
    live: &Arc<LiveGames>,
    me: &Player,
    id: &str,
) -> Result<GameId, SeekError> {
    let seek = lobby.peek(id).ok_or_else(|| SeekError::Gone(id.to_owned()))?;
    if same_player(me, &seek.owner) {
        return Err(SeekError::Forbidden("you cannot accept your own seek"));
    }
    if let Some(to) = &seek.to {
        if !to.eq_ignore_ascii_case(&me.name) || me.user_id.is_none() {
            return Err(SeekError::Forbidden("this challenge is for someone else"));
        }
    }
    if seek.rated && me.user_id.is_none() {
        return Err(SeekError::Forbidden("rated games need an account: sign in"));
    }
    let seek = lobby.take(id).ok_or_else(|| SeekError::Gone(id.to_owned()))?;
    let (white, black) = if seek.color.owner_is_white() {
        (seek.owner.clone(), me.clone())
    } else {
        (me.clone(), seek.owner.clone())
    };
    let tc = seek.time_control.clone();
    // A Chess960 start left open is drawn now, once: both players get this game's.
    let variant = seek.variant.resolve();
    let new = NewLiveGame::between(white, black, variant, seek.rules, tc, seek.rated);
    match live.create(new).await {
        Ok(handle) => {
            let game = handle.meta.id.clone();
            lobby.game_started(&seek.id, &game, [&seek.owner.name, &me.name]);
            Ok(game)
        }
        Err(e) => {
            lobby.put_back(seek);
            Err(e.into())
        }
    }
}

/// `me` cancels the seek `id`, held here or, on a cluster, by another node.
///
/// # Errors
/// As [`cancel_here`]; on a cluster, [`SeekError::NotFound`] also when the seek's node does
/// not answer.
pub async fn cancel(
    lobby: &Arc<Lobby>,
    live: &Arc<LiveGames>,
    me: &Player,
    id: &str,
) -> Result<(), SeekError> {
    if lobby.peek(id).is_none() {
        if let Some(node) = lobby.holder(id) {
            let shared = Shared { lobby: lobby.clone(), live: live.clone() };
            return cancel_elsewhere(&shared, &node, id, me).await.map_err(SeekError::Elsewhere);
        }
    }
    cancel_here(lobby, me, id)
}

/// `me` cancels the seek `id` held here.
///
/// # Errors
/// [`SeekError::NotFound`] when no such seek is open; [`SeekError::Forbidden`] when `me` is
/// not its owner.
pub fn cancel_here(lobby: &Lobby, me: &Player, id: &str) -> Result<(), SeekError> {
    let seek = lobby.peek(id).ok_or_else(|| SeekError::NotFound(id.to_owned()))?;
    if !same_player(me, &seek.owner) {
        return Err(SeekError::Forbidden("only its owner may cancel a seek"));
    }
    lobby.take(id);
    Ok(())
}
