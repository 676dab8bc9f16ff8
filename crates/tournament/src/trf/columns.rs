//! TRF's fixed columns: splitting the input into lines, cutting fields out of a line by
//! column, and reading numbers and points the way TRF writes them.

use super::error::{Field, ReadError, ReadErrorKind};
use crate::{PlayerId, Score};

/// One line of the input, as characters: TRF columns count characters, so a name with
/// accents takes as many columns as it has letters.
pub(super) struct Line {
    /// The line number, from 1.
    pub number: u32,
    /// The characters, trailing white space removed.
    pub chars: Vec<char>,
}

/// The lines of `text` with their numbers, from 1. A line ends at CR, LF or CRLF (TRF-2026
/// Remark 1 says CR; files edited elsewhere have the others). A byte-order mark is skipped.
pub(crate) fn lines(text: &str) -> impl Iterator<Item = (u32, &str)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut rest = Some(text);
    let mut number = 0u32;
    std::iter::from_fn(move || {
        let current = rest?;
        number = number.saturating_add(1);
        match current.find(['\r', '\n']) {
            Some(end) => {
                let after = if current[end..].starts_with("\r\n") { end + 2 } else { end + 1 };
                rest = Some(&current[after..]);
                Some((number, &current[..end]))
            }
            None => {
                rest = None;
                Some((number, current))
            }
        }
    })
}

impl Line {
    pub fn new(number: u32, text: &str) -> Line {
        let mut chars: Vec<char> = text.chars().collect();
        while chars.last().is_some_and(|c| c.is_whitespace()) {
            chars.pop();
        }
        Line { number, chars }
    }

    /// The character at `column` (from 1); a blank past the end of the line.
    pub fn at(&self, column: usize) -> char {
        self.chars.get(column - 1).copied().unwrap_or(' ')
    }

    /// The blank-separated words of the line from `column` on, each with its column.
    pub fn tokens(&self, column: usize) -> Vec<(usize, String)> {
        let mut tokens = Vec::new();
        let mut current: Option<(usize, String)> = None;
        for (index, &c) in self.chars.iter().enumerate().skip(column - 1) {
            if c.is_whitespace() {
                tokens.extend(current.take());
            } else {
                current.get_or_insert_with(|| (index + 1, String::new())).1.push(c);
            }
        }
        tokens.extend(current);
        tokens
    }

    /// Columns `from..=to` (from 1), trimmed; columns past the end of the line are blank.
    pub fn field(&self, from: usize, to: usize) -> String {
        let end = to.min(self.chars.len());
        if from > end {
            return String::new();
        }
        self.chars[from - 1..end].iter().collect::<String>().trim().to_owned()
    }

    /// Everything from `column` (from 1) to the end of the line, untrimmed.
    pub fn rest(&self, column: usize) -> String {
        self.chars.iter().skip(column - 1).collect()
    }

    /// The record code: columns 1–3.
    pub fn code(&self) -> String {
        self.chars.iter().take(3).collect()
    }

    pub fn error(&self, column: usize, kind: ReadErrorKind) -> ReadError {
        ReadError::new(self.number, u32::try_from(column).unwrap_or(u32::MAX), kind)
    }

    fn invalid(&self, column: usize, field: Field, text: &str) -> ReadError {
        let kind = ReadErrorKind::InvalidField { field, text: text.to_owned() };
        self.error(column, kind)
    }

    /// An unsigned number in columns `from..=to`, `None` when blank.
    pub fn number(&self, from: usize, to: usize, field: Field) -> Result<Option<u32>, ReadError> {
        let text = self.field(from, to);
        if text.is_empty() {
            return Ok(None);
        }
        parse_number(&text).map(Some).ok_or_else(|| self.invalid(from, field, &text))
    }

    /// A number that must be there and not be 0 (a round number, a count of rounds).
    pub fn positive(&self, from: usize, to: usize, field: Field) -> Result<u32, ReadError> {
        match self.number(from, to, field)? {
            Some(0) => Err(self.invalid(from, field, &self.field(from, to))),
            Some(n) => Ok(n),
            None => Err(self.error(from, ReadErrorKind::Missing(field))),
        }
    }

    /// A pairing number in columns `from..=to`: `None` when blank or `0000`.
    pub fn player(
        &self,
        from: usize,
        to: usize,
        field: Field,
    ) -> Result<Option<PlayerId>, ReadError> {
        Ok(self.number(from, to, field)?.and_then(PlayerId::new))
    }

    /// A pairing number that must be there.
    pub fn required_player(&self, from: usize, to: usize) -> Result<PlayerId, ReadError> {
        let n = self.positive(from, to, Field::Player)?;
        Ok(PlayerId::new(n).expect("positive"))
    }

    /// Points in columns `from..=to` (`11.5`), `None` when blank.
    pub fn points(&self, from: usize, to: usize) -> Result<Option<Score>, ReadError> {
        let text = self.field(from, to);
        if text.is_empty() {
            return Ok(None);
        }
        parse_points(&text).map(Some).ok_or_else(|| self.invalid(from, Field::Points, &text))
    }
}

/// Digits only, fitting a `u32`.
pub(super) fn parse_number(text: &str) -> Option<u32> {
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    text.parse().ok()
}

/// Points as TRF and TRF(x) write them: `2`, `2.5`, `.5`, `10.0`; at most one decimal, as
/// [`Score`] counts tenths.
pub(crate) fn parse_points(text: &str) -> Option<Score> {
    let (whole, tenth) = match text.split_once('.') {
        Some((whole, tenth)) => (whole, tenth),
        None => (text, ""),
    };
    if whole.is_empty() && tenth.is_empty() {
        return None;
    }
    if tenth.len() > 1 || !tenth.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let whole = if whole.is_empty() { 0 } else { parse_number(whole)? };
    let tenth = if tenth.is_empty() { 0 } else { parse_number(tenth)? };
    whole.checked_mul(10)?.checked_add(tenth).map(Score)
}

/// Points with an optional minus sign (`299` penalties), in tenths.
pub(super) fn parse_signed_points(text: &str) -> Option<i32> {
    let (negative, digits) = match text.strip_prefix('-') {
        Some(rest) => (true, rest.trim_start()),
        None => (false, text),
    };
    let tenths = i32::try_from(parse_points(digits)?.tenths()).ok()?;
    Some(if negative { -tenths } else { tenths })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_end_at_cr_lf_and_crlf() {
        let split: Vec<_> = lines("a\rb\nc\r\nd\r\re").collect();
        assert_eq!(split, [(1, "a"), (2, "b"), (3, "c"), (4, "d"), (5, ""), (6, "e")]);
        assert_eq!(lines("").count(), 1);
    }

    #[test]
    fn points_have_at_most_one_decimal() {
        assert_eq!(parse_points("2.5"), Some(Score(25)));
        assert_eq!(parse_points(".5"), Some(Score(5)));
        assert_eq!(parse_points("3"), Some(Score(30)));
        assert_eq!(parse_points("10.0"), Some(Score(100)));
        assert_eq!(parse_points("0.25"), None);
        assert_eq!(parse_points("."), None);
        assert_eq!(parse_points("-1"), None);
        assert_eq!(parse_signed_points("-1.5"), Some(-15));
        assert_eq!(parse_signed_points("- 1.5"), Some(-15));
    }

    #[test]
    fn fields_are_cut_by_character_column() {
        let line = Line::new(1, "001    1      Müller, Jörg     ");
        assert_eq!(line.field(15, 47), "Müller, Jörg");
        assert_eq!(line.at(100), ' ');
        assert_eq!(line.field(90, 95), "");
    }
}
