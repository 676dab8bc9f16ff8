//! Commands embedded in comment text, `[%name arguments]`.
//!
//! The 1994 standard leaves comment text free (§5); the commands come from the PGN
//! Specification Supplement (Cowderoy, Jones, Koenig, 2001) and are what lichess and chess.com
//! write: `[%clk 0:03:12]` for the mover's remaining time after the move, `[%eval 0.17]` or
//! `[%eval #-3]` for an engine's evaluation. RULES.md §10 records clock times this way.

use std::borrow::Cow;

/// One `[%name arguments]` command.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Command<'a> {
    /// The name after `%`, as `clk`.
    pub name: &'a [u8],
    /// The text up to `]`, trimmed.
    pub args: &'a [u8],
}

/// The commands of a comment, in order; see [`commands`].
#[derive(Clone, Debug)]
pub struct Commands<'a> {
    rest: &'a [u8],
}

/// The `[%name arguments]` commands in a comment's text. A `[%` without its `]` ends the search.
pub fn commands(comment: &[u8]) -> Commands<'_> {
    Commands { rest: comment }
}

impl<'a> Iterator for Commands<'a> {
    type Item = Command<'a>;

    fn next(&mut self) -> Option<Command<'a>> {
        let start = self.rest.windows(2).position(|w| w == b"[%")?;
        let body = &self.rest[start + 2..];
        let Some(close) = body.iter().position(|&b| b == b']') else {
            self.rest = &[];
            return None;
        };
        let inner = &body[..close];
        self.rest = &body[close + 1..];
        let name_len = inner.iter().position(u8::is_ascii_whitespace).unwrap_or(inner.len());
        let (name, args) = inner.split_at(name_len);
        Some(Command { name, args: args.trim_ascii() })
    }
}

/// The remaining time of the first `[%clk h:mm:ss(.f)]` in a comment, in milliseconds.
pub fn clock(comment: &[u8]) -> Option<u64> {
    commands(comment).find(|c| c.name == b"clk").and_then(|c| parse_clock(c.args))
}

/// Reads `h:mm:ss`, `h:mm:ss.f` (any number of fraction digits, cut to milliseconds) or
/// `m:ss`, into milliseconds.
pub fn parse_clock(text: &[u8]) -> Option<u64> {
    let (whole, fraction) = match text.iter().position(|&b| b == b'.') {
        Some(dot) => (&text[..dot], Some(&text[dot + 1..])),
        None => (text, None),
    };
    let number = |s: &[u8]| -> Option<u64> {
        if s.is_empty() || s.len() > 9 || !s.iter().all(u8::is_ascii_digit) {
            return None;
        }
        Some(s.iter().fold(0, |n, &d| n * 10 + u64::from(d - b'0')))
    };
    let mut parts = whole.split(|&b| b == b':');
    let fields: [Option<&[u8]>; 4] = [parts.next(), parts.next(), parts.next(), parts.next()];
    let seconds = match fields {
        [Some(h), Some(m), Some(s), None] => {
            let (m, s) = (number(m)?, number(s)?);
            (m < 60 && s < 60).then_some(number(h)? * 3600 + m * 60 + s)?
        }
        [Some(m), Some(s), None, None] => {
            let s = number(s)?;
            (s < 60).then_some(number(m)? * 60 + s)?
        }
        _ => return None,
    };
    let mut millis = 0;
    if let Some(fraction) = fraction {
        number(fraction)?;
        for (i, &d) in fraction.iter().take(3).enumerate() {
            millis += u64::from(d - b'0') * [100, 10, 1][i];
        }
    }
    Some(seconds * 1000 + millis)
}

/// Formats milliseconds as `h:mm:ss`, with a fraction (`h:mm:ss.5`, `h:mm:ss.25`) only when
/// there is one: the form `[%clk]` takes.
pub fn format_clock(millis: u64) -> String {
    let seconds = millis / 1000;
    let (h, m, s) = (seconds / 3600, seconds / 60 % 60, seconds % 60);
    let mut text = format!("{h}:{m:02}:{s:02}");
    let fraction = millis % 1000;
    if fraction != 0 {
        let digits = format!("{fraction:03}");
        text.push('.');
        text.push_str(digits.trim_end_matches('0'));
    }
    text
}

/// The comment command for a clock reading: `[%clk h:mm:ss]`.
pub fn clock_command(millis: u64) -> String {
    format!("[%clk {}]", format_clock(millis))
}

/// An engine's evaluation, from White's point of view.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Eval {
    /// An advantage in hundredths of a pawn (`[%eval 0.17]` is 17).
    Centipawns(i32),
    /// Mate in this many moves; negative when Black mates (`[%eval #-3]`).
    Mate(i32),
}

/// The first `[%eval ...]` of a comment.
pub fn eval(comment: &[u8]) -> Option<Eval> {
    commands(comment).find(|c| c.name == b"eval").and_then(|c| parse_eval(c.args))
}

