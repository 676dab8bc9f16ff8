//! Ladder levels read from points (RULES.md §11).
//!
//! Below 100 points a player is unranked (无级别); from 100 points there is one level per 100
//! points, from level 30 (100–199.99) up to level 1 (3000 and above). Level 1 is the best.

use std::cmp::Ordering;
use std::error::Error;
use std::fmt;
use std::str::FromStr;

use crate::Points;

/// The worst level, reached at 100 points.
const LOWEST: u8 = 30;

/// Machine labels, indexed by the level number (index 0 is unranked).
const LABELS: [&str; LOWEST as usize + 1] = [
    "unranked", "level-1", "level-2", "level-3", "level-4", "level-5", "level-6", "level-7",
    "level-8", "level-9", "level-10", "level-11", "level-12", "level-13", "level-14", "level-15",
    "level-16", "level-17", "level-18", "level-19", "level-20", "level-21", "level-22", "level-23",
    "level-24", "level-25", "level-26", "level-27", "level-28", "level-29", "level-30",
];

/// A player's level, always read from the current points (RULES.md §11).
///
/// Either [`Level::UNRANKED`] or a numbered level from 30 (the lowest) to 1 (the highest).
/// The order is by strength: unranked < level 30 < … < level 1.
///
/// Three spellings:
/// - [`Level::label`], the machine label: `unranked`, `level-30` … `level-1`
///   ([`FromStr`] reads it back);
/// - [`Level::en`] (also [`Display`](fmt::Display)): `unranked`, `level 12`;
/// - [`Level::zh`]: `无级别`, `12级`.
///
/// ```
/// use rookery_ladder::{Level, Points};
///
/// let level = Level::of(Points::from_whole(1950));
/// assert_eq!(level.number(), Some(12));
/// assert_eq!(level.label(), "level-12");
/// assert_eq!(level.to_string(), "level 12");
/// assert_eq!(level.zh().to_string(), "12级");
/// assert_eq!(Level::of(Points::from_whole(99)).zh().to_string(), "无级别");
/// ```
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Level(u8); // 0 = unranked, else 1..=30.

impl Level {
    /// Below 100 points (无级别).
    pub const UNRANKED: Level = Level(0);

    /// The lowest numbered level, 30, from 100 points.
    pub const LOWEST: Level = Level(LOWEST);

    /// The highest level, 1, from 3000 points.
    pub const HIGHEST: Level = Level(1);

    /// Every level from the lowest to the highest: unranked, level 30, …, level 1.
    pub const ALL: [Level; LOWEST as usize + 1] = {
        let mut all = [Level(0); LOWEST as usize + 1];
        let mut i = 1;
        while i <= LOWEST as usize {
            all[i] = Level(LOWEST + 1 - i as u8);
            i += 1;
        }
        all
    };

    /// The numbered level `number` (1..=30), or `None` for any other number.
    #[must_use]
    pub const fn new(number: u8) -> Option<Level> {
        if 1 <= number && number <= LOWEST {
            Some(Level(number))
        } else {
            None
        }
    }

    /// The level of a player with `points` (RULES.md §11).
    ///
    /// ```
    /// use rookery_ladder::{Level, Points};
    ///
    /// let at = |s: &str| Level::of(s.parse().unwrap());
    /// assert_eq!(at("-5"), Level::UNRANKED);
    /// assert_eq!(at("99.99"), Level::UNRANKED);
    /// assert_eq!(at("100"), Level::LOWEST);
    /// assert_eq!(at("199.99"), Level::LOWEST);
    /// assert_eq!(at("200").number(), Some(29));
    /// assert_eq!(at("2999.99").number(), Some(2));
    /// assert_eq!(at("3000"), Level::HIGHEST);
    /// assert_eq!(at("123456"), Level::HIGHEST);
    /// ```
    #[must_use]
    pub const fn of(points: Points) -> Level {
        // Whole hundreds of points; 100 points are 10 000 hundredths.
        let hundreds = points.hundredths().div_euclid(10_000);
        if hundreds < 1 {
            Level::UNRANKED
        } else if hundreds >= LOWEST as i64 {
            Level::HIGHEST
        } else {
            // 1 hundred → level 30, …, 29 hundreds → level 2.
            Level(LOWEST + 1 - hundreds as u8)
        }
    }

    /// The fewest points with this level: 100 for level 30, 3000 for level 1, and
    /// [`Points::MIN`] for unranked.
    #[must_use]
    pub const fn min_points(self) -> Points {
        if self.0 == 0 {
            Points::MIN
        } else {
            Points::from_whole((LOWEST + 1 - self.0) as i32 * 100)
        }
    }

    /// The level number, 30 (lowest) to 1 (highest), or `None` when unranked.
    #[must_use]
    pub const fn number(self) -> Option<u8> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0)
        }
    }

    /// Whether the player has a numbered level (at least 100 points).
    #[must_use]
    pub const fn is_ranked(self) -> bool {
        self.0 != 0
    }

    /// The machine label: `unranked`, or `level-30` … `level-1`.
    #[must_use]
    pub const fn label(self) -> &'static str {
        LABELS[self.0 as usize]
    }

    /// The English name: `unranked`, or `level 30` … `level 1`.
    #[must_use]
    pub const fn en(self) -> LevelName {
        LevelName { level: self, language: Language::En }
    }

    /// The Chinese name: `无级别`, or `30级` … `1级`.
    #[must_use]
    pub const fn zh(self) -> LevelName {
        LevelName { level: self, language: Language::Zh }
    }

    /// The name of the level in `language`.
    #[must_use]
    pub const fn name(self, language: Language) -> LevelName {
        LevelName { level: self, language }
    }
}

