//! The actions of a live game as they are stored: every action that changed the game is
//! appended (kind + JSON data + the game-time stamp) before anyone is told, and a restarted
//! server replays them through the same arbiter calls to rebuild the game exactly.

use rookery_arbiter::{ActionResult, DrawClaim, Game, GameResult, MoveInput, Termination};
use rookery_core::{Color, Square};
use serde::{Deserialize, Serialize};

/// One stored action.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Action {
    /// A move (or an illegal attempt that was counted).
    Move {
        /// Who.
        by: Side,
        /// UCI text, when sent as UCI.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uci: Option<String>,
        /// SAN text, when sent as SAN.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        san: Option<String>,
        /// With a draw offer.
        #[serde(default)]
        offer_draw: bool,
    },
    /// A binding touch.
    Touch {
        /// Who.
        by: Side,
        /// Where.
        square: String,
    },
    /// A draw offer accepted.
    AcceptDraw {
        /// Who.
        by: Side,
    },
    /// A draw offer declined in words.
    DeclineDraw {
        /// Who.
        by: Side,
    },
    /// A draw claim (right or wrong: a wrong one adds time).
    ClaimDraw {
        /// Who.
        by: Side,
        /// `threefold` or `fifty`.
        claim: String,
        /// The written move, if any.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        uci: Option<String>,
    },
    /// Resignation.
    Resign {
        /// Who.
        by: Side,
    },
    /// Abort.
    Abort {
        /// Who.
        by: Side,
    },
    /// Takeback asked.
    Takeback {
        /// Who.
        by: Side,
    },
    /// Takeback granted.
    AcceptTakeback {
        /// Who.
        by: Side,
    },
    /// The flag was found fallen.
    Flag,
    /// Ended by the server (a player abandoned the game and the opponent claimed).
    Adjudicate {
        /// `1-0`, `0-1` or `1/2-1/2`.
        result: String,
        /// The termination label.
        termination: String,
    },
    /// The server stopped in order; the clocks stand from here.
    Pause,
    /// The server started again; game time resumes from the last stamp.
    Resume,
}

/// A colour as stored and sent: `"white"` or `"black"`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// White.
    White,
    /// Black.
    Black,
}

impl From<Color> for Side {
    fn from(c: Color) -> Side {
        match c {
            Color::White => Side::White,
            Color::Black => Side::Black,
        }
    }
}

impl From<Side> for Color {
    fn from(s: Side) -> Color {
        match s {
            Side::White => Color::White,
            Side::Black => Color::Black,
        }
    }
}

/// `"white"` or `"black"`.
pub fn color_name(c: Color) -> &'static str {
    match c {
        Color::White => "white",
        Color::Black => "black",
    }
}

/// Reads a claim name.
pub fn parse_claim(text: &str) -> Option<DrawClaim> {
    match text {
        "threefold" => Some(DrawClaim::ThreefoldRepetition),
        "fifty" => Some(DrawClaim::FiftyMoves),
        _ => None,
    }
}

/// The protocol's name of a claim.
pub fn claim_name(claim: DrawClaim) -> &'static str {
    match claim {
        DrawClaim::ThreefoldRepetition => "threefold",
        DrawClaim::FiftyMoves => "fifty",
    }
}

impl Action {
    /// Splits into the store's `kind` and `data` (the JSON of the other fields).
    pub fn encode(&self) -> (String, String) {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        let kind = value
            .as_object_mut()
            .and_then(|o| o.remove("kind"))
            .and_then(|k| k.as_str().map(str::to_owned))
            .unwrap_or_default();
        (kind, value.to_string())
    }

    /// Joins the store's `kind` and `data` back.
    ///
    /// # Errors
    /// The JSON error for data that is not an action of that kind.
    pub fn decode(kind: &str, data: &str) -> Result<Action, serde_json::Error> {
        let mut value: serde_json::Value =
            serde_json::from_str(if data.is_empty() { "{}" } else { data })?;
        if let Some(o) = value.as_object_mut() {
            o.insert("kind".into(), serde_json::Value::from(kind));
        }
        serde_json::from_value(value)
    }

    /// Applies the action to `game` at game time `now` through the arbiter. `Pause` and
    /// `Resume` do not touch the game.
    pub fn apply(&self, game: &mut Game, now: u64) -> ActionResult {
        match self {
            Action::Move { by, uci, san, offer_draw } => {
                let input = match (uci, san) {
                    (Some(u), _) => MoveInput::Uci(u.clone()),
                    (None, Some(s)) => MoveInput::San(s.clone()),
                    (None, None) => MoveInput::Uci(String::new()),
                };
                game.play((*by).into(), &input, *offer_draw, now)
            }
            Action::Touch { by, square } => match Square::from_ascii(square.as_bytes()) {
                Ok(sq) => game.touch((*by).into(), sq, now),
                Err(_) => Ok(Vec::new()),
            },
            Action::AcceptDraw { by } => game.accept_draw((*by).into(), now),
            Action::DeclineDraw { by } => game.decline_draw((*by).into(), now),
            Action::ClaimDraw { by, claim, uci } => {
                let Some(claim) = parse_claim(claim) else { return Ok(Vec::new()) };
                let intended = uci.as_ref().map(|u| MoveInput::Uci(u.clone()));
                game.claim_draw((*by).into(), claim, intended.as_ref(), now)
            }
            Action::Resign { by } => game.resign((*by).into(), now),
            Action::Abort { by } => game.abort((*by).into(), now),
            Action::Takeback { by } => game.request_takeback((*by).into(), now),
            Action::AcceptTakeback { by } => game.accept_takeback((*by).into(), now),
            Action::Flag => Ok(game.poll(now)),
            Action::Adjudicate { result, termination } => {
                let result = match result.as_str() {
                    "1-0" => GameResult::Win(Color::White),
                    "0-1" => GameResult::Win(Color::Black),
                    "1/2-1/2" => GameResult::Draw,
                    _ => GameResult::Aborted,
                };
                let termination =
                    Termination::from_label(termination).unwrap_or(Termination::Abandoned);
                Ok(game.adjudicate(result, termination, now))
            }
            Action::Pause | Action::Resume => Ok(Vec::new()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip() {
        let actions = [
            Action::Move { by: Side::White, uci: Some("e2e4".into()), san: None, offer_draw: true },
            Action::Touch { by: Side::Black, square: "e7".into() },
            Action::ClaimDraw { by: Side::White, claim: "threefold".into(), uci: None },
            Action::Flag,
            Action::Adjudicate { result: "1-0".into(), termination: "abandoned".into() },
            Action::Resume,
        ];
        for a in actions {
            let (kind, data) = a.encode();
            assert_eq!(Action::decode(&kind, &data).unwrap(), a, "{kind} {data}");
        }
        assert!(Action::decode("move", "{\"by\":\"red\"}").is_err());
        assert!(Action::decode("nonsense", "{}").is_err());
    }
}