/// Reads `0.17`, `-1.5`, `#3`, `#-2`; a `,depth` after the score is ignored.
pub fn parse_eval(text: &[u8]) -> Option<Eval> {
    let score = text.split(|&b| b == b',').next()?.trim_ascii();
    let (mate, score) = match score.strip_prefix(b"#") {
        Some(rest) => (true, rest),
        None => (false, score),
    };
    let (negative, score) = match score.first() {
        Some(b'-') => (true, &score[1..]),
        Some(b'+') => (false, &score[1..]),
        _ => (false, score),
    };
    let (whole, fraction) = match score.iter().position(|&b| b == b'.') {
        Some(dot) if !mate => (&score[..dot], &score[dot + 1..]),
        _ => (score, &b""[..]),
    };
    let digits = |s: &[u8]| s.iter().all(u8::is_ascii_digit) && s.len() <= 6;
    if whole.is_empty() && fraction.is_empty() || !digits(whole) || !digits(fraction) {
        return None;
    }
    let value = |s: &[u8]| s.iter().fold(0i32, |n, &d| n * 10 + i32::from(d - b'0'));
    let sign = if negative { -1 } else { 1 };
    if mate {
        return Some(Eval::Mate(sign * value(whole)));
    }
    let mut hundredths = 0;
    for (i, &d) in fraction.iter().take(2).enumerate() {
        hundredths += i32::from(d - b'0') * [10, 1][i];
    }
    Some(Eval::Centipawns(sign * (value(whole) * 100 + hundredths)))
}

/// The comment's text with its commands taken out and white space trimmed.
pub fn without_commands(comment: &[u8]) -> Cow<'_, [u8]> {
    if !comment.windows(2).any(|w| w == b"[%") {
        return Cow::Borrowed(comment.trim_ascii());
    }
    let mut out = Vec::with_capacity(comment.len());
    let mut rest = comment;
    while let Some(start) = rest.windows(2).position(|w| w == b"[%") {
        let Some(close) = rest[start..].iter().position(|&b| b == b']') else { break };
        out.extend_from_slice(&rest[..start]);
        rest = &rest[start + close + 1..];
    }
    out.extend_from_slice(rest);
    Cow::Owned(out.trim_ascii().to_vec())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_commands() {
        let c = b" Best was Nf6. [%eval 0.75,20] [%clk 0:00:59] ";
        let all: Vec<Command<'_>> = commands(c).collect();
        assert_eq!(all.len(), 2);
        assert_eq!(all[0], Command { name: b"eval", args: b"0.75,20" });
        assert_eq!(clock(c), Some(59_000));
        assert_eq!(eval(c), Some(Eval::Centipawns(75)));
        assert_eq!(without_commands(c).as_ref(), b"Best was Nf6.");
        assert_eq!(commands(b"[%clk 0:01:00").count(), 0);
    }

    #[test]
    fn clocks() {
        assert_eq!(parse_clock(b"0:03:12"), Some(192_000));
        assert_eq!(parse_clock(b"1:00:00"), Some(3_600_000));
        assert_eq!(parse_clock(b"0:02:59.9"), Some(179_900));
        assert_eq!(parse_clock(b"0:00:05.1234"), Some(5_123));
        assert_eq!(parse_clock(b"3:12"), Some(192_000));
        for bad in [&b"0:60:00"[..], b"x:00:00", b"0:00:00.", b"1:2:3:4", b"", b"0:00:00.x"] {
            assert_eq!(parse_clock(bad), None, "{:?}", String::from_utf8_lossy(bad));
        }
        assert_eq!(format_clock(192_000), "0:03:12");
        assert_eq!(format_clock(179_900), "0:02:59.9");
        assert_eq!(format_clock(36_005_250), "10:00:05.25");
        assert_eq!(clock_command(60_000), "[%clk 0:01:00]");
        for ms in [0, 1, 999, 59_999, 3_600_000, 86_399_999] {
            assert_eq!(parse_clock(format_clock(ms).as_bytes()), Some(ms), "{ms}");
        }
    }

    #[test]
    fn evals() {
        assert_eq!(parse_eval(b"0.17"), Some(Eval::Centipawns(17)));
        assert_eq!(parse_eval(b"-1.5"), Some(Eval::Centipawns(-150)));
        assert_eq!(parse_eval(b"+3"), Some(Eval::Centipawns(300)));
        assert_eq!(parse_eval(b"#3"), Some(Eval::Mate(3)));
        assert_eq!(parse_eval(b"#-2"), Some(Eval::Mate(-2)));
        assert_eq!(parse_eval(b"-.5"), Some(Eval::Centipawns(-50)));
        assert_eq!(parse_eval(b""), None);
        assert_eq!(parse_eval(b"abc"), None);
        assert_eq!(parse_eval(b"#"), None);
    }
}
