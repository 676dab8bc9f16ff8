//! The field readers the tournament bodies share: free text, round or board numbers and a
//! board's result, each refused naming its field.

use rookery_competitions::log::result_of;
use rookery_tournament::competition::BoardResult;

use crate::protocol::{FieldError, Fields};

/// A text field that may hold any Unicode (names, passwords), at most 200 characters.
pub(super) fn free_text(f: &mut Fields, name: &'static str) -> Result<Option<String>, FieldError> {
    match f.opt::<serde_json::Value>(name)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) if s.chars().count() <= 200 => Ok(Some(s)),
        Some(other) => {
            Err(FieldError::field(name, format!("text of at most 200 characters, not {other}")))
        }
    }
}

/// A round or board number, 1 to 999.
pub(super) fn round_field(f: &mut Fields, name: &'static str) -> Result<u32, FieldError> {
    let r: i64 = f.req(name)?;
    if !(1..=999).contains(&r) {
        return Err(FieldError::field(name, format!("1 to 999, not {r}")));
    }
    Ok(r as u32)
}

/// A board's result in the `result` field: `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+` or `--`.
pub(super) fn board_result(f: &mut Fields) -> Result<BoardResult, FieldError> {
    let result: String = f.req("result")?;
    result_of(&result).ok_or_else(|| {
        FieldError::field("result", format!("1-0, 0-1, 1/2-1/2, +-, -+ or --, not {result:?}"))
    })
}
