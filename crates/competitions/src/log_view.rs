//! A log entry as the views show it: its stored fields with the names of the players it
//! numbers. The book makes them ([`crate::book::Book::log_names`]) and keeps them in
//! [`crate::Tour`]; the views and messages carry them.

use serde::Serialize;

use crate::log::EntryData;

/// One log entry as shown (`log[]`, and the `log` message).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogEntryView {
    /// Its place.
    pub seq: i64,
    /// When.
    pub at_ms: i64,
    /// Who (none: the server).
    pub by: Option<String>,
    /// The entry's kind.
    pub action: String,
    /// Its stored fields, with the players' names.
    pub detail: LogDetail,
    /// The arbiter's reason.
    pub reason: Option<String>,
}

/// A log entry's stored fields with the players' names beside their numbers (docs/api.md,
/// `log[]`; the numbers stay, for readers written before the names).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct LogDetail {
    /// The stored fields.
    #[serde(flatten)]
    pub data: EntryData,
    /// The names.
    #[serde(flatten)]
    pub names: LogNames,
}

/// The names beside an entry's numbers: `name` beside an `entrant` or an arena `player`,
/// `a_name` and `b_name`, a pairing's `board_names` and `pab_name`, an arena pairing's
/// `names`, a list's `entrant_names`. A number without a player has no name.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct LogNames {
    /// Beside `entrant` or `player`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// Beside `a`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub a_name: Option<String>,
    /// Beside `b`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub b_name: Option<String>,
    /// Beside a pairing's `boards`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board_names: Option<Vec<[Option<String>; 2]>>,
    /// Beside a pairing's `pab`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pab_name: Option<String>,
    /// Beside an arena pairing's `games`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub names: Option<Vec<[Option<String>; 2]>>,
    /// Beside a list's `entrants`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub entrant_names: Option<Vec<Option<String>>>,
}
