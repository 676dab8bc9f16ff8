//! The random tournament generator's configuration: JaVaFo's RTG file (`Key=Value` lines,
//! `#` comments), with the keys bbpPairings adds for the point system.

use std::fmt;
use std::str::FromStr;

use crate::trf::parse_points;
use crate::Score;

/// What the random tournament generator makes, key by key. A key left unset is drawn from
/// the seed, in the ranges bbpPairings draws it from; see [`GeneratorConfig::set`] for the
/// keys.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct GeneratorConfig {
    pub(super) players: Option<u32>,
    pub(super) rounds: Option<u32>,
    pub(super) draw_percentage: Option<u32>,
    pub(super) forfeit_rate: Option<f64>,
    pub(super) retired_rate: Option<f64>,
    pub(super) half_point_bye_rate: Option<f64>,
    pub(super) highest_rating: Option<u16>,
    pub(super) lowest_rating: Option<u16>,
    pub(super) win: Option<Score>,
    pub(super) draw: Option<Score>,
    pub(super) loss: Option<Score>,
    pub(super) zero_point_bye: Option<Score>,
    pub(super) forfeit_loss: Option<Score>,
    pub(super) pairing_allocated_bye: Option<Score>,
}

/// A configuration file that does not read: the line, the key, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// The line, from 1.
    pub line: u32,
    /// The key, as written (the whole line when it has no `=`).
    pub key: String,
    /// What is wrong.
    pub kind: ConfigErrorKind,
}

/// What is wrong with a configuration line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConfigErrorKind {
    /// A key neither JaVaFo nor bbpPairings knows.
    UnknownKey,
    /// A line that is not `Key=Value`.
    MissingValue,
    /// A value out of the key's range or not a number.
    InvalidValue {
        /// The value, as written.
        value: String,
        /// What the key takes.
        expected: &'static str,
    },
    /// `HighestRating` below `LowestRating`.
    RatingsReversed {
        /// The highest rating.
        highest: u16,
        /// The lowest rating.
        lowest: u16,
    },
}

impl fmt::Display for ConfigErrorKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigErrorKind::UnknownKey => f.write_str("unknown key"),
            ConfigErrorKind::MissingValue => f.write_str("expected Key=Value"),
            ConfigErrorKind::InvalidValue { value, expected } => {
                write!(f, "invalid value {value:?} (expected {expected})")
            }
            ConfigErrorKind::RatingsReversed { highest, lowest } => {
                write!(f, "the highest rating ({highest}) is below the lowest ({lowest})")
            }
        }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}, {}: {}", self.line, self.key, self.kind)
    }
}

impl std::error::Error for ConfigError {}

fn invalid(value: &str, expected: &'static str) -> ConfigErrorKind {
    ConfigErrorKind::InvalidValue { value: value.to_owned(), expected }
}

fn whole(value: &str, low: u32, high: u32, expected: &'static str) -> Result<u32, ConfigErrorKind> {
    value
        .parse::<u32>()
        .ok()
        .filter(|n| (low..=high).contains(n))
        .ok_or_else(|| invalid(value, expected))
}

/// A rate "one in `x`": 0 (never, our extension) or at least `minimum` (bbpPairings'
/// bounds: a forfeit rate of 1 forfeits every game).
fn rate(value: &str, minimum: f64, expected: &'static str) -> Result<f64, ConfigErrorKind> {
    value
        .parse::<f64>()
        .ok()
        .filter(|x| x.is_finite() && (*x == 0.0 || *x >= minimum))
        .ok_or_else(|| invalid(value, expected))
}

/// Points as TRF writes them (`2.5`, `.5`, `1`), below 100.
fn points(value: &str) -> Result<Score, ConfigErrorKind> {
    parse_points(value)
        .filter(|p| p.tenths() < 1000)
        .ok_or_else(|| invalid(value, "points with at most one decimal, below 100"))
}

