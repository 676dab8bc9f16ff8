//! A team event's life (RULES.md §12, *Teams*; issue 54): teams registered at the desk or
//! from a list, captains named, line-ups entered by captains or the desk, rounds paired by the
//! pure crate's team Swiss (C.04.6) or Berger tables, board results typed at the desk and
//! rolled up into the match; the end when the last round's last board has its result. Over
//! the board only: each board's game is played in the hall and its result entered.

use rookery_store::TournamentStatus;
use rookery_tournament::competition::BoardResult;

use crate::log::{self, Entry};
use crate::log::{
    Captain, LineUpEntry, RosterPlayer, TeamAbsent, TeamCaptain, TeamPair, TeamRegistered,
    TeamResult, TeamUnpair,
};
use crate::refusal::{PairSide, TournamentError, TournamentRefusal};
use crate::request::ArbiterAction;
use crate::roster::RosterEntry;
use crate::Who;

use super::Actor;
use crate::ports::Host;

/// The actions of a player's event that a team event has not.
const NOT_FOR_TEAMS: TournamentRefusal = TournamentRefusal::WrongFormat(
    "a team event pairs teams: register teams, enter line-ups and each board's result \
     (round, match, board)",
);

impl<H: Host> Actor<H> {
    /// The arbiter's action in a team event.
    pub(super) async fn team_arbiter(
        &mut self,
        who: &Who,
        action: ArbiterAction,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let by = Some(who);
        match action {
            ArbiterAction::Start => self.start_teams(by).await,
            ArbiterAction::Pair => self.pair_teams(by).await,
            ArbiterAction::Team { name, players, captain } => {
                self.register_team(by, name, players, captain).await
            }
            ArbiterAction::Import { entries } => self.import_teams(by, entries).await,
            ArbiterAction::Captain { team, account } => {
                let team = self.tour.book.team_mut()?.find(&team)?;
                let captain = self.captain_of(&account).await?;
                self.record(Entry::TeamCaptain(TeamCaptain { team, captain }), by, reason).await
            }
            ArbiterAction::LineUp { round, team, players } => {
                self.enter_line_up(by, round, &team, &players, reason).await
            }
            ArbiterAction::TeamEnter { round, number, board, result } => {
                if !self.tour.settings.over_the_board {
                    return Err(TournamentRefusal::PlayedOnline.into());
                }
                let team = self.tour.book.team_mut()?;
                if team.board(round, number, board)?.is_some() {
                    return Err(TournamentRefusal::HasResult.into());
                }
                self.team_result(by, (round, number, board), result, reason).await
            }
            ArbiterAction::TeamResult { round, number, board, result } => {
                self.team_result(by, (round, number, board), result, reason).await
            }
            ArbiterAction::TeamAbsent { team, absent } => {
                let team = self.tour.book.team_mut()?.find(&team)?;
                self.record(Entry::TeamAbsent(TeamAbsent { team, absent }), by, reason).await?;
                self.forfeit_absent(by).await
            }
            ArbiterAction::ForbidTeamPair { a, b } => {
                let pair = self.team_pair(&a, &b)?;
                self.record(Entry::ForbidTeamPair(pair), by, reason).await
            }
            ArbiterAction::AllowTeamPair { a, b } => {
                let pair = self.team_pair(&a, &b)?;
                self.record(Entry::AllowTeamPair(pair), by, reason).await
            }
            ArbiterAction::Unpair { round } => self.unpair_teams(by, round, reason).await,
            ArbiterAction::End => self.record(Entry::End(log::Empty {}), by, reason).await,
            ArbiterAction::Cancel => self.record(Entry::Cancel(log::Empty {}), by, reason).await,
            _ => Err(NOT_FOR_TEAMS.into()),
        }
    }

    /// A player's request a team event refuses (joining, byes, withdrawing): teams are
    /// registered by the arbiter.
    pub(super) fn not_for_teams(&self) -> Result<(), TournamentError> {
        if self.tour.settings.format.is_team() {
            return Err(NOT_FOR_TEAMS.into());
        }
        Ok(())
    }

