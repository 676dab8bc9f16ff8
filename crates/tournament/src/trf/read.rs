//! Reading a file record by record: the header (`012`…`222`), the settings in their TRF-2026
//! and TRF(x)/TRF(bx) spellings, and the records that name players (`240`, `250`, `260`,
//! `299`, `XXA`, `XXP`, `XXZ`), and Rookery's `C07`. What needs the whole file (pairing numbers without gaps,
//! opponents that agree, scores that add up) is checked afterwards, in `check.rs`.

use rookery_core::Color;

use super::columns::{parse_signed_points, Line};
use super::error::{Feature, Field, ReadError, ReadErrorKind};
use super::player::{read_player, PlayerRecord};
use super::scoring::ScoringReader;
use crate::{
    AbnormalPoints, AnnouncedBye, ByeKind, ForbiddenPairs, PlayerId, Regulations, ResultCode,
    Score, Tournament,
};

/// A value read from a record, with the place to blame if the rest of the file disagrees.
pub(super) struct Located<T> {
    pub value: T,
    pub line: u32,
    pub column: usize,
}

/// Fictitious points as a record gives them.
pub(super) enum AccelerationRecord {
    /// `250`: `points` for the players `first..=last` in the rounds `rounds`.
    Range { players: (PlayerId, PlayerId), rounds: (u32, u32), points: Score },
    /// `XXA`: one player's points, round by round from round 1.
    PerRound { player: PlayerId, points: Vec<Score> },
}

/// Everything read so far.
#[derive(Default)]
pub(super) struct Reader {
    /// The header, settings and records that need no further check.
    pub t: Tournament,
    pub players: Vec<PlayerRecord>,
    pub scoring: ScoringReader,
    /// Every pairing number named outside `001` records, to check that it exists.
    pub references: Vec<Located<PlayerId>>,
    /// The line of the `142`/`XXR` record.
    pub rounds_line: Option<u32>,
    pub byes: Vec<Located<AnnouncedBye>>,
    /// `XXZ`: absent in the round to be paired, whose number is known only at the end.
    pub absences: Vec<Located<PlayerId>>,
    pub accelerations: Vec<AccelerationRecord>,
    /// Codes of the records TRF allows once, seen so far.
    seen: Vec<String>,
}

/// The last round a three-column round field (`240`, `250`, `260`, `299`) can name.
pub(super) const MAX_ROUND: u32 = 999;

/// Record codes kept as they are: counts, dates, team records, encoded time control.
const KEPT: [&str; 15] = [
    "062", "072", "082", "132", "172", "182", "222", "300", "310", "320", "330", "352", "362",
    "801", "802",
];

impl Reader {
    pub fn line(&mut self, line: &Line) -> Result<(), ReadError> {
        let code = line.code();
        if code == "###" {
            let text = line.rest(if line.at(4) == ' ' { 5 } else { 4 });
            self.t.other_lines.push((code, text));
            return Ok(());
        }
        if line.chars.len() < 3 {
            return Err(line.error(1, ReadErrorKind::UnknownCode(code)));
        }
        if line.at(4) != ' ' {
            return Err(line.error(4, ReadErrorKind::NoBlankAfterCode));
        }
        let value = || line.field(5, line.chars.len().max(5));
        match code.as_str() {
            "001" => self.player(line)?,
            "012" => self.once(line, |t| &mut t.name)?,
            "022" => self.once(line, |t| &mut t.city)?,
            "032" => self.once(line, |t| &mut t.federation)?,
            "042" => self.once(line, |t| &mut t.start_date)?,
            "052" => self.once(line, |t| &mut t.end_date)?,
            "092" => self.once(line, |t| &mut t.kind)?,
            "102" => self.once(line, |t| &mut t.chief_arbiter)?,
            "122" => self.once(line, |t| &mut t.time_control)?,
            "192" => self.once(line, |t| &mut t.pairing_system)?,
            "112" => self.t.deputy_arbiters.extend(Some(value()).filter(|v| !v.is_empty())),
            "202" => self.codes(line, |t| &mut t.tie_breaks)?,
            "212" => self.codes(line, |t| &mut t.standings_tie_breaks)?,
            "C07" => self.regulations(line)?,
            "142" | "XXR" => self.rounds(line)?,
            "152" => match value().as_str() {
                "W" | "w" => self.initial_colour(line, 5, Color::White)?,
                "B" | "b" => self.initial_colour(line, 5, Color::Black)?,
                text => {
                    let kind = ReadErrorKind::InvalidField {
                        field: Field::InitialColour,
                        text: text.into(),
                    };
                    return Err(line.error(5, kind));
                }
            },
            "XXC" => self.configuration(line)?,
            "162" => self.scoring.read_162(line)?,
            "XXS" => self.scoring.read_xxs(line)?,
            "BBW" | "BBD" | "BBL" | "BBZ" | "BBF" | "BBU" => {
                self.scoring.read_bb(line, line.at(3))?
            }
            "240" => self.byes(line)?,
            "XXZ" => {
                for (column, _) in line.tokens(5) {
                    let player = self.token_player(line, column)?;
                    self.absences.push(Located { value: player, line: line.number, column });
                }
            }
            "250" => self.acceleration_range(line)?,
            "XXA" => self.acceleration_per_round(line)?,
            "260" => self.forbidden(line)?,
            "XXP" => {
                let mut players = Vec::new();
                for (column, _) in line.tokens(5) {
                    players.push(self.token_player(line, column)?);
                }
                if players.len() < 2 {
                    return Err(
                        line.error(line.chars.len() + 2, ReadErrorKind::Missing(Field::Player))
                    );
                }
                self.t.forbidden_pairs.push(ForbiddenPairs {
                    players,
                    first_round: None,
                    last_round: None,
                });
            }
            "299" => self.abnormal(line)?,
            "013" => self.team(line)?,
            code if KEPT.contains(&code) || is_rating_federation(code) => {
                self.t.other_lines.push((code.to_owned(), line.rest(5)));
            }
            _ => return Err(line.error(1, ReadErrorKind::UnknownCode(code))),
        }
        Ok(())
    }