impl Ord for Level {
    fn cmp(&self, other: &Level) -> Ordering {
        // Unranked (0) sorts first, then a smaller number is a higher level.
        let strength = |l: &Level| if l.0 == 0 { 0 } else { LOWEST + 1 - l.0 };
        strength(self).cmp(&strength(other))
    }
}

impl PartialOrd for Level {
    fn partial_cmp(&self, other: &Level) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Debug for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Level({})", self.label())
    }
}

impl fmt::Display for Level {
    /// The English name, as [`Level::en`].
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.en(), f)
    }
}

impl FromStr for Level {
    type Err = ParseLevelError;

    /// Reads a machine label, as written by [`Level::label`].
    fn from_str(input: &str) -> Result<Level, ParseLevelError> {
        LABELS
            .iter()
            .position(|&label| label == input)
            .map(|i| Level(i as u8))
            .ok_or_else(|| ParseLevelError { input: input.to_owned() })
    }
}

/// A language for [`Level::name`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// English: `unranked`, `level 12`.
    En,
    /// Chinese, as the source document of RULES.md §11: `无级别`, `12级`.
    Zh,
}

/// A [`Level`] spelled in one [`Language`]; see [`Level::en`] and [`Level::zh`].
///
/// Formatter flags such as width and alignment apply to the whole name.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct LevelName {
    level: Level,
    language: Language,
}

impl fmt::Display for LevelName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = match (self.level.number(), self.language) {
            (None, Language::En) => "unranked".to_owned(),
            (None, Language::Zh) => "无级别".to_owned(),
            (Some(n), Language::En) => format!("level {n}"),
            (Some(n), Language::Zh) => format!("{n}级"),
        };
        f.pad(&text)
    }
}

/// The error of [`Level::from_str`]: the text is not a machine label.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseLevelError {
    input: String,
}

impl ParseLevelError {
    /// The text that failed to parse.
    #[must_use]
    pub fn input(&self) -> &str {
        &self.input
    }
}

impl fmt::Display for ParseLevelError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid level {:?}: expected unranked or level-30 to level-1", self.input)
    }
}

impl Error for ParseLevelError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(hundredths: i64) -> Level {
        Level::of(Points::from_hundredths(hundredths).unwrap())
    }

    #[test]
    fn every_band_edge() {
        assert_eq!(at(Points::MIN.hundredths()), Level::UNRANKED);
        assert_eq!(at(-1), Level::UNRANKED);
        assert_eq!(at(0), Level::UNRANKED);
        assert_eq!(at(9_999), Level::UNRANKED);
        for n in 1..=LOWEST {
            let floor = i64::from(LOWEST + 1 - n) * 10_000;
            let level = Level::new(n).unwrap();
            assert_eq!(at(floor), level, "at the floor of level {n}");
            assert_eq!(level.min_points().hundredths(), floor, "min_points of level {n}");
            if n > 1 {
                assert_eq!(at(floor + 9_999), level, "at the top of level {n}");
            }
            assert!(at(floor - 1) < level, "just below level {n}");
        }
        assert_eq!(at(300_000), Level::HIGHEST);
        assert_eq!(at(Points::MAX.hundredths()), Level::HIGHEST);
        assert_eq!(Level::UNRANKED.min_points(), Points::MIN);
    }

    #[test]
    fn spellings() {
        for level in Level::ALL {
            assert_eq!(level.label().parse::<Level>(), Ok(level));
            assert_eq!(level.to_string(), level.en().to_string());
            match level.number() {
                None => {
                    assert_eq!(level.label(), "unranked");
                    assert_eq!(level.en().to_string(), "unranked");
                    assert_eq!(level.zh().to_string(), "无级别");
                }
                Some(n) => {
                    assert_eq!(level.label(), format!("level-{n}"));
                    assert_eq!(level.en().to_string(), format!("level {n}"));
                    assert_eq!(level.name(Language::Zh).to_string(), format!("{n}级"));
                }
            }
        }
        assert_eq!(format!("{:<9}|", Level::HIGHEST), "level 1  |");
        assert_eq!(format!("{:?}", Level::LOWEST), "Level(level-30)");
    }

    #[test]
    fn rejects_unknown_labels() {
        for text in ["", "level-0", "level-31", "level 12", "Level-1", "12级", "level-01"] {
            let err = text.parse::<Level>().unwrap_err();
            assert_eq!(err.input(), text);
            assert!(err.to_string().contains(&format!("{text:?}")), "{err}");
        }
    }

    #[test]
    fn order_is_by_strength() {
        assert!(Level::ALL.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(Level::ALL[0], Level::UNRANKED);
        assert_eq!(Level::ALL[1], Level::LOWEST);
        assert_eq!(Level::ALL[30], Level::HIGHEST);
        assert_eq!(Level::new(0), None);
        assert_eq!(Level::new(31), None);
        assert!(!Level::UNRANKED.is_ranked() && Level::LOWEST.is_ranked());
    }
}
