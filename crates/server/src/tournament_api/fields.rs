//! The field readers the tournament bodies share: free text and round or board numbers,
//! each refused naming its field.

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
