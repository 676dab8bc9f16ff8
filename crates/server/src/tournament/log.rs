//! The entries of a tournament's log (stored in `tournament_log`): every action of the
//! competition, the arena's events, and the arbiter's decisions that change no pairing but
//! are recorded with their reason (RULES.md §12). Encoded as a kind and JSON data.

use rookery_core::Color;
use rookery_tournament::competition::{Action, BoardResult, EntrantId};
use rookery_tournament::ByeKind;
use serde_json::{json, Value};

/// One entry.
#[derive(Clone, Debug, PartialEq)]
pub enum Entry {
    /// An action of the competition; a `Join` carries the account id.
    Competition(Action, Option<i64>),
    /// The tournament started.
    Start,
    /// Ended early by the arbiter, or at its end.
    End,
    /// Called off.
    Cancel,
    /// Time added to a game's clock.
    AddTime { round: u32, board: u32, color: Color, ms: u64 },
    /// A colour swap the arbiter asked for that came too late: the game goes on.
    SwapDeclined { round: u32, board: u32 },
    /// A player enters the arena (player numbers from 1, in order of first entry).
    ArenaJoin { player: u32, key: String, name: String, user_id: i64, rating: u16 },
    /// A player leaves the arena.
    ArenaLeave { player: u32 },
    /// The arena paired these games (White, Black) at this time.
    ArenaPair { games: Vec<(u32, u32)> },
    /// An arena game ended.
    ArenaResult { game: u32, winner: Option<Color>, plies: u32 },
    /// A player went berserk.
    Berserk { game: u32, player: u32 },
}

fn colour_of(v: &Value) -> Option<Color> {
    match v.as_str()? {
        "white" => Some(Color::White),
        "black" => Some(Color::Black),
        _ => None,
    }
}

pub fn bye_name(k: ByeKind) -> &'static str {
    match k {
        ByeKind::Half => "half",
        ByeKind::Zero => "zero",
        ByeKind::Full => "full",
    }
}

pub fn bye_of(text: &str) -> Option<ByeKind> {
    match text {
        "half" => Some(ByeKind::Half),
        "zero" => Some(ByeKind::Zero),
        "full" => Some(ByeKind::Full),
        _ => None,
    }
}

/// `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`.
pub fn result_name(r: BoardResult) -> &'static str {
    match r {
        BoardResult::WhiteWon => "1-0",
        BoardResult::BlackWon => "0-1",
        BoardResult::Draw => "1/2-1/2",
        BoardResult::WhiteByForfeit => "+-",
        BoardResult::BlackByForfeit => "-+",
        BoardResult::DoubleForfeit => "--",
    }
}

pub fn result_of(text: &str) -> Option<BoardResult> {
    Some(match text {
        "1-0" => BoardResult::WhiteWon,
        "0-1" => BoardResult::BlackWon,
        "1/2-1/2" => BoardResult::Draw,
        "+-" => BoardResult::WhiteByForfeit,
        "-+" => BoardResult::BlackByForfeit,
        "--" => BoardResult::DoubleForfeit,
        _ => return None,
    })
}