impl GeneratorConfig {
    /// Sets one key from its text, as a configuration line `key=value` would.
    ///
    /// The keys (JaVaFo AUM, "Random Tournament Generator"; the `PointsFor…` ones beyond
    /// win and draw are bbpPairings'), and what an unset key is drawn from:
    ///
    /// | key | value | unset |
    /// |---|---|---|
    /// | `PlayersNumber` | players, 1 to 9999 | 15 to 215 |
    /// | `RoundsNumber` | rounds, 1 to 999 | 5 to 15 |
    /// | `DrawPercentage` | % of played games drawn (at most; see below), 0 to 100 | 10 to 50 |
    /// | `ForfeitRate` | one game in `x` is forfeited: 0 (never) or ≥ 1 | 6 to 30 |
    /// | `RetiredRate` | one player in `x` retires: 0 (never) or ≥ 2 | 15 to 3225 |
    /// | `HalfPointByeRate` | one player in `x` takes a half-point bye: 0 (never) or ≥ 1 | 15 to 3225 |
    /// | `HighestRating`, `LowestRating` | ratings are drawn between them, 0 to 9999 | 2400 to 2800, 1400 to 2300 |
    /// | `PointsForWin`, `…Draw`, `…Loss` | points (`1`, `0.5`) | 1, 0.5, 0 |
    /// | `PointsForZPB`, `PointsForForfeitLoss` | points for an absence, a forfeit loss | 0, 0 |
    /// | `PointsForPAB` | points for the pairing-allocated bye | as a win |
    ///
    /// `PointsForForfeitLoss` also sets the zero-point bye unless `PointsForZPB` is given, as
    /// in bbpPairings. The draw percentage is lowered between players so far apart that the
    /// weaker one's expected score leaves no room for it. `HalfPointByteRate`, a spelling
    /// bbpPairings accepts, is read as `HalfPointByeRate`.
    ///
    /// # Errors
    ///
    /// An unknown key, a value that does not read or is out of range, or a highest rating
    /// below the lowest one already set.
    pub fn set(&mut self, key: &str, value: &str) -> Result<(), ConfigErrorKind> {
        let value = value.trim();
        match key {
            "PlayersNumber" => self.players = Some(whole(value, 1, 9999, "1 to 9999 players")?),
            "RoundsNumber" => self.rounds = Some(whole(value, 1, 999, "1 to 999 rounds")?),
            "DrawPercentage" => {
                self.draw_percentage = Some(whole(value, 0, 100, "a whole number from 0 to 100")?)
            }
            "ForfeitRate" => self.forfeit_rate = Some(rate(value, 1.0, "0 or a number from 1 up")?),
            "RetiredRate" => self.retired_rate = Some(rate(value, 2.0, "0 or a number from 2 up")?),
            "HalfPointByeRate" | "HalfPointByteRate" => {
                self.half_point_bye_rate = Some(rate(value, 1.0, "0 or a number from 1 up")?)
            }
            "HighestRating" | "LowestRating" => {
                let rating = whole(value, 0, 9999, "a rating from 0 to 9999")? as u16;
                let (highest, lowest) = if key == "HighestRating" {
                    (Some(rating), self.lowest_rating)
                } else {
                    (self.highest_rating, Some(rating))
                };
                if let (Some(highest), Some(lowest)) = (highest, lowest) {
                    if highest < lowest {
                        return Err(ConfigErrorKind::RatingsReversed { highest, lowest });
                    }
                }
                (self.highest_rating, self.lowest_rating) = (highest, lowest);
            }
            "PointsForWin" => self.win = Some(points(value)?),
            "PointsForDraw" => self.draw = Some(points(value)?),
            "PointsForLoss" => self.loss = Some(points(value)?),
            "PointsForZPB" => self.zero_point_bye = Some(points(value)?),
            "PointsForForfeitLoss" => self.forfeit_loss = Some(points(value)?),
            "PointsForPAB" => self.pairing_allocated_bye = Some(points(value)?),
            _ => return Err(ConfigErrorKind::UnknownKey),
        }
        Ok(())
    }

    /// Reads a configuration file: `Key=Value` lines ending in CR, LF or CRLF; blank lines
    /// and lines starting with `#` are skipped; a later line overrides an earlier one.
    ///
    /// # Errors
    ///
    /// The first line that does not read, as [`ConfigError`].
    pub fn parse(text: &str) -> Result<GeneratorConfig, ConfigError> {
        let mut config = GeneratorConfig::default();
        for (number, line) in crate::trf::lines(text) {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let Some((key, value)) = line.split_once('=') else {
                let kind = ConfigErrorKind::MissingValue;
                return Err(ConfigError { line: number, key: line.to_owned(), kind });
            };
            let key = key.trim();
            config.set(key, value).map_err(|kind| ConfigError {
                line: number,
                key: key.to_owned(),
                kind,
            })?;
        }
        Ok(config)
    }
}

impl FromStr for GeneratorConfig {
    type Err = ConfigError;

