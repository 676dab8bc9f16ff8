//! A tournament's settings: read from the creation request at the edge, stored as JSON, and
//! turned into the competition's or the arena's.

use rookery_arbiter::{MissedStart, RuleSet, StartPolicy, TimeControl};
use rookery_core::Color;
use rookery_tournament::arena::{ArenaSettings, GameClock};
use rookery_tournament::berger::Cycles;
use rookery_tournament::competition::{self, System};
use rookery_tournament::{Regulations, Scoring, Tiebreak};
use serde::{Deserialize, Serialize};

use crate::error::FromBody;
use crate::protocol::{FieldError, Fields};

/// How the rounds are paired.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Format {
    /// Dutch Swiss.
    Swiss,
    /// Berger, once.
    RoundRobin,
    /// Berger, twice.
    DoubleRoundRobin,
    /// Continuous pairing.
    Arena,
}

impl Format {
    /// The stored spelling.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Swiss => "swiss",
            Format::RoundRobin => "round_robin",
            Format::DoubleRoundRobin => "double_round_robin",
            Format::Arena => "arena",
        }
    }

    fn parse(text: &str) -> Option<Format> {
        [Format::Swiss, Format::RoundRobin, Format::DoubleRoundRobin, Format::Arena]
            .into_iter()
            .find(|f| f.as_str() == text)
    }
}

/// The settings as stored (JSON in `tournaments.settings`).
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct Settings {
    /// Name.
    pub name: String,
    /// Format.
    pub format: Format,
    /// Swiss rounds.
    pub rounds: Option<u32>,
    /// Arena length, s.
    pub duration_s: Option<u64>,
    /// The arbiter's time control text.
    pub time_control: String,
    /// `seed` or `fide`.
    pub rules: String,
    /// Whether played games change §11 points.
    pub rated: bool,
    /// Scheduled start (Unix ms).
    pub starts_at_ms: Option<u64>,
    /// C.07 codes.
    pub tiebreaks: Vec<String>,
    /// 2024 or 2026.
    pub regulations: u16,
    /// The default time, s.
    pub forfeit_s: u64,
    /// Byes a player may ask for.
    pub max_byes: u32,
    /// Late entries until this round is paired.
    pub late_join_until: u32,
    /// Entry: best level admitted (1 best).
    pub min_level: Option<u8>,
    /// Entry: worst level admitted.
    pub max_level: Option<u8>,
    /// Entry password.
    pub password: Option<String>,
    /// Arena switches.
    pub berserk: bool,
    /// Arena switches.
    pub streaks: bool,
    /// Seeds the arena's colour coin and the initial colour.
    pub seed: u64,
}

impl Settings {
    /// The time control (checked at creation).
    pub fn time_control(&self) -> TimeControl {
        self.time_control.parse().unwrap_or_else(|_| "300+0".parse().expect("a time control"))
    }

    /// The rule set (checked at creation).
    pub fn rules(&self) -> RuleSet {
        self.rules.parse().unwrap_or(RuleSet::SEED)
    }

    /// How games start: the default time, lost by forfeit (RULES.md §12).
    pub fn start_policy(&self) -> StartPolicy {
        StartPolicy { first_move_ms: self.forfeit_s * 1000, missed: MissedStart::Forfeit }
    }

    /// The tie-breaks.
    pub fn tiebreak_list(&self) -> Vec<Tiebreak> {
        self.tiebreaks.iter().filter_map(|c| c.parse().ok()).collect()
    }

    /// The C.07 text.
    pub fn regulations(&self) -> Regulations {
        if self.regulations == 2024 {
            Regulations::C07_2024
        } else {
            Regulations::C07_2026
        }
    }

    /// The competition's settings (Swiss and round robins).
    pub fn competition(&self) -> competition::Settings {
        let system = match self.format {
            Format::RoundRobin => System::RoundRobin { cycles: Cycles::Single },
            Format::DoubleRoundRobin => System::RoundRobin { cycles: Cycles::Double },
            _ => System::Swiss { rounds: self.rounds.unwrap_or(1) },
        };
        competition::Settings {
            name: self.name.clone(),
            system,
            scoring: Scoring::default(),
            initial_colour: if self.seed.is_multiple_of(2) { Color::White } else { Color::Black },
            tiebreaks: self.tiebreak_list(),
            regulations: self.regulations(),
            max_requested_byes: self.max_byes,
            late_entry_until: self.late_join_until,
        }
    }

