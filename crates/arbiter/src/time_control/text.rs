//! The `TimeControl` tag text (PGN standard §9.6.1 plus Rookery's extensions; the grammar is
//! in the parent module's docs).

use core::fmt;
use core::ops::Range;

use super::{Bonus, Period, TimeControl, TimeControlError, TimeControlSpec};

/// What is wrong with a time-control text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseTimeControlErrorKind {
    /// The text is empty.
    Empty,
    /// Two `:` in a row, or one at either end.
    EmptyPeriod,
    /// A `/` with nothing before it.
    MissingMoves,
    /// A period with no seconds, or a `+`/`d`/`b` with nothing after it.
    MissingSeconds,
    /// The move count is not a whole number.
    NotMoves,
    /// Not a number of seconds (`digits[.digits]`).
    NotSeconds,
    /// The correspondence days are not a whole number.
    NotDays,
    /// More than three decimals that are not all zero.
    TooPrecise,
    /// A number too large to hold.
    TooLarge,
    /// `?`, `-` or a sandclock combined with other periods.
    NotAlone,
    /// Well-formed, but not a valid control.
    Invalid(TimeControlError),
}

/// A time-control text that could not be read: the input, the offending part (a byte span
/// of the input) and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseTimeControlError {
    input: String,
    span: Range<usize>,
    kind: ParseTimeControlErrorKind,
}

impl ParseTimeControlError {
    /// The whole text given to the parser.
    pub fn input(&self) -> &str {
        &self.input
    }

    /// The offending part, as a byte range of [`ParseTimeControlError::input`].
    pub fn span(&self) -> Range<usize> {
        self.span.clone()
    }

    /// The offending text.
    pub fn offending(&self) -> &str {
        &self.input[self.span.clone()]
    }

    /// Why it was rejected.
    pub fn kind(&self) -> &ParseTimeControlErrorKind {
        &self.kind
    }
}

impl fmt::Display for ParseTimeControlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        use ParseTimeControlErrorKind as K;
        if self.kind == K::Empty {
            return f.write_str("empty time control");
        }
        write!(f, "invalid time control `{}`: ", self.input)?;
        let text = self.offending();
        match &self.kind {
            K::Empty => Ok(()),
            K::EmptyPeriod => write!(f, "empty period at column {}", self.span.start + 1),
            K::MissingMoves => write!(f, "`{text}` has no move count before `/`"),
            K::MissingSeconds => write!(f, "`{text}` is missing a number of seconds"),
            K::NotMoves => write!(f, "`{text}` is not a number of moves"),
            K::NotSeconds => write!(f, "`{text}` is not a number of seconds"),
            K::NotDays => write!(f, "`{text}` is not a whole number of days"),
            K::TooPrecise => write!(f, "`{text}` is more precise than a millisecond"),
            K::TooLarge => write!(f, "`{text}` is too large"),
            K::NotAlone => write!(f, "`{text}` must be the only field"),
            K::Invalid(e) => write!(f, "{e} (`{text}`)"),
        }
    }
}

impl std::error::Error for ParseTimeControlError {}

type Failure = (Range<usize>, ParseTimeControlErrorKind);

pub(super) fn parse(input: &str) -> Result<TimeControl, ParseTimeControlError> {
    parse_inner(input).map_err(|(span, kind)| ParseTimeControlError {
        input: input.to_owned(),
        span,
        kind,
    })
}

