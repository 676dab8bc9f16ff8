//! Writing a tournament as TRF-2026: the header, one `001` record per player in pairing
//! order, a team competition's `013` records, then `240`, `250`, `260` and `299`. Only where
//! TRF-2026 cannot say something does the writer fall back on an extension: one that JaVaFo
//! or bbpPairings read (`BB?` or `XXS` for a point system `162` cannot express), or
//! Rookery's `C07` for the text of C.07.

use std::fmt::Write as _;

use rookery_core::Color;

use super::error::{WriteError, WriteErrorKind};
use super::scoring::scoring_lines;
use crate::score::Tenths;
use crate::{Player, PlayerId, ResultCode, RoundEntry, Score, Tournament};

/// How lines end in the written file.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum LineEnding {
    /// CR, as TRF-2026 Remark 1 asks ("each line shall have a CR as last character").
    #[default]
    Cr,
    /// LF, for tools that expect Unix text.
    Lf,
    /// CRLF, for tools that expect Windows text.
    CrLf,
}

impl LineEnding {
    fn as_str(self) -> &'static str {
        match self {
            LineEnding::Cr => "\r",
            LineEnding::Lf => "\n",
            LineEnding::CrLf => "\r\n",
        }
    }
}

/// Options of [`write_with`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct WriteOptions {
    /// How lines end; CR by default.
    pub line_ending: LineEnding,
}

/// Writes `tournament` as a TRF-2026 file with CR line endings.
///
/// [`read`](super::read) gives back an equal tournament for any tournament it produced;
/// values it normalises (trimmed text, merged accelerations, a forbidden pair from round 1
/// or to round 999 read as without bound) come back normalised.
///
/// # Errors
///
/// If a value does not fit in its columns (a name over 33 characters, a pairing number over
/// 9999, a score over 99.9 …), holds a line break or another control character, or has no
/// TRF form (the PAB in a `299` record, a forbidden-pairs group of one).
pub fn write(tournament: &Tournament) -> Result<String, WriteError> {
    write_with(tournament, WriteOptions::default())
}

/// Writes `tournament` as a TRF-2026 file, with `options`.
///
/// # Errors
///
/// As [`write()`].
pub fn write_with(tournament: &Tournament, options: WriteOptions) -> Result<String, WriteError> {
    let lines = lines(tournament)?;
    let ending = options.line_ending.as_str();
    let mut out = String::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
    for line in lines {
        out.push_str(line.trim_end());
        out.push_str(ending);
    }
    Ok(out)
}

fn fail(what: impl Into<String>, kind: WriteErrorKind) -> WriteError {
    WriteError { what: what.into(), kind }
}

/// Text that reads back: no line break (it would end the record), and at most `max`
/// characters when the field has fixed columns.
fn text<'a>(
    what: &dyn Fn() -> String,
    value: &'a str,
    max: Option<usize>,
) -> Result<&'a str, WriteError> {
    if value.contains(['\r', '\n']) {
        return Err(fail(what(), WriteErrorKind::InvalidText));
    }
    if let Some(max) = max {
        if value.chars().count() > max {
            return Err(fail(what(), WriteErrorKind::TooLong { max }));
        }
    }
    Ok(value)
}

/// A number that must fit in `width` digits.
fn number(what: &dyn Fn() -> String, value: u64, width: u32) -> Result<u64, WriteError> {
    if value >= 10u64.pow(width) {
        return Err(fail(what(), WriteErrorKind::TooLong { max: width as usize }));
    }
    Ok(value)
}

/// Points in four columns (`99.9` at most).
/// Points in four columns: `99.9` at most with a decimal, else a whole number (`100`, `9999`),
/// which reads the same.
fn points(what: &dyn Fn() -> String, value: Score) -> Result<String, WriteError> {
    signed_points(what, i64::from(value.tenths()))
}

