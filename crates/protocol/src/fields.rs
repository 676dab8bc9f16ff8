//! Reading a JSON object at the edge, field by field, into typed values: every error names
//! its field, and a field nobody asked for is refused (a typo never passes silently). Socket
//! messages and HTTP bodies share it.

use std::fmt;

use rookery_arbiter::{DrawClaim, RuleSet, TimeControl};
use rookery_core::{Color, SanPlus, Square, UciMove};
use serde_json::{Map, Value};

/// Why a JSON object was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// Not JSON, or not an object.
    BadJson(String),
    /// A field is unknown, missing, conflicting or has a bad value.
    BadField {
        /// The field.
        field: String,
        /// What is wrong with it.
        message: String,
    },
}

impl FieldError {
    /// A bad field.
    pub fn field(field: impl Into<String>, message: impl Into<String>) -> FieldError {
        FieldError::BadField { field: field.into(), message: message.into() }
    }
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::BadJson(why) => write!(f, "bad JSON: {why}"),
            FieldError::BadField { field, message } => write!(f, "field {field}: {message}"),
        }
    }
}

impl std::error::Error for FieldError {}

/// The fields of one JSON object, taken one by one.
pub struct Fields {
    map: Map<String, Value>,
}

impl Fields {
    /// Reads `text` as one JSON object.
    ///
    /// # Errors
    /// [`FieldError::BadJson`] for anything else.
    pub fn parse(text: &[u8]) -> Result<Fields, FieldError> {
        match serde_json::from_slice::<Value>(text) {
            Ok(Value::Object(map)) => Ok(Fields { map }),
            Ok(_) => Err(FieldError::BadJson("expected a JSON object".into())),
            Err(e) => Err(FieldError::BadJson(e.to_string())),
        }
    }

    /// Reads an HTTP body: an empty body or `null` is an object without fields.
    ///
    /// # Errors
    /// As [`Fields::parse`].
    pub fn parse_body(text: &[u8]) -> Result<Fields, FieldError> {
        let blank = text.iter().all(u8::is_ascii_whitespace);
        if blank || serde_json::from_slice::<Value>(text).is_ok_and(|v| v.is_null()) {
            return Ok(Fields { map: Map::new() });
        }
        Fields::parse(text)
    }

    /// Fields from query-string pairs (all values are text).
    ///
    /// # Errors
    /// A field given twice.
    pub fn from_pairs(pairs: Vec<(String, String)>) -> Result<Fields, FieldError> {
        let mut map = Map::new();
        for (k, v) in pairs {
            if map.insert(k.clone(), Value::String(v)).is_some() {
                return Err(FieldError::field(k, "given more than once"));
            }
        }
        Ok(Fields { map })
    }

    /// Takes the optional field `name` (`null` counts as absent).
    ///
    /// # Errors
    /// [`FieldError::BadField`] naming `name` when its value is not a `T`.
    pub fn opt<T: FieldValue>(&mut self, name: &'static str) -> Result<Option<T>, FieldError> {
        match self.map.remove(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => T::from_value(v).map(Some).map_err(|m| FieldError::field(name, m)),
        }
    }

    /// Takes the required field `name`.
    ///
    /// # Errors
    /// [`FieldError::BadField`] naming `name` when it is missing or not a `T`.
    pub fn req<T: FieldValue>(&mut self, name: &'static str) -> Result<T, FieldError> {
        self.opt(name)?.ok_or_else(|| FieldError::field(name, format!("missing: {}", T::EXPECTED)))
    }

    /// Whether the field `name` is there (and not `null`), without taking it.
    pub fn has(&self, name: &str) -> bool {
        self.map.get(name).is_some_and(|v| !v.is_null())
    }

    /// Gives the field `name` the value `value` when it is absent (or `null`): a default that
    /// only the request's other fields decide (an imported file's number of rounds).
    pub fn default_to(&mut self, name: &str, value: Value) {
        if !self.has(name) {
            self.map.insert(name.to_owned(), value);
        }
    }

    /// Refuses any field not taken yet.
    ///
    /// # Errors
    /// [`FieldError::BadField`] naming the first unknown field.
    pub fn finish(self) -> Result<(), FieldError> {
        match self.map.into_iter().next() {
            None => Ok(()),
            Some((name, _)) => Err(FieldError::field(name, "unknown field")),
        }
    }
}

/// A value one field can hold.
pub trait FieldValue: Sized {
    /// What the value should look like, for messages.
    const EXPECTED: &'static str;

    /// Reads it.
    ///
    /// # Errors
    /// A message saying what was expected.
    fn from_value(v: Value) -> Result<Self, String>;
}

/// A short ASCII string field, then read by `FromStr`.
fn text(v: &Value, max: usize, expected: &str) -> Result<String, String> {
    match v {
        Value::String(s) if !s.is_empty() && s.len() <= max && s.is_ascii() => Ok(s.clone()),
        Value::String(s) => Err(format!("{expected}, not {s:?}")),
        other => Err(format!("{expected}, not {other}")),
    }
}

