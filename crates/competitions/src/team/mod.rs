//! A team event on the site (RULES.md §12, *Teams*; issue 54): the teams and their captains,
//! each round's line-ups, pairing and board results, folded from the log ([`TeamBook`]); the
//! pure crate's [`TeamCompetition`] built from it for pairing, standings and board prizes;
//! and the view ([`view`]).
//!
//! The event's life: teams registered before the start (at the desk or from a list with a
//! team column); at the start they are put in their initial order (by rating, C.04.6 leaves
//! it to the regulations, and most order by rating) and numbered so; each round the arbiter
//! pairs (the team Swiss of C.04.6 or the Berger tables), each team's line-up is the one its
//! captain or the desk entered for the round, else its registered board order; the desk
//! types each board's result; a round is finished when every board has one, and only a
//! finished round counts in the standings.

pub(crate) mod export;
#[cfg(test)]
pub(crate) mod fixture;
pub mod view;

use std::collections::{BTreeMap, BTreeSet};

use rookery_core::Color;
use rookery_tournament::competition::BoardResult as GameResult;
use rookery_tournament::team::{
    self, BoardColours, BoardResult, LineUp, Team, TeamCompetition, TeamId, TeamMatch, TeamPairing,
    TeamPlayer, TeamRound,
};

use crate::log::{
    Captain, LineUpEntry, TeamAbsent, TeamCaptain, TeamPair, TeamPaired, TeamRegistered,
    TeamResult, TeamRoundOn, TeamUnpair,
};
use crate::refusal::{PairSide, TournamentRefusal};
use crate::settings::{Format, Settings, TeamSettings};

/// A registered team: the pure crate's [`Team`] and its captain.
#[derive(Clone, Debug)]
pub(crate) struct TeamBookTeam {
    /// Name, rating, boards and roster.
    pub team: Team,
    /// The captain's account.
    pub captain: Option<Captain>,
    /// Online: each roster player's account, in roster order.
    pub accounts: Vec<Option<i64>>,
}

/// One match of a paired round: the teams (White on board 1 first) and each board's result.
#[derive(Clone, Debug)]
pub(crate) struct MatchBook {
    /// White on board 1.
    pub white: TeamId,
    /// Black on board 1.
    pub black: TeamId,
    /// Board 1 first.
    pub results: Vec<Option<GameResult>>,
}

impl MatchBook {
    /// Whether a board has a result (the line-ups are fixed from then on).
    pub fn begun(&self) -> bool {
        self.results.iter().any(Option::is_some)
    }

    /// Whether every board has its result.
    pub fn finished(&self) -> bool {
        self.results.iter().all(Option::is_some)
    }
}

/// A paired round.
#[derive(Clone, Debug, Default)]
pub(crate) struct RoundBook {
    /// Table 1 first.
    pub matches: Vec<MatchBook>,
    /// The pairing-allocated bye.
    pub bye: Option<TeamId>,
    /// When it was paired (Unix ms): online, its games start `lineup_deadline_s` later.
    pub paired_at: u64,
    /// Online: its games are created and its line-ups fixed (`team_round_on`).
    pub on: bool,
}

impl RoundBook {
    /// Whether every board of every match has its result.
    pub fn finished(&self) -> bool {
        self.matches.iter().all(MatchBook::finished)
    }
}

/// A team event's state: pure, folded from its log.
#[derive(Clone, Debug)]
pub(crate) struct TeamBook {
    /// The regulations.
    pub settings: TeamSettings,
    /// In registration order before the start, in the initial order after.
    pub teams: Vec<TeamBookTeam>,
    /// The rounds paired, round 1 first.
    pub rounds: Vec<RoundBook>,
    /// Line-ups entered, by (round, team number).
    pub line_ups: BTreeMap<(u32, u32), LineUp>,
    /// Whether the event has started (teams numbered in their initial order).
    pub started: bool,
    /// The teams the desk marked absent, by number: not paired by the Swiss, their matches
    /// forfeited.
    pub absent: BTreeSet<u32>,
    /// The pairs of teams that must not meet, by number, each the lower number first.
    pub forbidden: BTreeSet<(u32, u32)>,
}