/// Tenths of a point, signed, in four columns (`-9.9`, `-999`, `99.9`, `9999`).
fn signed_points(what: &dyn Fn() -> String, tenths: i64) -> Result<String, WriteError> {
    let text = Tenths(i128::from(tenths)).to_string();
    if text.len() <= 4 {
        return Ok(text);
    }
    let sign = if tenths < 0 { "-" } else { "" };
    let abs = tenths.unsigned_abs();
    let whole = format!("{sign}{}", abs / 10);
    if abs.is_multiple_of(10) && whole.len() <= 4 {
        return Ok(whole);
    }
    Err(fail(what(), WriteErrorKind::TooLong { max: 4 }))
}

fn lines(t: &Tournament) -> Result<Vec<String>, WriteError> {
    let mut lines = Vec::new();
    let headers = [
        ("012", &t.name, "tournament name"),
        ("022", &t.city, "city"),
        ("032", &t.federation, "federation"),
        ("042", &t.start_date, "start date"),
        ("052", &t.end_date, "end date"),
        ("092", &t.kind, "type of tournament"),
        ("102", &t.chief_arbiter, "chief arbiter"),
    ];
    for (code, value, what) in headers {
        if let Some(value) = value {
            lines.push(format!("{code} {}", text(&|| what.to_owned(), value, None)?));
        }
    }
    for deputy in &t.deputy_arbiters {
        lines.push(format!("112 {}", text(&|| "deputy arbiter".to_owned(), deputy, None)?));
    }
    if let Some(value) = &t.time_control {
        lines.push(format!("122 {}", text(&|| "time control".to_owned(), value, None)?));
    }
    if let Some(rounds) = t.rounds {
        lines.push(format!("142 {rounds}"));
    }
    if let Some(colour) = t.initial_colour {
        lines.push(format!("152 {}", if colour == Color::White { 'W' } else { 'B' }));
    }
    lines.extend(scoring_lines(&t.scoring));
    if let Some(value) = &t.pairing_system {
        lines.push(format!("192 {}", text(&|| "pairing system".to_owned(), value, None)?));
    }
    for (code, codes) in [("202", &t.tie_breaks), ("212", &t.standings_tie_breaks)] {
        if codes.is_empty() {
            continue;
        }
        for c in codes {
            text(&|| format!("tie-break code {c:?}"), c, None)?;
            if c.contains(',') {
                return Err(fail(format!("tie-break code {c:?}"), WriteErrorKind::InvalidText));
            }
        }
        lines.push(format!("{code} {}", codes.join(",")));
    }
    if let Some(regulations) = t.tie_break_regulations {
        lines.push(format!("C07 {}", regulations.year()));
    }
    for (code, rest) in &t.other_lines {
        if code.chars().count() != 3 {
            return Err(fail(format!("record code {code:?}"), WriteErrorKind::TooLong { max: 3 }));
        }
        text(&|| format!("{code} record"), code, None)?;
        lines.push(format!("{code} {}", text(&|| format!("{code} record"), rest, None)?));
    }
    number(&|| "number of players".to_owned(), t.players.len() as u64, 4)?;
    for (index, player) in t.players.iter().enumerate() {
        lines.push(player_line(PlayerId::from_index(index), player)?);
    }
    for team in &t.teams {
        lines.push(team_line(team)?);
    }
    byes(t, &mut lines)?;
    accelerations(t, &mut lines)?;
    forbidden_pairs(t, &mut lines)?;
    abnormal_points(t, &mut lines)?;
    Ok(lines)
}

