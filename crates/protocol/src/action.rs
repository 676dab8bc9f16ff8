//! The game's action log: every action that changed a live game is appended (kind, JSON data
//! and the game-time stamp) before anyone is told, and a restarted server replays the log
//! through the same arbiter calls to rebuild the game exactly.
//!
//! A [`GameAction`] is at once the accepted request (a [`PlayerAction`] and its player), the
//! stored entry and the replay input. The stored layout is the one the server has always
//! written (`kind` = `move`, data `{"by":"white","uci":"e2e4","offer_draw":false}`), so game
//! logs stored by earlier versions replay unchanged.

use std::fmt;

use rookery_arbiter::{ActionResult, Game, GameResult, MoveInput, Outcome, Termination};
use rookery_core::Color;
use serde_json::{Map, Value};

use super::client::PlayerAction;
use super::fields::{FieldError, Fields};

/// One entry of a game's action log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameAction {
    /// What a player did.
    Player {
        /// Who.
        by: Color,
        /// What.
        action: PlayerAction,
        /// A move's lag allowance (docs/protocol.md), in ms: the mover's clock stopped this
        /// long before the stamp, at which the opponent's started ([`Game::play_after_lag`]).
        /// Stored (`lag_ms`, written when not 0) so that a replay charges the same times;
        /// 0 for other actions and in logs of earlier versions, whose stamps were the
        /// allowance-corrected times themselves.
        lag_ms: u64,
    },
    /// A deadline passed: a flag fell, or a first move was not made in time.
    Flag,
    /// Ended by the server (a player abandoned the game and the opponent claimed).
    Adjudicate(Outcome),
    /// A competition's arbiter added time to a clock (RULES.md §12).
    AddTime {
        /// Whose clock.
        color: Color,
        /// How much, in ms.
        ms: u64,
    },
    /// A player went berserk in an arena game: half their time.
    Berserk {
        /// Who.
        color: Color,
    },
    /// The server stopped in order; the clocks stand from here.
    Pause,
    /// A server (re)started serving the game; game time resumes from this action's stamp.
    Resume {
        /// The server's wall clock (Unix ms) at that stamp: wall time less game time is the
        /// outage the game has been credited so far, which the next owner needs to charge a
        /// dead owner's last seconds (issue 39). `None` in logs of earlier versions.
        wall_ms: Option<u64>,
    },
}

/// A stored entry that cannot be read back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodeError {
    /// The entry's kind.
    pub kind: String,
    /// What is wrong.
    pub why: String,
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "stored action {:?}: {}", self.kind, self.why)
    }
}

impl std::error::Error for DecodeError {}

impl GameAction {
    /// The store's `kind` and `data` (the JSON of the other fields).
    pub fn encode(&self) -> (&'static str, String) {
        let mut data = Map::new();
        let kind = match self {
            GameAction::Player { by, action, lag_ms } => {
                data = action.fields_json();
                data.insert("by".into(), Value::from(by.name()));
                if *lag_ms > 0 {
                    data.insert("lag_ms".into(), Value::from(*lag_ms));
                }
                action.name()
            }
            GameAction::Flag => "flag",
            GameAction::Adjudicate(o) => {
                data.insert("result".into(), Value::from(o.result.as_str()));
                data.insert("termination".into(), Value::from(o.termination.label()));
                "adjudicate"
            }
            GameAction::AddTime { color, ms } => {
                data.insert("color".into(), Value::from(color.name()));
                data.insert("ms".into(), Value::from(*ms));
                "add_time"
            }
            GameAction::Berserk { color } => {
                data.insert("color".into(), Value::from(color.name()));
                "berserk"
            }
            GameAction::Pause => "pause",
            GameAction::Resume { wall_ms } => {
                if let Some(wall) = wall_ms {
                    data.insert("wall_ms".into(), Value::from(*wall));
                }
                "resume"
            }
        };
        (kind, Value::Object(data).to_string())
    }