/// A result of the competition's vocabulary as the team crate's.
pub(crate) fn board_result(r: GameResult) -> BoardResult {
    match r {
        GameResult::WhiteWon => BoardResult::WhiteWins,
        GameResult::Draw => BoardResult::Draw,
        GameResult::BlackWon => BoardResult::BlackWins,
        GameResult::WhiteByForfeit => BoardResult::WhiteWinsByForfeit,
        GameResult::BlackByForfeit => BoardResult::BlackWinsByForfeit,
        GameResult::DoubleForfeit => BoardResult::DoubleForfeit,
    }
}

impl TeamBook {
    /// An event of no team yet, under `settings`' regulations (the defaults if none).
    pub(crate) fn new(settings: &Settings) -> TeamBook {
        let team = settings.team.clone().unwrap_or_else(|| TeamSettings {
            boards: team::DEFAULT_BOARDS as u32,
            reserves: 2,
            primary: Default::default(),
            tiebreaks: TeamSettings::default_tiebreaks(Default::default()),
            board_prize_min_games: 0,
            lineup_deadline_s: 0,
        });
        TeamBook {
            settings: team,
            teams: Vec::new(),
            rounds: Vec::new(),
            line_ups: BTreeMap::new(),
            started: false,
            absent: BTreeSet::new(),
            forbidden: BTreeSet::new(),
        }
    }

    /// The team numbered `n` (from 1).
    pub(crate) fn team(&self, n: u32) -> Option<&TeamBookTeam> {
        self.teams.get((n as usize).checked_sub(1)?)
    }

    /// The number of the team called `name` (any case).
    pub(crate) fn find(&self, name: &str) -> Result<u32, TournamentRefusal> {
        let wanted = name.trim().to_lowercase();
        self.teams
            .iter()
            .position(|t| t.team.name().to_lowercase() == wanted)
            .map(|i| i as u32 + 1)
            .ok_or_else(|| TournamentRefusal::UnknownTeam(name.to_owned()))
    }

    /// The event's rounds: a team Swiss's as set, a round robin's by the Berger tables.
    pub(crate) fn total_rounds(&self, settings: &Settings) -> u32 {
        match settings.format {
            Format::TeamRoundRobin => team::round_robin::rounds(
                self.teams.len().max(2) as u32,
                team::round_robin::RoundRobinSettings::default(),
            )
            .unwrap_or(0),
            _ => settings.rounds.unwrap_or(1),
        }
    }

    /// Whether every round is paired and finished.
    pub(crate) fn is_over(&self, settings: &Settings) -> bool {
        self.rounds.len() as u32 >= self.total_rounds(settings)
            && self.rounds.last().is_some_and(RoundBook::finished)
    }

    /// Folds `team`: a roster checked against the regulations and the other teams.
    pub(crate) fn register(&mut self, t: &TeamRegistered) -> Result<(), TournamentRefusal> {
        if self.started {
            return Err(TournamentRefusal::TeamsClosed);
        }
        let boards = self.settings.boards;
        let name = t.name.trim().to_owned();
        if t.players.len() > (boards + self.settings.reserves) as usize {
            return Err(TournamentRefusal::TooManyReserves {
                team: name,
                players: t.players.len(),
                boards,
                reserves: self.settings.reserves,
            });
        }
        if self.teams.iter().any(|x| x.team.name().to_lowercase() == name.to_lowercase()) {
            return Err(TournamentRefusal::DuplicateTeam(name));
        }
        for p in &t.players {
            let other = self.teams.iter().find(|x| x.team.position(&p.name).is_some());
            if let Some(other) = other {
                return Err(TournamentRefusal::PlayerInTwoTeams {
                    player: p.name.clone(),
                    team: other.team.name().to_owned(),
                });
            }
        }
        let roster: Vec<TeamPlayer> = t
            .players
            .iter()
            .map(|p| TeamPlayer::new(p.name.clone(), p.rating.map(u32::from)))
            .collect();
        let rating = team_rating(&roster[..roster.len().min(boards as usize)]);
        let team =
            Team::new(name, rating, boards as usize, roster).map_err(TournamentRefusal::Team)?;
        let accounts = t.players.iter().map(|p| p.user_id).collect();
        self.teams.push(TeamBookTeam { team, captain: t.captain.clone(), accounts });
        Ok(())
    }

