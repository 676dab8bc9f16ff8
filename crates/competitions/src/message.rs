//! Every message of the tournament socket (docs/protocol.md, "Tournament socket"), and the
//! lobby's notice of a new tournament game: one enum, written by serde, so that a new message
//! is a new variant and the golden file (`tests/data/tournament/views.txt`) lists it.

use std::sync::Arc;

use rookery_core::Color;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::book::Tour;
use super::log_view::LogEntryView;
use super::settings::Format;
use super::view::{RoundView, TournamentView};

/// A message the tournament socket sends.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "t", rename_all = "snake_case")]
pub enum TournamentMessage {
    /// The whole state: first on every connection, and again when it changed (at most once a
    /// second).
    Tournament {
        /// As `GET /api/v1/tournaments/{id}` shows it.
        tournament: Arc<TournamentView>,
    },
    /// A round paired, published, or unpaired (`state: "unpaired"`, `boards: []`).
    RoundPaired(RoundView),
    /// To the player's sockets only: a game of theirs was created.
    YourGame(YourGame),
    /// A board's result: a game ended, a forfeit, the arbiter's declaration or correction.
    Result(ResultNews),
    /// The tournament's time: on connection and at each change of status.
    Clock(Clock),
    /// An entry of the audit log.
    Log {
        /// As `log[]` shows it.
        entry: Box<LogEntryView>,
    },
    /// The answer to `ping`.
    Pong {
        /// The server's clock (Unix ms).
        server_ms: u64,
    },
    /// A message refused.
    Error(SocketError),
}

impl TournamentMessage {
    /// The JSON text sent.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("messages are plain data")
    }
}

/// A game of the player's: `your_game` on the tournament socket.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YourGame {
    /// The round (none in an arena).
    pub round: Option<u32>,
    /// The board (an arena: the game number).
    pub board: u32,
    /// The game id.
    pub game: String,
    /// The player's colour.
    #[serde(serialize_with = "color_name")]
    pub color: Color,
    /// The opponent's name.
    pub opponent: String,
}

/// `tournament_game` on the lobby socket: a game of the player's was created.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "t", rename = "tournament_game")]
pub struct GameNotice {
    /// The tournament id.
    pub tournament: String,
    /// The tournament's name.
    pub name: String,
    /// The game.
    #[serde(flatten)]
    pub game: YourGame,
}

impl GameNotice {
    /// The JSON text sent.
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).expect("messages are plain data")
    }
}

fn color_name<S: Serializer>(c: &Color, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(c.name())
}

/// A board's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultNews {
    /// The round (none in an arena).
    pub round: Option<u32>,
    /// The board (an arena: the game number).
    pub board: u32,
    /// The game id.
    pub game: String,
    /// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--` (an arena's: the game's result).
    pub result: &'static str,
    /// Unplayed.
    pub forfeit: bool,
    /// The arbiter's declaration or correction.
    pub corrected: bool,
}

/// The tournament's time.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Clock {
    /// `upcoming`, `running`, `finished`, `cancelled`.
    pub status: &'static str,
    /// The last round paired (none in an arena).
    pub round: Option<usize>,
    /// The start: scheduled, or when it started.
    pub starts_at_ms: Option<u64>,
    /// An arena's end.
    pub ends_at_ms: Option<u64>,
    /// When an arena stops pairing.
    pub pairing_closes_at_ms: Option<u64>,
    /// The server's clock (Unix ms).
    pub server_ms: u64,
}

/// Why the socket refused a message.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SocketError {
    /// Over the shared message budget.
    RateLimited,
    /// Anything but `ping`.
    UnknownType,
}

impl SocketError {
    /// The machine code.
    pub fn code(self) -> &'static str {
        match self {
            SocketError::RateLimited => "rate_limited",
            SocketError::UnknownType => "unknown_type",
        }
    }

    /// The words.
    pub fn message(self) -> &'static str {
        match self {
            SocketError::RateLimited => "too many messages on this tournament's sockets",
            SocketError::UnknownType => "only ping is spoken here",
        }
    }
}

/// `{"code":…,"message":…}`, as on the other sockets.
impl Serialize for SocketError {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let mut e = s.serialize_struct("SocketError", 2)?;
        e.serialize_field("code", self.code())?;
        e.serialize_field("message", self.message())?;
        e.end()
    }
}

impl Tour {
    /// The `clock` message at `now` (Unix ms).
    pub fn clock(&self, now: u64) -> Clock {
        let arena = self.book.arena.as_ref().map(|a| *a.settings());
        Clock {
            status: self.book.status.as_str(),
            round: (self.settings.format != Format::Arena).then(|| self.book.comp.rounds().len()),
            starts_at_ms: self.book.started_at.or(self.settings.starts_at_ms),
            ends_at_ms: arena.map(|a| a.ends_at()),
            pairing_closes_at_ms: arena.map(|a| a.pairing_closes_at()),
            server_ms: now,
        }
    }

    /// The `round_paired` message of a round (its view without `absent`).
    pub fn round_message(&self, round: u32) -> Option<TournamentMessage> {
        let view = self.round_view(round)?;
        Some(TournamentMessage::RoundPaired(RoundView { absent: None, ..view }))
    }
}
