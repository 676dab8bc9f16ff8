//! Ladder points: a fixed-point number of hundredths (RULES.md §11).
//!
//! §11 keeps points "to two decimals" and rounds every award to 0.01, so a stored value is an
//! integer count of hundredths. Floating point never touches a [`Points`] value: parsing,
//! arithmetic and formatting are all integer operations.

use std::error::Error;
use std::fmt;
use std::ops::Neg;
use std::str::FromStr;

/// Hundredths in one point.
const SCALE: i64 = 100;

/// The largest magnitude, in hundredths, that a [`Points`] value may have.
///
/// Bounded well inside `i64` so that every intermediate of the §11 award arithmetic
/// (at most `8 × diff + 100_000` with `diff ≤ 2 × LIMIT`) fits without overflow.
const LIMIT: i64 = 999_999_999_999_999;

/// A number of ladder points, exact to the hundredth (RULES.md §11).
///
/// Points start at [`Points::ZERO`], may go negative, and lie between [`Points::MIN`] and
/// [`Points::MAX`] (±9 999 999 999 999.99). The same type holds totals and the deltas that
/// [`award`](crate::award) hands out.
///
/// [`Display`](fmt::Display) always writes two decimals (`12.50`, `-0.05`, `0.00`), which is
/// also a valid JSON number; [`FromStr`] reads what it writes and also accepts zero, one or two
/// decimals (`12.5`, `-3`, `0.01`).
///
/// ```
/// use rookery_ladder::Points;
///
/// let p: Points = "12.5".parse()?;
/// assert_eq!(p.hundredths(), 1250);
/// assert_eq!(p.to_string(), "12.50");
/// assert_eq!((-p).to_string(), "-12.50");
/// assert!("1.234".parse::<Points>().is_err());
/// # Ok::<(), rookery_ladder::ParsePointsError>(())
/// ```
#[derive(Copy, Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Points(i64);

impl Points {
    /// No points: where every player starts (RULES.md §11).
    pub const ZERO: Points = Points(0);

    /// The largest representable value, 9 999 999 999 999.99.
    pub const MAX: Points = Points(LIMIT);

    /// The smallest representable value, −9 999 999 999 999.99.
    pub const MIN: Points = Points(-LIMIT);

    /// Points from a count of hundredths, or `None` outside [`Points::MIN`]..=[`Points::MAX`].
    ///
    /// ```
    /// use rookery_ladder::Points;
    ///
    /// assert_eq!(Points::from_hundredths(-5).unwrap().to_string(), "-0.05");
    /// assert_eq!(Points::from_hundredths(i64::MAX), None);
    /// ```
    #[must_use]
    pub const fn from_hundredths(hundredths: i64) -> Option<Points> {
        if -LIMIT <= hundredths && hundredths <= LIMIT {
            Some(Points(hundredths))
        } else {
            None
        }
    }

    /// A whole number of points; every `i32` is in range.
    ///
    /// ```
    /// use rookery_ladder::Points;
    ///
    /// assert_eq!(Points::from_whole(-3).to_string(), "-3.00");
    /// ```
    #[must_use]
    pub const fn from_whole(points: i32) -> Points {
        Points(points as i64 * SCALE)
    }

    /// The value as a count of hundredths (`12.50` is `1250`).
    #[must_use]
    pub const fn hundredths(self) -> i64 {
        self.0
    }

    /// The absolute difference of two values: the `diff` of RULES.md §11.
    ///
    /// Always in range, because it is at most `2 × MAX` hundredths and is returned as a count of
    /// hundredths rather than as [`Points`].
    #[must_use]
    pub const fn abs_diff(self, other: Points) -> u64 {
        self.0.abs_diff(other.0)
    }

    /// `self + rhs`, or `None` if the sum leaves the representable range.
    #[must_use]
    pub const fn checked_add(self, rhs: Points) -> Option<Points> {
        // Both magnitudes are at most LIMIT, so the i64 sum cannot overflow.
        Points::from_hundredths(self.0 + rhs.0)
    }

