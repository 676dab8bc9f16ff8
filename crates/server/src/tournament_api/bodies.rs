//! The tournament routes' request bodies (docs/api.md, "Tournaments"), read at the edge into
//! typed values: the creation request and its settings, an import, the players' and the
//! arbiter's requests.

use rookery_arbiter::{RuleSet, StartPolicy, TimeControl};
use rookery_competitions::log::{bye_of, result_of, Misconduct, Sanction};
use rookery_competitions::roster::{self, RosterEntry};
use rookery_competitions::settings::{
    Acceleration, ArmageddonSettings, Format, KnockoutSettings, PairingSystem, Settings,
    StageSettings,
};
use rookery_competitions::{ArbiterAction, IncidentReport, Lang};
use rookery_core::Color;
use rookery_tournament::competition::BoardResult;
use rookery_tournament::knockout::Phase;
use rookery_tournament::{ByeKind, Tiebreak};
use serde_json::Value;

use crate::error::FromBody;
use crate::protocol::{FieldError, Fields, VariantChoice};

use super::fields::{board_result, free_text, round_field};
pub use super::team_bodies::LineUpBody;
use super::team_bodies::{roster_of, team_of};

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

/// A Swiss's choice spelt as text (`pairing_system`, `acceleration`): absent or `null` is the
/// default (what every Swiss was before it could be chosen); a value given for another format,
/// or one not among `choices`, is refused naming the field.
fn swiss_choice<T: Default>(
    f: &mut Fields,
    format: Format,
    name: &'static str,
    parse: fn(&str) -> Option<T>,
    choices: &str,
) -> Result<T, FieldError> {
    let Some(value) = f.opt::<Value>(name)? else { return Ok(T::default()) };
    if format != Format::Swiss {
        return Err(FieldError::field(
            name,
            format!("only a Swiss has one, not a {} tournament", format.as_str()),
        ));
    }
    value
        .as_str()
        .and_then(parse)
        .ok_or_else(|| FieldError::field(name, format!("{choices}, not {value}")))
}

