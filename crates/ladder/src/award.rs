//! The points a game moves from one player to the other (RULES.md §11).
//!
//! The §11 table, with `diff` the absolute difference of the points before the game:
//!
//! | outcome                | diff < 10 | 10 ≤ diff < 100     | 100 ≤ diff < 200 | diff ≥ 200 |
//! |------------------------|-----------|---------------------|------------------|------------|
//! | draw: lower side gains | 0         | (10 + diff/10) / 2  | diff / 4         | diff / 4   |
//! | lower side wins, gains | 10        | 10 + diff/10        | diff / 2         | diff / 2   |
//! | higher side wins, gains| 10        | 10 − diff/12.5      | 2                | 0          |
//!
//! Every game is zero-sum: the loser loses exactly what the winner gains, and in a draw the
//! higher side loses what the lower side gains. Each award is computed as an exact fraction of
//! hundredths and rounded once, half away from zero, to the hundredth; no floating point.

use std::error::Error;
use std::fmt;
use std::str::FromStr;

use rookery_core::{Color, GameResult};

use crate::Points;

/// How a game between players A and B ended, seen without colours: the §11 table and
/// Glicko-2 are symmetric in the two players, and a game without a result moves nothing, so
/// there is no `*` here. This is not [`rookery_core::GameResult`] (a result by colour, with
/// `*`): [`PairResult::of_white`] reads one with A as White.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PairResult {
    /// A won, B lost.
    AWins,
    /// B won, A lost.
    BWins,
    /// Drawn.
    Draw,
}

impl PairResult {
    /// All three results.
    pub const ALL: [PairResult; 3] = [PairResult::AWins, PairResult::BWins, PairResult::Draw];

    /// The same game seen from the other side: A and B swapped.
    #[must_use]
    pub const fn swapped(self) -> PairResult {
        match self {
            PairResult::AWins => PairResult::BWins,
            PairResult::BWins => PairResult::AWins,
            PairResult::Draw => PairResult::Draw,
        }
    }

    /// A's score: 1 for a win, ½ for a draw, 0 for a loss (for Glicko-2).
    #[must_use]
    pub const fn score_a(self) -> f64 {
        match self {
            PairResult::AWins => 1.0,
            PairResult::BWins => 0.0,
            PairResult::Draw => 0.5,
        }
    }

    /// A game's result with A as White; `None` for a game without a result (`*`), which moves
    /// no points.
    #[must_use]
    pub const fn of_white(result: GameResult) -> Option<PairResult> {
        match result {
            GameResult::Win(Color::White) => Some(PairResult::AWins),
            GameResult::Win(Color::Black) => Some(PairResult::BWins),
            GameResult::Draw => Some(PairResult::Draw),
            GameResult::NoResult => None,
        }
    }

    /// The command-line spelling: `a`, `b` or `draw`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PairResult::AWins => "a",
            PairResult::BWins => "b",
            PairResult::Draw => "draw",
        }
    }
}

impl fmt::Display for PairResult {
    /// Writes [`PairResult::as_str`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl FromStr for PairResult {
    type Err = ParsePairResultError;

    /// Reads `a` (A wins), `b` (B wins) or `draw`.
    fn from_str(input: &str) -> Result<PairResult, ParsePairResultError> {
        PairResult::ALL
            .into_iter()
            .find(|r| r.as_str() == input)
            .ok_or_else(|| ParsePairResultError { input: input.to_owned() })
    }
}

/// The error of [`PairResult::from_str`]: the text is not `a`, `b` or `draw`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsePairResultError {
    input: String,
}

impl ParsePairResultError {
    /// The text that failed to parse.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParsePairResultError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown result {:?}: expected a, b or draw", self.input)
    }
}

impl Error for ParsePairResultError {}

/// The column of the RULES.md §11 table that a points difference falls in.
#[derive(Copy, Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Band {
    /// `diff < 10` (at most 9.99), including equal points.
    Close,
    /// `10 ≤ diff < 100`.
    Near,
    /// `100 ≤ diff < 200`.
    Far,
    /// `diff ≥ 200`.
    Distant,
}