impl Entry {
    /// The kind and data stored.
    pub fn encode(&self) -> (&'static str, Value) {
        match self {
            Entry::Competition(action, user_id) => match action {
                Action::Join { key, name, rating, title } => (
                    "join",
                    json!({"key": key, "name": name, "rating": rating, "title": title, "user_id": user_id}),
                ),
                Action::Withdraw { entrant, from_round } => {
                    ("withdraw", json!({"entrant": entrant.0, "round": from_round}))
                }
                Action::Reinstate { entrant } => ("reinstate", json!({"entrant": entrant.0})),
                Action::Bye { entrant, round, kind, requested } => (
                    "bye",
                    json!({"entrant": entrant.0, "round": round, "kind": bye_name(*kind), "requested": requested}),
                ),
                Action::CancelBye { entrant, round } => {
                    ("cancel_bye", json!({"entrant": entrant.0, "round": round}))
                }
                Action::ForbidPair { a, b } => ("forbid_pair", json!({"a": a.0, "b": b.0})),
                Action::AllowPair { a, b } => ("allow_pair", json!({"a": a.0, "b": b.0})),
                Action::Paired { round, boards, pab } => (
                    "paired",
                    json!({"round": round, "boards": boards.iter().map(|(w, b)| [w.0, b.0]).collect::<Vec<_>>(), "pab": pab.map(|p| p.0)}),
                ),
                Action::Publish { round } => ("publish", json!({"round": round})),
                Action::Unpair { round } => ("unpair", json!({"round": round})),
                Action::Result { round, board, result } => (
                    "result",
                    json!({"round": round, "board": board, "result": result_name(*result)}),
                ),
                Action::FixOrder => ("fix_order", json!({})),
                Action::SwapColours { round, board } => {
                    ("swap_colours", json!({"round": round, "board": board}))
                }
            },
            Entry::Start => ("start", json!({})),
            Entry::End => ("end", json!({})),
            Entry::Cancel => ("cancel", json!({})),
            Entry::AddTime { round, board, color, ms } => (
                "add_time",
                json!({"round": round, "board": board, "color": color.name(), "ms": ms}),
            ),
            Entry::SwapDeclined { round, board } => {
                ("swap_declined", json!({"round": round, "board": board}))
            }
            Entry::ArenaJoin { player, key, name, user_id, rating } => (
                "arena_join",
                json!({"player": player, "key": key, "name": name, "user_id": user_id, "rating": rating}),
            ),
            Entry::ArenaLeave { player } => ("arena_leave", json!({"player": player})),
            Entry::ArenaPair { games } => ("arena_pair", json!({"games": games})),
            Entry::ArenaResult { game, winner, plies } => (
                "arena_result",
                json!({"game": game, "winner": winner.map(Color::name), "plies": plies}),
            ),
            Entry::Berserk { game, player } => ("berserk", json!({"game": game, "player": player})),
        }
    }

