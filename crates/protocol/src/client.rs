//! Client → server on the game socket (docs/protocol.md): parsed once, at the edge, into
//! typed values, and written back the same way (the load generator and the tests speak it).

use rookery_arbiter::{DrawClaim, MoveInput};
use rookery_core::{Square, UciMove};
use serde_json::{Map, Value};

use super::fields::{FieldError, Fields, Ply};

/// What a player does in the game: the accepted request, and (with its player) the log entry
/// and the replay input ([`super::GameAction::Player`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PlayerAction {
    /// A move, with a draw offer or not (§7).
    Move {
        /// The move: `"uci":"e2e4"` or `"san":"Nf3"`.
        mv: MoveInput,
        /// A draw offer with it.
        offer_draw: bool,
    },
    /// A touch (§8.1).
    Touch {
        /// The square touched.
        square: Square,
    },
    /// Accept the opponent's offer.
    AcceptDraw,
    /// Decline it in words.
    DeclineDraw,
    /// Claim a draw (`fide`), for the position after `uci` if given.
    ClaimDraw {
        /// Which.
        claim: DrawClaim,
        /// The written move.
        uci: Option<UciMove>,
    },
    /// Resign.
    Resign,
    /// Abort (before each side has moved).
    Abort,
    /// Ask to take one's last move back (casual).
    Takeback,
    /// Grant the opponent's takeback.
    AcceptTakeback,
}

impl PlayerAction {
    /// Whether the message must carry the current ply (actions that depend on the position).
    pub fn needs_ply(&self) -> bool {
        !matches!(self, PlayerAction::Resign | PlayerAction::Abort)
    }

    /// The message type `t` of this action, which is also its `kind` in the action log.
    pub fn name(&self) -> &'static str {
        match self {
            PlayerAction::Move { .. } => "move",
            PlayerAction::Touch { .. } => "touch",
            PlayerAction::AcceptDraw => "accept_draw",
            PlayerAction::DeclineDraw => "decline_draw",
            PlayerAction::ClaimDraw { .. } => "claim_draw",
            PlayerAction::Resign => "resign",
            PlayerAction::Abort => "abort",
            PlayerAction::Takeback => "takeback",
            PlayerAction::AcceptTakeback => "accept_takeback",
        }
    }

    /// Reads the fields of an action whose type is `t` (the `t` itself already taken);
    /// `None` when `t` names no player action.
    ///
    /// # Errors
    /// [`FieldError::BadField`] naming the field.
    pub fn from_fields(t: &str, f: &mut Fields) -> Result<Option<PlayerAction>, FieldError> {
        Ok(Some(match t {
            "move" => {
                let mv = match (f.has("uci"), f.has("san")) {
                    (true, true) => {
                        return Err(FieldError::field(
                            "san",
                            "give the move as uci or san, not both",
                        ))
                    }
                    (false, true) => MoveInput::San(f.req("san")?),
                    _ => MoveInput::Uci(f.req("uci")?),
                };
                PlayerAction::Move { mv, offer_draw: f.opt("offer_draw")?.unwrap_or(false) }
            }
            "touch" => PlayerAction::Touch { square: f.req("square")? },
            "accept_draw" => PlayerAction::AcceptDraw,
            "decline_draw" => PlayerAction::DeclineDraw,
            "claim_draw" => PlayerAction::ClaimDraw { claim: f.req("claim")?, uci: f.opt("uci")? },
            "resign" => PlayerAction::Resign,
            "abort" => PlayerAction::Abort,
            "takeback" => PlayerAction::Takeback,
            "accept_takeback" => PlayerAction::AcceptTakeback,
            _ => return Ok(None),
        }))
    }

    /// The action's own fields as JSON (without `t` or `by`).
    pub fn fields_json(&self) -> Map<String, Value> {
        let mut m = Map::new();
        match self {
            PlayerAction::Move { mv, offer_draw } => {
                match mv {
                    MoveInput::Uci(u) => m.insert("uci".into(), Value::from(u.to_string())),
                    MoveInput::San(s) => m.insert("san".into(), Value::from(s.to_string())),
                };
                m.insert("offer_draw".into(), Value::from(*offer_draw));
            }
            PlayerAction::Touch { square } => {
                m.insert("square".into(), Value::from(square.to_string()));
            }
            PlayerAction::ClaimDraw { claim, uci } => {
                m.insert("claim".into(), Value::from(claim.name()));
                if let Some(u) = uci {
                    m.insert("uci".into(), Value::from(u.to_string()));
                }
            }
            _ => {}
        }
        m
    }
}

/// One message of a client on the game socket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ClientMessage {
    /// A player action, with the ply the client saw (see docs/protocol.md).
    Act {
        /// What.
        action: PlayerAction,
        /// The ply the client knows (`None` when not sent).
        ply: Option<usize>,
    },
    /// The opponent left: claim the win, or a draw.
    ClaimAbandoned {
        /// A draw rather than the win.
        draw: bool,
    },
    /// Ask for a `state`.
    Sync,
    /// Ask for a `pong`.
    Ping,
}

/// Why a client message was refused before reaching the game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseError {
    /// Not JSON, or not an object.
    BadJson(String),
    /// An unknown `t`.
    UnknownType(String),
    /// A bad, missing, unknown or conflicting field.
    BadField {
        /// The field.
        field: String,
        /// What is wrong.
        message: String,
    },
}

