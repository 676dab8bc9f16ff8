//! The game protocol in one place (docs/protocol.md): what clients send
//! ([`ClientMessage`], read at the edge into typed values), what the server answers
//! ([`ServerMessage`], [`Refusal`], [`ProtocolError`]), and the [`GameAction`] that is at once
//! an accepted request, a stored log entry and a replay input. HTTP bodies are read with the
//! same [`Fields`].

mod action;
mod client;
mod fields;

use std::fmt;

use rookery_arbiter::Rejection;
use rookery_core::Color;
use serde_json::{json, Value};

pub use action::{DecodeError, GameAction};
pub use client::{ClientMessage, MoveText, ParseError, PlayerAction};
pub use fields::{FieldError, FieldValue, Fields, Ply};

/// A game id: 1 to 16 ASCII letters and digits (the server makes 8).
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(String);

impl GameId {
    /// Reads an id from a URL; `None` for anything that cannot be one.
    pub fn parse(text: &str) -> Option<GameId> {
        let ok = (1..=16).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric());
        ok.then(|| GameId(text.to_owned()))
    }

    /// A fresh random id.
    pub fn random() -> GameId {
        GameId(crate::state::random_id(8))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Why the server refused an action: sent to its sender as `rejected`. Nothing changed,
/// except what `event` messages say (an illegal move counted).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// The arbiter's reason (§2–§10).
    Arbiter(Rejection),
    /// The `ply` sent is not the current one: replayed, or crossed by a move.
    StalePly {
        /// The game's ply.
        current: usize,
        /// What the message said.
        sent: Option<usize>,
    },
    /// Only players act.
    Spectator,
    /// The opponent is here, or has not been gone long enough.
    NotAbandoned,
    /// Before both sides have moved an absent opponent means abort, not a claim.
    NotStarted,
    /// The game is over.
    GameOver,
    /// The action could not be stored; nothing happened.
    Storage,
}

impl Refusal {
    /// The protocol's code.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Arbiter(r) => rejection_code(r),
            Refusal::StalePly { .. } => "stale_ply",
            Refusal::Spectator => "spectator",
            Refusal::NotAbandoned => "not_abandoned",
            Refusal::NotStarted => "not_started",
            Refusal::GameOver => "game_over",
            Refusal::Storage => "storage",
        }
    }

    /// How loud the log should be: a storage failure is the server's fault.
    pub fn level(&self) -> tracing::Level {
        match self {
            Refusal::Storage => tracing::Level::ERROR,
            _ => tracing::Level::DEBUG,
        }
    }
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::Arbiter(r) => r.fmt(f),
            Refusal::StalePly { current, sent: Some(sent) } => {
                write!(f, "the game is at ply {current}, not {sent}")
            }
            Refusal::StalePly { current, sent: None } => {
                write!(f, "the game is at ply {current}; send the ply you saw")
            }
            Refusal::Spectator => f.write_str("spectators cannot act in the game"),
            Refusal::NotAbandoned => {
                f.write_str("your opponent is here, or has not been gone long enough")
            }
            Refusal::NotStarted => f.write_str(
                "the game has not started: until both sides have moved, a game without its \
                 opponent is aborted, not won",
            ),
            Refusal::GameOver => f.write_str("the game is over"),
            Refusal::Storage => f.write_str("the server could not store the action; try again"),
        }
    }
}

/// The protocol code of an arbiter rejection.
pub fn rejection_code(r: &Rejection) -> &'static str {
    match r {
        Rejection::GameOver => "game_over",
        Rejection::NotYourTurn => "not_your_turn",
        Rejection::Unreadable(_) => "unreadable",
        Rejection::NotAMove(_) => "not_a_move",
        Rejection::Ambiguous(_) => "ambiguous",
        Rejection::Illegal(_) => "illegal",
        Rejection::TouchMove(_) => "touch_move",
        Rejection::OfferNotAllowed(_) => "offer_not_allowed",
        Rejection::NoOfferPending => "no_offer_pending",
        Rejection::ClaimsNotUsed => "claims_not_used",
        Rejection::ClaimIncorrect(_) => "claim_incorrect",
        Rejection::TooLateToAbort => "too_late_to_abort",
        Rejection::TakebacksNotAllowed => "takebacks_not_allowed",
        Rejection::NoTakeback => "no_takeback",
        Rejection::TakebackPending => "takeback_pending",
    }
}

