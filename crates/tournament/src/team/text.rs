//! A small text format for a team Swiss: the settings, the teams in their initial order and the
//! rounds played, one line each. It is what `rookery pair --team-swiss FILE` reads. TRF-2026's
//! team records (`310`, `300`) need every player's `001` line; this format needs only what
//! pairing reads, and every player is the team's regular board player.
//!
//! ```text
//! # Club league 2026: a comment runs to the end of the line
//! rounds 5              # the event's rounds (required)
//! boards 4              # boards per team (default 4)
//! primary match         # match | game: the primary score (default match)
//! points 2 1 0          # match points for a win, a draw, a loss (default 2 1 0)
//! preference A          # A | B | none: the colour preferences (default A)
//! initial white         # white | black: the initial colour, Art. 4.1 (default white)
//! forbid 1 2            # two teams that must not meet (any number of lines)
//! team Rooks            # one line a team, in the initial order: team 1 first
//! team Knights
//! team Bishops
//! round 1-2 1=0= bye 3  # round 1: team 1 (White on board 1) against team 2, then the bye
//! absent 2              # teams not to pair in the next round
//! ```
//!
//! A match is `W-B RESULTS`: the team with White on board 1, the other, and one character a
//! board, board 1 first, from W's side: `1` won, `=` drawn, `0` lost, `+` won by forfeit, `-`
//! lost by forfeit, `x` both forfeited. Then `bye N` and `absent N` as needed.

use std::fmt;

use rookery_core::Color;

use super::colour::PreferenceType;
use super::competition::{TeamCompetition, TeamCompetitionError, TeamMatch, TeamRound};
use super::roster::{Team, TeamError, TeamId, TeamPlayer, DEFAULT_BOARDS};
use super::scoring::{BoardColours, BoardResult, PrimaryScore, TeamScoring};
use super::swiss::{InitialColour, TeamSwissSettings};
use crate::score::Score;

/// The most boards a team file may give a team (no team event comes near it).
pub const MAX_BOARDS: usize = 100;

/// A bad team file: the line (from 1) and what is wrong there.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamFileError {
    /// The line, from 1 (0 for the file as a whole).
    pub line: usize,
    /// What is wrong.
    pub kind: TeamFileErrorKind,
}

/// What is wrong with a team file.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TeamFileErrorKind {
    /// A line that starts with no keyword of the format.
    UnknownKeyword(String),
    /// A keyword without its value, or a value that is not one of those allowed.
    BadValue {
        /// The keyword.
        keyword: &'static str,
        /// The value found (empty when missing).
        found: String,
    },
    /// A token of a `round` line that is no match, `bye N` or `absent N`.
    BadMatch(String),
    /// A team number that is not a team of the file.
    UnknownTeam(String),
    /// Results of another length than the boards, or a character not in `1=0+-x`.
    BadResults {
        /// The results as written.
        results: String,
        /// The boards.
        boards: usize,
    },
    /// No `rounds` line.
    NoRounds,
    /// A team the roster rules refuse.
    Team(TeamError),
    /// A round or team list the competition refuses.
    Competition(TeamCompetitionError),
}