    /// The arena's clock: the Fischer control's base and increment.
    pub fn arena_clock(&self) -> GameClock {
        let (base, inc) = self.time_control.split_once('+').unwrap_or((&self.time_control, "0"));
        GameClock {
            initial: base.parse::<u64>().unwrap_or(0) * 1000,
            increment: inc.parse::<u64>().unwrap_or(0) * 1000,
        }
    }

    /// The arena's settings, started at `starts_at` (Unix ms).
    pub fn arena(&self, starts_at: u64) -> ArenaSettings {
        ArenaSettings {
            starts_at,
            duration: self.duration_s.unwrap_or(3600) * 1000,
            clock: self.arena_clock(),
            streaks: self.streaks,
            berserk: self.berserk,
        }
    }
}

/// `POST /api/v1/tournaments` (and the settings part of an import).
pub struct CreateBody {
    /// The settings.
    pub settings: Settings,
}

fn tiebreaks_of(f: &mut Fields, format: Format) -> Result<Vec<String>, FieldError> {
    let bad = |m: String| FieldError::field("tiebreaks", m);
    let swiss = || ["BH-C1", "BH", "SB", "WIN"].map(String::from).to_vec();
    let rr = || ["DE", "SB", "WIN"].map(String::from).to_vec();
    let value: Option<serde_json::Value> = f.opt("tiebreaks")?;
    let list = match value {
        None => match format {
            Format::RoundRobin | Format::DoubleRoundRobin => rr(),
            _ => swiss(),
        },
        Some(serde_json::Value::String(p)) if p == "swiss" => swiss(),
        Some(serde_json::Value::String(p)) if p == "round_robin" => rr(),
        Some(serde_json::Value::Array(items)) => {
            let mut out = Vec::new();
            for item in items {
                let code = item.as_str().ok_or_else(|| bad("a list of C.07 codes".into()))?;
                let tb: Tiebreak = code.parse().map_err(|e| bad(format!("{e}")))?;
                out.push(tb.code().to_owned());
            }
            out
        }
        Some(other) => {
            return Err(bad(format!(
                "a preset (swiss, round_robin) or a list of codes, not {other}"
            )))
        }
    };
    Ok(list)
}

/// A text field that may hold any Unicode (names, passwords), at most 200 characters.
pub fn free_text(f: &mut Fields, name: &'static str) -> Result<Option<String>, FieldError> {
    match f.opt::<serde_json::Value>(name)? {
        None | Some(serde_json::Value::Null) => Ok(None),
        Some(serde_json::Value::String(s)) if s.chars().count() <= 200 => Ok(Some(s)),
        Some(other) => {
            Err(FieldError::field(name, format!("text of at most 200 characters, not {other}")))
        }
    }
}

