//! Tie-breaks as FIDE Handbook C.07 (Play-Off and Tie-Break Regulations) defines them for
//! individual Swiss tournaments: the codes of its Article 5 table, their definitions (Articles
//! 6–10), the modifiers of Article 14 and the management of unplayed rounds of Article 16.
//!
//! Two texts are selectable, [`Regulations::C07_2024`] (in force 1 August 2024 – 28 February
//! 2026) and [`Regulations::C07_2026`] (from 1 March 2026). Their definitions are the same but
//! for the score of the dummy opponent that stands in for an unplayed round (Article 16.4): the
//! 2026 text caps it.
//!
//! Every value is exact: points are summed in tenths, products of points in hundredths, and
//! only the rating-based tie-breaks round, where and as Article 10 says.

mod encounter;
mod points;
mod rating;
mod rounds;

use std::fmt;
use std::str::FromStr;

pub(crate) use encounter::direct_encounter;
pub(crate) use rounds::Record;

use crate::score::Tenths;

/// Which text of FIDE C.07 to apply.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
#[allow(non_camel_case_types)]
pub enum Regulations {
    /// The text approved on 29 July 2024, in force from 1 August 2024 to 28 February 2026:
    /// an unplayed round counts as a game against a dummy opponent that finished on the
    /// participant's own score (Article 16.4).
    C07_2024,
    /// The text in force from 1 March 2026: the dummy's score is the participant's own score,
    /// but no more than the scheduled opponent's adjusted score for a forfeit (16.4.1) and no
    /// more than a draw's points times the number of rounds for any other unplayed round
    /// (16.4.2).
    #[default]
    C07_2026,
}

impl Regulations {
    /// Both texts, oldest first.
    pub const ALL: [Regulations; 2] = [Regulations::C07_2024, Regulations::C07_2026];

    /// The year that names the text on the command line: `2024` or `2026`.
    pub const fn year(self) -> u16 {
        match self {
            Regulations::C07_2024 => 2024,
            Regulations::C07_2026 => 2026,
        }
    }
}

impl fmt::Display for Regulations {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "C.07 {}", self.year())
    }
}

/// A text of C.07 that does not exist: the input was neither `2024` nor `2026`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseRegulationsError {
    /// The input, as given.
    pub input: String,
}

impl fmt::Display for ParseRegulationsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tie-break regulations {:?} (expected 2024 or 2026)", self.input)
    }
}

impl std::error::Error for ParseRegulationsError {}

impl FromStr for Regulations {
    type Err = ParseRegulationsError;

    /// `2024` or `2026` (also `C.07 2024`, `C07-2026`).
    fn from_str(s: &str) -> Result<Regulations, ParseRegulationsError> {
        let digits: String = s.chars().filter(char::is_ascii_digit).collect();
        let year = digits.strip_prefix("07").unwrap_or(&digits);
        match year {
            "2024" => Ok(Regulations::C07_2024),
            "2026" => Ok(Regulations::C07_2026),
            _ => Err(ParseRegulationsError { input: s.to_owned() }),
        }
    }
}

/// How many of a tie-break's values are left out (C.07 Article 14).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Modifier {
    /// Every value counts.
    None,
    /// Cut-`n` (14.1, 14.2): the `n` least significant values are left out.
    Cut(u8),
    /// Median-`n` (14.3, 14.4): the `n` least and the `n` most significant values are left out.
    Median(u8),
}

impl Modifier {
    /// How many of the least and of the most significant values are left out.
    pub(crate) const fn cuts(self) -> (usize, usize) {
        match self {
            Modifier::None => (0, 0),
            Modifier::Cut(n) => (n as usize, 0),
            Modifier::Median(n) => (n as usize, n as usize),
        }
    }
}

/// One tie-break of C.07's Article 5 table, with its modifier where Article 14 defines one.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Tiebreak {
    /// `DE`, direct encounter (Article 6): the points the tied players scored against each
    /// other. It ranks a group of tied players rather than giving each a number.
    DirectEncounter,
    /// `WIN`, the number of rounds won, with or without playing (7.1).
    Wins,
    /// `WON`, the number of games won over the board (7.2).
    GamesWon,
    /// `BPG`, the number of games played over the board with Black (7.3).
    GamesWithBlack,
    /// `BWG`, the number of games won over the board with Black (7.4).
    WinsWithBlack,
    /// `PS`, `PS-C1`: the sum of the running scores after each round (7.5, 14.1.1).
    ProgressiveScores(Modifier),
    /// `REP` (the 2023 text's `GE`): the rounds one elected to play (7.6).
    RoundsElectedToPlay,
    /// `BH`, `BH-C1`, `BH-C2`, `BH-M1`, `BH-M2`: Buchholz, the sum of the opponents' scores
    /// (8.1, 14).
    Buchholz(Modifier),
    /// `SB`, `SB-C1`: Sonneborn-Berger, each opponent's score times the points scored against
    /// them (9.1, 14.1.1).
    SonnebornBerger(Modifier),
    /// `ARO`, `ARO-C1`: the average rating of the opponents played over the board (10.1).
    AverageRatingOfOpponents(Modifier),
    /// `TPR`: tournament performance rating (10.2).
    PerformanceRating,
    /// `PTP`: perfect tournament performance (10.3).
    PerfectPerformance,
}

