//! A team event's request bodies (docs/api.md, *Teams*; issue 54), read at the edge: the
//! team regulations of the creation request, a roster, a line-up.

use rookery_competitions::settings::{team_tiebreak, Format, TeamPrimary, TeamSettings};
use serde_json::Value;

use super::fields::{free_text, round_field};
use crate::error::FromBody;
use crate::protocol::{FieldError, Fields};

/// A team event's regulations (docs/api.md, *Teams*): `boards` (4), `reserves` (2),
/// `primary` (`match_points` or `game_points`), `tiebreaks` (team codes of C.07: `MP`, `GP`,
/// `SB`, `BH`, `DE`), `board_prize_min_games` (0), `lineup_deadline_s` (0); each refused
/// naming its field, and for another format.
pub(super) fn team_of(
    f: &mut Fields,
    format: Format,
    over_the_board: bool,
    rated: bool,
) -> Result<Option<TeamSettings>, FieldError> {
    let fields = ["boards", "reserves", "primary", "board_prize_min_games", "lineup_deadline_s"];
    if !format.is_team() {
        return match fields.into_iter().find(|n| f.has(n)) {
            Some(name) => Err(FieldError::field(name, "only a team event has it")),
            None => Ok(None),
        };
    }
    // Over the board each board's game is played in the hall and its result typed at the
    // desk: no game of the site, so no §11 points could follow. Online each board is a live
    // game, rated as the event says.
    if rated && over_the_board {
        return Err(FieldError::field("rated", "a team event over the board is not rated yet"));
    }
    let number = |f: &mut Fields, name: &'static str, default: i64, max: i64| {
        let n: i64 = f.opt(name)?.unwrap_or(default);
        if !(0..=max).contains(&n) {
            return Err(FieldError::field(name, format!("0 to {max}, not {n}")));
        }
        Ok(n)
    };
    let boards = number(f, "boards", 4, 20)?;
    if boards == 0 {
        return Err(FieldError::field("boards", "1 to 20, not 0"));
    }
    let reserves = number(f, "reserves", 2, 10)?;
    let primary = match f.opt::<String>("primary")? {
        None => TeamPrimary::MatchPoints,
        Some(text) => TeamPrimary::parse(&text).ok_or_else(|| {
            FieldError::field("primary", format!("match_points or game_points, not {text:?}"))
        })?,
    };
    let tiebreaks = match f.opt::<Value>("tiebreaks")? {
        None | Some(Value::Null) => TeamSettings::default_tiebreaks(primary),
        Some(Value::Array(items)) => items
            .iter()
            .map(|item| {
                item.as_str().filter(|c| team_tiebreak(c).is_some()).map(str::to_owned).ok_or_else(
                    || {
                        FieldError::field(
                            "tiebreaks",
                            format!("a team event's codes are MP, GP, SB, BH and DE, not {item}"),
                        )
                    },
                )
            })
            .collect::<Result<_, _>>()?,
        Some(other) => {
            return Err(FieldError::field(
                "tiebreaks",
                format!("a list of team codes (MP, GP, SB, BH, DE), not {other}"),
            ))
        }
    };
    let board_prize_min_games = number(f, "board_prize_min_games", 0, 99)?;
    let lineup_deadline_s = number(f, "lineup_deadline_s", 0, 86_400)?;
    Ok(Some(TeamSettings {
        boards: boards as u32,
        reserves: reserves as u32,
        primary,
        tiebreaks,
        board_prize_min_games: board_prize_min_games as u32,
        lineup_deadline_s: lineup_deadline_s as u64,
    }))
}

/// A team's roster: `players`, a list of names or of `{"name","rating"}`, board order first.
pub(super) fn roster_of(f: &mut Fields) -> Result<Vec<(String, Option<u16>)>, FieldError> {
    let list = match f.req::<Value>("players")? {
        Value::Array(list) if !list.is_empty() && list.len() <= 40 => list,
        other => {
            return Err(FieldError::field(
                "players",
                format!(
                    "a list of 1 to 40 players (names or {{\"name\",\"rating\"}}), not {other}"
                ),
            ))
        }
    };
    list.into_iter()
        .enumerate()
        .map(|(i, v)| {
            let bad = |m: &str| FieldError::field("players", format!("player {}: {m}", i + 1));
            let (name, rating) = match &v {
                Value::String(name) => (name.as_str(), None),
                Value::Object(o) => (
                    o.get("name").and_then(Value::as_str).unwrap_or_default(),
                    o.get("rating").filter(|r| !r.is_null()),
                ),
                _ => return Err(bad("a name or {\"name\",\"rating\"}")),
            };
            let name = name.trim();
            if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
                return Err(bad("a name of 1 to 100 characters, without control characters"));
            }
            let rating = match rating {
                None => None,
                Some(r) => match r.as_u64() {
                    Some(r @ 0..=3500) => Some(r as u16).filter(|&r| r > 0),
                    _ => return Err(bad(&format!("a rating from 0 to 3500, not {r}"))),
                },
            };
            Ok((name.to_owned(), rating))
        })
        .collect()
}

/// `{"round":2,"team":"…","players":["…",…]}`: a team's line-up, board 1 first.
pub struct LineUpBody {
    /// The round.
    pub round: u32,
    /// The team, by name.
    pub team: String,
    /// The players, by name.
    pub players: Vec<String>,
}

impl FromBody for LineUpBody {
    fn from_fields(f: &mut Fields) -> Result<LineUpBody, FieldError> {
        let round = round_field(f, "round")?;
        let team = free_text(f, "team")?
            .filter(|t| !t.trim().is_empty())
            .ok_or_else(|| FieldError::field("team", "missing: the team's name"))?;
        let players = roster_of(f)?.into_iter().map(|(name, _)| name).collect();
        Ok(LineUpBody { round, team, players })
    }
}