    fn from_str(text: &str) -> Result<GeneratorConfig, ConfigError> {
        GeneratorConfig::parse(text)
    }
}

impl fmt::Display for GeneratorConfig {
    /// The keys that are set, one `Key=Value` line each, LF-terminated: text that
    /// [`GeneratorConfig::parse`] reads back.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut line = |key: &str, value: Option<String>| match value {
            Some(value) => writeln!(f, "{key}={value}"),
            None => Ok(()),
        };
        line("PlayersNumber", self.players.map(|v| v.to_string()))?;
        line("RoundsNumber", self.rounds.map(|v| v.to_string()))?;
        line("DrawPercentage", self.draw_percentage.map(|v| v.to_string()))?;
        line("ForfeitRate", self.forfeit_rate.map(|v| v.to_string()))?;
        line("RetiredRate", self.retired_rate.map(|v| v.to_string()))?;
        line("HalfPointByeRate", self.half_point_bye_rate.map(|v| v.to_string()))?;
        line("HighestRating", self.highest_rating.map(|v| v.to_string()))?;
        line("LowestRating", self.lowest_rating.map(|v| v.to_string()))?;
        line("PointsForWin", self.win.map(|v| v.to_string()))?;
        line("PointsForDraw", self.draw.map(|v| v.to_string()))?;
        line("PointsForLoss", self.loss.map(|v| v.to_string()))?;
        line("PointsForZPB", self.zero_point_bye.map(|v| v.to_string()))?;
        line("PointsForForfeitLoss", self.forfeit_loss.map(|v| v.to_string()))?;
        line("PointsForPAB", self.pairing_allocated_bye.map(|v| v.to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_counted_across_line_endings() {
        let e = GeneratorConfig::parse("# RTG\r\nPlayersNumber=20\r\n\r\nDraws=3\r\n").unwrap_err();
        assert_eq!((e.line, e.key.as_str(), &e.kind), (4, "Draws", &ConfigErrorKind::UnknownKey));
        let e = GeneratorConfig::parse("PlayersNumber=20\rRoundsNumber\r").unwrap_err();
        assert_eq!((e.line, e.kind), (2, ConfigErrorKind::MissingValue));
    }

    #[test]
    fn values_are_checked_against_their_range() {
        let e = GeneratorConfig::parse("DrawPercentage=120").unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 1, DrawPercentage: invalid value \"120\" (expected a whole number from 0 to 100)"
        );
        let e = GeneratorConfig::parse("LowestRating=2000\nHighestRating=1900").unwrap_err();
        assert_eq!(e.line, 2);
        assert_eq!(e.kind, ConfigErrorKind::RatingsReversed { highest: 1900, lowest: 2000 });
        assert!(GeneratorConfig::parse("PointsForWin=0.25").is_err());
        assert!(GeneratorConfig::parse("RetiredRate=1.5").is_err());
        assert!(GeneratorConfig::parse("ForfeitRate=0").is_ok());
    }

    #[test]
    fn points_read_as_trf_writes_them_below_100() {
        let win =
            |text: &str| GeneratorConfig::parse(&format!("PointsForWin={text}")).map(|c| c.win);
        for (text, tenths) in [("2.5", 25), (".5", 5), ("5.", 50), ("1", 10), ("99.9", 999)] {
            assert_eq!(win(text), Ok(Some(Score::from_tenths(tenths))), "{text}");
        }
        for text in ["100", "100.0", ".", "", "+1", "-1", "1.25", "1e1", "4294967296"] {
            let e = win(text).unwrap_err();
            assert_eq!(
                e.kind,
                ConfigErrorKind::InvalidValue {
                    value: text.to_owned(),
                    expected: "points with at most one decimal, below 100"
                },
                "{text}"
            );
        }
    }

    #[test]
    fn a_configuration_is_written_as_it_reads() {
        let text = "PlayersNumber=40\nRoundsNumber=9\nDrawPercentage=35\nForfeitRate=12.5\n\
                    RetiredRate=20\nHalfPointByeRate=30\nHighestRating=2600\nLowestRating=1500\n\
                    PointsForWin=3.0\nPointsForDraw=1.0\nPointsForLoss=0.0\nPointsForZPB=0.0\n\
                    PointsForForfeitLoss=0.0\nPointsForPAB=1.0\n";
        let config = GeneratorConfig::parse(text).unwrap();
        assert_eq!(config.to_string(), text);
        assert_eq!(config.to_string().parse::<GeneratorConfig>().unwrap(), config);
    }
}
