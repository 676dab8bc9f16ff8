//! A team event in the tournament's view (docs/api.md, *Teams*): the teams with their
//! rosters and captains, each round's matches board by board, the team standings with their
//! tie-breaks, and the board prize table.

use rookery_core::Color;
use rookery_tournament::team::board_prizes::board_prizes;
use rookery_tournament::team::standings::standings;
use rookery_tournament::team::{BoardColours, TeamId};
use rookery_tournament::{Regulations, Score};
use serde::Serialize;

use super::TeamBook;
use crate::log::result_name;

/// `teams` in a team event's view.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamsView {
    /// Boards per team.
    pub boards: u32,
    /// `match_points` or `game_points`.
    pub primary: &'static str,
    /// The teams, by number (registration order before the start, initial order after).
    pub teams: Vec<TeamView>,
    /// The rounds paired, round 1 first.
    pub rounds: Vec<TeamRoundView>,
    /// The standings after the finished rounds.
    pub standings: TeamStandingsView,
    /// Board by board (board 1 first), each player's record there, best first.
    pub board_prizes: Vec<Vec<BoardPrizeView>>,
    /// The teams the desk marked absent (not paired, their matches forfeited), by number.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub absent: Vec<String>,
    /// The pairs of teams that must not meet (`forbid_team_pair`), by name, the team
    /// numbered first first.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub forbidden_pairs: Vec<[String; 2]>,
}

/// A team.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamView {
    /// Its number, from 1.
    pub number: u32,
    /// Its name.
    pub name: String,
    /// The mean rating of its board players.
    pub rating: Option<u32>,
    /// The captain's account name.
    pub captain: Option<String>,
    /// The roster in board order; those past the boards are reserves.
    pub players: Vec<RosterPlayerView>,
}

/// A roster's player.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct RosterPlayerView {
    /// Name.
    pub name: String,
    /// Rating.
    pub rating: Option<u32>,
    /// A reserve (listed after the boards).
    pub reserve: bool,
}

/// A paired round.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamRoundView {
    /// From 1.
    pub round: u32,
    /// Every board has its result.
    pub finished: bool,
    /// The team with the pairing-allocated bye.
    pub bye: Option<String>,
    /// Table 1 first.
    pub matches: Vec<TeamMatchView>,
}

/// A match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamMatchView {
    /// Its number in the round (`3` of the desk's `3.2 1-0`).
    pub number: u32,
    /// The team with White on board 1.
    pub white: String,
    /// The other.
    pub black: String,
    /// Game points so far, White's team first (`2.5`).
    pub score: [String; 2],
    /// Match points, once every board has its result.
    pub match_points: Option<[String; 2]>,
    /// Board 1 first.
    pub boards: Vec<TeamBoardView>,
}

/// A board of a match.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamBoardView {
    /// From 1.
    pub board: u32,
    /// The colour the match's first team (White on board 1) has here (boards alternate).
    pub first_team: &'static str,
    /// The player with White.
    pub white: String,
    /// The player with Black.
    pub black: String,
    /// From White's side: `1-0`, `0-1`, `1/2-1/2`, `+-`, `-+`, `--`.
    pub result: Option<&'static str>,
    /// Online, once the round's games are on: the board's game of the site
    /// (`{id}t{round}m{match}b{board}`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub game: Option<String>,
}

/// The team standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamStandingsView {
    /// The tie-breaks' codes, in order.
    pub tiebreaks: Vec<String>,
    /// Rank order.
    pub rows: Vec<TeamStandingRow>,
}

/// A team's line of the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TeamStandingRow {
    /// From 1, shared by teams tied on everything.
    pub rank: usize,
    /// The team.
    pub team: String,
    /// Match points.
    pub match_points: String,
    /// Game points.
    pub game_points: String,
    /// The tie-breaks' values, in their order (`DE` ranks a tied group and shows 0).
    pub tiebreaks: Vec<String>,
}

impl TeamStandingRow {
    /// The row's cells as the CSV and the printed standings give them: rank, team, match
    /// points, game points, then the tie-breaks.
    pub(crate) fn cells(&self) -> Vec<String> {
        let mut cells = vec![
            self.rank.to_string(),
            self.team.clone(),
            self.match_points.clone(),
            self.game_points.clone(),
        ];
        cells.extend(self.tiebreaks.iter().cloned());
        cells
    }
}

/// A player's record on a board.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BoardPrizeView {
    /// The player.
    pub name: String,
    /// Their team.
    pub team: String,
    /// Points in games played on this board.
    pub points: String,
    /// Games played on this board.
    pub games: u32,
    /// The percentage (`62.5`).
    pub percent: String,
    /// Enough games for the prize.
    pub eligible: bool,
}

fn colour_name(c: Color) -> &'static str {
    c.name()
}