fn parse_inner(input: &str) -> Result<TimeControl, Failure> {
    use ParseTimeControlErrorKind as K;
    let whole = 0..input.len();
    match input {
        "" => return Err((whole, K::Empty)),
        "?" => return Ok(TimeControl::unknown()),
        "-" => return Ok(TimeControl::untimed()),
        _ => {}
    }
    // `3d`: correspondence. `1.5d` is a mistaken day count, not a period.
    if let Some(days) = input.strip_suffix('d') {
        if !days.is_empty() && days.bytes().all(|b| b.is_ascii_digit() || b == b'.') {
            let span = 0..days.len();
            if days.contains('.') {
                return Err((span, K::NotDays));
            }
            let days = days.parse::<u32>().map_err(|_| (span, K::TooLarge))?;
            return TimeControl::correspondence(days).map_err(|e| (whole, K::Invalid(e)));
        }
    }

    let mut fields = Vec::new();
    let mut start = 0;
    for text in input.split(':') {
        fields.push((start, text));
        start += text.len() + 1;
    }
    for &(start, text) in &fields {
        let span = start..start + text.len();
        if text.is_empty() {
            return Err((start..start, K::EmptyPeriod));
        }
        let special = text == "?" || text == "-" || text.starts_with('*');
        if special && fields.len() > 1 {
            return Err((span, K::NotAlone));
        }
    }
    if let Some(total) = input.strip_prefix('*') {
        if total.is_empty() {
            return Err((whole, K::MissingSeconds));
        }
        let total_ms = seconds(total, 1)?;
        return TimeControl::sandclock(total_ms).map_err(|e| (whole, K::Invalid(e)));
    }

    let mut periods = Vec::with_capacity(fields.len());
    let mut written = Vec::with_capacity(fields.len());
    for &(start, text) in &fields {
        let (period, has_bonus) = period(text, start)?;
        periods.push(period);
        written.push(has_bonus);
    }
    // Shorthand `40/5400:1800+30`: a bonus written only on the last period applies to all.
    let last = periods.len() - 1;
    if !written[..last].iter().any(|&w| w) {
        let bonus = periods[last].bonus;
        for p in &mut periods {
            p.bonus = bonus;
        }
    }
    TimeControl::from_periods(periods).map_err(|e| {
        let span = match e {
            TimeControlError::ZeroMoves { period }
            | TimeControlError::NoTime { period }
            | TimeControlError::AfterSuddenDeath { period } => {
                let (start, text) = fields[period - 1];
                start..start + text.len()
            }
            _ => whole,
        };
        (span, K::Invalid(e))
    })
}

/// `[moves "/"] seconds [("+" | "d" | "b") seconds]` at byte `start` of the input; also says
/// whether a bonus was written.
fn period(text: &str, start: usize) -> Result<(Period, bool), Failure> {
    use ParseTimeControlErrorKind as K;
    let whole = start..start + text.len();
    let (moves, rest, rest_start) = match text.split_once('/') {
        Some((moves, rest)) => {
            let span = start..start + moves.len();
            if moves.is_empty() {
                return Err((whole, K::MissingMoves));
            }
            if !moves.bytes().all(|b| b.is_ascii_digit()) {
                return Err((span, K::NotMoves));
            }
            let moves = moves.parse::<u32>().map_err(|_| (span, K::TooLarge))?;
            (Some(moves), rest, start + text.len() - rest.len())
        }
        None => (None, text, start),
    };
    let (base, bonus) = match rest.find(['+', 'd', 'b']) {
        Some(i) => (&rest[..i], Some((rest.as_bytes()[i], &rest[i + 1..], rest_start + i + 1))),
        None => (rest, None),
    };
    if base.is_empty() {
        return Err((whole, K::MissingSeconds));
    }
    let base_ms = seconds(base, rest_start)?;
    let written = bonus.is_some();
    let bonus = match bonus {
        None => Bonus::None,
        Some((_, "", _)) => return Err((whole, K::MissingSeconds)),
        Some((kind, amount, at)) => {
            let ms = seconds(amount, at)?;
            match kind {
                b'+' => Bonus::Increment(ms),
                b'd' => Bonus::SimpleDelay(ms),
                _ => Bonus::Bronstein(ms),
            }
        }
    };
    Ok((Period { moves, base_ms, bonus }, written))
}