    /// Folds `team_captain`.
    pub(crate) fn captain(&mut self, c: &TeamCaptain) -> Result<(), TournamentRefusal> {
        let team = self
            .teams
            .get_mut((c.team as usize).wrapping_sub(1))
            .ok_or_else(|| TournamentRefusal::UnknownTeam(format!("number {}", c.team)))?;
        team.captain = Some(c.captain.clone());
        Ok(())
    }

    /// Folds the start: the teams put in their initial order (by rating, highest first,
    /// unrated last, ties by registration), numbered so from now on; the pairs forbidden
    /// before it, written with the registration numbers, follow their teams.
    pub(crate) fn start(&mut self) -> Result<(), TournamentRefusal> {
        if self.teams.len() < 2 {
            return Err(TournamentRefusal::TooFewTeams);
        }
        let mut order: Vec<usize> = (0..self.teams.len()).collect();
        order.sort_by_key(|&i| std::cmp::Reverse(self.teams[i].team.rating().map_or(0, |r| r + 1)));
        let mut number = vec![0; order.len()];
        for (new, &old) in order.iter().enumerate() {
            number[old] = new as u32 + 1;
        }
        let mut teams: Vec<Option<TeamBookTeam>> = self.teams.drain(..).map(Some).collect();
        self.teams = order.iter().map(|&i| teams[i].take().expect("each once")).collect();
        self.forbidden = self
            .forbidden
            .iter()
            .map(|&(a, b)| ordered(number[a as usize - 1], number[b as usize - 1]))
            .collect();
        self.started = true;
        Ok(())
    }

    /// Folds `forbid_team_pair` (`forbid`) or `allow_team_pair`: a team Swiss's, two teams
    /// registered; lifting a pair that is not forbidden is refused, forbidding one twice is
    /// not (the desk's second click changes nothing).
    pub(crate) fn forbid(
        &mut self,
        settings: &Settings,
        p: &TeamPair,
        forbid: bool,
    ) -> Result<(), TournamentRefusal> {
        if settings.format == Format::TeamRoundRobin {
            return Err(ROUND_ROBIN_FIXED);
        }
        for (n, side) in [(p.a, PairSide::A), (p.b, PairSide::B)] {
            if self.team(n).is_none() {
                let name = format!("number {n}");
                return Err(TournamentRefusal::UnknownTeamOfPair { side, name });
            }
        }
        if p.a == p.b {
            let name = self.team(p.a).expect("checked").team.name().to_owned();
            return Err(TournamentRefusal::SameTeam(name));
        }
        let pair = ordered(p.a, p.b);
        if forbid {
            self.forbidden.insert(pair);
        } else if !self.forbidden.remove(&pair) {
            return Err(TournamentRefusal::NotForbidden);
        }
        Ok(())
    }

    /// Folds `team_unpair`: the last round paired, none of whose boards has a result (a
    /// played board is part of the event: the round is corrected board by board instead).
    /// Its line-ups stay entered for the round paired again.
    pub(crate) fn unpair(&mut self, u: &TeamUnpair) -> Result<(), TournamentRefusal> {
        self.unpairable(u.round)?;
        self.rounds.pop();
        Ok(())
    }

    /// Whether round `round` may be unpaired, as far as the book knows (online, its games'
    /// moves are the store's to tell).
    pub(crate) fn unpairable(&self, round: u32) -> Result<(), TournamentRefusal> {
        let last = self.rounds.len() as u32;
        if round != last || last == 0 {
            return Err(TournamentRefusal::TeamRoundNotLast { round, last });
        }
        if self.rounds.last().is_some_and(|r| r.matches.iter().any(MatchBook::begun)) {
            return Err(TournamentRefusal::TeamRoundBegun(round));
        }
        Ok(())
    }

