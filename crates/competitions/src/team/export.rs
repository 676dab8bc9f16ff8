//! A team event's exports (issue 54), what an organiser and a rating officer of a team event
//! expect: the TRF-2026 report (every player's games board by board, and the teams as `013`
//! records), the team standings and the board prize table as CSV, and the PGN of its games
//! with the teams named.

use std::fmt::Write as _;

use rookery_core::{Color, GameResult};
use rookery_pgn::date::UtcDateTime;
use rookery_pgn::Writer;
use rookery_tournament::competition::BoardResult;
use rookery_tournament::team::TeamId;
use rookery_tournament::{Player, PlayerId, Regulations, ResultCode, RoundEntry, Score};
use rookery_tournament::{TeamRecord, Tournament};

use super::TeamBook;
use crate::settings::{Format, Settings};
use crate::text::csv_field;

/// A board of a round: (match number, board in the match, board through the round), from 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Seat {
    /// The match in its round.
    pub number: u32,
    /// The board in its match.
    pub board: u32,
    /// The board numbered through the round's matches (match 2's board 1 is `boards + 1`), as
    /// the store numbers a round's games and a PGN's `Round` names them.
    pub flat: u32,
}

/// A game a team event exports: where it was played and by whom.
pub(crate) struct BoardGame<'a> {
    /// The round, from 1.
    pub round: u32,
    /// Where in the round.
    pub seat: Seat,
    /// White's and Black's team.
    pub teams: [&'a str; 2],
    /// White's and Black's name.
    pub players: [&'a str; 2],
    /// The board's result.
    pub result: BoardResult,
}

impl TeamBook {
    /// The start number of each roster player, team by team in the initial order, each
    /// roster in board order (as team events' reports number them: a team's players run
    /// together, board 1 first).
    fn start_numbers(&self) -> Vec<Vec<PlayerId>> {
        let mut next = 0;
        self.teams
            .iter()
            .map(|t| {
                let numbers = (next..next + t.team.roster().len()).map(PlayerId::from_index);
                next += t.team.roster().len();
                numbers.collect()
            })
            .collect()
    }

    /// Every board of every round with its result, in round, match and board order.
    pub(crate) fn played_boards(&self) -> Vec<BoardGame<'_>> {
        let boards = self.settings.boards;
        let mut out = Vec::new();
        for (r, round) in self.rounds.iter().zip(1..) {
            for (m, number) in r.matches.iter().zip(1..) {
                for (result, board) in m.results.iter().zip(1..) {
                    let Some(result) = *result else { continue };
                    let Some(seats) = self.board_players(round, number, board) else { continue };
                    let [(wt, wp), (bt, bp)] = seats;
                    let team = |t: TeamId| &self.teams[t.index()].team;
                    out.push(BoardGame {
                        round,
                        seat: Seat { number, board, flat: (number - 1) * boards + board },
                        teams: [team(wt).name(), team(bt).name()],
                        players: [&team(wt).roster()[wp].name, &team(bt).roster()[bp].name],
                        result,
                    });
                }
            }
        }
        out
    }

    /// The event as a TRF-2026 report: a `001` line for every roster player with their games
    /// board by board (a board without its result yet is left out; a round the player sat
    /// out, or their team's bye, is an absence, as a player without a game scores nothing for
    /// rating), and a `013` record for each team naming its players in board order.
    pub(crate) fn report(&self, settings: &Settings) -> Tournament {
        let numbers = self.start_numbers();
        let rounds = self.rounds.len();
        let mut players: Vec<Player> = self
            .teams
            .iter()
            .flat_map(|t| t.team.roster())
            .map(|p| Player {
                name: p.name.clone(),
                rating: p.rating.map(|r| r.min(u32::from(u16::MAX)) as u16),
                rounds: vec![RoundEntry::ABSENT; rounds],
                ..Player::default()
            })
            .collect();
        for (r, round) in self.rounds.iter().zip(1..) {
            for (m, number) in r.matches.iter().zip(1..) {
                for (result, board) in m.results.iter().zip(1..) {
                    let (Some(result), Some(seats)) =
                        (*result, self.board_players(round, number, board))
                    else {
                        continue;
                    };
                    let ids = seats.map(|(t, p)| numbers[t.index()][p]);
                    for (side, colour) in [(0, Color::White), (1, Color::Black)] {
                        players[ids[side].index()].rounds[round as usize - 1] = RoundEntry {
                            opponent: Some(ids[1 - side]),
                            colour: Some(colour),
                            result: code_of(result, colour),
                        };
                    }
                }
            }
        }
        let scoring = rookery_tournament::Scoring::default();
        for p in &mut players {
            p.points = p.rounds.iter().map(|e| scoring.points(e.result)).sum::<Score>();
        }
        let teams = self
            .teams
            .iter()
            .zip(&numbers)
            .map(|(t, ids)| TeamRecord { name: t.team.name().to_owned(), players: ids.clone() })
            .collect();
        // The board colours (`352`, one letter a board: the match's first team's colour) and
        // the counts a report's header has (`062`, `082`).
        let colours: String = (1..=self.settings.boards as usize)
            .map(|b| match rookery_tournament::team::BoardColours::Alternating.colour_of_first(b) {
                Color::White => 'W',
                Color::Black => 'B',
            })
            .collect();
        let other_lines = vec![
            ("062".to_owned(), players.len().to_string()),
            ("082".to_owned(), self.teams.len().to_string()),
            ("352".to_owned(), colours),
        ];
        Tournament {
            kind: Some(
                match settings.format {
                    Format::TeamRoundRobin => "Team: Round-Robin (Berger tables)",
                    _ => "Team: Swiss-System (FIDE C.04.6 2026)",
                }
                .to_owned(),
            ),
            rounds: Some(self.total_rounds(settings)),
            players,
            teams,
            other_lines,
            ..Tournament::default()
        }
    }

    /// `rank,team,match_points,game_points,<the event's tie-break codes, in order>`, one line
    /// a team in rank order.
    pub(crate) fn standings_csv(&self, regulations: Regulations) -> String {
        let mut out = String::from("rank,team,match_points,game_points");
        for t in self.settings.tiebreak_list() {
            let _ = write!(out, ",{}", t.code());
        }
        out.push('\n');
        let (rows, _) = self.standing_rows(regulations);
        for row in rows {
            let cells: Vec<String> = row.cells().iter().map(|c| csv_field(c)).collect();
            let _ = writeln!(out, "{}", cells.join(","));
        }
        out
    }

    /// The board prize table, its own CSV rather than a section of the standings' (a CSV is
    /// one table: a spreadsheet or a script reads one header and rows of its shape, and the
    /// two tables have nothing in common but the team's name):
    /// `board,player,team,points,games,percent,eligible`, board 1 first, best first.
    pub(crate) fn board_prizes_csv(&self, regulations: Regulations) -> String {
        let mut out = String::from("board,player,team,points,games,percent,eligible\n");
        let (_, prizes) = self.standing_rows(regulations);
        for (records, board) in prizes.iter().zip(1..) {
            for r in records {
                let _ = writeln!(
                    out,
                    "{board},{},{},{},{},{},{}",
                    csv_field(&r.name),
                    csv_field(&r.team),
                    r.points,
                    r.games,
                    r.percent,
                    if r.eligible { "yes" } else { "no" }
                );
            }
        }
        out
    }

    /// The PGN of the games played (a forfeit is no game: the TRF and the standings carry
    /// it), in round, match and board order. A game the site holds a record of (`records`:
    /// game id and PGN; online, the live game's) keeps its moves and its own tags but is
    /// named as the event names it; at the board, a game is its result alone. Each has the
    /// teams (`WhiteTeam`/`BlackTeam`) and the PGN standard's `Board` (the board in its
    /// match); `Round` is `round.board` with the boards numbered through the round, unique in
    /// it, as the site's own records and an individual event's number them.
    pub(crate) fn pgn(
        &self,
        event: &str,
        game_id: &dyn Fn(u32, Seat) -> String,
        records: &[(String, String)],
    ) -> String {
        let mut out = String::new();
        for g in self.played_boards() {
            if !g.result.is_played() {
                continue;
            }
            let ours = [
                ("Event", event.to_owned()),
                ("Round", format!("{}.{}", g.round, g.seat.flat)),
                ("White", g.players[0].to_owned()),
                ("Black", g.players[1].to_owned()),
            ];
            let teams = [
                ("WhiteTeam", g.teams[0].to_owned()),
                ("BlackTeam", g.teams[1].to_owned()),
                ("Board", g.seat.board.to_string()),
            ];
            let id = game_id(g.round, g.seat);
            let game = match records.iter().find(|(game, _)| *game == id) {
                Some((_, pgn)) => retagged(pgn, &ours, &teams),
                None => {
                    let paired_at = self.rounds[g.round as usize - 1].paired_at;
                    result_only(&ours, &teams, paired_at, result_of(g.result))
                }
            };
            out.push_str(game.trim_end());
            out.push_str("\n\n");
        }
        out
    }
}