/// `digits ["." digits]` seconds at byte `start`, in milliseconds. Decimals past the third
/// must be zeros.
fn seconds(text: &str, start: usize) -> Result<u64, Failure> {
    use ParseTimeControlErrorKind as K;
    let span = start..start + text.len();
    let (int, frac) = match text.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (text, None),
    };
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if !digits(int) || frac.is_some_and(|f| !digits(f)) {
        return Err((span, K::NotSeconds));
    }
    let frac = frac.unwrap_or("");
    if frac.bytes().skip(3).any(|b| b != b'0') {
        return Err((span, K::TooPrecise));
    }
    let frac_ms = frac
        .bytes()
        .chain(core::iter::repeat(b'0'))
        .take(3)
        .fold(0, |acc, b| acc * 10 + u64::from(b - b'0'));
    int.parse::<u64>()
        .ok()
        .and_then(|s| s.checked_mul(1000))
        .and_then(|ms| ms.checked_add(frac_ms))
        .ok_or((span, K::TooLarge))
}

struct Seconds(u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (s, ms) = (self.0 / 1000, self.0 % 1000);
        if ms == 0 {
            write!(f, "{s}")
        } else {
            let frac = format!("{ms:03}");
            write!(f, "{s}.{}", frac.trim_end_matches('0'))
        }
    }
}

fn write_bonus(bonus: Bonus, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match bonus {
        Bonus::None => Ok(()),
        Bonus::Increment(ms) => write!(f, "+{}", Seconds(ms)),
        Bonus::SimpleDelay(ms) => write!(f, "d{}", Seconds(ms)),
        Bonus::Bronstein(ms) => write!(f, "b{}", Seconds(ms)),
    }
}

