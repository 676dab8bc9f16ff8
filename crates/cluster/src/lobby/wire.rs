//! The lobby's messages between nodes, as they cross NATS (JSON): notes, asks and answers,
//! and the seeks and players they carry.

use std::net::IpAddr;

use rookery_arbiter::{RuleSet, TimeControl};
use rookery_protocol::{Chess960Start, ClientAddr, ColorChoice, Seek, VariantChoice};
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
pub(crate) struct WirePlayer {
    kind: String,
    user_id: Option<i64>,
    name: String,
    engine_level: Option<u8>,
}

impl WirePlayer {
    /// The wire form of `p`.
    pub(crate) fn of(p: &Player) -> WirePlayer {
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
pub struct WireSeek {
    id: String,
    owner: WirePlayer,
    time_control: String,
    rated: bool,
    rules: String,
    /// `standard` or `chess960`; absent from nodes of earlier versions, whose seeks are all
    /// standard.
    #[serde(default = "standard")]
    variant: String,
    /// A Chess960 seek's chosen start position, `None` when it is drawn with the game.
    #[serde(default)]
    position: Option<u16>,
    color: String,
    to: Option<String>,
    created_at_ms: u64,
    addr: IpAddr,
}

fn standard() -> String {
    "standard".to_owned()
}

impl WireSeek {
    /// The wire form of `s`.
    #[must_use]
    pub fn of(s: &Seek) -> WireSeek {
        WireSeek {
            id: s.id.clone(),
            owner: WirePlayer::of(&s.owner),
            time_control: s.time_control.to_string(),
            rated: s.rated,
            rules: s.rules.label().to_owned(),
            variant: s.variant.name().to_owned(),
            position: s.variant.number(),
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
        let time_control: TimeControl =
            w.time_control.parse().map_err(|e| bad("time_control", &e))?;
        let rules: RuleSet = w.rules.parse().map_err(|e| bad("rules", &e))?;
        let color = ColorChoice::from_name(&w.color)
            .ok_or_else(|| bad("color", &format!("{:?} is not white, black or random", w.color)))?;
        let owner = Player::try_from(w.owner).map_err(|e| bad("owner", &e))?;
        let start = match w.position {
            None => None,
            Some(n) => Some(Chess960Start::new(n).ok_or_else(|| {
                bad("position", &format!("{n} is not a Chess960 start from 0 to 959"))
            })?),
        };
        let variant = match (w.variant.as_str(), start) {
            ("standard", None) => VariantChoice::Standard,
            ("chess960", start) => VariantChoice::Chess960(start),
            (other, _) => {
                return Err(bad("variant", &format!("{other:?} with position {:?}", w.position)))
            }
        };
        Ok(Seek {
            speed: time_control.speed().name(),
            id,
            owner,
            time_control,
            rated: w.rated,
            rules,
            variant,
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

#[cfg(test)]
mod tests {
    use rookery_store::UserId;

    use super::*;
    use crate::lobby::tests::seek;

    #[test]
    fn a_seek_crosses_the_wire_whole() {
        let mut sent = seek("s1", "ann");
        sent.owner = Player {
            kind: PlayerKind::User,
            user_id: Some(UserId(7)),
            name: "ann".into(),
            engine_level: None,
        };
        sent.to = Some("Bob".into());
        sent.variant = VariantChoice::Chess960(Chess960Start::new(12));
        sent.addr = ClientAddr::from_ip("2001:db8:1:2::7".parse().unwrap());
        let wire = serde_json::to_string(&WireSeek::of(&sent)).unwrap();
        let got = Seek::try_from(serde_json::from_str::<WireSeek>(&wire).unwrap()).unwrap();
        assert_eq!(WireSeek::of(&got), WireSeek::of(&sent), "{wire}");
        assert_eq!(got.speed, sent.speed);
        assert_eq!(got.addr, sent.addr);
        assert!(got.visible_to("bob") && !got.visible_to("cy"));
    }

    #[test]
    fn a_seek_that_does_not_read_names_its_field() {
        let mut wire = WireSeek::of(&seek("s1", "ann"));
        wire.rules = "blitz".into();
        let e = Seek::try_from(wire.clone()).unwrap_err();
        assert!(e.contains("rules") && e.contains(&wire.id), "{e}");
        let mut wire = WireSeek::of(&seek("s1", "ann"));
        wire.owner.user_id = Some(7);
        let e = Seek::try_from(wire).unwrap_err();
        assert!(e.contains("owner") && e.contains("user id"), "{e}");
    }
}