/// A board result as the TRF code of the player of `colour`.
fn code_of(result: BoardResult, colour: Color) -> ResultCode {
    let white = colour == Color::White;
    match result {
        BoardResult::Draw => ResultCode::Draw,
        BoardResult::WhiteWon if white => ResultCode::Win,
        BoardResult::BlackWon if !white => ResultCode::Win,
        BoardResult::WhiteWon | BoardResult::BlackWon => ResultCode::Loss,
        BoardResult::WhiteByForfeit if white => ResultCode::ForfeitWin,
        BoardResult::BlackByForfeit if !white => ResultCode::ForfeitWin,
        BoardResult::WhiteByForfeit | BoardResult::BlackByForfeit | BoardResult::DoubleForfeit => {
            ResultCode::ForfeitLoss
        }
    }
}

/// A played board's result in PGN's terms.
fn result_of(result: BoardResult) -> GameResult {
    match result {
        BoardResult::WhiteWon | BoardResult::WhiteByForfeit => GameResult::Win(Color::White),
        BoardResult::BlackWon | BoardResult::BlackByForfeit => GameResult::Win(Color::Black),
        BoardResult::Draw => GameResult::Draw,
        BoardResult::DoubleForfeit => GameResult::NoResult,
    }
}

/// A game entered at the board by its result: the seven tags, the teams', and the result.
fn result_only(
    ours: &[(&str, String)],
    teams: &[(&str, String)],
    paired_at: u64,
    result: GameResult,
) -> String {
    let date = UtcDateTime::from_unix_secs(paired_at / 1000).pgn_date();
    let mut tags: Vec<(&str, String)> = vec![ours[0].clone(), ("Site", "over the board".into())];
    tags.push(("Date", date));
    tags.extend(ours[1..].iter().cloned());
    tags.push(("Result", result.as_str().to_owned()));
    tags.extend(teams.iter().cloned());
    let mut w = Writer::new(Vec::new());
    // Writing to a Vec cannot fail.
    let _ = w.tags(&tags);
    let _ = w.end_game(result);
    String::from_utf8_lossy(&w.into_inner()).into_owned()
}