pub(super) fn write(spec: &TimeControlSpec, f: &mut fmt::Formatter<'_>) -> fmt::Result {
    match spec {
        TimeControlSpec::Unknown => f.write_str("?"),
        TimeControlSpec::Untimed => f.write_str("-"),
        TimeControlSpec::Correspondence { days } => write!(f, "{days}d"),
        TimeControlSpec::Sandclock { total_ms } => write!(f, "*{}", Seconds(*total_ms)),
        TimeControlSpec::Periods(periods) => {
            let last = periods.len().saturating_sub(1);
            let uniform = periods.iter().all(|p| p.bonus == periods[0].bonus);
            for (i, p) in periods.iter().enumerate() {
                if i > 0 {
                    f.write_str(":")?;
                }
                if let Some(moves) = p.moves {
                    write!(f, "{moves}/")?;
                }
                write!(f, "{}", Seconds(p.base_ms))?;
                if uniform {
                    if i == last {
                        write_bonus(p.bonus, f)?;
                    }
                } else if i == 0 && p.bonus.is_none() {
                    // Keeps the shorthand off: later bonuses do not reach back here.
                    f.write_str("+0")?;
                } else {
                    write_bonus(p.bonus, f)?;
                }
            }
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::MS_PER_DAY;
    use super::*;
    use ParseTimeControlErrorKind as K;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    /// PGN standard §9.6.1 forms and the documented extensions, each with its canonical text.
    #[test]
    fn every_form_parses_and_round_trips() {
        let cases: &[(&str, &str)] = &[
            ("?", "?"),
            ("-", "-"),
            ("300", "300"),
            ("4500+60", "4500+60"),
            ("40/9000", "40/9000"),
            ("40/9000:1800", "40/9000:1800"),
            ("40/7200:20/3600:1800", "40/7200:20/3600:1800"),
            ("*180", "*180"),
            ("300d5", "300d5"),
            ("300b5", "300b5"),
            ("3d", "3d"),
            ("10+0.1", "10+0.1"),
            ("0.5+0.25", "0.5+0.25"),
            ("1.000+0.1000", "1+0.1"),
            ("0+1", "0+1"),
            ("300+0", "300"),
            ("300d0", "300"),
            ("0300", "300"),
            ("40/5400:1800+30", "40/5400:1800+30"),
            ("40/5400+30:1800+30", "40/5400:1800+30"),
            ("40/5400+0:1800+30", "40/5400+0:1800+30"),
            ("40/5400+30:1800", "40/5400+30:1800"),
            ("40/5400+30:1800+0", "40/5400+30:1800"),
            ("40/5400d30:1800b5", "40/5400d30:1800b5"),
            ("40/5400:1800d5", "40/5400:1800d5"),
            ("40/5400:20/3600:900+30", "40/5400:20/3600:900+30"),
            ("40/5400:20/3600+30:900", "40/5400+0:20/3600+30:900"),
            ("30/300:0+30", "30/300:0+30"),
        ];
        for &(input, canonical) in cases {
            let parsed = tc(input);
            assert_eq!(parsed.to_string(), canonical, "{input}");
            assert_eq!(tc(canonical), parsed, "{input} -> {canonical}");
        }
    }

    #[test]
    fn parsed_values() {
        let p = |moves, base_ms, bonus| Period { moves, base_ms, bonus };
        assert_eq!(tc("10+0.1"), TimeControl::fischer(10_000, 100).unwrap());
        assert_eq!(tc("300d5"), TimeControl::simple_delay(300_000, 5_000).unwrap());
        assert_eq!(tc("300b5"), TimeControl::bronstein(300_000, 5_000).unwrap());
        assert_eq!(tc("*180"), TimeControl::sandclock(180_000).unwrap());
        assert_eq!(tc("3d").spec(), &TimeControlSpec::Correspondence { days: 3 });
        assert_eq!(tc("3d").initial_ms(), Some(3 * MS_PER_DAY));
        let inc = Bonus::Increment(30_000);
        assert_eq!(
            tc("40/5400:1800+30").periods(),
            [p(Some(40), 5_400_000, inc), p(None, 1_800_000, inc)]
        );
        assert_eq!(
            tc("40/5400+0:1800+30").periods(),
            [p(Some(40), 5_400_000, Bonus::None), p(None, 1_800_000, inc)]
        );
    }

    #[test]
    fn constructed_values_round_trip() {
        let controls = [
            TimeControl::unknown(),
            TimeControl::untimed(),
            TimeControl::sudden_death(1).unwrap(),
            TimeControl::fischer(0, 1).unwrap(),
            TimeControl::bronstein(123_456, 7_890).unwrap(),
            TimeControl::simple_delay(60_000, 2_500).unwrap(),
            TimeControl::sandclock(1).unwrap(),
            TimeControl::correspondence(14).unwrap(),
            TimeControl::from_periods(vec![
                Period::moves_in(40, 6_000_000).with_bonus(Bonus::SimpleDelay(5_000)),
                Period::moves_in(20, 3_600_000).with_bonus(Bonus::Increment(30_000)),
            ])
            .unwrap(),
        ];
        for c in controls {
            assert_eq!(tc(&c.to_string()), c, "{c}");
        }
    }

    /// Every error kind, with the message that names the offending text.
    #[test]
    fn every_parse_error() {
        let cases: &[(&str, &str, K, &str)] = &[
            ("", "", K::Empty, "empty time control"),
            ("40/5400::1800", "", K::EmptyPeriod, "empty period at column 9"),
            (":300", "", K::EmptyPeriod, "empty period at column 1"),
            ("300:", "", K::EmptyPeriod, "empty period at column 5"),
            ("/300", "/300", K::MissingMoves, "`/300` has no move count before `/`"),
            ("40/", "40/", K::MissingSeconds, "`40/` is missing a number of seconds"),
            ("300+", "300+", K::MissingSeconds, "`300+` is missing a number of seconds"),
            ("+5", "+5", K::MissingSeconds, "`+5` is missing a number of seconds"),
            ("300b", "300b", K::MissingSeconds, "`300b` is missing a number of seconds"),
            ("x/300", "x", K::NotMoves, "`x` is not a number of moves"),
            ("40/5400:-1/60", "-1", K::NotMoves, "`-1` is not a number of moves"),
            ("5min", "5min", K::NotSeconds, "`5min` is not a number of seconds"),
            ("300+5s", "5s", K::NotSeconds, "`5s` is not a number of seconds"),
            ("300 +5", "300 ", K::NotSeconds, "`300 ` is not a number of seconds"),
            ("10+.1", ".1", K::NotSeconds, "`.1` is not a number of seconds"),
            ("10.", "10.", K::NotSeconds, "`10.` is not a number of seconds"),
            ("40/300/2", "300/2", K::NotSeconds, "`300/2` is not a number of seconds"),
            ("300+5d", "5d", K::NotSeconds, "`5d` is not a number of seconds"),
            ("1.5d", "1.5", K::NotDays, "`1.5` is not a whole number of days"),
            ("10+0.0001", "0.0001", K::TooPrecise, "`0.0001` is more precise than a millisecond"),
            ("99999999999999999999", "99999999999999999999", K::TooLarge, "is too large"),
            ("99999999999/60", "99999999999", K::TooLarge, "`99999999999` is too large"),
            ("99999999999d", "99999999999", K::TooLarge, "`99999999999` is too large"),
            ("?:300", "?", K::NotAlone, "`?` must be the only field"),
            ("300:-", "-", K::NotAlone, "`-` must be the only field"),
            ("40/5400:*60", "*60", K::NotAlone, "`*60` must be the only field"),
            ("*", "*", K::MissingSeconds, "`*` is missing a number of seconds"),
            ("*1m", "1m", K::NotSeconds, "`1m` is not a number of seconds"),
            (
                "*0",
                "*0",
                K::Invalid(TimeControlError::EmptySandclock),
                "a sandclock must hold some time",
            ),
            ("0d", "0d", K::Invalid(TimeControlError::ZeroDays), "at least one day per move"),
            (
                "0",
                "0",
                K::Invalid(TimeControlError::NoTime { period: 1 }),
                "period 1 gives no time",
            ),
            ("0+0", "0+0", K::Invalid(TimeControlError::NoTime { period: 1 }), "gives no time"),
            (
                "40/5400:0",
                "0",
                K::Invalid(TimeControlError::NoTime { period: 2 }),
                "period 2 gives no time: no base time and no increment or delay (`0`)",
            ),
            (
                "0/300",
                "0/300",
                K::Invalid(TimeControlError::ZeroMoves { period: 1 }),
                "invalid time control `0/300`: period 1 asks for zero moves (`0/300`)",
            ),
            (
                "300:40/60",
                "40/60",
                K::Invalid(TimeControlError::AfterSuddenDeath { period: 2 }),
                "period 2 follows a sudden-death period and would never start (`40/60`)",
            ),
            (
                "315360001",
                "315360001",
                K::Invalid(TimeControlError::TooLong { ms: 315_360_001_000 }),
                "315360001000 ms is longer than the limit",
            ),
            (
                "3651d",
                "3651d",
                K::Invalid(TimeControlError::TooLong { ms: 3651 * MS_PER_DAY }),
                "longer",
            ),
        ];
        for (input, offending, kind, message) in cases {
            let e = input.parse::<TimeControl>().expect_err(input);
            assert_eq!(e.input(), *input);
            assert_eq!(e.kind(), kind, "{input}");
            assert_eq!(e.offending(), *offending, "{input}");
            let shown = e.to_string();
            assert!(shown.contains(message), "{input}: {shown}");
            assert!(!shown.ends_with('.'), "{shown}");
            assert!(shown.starts_with(|c: char| c.is_lowercase()), "{shown}");
            if !input.is_empty() {
                assert!(shown.starts_with(&format!("invalid time control `{input}`: ")), "{shown}");
            }
        }
    }

    #[test]
    fn non_ascii_input_is_named_not_split() {
        let e = "40/5400:30分".parse::<TimeControl>().unwrap_err();
        assert_eq!(e.offending(), "30分");
        assert_eq!(e.kind(), &K::NotSeconds);
    }
}
