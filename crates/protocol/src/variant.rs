//! What a game is played as: standard chess, or Chess960 from one of its 960 start positions
//! (RULES.md §13). A request asks for a [`VariantChoice`] (the start position chosen, or left
//! to be drawn); a game is created with a [`Variant`], its start fixed, whatever made it (a
//! seek, a challenge, the engine, a tournament round that gives every board the same start).

use std::fmt;

use rookery_core::{chess960, CastlingMode, Position};
use serde_json::Value;

use crate::fields::{FieldError, Fields};

/// One of the 960 start positions of Chess960, by its standard number: 0 to 959, 518 being
/// the standard start (Scharnagl's numbering, `rookery_core::chess960`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Chess960Start(u16);

impl Chess960Start {
    /// Start position `n`, or `None` outside 0–959.
    pub fn new(n: u16) -> Option<Chess960Start> {
        (n < chess960::COUNT).then_some(Chess960Start(n))
    }

    /// A start position drawn at random, each of the 960 equally likely.
    pub fn random() -> Chess960Start {
        let mut buf = [0u8; 4];
        // The OS generator failing is not recoverable in a server that must draw positions.
        getrandom::fill(&mut buf).expect("the operating system's random generator failed");
        // 2^32 mod 960 = 256: the bias, 1 in 16 million, is far below what a game notices.
        Chess960Start((u32::from_le_bytes(buf) % u32::from(chess960::COUNT)) as u16)
    }

    /// The start position that `pos` is (before any move), if it is one.
    pub fn of(pos: &Position) -> Option<Chess960Start> {
        let fresh = pos.fullmoves() == 1 && pos.turn() == rookery_core::Color::White;
        fresh.then(|| chess960::number(pos.board())).flatten().map(Chess960Start)
    }

    /// Its number, 0 to 959.
    pub fn number(self) -> u16 {
        self.0
    }

    /// The position, in Chess960 mode (castling written king-takes-rook).
    pub fn position(self) -> Position {
        // Every number below COUNT is a legal start position (rookery-core's tests).
        chess960::position(self.0).expect("a Chess960 start position by its number")
    }
}

impl fmt::Display for Chess960Start {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// What a game is played as, its start fixed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Variant {
    /// Standard chess from the standard start.
    #[default]
    Standard,
    /// Chess960 from this start position.
    Chess960(Chess960Start),
}

impl Variant {
    /// The name the protocol and the store use: `standard` or `chess960`.
    pub fn name(self) -> &'static str {
        match self {
            Variant::Standard => "standard",
            Variant::Chess960(_) => "chess960",
        }
    }

    /// How castling is played and written.
    pub fn castling_mode(self) -> CastlingMode {
        match self {
            Variant::Standard => CastlingMode::Standard,
            Variant::Chess960(_) => CastlingMode::Chess960,
        }
    }

    /// The Chess960 start position's number; `None` in standard chess.
    pub fn number(self) -> Option<u16> {
        match self {
            Variant::Standard => None,
            Variant::Chess960(start) => Some(start.number()),
        }
    }

    /// The starting FEN an arbiter game is given: `None` for the standard start; a Chess960
    /// game's in X-FEN, so that its record carries it (PGN `[SetUp "1"]` and `[FEN]`).
    pub fn start_fen(self) -> Option<String> {
        match self {
            Variant::Standard => None,
            Variant::Chess960(start) => Some(start.position().to_fen()),
        }
    }

    /// The variant of a game stored as played in `mode` from `start`.
    ///
    /// # Errors
    /// A Chess960 game whose start is none of the 960 start positions: the FEN.
    pub fn of_start(mode: CastlingMode, start: &Position) -> Result<Variant, String> {
        match mode {
            CastlingMode::Standard => Ok(Variant::Standard),
            CastlingMode::Chess960 => Chess960Start::of(start)
                .map(Variant::Chess960)
                .ok_or_else(|| format!("{} is no Chess960 start position", start.to_fen())),
        }
    }
}

/// What a seek, a challenge or a game against the engine asks for: standard chess, or
/// Chess960 with its start position chosen, or drawn at random when the game is created (so
/// that both players learn it together, from their game).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum VariantChoice {
    /// Standard chess.
    #[default]
    Standard,
    /// Chess960: this start position, or `None` for one drawn when the game is made.
    Chess960(Option<Chess960Start>),
}

