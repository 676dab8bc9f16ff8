//! Tag pair values (PGN standard §8.1): the raw bytes as the reader finds them, their decoding,
//! and the escaping the writer needs.
//!
//! A tag value is a PGN string token (§7): `\"` stands for a quote and `\\` for a backslash.
//! Real files are mostly UTF-8 but older ones are Latin-1 (ISO 8859-1, which §4.1 names as the
//! PGN character set); bytes that are not valid UTF-8 are read as Latin-1, which cannot fail.

use std::borrow::Cow;
use std::fmt;

/// A tag value as it stands between the quotes, escapes still in place. Borrowed from the
/// reader's buffer: decode or copy it during the [`Visitor::tag`](crate::Visitor::tag) call.
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct RawTag<'a>(pub &'a [u8]);

impl<'a> RawTag<'a> {
    /// The bytes between the quotes, escapes included.
    pub fn as_bytes(&self) -> &'a [u8] {
        self.0
    }

    /// The value with `\"` and `\\` unescaped (any other backslash is kept as written).
    /// Borrows when there is nothing to unescape.
    pub fn decode(&self) -> Cow<'a, [u8]> {
        if !self.0.contains(&b'\\') {
            return Cow::Borrowed(self.0);
        }
        let mut out = Vec::with_capacity(self.0.len());
        let mut bytes = self.0.iter().copied();
        while let Some(b) = bytes.next() {
            if b == b'\\' {
                match bytes.next() {
                    Some(c @ (b'"' | b'\\')) => out.push(c),
                    Some(c) => out.extend_from_slice(&[b, c]),
                    None => out.push(b),
                }
            } else {
                out.push(b);
            }
        }
        Cow::Owned(out)
    }

    /// The unescaped value as text: UTF-8 when it is valid UTF-8, Latin-1 otherwise.
    pub fn decode_utf8(&self) -> Cow<'a, str> {
        match self.decode() {
            Cow::Borrowed(bytes) => match std::str::from_utf8(bytes) {
                Ok(s) => Cow::Borrowed(s),
                Err(_) => Cow::Owned(latin1(bytes)),
            },
            Cow::Owned(bytes) => match String::from_utf8(bytes) {
                Ok(s) => Cow::Owned(s),
                Err(e) => Cow::Owned(latin1(e.as_bytes())),
            },
        }
    }
}

impl fmt::Debug for RawTag<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "RawTag({:?})", String::from_utf8_lossy(self.0))
    }
}

/// Bytes read as Latin-1: each byte is the code point of the same number.
pub fn latin1(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| char::from(b)).collect()
}

/// Text as UTF-8 if it is, else as Latin-1 (comments, and tag names, go through this too).
pub fn decode_text(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => Cow::Owned(latin1(bytes)),
    }
}

/// A tag value escaped for writing between quotes (§7): `"` and `\` get a backslash, and any
/// control character (a newline would end the tag) becomes a space. Borrows when nothing
/// changes.
pub fn escape(value: &str) -> Cow<'_, str> {
    if !value.bytes().any(|b| b == b'"' || b == b'\\' || b.is_ascii_control()) {
        return Cow::Borrowed(value);
    }
    let mut out = String::with_capacity(value.len() + 4);
    for c in value.chars() {
        match c {
            '"' | '\\' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_ascii_control() => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unescapes_quotes_and_backslashes_only() {
        let raw = RawTag(br#"Say \"hi\" \\ \n"#);
        assert_eq!(raw.decode().as_ref(), br#"Say "hi" \ \n"#);
        assert_eq!(raw.decode_utf8(), r#"Say "hi" \ \n"#);
        assert!(matches!(RawTag(b"plain").decode(), Cow::Borrowed(_)));
        assert_eq!(RawTag(b"trailing\\").decode().as_ref(), b"trailing\\");
    }

    #[test]
    fn latin1_fallback() {
        assert_eq!(RawTag(b"J\xf6rg").decode_utf8(), "Jörg");
        assert_eq!(RawTag("Jörg".as_bytes()).decode_utf8(), "Jörg");
        assert_eq!(RawTag(b"\\\"J\xf6rg\\\"").decode_utf8(), "\"Jörg\"");
    }

    #[test]
    fn escape_round_trips_through_decode() {
        for value in ["plain", r#"a "quoted" \ value"#, "tab\there", "ünïcode"] {
            let escaped = escape(value);
            let expected = value.replace('\t', " ");
            assert_eq!(RawTag(escaped.as_bytes()).decode_utf8(), expected, "{value}");
        }
    }
}