    fn player(&mut self, line: &Line) -> Result<(), ReadError> {
        let record = read_player(line)?;
        if let Some(first) = self.players.iter().find(|p| p.id == record.id) {
            let kind = ReadErrorKind::DuplicatePlayer { player: record.id, first_line: first.line };
            return Err(line.error(5, kind));
        }
        self.players.push(record);
        Ok(())
    }

    /// A header record allowed once: its text, trimmed.
    fn once(
        &mut self,
        line: &Line,
        slot: fn(&mut Tournament) -> &mut Option<String>,
    ) -> Result<(), ReadError> {
        let value = line.field(5, line.chars.len().max(5));
        self.seen(line)?;
        if !value.is_empty() {
            *slot(&mut self.t) = Some(value);
        }
        Ok(())
    }

    fn seen(&mut self, line: &Line) -> Result<(), ReadError> {
        let code = line.code();
        if self.seen.contains(&code) {
            return Err(line.error(1, ReadErrorKind::Duplicate(code)));
        }
        self.seen.push(code);
        Ok(())
    }

    /// `202`/`212`: comma-separated codes.
    fn codes(
        &mut self,
        line: &Line,
        slot: fn(&mut Tournament) -> &mut Vec<String>,
    ) -> Result<(), ReadError> {
        self.seen(line)?;
        let value = line.field(5, line.chars.len().max(5));
        *slot(&mut self.t) =
            value.split(',').map(str::trim).filter(|c| !c.is_empty()).map(str::to_owned).collect();
        Ok(())
    }

    /// `C07 2024`: Rookery's record of the text of C.07 the tie-breaks follow (TRF-2026 has
    /// none; see the module's documentation).
    fn regulations(&mut self, line: &Line) -> Result<(), ReadError> {
        self.seen(line)?;
        let text = line.field(5, line.chars.len().max(5));
        let regulations = Regulations::ALL.into_iter().find(|r| r.year().to_string() == text);
        let regulations = regulations.ok_or_else(|| {
            line.error(5, ReadErrorKind::InvalidField { field: Field::Regulations, text })
        })?;
        self.t.tie_break_regulations = Some(regulations);
        Ok(())
    }

    fn rounds(&mut self, line: &Line) -> Result<(), ReadError> {
        let rounds = line.positive(5, line.chars.len().max(5), Field::RoundCount)?;
        if self.t.rounds.is_some_and(|r| r != rounds) {
            return Err(line.error(5, ReadErrorKind::ConflictingSetting(Field::RoundCount)));
        }
        self.t.rounds = Some(rounds);
        self.rounds_line = Some(line.number);
        Ok(())
    }

