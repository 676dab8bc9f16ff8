//! The lobby's messages between nodes, as they cross NATS (JSON): notes, asks and answers,
//! and the seeks and players they carry.

use std::net::IpAddr;

use rookery_store::{Player, PlayerKind, UserId};
use serde::{Deserialize, Serialize};

/// A note of one node's lobby, as it crosses the wire.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum Note {
    /// A seek opened.
    Opened {
        /// The node that says it.
        node: String,
        /// The seek.
        seek: WireSeek,
    },
    /// A seek closed.
    Closed {
        /// The node that says it.
        node: String,
        /// The seek's id.
        id: String,
    },
    /// A message for named players (`None`: every lobby socket).
    Message {
        /// The node that says it.
        node: String,
        /// Who may receive it: names (case-insensitive).
        audience: Option<Vec<String>>,
        /// The message (docs/protocol.md).
        text: String,
    },
    /// A name's first lobby socket on the node opened (`here`), or its last closed.
    Present {
        /// The node that says it.
        node: String,
        /// The name.
        name: String,
        /// Opened rather than closed.
        here: bool,
    },
    /// The node's whole lobby.
    Lobby {
        /// The node that says it.
        node: String,
        /// Its open seeks.
        seeks: Vec<WireSeek>,
        /// The names with a lobby socket open on it.
        present: Vec<String>,
    },
}

impl Note {
    /// The node that wrote it.
    #[must_use]
    pub fn node(&self) -> &str {
        match self {
            Note::Opened { node, .. }
            | Note::Closed { node, .. }
            | Note::Message { node, .. }
            | Note::Present { node, .. }
            | Note::Lobby { node, .. } => node,
        }
    }
}

/// A player, as it crosses the wire ([`Player`]'s fields, its kind as its stored spelling).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WirePlayer {
    /// `user`, `anonymous` or `engine`.
    pub kind: String,
    /// The account, for a user.
    pub user_id: Option<i64>,
    /// The name shown.
    pub name: String,
    /// The engine's level.
    pub engine_level: Option<u8>,
}

impl WirePlayer {
    /// The wire form of `p`.
    #[must_use]
    pub fn of(p: &Player) -> WirePlayer {
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
/// checks who may see it, and shows it as its own node would). The server reads it into its
/// own seek ([`super::Listed`]).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireSeek {
    /// Its id.
    pub id: String,
    /// Who made it.
    pub owner: WirePlayer,
    /// The time control, in the arbiter's text.
    pub time_control: String,
    /// Rated.
    pub rated: bool,
    /// The rule set's label.
    pub rules: String,
    /// The owner's colour: `white`, `black` or `random`.
    pub color: String,
    /// The challenged user's name, for a challenge.
    pub to: Option<String>,
    /// When (Unix ms).
    pub created_at_ms: u64,
    /// The client address it came from.
    pub addr: IpAddr,
}

/// A request to the node that holds a seek.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
pub(crate) enum Ask {
    Accept { seek: String, by: WirePlayer },
    Cancel { seek: String, by: WirePlayer },
}

/// The answer of the node that holds the seek.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "answer", rename_all = "snake_case")]
pub(crate) enum Answer {
    /// Accepted: the game.
    Game { game: String },
    /// Cancelled.
    Cancelled,
    /// Refused, as a local accept or cancel would be.
    Refused { error: SeekRefusal },
}

/// Why a seek's node refused an accept or a cancel, as it crosses the wire: the asking node
/// answers its client with the same status and code as the seek's node would.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[serde(tag = "code", content = "message", rename_all = "snake_case")]
pub enum SeekRefusal {
    /// No such seek is open (any more); the seek's id.
    #[error("seek {0:?} is gone")]
    Gone(String),
    /// Not for this player: why.
    #[error("{0}")]
    Forbidden(String),
    /// Not found: what.
    #[error("not found: {0}")]
    NotFound(String),
    /// The seek's node failed: why.
    #[error("{0}")]
    Internal(String),
}