/// Why a message was refused before it reached the game: sent as `error`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolError {
    /// Not read: bad JSON, an unknown type or a bad field.
    Parse(ParseError),
    /// Larger than the message limit.
    TooLarge {
        /// The limit in bytes.
        max: usize,
    },
    /// Too many messages.
    RateLimited,
    /// A binary frame: the protocol is text.
    Binary,
}

impl ProtocolError {
    /// The protocol's code.
    pub fn code(&self) -> &'static str {
        match self {
            ProtocolError::Parse(ParseError::BadJson(_)) | ProtocolError::Binary => "bad_json",
            ProtocolError::Parse(ParseError::UnknownType(_)) => "unknown_type",
            ProtocolError::Parse(ParseError::BadField { .. }) => "bad_field",
            ProtocolError::TooLarge { .. } => "too_large",
            ProtocolError::RateLimited => "rate_limited",
        }
    }
}

impl fmt::Display for ProtocolError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProtocolError::Parse(ParseError::BadJson(why)) => write!(f, "bad JSON: {why}"),
            ProtocolError::Parse(ParseError::UnknownType(t)) => {
                write!(f, "unknown message type {t:?}")
            }
            ProtocolError::Parse(ParseError::BadField { field, message }) => {
                write!(f, "field {field}: {message}")
            }
            ProtocolError::TooLarge { max } => write!(f, "a message may have at most {max} bytes"),
            ProtocolError::RateLimited => {
                f.write_str("too many messages to this game from you, over all your sockets")
            }
            ProtocolError::Binary => f.write_str("binary frames are not used"),
        }
    }
}

/// The messages a connection sends to its own client (broadcasts are built in the actor).
#[derive(Clone, Debug, PartialEq)]
pub enum ServerMessage {
    /// The full state, first on every connection.
    Hello {
        /// The client's colour, `None` for a spectator.
        you: Option<Color>,
        /// The `game` object.
        game: Value,
    },
    /// The full state again.
    State {
        /// The `game` object.
        game: Value,
    },
    /// An action refused.
    Rejected {
        /// Why.
        refusal: Refusal,
        /// The game's ply, when known.
        ply: Option<usize>,
    },
    /// A message refused.
    Error(ProtocolError),
    /// The answer to `ping`.
    Pong {
        /// The server's clock (Unix ms).
        server_ms: u64,
    },
}

impl ServerMessage {
    /// The message as JSON.
    pub fn to_json(&self) -> Value {
        match self {
            ServerMessage::Hello { you, game } => {
                json!({ "t": "hello", "you": you.map(Color::name), "game": game })
            }
            ServerMessage::State { game } => json!({ "t": "state", "game": game }),
            ServerMessage::Rejected { refusal, ply } => json!({
                "t": "rejected", "code": refusal.code(), "message": refusal.to_string(), "ply": ply,
            }),
            ServerMessage::Error(e) => {
                let mut v = json!({ "t": "error", "code": e.code(), "message": e.to_string() });
                if let ProtocolError::Parse(ParseError::BadField { field, .. }) = e {
                    v["field"] = Value::from(field.as_str());
                }
                v
            }
            ServerMessage::Pong { server_ms } => json!({ "t": "pong", "server_ms": server_ms }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_ids() {
        assert!(GameId::parse("k3Xq9TzA").is_some());
        for bad in ["", "..%2F", "a b", "x".repeat(17).as_str(), "é"] {
            assert!(GameId::parse(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn every_refusal_has_its_code() {
        let r = ServerMessage::Rejected { refusal: Refusal::Storage, ply: Some(3) }.to_json();
        assert_eq!(r["code"], "storage");
        assert_eq!(Refusal::Storage.level(), tracing::Level::ERROR);
        let e = ServerMessage::Error(ProtocolError::Parse(ParseError::BadField {
            field: "uci".into(),
            message: "x".into(),
        }))
        .to_json();
        assert_eq!((e["code"].as_str(), e["field"].as_str()), (Some("bad_field"), Some("uci")));
    }
}