/// A knockout's match regulations (docs/api.md, *Knockout*): `match` classical games (2 if
/// not given), `tiebreak_stages` in order, `armageddon` with White's and Black's clocks;
/// checked by the pure crate's [`MatchRules::check`], refused naming the field.
fn knockout_of(
    f: &mut Fields,
    format: Format,
    over_the_board: bool,
    rated: bool,
) -> Result<Option<KnockoutSettings>, FieldError> {
    let fields = ["match", "tiebreak_stages", "armageddon"];
    if format != Format::Knockout {
        return match fields.into_iter().find(|n| f.has(n)) {
            Some(name) => Err(FieldError::field(name, "only a knockout has match regulations")),
            None => Ok(None),
        };
    }
    // Over the board its games are not yet stored as games of the site, so no §11 points
    // could follow; online each match game is a live game, rated as the tournament says.
    if rated && over_the_board {
        return Err(FieldError::field("rated", "a knockout over the board is not rated yet"));
    }
    let games: i64 = f.opt("match")?.unwrap_or(2);
    let clock = |text: &str| -> Result<String, String> {
        let tc: TimeControl =
            text.parse().map_err(|e| format!("{text:?} is not a time control: {e}"))?;
        if !tc.is_timed() || tc.initial_ms().is_none() {
            return Err(format!("a match game needs a clock, not {tc}"));
        }
        Ok(tc.to_string())
    };
    let stages = match f.opt::<Value>("tiebreak_stages")? {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(stages)) => stages,
        Some(other) => {
            return Err(FieldError::field(
                "tiebreak_stages",
                format!("a list of stages ({{\"name\",\"games\",\"time_control\"}}), not {other}"),
            ))
        }
    };
    let mut out = Vec::new();
    for (i, stage) in stages.into_iter().enumerate() {
        let bad = |m: String| FieldError::field("tiebreak_stages", format!("stage {}: {m}", i + 1));
        let name = stage["name"].as_str().map(str::trim).unwrap_or_default();
        if name.is_empty() || name.chars().count() > 20 {
            return Err(bad("a name of 1 to 20 characters (rapid, blitz)".into()));
        }
        let stage_games =
            stage["games"].as_u64().ok_or_else(|| bad("its number of games".into()))?;
        let tc = stage["time_control"].as_str().ok_or_else(|| bad("its time_control".into()))?;
        let tc = clock(tc).map_err(bad)?;
        out.push(StageSettings {
            name: name.to_owned(),
            games: stage_games.min(u64::from(u32::MAX)) as u32,
            time_control: tc,
        });
    }
    let armageddon = match f.opt::<Value>("armageddon")? {
        None | Some(Value::Null) => None,
        // A live game has one time control for both players: Armageddon's unequal clocks
        // cannot be played on the site, and are not faked.
        Some(_) if !over_the_board => {
            return Err(FieldError::field(
                "armageddon",
                "an online game gives both players the same clock: Armageddon's unequal times \
                 are for a knockout over the board",
            ))
        }
        Some(a) => {
            let white = a["white"].as_str().unwrap_or_default();
            let black = a["black"].as_str().unwrap_or_default();
            let bad = |m: String| FieldError::field("armageddon", m);
            let (w, b) = (clock(white).map_err(bad)?, clock(black).map_err(bad)?);
            let (wt, bt): (TimeControl, TimeControl) =
                (w.parse().expect("checked"), b.parse().expect("checked"));
            if bt.initial_ms() >= wt.initial_ms() {
                return Err(FieldError::field(
                    "armageddon",
                    format!("White has more time than Black: {w} against {b}"),
                ));
            }
            Some(ArmageddonSettings { white: w, black: b })
        }
    };
    let knockout = KnockoutSettings {
        games: games.clamp(0, i64::from(u32::MAX)) as u32,
        stages: out,
        armageddon,
    };
    knockout.rules("").check().map_err(|e| {
        let field = match e.phase {
            Phase::Classical => "match",
            _ => "tiebreak_stages",
        };
        FieldError::field(field, e.to_string())
    })?;
    Ok(Some(knockout))
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
                format!(
                    "swiss, round_robin, double_round_robin, arena, knockout, team_swiss or \
                     team_round_robin, not {format:?}"
                ),
            )
        })?;
        let rounds: Option<i64> = f.opt("rounds")?;
        let rounds = match (format, rounds) {
            (Format::Swiss | Format::TeamSwiss, None) => {
                return Err(FieldError::field("rounds", "a Swiss needs its number of rounds"))
            }
            (Format::Swiss | Format::TeamSwiss, Some(r)) if !(1..=99).contains(&r) => {
                return Err(FieldError::field("rounds", format!("1 to 99, not {r}")))
            }
            (Format::Swiss | Format::TeamSwiss, Some(r)) => Some(r as u32),
            (_, Some(_)) => {
                return Err(FieldError::field("rounds", "only a Swiss has a number of rounds"))
            }
            (_, None) => None,
        };
        let pairing_system =
            swiss_choice(f, format, "pairing_system", PairingSystem::parse, "dutch or burstein")?;
        let acceleration =
            swiss_choice(f, format, "acceleration", Acceleration::parse, "none or baku")?;
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
        // Over the board: a Swiss or a round robin played in a hall (the arena pairs players
        // as they finish games on the site).
        let over_the_board = f.opt("over_the_board")?.unwrap_or(false);
        if over_the_board && format == Format::Arena {
            return Err(FieldError::field(
                "over_the_board",
                "an arena is played on the site: over the board is a Swiss or a round robin",
            ));
        }
        let starts_at_ms: Option<i64> = f.opt("starts_at_ms")?;
        if starts_at_ms.is_some_and(|t| t < 0) {
            return Err(FieldError::field("starts_at_ms", "a time in Unix ms"));
        }
        let team = team_of(f, format, over_the_board, rated)?;
        let tiebreaks = if format == Format::Knockout || format.is_team() {
            if f.has("tiebreaks") {
                return Err(FieldError::field(
                    "tiebreaks",
                    "a knockout has no standings to break ties in: its matches have \
                     tiebreak_stages",
                ));
            }
            Vec::new()
        } else {
            tiebreaks_of(f, format)?
        };
        let knockout = knockout_of(f, format, over_the_board, rated)?;
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
        // Chess960: each round's start is drawn when the round is published (an arena game's
        // when it is paired), never chosen beforehand.
        let chess960 =
            match VariantChoice::from_fields(f)? {
                VariantChoice::Standard => false,
                VariantChoice::Chess960(None) => true,
                VariantChoice::Chess960(Some(_)) => return Err(FieldError::field(
                    "position",
                    "a tournament draws each round's Chess960 start when it publishes the round",
                )),
            };
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
                chess960,
                pairing_system,
                acceleration,
                over_the_board,
                // Over the board only those checked in are paired (issue 53).
                check_in: over_the_board,
                knockout,
                team,
            },
        })
    }
}