    /// The start: at least two teams, put in their initial order; then round 1 is paired.
    pub(super) async fn start_teams(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let teams = self.tour.book.team.as_ref().map_or(0, |t| t.teams.len());
        if teams < 2 {
            return Err(TournamentRefusal::TooFewTeams.into());
        }
        self.record(Entry::Start(log::Empty {}), by, None).await?;
        self.pair_teams(by).await
    }

    /// Pairs the next round once the one before is finished.
    pub(super) async fn pair_teams(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        if self.tour.book.status != TournamentStatus::Running {
            return Err(TournamentRefusal::NotStarted.into());
        }
        let paired = self.tour.book.team_mut()?.pair_next(&self.tour.settings)?;
        self.record(Entry::TeamPaired(paired), by, None).await?;
        // A round robin pairs an absent team by its tables: its match is forfeited now,
        // before any game of it is made.
        self.forfeit_absent(by).await?;
        // Online without a line-up deadline the round's games start at once.
        self.team_tick(crate::now_ms()).await
    }

    /// Two teams by name, each refusal naming its field (`a` or `b`).
    fn team_pair(&mut self, a: &str, b: &str) -> Result<TeamPair, TournamentError> {
        let book = self.tour.book.team_mut()?;
        let number = |name: &str, side| {
            book.find(name)
                .map_err(|_| TournamentRefusal::UnknownTeamOfPair { side, name: name.to_owned() })
        };
        Ok(TeamPair { a: number(a, PairSide::A)?, b: number(b, PairSide::B)? })
    }

    /// The last round's pairing taken back: refused once a board has a result (the book) or,
    /// online, once a move is played in one of its games; the games made for it, none begun,
    /// are deleted, so that the round paired again makes its own under the same ids.
    async fn unpair_teams(
        &mut self,
        by: Option<&Who>,
        round: u32,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        if self.tour.book.status != TournamentStatus::Running {
            return Err(TournamentRefusal::NotStarted.into());
        }
        self.tour.book.team_mut()?.unpairable(round)?;
        let games = self.store().tournament_games(&self.tour.row.id).await?;
        let of_round: Vec<_> = games.into_iter().filter(|g| g.round == Some(round)).collect();
        if of_round.iter().any(|g| g.moves > 0) {
            return Err(TournamentRefusal::RoundStarted(round).into());
        }
        self.record(Entry::TeamUnpair(TeamUnpair { round }), by, reason).await?;
        for g in of_round {
            let Some(id) = rookery_protocol::GameId::parse(&g.id) else { continue };
            if self.host().is_live(&id) {
                self.host().stop(&id).await;
            }
            self.store().delete_unstarted_game(&g.id).await?;
        }
        Ok(())
    }

    /// A team from the desk.
    async fn register_team(
        &mut self,
        by: Option<&Who>,
        name: String,
        players: Vec<(String, Option<u16>)>,
        captain: Option<String>,
    ) -> Result<(), TournamentError> {
        let captain = match captain {
            Some(account) => Some(self.captain_of(&account).await?),
            None => None,
        };
        let mut roster = Vec::with_capacity(players.len());
        for (name, rating) in players {
            roster.push(self.roster_player(name, rating).await?);
        }
        let entry = Entry::Team(TeamRegistered { name, players: roster, captain });
        self.record(entry, by, None).await
    }

    /// Teams from a list with a team column: each team's players in the list's order (board
    /// order, reserves after), the teams in the order they first appear; refused whole.
    async fn import_teams(
        &mut self,
        by: Option<&Who>,
        entries: Vec<RosterEntry>,
    ) -> Result<(), TournamentError> {
        let mut teams: Vec<TeamRegistered> = Vec::new();
        for e in entries {
            let team = e.team.clone().ok_or(TournamentRefusal::NoTeamColumn)?;
            let player = self.roster_player(e.name, e.rating).await?;
            match teams.iter_mut().find(|t| t.name.to_lowercase() == team.to_lowercase()) {
                Some(t) => t.players.push(player),
                None => {
                    teams.push(TeamRegistered { name: team, players: vec![player], captain: None })
                }
            }
        }
        let mut trial = self.tour.book.clone();
        let at = crate::now_ms();
        let entries: Vec<Entry> = teams.into_iter().map(Entry::Team).collect();
        for entry in &entries {
            trial.fold(&self.tour.settings, entry, at)?;
        }
        for entry in entries {
            self.record(entry, by, None).await?;
        }
        Ok(())
    }