    /// Reads back what [`GameAction::encode`] wrote, in this version or an earlier one.
    ///
    /// # Errors
    /// [`DecodeError`] for data that is not an action of that kind.
    pub fn decode(kind: &str, data: &str) -> Result<GameAction, DecodeError> {
        let err = |why: String| DecodeError { kind: kind.to_owned(), why };
        let mut f = Fields::parse(if data.is_empty() { b"{}" } else { data.as_bytes() })
            .map_err(|e| err(e.to_string()))?;
        let action = match kind {
            "flag" => GameAction::Flag,
            "pause" => GameAction::Pause,
            "resume" => {
                let wall: Option<i64> = f.opt("wall_ms").map_err(|e| err(e.to_string()))?;
                GameAction::Resume { wall_ms: wall.map(|w| w.max(0) as u64) }
            }
            "add_time" => {
                let color: Color = f.req("color").map_err(|e| err(e.to_string()))?;
                let ms: i64 = f.req("ms").map_err(|e| err(e.to_string()))?;
                GameAction::AddTime { color, ms: ms.max(0) as u64 }
            }
            "berserk" => {
                let color: Color = f.req("color").map_err(|e| err(e.to_string()))?;
                GameAction::Berserk { color }
            }
            "adjudicate" => {
                let result: String = f.req("result").map_err(|e| err(e.to_string()))?;
                let termination: String = f.req("termination").map_err(|e| err(e.to_string()))?;
                let result: GameResult = result.parse().map_err(|e| err(format!("{e}")))?;
                let termination = Termination::from_label(&termination)
                    .ok_or_else(|| err(format!("unknown termination {termination:?}")))?;
                GameAction::Adjudicate(Outcome { result, termination })
            }
            _ => {
                let by: Color = f.req("by").map_err(|e| err(e.to_string()))?;
                let lag: Option<i64> = f.opt("lag_ms").map_err(|e| err(e.to_string()))?;
                let action = PlayerAction::from_fields(kind, &mut f)
                    .map_err(|e: FieldError| err(e.to_string()))?
                    .ok_or_else(|| err("unknown kind".into()))?;
                GameAction::Player { by, action, lag_ms: lag.map_or(0, |l| l.max(0) as u64) }
            }
        };
        f.finish().map_err(|e| err(e.to_string()))?;
        Ok(action)
    }