impl From<FieldError> for ParseError {
    fn from(e: FieldError) -> ParseError {
        match e {
            FieldError::BadJson(why) => ParseError::BadJson(why),
            FieldError::BadField { field, message } => ParseError::BadField { field, message },
        }
    }
}

impl ClientMessage {
    /// Reads one text frame.
    ///
    /// # Errors
    /// [`ParseError`] naming what is wrong.
    pub fn parse(text: &str) -> Result<ClientMessage, ParseError> {
        let mut f = Fields::parse(text.as_bytes())?;
        let t: String = f.req("t").map_err(|_| ParseError::BadField {
            field: "t".into(),
            message: "every message has a type t, a string".into(),
        })?;
        let msg = match t.as_str() {
            "ping" => ClientMessage::Ping,
            "sync" => ClientMessage::Sync,
            "claim_abandoned" => {
                let result: String = f.req("result")?;
                let draw = match result.as_str() {
                    "win" => false,
                    "draw" => true,
                    _ => {
                        return Err(FieldError::field(
                            "result",
                            format!("win or draw, not {result:?}"),
                        )
                        .into())
                    }
                };
                ClientMessage::ClaimAbandoned { draw }
            }
            other => {
                let Some(action) = PlayerAction::from_fields(other, &mut f)? else {
                    return Err(ParseError::UnknownType(other.to_owned()));
                };
                let ply = f.opt::<Ply>("ply")?.map(|p| p.0);
                ClientMessage::Act { action, ply }
            }
        };
        f.finish()?;
        Ok(msg)
    }

    /// The message's type `t`.
    pub fn name(&self) -> &'static str {
        match self {
            ClientMessage::Ping => "ping",
            ClientMessage::Sync => "sync",
            ClientMessage::ClaimAbandoned { .. } => "claim_abandoned",
            ClientMessage::Act { action, .. } => action.name(),
        }
    }

    /// The message as JSON text, as [`ClientMessage::parse`] reads it.
    pub fn to_json(&self) -> Value {
        let mut m = Map::new();
        match self {
            ClientMessage::Ping | ClientMessage::Sync => {}
            ClientMessage::ClaimAbandoned { draw } => {
                m.insert("result".into(), Value::from(if *draw { "draw" } else { "win" }));
            }
            ClientMessage::Act { action, ply } => {
                m = action.fields_json();
                if let Some(p) = ply {
                    m.insert("ply".into(), Value::from(*p));
                }
            }
        }
        m.insert("t".into(), Value::from(self.name()));
        Value::Object(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips() {
        let cases = [
            r#"{"t":"move","uci":"e2e4","ply":0,"offer_draw":false}"#,
            r#"{"t":"move","san":"Nf3","ply":2,"offer_draw":true}"#,
            r#"{"t":"touch","square":"e2","ply":0}"#,
            r#"{"t":"accept_draw","ply":5}"#,
            r#"{"t":"claim_draw","claim":"threefold","uci":"g1f3","ply":40}"#,
            r#"{"t":"resign"}"#,
            r#"{"t":"abort"}"#,
            r#"{"t":"takeback","ply":7}"#,
            r#"{"t":"claim_abandoned","result":"draw"}"#,
            r#"{"t":"sync"}"#,
            r#"{"t":"ping"}"#,
        ];
        for text in cases {
            let msg = ClientMessage::parse(text).unwrap_or_else(|e| panic!("{text}: {e:?}"));
            let json: Value = serde_json::from_str(text).unwrap();
            assert_eq!(msg.to_json(), json, "{text}");
            assert_eq!(ClientMessage::parse(&msg.to_json().to_string()), Ok(msg), "{text}");
        }
    }

    #[test]
    fn refuses_with_the_field() {
        let field = |text: &str| match ClientMessage::parse(text) {
            Err(ParseError::BadField { field, .. }) => field,
            other => panic!("{text}: {other:?}"),
        };
        assert_eq!(field(r#"{"t":"move","uci":"g8e7","san":"a5","ply":0}"#), "san");
        assert_eq!(field(r#"{"t":"move","uci":"e2e4","ply":0,"pad":"x"}"#), "pad");
        assert_eq!(field(r#"{"t":"move","uci":42,"ply":0}"#), "uci");
        assert_eq!(field(r#"{"t":"move","ply":0}"#), "uci");
        assert_eq!(field(r#"{"t":"touch","square":"z9","ply":0}"#), "square");
        assert_eq!(field(r#"{"t":"move","uci":"e2e4","ply":-1}"#), "ply");
        assert_eq!(field(r#"{"t":"resign","by":"black"}"#), "by");
        assert_eq!(field(r#"{"t":"ping","x":1}"#), "x");
        assert_eq!(field(r#"{"t":"claim_abandoned","result":"lose"}"#), "result");
        assert_eq!(field(r#"{"uci":"e2e4"}"#), "t");
        assert_eq!(
            ClientMessage::parse(r#"{"t":"teleport"}"#),
            Err(ParseError::UnknownType("teleport".into()))
        );
        assert!(matches!(ClientMessage::parse("[1,2]"), Err(ParseError::BadJson(_))));
    }
}
