//! The options Rookery declares after `uci`, and how `setoption` changes the engine.

use core::fmt;
use std::time::Duration;

use rookery_core::CastlingMode;
use rookery_engine::{Engine, EvalFileError, HashSizeError, Level, ELO_RANGE};

use crate::option::unempty;
use crate::{OptionDecl, OptionKind};

/// The largest `Hash` accepted, in megabytes.
pub const MAX_HASH_MB: i64 = 65_536;
/// The most `Threads` accepted.
pub const MAX_THREADS: i64 = 256;

/// The option values that are not kept by the engine itself.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Settings {
    pub(crate) ponder: bool,
    pub(crate) skill_level: u32,
    /// `Level`: 1 to 8 are the levels for people, 0 is full strength.
    pub(crate) level: u8,
    pub(crate) limit_strength: bool,
    pub(crate) elo: u32,
    /// `UCI_ShowWDL`: `info` lines carry `wdl`.
    pub(crate) show_wdl: bool,
    /// `UCI_AnalyseMode`: analysing, not playing; full strength whatever the level.
    pub(crate) analyse_mode: bool,
    /// `UCI_Chess960`: positions are read, and castling written, as in Chess960 (the king
    /// taking its own rook, `e1h1`; RULES.md §13).
    pub(crate) chess960: bool,
}

impl Settings {
    /// How `position` commands are read and castling is written.
    pub(crate) fn castling_mode(&self) -> CastlingMode {
        if self.chess960 {
            CastlingMode::Chess960
        } else {
            CastlingMode::Standard
        }
    }
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            ponder: false,
            skill_level: 20,
            level: 0,
            limit_strength: false,
            elo: ELO_RANGE.1,
            show_wdl: false,
            analyse_mode: false,
            chess960: false,
        }
    }
}

/// Why a `setoption` was not applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum OptionError {
    /// No option has this name.
    Unknown(String),
    /// The value does not fit the option.
    BadValue {
        /// The option.
        name: &'static str,
        /// The value given (`None`: no value).
        value: Option<String>,
        /// What the option takes.
        expected: String,
    },
    /// The hash table could not be resized.
    Hash(HashSizeError),
    /// The network file could not be used.
    EvalFile(EvalFileError),
}

