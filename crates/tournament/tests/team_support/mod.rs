//! Building team competitions for the tests: teams of four boards, and match results given as
//! the first team's wins and draws.

#![allow(dead_code)]

use rookery_tournament::team::{
    BoardColours, BoardResult, Team, TeamCompetition, TeamId, TeamMatch, TeamPairing, TeamPlayer,
    TeamRound, TeamScoring,
};

pub fn id(n: u32) -> TeamId {
    TeamId::new(n).unwrap()
}

/// `n` teams of four boards and one reserve, team 1 first.
pub fn competition(n: usize, scoring: TeamScoring) -> TeamCompetition {
    let teams = (1..=n)
        .map(|t| {
            let roster = (1..=5).map(|p| TeamPlayer::new(format!("T{t}P{p}"), None)).collect();
            Team::new(format!("Team {t}"), Some(2400 - 10 * t as u32), 4, roster).unwrap()
        })
        .collect();
    TeamCompetition::new(teams, scoring, BoardColours::Alternating).unwrap()
}

/// The board results of a four-board match in which the team with White on board 1 wins
/// `wins` boards and draws `draws`, the first boards first, and loses the rest.
pub fn results(wins: usize, draws: usize) -> Vec<BoardResult> {
    (1..=4)
        .map(|board| {
            let first_white = board % 2 == 1;
            if board <= wins {
                if first_white {
                    BoardResult::WhiteWins
                } else {
                    BoardResult::BlackWins
                }
            } else if board <= wins + draws {
                BoardResult::Draw
            } else if first_white {
                BoardResult::BlackWins
            } else {
                BoardResult::WhiteWins
            }
        })
        .collect()
}

/// Adds `pairing` as the next round, each match's results from `outcome(white, black)`.
pub fn play(
    c: &mut TeamCompetition,
    pairing: &TeamPairing,
    mut outcome: impl FnMut(TeamId, TeamId) -> Vec<BoardResult>,
) {
    let matches = pairing
        .matches
        .iter()
        .map(|&(white, black)| TeamMatch {
            white,
            black,
            white_line_up: c.team(white).unwrap().regular_line_up(),
            black_line_up: c.team(black).unwrap().regular_line_up(),
            results: outcome(white, black),
        })
        .collect();
    c.add_round(TeamRound { matches, bye: pairing.bye, absent: vec![] }).unwrap();
}