    /// A roster's player: over the board a name; online an account, by its name (its rating
    /// when none is given).
    async fn roster_player(
        &self,
        name: String,
        rating: Option<u16>,
    ) -> Result<RosterPlayer, TournamentError> {
        if self.tour.settings.over_the_board {
            return Ok(RosterPlayer { name, rating, user_id: None });
        }
        let user =
            self.store().user_by_name(&name).await?.ok_or(TournamentRefusal::NotAnAccount(name))?;
        let own = user.rating.rating.round().clamp(0.0, 3500.0) as u16;
        Ok(RosterPlayer {
            name: user.username,
            rating: rating.or(Some(own)),
            user_id: Some(user.id.0),
        })
    }

    /// The captain behind an account name.
    async fn captain_of(&self, account: &str) -> Result<Captain, TournamentError> {
        let user = self
            .store()
            .user_by_name(account)
            .await?
            .ok_or_else(|| TournamentRefusal::UnknownAccount(account.to_owned()))?;
        Ok(Captain { key: user.username.to_lowercase(), user_id: user.id.0 })
    }

    /// A captain's line-up: only the team's captain (or the arbiter) enters it.
    pub(super) async fn captain_line_up(
        &mut self,
        who: &Who,
        round: u32,
        team: &str,
        players: &[String],
    ) -> Result<(), TournamentError> {
        let book = self.tour.book.team_mut()?;
        let number = book.find(team)?;
        let registered = book.team(number).expect("found");
        let is_captain = registered.captain.as_ref().is_some_and(|c| c.user_id == who.user_id.0);
        if !is_captain && who.user_id != self.tour.row.created_by {
            return Err(TournamentRefusal::NotCaptain(registered.team.name().to_owned()).into());
        }
        self.enter_line_up(Some(who), round, team, players, None).await
    }

    /// A line-up by names, checked against the roster's order when folded.
    async fn enter_line_up(
        &mut self,
        by: Option<&Who>,
        round: u32,
        team: &str,
        players: &[String],
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let book = self.tour.book.team_mut()?;
        let number = book.find(team)?;
        let registered = &book.team(number).expect("found").team;
        let names: Vec<&str> = players.iter().map(String::as_str).collect();
        let line_up = rookery_tournament::team::LineUp::by_names(registered, &names)
            .map_err(|error| TournamentRefusal::LineUp { round, error })?;
        let players = line_up.positions().iter().map(|&p| p as u32 + 1).collect();
        self.record(Entry::LineUp(LineUpEntry { round, team: number, players }), by, reason).await
    }

    /// The boards without a result of the absent teams' matches in the round paired, lost by
    /// forfeit (by the absent side, or by both when both are absent), each a board's result
    /// as the desk's, so that a live game of it ends and the event's last one ends it.
    async fn forfeit_absent(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let Some(team) = self.tour.book.team.as_ref() else { return Ok(()) };
        let round = team.rounds.len() as u32;
        for (number, board, result) in team.absent_forfeits() {
            let reason = Some("team absent".to_owned());
            self.team_result(by, (round, number, board), result, reason).await?;
        }
        Ok(())
    }

    /// A board's result; the last of the event's ends it.
    pub(super) async fn team_result(
        &mut self,
        by: Option<&Who>,
        (round, number, board): (u32, u32, u32),
        result: BoardResult,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let entry = Entry::TeamResult(TeamResult { round, number, board, result });
        self.record(entry, by, reason).await?;
        self.team_board_decided((round, number, board), result).await;
        let over = self.tour.book.team.as_ref().is_some_and(|t| t.is_over(&self.tour.settings));
        if over && self.tour.book.status == TournamentStatus::Running {
            self.record(Entry::End(log::Empty {}), by, None).await?;
        }
        Ok(())
    }
}