impl fmt::Display for OptionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OptionError::Unknown(name) => write!(f, "unknown option \"{name}\""),
            OptionError::BadValue { name, value: Some(value), expected } => {
                write!(f, "option \"{name}\" takes {expected}, not \"{value}\"")
            }
            OptionError::BadValue { name, value: None, expected } => {
                write!(f, "option \"{name}\" takes {expected}, and no value was given")
            }
            OptionError::Hash(e) => e.fmt(f),
            OptionError::EvalFile(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for OptionError {}

/// The options, as `uci` declares them.
pub(crate) fn declarations(engine: &Engine, settings: &Settings) -> Vec<OptionDecl> {
    let options = engine.options();
    let spin = |name: &str, default: i64, min: i64, max: i64| OptionDecl {
        name: name.to_owned(),
        kind: OptionKind::Spin { default, min, max },
    };
    let check = |name: &str, default: bool| OptionDecl {
        name: name.to_owned(),
        kind: OptionKind::Check { default },
    };
    vec![
        spin("Hash", options.hash_mb as i64, 1, MAX_HASH_MB),
        spin("Threads", options.threads as i64, 1, MAX_THREADS),
        spin("MultiPV", options.multipv as i64, 1, 256),
        spin("Move Overhead", options.move_overhead.as_millis() as i64, 0, 5_000),
        check("Ponder", settings.ponder),
        check("UseNNUE", options.use_nnue),
        // Empty: the network built into the engine.
        OptionDecl {
            name: "EvalFile".to_owned(),
            kind: OptionKind::String {
                default: engine.eval_file().map(|p| p.display().to_string()).unwrap_or_default(),
            },
        },
        spin("Skill Level", i64::from(settings.skill_level), 0, 20),
        spin("Level", i64::from(settings.level), 0, i64::from(Level::MAX.get())),
        check("UCI_LimitStrength", settings.limit_strength),
        spin("UCI_Elo", i64::from(settings.elo), i64::from(ELO_RANGE.0), i64::from(ELO_RANGE.1)),
        check("UCI_ShowWDL", settings.show_wdl),
        check("UCI_AnalyseMode", settings.analyse_mode),
        check("UCI_Chess960", settings.chess960),
        OptionDecl { name: "Clear Hash".to_owned(), kind: OptionKind::Button },
    ]
}

fn spin(name: &'static str, value: Option<&str>, min: i64, max: i64) -> Result<i64, OptionError> {
    value.and_then(|v| v.trim().parse::<i64>().ok()).filter(|v| (min..=max).contains(v)).ok_or_else(
        || OptionError::BadValue {
            name,
            value: value.map(str::to_owned),
            expected: format!("a whole number from {min} to {max}"),
        },
    )
}

fn check(name: &'static str, value: Option<&str>) -> Result<bool, OptionError> {
    match value.map(str::trim) {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(OptionError::BadValue {
            name,
            value: value.map(str::to_owned),
            expected: "true or false".to_owned(),
        }),
    }
}

/// Applies `setoption name <name> value <value>`. Names are matched without regard to case,
/// as UCI asks.
pub(crate) fn apply(
    engine: &mut Engine,
    settings: &mut Settings,
    name: &str,
    value: Option<&str>,
) -> Result<(), OptionError> {
    match name.to_ascii_lowercase().as_str() {
        "hash" => {
            let mb = spin("Hash", value, 1, MAX_HASH_MB)?;
            engine.set_hash_mb(mb as usize).map_err(OptionError::Hash)?;
        }
        "threads" => engine.set_threads(spin("Threads", value, 1, MAX_THREADS)? as usize),
        "multipv" => engine.set_multipv(spin("MultiPV", value, 1, 256)? as usize),
        "move overhead" => {
            let ms = spin("Move Overhead", value, 0, 5_000)?;
            engine.set_move_overhead(Duration::from_millis(ms as u64));
        }
        "ponder" => settings.ponder = check("Ponder", value)?,
        "usennue" => engine.set_use_nnue(check("UseNNUE", value)?),
        "evalfile" => {
            // No value, or `<empty>`: back to the built-in network.
            let path = value.map(|v| unempty(v.trim().to_owned())).filter(|v| !v.is_empty());
            engine
                .set_eval_file(path.as_deref().map(std::path::Path::new))
                .map_err(OptionError::EvalFile)?;
        }
        "skill level" => settings.skill_level = spin("Skill Level", value, 0, 20)? as u32,
        "level" => {
            settings.level = spin("Level", value, 0, i64::from(Level::MAX.get()))? as u8;
        }
        "uci_limitstrength" => settings.limit_strength = check("UCI_LimitStrength", value)?,
        "uci_elo" => {
            let (low, high) = ELO_RANGE;
            settings.elo = spin("UCI_Elo", value, i64::from(low), i64::from(high))? as u32;
        }
        "uci_showwdl" => settings.show_wdl = check("UCI_ShowWDL", value)?,
        "uci_analysemode" => settings.analyse_mode = check("UCI_AnalyseMode", value)?,
        "uci_chess960" => settings.chess960 = check("UCI_Chess960", value)?,
        "clear hash" => engine.clear(),
        _ => return Err(OptionError::Unknown(name.to_owned())),
    }
    // UCI_LimitStrength with UCI_Elo takes precedence over Skill Level, as in Stockfish; the
    // `Level` option names one of the eight levels for people directly, and comes between. An
    // analysis is worth only the engine's best, so UCI_AnalyseMode overrides all three.
    engine.set_level(if settings.analyse_mode {
        None
    } else if settings.limit_strength {
        Some(Level::from_elo(settings.elo))
    } else if settings.level > 0 {
        Level::new(settings.level)
    } else {
        Level::from_skill(settings.skill_level)
    });
    Ok(())
}