/// `POST /api/v1/tournaments/import`: the file read at the edge.
pub struct ImportBody {
    /// The file.
    pub trf: rookery_tournament::Tournament,
    /// Published as finished: nothing more is paired.
    pub finished: bool,
    /// The settings, the file's where not given.
    pub create: CreateBody,
}

impl FromBody for ImportBody {
    fn from_fields(f: &mut Fields) -> Result<ImportBody, FieldError> {
        let text = match f.opt::<Value>("trf")? {
            Some(Value::String(s)) => s,
            _ => return Err(FieldError::field("trf", "the TRF file as text")),
        };
        // The reader's error names its line and column (docs/api.md).
        let trf = rookery_tournament::trf::read(&text)
            .map_err(|e| FieldError::field("trf", e.to_string()))?;
        let finished = match free_text(f, "status")?.as_deref() {
            None | Some("running") => false,
            Some("finished") => true,
            Some(other) => {
                return Err(FieldError::field(
                    "status",
                    format!("finished or running, not {other:?}"),
                ))
            }
        };
        // The name and the time control default to the file's (012, 122; docs/api.md).
        if !f.has("name") {
            if let Some(name) = trf.name.as_deref().map(str::trim).filter(|n| !n.is_empty()) {
                f.default_to("name", Value::from(name.chars().take(80).collect::<String>()));
            }
        }
        if !f.has("time_control") {
            match trf.time_control.as_deref().map(str::trim) {
                Some(tc) if tc.parse::<rookery_arbiter::TimeControl>().is_ok() => {
                    f.default_to("time_control", Value::from(tc));
                }
                Some(tc) => {
                    return Err(FieldError::field(
                        "time_control",
                        format!(
                        "missing, and the file's (line 122) {tc:?} is not a time control: give one"
                    ),
                    ))
                }
                None => {
                    return Err(FieldError::field(
                        "time_control",
                        "missing, and the file has none (line 122): give one",
                    ))
                }
            }
        }
        // The tie-breaks and the text of C.07 default to the file's (202, C07; docs/api.md), so
        // that an export imports back ranked as it was.
        if !f.has("tiebreaks") && !trf.tie_breaks.is_empty() {
            for code in &trf.tie_breaks {
                if let Err(e) = code.parse::<rookery_tournament::Tiebreak>() {
                    return Err(FieldError::field(
                        "tiebreaks",
                        format!("missing, and the file's (line 202) are not all C.07 codes: {e}; give them"),
                    ));
                }
            }
            f.default_to("tiebreaks", Value::from(trf.tie_breaks.clone()));
        }
        if !f.has("regulations") {
            if let Some(regulations) = trf.tie_break_regulations {
                f.default_to("regulations", Value::from(regulations.year().to_string()));
            }
        }
        // A Swiss's rounds default to the file's (docs/api.md).
        if f.has("format") && !f.has("rounds") {
            let swiss = f.opt::<String>("format")?;
            if swiss.as_deref() == Some("swiss") {
                f.default_to("rounds", Value::from(trf.planned_rounds()));
            }
            f.default_to("format", Value::from(swiss));
        }
        let create = CreateBody::from_fields(f)?;
        Ok(ImportBody { trf, finished, create })
    }
}