fn player_line(id: PlayerId, p: &Player) -> Result<String, WriteError> {
    let what = |field: &'static str| move || format!("player {id} {field}");
    let sex = match p.sex {
        // A blank reads as no sex; a line break would end the record.
        Some(' ' | '\r' | '\n') => return Err(fail(what("sex")(), WriteErrorKind::InvalidText)),
        Some(c) => c,
        None => ' ',
    };
    let title = text(&what("title"), p.title.as_deref().unwrap_or(""), Some(3))?;
    let name = text(&what("name"), &p.name, Some(33))?;
    let rating = match p.rating {
        Some(r) => number(&what("rating"), u64::from(r), 4)?.to_string(),
        None => String::new(),
    };
    let federation = text(&what("federation"), p.federation.as_deref().unwrap_or(""), Some(3))?;
    let fide_id = match p.fide_id {
        Some(n) => number(&what("FIDE number"), n, 11)?.to_string(),
        None => String::new(),
    };
    let birth = text(&what("birth date"), p.birth_date.as_deref().unwrap_or(""), Some(10))?;
    let score = points(&what("points"), p.points)?;
    // Five columns (85–89), as bbpPairings writes it and the reader reads it.
    let rank = match p.rank {
        Some(r) => number(&what("rank"), u64::from(r), 5)?.to_string(),
        None => String::new(),
    };
    let mut line = format!(
        "001 {id:>4} {sex}{title:>3} {name:<33} {rating:>4} {federation:<3} {fide_id:>11} \
         {birth:<10} {score:>4}{rank:>5}"
    );
    for entry in &p.rounds {
        if let Some(opponent) = entry.opponent {
            player_number(&what("opponent"), opponent)?;
        }
        write_entry(&mut line, entry);
    }
    Ok(line)
}

/// The players TRF-2026 gives a `013` record columns for (the 14th at 102–105).
const TEAM_RECORD_PLAYERS: usize = 14;

/// `013 Name (columns 5–36)` then each player's pairing number in four columns, the first at
/// column 37, then every 5 columns.
fn team_line(team: &crate::TeamRecord) -> Result<String, WriteError> {
    let what = |field: &'static str| move || format!("team {:?} {field}", team.name);
    // A blank name reads as a missing one.
    if team.name.trim().is_empty() || team.name.trim() != team.name {
        return Err(fail(what("name")(), WriteErrorKind::InvalidText));
    }
    let name = text(&what("name"), &team.name, Some(32))?;
    if team.players.is_empty() || team.players.len() > TEAM_RECORD_PLAYERS {
        let kind = WriteErrorKind::TeamPlayers { max: TEAM_RECORD_PLAYERS };
        return Err(fail(what("players")(), kind));
    }
    let mut line = format!("013 {name:<32}");
    for (i, &player) in team.players.iter().enumerate() {
        let sep = if i == 0 { "" } else { " " };
        let _ = write!(line, "{sep}{:>4}", player_number(&what("player"), player)?);
    }
    Ok(line)
}

/// One round's block: `  OOOO c r` (columns 90–99 for round 1).
fn write_entry(line: &mut String, entry: &RoundEntry) {
    let opponent = entry.opponent.map_or_else(|| "0000".to_owned(), |o| o.to_string());
    let colour = match entry.colour {
        Some(Color::White) => 'w',
        Some(Color::Black) => 'b',
        None => '-',
    };
    write!(line, "  {opponent:>4} {colour} {}", entry.result.to_char())
        .expect("writing to a String");
}

fn round_number(what: &dyn Fn() -> String, round: u32) -> Result<u32, WriteError> {
    Ok(number(what, u64::from(round), 3)? as u32)
}

/// A pairing number outside `001` records, in four columns.
fn player_number(what: &dyn Fn() -> String, player: PlayerId) -> Result<u32, WriteError> {
    Ok(number(what, u64::from(player.get()), 4)? as u32)
}

/// `240 H 003  026  047`: consecutive byes of one kind and round share a record.
fn byes(t: &Tournament, lines: &mut Vec<String>) -> Result<(), WriteError> {
    let mut start = 0;
    while start < t.byes.len() {
        let first = t.byes[start];
        let end = (start..t.byes.len())
            .find(|&i| (t.byes[i].kind, t.byes[i].round) != (first.kind, first.round))
            .unwrap_or(t.byes.len())
            .min(start + 20);
        let round =
            round_number(&|| format!("round of the bye of player {}", first.player), first.round)?;
        let kind = first.kind.result().to_char();
        let mut line = format!("240 {kind} {round:03}");
        for bye in &t.byes[start..end] {
            let player = player_number(&|| format!("bye of player {}", bye.player), bye.player)?;
            write!(line, " {player:>4}").expect("writing to a String");
        }
        lines.push(line);
        start = end;
    }
    Ok(())
}

