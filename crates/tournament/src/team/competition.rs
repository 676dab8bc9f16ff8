//! A team competition as data: the teams in their initial order, the scoring, and the rounds
//! played, each checked when it is added. Pairing, standings and board prizes read it.

use std::fmt;

use rookery_core::Color;

use super::roster::{LineUp, Team, TeamId};
use super::scoring::{BoardColours, BoardResult, RoundScore, TeamScoring};
use crate::score::Score;

/// One match of a round: the team with White on board 1 (C.04.6 Art. 1.6.1), the other, their
/// line-ups and one result per board, board 1 first.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamMatch {
    /// The team with White on board 1.
    pub white: TeamId,
    /// The team with Black on board 1.
    pub black: TeamId,
    /// [`TeamMatch::white`]'s line-up.
    pub white_line_up: LineUp,
    /// [`TeamMatch::black`]'s line-up.
    pub black_line_up: LineUp,
    /// One result per board, board 1 first; each is from the view of the board's White.
    pub results: Vec<BoardResult>,
}

/// One round: its matches, the team with the pairing-allocated bye, and teams not paired
/// (absent: no points).
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct TeamRound {
    /// The matches, table 1 first.
    pub matches: Vec<TeamMatch>,
    /// The pairing-allocated bye.
    pub bye: Option<TeamId>,
    /// Teams left out of the round.
    pub absent: Vec<TeamId>,
}

/// Why a competition cannot be built or a round cannot be added.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TeamCompetitionError {
    /// Fewer than two teams.
    TooFewTeams {
        /// The number given.
        teams: usize,
    },
    /// Two teams with one name.
    DuplicateTeam {
        /// The name.
        team: String,
    },
    /// A team with another number of boards than the first team.
    BoardsDiffer {
        /// The team.
        team: String,
        /// Its boards.
        boards: usize,
        /// The first team's boards.
        expected: usize,
    },
    /// A team number past the last team.
    UnknownTeam {
        /// The round.
        round: usize,
        /// The number.
        team: TeamId,
    },
    /// A team twice in a round (two matches, a match and the bye, …).
    TeamTwice {
        /// The round.
        round: usize,
        /// The team.
        team: String,
    },
    /// A line-up not valid for its team.
    LineUp {
        /// The round.
        round: usize,
        /// What is wrong.
        error: super::roster::LineUpError,
    },
    /// Not one result per board.
    ResultCount {
        /// The round.
        round: usize,
        /// The team with White on board 1.
        white: String,
        /// The other team.
        black: String,
        /// The results given.
        results: usize,
        /// The boards.
        boards: usize,
    },
}

impl fmt::Display for TeamCompetitionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeamCompetitionError::TooFewTeams { teams } => {
                write!(f, "a team competition needs at least 2 teams, got {teams}")
            }
            TeamCompetitionError::DuplicateTeam { team } => {
                write!(f, "two teams are called {team:?}")
            }
            TeamCompetitionError::BoardsDiffer { team, boards, expected } => write!(
                f,
                "team {team:?} plays on {boards} boards where the first team plays on {expected}"
            ),
            TeamCompetitionError::UnknownTeam { round, team } => {
                write!(f, "round {round}: there is no team {team}")
            }
            TeamCompetitionError::TeamTwice { round, team } => {
                write!(f, "round {round}: team {team:?} appears twice")
            }
            TeamCompetitionError::LineUp { round, error } => write!(f, "round {round}: {error}"),
            TeamCompetitionError::ResultCount { round, white, black, results, boards } => write!(
                f,
                "round {round}: the match {white:?} - {black:?} has {results} results for \
                 {boards} boards"
            ),
        }
    }
}

impl std::error::Error for TeamCompetitionError {}

/// Teams in their initial order, the scoring, and the rounds so far. The only way in is
/// [`TeamCompetition::new`] and [`TeamCompetition::add_round`], which check what they take.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamCompetition {
    teams: Vec<Team>,
    scoring: TeamScoring,
    board_colours: BoardColours,
    rounds: Vec<TeamRound>,
}

/// One team's round, as pairing and tie-breaks see it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct TeamEntry {
    /// The opponent and the colour on board 1, when the team was paired with one.
    pub opponent: Option<(TeamId, Color)>,
    /// Whether at least one board was played over the board (else the teams have not met,
    /// as a forfeited game is not a meeting in C.04.1).
    pub played: bool,
    /// Whether this was the pairing-allocated bye.
    pub bye: bool,
    /// What the team scored.
    pub score: RoundScore,
}

impl TeamCompetition {
    /// A competition of `teams` in their initial order (team 1 first) scored by `scoring`.
    ///
    /// # Errors
    ///
    /// Fewer than two teams, two with one name, or teams with different numbers of boards.
    pub fn new(
        teams: Vec<Team>,
        scoring: TeamScoring,
        board_colours: BoardColours,
    ) -> Result<TeamCompetition, TeamCompetitionError> {
        if teams.len() < 2 {
            return Err(TeamCompetitionError::TooFewTeams { teams: teams.len() });
        }
        let expected = teams[0].boards();
        for (i, team) in teams.iter().enumerate() {
            if teams[..i].iter().any(|t| t.name() == team.name()) {
                return Err(TeamCompetitionError::DuplicateTeam { team: team.name().to_owned() });
            }
            if team.boards() != expected {
                return Err(TeamCompetitionError::BoardsDiffer {
                    team: team.name().to_owned(),
                    boards: team.boards(),
                    expected,
                });
            }
        }
        Ok(TeamCompetition { teams, scoring, board_colours, rounds: Vec::new() })
    }

