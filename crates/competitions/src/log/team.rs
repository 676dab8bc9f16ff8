//! A team event's log entries (RULES.md §12, *Teams*; issue 54): the teams registered with
//! their rosters and captains, each round's line-ups, pairings and board results. Teams are
//! numbered in their registration order until the start, and in their initial order (by
//! rating, C.04.6 "initial team order") from the start on: every entry written after the
//! start numbers teams that way.

use rookery_tournament::competition::BoardResult;
use serde::{Deserialize, Serialize};

/// `team`: a team registered at the desk or by an imported list, before the start.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRegistered {
    /// The team's name, unique in the event.
    pub name: String,
    /// The roster in board order, the reserves after the boards.
    pub players: Vec<RosterPlayer>,
    /// The captain's account, if one is named.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub captain: Option<Captain>,
}

/// One player of a roster.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RosterPlayer {
    /// The name, unique in the event.
    pub name: String,
    /// The rating, if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u16>,
    /// Online: the player's account (the name is its name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user_id: Option<i64>,
}

/// A captain: a site account, who may enter the team's line-ups.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Captain {
    /// The account name in lower case.
    pub key: String,
    /// The account.
    pub user_id: i64,
}

/// `team_captain`: team `team`'s captain is this account from now on.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamCaptain {
    /// The team number.
    pub team: u32,
    /// The account.
    #[serde(flatten)]
    pub captain: Captain,
}

/// `line_up`: the players team `team` fields in round `round`, board 1 first, as roster
/// positions (from 1); valid when it keeps the roster's order (RULES.md §12).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineUpEntry {
    /// The round.
    pub round: u32,
    /// The team number.
    pub team: u32,
    /// Roster positions from 1, board 1 first.
    pub players: Vec<u32>,
}

/// `team_paired`: a round's matches, each (the team with White on board 1, the other), table
/// 1 first, and the team with the pairing-allocated bye.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPaired {
    /// The round.
    pub round: u32,
    /// (White on board 1, Black on board 1) team numbers, match 1 first.
    pub matches: Vec<(u32, u32)>,
    /// The pairing-allocated bye.
    #[serde(default)]
    pub bye: Option<u32>,
}

/// `team_round_on`: online, the round's games are created (at its line-up deadline): the
/// line-ups are fixed from now on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamRoundOn {
    /// The round.
    pub round: u32,
}

/// `team_result`: board `board` of match `number` of round `round`, from the view of the
/// board's White (the desk's `3.2 1-0`); a second one for a board is the arbiter's correction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamResult {
    /// The round.
    pub round: u32,
    /// The match in its round, from 1.
    pub number: u32,
    /// The board, from 1.
    pub board: u32,
    /// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`.
    #[serde(with = "crate::log::result_text")]
    pub result: BoardResult,
}

/// `team_absent`: the desk marks team `team` absent (it did not turn up) or present again.
/// While absent a team Swiss does not pair it, and its match in a round paired (a round
/// robin pairs it by the tables) is lost by forfeit on every board without a result, each
/// board the desk's `+-`/`-+`: match points 0–2, game points 0 to the boards (issue 54).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamAbsent {
    /// The team number.
    pub team: u32,
    /// Absent (`false`: present again).
    pub absent: bool,
}

/// `forbid_team_pair` / `allow_team_pair`: teams `a` and `b` must not meet (two teams of one
/// club or school, as regulations often say), or may again. A team Swiss only: a round
/// robin's tables are fixed. Before the start the numbers are the registration order, and
/// the start renumbers the pair with its teams.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamPair {
    /// One team's number.
    pub a: u32,
    /// The other's.
    pub b: u32,
}

/// `team_unpair`: the last round paired taken back before any of its boards has a result, so
/// that it is paired again (after a late line-up, a team marked absent, a pair forbidden).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamUnpair {
    /// The round.
    pub round: u32,
}