/// `250      1.0 001 003 0001 0090`: each run of rounds with the same nonzero points, for
/// each run of consecutive players with the same points in every round.
fn accelerations(t: &Tournament, lines: &mut Vec<String>) -> Result<(), WriteError> {
    let mut sorted: Vec<_> = t.accelerations.iter().collect();
    sorted.sort_by_key(|a| a.player);
    let mut start = 0;
    while start < sorted.len() {
        let first = sorted[start];
        let mut end = start + 1;
        while end < sorted.len()
            && sorted[end].points == first.points
            && sorted[end].player.get() == sorted[end - 1].player.get() + 1
        {
            end += 1;
        }
        let last = sorted[end - 1].player;
        let what = || format!("acceleration of player {}", first.player);
        let mut round = 0;
        while round < first.points.len() {
            let value = first.points[round];
            let run = first.points[round..].iter().take_while(|&&p| p == value).count();
            if value != Score::ZERO {
                let value = points(&what, value)?;
                let from = round_number(&what, round as u32 + 1)?;
                let to = round_number(&what, (round + run) as u32)?;
                let (a, b) = (player_number(&what, first.player)?, player_number(&what, last)?);
                lines.push(format!("250      {value:>4} {from:03} {to:03} {a:04} {b:04}"));
            }
            round += run;
        }
        start = end;
    }
    Ok(())
}

/// `260 001 002  125  180`: a group without first round starts at round 1, one without last
/// round ends at round 999 (the most the field holds).
fn forbidden_pairs(t: &Tournament, lines: &mut Vec<String>) -> Result<(), WriteError> {
    for group in &t.forbidden_pairs {
        let what = || {
            format!(
                "forbidden pairs {:?}",
                group.players.iter().map(|p| p.get()).collect::<Vec<_>>()
            )
        };
        if group.players.len() < 2 {
            return Err(fail(what(), WriteErrorKind::FewerThanTwoPlayers));
        }
        let first = round_number(&what, group.first_round.unwrap_or(1))?;
        let last = round_number(&what, group.last_round.unwrap_or(999))?;
        let mut line = format!("260 {first:03} {last:03}");
        for &player in &group.players {
            let player = player_number(&what, player)?;
            write!(line, " {player:>4}").expect("writing to a String");
        }
        lines.push(line);
    }
    Ok(())
}

/// `299 +      0.5 003 0012`: kind at column 5, points at 14–17, round at 20–22.
fn abnormal_points(t: &Tournament, lines: &mut Vec<String>) -> Result<(), WriteError> {
    for record in &t.abnormal_points {
        let what = || {
            format!(
                "abnormal points for players {:?}",
                record.players.iter().map(|p| p.get()).collect::<Vec<_>>()
            )
        };
        let kind = match record.result {
            None => ' ',
            Some(ResultCode::PairingAllocatedBye) => {
                return Err(fail(what(), WriteErrorKind::PabAssignment));
            }
            Some(ResultCode::UnratedWin) => 'W',
            Some(ResultCode::UnratedDraw) => 'D',
            Some(ResultCode::UnratedLoss) => 'L',
            Some(ResultCode::Win) => 'W',
            Some(ResultCode::Draw) => 'D',
            Some(ResultCode::Loss) => 'L',
            Some(code) => code.to_char(),
        };
        if record.players.is_empty() {
            return Err(fail(what(), WriteErrorKind::NoPlayer));
        }
        let value = signed_points(&what, i64::from(record.points))?;
        let round = round_number(&what, record.round.unwrap_or(0))?;
        let mut line = format!("299 {kind}  {:4}  {value:>4}  {round:03}", "");
        for &player in &record.players {
            let player = player_number(&what, player)?;
            write!(line, " {player:>4}").expect("writing to a String");
        }
        lines.push(line);
    }
    Ok(())
}