/// `{"password":…}`.
pub struct JoinBody(pub Option<String>);

impl FromBody for JoinBody {
    fn from_fields(f: &mut Fields) -> Result<JoinBody, FieldError> {
        Ok(JoinBody(free_text(f, "password")?))
    }
}

/// An empty body.
pub struct Empty;

impl FromBody for Empty {
    fn from_fields(_: &mut Fields) -> Result<Empty, FieldError> {
        Ok(Empty)
    }
}

/// `{"round":4,"kind":"half"}`.
pub struct ByeBody(pub u32, pub ByeKind);

impl FromBody for ByeBody {
    fn from_fields(f: &mut Fields) -> Result<ByeBody, FieldError> {
        let round = round_field(f, "round")?;
        let kind: String = f.req("kind")?;
        let kind = match kind.as_str() {
            "half" => ByeKind::Half,
            "zero" => ByeKind::Zero,
            _ => return Err(FieldError::field("kind", format!("half or zero, not {kind:?}"))),
        };
        Ok(ByeBody(round, kind))
    }
}

/// `{"round":2,"board":5,"result":"1-0"}`: a player's report of their board's result.
pub struct ReportBody(pub u32, pub u32, pub BoardResult);

impl FromBody for ReportBody {
    fn from_fields(f: &mut Fields) -> Result<ReportBody, FieldError> {
        let round = round_field(f, "round")?;
        let board = round_field(f, "board")?;
        let result: String = f.req("result")?;
        // A played game's result; the forfeits' spellings are refused by the tournament,
        // naming the field, like any other report it does not take.
        let result = result_of(&result).ok_or_else(|| {
            FieldError::field("result", format!("1-0, 1/2-1/2 or 0-1, not {result:?}"))
        })?;
        Ok(ReportBody(round, board, result))
    }
}

/// `{"game":…}`.
pub struct BerserkBody(pub String);

impl FromBody for BerserkBody {
    fn from_fields(f: &mut Fields) -> Result<BerserkBody, FieldError> {
        Ok(BerserkBody(f.req("game")?))
    }
}

/// `{"moves":…}`: a board's move list as typed from its scoresheet (up to the body limit,
/// 16 KiB, some 1,500 moves).
pub struct MovesBody(pub String);

impl FromBody for MovesBody {
    fn from_fields(f: &mut Fields) -> Result<MovesBody, FieldError> {
        Ok(MovesBody(f.req("moves")?))
    }
}

/// The arbiter's request.
pub struct ArbiterBody(pub ArbiterAction, pub Option<String>);