    /// `self - rhs`, or `None` if the difference leaves the representable range.
    #[must_use]
    pub const fn checked_sub(self, rhs: Points) -> Option<Points> {
        Points::from_hundredths(self.0 - rhs.0)
    }

    /// Whether the value is below zero.
    #[must_use]
    pub const fn is_negative(self) -> bool {
        self.0 < 0
    }

    /// Whether the value is above zero.
    #[must_use]
    pub const fn is_positive(self) -> bool {
        self.0 > 0
    }
}

impl Neg for Points {
    type Output = Points;

    /// Exact: the range is symmetric.
    fn neg(self) -> Points {
        Points(-self.0)
    }
}

impl fmt::Debug for Points {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Points({self})")
    }
}

impl fmt::Display for Points {
    /// Writes the value with exactly two decimals and a leading `-` when negative.
    ///
    /// Formatter flags such as width and alignment apply to the whole number (`{:>8}`).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let magnitude = self.0.unsigned_abs();
        let scale = SCALE.unsigned_abs();
        let text = format!("{sign}{}.{:02}", magnitude / scale, magnitude % scale);
        f.pad(&text)
    }
}

impl FromStr for Points {
    type Err = ParsePointsError;

    /// Parses `[-]DIGITS[.D[D]]`: an optional minus sign, at least one digit, and optionally a
    /// point followed by one or two digits. No `+`, no exponent, no surrounding whitespace.
    fn from_str(input: &str) -> Result<Points, ParsePointsError> {
        let error = |kind| ParsePointsError { input: input.to_owned(), kind };
        if input.is_empty() {
            return Err(error(ParsePointsErrorKind::Empty));
        }
        let (negative, unsigned) = match input.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, input),
        };
        let (whole, fraction) = match unsigned.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (unsigned, None),
        };
        let all_digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if !all_digits(whole) || fraction.is_some_and(|f| !all_digits(f)) {
            return Err(error(ParsePointsErrorKind::Invalid));
        }
        let fraction = fraction.unwrap_or("");
        if fraction.len() > 2 {
            return Err(error(ParsePointsErrorKind::TooManyDecimals));
        }

        let mut cents = [b'0'; 2];
        cents[..fraction.len()].copy_from_slice(fraction.as_bytes());
        let mut hundredths: i64 = 0;
        for digit in whole.bytes().chain(cents) {
            hundredths = hundredths
                .checked_mul(10)
                .and_then(|h| h.checked_add(i64::from(digit - b'0')))
                .filter(|&h| h <= LIMIT)
                .ok_or_else(|| error(ParsePointsErrorKind::OutOfRange))?;
        }
        Ok(Points(if negative { -hundredths } else { hundredths }))
    }
}

/// Why a text is not [`Points`]; see [`ParsePointsError::kind`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ParsePointsErrorKind {
    /// The text is empty.
    Empty,
    /// The text is not a decimal number of the form `[-]DIGITS[.DIGITS]`.
    Invalid,
    /// The number has more than two decimals; §11 keeps points to 0.01.
    TooManyDecimals,
    /// The number is beyond ±9 999 999 999 999.99.
    OutOfRange,
}

/// The error of [`Points::from_str`]: the offending text and what is wrong with it.
///
/// ```
/// use rookery_ladder::{ParsePointsErrorKind, Points};
///
/// let err = "1.234".parse::<Points>().unwrap_err();
/// assert_eq!(err.kind(), ParsePointsErrorKind::TooManyDecimals);
/// assert_eq!(err.to_string(), r#"invalid points "1.234": more than two decimals"#);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePointsError {
    input: String,
    kind: ParsePointsErrorKind,
}

impl ParsePointsError {
    /// The text that failed to parse.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }

    /// What is wrong with it.
    #[must_use]
    pub fn kind(&self) -> ParsePointsErrorKind {
        self.kind
    }
}

