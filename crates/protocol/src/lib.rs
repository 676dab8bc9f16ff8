#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod action;
mod client;
mod fields;
mod lobby;
mod new_game;
mod server;
mod variant;

use std::fmt;

use rookery_arbiter::Rejection;

pub use action::{DecodeError, GameAction};
pub use client::{ClientMessage, ParseError, PlayerAction};
pub use fields::{FieldError, FieldValue, Fields, Ply};
pub use lobby::{ClientAddr, ColorChoice, Seek};
pub use new_game::NewLiveGame;
pub use server::{
    Abandoned, ChangeView, ClockView, Dests, EndMessage, EventMessage, FirstMove, GameView,
    LadderView, LevelView, MoveMessage, MoveView, OpeningView, PlayerView, ServerMessage,
    TournamentRef,
};
pub use variant::{Chess960Start, Variant, VariantChoice};

/// A game id: 1 to 16 ASCII letters and digits (the server makes 8).
#[derive(Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GameId(String);

impl GameId {
    /// Reads an id from a URL; `None` for anything that cannot be one.
    pub fn parse(text: &str) -> Option<GameId> {
        let ok = (1..=16).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_alphanumeric());
        ok.then(|| GameId(text.to_owned()))
    }

    /// A fresh random id.
    pub fn random() -> GameId {
        GameId(random_id(8))
    }

    /// The id as text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

/// A short random id of letters and digits, without the ones easily confused (`l`, `I`, `O`,
/// `0`, `1`): game and seek ids.
pub fn random_id(len: usize) -> String {
    const ALPHABET: &[u8] = b"abcdefghijkmnopqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut buf = vec![0u8; len];
    // The OS generator failing is not recoverable in a server that must issue ids.
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    buf.iter().map(|b| ALPHABET[*b as usize % ALPHABET.len()] as char).collect()
}

impl fmt::Display for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Quoted as its text is (`"oHr9PQBx"`): error messages say `game {id:?} not found`, and a
/// client must read the id it sent, not the server's type around it.
impl fmt::Debug for GameId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&self.0, f)
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
        let json = |m: &ServerMessage| -> serde_json::Value {
            serde_json::from_str(&m.to_text()).unwrap()
        };
        let r = json(&ServerMessage::Rejected { refusal: Refusal::Storage, ply: Some(3) });
        assert_eq!((r["t"].as_str(), r["code"].as_str()), (Some("rejected"), Some("storage")));
        assert_eq!(Refusal::Storage.level(), tracing::Level::ERROR);
        let e = json(&ServerMessage::Error(ProtocolError::Parse(ParseError::BadField {
            field: "uci".into(),
            message: "x".into(),
        })));
        assert_eq!((e["code"].as_str(), e["field"].as_str()), (Some("bad_field"), Some("uci")));
    }
}