impl FromBody for ArbiterBody {
    fn from_fields(f: &mut Fields) -> Result<ArbiterBody, FieldError> {
        let action: String = f.req("action")?;
        let name = |f: &mut Fields, n: &'static str| -> Result<String, FieldError> {
            free_text(f, n)?.ok_or_else(|| FieldError::field(n, "missing"))
        };
        let a = match action.as_str() {
            "start" => ArbiterAction::Start,
            "pair" => ArbiterAction::Pair,
            "publish" => ArbiterAction::Publish { round: round_field(f, "round")? },
            "unpair" => ArbiterAction::Unpair { round: round_field(f, "round")? },
            "withdraw" => ArbiterAction::Withdraw {
                player: name(f, "player")?,
                round: if f.has("round") { Some(round_field(f, "round")?) } else { None },
            },
            "reinstate" => ArbiterAction::Reinstate { player: name(f, "player")? },
            "bye" => {
                let player = name(f, "player")?;
                let round = round_field(f, "round")?;
                let kind: String = f.req("kind")?;
                let kind = bye_of(&kind).ok_or_else(|| {
                    FieldError::field("kind", format!("half, zero or full, not {kind:?}"))
                })?;
                ArbiterAction::Bye { player, round, kind }
            }
            "cancel_bye" => ArbiterAction::CancelBye {
                player: name(f, "player")?,
                round: round_field(f, "round")?,
            },
            "forbid_pair" => ArbiterAction::ForbidPair { a: name(f, "a")?, b: name(f, "b")? },
            "allow_pair" => ArbiterAction::AllowPair { a: name(f, "a")?, b: name(f, "b")? },
            "forbid_team_pair" => {
                ArbiterAction::ForbidTeamPair { a: name(f, "a")?, b: name(f, "b")? }
            }
            "allow_team_pair" => {
                ArbiterAction::AllowTeamPair { a: name(f, "a")?, b: name(f, "b")? }
            }
            "add_time" => {
                let round = round_field(f, "round")?;
                let board = round_field(f, "board")?;
                let color: Color = f.req("color")?;
                let seconds: i64 = f.req("seconds")?;
                if !(1..=3600).contains(&seconds) {
                    return Err(FieldError::field("seconds", format!("1 to 3600, not {seconds}")));
                }
                ArbiterAction::AddTime { round, board, color, seconds: seconds as u64 }
            }
            "undo" => {
                let round = round_field(f, "round")?;
                let board = round_field(f, "board")?;
                let result = board_result(f)?;
                ArbiterAction::Undo { round, board, result }
            }
            kind @ ("result" | "enter") => {
                let round = round_field(f, "round")?;
                let board = round_field(f, "board")?;
                let result = board_result(f)?;
                if f.has("match") {
                    // A team match's board (the desk's `3.2 1-0`): `board` is the board of
                    // match `match`.
                    let number = round_field(f, "match")?;
                    if kind == "enter" {
                        ArbiterAction::TeamEnter { round, number, board, result }
                    } else {
                        ArbiterAction::TeamResult { round, number, board, result }
                    }
                } else if kind == "enter" {
                    let game = if f.has("game") { Some(round_field(f, "game")?) } else { None };
                    ArbiterAction::Enter { round, board, result, game }
                } else {
                    ArbiterAction::Result { round, board, result }
                }
            }
            "lots" => ArbiterAction::Lots {
                round: round_field(f, "round")?,
                board: round_field(f, "board")?,
                winner: name(f, "winner")?,
            },
            "swap_colours" => ArbiterAction::SwapColours {
                round: round_field(f, "round")?,
                board: round_field(f, "board")?,
            },
            "guest" => {
                let name = guest_name(f, "name")?;
                let rating: Option<i64> = f.opt("rating")?;
                let rating = match rating {
                    None => None,
                    Some(r @ 0..=3500) => Some(r as u16).filter(|&r| r > 0),
                    Some(r) => {
                        return Err(FieldError::field("rating", format!("0 to 3500, not {r}")))
                    }
                };
                let title = match free_text(f, "title")?.filter(|t| !t.is_empty()) {
                    None => None,
                    Some(t) => {
                        const TITLES: [&str; 8] =
                            ["GM", "IM", "WGM", "FM", "WIM", "CM", "WFM", "WCM"];
                        let t = t.to_ascii_uppercase();
                        if !TITLES.contains(&t.as_str()) {
                            return Err(FieldError::field(
                                "title",
                                format!("GM, IM, WGM, FM, WIM, CM, WFM or WCM, not {t:?}"),
                            ));
                        }
                        Some(t)
                    }
                };
                ArbiterAction::Guest { name, rating, title }
            }
            "check_in" => {
                let players = match (f.has("player"), f.has("players")) {
                    (true, false) => vec![name(f, "player")?],
                    (false, true) => {
                        let list = match f.req::<Value>("players")? {
                            Value::Array(list) => list,
                            other => {
                                return Err(FieldError::field(
                                    "players",
                                    format!("a list of names, not {other}"),
                                ))
                            }
                        };
                        if list.is_empty() || list.len() > 10_000 {
                            return Err(FieldError::field("players", "1 to 10000 names"));
                        }
                        list.into_iter()
                            .enumerate()
                            .map(|(i, v)| match v {
                                Value::String(s) if !s.is_empty() => Ok(s),
                                other => Err(FieldError::field(
                                    "players",
                                    format!("item {i}: a name, not {other}"),
                                )),
                            })
                            .collect::<Result<_, _>>()?
                    }
                    _ => return Err(FieldError::field("player", "give player or players")),
                };
                let present: bool = f.req("present")?;
                ArbiterAction::CheckIn { players, present }
            }
            "fix_board" => {
                // A board, or `null` (or none) to free the player.
                let board = if f.has("board") {
                    Some(round_field(f, "board")?)
                } else {
                    f.opt::<Value>("board")?;
                    None
                };
                ArbiterAction::FixBoard { player: name(f, "player")?, board }
            }
            "link" => {
                ArbiterAction::Link { player: name(f, "player")?, account: name(f, "account")? }
            }
            "incident" => incident(f)?,
            "team" => {
                let name = guest_name(f, "name")?;
                let players = roster_of(f)?;
                let captain = free_text(f, "captain")?.filter(|c| !c.trim().is_empty());
                ArbiterAction::Team { name, players, captain }
            }
            "captain" => {
                ArbiterAction::Captain { team: name(f, "team")?, account: name(f, "account")? }
            }
            "team_absent" => ArbiterAction::TeamAbsent {
                team: name(f, "team")?,
                absent: f.opt("absent")?.unwrap_or(true),
            },
            "line_up" => {
                let LineUpBody { round, team, players } = LineUpBody::from_fields(f)?;
                ArbiterAction::LineUp { round, team, players }
            }
            "end" => ArbiterAction::End,
            "cancel" => ArbiterAction::Cancel,
            other => return Err(FieldError::field("action", format!("unknown action {other:?}"))),
        };
        let reason = free_text(f, "reason")?.filter(|r| !r.trim().is_empty());
        if a.needs_reason() && reason.is_none() {
            return Err(FieldError::field(
                "reason",
                "this decision is recorded with its reason (RULES.md §12)",
            ));
        }
        Ok(ArbiterBody(a, reason))
    }
}

