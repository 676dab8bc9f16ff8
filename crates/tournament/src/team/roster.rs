//! Teams, their rosters and the line-ups their captains field.
//!
//! A roster lists the players in the board order fixed before the event: the first
//! [`Team::boards`] are the regular board players, the rest are reserves in their order. Each
//! round the captain fields [`Team::boards`] of them. FIDE team regulations (and RULES.md §12,
//! "boards in a fixed order with reserves") keep the roster's relative order: a reserve may
//! replace a board player, but nobody may play above a player listed before them. So a
//! line-up is valid when it is a subsequence of the roster of the right length.

use std::fmt;
use std::num::NonZeroU32;

/// The number of boards a team fields when nothing else is said.
pub const DEFAULT_BOARDS: usize = 4;

/// A team's number in a competition: its place in the initial order (the order the
/// regulations fix before round 1, C.04.6 "initial team order"), from 1.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub struct TeamId(NonZeroU32);

impl TeamId {
    /// The team number `n`, or `None` for 0.
    pub const fn new(n: u32) -> Option<TeamId> {
        match NonZeroU32::new(n) {
            Some(n) => Some(TeamId(n)),
            None => None,
        }
    }

    /// The team at `index` (0-based) of the initial order.
    ///
    /// # Panics
    ///
    /// If `index + 1` does not fit in a `u32`.
    pub fn from_index(index: usize) -> TeamId {
        let n = u32::try_from(index + 1).expect("team index fits in u32");
        TeamId(NonZeroU32::new(n).expect("index + 1 is not zero"))
    }

    /// The team number, from 1.
    pub const fn get(self) -> u32 {
        self.0.get()
    }

    /// The 0-based index in the initial order.
    pub const fn index(self) -> usize {
        self.0.get() as usize - 1
    }
}

impl fmt::Display for TeamId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.fmt(f)
    }
}

/// One player of a roster.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct TeamPlayer {
    /// The name, unique within the team.
    pub name: String,
    /// The rating, if any.
    pub rating: Option<u32>,
}

impl TeamPlayer {
    /// A player called `name` with `rating`.
    pub fn new(name: impl Into<String>, rating: Option<u32>) -> TeamPlayer {
        TeamPlayer { name: name.into(), rating }
    }
}

/// A team: a name, a rating for the initial order, and the roster in board order, reserves
/// after the boards. Built by [`Team::new`], which checks the roster.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Team {
    name: String,
    rating: Option<u32>,
    boards: usize,
    roster: Vec<TeamPlayer>,
}

/// Why a team cannot be built.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum TeamError {
    /// The team's name is empty.
    EmptyName,
    /// A team of no boards.
    NoBoards {
        /// The team.
        team: String,
    },
    /// The roster has fewer players than the team has boards.
    ShortRoster {
        /// The team.
        team: String,
        /// Its boards.
        boards: usize,
        /// The players on its roster.
        players: usize,
    },
    /// Two roster entries with one name.
    DuplicatePlayer {
        /// The team.
        team: String,
        /// The name given twice.
        player: String,
    },
}

impl fmt::Display for TeamError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TeamError::EmptyName => write!(f, "a team needs a name"),
            TeamError::NoBoards { team } => write!(f, "team {team:?} has no boards"),
            TeamError::ShortRoster { team, boards, players } => write!(
                f,
                "team {team:?} plays on {boards} boards but its roster has only {players} players"
            ),
            TeamError::DuplicatePlayer { team, player } => {
                write!(f, "team {team:?} lists player {player:?} twice")
            }
        }
    }
}

impl std::error::Error for TeamError {}

impl Team {
    /// A team called `name` playing on `boards` boards, its `roster` in board order with the
    /// reserves after the boards.
    ///
    /// # Errors
    ///
    /// If the name is empty, `boards` is 0, the roster is shorter than `boards`, or a name
    /// appears twice on it.
    pub fn new(
        name: impl Into<String>,
        rating: Option<u32>,
        boards: usize,
        roster: Vec<TeamPlayer>,
    ) -> Result<Team, TeamError> {
        let name = name.into();
        if name.trim().is_empty() {
            return Err(TeamError::EmptyName);
        }
        if boards == 0 {
            return Err(TeamError::NoBoards { team: name });
        }
        if roster.len() < boards {
            return Err(TeamError::ShortRoster { team: name, boards, players: roster.len() });
        }
        for (i, player) in roster.iter().enumerate() {
            if roster[..i].iter().any(|p| p.name == player.name) {
                return Err(TeamError::DuplicatePlayer { team: name, player: player.name.clone() });
            }
        }
        Ok(Team { name, rating, boards, roster })
    }

    /// The team's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The rating the initial order may be drawn from (e.g. the average of the top boards).
    pub fn rating(&self) -> Option<u32> {
        self.rating
    }

    /// The number of boards the team fields each round.
    pub fn boards(&self) -> usize {
        self.boards
    }

    /// The roster, board order first, reserves after.
    pub fn roster(&self) -> &[TeamPlayer] {
        &self.roster
    }

    /// The reserves: the roster after the first [`Team::boards`] players.
    pub fn reserves(&self) -> &[TeamPlayer] {
        &self.roster[self.boards..]
    }