impl FromBody for CreateBody {
    fn from_fields(f: &mut Fields) -> Result<CreateBody, FieldError> {
        let name = free_text(f, "name")?.unwrap_or_default();
        let name = name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 80 {
            return Err(FieldError::field("name", "1 to 80 characters"));
        }
        let format: String = f.req("format")?;
        let format = Format::parse(&format).ok_or_else(|| {
            FieldError::field(
                "format",
                format!("swiss, round_robin, double_round_robin or arena, not {format:?}"),
            )
        })?;
        let rounds: Option<i64> = f.opt("rounds")?;
        let rounds = match (format, rounds) {
            (Format::Swiss, None) => {
                return Err(FieldError::field("rounds", "a Swiss needs its number of rounds"))
            }
            (Format::Swiss, Some(r)) if !(1..=99).contains(&r) => {
                return Err(FieldError::field("rounds", format!("1 to 99, not {r}")))
            }
            (Format::Swiss, Some(r)) => Some(r as u32),
            (_, Some(_)) => {
                return Err(FieldError::field("rounds", "only a Swiss has a number of rounds"))
            }
            (_, None) => None,
        };
        let duration: Option<i64> = f.opt("duration_s")?;
        let duration_s = match (format, duration) {
            (Format::Arena, None) => {
                return Err(FieldError::field("duration_s", "an arena needs its duration"))
            }
            (Format::Arena, Some(d)) if !(60..=86_400).contains(&d) => {
                return Err(FieldError::field(
                    "duration_s",
                    format!("60 to 86400 seconds, not {d}"),
                ))
            }
            (Format::Arena, Some(d)) => Some(d as u64),
            (_, Some(_)) => {
                return Err(FieldError::field("duration_s", "only an arena has a duration"))
            }
            (_, None) => None,
        };
        let tc: TimeControl = f.req("time_control")?;
        let text = tc.to_string();
        if !tc.is_timed() || tc.initial_ms().is_none() || text.ends_with('d') && !text.contains('+')
        {
            return Err(FieldError::field(
                "time_control",
                format!("a tournament needs a clock, not {text}"),
            ));
        }
        if matches!(
            tc.speed(),
            rookery_arbiter::Speed::Correspondence | rookery_arbiter::Speed::Untimed
        ) {
            return Err(FieldError::field(
                "time_control",
                format!("no correspondence in a tournament: {text}"),
            ));
        }
        if format == Format::Arena {
            let ok = text
                .split_once('+')
                .is_some_and(|(a, b)| a.parse::<u64>().is_ok() && b.parse::<u64>().is_ok())
                || text.parse::<u64>().is_ok();
            if !ok {
                return Err(FieldError::field(
                    "time_control",
                    format!("an arena plays base+increment, not {text}"),
                ));
            }
        }
        let rules: RuleSet = f.opt("rules")?.unwrap_or(RuleSet::SEED);
        if rules.takebacks {
            return Err(FieldError::field("rules", "seed or fide: casual allows takebacks"));
        }
        let rated = f.opt("rated")?.unwrap_or(false);
        let starts_at_ms: Option<i64> = f.opt("starts_at_ms")?;
        if starts_at_ms.is_some_and(|t| t < 0) {
            return Err(FieldError::field("starts_at_ms", "a time in Unix ms"));
        }
        let tiebreaks = tiebreaks_of(f, format)?;
        let regulations: Option<String> = f.opt("regulations")?;
        let regulations = match regulations.as_deref() {
            None | Some("2026") => 2026,
            Some("2024") => 2024,
            Some(other) => {
                return Err(FieldError::field("regulations", format!("2024 or 2026, not {other}")))
            }
        };
        let forfeit: Option<i64> = f.opt("forfeit_s")?;
        let forfeit_s = match forfeit {
            None => StartPolicy::first_move_ms_for(tc.speed()) / 1000,
            Some(s) if (10..=3600).contains(&s) => s as u64,
            Some(s) => {
                return Err(FieldError::field("forfeit_s", format!("10 to 3600 seconds, not {s}")))
            }
        };
        let max_byes: i64 = f.opt("max_byes")?.unwrap_or(1);
        if !(0..=10).contains(&max_byes) {
            return Err(FieldError::field("max_byes", format!("0 to 10, not {max_byes}")));
        }
        let late: i64 = f.opt("late_join_until")?.unwrap_or(1);
        if !(1..=99).contains(&late) {
            return Err(FieldError::field("late_join_until", format!("1 to 99, not {late}")));
        }
        let level = |f: &mut Fields, name: &'static str| -> Result<Option<u8>, FieldError> {
            let v: Option<i64> = f.opt(name)?;
            match v {
                Some(l) if !(1..=30).contains(&l) => {
                    Err(FieldError::field(name, format!("a level from 30 to 1, not {l}")))
                }
                v => Ok(v.map(|l| l as u8)),
            }
        };
        let min_level = level(f, "min_level")?;
        let max_level = level(f, "max_level")?;
        let password = free_text(f, "password")?;
        let berserk = f.opt("berserk")?.unwrap_or(true);
        let streaks = f.opt("streaks")?.unwrap_or(true);
        let mut seed = [0u8; 8];
        getrandom::fill(&mut seed).expect("the operating system's random generator failed");
        Ok(CreateBody {
            settings: Settings {
                name,
                format,
                rounds,
                duration_s,
                time_control: text,
                rules: rules.label().to_owned(),
                rated,
                starts_at_ms: starts_at_ms.map(|t| t as u64),
                tiebreaks,
                regulations,
                forfeit_s,
                max_byes: max_byes as u32,
                late_join_until: late as u32,
                min_level,
                max_level,
                password: password.filter(|p| !p.is_empty()),
                berserk,
                streaks,
                seed: u64::from_le_bytes(seed),
            },
        })
    }
}