impl fmt::Display for ParsePointsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let reason = match self.kind {
            ParsePointsErrorKind::Empty => "empty",
            ParsePointsErrorKind::Invalid => "not a decimal number",
            ParsePointsErrorKind::TooManyDecimals => "more than two decimals",
            ParsePointsErrorKind::OutOfRange => "out of range",
        };
        write!(f, "invalid points {:?}: {reason}", self.input)
    }
}

impl Error for ParsePointsError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Points, ParsePointsErrorKind> {
        s.parse::<Points>().map_err(|e| e.kind())
    }

    #[test]
    fn parses_accepted_forms() {
        for (text, hundredths) in [
            ("0", 0),
            ("-0", 0),
            ("0.0", 0),
            ("0.01", 1),
            ("-0.01", -1),
            ("12.5", 1250),
            ("12.50", 1250),
            ("-3", -300),
            ("9.99", 999),
            ("100", 10_000),
            ("007.1", 710),
            ("9999999999999.99", LIMIT),
            ("-9999999999999.99", -LIMIT),
        ] {
            assert_eq!(parse(text), Ok(Points(hundredths)), "{text:?}");
        }
    }

    #[test]
    fn rejects_bad_forms() {
        use ParsePointsErrorKind::*;
        for (text, kind) in [
            ("", Empty),
            ("abc", Invalid),
            ("1e5", Invalid),
            ("+1", Invalid),
            ("-", Invalid),
            (".5", Invalid),
            ("5.", Invalid),
            ("1.2.3", Invalid),
            (" 1", Invalid),
            ("1 ", Invalid),
            ("--1", Invalid),
            ("1,5", Invalid),
            ("NaN", Invalid),
            ("inf", Invalid),
            ("١٢", Invalid),
            ("1.234", TooManyDecimals),
            ("0.001", TooManyDecimals),
            ("10000000000000", OutOfRange),
            ("-10000000000000.00", OutOfRange),
            ("99999999999999999999999999", OutOfRange),
        ] {
            assert_eq!(parse(text), Err(kind), "{text:?}");
        }
    }

    #[test]
    fn error_names_the_input() {
        let err = "abc".parse::<Points>().unwrap_err();
        assert_eq!(err.input(), "abc");
        assert_eq!(err.to_string(), r#"invalid points "abc": not a decimal number"#);
        assert_eq!("".parse::<Points>().unwrap_err().to_string(), r#"invalid points "": empty"#);
    }

    #[test]
    fn displays_two_decimals() {
        for (hundredths, text) in [
            (0, "0.00"),
            (1, "0.01"),
            (-1, "-0.01"),
            (-50, "-0.50"),
            (1250, "12.50"),
            (-300, "-3.00"),
            (LIMIT, "9999999999999.99"),
            (-LIMIT, "-9999999999999.99"),
        ] {
            assert_eq!(Points(hundredths).to_string(), text);
            assert_eq!(parse(text), Ok(Points(hundredths)), "round trip of {text}");
        }
        assert_eq!(format!("{:>7}", Points(1250)), "  12.50");
        assert_eq!(format!("{:?}", Points(-5)), "Points(-0.05)");
    }

    #[test]
    fn arithmetic_stays_in_range() {
        assert_eq!(Points::MAX.checked_add(Points(1)), None);
        assert_eq!(Points::MIN.checked_sub(Points(1)), None);
        assert_eq!(Points::MAX.checked_add(Points::MIN), Some(Points::ZERO));
        assert_eq!(Points::MAX.abs_diff(Points::MIN), 2 * LIMIT.unsigned_abs());
        assert_eq!(-Points::MIN, Points::MAX);
        assert_eq!(Points::from_whole(i32::MIN).hundredths(), i64::from(i32::MIN) * 100);
        assert!(Points(-1).is_negative() && Points(1).is_positive());
        assert!(!Points::ZERO.is_negative() && !Points::ZERO.is_positive());
    }
}