impl FieldValue for bool {
    const EXPECTED: &'static str = "true or false";
    fn from_value(v: Value) -> Result<bool, String> {
        match v {
            Value::Bool(b) => Ok(b),
            // Query strings carry text.
            Value::String(s) if s == "true" => Ok(true),
            Value::String(s) if s == "false" => Ok(false),
            other => Err(format!("true or false, not {other}")),
        }
    }
}

impl FieldValue for i64 {
    const EXPECTED: &'static str = "a whole number";
    fn from_value(v: Value) -> Result<i64, String> {
        match &v {
            Value::Number(n) => n.as_i64(),
            Value::String(s) => s.parse().ok(),
            _ => None,
        }
        .ok_or_else(|| format!("a whole number, not {v}"))
    }
}

/// A ply number: how many moves the client has seen.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ply(pub usize);

impl FieldValue for Ply {
    const EXPECTED: &'static str = "a move number from 0";
    fn from_value(v: Value) -> Result<Ply, String> {
        match v.as_u64() {
            Some(p) if p < 100_000 => Ok(Ply(p as usize)),
            _ => Err(format!("a move number from 0, not {v}")),
        }
    }
}

impl FieldValue for String {
    const EXPECTED: &'static str = "a string";
    fn from_value(v: Value) -> Result<String, String> {
        match v {
            Value::String(s) if s.len() <= 1024 => Ok(s),
            Value::String(_) => Err("a string of at most 1024 bytes".into()),
            other => Err(format!("a string, not {other}")),
        }
    }
}

impl FieldValue for Color {
    const EXPECTED: &'static str = "white or black";
    fn from_value(v: Value) -> Result<Color, String> {
        match text(&v, 5, Self::EXPECTED)?.as_str() {
            "white" => Ok(Color::White),
            "black" => Ok(Color::Black),
            _ => Err(format!("white or black, not {v}")),
        }
    }
}

impl FieldValue for Square {
    const EXPECTED: &'static str = "a square such as e2";
    fn from_value(v: Value) -> Result<Square, String> {
        text(&v, 2, Self::EXPECTED)?.parse().map_err(|_| format!("{}, not {v}", Self::EXPECTED))
    }
}

impl FieldValue for UciMove {
    const EXPECTED: &'static str = "a UCI move such as e2e4 or e7e8q";
    fn from_value(v: Value) -> Result<UciMove, String> {
        match text(&v, 5, Self::EXPECTED)?.parse() {
            Ok(UciMove::Null) | Err(_) => Err(format!("{}, not {v}", Self::EXPECTED)),
            Ok(m) => Ok(m),
        }
    }
}

impl FieldValue for SanPlus {
    const EXPECTED: &'static str = "a SAN move such as Nf3 or e8=Q";
    fn from_value(v: Value) -> Result<SanPlus, String> {
        text(&v, 16, Self::EXPECTED)?.parse().map_err(|_| format!("{}, not {v}", Self::EXPECTED))
    }
}

impl FieldValue for DrawClaim {
    const EXPECTED: &'static str = "threefold or fifty";
    fn from_value(v: Value) -> Result<DrawClaim, String> {
        DrawClaim::from_name(&text(&v, 16, Self::EXPECTED)?)
            .ok_or_else(|| format!("{}, not {v}", Self::EXPECTED))
    }
}

impl FieldValue for TimeControl {
    const EXPECTED: &'static str = "a time control such as 300+2";
    fn from_value(v: Value) -> Result<TimeControl, String> {
        text(&v, 64, Self::EXPECTED)?.parse().map_err(|e| format!("{e}"))
    }
}

impl FieldValue for RuleSet {
    const EXPECTED: &'static str = "seed, fide or casual";
    fn from_value(v: Value) -> Result<RuleSet, String> {
        text(&v, 16, Self::EXPECTED)?.parse().map_err(|e| format!("{e}"))
    }
}

/// Any JSON value, for fields the caller reads further (a list, free text).
impl FieldValue for Value {
    const EXPECTED: &'static str = "a JSON value";

    fn from_value(v: Value) -> Result<Value, String> {
        Ok(v)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_missing_and_bad_fields_are_named() {
        let mut f = Fields::parse(br#"{"square":"z9","extra":1}"#).unwrap();
        assert_eq!(
            f.opt::<Square>("square"),
            Err(FieldError::field("square", "a square such as e2, not \"z9\""))
        );
        assert_eq!(f.finish(), Err(FieldError::field("extra", "unknown field")));
        let mut f = Fields::parse(b"{}").unwrap();
        assert!(
            matches!(f.req::<UciMove>("uci"), Err(FieldError::BadField { field, .. }) if field == "uci")
        );
        assert!(matches!(Fields::parse(b"[1]"), Err(FieldError::BadJson(_))));
        assert!(matches!(Fields::parse(b"{"), Err(FieldError::BadJson(_))));
        let mut f = Fields::parse(br#"{"uci":"0000"}"#).unwrap();
        assert!(f.opt::<UciMove>("uci").is_err(), "the null move is no move to play");
    }
}