    /// The roster position (0-based) of the player called `name`.
    pub fn position(&self, name: &str) -> Option<usize> {
        self.roster.iter().position(|p| p.name == name)
    }

    /// The line-up of the first [`Team::boards`] players of the roster: no reserve plays.
    pub fn regular_line_up(&self) -> LineUp {
        LineUp { positions: (0..self.boards).collect() }
    }
}

/// `teams` in the initial order most regulations fix: by rating, highest first, teams without
/// one last, ties in the order given. C.04.6 takes the initial order from the regulations, so
/// this is a convenience, not a rule: a competition keeps whatever order it is given.
pub fn by_rating(mut teams: Vec<Team>) -> Vec<Team> {
    teams.sort_by_key(|t| std::cmp::Reverse(t.rating.map_or(0, |r| u64::from(r) + 1)));
    teams
}

/// The players a team fields in one round, board 1 first, as roster positions. Built by
/// [`LineUp::new`] or [`LineUp::by_names`], which check it against the team.
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct LineUp {
    positions: Vec<usize>,
}

/// What is wrong with a line-up.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum LineUpError {
    /// Not as many players as the team has boards.
    WrongCount {
        /// The team.
        team: String,
        /// Its boards.
        boards: usize,
        /// The players in the line-up.
        players: usize,
    },
    /// A name that is not on the team's roster.
    UnknownPlayer {
        /// The team.
        team: String,
        /// The name.
        player: String,
    },
    /// A roster position past the roster's end.
    NoSuchPosition {
        /// The team.
        team: String,
        /// The position, from 0.
        position: usize,
        /// The roster's length.
        roster: usize,
    },
    /// One player on two boards.
    Duplicate {
        /// The team.
        team: String,
        /// The player.
        player: String,
    },
    /// A player above one listed before them on the roster: the roster order is broken.
    OutOfOrder {
        /// The team.
        team: String,
        /// The board (from 1) of the player who sits too high.
        board: usize,
        /// That player.
        player: String,
        /// The player on the board above, who comes later on the roster.
        above: String,
    },
}

impl fmt::Display for LineUpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineUpError::WrongCount { team, boards, players } => write!(
                f,
                "the line-up of team {team:?} names {players} players for {boards} boards"
            ),
            LineUpError::UnknownPlayer { team, player } => {
                write!(f, "player {player:?} is not on the roster of team {team:?}")
            }
            LineUpError::NoSuchPosition { team, position, roster } => write!(
                f,
                "team {team:?} has no roster position {} (its roster has {roster} players)",
                position + 1
            ),
            LineUpError::Duplicate { team, player } => {
                write!(f, "team {team:?} fields player {player:?} on two boards")
            }
            LineUpError::OutOfOrder { team, board, player, above } => write!(
                f,
                "team {team:?} fields {player:?} on board {board} below {above:?}, who comes \
                 after them on the roster"
            ),
        }
    }
}

impl std::error::Error for LineUpError {}

impl LineUp {
    /// The line-up of `team` fielding the roster positions `positions` (0-based), board 1
    /// first.
    ///
    /// # Errors
    ///
    /// If the count is not the team's boards, a position is past the roster, a player is
    /// fielded twice, or the roster's relative order is broken.
    pub fn new(team: &Team, positions: &[usize]) -> Result<LineUp, LineUpError> {
        let name = || team.name.clone();
        if positions.len() != team.boards {
            return Err(LineUpError::WrongCount {
                team: name(),
                boards: team.boards,
                players: positions.len(),
            });
        }
        for (i, &position) in positions.iter().enumerate() {
            let Some(player) = team.roster.get(position) else {
                return Err(LineUpError::NoSuchPosition {
                    team: name(),
                    position,
                    roster: team.roster.len(),
                });
            };
            if positions[..i].contains(&position) {
                return Err(LineUpError::Duplicate { team: name(), player: player.name.clone() });
            }
        }
        for board in 1..positions.len() {
            let (above, here) = (positions[board - 1], positions[board]);
            if here < above {
                return Err(LineUpError::OutOfOrder {
                    team: name(),
                    board: board + 1,
                    player: team.roster[here].name.clone(),
                    above: team.roster[above].name.clone(),
                });
            }
        }
        Ok(LineUp { positions: positions.to_vec() })
    }

    /// The line-up of `team` fielding the players called `names`, board 1 first.
    ///
    /// # Errors
    ///
    /// As [`LineUp::new`], and if a name is not on the roster.
    pub fn by_names(team: &Team, names: &[&str]) -> Result<LineUp, LineUpError> {
        let positions = names
            .iter()
            .map(|&n| {
                team.position(n).ok_or_else(|| LineUpError::UnknownPlayer {
                    team: team.name.clone(),
                    player: n.to_owned(),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        LineUp::new(team, &positions)
    }

    /// The roster positions, board 1 first.
    pub fn positions(&self) -> &[usize] {
        &self.positions
    }

    /// The roster position of the player on `board` (from 1).
    pub fn on_board(&self, board: usize) -> Option<usize> {
        self.positions.get(board.checked_sub(1)?).copied()
    }
}