impl Band {
    /// The band of a difference of `diff_hundredths` hundredths, as [`Points::abs_diff`]
    /// returns it.
    ///
    /// ```
    /// use rookery_ladder::{Band, Points};
    ///
    /// let a = Points::from_whole(0);
    /// assert_eq!(Band::of(a.abs_diff("9.99".parse()?)), Band::Close);
    /// assert_eq!(Band::of(a.abs_diff("-10".parse()?)), Band::Near);
    /// assert_eq!(Band::of(a.abs_diff("199.99".parse()?)), Band::Far);
    /// assert_eq!(Band::of(a.abs_diff("200".parse()?)), Band::Distant);
    /// # Ok::<(), rookery_ladder::ParsePointsError>(())
    /// ```
    #[must_use]
    pub const fn of(diff_hundredths: u64) -> Band {
        match diff_hundredths {
            0..1_000 => Band::Close,
            1_000..10_000 => Band::Near,
            10_000..20_000 => Band::Far,
            _ => Band::Distant,
        }
    }
}

/// What the lower side gains from a draw, a win by the lower side and a win by the higher side,
/// in hundredths, for a difference of `d` hundredths (RULES.md §11 table, row by row).
///
/// `d` is at most `2 × Points::MAX` (below 2·10¹⁵), so `8 × d` cannot overflow an `i64`.
const fn table(d: i64) -> Gains {
    match Band::of(d.unsigned_abs()) {
        Band::Close => Gains { draw: 0, lower_wins: 1_000, higher_wins: 1_000 },
        Band::Near => Gains {
            // (10 + diff/10) / 2 = (1000 + d/10) / 2 hundredths = (10 000 + d) / 20.
            draw: div_round(10_000 + d, 20),
            // 10 + diff/10 = 1000 + d/10 hundredths = (10 000 + d) / 10.
            lower_wins: div_round(10_000 + d, 10),
            // 10 − diff/12.5 = 1000 − 8d/100 hundredths = (100 000 − 8d) / 100.
            higher_wins: div_round(100_000 - 8 * d, 100),
        },
        Band::Far => Gains { draw: div_round(d, 4), lower_wins: div_round(d, 2), higher_wins: 200 },
        Band::Distant => {
            Gains { draw: div_round(d, 4), lower_wins: div_round(d, 2), higher_wins: 0 }
        }
    }
}

/// One column of the §11 table, in hundredths.
struct Gains {
    draw: i64,
    lower_wins: i64,
    higher_wins: i64,
}

/// `n / d` rounded half away from zero, for `d > 0`, exactly in integers.
const fn div_round(n: i64, d: i64) -> i64 {
    let (q, r) = (n / d, n % d);
    // `r` has the sign of `n`; |r| ≥ d/2 (i.e. 2|r| ≥ d) rounds away from zero.
    if 2 * r.abs() >= d {
        q + n.signum()
    } else {
        q
    }
}

