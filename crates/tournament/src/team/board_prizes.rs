//! The board prize table: for each board, every player who played on it, with their points,
//! games and percentage there, ranked.
//!
//! Only games played over the board count (a forfeit, won or lost, is not a game the player
//! played); a player fielded on several boards has one line per board. Ranked by percentage,
//! then by games (more games first), then by team number and roster position. Players with
//! fewer games than the regulations' minimum come after those with enough.

use std::cmp::Ordering;

use super::competition::TeamCompetition;
use super::roster::TeamId;
use crate::score::Score;

/// One player's record on one board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct BoardRecord {
    /// The team.
    pub team: TeamId,
    /// The player's roster position (0-based).
    pub player: usize,
    /// The player's name.
    pub name: String,
    /// Points scored on this board in games played.
    pub points: Score,
    /// Games played on this board.
    pub games: u32,
    /// Whether `games` reaches the minimum asked for.
    pub eligible: bool,
}

impl BoardRecord {
    /// The percentage in tenths of a percent, rounded down (`625` for 62.5 %); 0 with no game.
    pub fn per_mille(&self) -> u32 {
        (self.points.0 * 100).checked_div(self.games).unwrap_or(0)
    }

    fn cmp_percentage(&self, other: &BoardRecord) -> Ordering {
        // points / games compared exactly: a/b vs c/d as a·d vs c·b.
        let a = u64::from(self.points.0) * u64::from(other.games);
        let b = u64::from(other.points.0) * u64::from(self.games);
        a.cmp(&b)
    }
}

/// The board prize table of `competition`: `table[b]` for board `b + 1`, best first. A player
/// needs `min_games` games on a board to be [`BoardRecord::eligible`] on it.
pub fn board_prizes(competition: &TeamCompetition, min_games: u32) -> Vec<Vec<BoardRecord>> {
    let boards = competition.boards();
    let colours = competition.board_colours();
    let mut table: Vec<Vec<BoardRecord>> = vec![Vec::new(); boards];
    for round in competition.rounds() {
        for m in &round.matches {
            for (board, result) in m.results.iter().enumerate() {
                if !result.is_played() {
                    continue;
                }
                let first = colours.colour_of_first(board + 1);
                for (team, line_up, colour) in
                    [(m.white, &m.white_line_up, first), (m.black, &m.black_line_up, !first)]
                {
                    let player = line_up.positions()[board];
                    let records = &mut table[board];
                    let at = match records.iter().position(|r| r.team == team && r.player == player)
                    {
                        Some(at) => at,
                        None => {
                            let name = competition
                                .team(team)
                                .map(|t| t.roster()[player].name.clone())
                                .unwrap_or_default();
                            records.push(BoardRecord {
                                team,
                                player,
                                name,
                                points: Score::ZERO,
                                games: 0,
                                eligible: false,
                            });
                            records.len() - 1
                        }
                    };
                    records[at].points += result.points(colour);
                    records[at].games += 1;
                }
            }
        }
    }
    for records in &mut table {
        for r in records.iter_mut() {
            r.eligible = r.games >= min_games;
        }
        records.sort_by(|a, b| {
            b.eligible
                .cmp(&a.eligible)
                .then_with(|| b.cmp_percentage(a))
                .then_with(|| b.games.cmp(&a.games))
                .then_with(|| (a.team, a.player).cmp(&(b.team, b.player)))
        });
    }
    table
}