impl fmt::Display for TeamFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line > 0 {
            write!(f, "line {}: ", self.line)?;
        }
        match &self.kind {
            TeamFileErrorKind::UnknownKeyword(word) => write!(
                f,
                "unknown keyword {word:?} (known: rounds, boards, primary, points, preference, \
                 initial, forbid, team, round, absent)"
            ),
            TeamFileErrorKind::BadValue { keyword, found } if found.is_empty() => {
                write!(f, "{keyword} needs a value")
            }
            TeamFileErrorKind::BadValue { keyword, found } => {
                write!(f, "{found:?} is not a value for {keyword}")
            }
            TeamFileErrorKind::BadMatch(token) => {
                write!(f, "{token:?} is not a match (W-B RESULTS), bye N or absent N")
            }
            TeamFileErrorKind::UnknownTeam(token) => write!(f, "there is no team {token}"),
            TeamFileErrorKind::BadResults { results, boards } => write!(
                f,
                "results {results:?} are not {boards} of 1 = 0 + - x (one a board, board 1 first)"
            ),
            TeamFileErrorKind::NoRounds => write!(f, "no \"rounds\" line: how many rounds?"),
            TeamFileErrorKind::Team(e) => e.fmt(f),
            TeamFileErrorKind::Competition(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for TeamFileError {}

/// What a team file holds: the competition so far and the settings to pair its next round.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamFile {
    /// The teams and the rounds played.
    pub competition: TeamCompetition,
    /// The settings of the team Swiss, `absent` those of the next round.
    pub settings: TeamSwissSettings,
}

fn bad(keyword: &'static str, found: Option<&str>) -> TeamFileErrorKind {
    TeamFileErrorKind::BadValue { keyword, found: found.unwrap_or("").to_owned() }
}

fn number<T: std::str::FromStr>(
    keyword: &'static str,
    token: Option<&str>,
) -> Result<T, TeamFileErrorKind> {
    token.and_then(|t| t.parse().ok()).ok_or_else(|| bad(keyword, token))
}

/// Reads a team file.
///
/// # Errors
///
/// The first line at fault, and what is wrong there.
pub fn read(text: &str) -> Result<TeamFile, TeamFileError> {
    let mut settings = TeamSwissSettings::default();
    let mut scoring = TeamScoring::default();
    let mut boards = DEFAULT_BOARDS;
    let mut names: Vec<(usize, String)> = Vec::new();
    let mut rounds: Vec<(usize, Vec<String>)> = Vec::new();
    let mut absent: Vec<(usize, String)> = Vec::new();
    let mut forbid: Vec<(usize, String, String)> = Vec::new();
    let mut rounds_given = false;
    for (index, raw) in text.lines().enumerate() {
        let line = index + 1;
        let at = |kind| TeamFileError { line, kind };
        let content = raw.split('#').next().unwrap_or("");
        let mut tokens = content.split_whitespace();
        let Some(keyword) = tokens.next() else { continue };
        let value = tokens.clone().next();
        match keyword {
            "rounds" => {
                settings.rounds = number("rounds", value).map_err(at)?;
                rounds_given = true;
            }
            "boards" => {
                boards = number("boards", value).map_err(at)?;
                // Every team's roster is made here, a player a board: a number typed by hand
                // must not be able to exhaust memory.
                if boards > MAX_BOARDS {
                    return Err(at(bad("boards", value)));
                }
            }
            "primary" => {
                scoring.primary = match value {
                    Some("match") => PrimaryScore::MatchPoints,
                    Some("game") => PrimaryScore::GamePoints,
                    other => return Err(at(bad("primary", other))),
                }
            }
            "points" => {
                let mut next = || number::<f64>("points", tokens.next()).map(tenths).map_err(at);
                let (win, draw, loss) = (next()?, next()?, next()?);
                let (Some(win), Some(draw), Some(loss)) = (win, draw, loss) else {
                    return Err(at(bad("points", value)));
                };
                scoring.win = win;
                scoring.draw = draw;
                scoring.loss = loss;
                scoring.bye_match_points = win;
            }
            "preference" => {
                settings.preference = match value.map(str::to_ascii_lowercase).as_deref() {
                    Some("a") => PreferenceType::A,
                    Some("b") => PreferenceType::B,
                    Some("none") => PreferenceType::None,
                    _ => return Err(at(bad("preference", value))),
                }
            }
            "initial" => {
                settings.initial_colour = match value {
                    Some("white") => InitialColour::White,
                    Some("black") => InitialColour::Black,
                    other => return Err(at(bad("initial", other))),
                }
            }
            "forbid" => {
                let (a, b) = (tokens.next(), tokens.next());
                let (Some(a), Some(b)) = (a, b) else { return Err(at(bad("forbid", value))) };
                forbid.push((line, a.to_owned(), b.to_owned()));
            }
            "team" => {
                let name = content.trim_start().strip_prefix("team").unwrap_or("").trim();
                names.push((line, name.to_owned()));
            }
            "round" => rounds.push((line, tokens.map(str::to_owned).collect())),
            "absent" => absent.extend(tokens.map(|t| (line, t.to_owned()))),
            other => return Err(at(TeamFileErrorKind::UnknownKeyword(other.to_owned()))),
        }
    }
    if !rounds_given {
        return Err(TeamFileError { line: 0, kind: TeamFileErrorKind::NoRounds });
    }
    let mut teams = Vec::with_capacity(names.len());
    for (line, name) in &names {
        let roster =
            (1..=boards).map(|b| TeamPlayer::new(format!("{name} board {b}"), None)).collect();
        let team = Team::new(name.clone(), None, boards, roster)
            .map_err(|e| TeamFileError { line: *line, kind: TeamFileErrorKind::Team(e) })?;
        teams.push(team);
    }
    let first_line = names.first().map_or(0, |(l, _)| *l);
    let mut competition = TeamCompetition::new(teams, scoring, BoardColours::Alternating)
        .map_err(|e| TeamFileError { line: first_line, kind: TeamFileErrorKind::Competition(e) })?;
    let count = competition.teams().len();
    let team = |line: usize, token: &str| {
        token.parse::<u32>().ok().and_then(TeamId::new).filter(|id| id.index() < count).ok_or_else(
            || TeamFileError { line, kind: TeamFileErrorKind::UnknownTeam(token.to_owned()) },
        )
    };
    for (line, a, b) in &forbid {
        settings.forbidden.push((team(*line, a)?, team(*line, b)?));
    }
    for (line, a) in &absent {
        settings.absent.push(team(*line, a)?);
    }
    for (line, tokens) in rounds {
        let round = read_round(&competition, line, &tokens, &team)?;
        competition
            .add_round(round)
            .map_err(|e| TeamFileError { line, kind: TeamFileErrorKind::Competition(e) })?;
    }
    Ok(TeamFile { competition, settings })
}

/// Writes `file` in the format [`read`] reads: what the format holds (the settings, the team
/// names, every round's matches with their board results, byes and absences). Team ratings,
/// rosters and line-ups are not in the format: [`read`] gives every team its regular board
/// players.
pub fn write(file: &TeamFile) -> String {
    let c = &file.competition;
    let s = &file.settings;
    let scoring = c.scoring();
    let mut out = format!("rounds {}\nboards {}\n", s.rounds, c.boards());
    let primary = match scoring.primary {
        PrimaryScore::MatchPoints => "match",
        PrimaryScore::GamePoints => "game",
    };
    out +=
        &format!("primary {primary}\npoints {} {} {}\n", scoring.win, scoring.draw, scoring.loss);
    let preference = match s.preference {
        PreferenceType::A => "A",
        PreferenceType::B => "B",
        PreferenceType::None => "none",
    };
    let initial = match s.initial_colour {
        InitialColour::White => "white",
        InitialColour::Black => "black",
    };
    out += &format!("preference {preference}\ninitial {initial}\n");
    for (a, b) in &s.forbidden {
        out += &format!("forbid {a} {b}\n");
    }
    for team in c.teams() {
        out += &format!("team {}\n", team.name());
    }
    for round in c.rounds() {
        out += "round";
        for m in &round.matches {
            out += &format!(" {}-{} ", m.white, m.black);
            for (i, r) in m.results.iter().enumerate() {
                out.push(result_char(*r, c.board_colours().colour_of_first(i + 1)));
            }
        }
        if let Some(bye) = round.bye {
            out += &format!(" bye {bye}");
        }
        for a in &round.absent {
            out += &format!(" absent {a}");
        }
        out += "\n";
    }
    if !s.absent.is_empty() {
        out += "absent";
        for a in &s.absent {
            out += &format!(" {a}");
        }
        out += "\n";
    }
    out
}

/// A board result as the character of the first team's side, that team having `colour`.
fn result_char(result: BoardResult, colour: Color) -> char {
    let points = result.points(colour);
    match (result.is_played(), points) {
        (true, Score::ONE) => '1',
        (true, Score::HALF) => '=',
        (true, _) => '0',
        (false, Score::ONE) => '+',
        (false, _) if result == BoardResult::DoubleForfeit => 'x',
        (false, _) => '-',
    }
}

fn tenths(points: f64) -> Option<Score> {
    let tenths = (points * 10.0).round();
    (tenths >= 0.0 && tenths <= f64::from(u32::MAX) && (points * 10.0 - tenths).abs() < 1e-9)
        .then_some(Score(tenths as u32))
}

fn read_round(
    competition: &TeamCompetition,
    line: usize,
    tokens: &[String],
    team: &impl Fn(usize, &str) -> Result<TeamId, TeamFileError>,
) -> Result<TeamRound, TeamFileError> {
    let at = |kind| TeamFileError { line, kind };
    let mut round = TeamRound::default();
    let mut tokens = tokens.iter();
    while let Some(token) = tokens.next() {
        match token.as_str() {
            "bye" | "absent" => {
                let Some(n) = tokens.next() else {
                    return Err(at(TeamFileErrorKind::BadMatch(token.clone())));
                };
                let id = team(line, n)?;
                if token == "bye" {
                    round.bye = Some(id);
                } else {
                    round.absent.push(id);
                }
            }
            pair => {
                let Some((w, b)) = pair.split_once('-') else {
                    return Err(at(TeamFileErrorKind::BadMatch(pair.to_owned())));
                };
                let (white, black) = (team(line, w)?, team(line, b)?);
                let results = tokens.next().map(String::as_str).unwrap_or("");
                let boards = competition.boards();
                let parsed = parse_results(results, competition.board_colours())
                    .filter(|r| r.len() == boards)
                    .ok_or_else(|| {
                        at(TeamFileErrorKind::BadResults { results: results.to_owned(), boards })
                    })?;
                let line_up = |id: TeamId| competition.teams()[id.index()].regular_line_up();
                round.matches.push(TeamMatch {
                    white,
                    black,
                    white_line_up: line_up(white),
                    black_line_up: line_up(black),
                    results: parsed,
                });
            }
        }
    }
    Ok(round)
}

/// Board results from the first team's side (`1=0+-x`) as results from each board's White.
fn parse_results(text: &str, colours: BoardColours) -> Option<Vec<BoardResult>> {
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            let first_white = colours.colour_of_first(i + 1) == Color::White;
            let (won, lost) = if first_white {
                (BoardResult::WhiteWins, BoardResult::BlackWins)
            } else {
                (BoardResult::BlackWins, BoardResult::WhiteWins)
            };
            let (won_ff, lost_ff) = if first_white {
                (BoardResult::WhiteWinsByForfeit, BoardResult::BlackWinsByForfeit)
            } else {
                (BoardResult::BlackWinsByForfeit, BoardResult::WhiteWinsByForfeit)
            };
            match c {
                '1' => Some(won),
                '=' => Some(BoardResult::Draw),
                '0' => Some(lost),
                '+' => Some(won_ff),
                '-' => Some(lost_ff),
                'x' => Some(BoardResult::DoubleForfeit),
                _ => None,
            }
        })
        .collect()
}