impl Tiebreak {
    /// Every tie-break this crate computes, in the order of C.07's articles.
    pub const ALL: [Tiebreak; 19] = [
        Tiebreak::DirectEncounter,
        Tiebreak::Wins,
        Tiebreak::GamesWon,
        Tiebreak::GamesWithBlack,
        Tiebreak::WinsWithBlack,
        Tiebreak::ProgressiveScores(Modifier::None),
        Tiebreak::ProgressiveScores(Modifier::Cut(1)),
        Tiebreak::RoundsElectedToPlay,
        Tiebreak::Buchholz(Modifier::None),
        Tiebreak::Buchholz(Modifier::Cut(1)),
        Tiebreak::Buchholz(Modifier::Cut(2)),
        Tiebreak::Buchholz(Modifier::Median(1)),
        Tiebreak::Buchholz(Modifier::Median(2)),
        Tiebreak::SonnebornBerger(Modifier::None),
        Tiebreak::SonnebornBerger(Modifier::Cut(1)),
        Tiebreak::AverageRatingOfOpponents(Modifier::None),
        Tiebreak::AverageRatingOfOpponents(Modifier::Cut(1)),
        Tiebreak::PerformanceRating,
        Tiebreak::PerfectPerformance,
    ];

    /// The code C.07 gives it (`BH-C1`, `SB`, `DE` …).
    pub fn code(self) -> &'static str {
        match self {
            Tiebreak::DirectEncounter => "DE",
            Tiebreak::Wins => "WIN",
            Tiebreak::GamesWon => "WON",
            Tiebreak::GamesWithBlack => "BPG",
            Tiebreak::WinsWithBlack => "BWG",
            Tiebreak::ProgressiveScores(Modifier::Cut(1)) => "PS-C1",
            Tiebreak::ProgressiveScores(_) => "PS",
            Tiebreak::RoundsElectedToPlay => "REP",
            Tiebreak::Buchholz(Modifier::Cut(1)) => "BH-C1",
            Tiebreak::Buchholz(Modifier::Cut(2)) => "BH-C2",
            Tiebreak::Buchholz(Modifier::Median(1)) => "BH-M1",
            Tiebreak::Buchholz(Modifier::Median(2)) => "BH-M2",
            Tiebreak::Buchholz(_) => "BH",
            Tiebreak::SonnebornBerger(Modifier::Cut(1)) => "SB-C1",
            Tiebreak::SonnebornBerger(_) => "SB",
            Tiebreak::AverageRatingOfOpponents(Modifier::Cut(1)) => "ARO-C1",
            Tiebreak::AverageRatingOfOpponents(_) => "ARO",
            Tiebreak::PerformanceRating => "TPR",
            Tiebreak::PerfectPerformance => "PTP",
        }
    }

    /// Whether a lower value ranks higher. Only direct encounter, whose value is a place.
    pub const fn lower_is_better(self) -> bool {
        matches!(self, Tiebreak::DirectEncounter)
    }
}

impl fmt::Display for Tiebreak {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.code())
    }
}

/// A tie-break code that C.07 does not define, or that this crate does not compute.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseTiebreakError {
    /// The code, as given.
    pub code: String,
}

impl fmt::Display for ParseTiebreakError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown tie-break {:?} (known: ", self.code)?;
        for (i, tiebreak) in Tiebreak::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            f.write_str(tiebreak.code())?;
        }
        f.write_str(")")
    }
}

impl std::error::Error for ParseTiebreakError {}

impl FromStr for Tiebreak {
    type Err = ParseTiebreakError;

    /// A C.07 code, in any case: `BH-C1`, `sb`, `AROC1` (the hyphen before a modifier may be
    /// left out), `GE` (the 2023 text's name of `REP`).
    fn from_str(s: &str) -> Result<Tiebreak, ParseTiebreakError> {
        let error = || ParseTiebreakError { code: s.to_owned() };
        let upper = s.trim().to_ascii_uppercase();
        if upper == "GE" {
            return Ok(Tiebreak::RoundsElectedToPlay);
        }
        let normal = normalise_modifier(&upper).ok_or_else(error)?;
        Tiebreak::ALL.into_iter().find(|t| t.code() == normal).ok_or_else(error)
    }
}