/// The change to A's and B's points from one game (RULES.md §11), as `(delta_a, delta_b)`.
///
/// `points_a` and `points_b` are the totals before the game. The deltas always sum to zero: the
/// loser loses what the winner gains, and in a draw the higher side loses what the lower side
/// gains (with equal points a draw changes nothing and a win is worth 10).
///
/// The new totals are `points_a + delta_a` and `points_b + delta_b`; use
/// [`Points::checked_add`], since a total near [`Points::MAX`] may leave the range.
///
/// ```
/// use rookery_ladder::{award, PairResult, Points};
///
/// let p = |s: &str| s.parse::<Points>().unwrap();
/// // Equal points: the winner gains 10, a draw changes nothing.
/// assert_eq!(award(p("0"), p("0"), PairResult::AWins), (p("10"), p("-10")));
/// assert_eq!(award(p("0"), p("0"), PairResult::Draw), (p("0"), p("0")));
/// // diff 50: the lower side gains 10 + 50/10 = 15 by winning, (10 + 5)/2 = 7.5 by drawing,
/// // and the higher side 10 − 50/12.5 = 6 by winning.
/// assert_eq!(award(p("100"), p("150"), PairResult::AWins), (p("15"), p("-15")));
/// assert_eq!(award(p("100"), p("150"), PairResult::Draw), (p("7.5"), p("-7.5")));
/// assert_eq!(award(p("100"), p("150"), PairResult::BWins), (p("-6"), p("6")));
/// ```
#[must_use]
pub const fn award(points_a: Points, points_b: Points, result: PairResult) -> (Points, Points) {
    let a = points_a.hundredths();
    let b = points_b.hundredths();
    // Both lie in ±Points::MAX, so the difference fits an i64.
    let gains = table((a - b).abs());
    let a_is_lower = a < b;
    // What A gains; B gains the negation (zero-sum).
    let gain_a = match result {
        PairResult::Draw if a_is_lower => gains.draw,
        PairResult::Draw => -gains.draw,
        PairResult::AWins if a_is_lower => gains.lower_wins,
        PairResult::AWins => gains.higher_wins,
        PairResult::BWins if a_is_lower => -gains.higher_wins,
        PairResult::BWins => -gains.lower_wins,
    };
    // |gain_a| ≤ max(10 points, round(diff / 2)) ≤ Points::MAX, since diff ≤ 2 × Points::MAX.
    match (Points::from_hundredths(gain_a), Points::from_hundredths(-gain_a)) {
        (Some(delta_a), Some(delta_b)) => (delta_a, delta_b),
        _ => unreachable!(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_is_half_away_from_zero() {
        for (n, d, q) in [
            (0, 4, 0),
            (1, 4, 0),
            (2, 4, 1),
            (3, 4, 1),
            (5, 10, 1),
            (4, 10, 0),
            (15, 10, 2),
            (-5, 10, -1),
            (-4, 10, 0),
            (-15, 10, -2),
            (-2, 4, -1),
            (19_999, 20, 1_000),
            (8, 100, 0),
            (50, 100, 1),
            (-50, 100, -1),
        ] {
            assert_eq!(div_round(n, d), q, "{n}/{d}");
        }
    }

    #[test]
    fn bands() {
        assert_eq!(Band::of(0), Band::Close);
        assert_eq!(Band::of(999), Band::Close);
        assert_eq!(Band::of(1_000), Band::Near);
        assert_eq!(Band::of(9_999), Band::Near);
        assert_eq!(Band::of(10_000), Band::Far);
        assert_eq!(Band::of(19_999), Band::Far);
        assert_eq!(Band::of(20_000), Band::Distant);
        assert_eq!(Band::of(u64::MAX), Band::Distant);
    }

    #[test]
    fn results_parse_and_print() {
        for r in PairResult::ALL {
            assert_eq!(r.to_string().parse::<PairResult>(), Ok(r));
            assert_eq!(r.swapped().swapped(), r);
            assert_eq!(r.score_a() + r.swapped().score_a(), 1.0);
        }
        let err = "white".parse::<PairResult>().unwrap_err();
        assert_eq!(err.input(), "white");
        assert_eq!(err.to_string(), r#"unknown result "white": expected a, b or draw"#);
        assert!("A".parse::<PairResult>().is_err());
        let of = |r: &str| PairResult::of_white(r.parse().unwrap());
        assert_eq!(of("1-0"), Some(PairResult::AWins));
        assert_eq!(of("0-1"), Some(PairResult::BWins));
        assert_eq!(of("1/2-1/2"), Some(PairResult::Draw));
        assert_eq!(of("*"), None);
    }

    #[test]
    fn extremes_do_not_overflow() {
        for r in PairResult::ALL {
            let (da, db) = award(Points::MAX, Points::MIN, r);
            assert_eq!(da, -db);
            let (da, db) = award(Points::MIN, Points::MAX, r);
            assert_eq!(da, -db);
        }
        // The lower side winning across the widest gap gains half of it: it lands on zero.
        let (da, _) = award(Points::MIN, Points::MAX, PairResult::AWins);
        assert_eq!(Points::MIN.checked_add(da), Some(Points::ZERO));
    }
}