    /// Applies the action to `game` at game time `now` through the arbiter. `Pause` and
    /// `Resume` do not touch the game.
    pub fn apply(&self, game: &mut Game, now: u64) -> ActionResult {
        let GameAction::Player { by, action, lag_ms } = self else {
            return Ok(match self {
                GameAction::Flag => game.poll(now),
                GameAction::Adjudicate(o) => game.adjudicate(o.result, o.termination, now),
                GameAction::AddTime { color, ms } => {
                    return game.arbiter_add_time(*color, *ms, now)
                }
                GameAction::Berserk { color } => return game.berserk(*color, now),
                _ => Vec::new(),
            });
        };
        let by = *by;
        match action {
            PlayerAction::Move { mv, offer_draw } => {
                game.play_after_lag(by, mv, *offer_draw, now, *lag_ms)
            }
            PlayerAction::Touch { square } => game.touch(by, *square, now),
            PlayerAction::AcceptDraw => game.accept_draw(by, now),
            PlayerAction::DeclineDraw => game.decline_draw(by, now),
            PlayerAction::ClaimDraw { claim, uci } => {
                let intended = uci.map(MoveInput::Uci);
                game.claim_draw(by, *claim, intended.as_ref(), now)
            }
            PlayerAction::Resign => game.resign(by, now),
            PlayerAction::Abort => game.abort(by, now),
            PlayerAction::Takeback => game.request_takeback(by, now),
            PlayerAction::AcceptTakeback => game.accept_takeback(by, now),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_arbiter::DrawClaim;

    #[test]
    fn round_trip() {
        let actions = [
            GameAction::Player {
                by: Color::White,
                action: PlayerAction::Move {
                    mv: MoveInput::Uci("e2e4".parse().unwrap()),
                    offer_draw: true,
                },
                lag_ms: 0,
            },
            GameAction::Player {
                by: Color::Black,
                action: PlayerAction::Move {
                    mv: MoveInput::San("Nf6".parse().unwrap()),
                    offer_draw: false,
                },
                lag_ms: 320,
            },
            GameAction::Player {
                by: Color::Black,
                action: PlayerAction::Touch { square: "e7".parse().unwrap() },
                lag_ms: 0,
            },
            GameAction::Player {
                by: Color::White,
                action: PlayerAction::ClaimDraw {
                    claim: DrawClaim::ThreefoldRepetition,
                    uci: None,
                },
                lag_ms: 0,
            },
            GameAction::Flag,
            GameAction::Adjudicate(Outcome {
                result: GameResult::Win(Color::White),
                termination: Termination::Abandoned,
            }),
            GameAction::Resume { wall_ms: None },
            GameAction::Resume { wall_ms: Some(1_796_000_000_000) },
        ];
        for a in actions {
            let (kind, data) = a.encode();
            assert_eq!(GameAction::decode(kind, &data).unwrap(), a, "{kind} {data}");
        }
        assert!(GameAction::decode("move", "{\"by\":\"red\",\"uci\":\"e2e4\"}").is_err());
        assert!(GameAction::decode("move", r#"{"by":"white","uci":"e2e4","lag_ms":"x"}"#).is_err());
        // The allowance is written only when there was one: a move without lag is stored in
        // the layout of earlier versions.
        let plain = GameAction::Player {
            by: Color::White,
            action: PlayerAction::Move {
                mv: MoveInput::Uci("e2e4".parse().unwrap()),
                offer_draw: false,
            },
            lag_ms: 0,
        };
        assert!(!plain.encode().1.contains("lag_ms"));
        assert!(GameAction::decode("nonsense", "{\"by\":\"white\"}").is_err());
    }

    /// A move's lag allowance stops the mover's clock early and starts the opponent's at the
    /// stamp; stored and read back, it charges the same times on replay.
    #[test]
    fn the_lag_allowance_is_the_movers_and_replays_the_same() {
        let spec = rookery_arbiter::GameSpec {
            time_control: Some("60+0".parse().unwrap()),
            ..rookery_arbiter::GameSpec::default()
        };
        let mv = |by, uci: &str, lag_ms| GameAction::Player {
            by,
            action: PlayerAction::Move {
                mv: MoveInput::Uci(uci.parse().unwrap()),
                offer_draw: false,
            },
            lag_ms,
        };
        let log = [(mv(Color::White, "e2e4", 0), 1_000), (mv(Color::Black, "e7e5", 400), 5_000)];
        let play = |log: &[(GameAction, u64)]| {
            let mut game = Game::new(spec.clone(), 0).unwrap();
            for (action, at) in log {
                action.apply(&mut game, *at).unwrap();
            }
            game
        };
        let game = play(&log);
        assert_eq!(
            game.plies()[1].spent_ms,
            3_600,
            "Black's clock stopped 400 ms before the stamp"
        );
        let clock = game.clock();
        assert_eq!(clock.remaining(Color::Black, 6_000), Some(56_400));
        assert_eq!(
            clock.remaining(Color::White, 6_000),
            Some(58_000),
            "White's clock started at the stamp"
        );
        let stored: Vec<(GameAction, u64)> = log
            .iter()
            .map(|(a, at)| {
                let (kind, data) = a.encode();
                (GameAction::decode(kind, &data).unwrap(), *at)
            })
            .collect();
        assert_eq!(play(&stored).clock(), clock, "the replay charges the same times");
    }

    /// Rows written by the server before the typed protocol (kind, data), as they sit in
    /// users' databases: they must decode to the same actions.
    #[test]
    fn reads_the_log_of_earlier_versions() {
        let rows = [
            ("move", r#"{"by":"white","uci":"e2e4","offer_draw":false}"#),
            ("move", r#"{"by":"black","san":"Nf6","offer_draw":true}"#),
            ("touch", r#"{"by":"white","square":"g1"}"#),
            ("accept_draw", r#"{"by":"black"}"#),
            ("decline_draw", r#"{"by":"black"}"#),
            ("claim_draw", r#"{"by":"white","claim":"fifty","uci":"g1f3"}"#),
            ("claim_draw", r#"{"by":"white","claim":"threefold"}"#),
            ("resign", r#"{"by":"white"}"#),
            ("abort", r#"{"by":"black"}"#),
            ("takeback", r#"{"by":"white"}"#),
            ("accept_takeback", r#"{"by":"black"}"#),
            ("flag", "{}"),
            ("adjudicate", r#"{"result":"1-0","termination":"abandoned"}"#),
            ("pause", "{}"),
            ("resume", "{}"),
        ];
        for (kind, data) in rows {
            let action = GameAction::decode(kind, data).unwrap_or_else(|e| panic!("{e}"));
            let (k, d) = action.encode();
            assert_eq!(k, kind);
            let (a, b): (Value, Value) =
                (serde_json::from_str(&d).unwrap(), serde_json::from_str(data).unwrap());
            assert_eq!(a, b, "{kind}: the same layout is written today");
        }
    }
}