    /// The match of team `team` in round `round`, if paired: (its index, the team's colour on
    /// board 1).
    pub(crate) fn match_of(&self, round: u32, team: u32) -> Option<(usize, Color)> {
        let r = self.rounds.get((round as usize).checked_sub(1)?)?;
        r.matches.iter().enumerate().find_map(|(i, m)| {
            if m.white.get() == team {
                Some((i, Color::White))
            } else if m.black.get() == team {
                Some((i, Color::Black))
            } else {
                None
            }
        })
    }

    /// Folds `line_up`: refused when it breaks the roster's order, or once the team's match
    /// in that round has a result (the players are then fixed), or for a round played.
    pub(crate) fn line_up(
        &mut self,
        settings: &Settings,
        l: &LineUpEntry,
    ) -> Result<(), TournamentRefusal> {
        let team = self
            .team(l.team)
            .ok_or_else(|| TournamentRefusal::UnknownTeam(format!("number {}", l.team)))?;
        let name = team.team.name().to_owned();
        if !self.started {
            return Err(TournamentRefusal::NotStarted);
        }
        let rounds = self.total_rounds(settings);
        if l.round == 0 || l.round > rounds {
            return Err(TournamentRefusal::PastLastRound { round: l.round, rounds });
        }
        let paired = self.rounds.len() as u32;
        let fixed = l.round < paired
            || l.round == paired
                && (self.rounds[l.round as usize - 1].on
                    || self.match_of(l.round, l.team).is_some_and(|(i, _)| {
                        self.rounds[l.round as usize - 1].matches[i].begun()
                    }));
        if fixed {
            return Err(TournamentRefusal::LineUpFixed { round: l.round, team: name });
        }
        let positions: Vec<usize> =
            l.players.iter().map(|&p| (p as usize).wrapping_sub(1)).collect();
        let line_up = LineUp::new(&team.team, &positions)
            .map_err(|error| TournamentRefusal::LineUp { round: l.round, error })?;
        self.line_ups.insert((l.round, l.team), line_up);
        Ok(())
    }

    /// The line-up team `team` fields in round `round`: the one entered, else the registered
    /// board order.
    pub(crate) fn line_up_of(&self, round: u32, team: TeamId) -> LineUp {
        self.line_ups
            .get(&(round, team.get()))
            .cloned()
            .unwrap_or_else(|| self.teams[team.index()].team.regular_line_up())
    }

    /// Folds `team_paired`: the next round, once the one before is finished, each team at
    /// most once.
    pub(crate) fn paired(&mut self, p: &TeamPaired, at: u64) -> Result<(), TournamentRefusal> {
        let bad = |why: String| TournamentRefusal::BadTeamPairing { round: p.round, why };
        if !self.started {
            return Err(TournamentRefusal::NotStarted);
        }
        if p.round as usize != self.rounds.len() + 1 {
            return Err(bad(format!("the next round to pair is {}", self.rounds.len() + 1)));
        }
        if let Some(last) = self.rounds.last() {
            if !last.finished() {
                return Err(TournamentRefusal::TeamRoundUnfinished(self.rounds.len() as u32));
            }
        }
        let mut seen = vec![false; self.teams.len()];
        let mut mark = |n: u32| -> Result<TeamId, TournamentRefusal> {
            let slot = seen
                .get_mut((n as usize).wrapping_sub(1))
                .ok_or_else(|| bad(format!("there is no team {n}")))?;
            if std::mem::replace(slot, true) {
                return Err(bad(format!("team {n} is paired twice")));
            }
            Ok(TeamId::from_index(n as usize - 1))
        };
        let boards = self.settings.boards as usize;
        let mut matches = Vec::with_capacity(p.matches.len());
        for &(w, b) in &p.matches {
            let (white, black) = (mark(w)?, mark(b)?);
            matches.push(MatchBook { white, black, results: vec![None; boards] });
        }
        let bye = p.bye.map(&mut mark).transpose()?;
        self.rounds.push(RoundBook { matches, bye, paired_at: at, on: false });
        Ok(())
    }

    /// Folds `team_absent`: once started (teams are numbered for good then).
    pub(crate) fn absent(&mut self, a: &TeamAbsent) -> Result<(), TournamentRefusal> {
        if !self.started {
            return Err(TournamentRefusal::NotStarted);
        }
        self.team(a.team)
            .ok_or_else(|| TournamentRefusal::UnknownTeam(format!("number {}", a.team)))?;
        if a.absent {
            self.absent.insert(a.team);
        } else {
            self.absent.remove(&a.team);
        }
        Ok(())
    }