    /// Reads back what [`Entry::encode`] wrote; `None` for what does not read.
    pub fn decode(kind: &str, data: &str) -> Option<Entry> {
        let d: Value = serde_json::from_str(data).ok()?;
        let u = |k: &str| d.get(k).and_then(Value::as_u64).map(|v| v as u32);
        let e = |k: &str| u(k).map(EntrantId);
        let action = match kind {
            "join" => {
                let action = Action::Join {
                    key: d["key"].as_str()?.to_owned(),
                    name: d["name"].as_str()?.to_owned(),
                    rating: d["rating"].as_u64().map(|r| r as u16),
                    title: d["title"].as_str().map(str::to_owned),
                };
                return Some(Entry::Competition(action, d["user_id"].as_i64()));
            }
            "withdraw" => Action::Withdraw { entrant: e("entrant")?, from_round: u("round")? },
            "reinstate" => Action::Reinstate { entrant: e("entrant")? },
            // Written before issue 51 without `requested`: every bye then counted.
            "bye" => Action::Bye {
                entrant: e("entrant")?,
                round: u("round")?,
                kind: bye_of(d["kind"].as_str()?)?,
                requested: d.get("requested").and_then(Value::as_bool).unwrap_or(true),
            },
            "cancel_bye" => Action::CancelBye { entrant: e("entrant")?, round: u("round")? },
            "forbid_pair" => Action::ForbidPair { a: e("a")?, b: e("b")? },
            "allow_pair" => Action::AllowPair { a: e("a")?, b: e("b")? },
            "paired" => Action::Paired {
                round: u("round")?,
                boards: d["boards"]
                    .as_array()?
                    .iter()
                    .map(|p| {
                        Some((
                            EntrantId(p.get(0)?.as_u64()? as u32),
                            EntrantId(p.get(1)?.as_u64()? as u32),
                        ))
                    })
                    .collect::<Option<Vec<_>>>()?,
                pab: e("pab"),
            },
            "publish" => Action::Publish { round: u("round")? },
            "unpair" => Action::Unpair { round: u("round")? },
            "result" => Action::Result {
                round: u("round")?,
                board: u("board")?,
                result: result_of(d["result"].as_str()?)?,
            },
            "fix_order" => Action::FixOrder,
            "swap_colours" => Action::SwapColours { round: u("round")?, board: u("board")? },
            "start" => return Some(Entry::Start),
            "end" => return Some(Entry::End),
            "cancel" => return Some(Entry::Cancel),
            "add_time" => {
                let color = match d["color"].as_str()? {
                    "white" => Color::White,
                    _ => Color::Black,
                };
                return Some(Entry::AddTime {
                    round: u("round")?,
                    board: u("board")?,
                    color,
                    ms: d["ms"].as_u64()?,
                });
            }
            "swap_declined" => {
                return Some(Entry::SwapDeclined { round: u("round")?, board: u("board")? })
            }
            "arena_join" => {
                return Some(Entry::ArenaJoin {
                    player: u("player")?,
                    key: d["key"].as_str()?.to_owned(),
                    name: d["name"].as_str()?.to_owned(),
                    user_id: d["user_id"].as_i64()?,
                    rating: d["rating"].as_u64()? as u16,
                })
            }
            "arena_leave" => return Some(Entry::ArenaLeave { player: u("player")? }),
            "arena_pair" => {
                let games = d["games"]
                    .as_array()?
                    .iter()
                    .map(|p| Some((p.get(0)?.as_u64()? as u32, p.get(1)?.as_u64()? as u32)))
                    .collect::<Option<Vec<_>>>()?;
                return Some(Entry::ArenaPair { games });
            }
            "arena_result" => {
                return Some(Entry::ArenaResult {
                    game: u("game")?,
                    winner: colour_of(&d["winner"]),
                    plies: u("plies")?,
                })
            }
            "berserk" => return Some(Entry::Berserk { game: u("game")?, player: u("player")? }),
            _ => return None,
        };
        Some(Entry::Competition(action, None))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn entries_round_trip() {
        let entries = [
            Entry::Competition(
                Action::Join {
                    key: "ann".into(),
                    name: "Ann".into(),
                    rating: Some(1500),
                    title: None,
                },
                Some(3),
            ),
            Entry::Competition(
                Action::Paired {
                    round: 2,
                    boards: vec![(EntrantId(0), EntrantId(3))],
                    pab: Some(EntrantId(1)),
                },
                None,
            ),
            Entry::Competition(
                Action::Result { round: 2, board: 1, result: BoardResult::BlackByForfeit },
                None,
            ),
            Entry::Competition(Action::AllowPair { a: EntrantId(2), b: EntrantId(5) }, None),
            Entry::Competition(
                Action::Bye {
                    entrant: EntrantId(4),
                    round: 3,
                    kind: ByeKind::Zero,
                    requested: false,
                },
                None,
            ),
            Entry::AddTime { round: 1, board: 2, color: Color::Black, ms: 60_000 },
            Entry::ArenaPair { games: vec![(1, 2), (4, 3)] },
            Entry::ArenaResult { game: 3, winner: None, plies: 40 },
            Entry::Berserk { game: 3, player: 4 },
        ];
        for entry in entries {
            let (kind, data) = entry.encode();
            assert_eq!(Entry::decode(kind, &data.to_string()), Some(entry), "{kind}");
        }
    }

    #[test]
    fn a_bye_stored_without_requested_counts_as_asked_for() {
        let bye =
            Action::Bye { entrant: EntrantId(2), round: 4, kind: ByeKind::Half, requested: true };
        let stored = r#"{"entrant":2,"round":4,"kind":"half"}"#;
        assert_eq!(Entry::decode("bye", stored), Some(Entry::Competition(bye, None)));
    }
}