impl VariantChoice {
    /// The name of the variant: `standard` or `chess960`.
    pub fn name(self) -> &'static str {
        match self {
            VariantChoice::Standard => "standard",
            VariantChoice::Chess960(_) => "chess960",
        }
    }

    /// The start position chosen, if one was.
    pub fn number(self) -> Option<u16> {
        match self {
            VariantChoice::Chess960(Some(start)) => Some(start.number()),
            _ => None,
        }
    }

    /// The variant of a game created now: a Chess960 start left open is drawn.
    pub fn resolve(self) -> Variant {
        match self {
            VariantChoice::Standard => Variant::Standard,
            VariantChoice::Chess960(start) => {
                Variant::Chess960(start.unwrap_or_else(Chess960Start::random))
            }
        }
    }

    /// The variant as a request gives it (docs/api.md): `variant` (`standard`, the default,
    /// or `chess960`) and, for Chess960, an optional start `position` from 0 to 959. Each
    /// refusal names its field and what it may hold.
    ///
    /// # Errors
    /// [`FieldError::BadField`] naming `variant` or `position`.
    pub fn from_fields(f: &mut Fields) -> Result<VariantChoice, FieldError> {
        let variant: Option<Value> = f.opt("variant")?;
        let chess960 = match variant.as_ref().map(|v| (v, v.as_str())) {
            None | Some((_, Some("standard"))) => false,
            Some((_, Some("chess960"))) => true,
            Some((v, _)) => {
                return Err(FieldError::field("variant", format!("standard or chess960, not {v}")))
            }
        };
        let position: Option<Value> = f.opt("position")?;
        let start = match position {
            None => None,
            Some(_) if !chess960 => {
                return Err(FieldError::field(
                    "position",
                    "a start position is chosen only with \"variant\": \"chess960\"",
                ))
            }
            Some(v) => {
                let max = chess960::COUNT - 1;
                let n = match &v {
                    Value::Number(n) => n.as_u64(),
                    // Query strings and form fields carry text.
                    Value::String(s) => s.parse().ok(),
                    _ => None,
                };
                let start = n.and_then(|n| u16::try_from(n).ok()).and_then(Chess960Start::new);
                Some(start.ok_or_else(|| {
                    FieldError::field(
                        "position",
                        format!("a Chess960 start position from 0 to {max}, not {v}"),
                    )
                })?)
            }
        };
        Ok(if chess960 { VariantChoice::Chess960(start) } else { VariantChoice::Standard })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn choice(json: &str) -> Result<VariantChoice, FieldError> {
        let mut f = Fields::parse(json.as_bytes()).unwrap();
        let choice = VariantChoice::from_fields(&mut f)?;
        f.finish()?;
        Ok(choice)
    }

    #[test]
    fn requests_name_the_variant_and_the_start() {
        let start = |n| Chess960Start::new(n).unwrap();
        assert_eq!(choice("{}"), Ok(VariantChoice::Standard), "old clients send nothing");
        assert_eq!(choice(r#"{"variant":"standard"}"#), Ok(VariantChoice::Standard));
        assert_eq!(choice(r#"{"variant":"chess960"}"#), Ok(VariantChoice::Chess960(None)));
        for (json, n) in [
            (r#"{"variant":"chess960","position":0}"#, 0),
            (r#"{"variant":"chess960","position":959}"#, 959),
            (r#"{"variant":"chess960","position":"518"}"#, 518),
        ] {
            assert_eq!(choice(json), Ok(VariantChoice::Chess960(Some(start(n)))), "{json}");
        }
    }

    #[test]
    fn a_bad_variant_or_start_names_its_field_and_range() {
        let bad = |json: &str| match choice(json) {
            Err(FieldError::BadField { field, message }) => (field, message),
            other => panic!("{json}: {other:?}"),
        };
        assert_eq!(
            bad(r#"{"variant":"crazyhouse"}"#),
            ("variant".into(), "standard or chess960, not \"crazyhouse\"".into())
        );
        for (json, shown) in [
            (r#"{"variant":"chess960","position":960}"#, "960"),
            (r#"{"variant":"chess960","position":-1}"#, "-1"),
            (r#"{"variant":"chess960","position":1.5}"#, "1.5"),
            (r#"{"variant":"chess960","position":"x"}"#, "\"x\""),
        ] {
            assert_eq!(
                bad(json),
                (
                    "position".into(),
                    format!("a Chess960 start position from 0 to 959, not {shown}")
                ),
                "{json}"
            );
        }
        let (field, message) = bad(r#"{"position":12}"#);
        assert_eq!(field, "position");
        assert!(message.contains("chess960"), "{message}");
    }

    #[test]
    fn a_start_is_fixed_when_the_game_is_made() {
        let start = Chess960Start::new(518).unwrap();
        assert_eq!(VariantChoice::Chess960(Some(start)).resolve(), Variant::Chess960(start));
        assert_eq!(VariantChoice::Standard.resolve(), Variant::Standard);
        let drawn = VariantChoice::Chess960(None).resolve();
        assert!(matches!(drawn, Variant::Chess960(s) if s.number() < 960), "{drawn:?}");
        assert!(Chess960Start::new(960).is_none());
    }

    #[test]
    fn a_stored_start_reads_back_as_its_number() {
        for n in [0, 1, 518, 959] {
            let start = Chess960Start::new(n).unwrap();
            let fen = Variant::Chess960(start).start_fen().unwrap();
            let pos = Position::from_fen_in(&fen, CastlingMode::Chess960).unwrap();
            assert_eq!(
                Variant::of_start(CastlingMode::Chess960, &pos),
                Ok(Variant::Chess960(start)),
                "{fen}"
            );
        }
        let after_e4 = "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq - 0 1";
        let pos = Position::from_fen_in(after_e4, CastlingMode::Chess960).unwrap();
        assert!(Variant::of_start(CastlingMode::Chess960, &pos).is_err());
        assert_eq!(Variant::of_start(CastlingMode::Standard, &pos), Ok(Variant::Standard));
    }
}