    /// The forfeits the absent teams' matches of the last round paired take: (match, board,
    /// result) for each board without a result; both teams absent forfeit both sides.
    pub(crate) fn absent_forfeits(&self) -> Vec<(u32, u32, GameResult)> {
        let Some(round) = self.rounds.last() else { return Vec::new() };
        let absent = |t: TeamId| self.absent.contains(&t.get());
        let mut out = Vec::new();
        for (m, number) in round.matches.iter().zip(1..) {
            if !absent(m.white) && !absent(m.black) {
                continue;
            }
            for (result, board) in m.results.iter().zip(1..) {
                if result.is_some() {
                    continue;
                }
                let first = BoardColours::Alternating.colour_of_first(board as usize);
                let white = if first.is_white() { m.white } else { m.black };
                let black = if first.is_white() { m.black } else { m.white };
                let forfeit = match (absent(white), absent(black)) {
                    (true, true) => GameResult::DoubleForfeit,
                    (true, false) => GameResult::BlackByForfeit,
                    _ => GameResult::WhiteByForfeit,
                };
                out.push((number, board, forfeit));
            }
        }
        out
    }

    /// Folds `team_round_on`: the last round paired, once.
    pub(crate) fn round_on(&mut self, r: &TeamRoundOn) -> Result<(), TournamentRefusal> {
        let last = self.rounds.len() as u32;
        match self.rounds.last_mut() {
            Some(round) if r.round == last && !round.on => {
                round.on = true;
                Ok(())
            }
            _ => Err(TournamentRefusal::BadTeamPairing {
                round: r.round,
                why: "not the last round paired, or its games are on already".to_owned(),
            }),
        }
    }

    /// The players of board `board` of match `number` of round `round`: (White's, Black's),
    /// each (team, roster position).
    pub(crate) fn board_players(
        &self,
        round: u32,
        number: u32,
        board: u32,
    ) -> Option<[(TeamId, usize); 2]> {
        let r = self.rounds.get((round as usize).checked_sub(1)?)?;
        let m = r.matches.get((number as usize).checked_sub(1)?)?;
        let first = BoardColours::Alternating.colour_of_first(board as usize);
        let a = (m.white, self.line_up_of(round, m.white).on_board(board as usize)?);
        let b = (m.black, self.line_up_of(round, m.black).on_board(board as usize)?);
        Some(if first.is_white() { [a, b] } else { [b, a] })
    }

    /// Folds `team_result` (a second for one board corrects the first).
    pub(crate) fn result(&mut self, r: &TeamResult) -> Result<(), TournamentRefusal> {
        let slot = self.board_mut(r.round, r.number, r.board)?;
        *slot = Some(r.result);
        Ok(())
    }

    /// A board's result slot.
    fn board_mut(
        &mut self,
        round: u32,
        number: u32,
        board: u32,
    ) -> Result<&mut Option<GameResult>, TournamentRefusal> {
        self.rounds
            .get_mut((round as usize).wrapping_sub(1))
            .and_then(|r| r.matches.get_mut((number as usize).wrapping_sub(1)))
            .and_then(|m| m.results.get_mut((board as usize).wrapping_sub(1)))
            .ok_or(TournamentRefusal::NoTeamBoard { round, number, board })
    }

    /// A board's result, if it has one.
    ///
    /// # Errors
    ///
    /// No such round, match or board.
    pub(crate) fn board(
        &self,
        round: u32,
        number: u32,
        board: u32,
    ) -> Result<Option<GameResult>, TournamentRefusal> {
        self.rounds
            .get((round as usize).wrapping_sub(1))
            .and_then(|r| r.matches.get((number as usize).wrapping_sub(1)))
            .and_then(|m| m.results.get((board as usize).wrapping_sub(1)))
            .copied()
            .ok_or(TournamentRefusal::NoTeamBoard { round, number, board })
    }

