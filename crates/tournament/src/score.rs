//! A score in a competition, exact in tenths of a point, and the one way this crate writes
//! tenths of a point.

use std::fmt;

/// A game score in tenths of a point, as TRF writes scores (`2.5`, `10.0`). Exact: never a
/// float. Not the ladder's points (`rookery_ladder::Points`, RULES.md §11), which a game wins
/// or loses; this is what a player scores in a competition: 1, ½ or 0 a game under the
/// default [`Scoring`](crate::Scoring).
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Score(pub u32);

impl Score {
    /// No points.
    pub const ZERO: Score = Score(0);
    /// Half a point.
    pub const HALF: Score = Score(5);
    /// One point.
    pub const ONE: Score = Score(10);

    /// A score of `tenths` tenths of a point.
    pub const fn from_tenths(tenths: u32) -> Score {
        Score(tenths)
    }

    /// The score in tenths of a point.
    pub const fn tenths(self) -> u32 {
        self.0
    }
}

impl std::ops::Add for Score {
    type Output = Score;
    fn add(self, other: Score) -> Score {
        Score(self.0 + other.0)
    }
}

impl std::ops::AddAssign for Score {
    fn add_assign(&mut self, other: Score) {
        self.0 += other.0;
    }
}

impl std::iter::Sum for Score {
    fn sum<I: Iterator<Item = Score>>(iter: I) -> Score {
        Score(iter.map(|p| p.0).sum())
    }
}

impl fmt::Display for Score {
    /// One decimal, as TRF writes it: `0.0`, `2.5`, `10.0`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Tenths(i128::from(self.0)).fmt(f)
    }
}

/// Tenths of a point with one decimal, signed (`2.5`, `-0.5`, `10.0`), padded to the
/// formatter's width: the one spelling of points in tenths, for a [`Score`] and for the sums
/// and differences that are no score (a penalty, a tie-break value, a declared total's gap).
pub(crate) struct Tenths(pub i128);

impl fmt::Display for Tenths {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sign = if self.0 < 0 { "-" } else { "" };
        let abs = self.0.unsigned_abs();
        f.pad(&format!("{sign}{}.{}", abs / 10, abs % 10))
    }
}