    fn initial_colour(
        &mut self,
        line: &Line,
        column: usize,
        colour: Color,
    ) -> Result<(), ReadError> {
        if self.t.initial_colour.is_some_and(|c| c != colour) {
            return Err(line.error(column, ReadErrorKind::ConflictingSetting(Field::InitialColour)));
        }
        self.t.initial_colour = Some(colour);
        Ok(())
    }

    /// `XXC white1`, `XXC black1`; other options of JaVaFo's are ignored, as bbpPairings
    /// ignores them, except `rank` (pairing by positional ids), which would change every
    /// pairing.
    fn configuration(&mut self, line: &Line) -> Result<(), ReadError> {
        for (column, token) in line.tokens(5) {
            match token.as_str() {
                "white1" => self.initial_colour(line, column, Color::White)?,
                "black1" => self.initial_colour(line, column, Color::Black)?,
                "rank" => {
                    let kind = ReadErrorKind::Unsupported(Feature::PositionalIds);
                    return Err(line.error(column, kind));
                }
                _ => {}
            }
        }
        Ok(())
    }

    fn refer(&mut self, player: PlayerId, line: &Line, column: usize) -> PlayerId {
        self.references.push(Located { value: player, line: line.number, column });
        player
    }

    /// A pairing number written as a word (`XXP 13 68`).
    fn token_player(&mut self, line: &Line, column: usize) -> Result<PlayerId, ReadError> {
        let end = column + line.tokens(column)[0].1.chars().count() - 1;
        let player = line.required_player(column, end)?;
        Ok(self.refer(player, line, column))
    }

    /// Pairing numbers four columns wide from `column`, one blank apart (`240`, `260`, `299`).
    fn player_list(&mut self, line: &Line, column: usize) -> Result<Vec<PlayerId>, ReadError> {
        let mut players = Vec::new();
        let mut at = column;
        while at <= line.chars.len() {
            if at > column && line.at(at - 1) != ' ' {
                return Err(line.error(at - 1, ReadErrorKind::ExpectedBlank(line.at(at - 1))));
            }
            let player = line.required_player(at, at + 3)?;
            players.push(self.refer(player, line, at));
            at += 5;
        }
        Ok(players)
    }

    /// `013 Name (32 columns)  1    2    3`: a team and its players in board order, the
    /// first at column 37, then every 5 columns.
    fn team(&mut self, line: &Line) -> Result<(), ReadError> {
        let name = line.field(5, 36);
        if name.is_empty() {
            return Err(line.error(5, ReadErrorKind::Missing(Field::TeamName)));
        }
        let players = self.player_list(line, 37)?;
        if players.is_empty() {
            return Err(line.error(37, ReadErrorKind::Missing(Field::Player)));
        }
        self.t.teams.push(crate::TeamRecord { name, players });
        Ok(())
    }

    /// `240 H 003  026  047`: a bye for some players in one round.
    fn byes(&mut self, line: &Line) -> Result<(), ReadError> {
        let kind = match line.at(5).to_ascii_uppercase() {
            'H' => ByeKind::Half,
            'F' => ByeKind::Full,
            'Z' => ByeKind::Zero,
            c => {
                let kind =
                    ReadErrorKind::InvalidField { field: Field::ByeKind, text: c.to_string() };
                return Err(line.error(5, kind));
            }
        };
        let round = line.positive(7, 9, Field::Round)?;
        let players = self.player_list(line, 11)?;
        if players.is_empty() {
            return Err(line.error(11, ReadErrorKind::Missing(Field::Player)));
        }
        for (i, player) in players.into_iter().enumerate() {
            let bye = AnnouncedBye { player, round, kind };
            self.byes.push(Located { value: bye, line: line.number, column: 11 + 5 * i });
        }
        Ok(())
    }

    /// `250      1.0 001 003 0001 0090`: points for a range of players in a range of rounds.
    fn acceleration_range(&mut self, line: &Line) -> Result<(), ReadError> {
        if line.points(5, 8)?.is_some_and(|p| p != Score::ZERO) {
            return Err(line.error(5, ReadErrorKind::Unsupported(Feature::MatchPoints)));
        }
        let points = line
            .points(10, 13)?
            .ok_or_else(|| line.error(10, ReadErrorKind::Missing(Field::Points)))?;
        let rounds = (line.positive(15, 17, Field::Round)?, line.positive(19, 21, Field::Round)?);
        if rounds.0 > rounds.1 {
            let kind = ReadErrorKind::ReversedRange {
                field: Field::Round,
                first: rounds.0,
                last: rounds.1,
            };
            return Err(line.error(15, kind));
        }
        let first = line.required_player(23, 26)?;
        let last = line.required_player(28, 31)?;
        if first > last {
            let kind = ReadErrorKind::ReversedRange {
                field: Field::Player,
                first: first.get(),
                last: last.get(),
            };
            return Err(line.error(23, kind));
        }
        self.refer(last, line, 28);
        self.accelerations.push(AccelerationRecord::Range {
            players: (first, last),
            rounds,
            points,
        });
        Ok(())
    }