    /// The pure crate's competition of the finished rounds (the standings count only those;
    /// the pairing of a round needs the one before finished).
    pub(crate) fn competition(&self) -> Option<TeamCompetition> {
        let teams = self.teams.iter().map(|t| t.team.clone()).collect();
        let mut comp =
            TeamCompetition::new(teams, self.settings.scoring(), BoardColours::Alternating).ok()?;
        for (i, round) in self.rounds.iter().enumerate() {
            if !round.finished() {
                break;
            }
            let number = i as u32 + 1;
            let matches = round
                .matches
                .iter()
                .map(|m| TeamMatch {
                    white: m.white,
                    black: m.black,
                    white_line_up: self.line_up_of(number, m.white),
                    black_line_up: self.line_up_of(number, m.black),
                    results: m.results.iter().flatten().copied().map(board_result).collect(),
                })
                .collect();
            let played: Vec<TeamId> =
                round.matches.iter().flat_map(|m| [m.white, m.black]).chain(round.bye).collect();
            let absent = (0..self.teams.len())
                .map(TeamId::from_index)
                .filter(|t| !played.contains(t))
                .collect();
            // Checked as each entry was folded: the round is valid.
            comp.add_round(TeamRound { matches, bye: round.bye, absent }).ok()?;
        }
        Some(comp)
    }

    /// The next round's pairing, by the format's system.
    pub(crate) fn pair_next(&self, settings: &Settings) -> Result<TeamPaired, TournamentRefusal> {
        let round = self.rounds.len() as u32 + 1;
        let rounds = self.total_rounds(settings);
        if round > rounds {
            return Err(TournamentRefusal::PastLastRound { round, rounds });
        }
        if let Some(last) = self.rounds.last() {
            if !last.finished() {
                return Err(TournamentRefusal::TeamRoundUnfinished(round - 1));
            }
        }
        let pairing: TeamPairing = match settings.format {
            Format::TeamRoundRobin => team::round_robin::round(
                self.teams.len() as u32,
                team::round_robin::RoundRobinSettings::default(),
                round,
            )
            .map_err(|e| TournamentRefusal::BadTeamPairing { round, why: e.to_string() })?,
            _ => {
                let comp = self.competition().ok_or(TournamentRefusal::TooFewTeams)?;
                let swiss = team::swiss::TeamSwissSettings {
                    rounds,
                    // The initial colour drawn by lot (Art. 4.1): the tournament's seed.
                    initial_colour: if settings.seed.is_multiple_of(2) {
                        team::swiss::InitialColour::White
                    } else {
                        team::swiss::InitialColour::Black
                    },
                    // Not paired while marked absent (a round robin's tables pair every team:
                    // its match is forfeited instead).
                    absent: self
                        .absent
                        .iter()
                        .map(|&n| TeamId::from_index(n as usize - 1))
                        .collect(),
                    forbidden: self
                        .forbidden
                        .iter()
                        .map(|&(a, b)| {
                            (TeamId::from_index(a as usize - 1), TeamId::from_index(b as usize - 1))
                        })
                        .collect(),
                    ..Default::default()
                };
                team::swiss::pair(&comp, &swiss).map_err(TournamentRefusal::TeamPairing)?
            }
        };
        Ok(TeamPaired {
            round,
            matches: pairing.matches.iter().map(|(w, b)| (w.get(), b.get())).collect(),
            bye: pairing.bye.map(TeamId::get),
        })
    }
}

/// Why a round robin takes no forbidden pair.
const ROUND_ROBIN_FIXED: TournamentRefusal = TournamentRefusal::WrongFormat(
    "a round robin's tables are fixed: every team meets every other, no pair can be forbidden",
);

/// A pair of team numbers, the lower first (a forbidden pair has no order).
fn ordered(a: u32, b: u32) -> (u32, u32) {
    (a.min(b), a.max(b))
}