impl TeamBook {
    /// The view; `game_id` names a board's game of the site (online only).
    pub(crate) fn view(
        &self,
        regulations: Regulations,
        game_id: &dyn Fn(u32, u32, u32) -> Option<String>,
    ) -> TeamsView {
        let name = |t: TeamId| self.teams[t.index()].team.name().to_owned();
        let colours = BoardColours::Alternating;
        let teams = self
            .teams
            .iter()
            .zip(1..)
            .map(|(t, number)| TeamView {
                number,
                name: t.team.name().to_owned(),
                rating: t.team.rating(),
                captain: t.captain.as_ref().map(|c| c.key.clone()),
                players: t
                    .team
                    .roster()
                    .iter()
                    .enumerate()
                    .map(|(i, p)| RosterPlayerView {
                        name: p.name.clone(),
                        rating: p.rating,
                        reserve: i >= t.team.boards(),
                    })
                    .collect(),
            })
            .collect();
        let rounds = self
            .rounds
            .iter()
            .zip(1..)
            .map(|(r, round)| TeamRoundView {
                round,
                finished: r.finished(),
                bye: r.bye.map(name),
                matches: r
                    .matches
                    .iter()
                    .zip(1..)
                    .map(|(m, number)| {
                        let (wl, bl) =
                            (self.line_up_of(round, m.white), self.line_up_of(round, m.black));
                        let player = |t: TeamId, pos: Option<usize>| {
                            let roster = self.teams[t.index()].team.roster();
                            pos.and_then(|p| roster.get(p))
                                .map_or_else(String::new, |p| p.name.clone())
                        };
                        let mut score = [Score::ZERO; 2];
                        let boards = m
                            .results
                            .iter()
                            .zip(1..)
                            .map(|(result, board)| {
                                let first = colours.colour_of_first(board);
                                let a = player(m.white, wl.on_board(board));
                                let b = player(m.black, bl.on_board(board));
                                if let Some(r) = result {
                                    let r = super::board_result(*r);
                                    score[0] += r.points(first);
                                    score[1] += r.points(!first);
                                }
                                let (white, black) = if first.is_white() { (a, b) } else { (b, a) };
                                TeamBoardView {
                                    game: r
                                        .on
                                        .then(|| game_id(round, number, board as u32))
                                        .flatten(),
                                    board: board as u32,
                                    first_team: colour_name(first),
                                    white,
                                    black,
                                    result: result.map(result_name),
                                }
                            })
                            .collect();
                        let scoring = self.settings.scoring();
                        let match_points = m.finished().then(|| {
                            [
                                scoring.match_points(score[0], score[1]).to_string(),
                                scoring.match_points(score[1], score[0]).to_string(),
                            ]
                        });
                        TeamMatchView {
                            number,
                            white: name(m.white),
                            black: name(m.black),
                            score: score.map(|s| s.to_string()),
                            match_points,
                            boards,
                        }
                    })
                    .collect(),
            })
            .collect();
        let tiebreaks = self.settings.tiebreak_list();
        let (rows, board_prizes) = self.standing_rows(regulations);
        TeamsView {
            boards: self.settings.boards,
            primary: self.settings.primary.as_str(),
            teams,
            rounds,
            standings: TeamStandingsView {
                tiebreaks: tiebreaks.iter().map(|t| t.code().to_owned()).collect(),
                rows,
            },
            board_prizes,
            absent: self
                .absent
                .iter()
                .filter_map(|&n| self.team(n))
                .map(|t| t.team.name().to_owned())
                .collect(),
            forbidden_pairs: self
                .forbidden
                .iter()
                .filter_map(|&(a, b)| {
                    Some([
                        self.team(a)?.team.name().to_owned(),
                        self.team(b)?.team.name().to_owned(),
                    ])
                })
                .collect(),
        }
    }

    /// The standings (rank order) and the board prize table (board 1 first, best first) after
    /// the finished rounds: the view's, the CSV's and the printed standings' one computation.
    pub(crate) fn standing_rows(
        &self,
        regulations: Regulations,
    ) -> (Vec<TeamStandingRow>, Vec<Vec<BoardPrizeView>>) {
        let name = |t: TeamId| self.teams[t.index()].team.name().to_owned();
        let tiebreaks = self.settings.tiebreak_list();
        match self.competition() {
            Some(comp) => {
                let rows = standings(&comp, &tiebreaks, regulations)
                    .into_iter()
                    .map(|s| TeamStandingRow {
                        rank: s.rank,
                        team: name(s.team),
                        match_points: s.total.match_points.to_string(),
                        game_points: s.total.game_points.to_string(),
                        tiebreaks: s.tiebreaks.iter().map(ToString::to_string).collect(),
                    })
                    .collect();
                let prizes = board_prizes(&comp, self.settings.board_prize_min_games)
                    .into_iter()
                    .map(|board| {
                        board
                            .into_iter()
                            .map(|r| BoardPrizeView {
                                percent: format!("{}.{}", r.per_mille() / 10, r.per_mille() % 10),
                                name: r.name.clone(),
                                team: name(r.team),
                                points: r.points.to_string(),
                                games: r.games,
                                eligible: r.eligible,
                            })
                            .collect()
                    })
                    .collect();
                (rows, prizes)
            }
            None => (Vec::new(), Vec::new()),
        }
    }
}