/// `BHC1`, `BH/C1` (Gacrux), `BH:C1` (TRF-2026 `202`) → `BH-C1`; `None` if the separator is
/// doubled or dangling.
fn normalise_modifier(code: &str) -> Option<String> {
    let code = code.replace(['/', ':'], "-");
    if code.contains("--") || code.ends_with('-') || code.starts_with('-') {
        return None;
    }
    for suffix in ["C1", "C2", "M1", "M2"] {
        if let Some(base) = code.strip_suffix(suffix) {
            let base = base.strip_suffix('-').unwrap_or(base);
            if !base.is_empty() && !base.contains('-') {
                return Some(format!("{base}-{suffix}"));
            }
        }
    }
    Some(code)
}

/// A tie-break value, exact.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Value {
    /// A sum of points, in tenths (Buchholz, progressive scores).
    Tenths(u64),
    /// A sum of products of points, in hundredths (Sonneborn-Berger).
    Hundredths(u64),
    /// A number of rounds or games.
    Count(u32),
    /// A rating (ARO, TPR, PTP), rounded as Article 10 says.
    Rating(i32),
    /// The place among the players still tied when direct encounter was applied (1 = first).
    Place(u32),
    /// No value: a rating-based tie-break with unrated players present (Article 10), or no
    /// game to compute it from.
    Undefined,
}

impl Value {
    /// The value as a number, for output that wants one (JSON): `None` for
    /// [`Value::Undefined`].
    pub fn to_f64(self) -> Option<f64> {
        match self {
            Value::Tenths(v) => Some(v as f64 / 10.0),
            Value::Hundredths(v) => Some(v as f64 / 100.0),
            Value::Count(v) | Value::Place(v) => Some(f64::from(v)),
            Value::Rating(v) => Some(f64::from(v)),
            Value::Undefined => None,
        }
    }

    /// A key that orders values of one tie-break from best to worst: defined values before
    /// [`Value::Undefined`], then higher before lower (lower before higher for places).
    pub(crate) fn rank_key(self) -> (bool, i128) {
        match self {
            Value::Tenths(v) | Value::Hundredths(v) => (false, -i128::from(v)),
            Value::Count(v) => (false, -i128::from(v)),
            Value::Rating(v) => (false, -i128::from(v)),
            Value::Place(v) => (false, i128::from(v)),
            Value::Undefined => (true, 0),
        }
    }
}

impl fmt::Display for Value {
    /// `12.5` for tenths, `9.75` for hundredths, integers as they are, `-` for no value.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match *self {
            Value::Tenths(v) => Tenths(i128::from(v)).to_string(),
            Value::Hundredths(v) => format!("{}.{:02}", v / 100, v % 100),
            Value::Count(v) | Value::Place(v) => v.to_string(),
            Value::Rating(v) => v.to_string(),
            Value::Undefined => "-".to_owned(),
        };
        f.pad(&text)
    }
}

/// The value of a tie-break that gives each player a number (all but direct encounter, which
/// the standings apply to tied groups) for the player at `index`.
pub(crate) fn scalar_value(
    tiebreak: Tiebreak,
    records: &[Record],
    index: usize,
    context: &rounds::Context,
) -> Value {
    let record = &records[index];
    match tiebreak {
        Tiebreak::DirectEncounter => Value::Undefined,
        Tiebreak::Wins => points::wins(record, context),
        Tiebreak::GamesWon => points::games_won(record),
        Tiebreak::GamesWithBlack => points::games_with_black(record),
        Tiebreak::WinsWithBlack => points::wins_with_black(record),
        Tiebreak::ProgressiveScores(modifier) => points::progressive_scores(record, modifier),
        Tiebreak::RoundsElectedToPlay => points::rounds_elected_to_play(record),
        Tiebreak::Buchholz(modifier) => points::buchholz(records, index, modifier, context),
        Tiebreak::SonnebornBerger(modifier) => {
            points::sonneborn_berger(records, index, modifier, context)
        }
        Tiebreak::AverageRatingOfOpponents(modifier) => {
            rating::average_rating_of_opponents(record, modifier, context)
        }
        Tiebreak::PerformanceRating => rating::performance_rating(record, context),
        Tiebreak::PerfectPerformance => rating::perfect_performance(record, context),
    }
}

pub(crate) use rounds::Context;