    /// The teams, team 1 first.
    pub fn teams(&self) -> &[Team] {
        &self.teams
    }

    /// The team numbered `id`.
    pub fn team(&self, id: TeamId) -> Option<&Team> {
        self.teams.get(id.index())
    }

    /// The boards every team fields.
    pub fn boards(&self) -> usize {
        self.teams[0].boards()
    }

    /// The scoring.
    pub fn scoring(&self) -> &TeamScoring {
        &self.scoring
    }

    /// Which team has White on which board.
    pub fn board_colours(&self) -> BoardColours {
        self.board_colours
    }

    /// The rounds played, round 1 first.
    pub fn rounds(&self) -> &[TeamRound] {
        &self.rounds
    }

    /// The competition as it stood before round `round` (from 1): its first `round - 1`
    /// rounds.
    pub fn before_round(&self, round: usize) -> TeamCompetition {
        let mut before = self.clone();
        before.rounds.truncate(round.saturating_sub(1));
        before
    }

    /// Adds the next round after checking it.
    ///
    /// # Errors
    ///
    /// A team number past the last team, a team twice in the round, a line-up not valid for
    /// its team, or not one result per board.
    pub fn add_round(&mut self, round: TeamRound) -> Result<(), TeamCompetitionError> {
        let number = self.rounds.len() + 1;
        let mut seen = vec![false; self.teams.len()];
        let mut mark = |id: TeamId| -> Result<(), TeamCompetitionError> {
            let slot = seen
                .get_mut(id.index())
                .ok_or(TeamCompetitionError::UnknownTeam { round: number, team: id })?;
            if *slot {
                let team = self.teams[id.index()].name().to_owned();
                return Err(TeamCompetitionError::TeamTwice { round: number, team });
            }
            *slot = true;
            Ok(())
        };
        for m in &round.matches {
            mark(m.white)?;
            mark(m.black)?;
        }
        round.bye.into_iter().chain(round.absent.iter().copied()).try_for_each(&mut mark)?;
        for m in &round.matches {
            for (id, line_up) in [(m.white, &m.white_line_up), (m.black, &m.black_line_up)] {
                LineUp::new(&self.teams[id.index()], line_up.positions())
                    .map_err(|error| TeamCompetitionError::LineUp { round: number, error })?;
            }
            if m.results.len() != self.boards() {
                return Err(TeamCompetitionError::ResultCount {
                    round: number,
                    white: self.teams[m.white.index()].name().to_owned(),
                    black: self.teams[m.black.index()].name().to_owned(),
                    results: m.results.len(),
                    boards: self.boards(),
                });
            }
        }
        self.rounds.push(round);
        Ok(())
    }

    /// The game points of `side` (the match's White or Black team) in `m`.
    pub fn game_points(&self, m: &TeamMatch, side: Color) -> Score {
        m.results
            .iter()
            .enumerate()
            .map(|(i, r)| {
                let first = self.board_colours.colour_of_first(i + 1);
                r.points(if side.is_white() { first } else { !first })
            })
            .sum()
    }

    /// Every team's entry in every round: `entries()[round][team]` (both from 0).
    pub fn entries(&self) -> Vec<Vec<TeamEntry>> {
        let empty =
            TeamEntry { opponent: None, played: false, bye: false, score: RoundScore::default() };
        self.rounds
            .iter()
            .map(|round| {
                let mut row = vec![empty; self.teams.len()];
                for m in &round.matches {
                    let white = self.game_points(m, Color::White);
                    let black = self.game_points(m, Color::Black);
                    let played = m.results.iter().any(|r| r.is_played());
                    let entry = |opponent, colour, own, theirs| TeamEntry {
                        opponent: Some((opponent, colour)),
                        played,
                        bye: false,
                        score: RoundScore {
                            match_points: self.scoring.match_points(own, theirs),
                            game_points: own,
                        },
                    };
                    row[m.white.index()] = entry(m.black, Color::White, white, black);
                    row[m.black.index()] = entry(m.white, Color::Black, black, white);
                }
                if let Some(bye) = round.bye {
                    row[bye.index()] =
                        TeamEntry { bye: true, score: self.scoring.bye(self.boards()), ..empty };
                }
                row
            })
            .collect()
    }

    /// Every team's total match and game points after the rounds played, team 1 first.
    pub fn totals(&self) -> Vec<RoundScore> {
        let mut totals = vec![RoundScore::default(); self.teams.len()];
        for row in self.entries() {
            for (total, entry) in totals.iter_mut().zip(row) {
                total.match_points += entry.score.match_points;
                total.game_points += entry.score.game_points;
            }
        }
        totals
    }
}