/// A stored record with `ours` in place of its own tags of those names (the live game calls
/// its event "Rookery tournament {id}"), and `teams` after its `Result` tag; its other tags
/// and its moves as they are.
fn retagged(pgn: &str, ours: &[(&str, String)], teams: &[(&str, String)]) -> String {
    let line = |(name, value): &(&str, String)| {
        format!("[{name} \"{}\"]\n", value.replace('\\', "\\\\").replace('"', "\\\""))
    };
    let mut out = String::new();
    let mut lines = pgn.lines().peekable();
    while let Some(l) = lines.next_if(|l| l.starts_with('[')) {
        let name = l[1..].split([' ', '"']).next().unwrap_or("");
        match ours.iter().find(|(n, _)| *n == name) {
            Some(tag) => out.push_str(&line(tag)),
            None => {
                out.push_str(l);
                out.push('\n');
            }
        }
        if name == "Result" {
            teams.iter().for_each(|t| out.push_str(&line(t)));
        }
    }
    for l in lines {
        out.push_str(l);
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_are_escaped() {
        let ours = [("Event", "A \"B\" \\ C".to_owned())];
        let out = retagged("[Event \"x\"]\n\n*\n", &ours, &[]);
        assert_eq!(out, "[Event \"A \\\"B\\\" \\\\ C\"]\n\n*\n");
    }
}