    /// `XXA NNNN pp.p pp.p …`: one player's points, round 1 at column 10, then every 5.
    fn acceleration_per_round(&mut self, line: &Line) -> Result<(), ReadError> {
        let player = line.required_player(5, 8)?;
        self.refer(player, line, 5);
        let mut points = Vec::new();
        let mut column = 10;
        while column <= line.chars.len() {
            if points.len() == MAX_ROUND as usize {
                return Err(line.error(column, ReadErrorKind::Unsupported(Feature::RoundAfter999)));
            }
            points.push(line.points(column, column + 3)?.unwrap_or(Score::ZERO));
            column += 5;
        }
        self.accelerations.push(AccelerationRecord::PerRound { player, points });
        Ok(())
    }

    /// `260 001 002  125  180`: players who may not meet in a range of rounds.
    fn forbidden(&mut self, line: &Line) -> Result<(), ReadError> {
        let first = line.positive(5, 7, Field::Round)?;
        let last = line.positive(9, 11, Field::Round)?;
        if first > last {
            let kind = ReadErrorKind::ReversedRange { field: Field::Round, first, last };
            return Err(line.error(5, kind));
        }
        let players = self.player_list(line, 13)?;
        if players.len() < 2 {
            let column = 13 + 5 * players.len();
            return Err(line.error(column, ReadErrorKind::Missing(Field::Player)));
        }
        // Round 1 and round 999 (the most the field holds) are the ends of any tournament:
        // read as "from the start" and "to the end", which is how they are written back.
        let first_round = Some(first).filter(|&r| r != 1);
        let last_round = Some(last).filter(|&r| r != 999);
        self.t.forbidden_pairs.push(ForbiddenPairs { players, first_round, last_round });
        Ok(())
    }

    /// `299 +      0.5 003 0012`: unusual points for some players.
    fn abnormal(&mut self, line: &Line) -> Result<(), ReadError> {
        let result = match line.at(5) {
            ' ' => None,
            c @ ('W' | 'D' | 'L' | 'F' | 'H' | 'Z' | '+' | '-' | 'w' | 'd' | 'l' | 'f' | 'h'
            | 'z') => ResultCode::from_char(c),
            c => {
                let kind = ReadErrorKind::InvalidField {
                    field: Field::AssignmentKind,
                    text: c.to_string(),
                };
                return Err(line.error(5, kind));
            }
        };
        // W, D, L name the result, rated or not: read as the rated code (see AbnormalPoints).
        let result = result.map(|code| match code {
            ResultCode::UnratedWin => ResultCode::Win,
            ResultCode::UnratedDraw => ResultCode::Draw,
            ResultCode::UnratedLoss => ResultCode::Loss,
            code => code,
        });
        if !line.field(8, 11).is_empty() {
            return Err(line.error(8, ReadErrorKind::Unsupported(Feature::MatchPoints)));
        }
        let text = line.field(14, 17);
        if text.is_empty() {
            return Err(line.error(14, ReadErrorKind::Missing(Field::Points)));
        }
        let points = parse_signed_points(&text).ok_or_else(|| {
            line.error(14, ReadErrorKind::InvalidField { field: Field::Points, text: text.clone() })
        })?;
        let round = line.number(20, 22, Field::Round)?.filter(|&r| r != 0);
        let players = self.player_list(line, 24)?;
        if players.is_empty() {
            return Err(line.error(24, ReadErrorKind::Missing(Field::Player)));
        }
        self.t.abnormal_points.push(AbnormalPoints { result, points, round, players });
        Ok(())
    }
}

/// A National Rating Support record: a federation's three letters instead of `001`. `XX?`
/// and `BB?` are JaVaFo's and bbpPairings' codes, never a federation.
fn is_rating_federation(code: &str) -> bool {
    code.len() == 3
        && code.bytes().all(|b| b.is_ascii_uppercase())
        && !code.starts_with("XX")
        && !code.starts_with("BB")
}