/// `{"action":"incident","round":…,"board":…,"kind":…,"player":…,"decision":…}` and the
/// kind's own fields (docs/api.md, *Arbiter*): each missing one refused by its name.
fn incident(f: &mut Fields) -> Result<ArbiterAction, FieldError> {
    let round = round_field(f, "round")?;
    let board = round_field(f, "board")?;
    let player = |f: &mut Fields| -> Result<String, FieldError> {
        free_text(f, "player")?
            .filter(|p| !p.trim().is_empty())
            .ok_or_else(|| FieldError::field("player", "missing: whose incident it is"))
    };
    fn named<T: Copy>(
        f: &mut Fields,
        field: &'static str,
        names: &[(&'static str, T)],
    ) -> Result<T, FieldError> {
        let text: String = f.req(field)?;
        names.iter().find(|(n, _)| *n == text).map(|&(_, v)| v).ok_or_else(|| {
            let list: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            FieldError::field(field, format!("one of {}, not {text:?}", list.join(", ")))
        })
    }
    let kind: String = f.req("kind")?;
    let report = match kind.as_str() {
        "illegal_move" => IncidentReport::IllegalMove { player: player(f)? },
        "time_added" => {
            let player = player(f)?;
            let seconds: i64 = f.req("seconds")?;
            if !(1..=3600).contains(&seconds) {
                return Err(FieldError::field("seconds", format!("1 to 3600, not {seconds}")));
            }
            IncidentReport::TimeAdded { player, seconds: seconds as u32 }
        }
        "colour_mixup" => IncidentReport::ColourMixup { before_quarter: f.req("before_quarter")? },
        "irregularity_after" => IncidentReport::IrregularityAfter,
        "misconduct" => IncidentReport::Misconduct {
            player: player(f)?,
            what: named(f, "what", &Misconduct::ALL)?,
            sanction: named(f, "sanction", &Sanction::ALL)?,
        },
        other => {
            return Err(FieldError::field(
                "kind",
                format!(
                    "illegal_move, time_added, colour_mixup, irregularity_after or misconduct, \
                     not {other:?}"
                ),
            ))
        }
    };
    let decision = free_text(f, "decision")?
        .map(|d| d.trim().to_owned())
        .filter(|d| !d.is_empty())
        .ok_or_else(|| FieldError::field("decision", "missing: the arbiter's decision"))?;
    Ok(ArbiterAction::Incident { round, board, report, decision })
}

/// A guest's name: 1 to 100 characters, no control characters.
fn guest_name(f: &mut Fields, field: &'static str) -> Result<String, FieldError> {
    let name = free_text(f, field)?.map(|n| n.trim().to_owned()).unwrap_or_default();
    if name.is_empty() || name.chars().count() > 100 || name.chars().any(char::is_control) {
        return Err(FieldError::field(
            field,
            "a name of 1 to 100 characters, without control characters",
        ));
    }
    Ok(name)
}

/// `POST /api/v1/tournaments/{id}/roster`: `{"text":"…","format":"csv"|"trf"}`, the list read
/// at the edge (the format found from the text when not given); a bad list is refused whole,
/// naming its line and column in the `text` field's message.
pub struct RosterBody(pub Vec<RosterEntry>);

impl FromBody for RosterBody {
    fn from_fields(f: &mut Fields) -> Result<RosterBody, FieldError> {
        let text = match f.opt::<Value>("text")? {
            Some(Value::String(s)) => s,
            _ => return Err(FieldError::field("text", "the list (CSV or TRF) as text")),
        };
        let format: Option<String> = f.opt("format")?;
        let list = match format.as_deref() {
            None => roster::import(&text),
            Some("csv") => roster::from_csv(&text),
            Some("trf") => roster::from_trf(&text),
            Some(other) => {
                return Err(FieldError::field("format", format!("csv or trf, not {other:?}")))
            }
        };
        list.map(RosterBody).map_err(|e| FieldError::field("text", e.to_string()))
    }
}

/// `?lines=lf`.
pub struct TrfQuery(pub bool);

impl FromBody for TrfQuery {
    fn from_fields(f: &mut Fields) -> Result<TrfQuery, FieldError> {
        let lines: Option<String> = f.opt("lines")?;
        match lines.as_deref() {
            None | Some("cr") => Ok(TrfQuery(false)),
            Some("lf") => Ok(TrfQuery(true)),
            Some(other) => Err(FieldError::field("lines", format!("cr or lf, not {other:?}"))),
        }
    }
}

/// `?round=N&lang=en|zh` of a printed document.
pub struct PrintQuery {
    /// The round; the last paired when absent.
    pub round: Option<u32>,
    /// The language.
    pub lang: Lang,
}

impl FromBody for PrintQuery {
    fn from_fields(f: &mut Fields) -> Result<PrintQuery, FieldError> {
        let round: Option<String> = f.opt("round")?;
        let round = match round {
            None => None,
            Some(text) => Some(text.parse::<u32>().ok().filter(|&n| n >= 1).ok_or_else(|| {
                FieldError::field("round", format!("a round number, not {text:?}"))
            })?),
        };
        let lang: Option<String> = f.opt("lang")?;
        let lang = match lang.as_deref() {
            None => Lang::En,
            Some(code) => Lang::from_code(code)
                .ok_or_else(|| FieldError::field("lang", format!("en or zh, not {code:?}")))?,
        };
        Ok(PrintQuery { round, lang })
    }
}