/// A team's rating for the initial order: the mean of its board players' ratings (those who
/// have one), none if none has.
fn team_rating(players: &[TeamPlayer]) -> Option<u32> {
    let rated: Vec<u32> = players.iter().filter_map(|p| p.rating).collect();
    (!rated.is_empty()).then(|| rated.iter().sum::<u32>() / rated.len() as u32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::team::fixture;

    /// Four teams of two boards started: numbered in their initial order.
    fn started(settings: &Settings) -> TeamBook {
        let mut book = TeamBook::new(settings);
        for t in fixture::registered() {
            book.register(&t).unwrap();
        }
        book.start().unwrap();
        book
    }

    fn absent(book: &mut TeamBook, team: u32, absent: bool) {
        book.absent(&TeamAbsent { team, absent }).unwrap();
    }

    /// The absent side loses each board by forfeit, whatever its colour there (the boards
    /// alternate); both absent, both lose; a board with a result keeps it.
    #[test]
    fn an_absent_teams_match_is_forfeited_board_by_board() {
        let settings = fixture::settings();
        let mut book = started(&settings);
        let paired = book.pair_next(&settings).unwrap();
        assert_eq!(paired.matches, [(1, 4), (2, 3)], "Berger round 1 of four");
        book.paired(&paired, 0).unwrap();
        assert_eq!(book.absent_forfeits(), []);
        absent(&mut book, 4, true);
        // Team 4 is Black on board 1 and White on board 2.
        use GameResult::*;
        assert_eq!(book.absent_forfeits(), [(1, 1, WhiteByForfeit), (1, 2, BlackByForfeit)]);
        book.result(&TeamResult { round: 1, number: 1, board: 1, result: Draw }).unwrap();
        assert_eq!(book.absent_forfeits(), [(1, 2, BlackByForfeit)]);
        absent(&mut book, 1, true);
        assert_eq!(book.absent_forfeits(), [(1, 2, DoubleForfeit)]);
        absent(&mut book, 1, false);
        absent(&mut book, 4, false);
        assert_eq!(book.absent_forfeits(), []);
    }

    /// A team Swiss leaves a team marked absent out of the pairing (the pure crate scores it
    /// as absent: nothing); marked present, it is paired again.
    #[test]
    fn a_team_swiss_does_not_pair_an_absent_team() {
        let mut settings = fixture::settings();
        settings.format = Format::TeamSwiss;
        settings.rounds = Some(3);
        let mut book = started(&settings);
        absent(&mut book, 2, true);
        let paired = book.pair_next(&settings).unwrap();
        let teams: Vec<u32> =
            paired.matches.iter().flat_map(|&(a, b)| [a, b]).chain(paired.bye).collect();
        assert_eq!(teams.len(), 3, "{paired:?}");
        assert!(!teams.contains(&2), "{paired:?}");
        absent(&mut book, 2, false);
        assert_eq!(book.pair_next(&settings).unwrap().matches.len(), 2);
    }

    fn swiss() -> Settings {
        let mut settings = fixture::settings();
        settings.format = Format::TeamSwiss;
        settings.rounds = Some(3);
        settings
    }

    fn pair(a: u32, b: u32) -> TeamPair {
        TeamPair { a, b }
    }

    fn meets(paired: &TeamPaired, (a, b): (u32, u32)) -> bool {
        paired.matches.iter().any(|&m| m == (a, b) || m == (b, a))
    }

    /// The team Swiss pairs around a forbidden pair, in either order, and pairs it again
    /// once lifted.
    #[test]
    fn a_forbidden_team_pair_is_not_paired() {
        let settings = swiss();
        let mut book = started(&settings);
        let free = book.pair_next(&settings).unwrap();
        let (a, b) = free.matches[0];
        book.forbid(&settings, &pair(b, a), true).unwrap();
        assert_eq!(book.forbidden, BTreeSet::from([(a.min(b), a.max(b))]));
        let paired = book.pair_next(&settings).unwrap();
        assert!(!meets(&paired, (a, b)), "{a} and {b} are forbidden: {paired:?}");
        assert_eq!(paired.matches.len(), 2, "{paired:?}");
        book.forbid(&settings, &pair(a, b), false).unwrap();
        assert_eq!(book.pair_next(&settings).unwrap(), free);
    }

    /// Each refusal of a forbidden pair: a round robin's fixed tables, a number that is no
    /// team (naming its side), one team twice, lifting a pair never forbidden.
    #[test]
    fn a_forbidden_team_pair_is_refused_where_it_cannot_be() {
        let robin = fixture::settings();
        let mut book = started(&robin);
        let refused = book.forbid(&robin, &pair(1, 2), true);
        assert!(matches!(refused, Err(TournamentRefusal::WrongFormat(_))), "{refused:?}");
        let settings = swiss();
        let mut book = started(&settings);
        let refused = book.forbid(&settings, &pair(1, 9), true);
        let side = |r: &Result<(), TournamentRefusal>| match r {
            Err(TournamentRefusal::UnknownTeamOfPair { side, .. }) => Some(*side),
            _ => None,
        };
        assert_eq!(side(&refused), Some(PairSide::B), "{refused:?}");
        let refused = book.forbid(&settings, &pair(2, 2), true);
        assert_eq!(refused, Err(TournamentRefusal::SameTeam("Knights".into())));
        let refused = book.forbid(&settings, &pair(2, 3), false);
        assert_eq!(refused, Err(TournamentRefusal::NotForbidden));
        book.forbid(&settings, &pair(2, 3), true).unwrap();
        book.forbid(&settings, &pair(3, 2), true).unwrap();
        assert_eq!(book.forbidden.len(), 1, "forbidding twice is one pair");
    }

    /// A pair forbidden before the start names the teams by registration number; the start
    /// renumbers them by rating, and the pair follows its teams.
    #[test]
    fn a_pair_forbidden_before_the_start_follows_its_teams() {
        let settings = swiss();
        let mut book = TeamBook::new(&settings);
        // Registered weakest first: Pawns 1, Bishops 2, Knights 3, Rooks 4.
        for t in fixture::registered().into_iter().rev() {
            book.register(&t).unwrap();
        }
        book.forbid(&settings, &pair(1, 3), true).unwrap();
        book.start().unwrap();
        assert_eq!(book.team(2).unwrap().team.name(), "Knights");
        assert_eq!(book.team(4).unwrap().team.name(), "Pawns, Inc.");
        assert_eq!(book.forbidden, BTreeSet::from([(2, 4)]));
    }

    /// The last round paired is taken back before any board has a result, its line-ups kept
    /// and open again; the same pairing comes back. Refused for a round not the last, and
    /// once a board has its result.
    #[test]
    fn the_last_team_round_is_unpaired_until_a_board_has_a_result() {
        let settings = swiss();
        let mut book = started(&settings);
        let refused = book.unpair(&TeamUnpair { round: 1 });
        assert_eq!(refused, Err(TournamentRefusal::TeamRoundNotLast { round: 1, last: 0 }));
        let paired = book.pair_next(&settings).unwrap();
        book.paired(&paired, 0).unwrap();
        let line_up = LineUpEntry { round: 1, team: 2, players: vec![1, 3] };
        book.line_up(&settings, &line_up).unwrap();
        let refused = book.unpair(&TeamUnpair { round: 2 });
        assert_eq!(refused, Err(TournamentRefusal::TeamRoundNotLast { round: 2, last: 1 }));
        book.unpair(&TeamUnpair { round: 1 }).unwrap();
        assert!(book.rounds.is_empty());
        assert_eq!(book.line_ups.len(), 1, "the line-up stays for the round paired again");
        book.line_up(&settings, &line_up).unwrap();
        assert_eq!(book.pair_next(&settings).unwrap(), paired);
        book.paired(&paired, 0).unwrap();
        let result = GameResult::Draw;
        book.result(&TeamResult { round: 1, number: 2, board: 1, result }).unwrap();
        let refused = book.unpair(&TeamUnpair { round: 1 });
        assert_eq!(refused, Err(TournamentRefusal::TeamRoundBegun(1)));
    }

    #[test]
    fn absence_is_marked_once_the_teams_are_numbered() {
        let settings = fixture::settings();
        let mut book = TeamBook::new(&settings);
        let refused = book.absent(&TeamAbsent { team: 1, absent: true });
        assert!(matches!(refused, Err(TournamentRefusal::NotStarted)), "{refused:?}");
        let mut book = started(&settings);
        let refused = book.absent(&TeamAbsent { team: 9, absent: true });
        assert!(matches!(refused, Err(TournamentRefusal::UnknownTeam(_))), "{refused:?}");
    }
}
