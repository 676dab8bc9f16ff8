//! A team event played on the site (RULES.md §12, *Teams*; issue 54): each board of each
//! match a live game between the line-ups' players (accounts) at the event's clock, created
//! once the round's line-up deadline has passed (`lineup_deadline_s` after the pairing; a team
//! without a line-up then fields its registered board order), each game's end its board's
//! result, rolled up into the match as the games end; a missing game made again after a
//! restart.

use rookery_arbiter::{Outcome, Termination};
use rookery_store::{Player, PlayerKind, TournamentStatus, UserId};
use rookery_tournament::competition::BoardResult;

use crate::log::Entry;
use crate::log::TeamRoundOn;
use crate::refusal::TournamentError;

use super::rounds::{board_result_of, game_result_of};
use super::Actor;
use crate::ports::Host;

impl<H: Host> Actor<H> {
    /// Online, each second: the last round's games start once its line-up deadline passes.
    pub(super) async fn team_tick(&mut self, now: u64) -> Result<(), TournamentError> {
        if self.tour.settings.over_the_board || self.tour.book.status != TournamentStatus::Running {
            return Ok(());
        }
        let Some(team) = &self.tour.book.team else { return Ok(()) };
        let deadline_ms = team.settings.lineup_deadline_s * 1000;
        let Some(last) = team.rounds.last() else { return Ok(()) };
        if last.on || now < last.paired_at + deadline_ms {
            return Ok(());
        }
        let round = team.rounds.len() as u32;
        self.record(Entry::TeamRoundOn(TeamRoundOn { round }), None, None).await?;
        self.create_team_games().await
    }

    /// The live game of every board of the round on that has no result, each once (its id is
    /// derived from the round, the match and the board).
    pub(super) async fn create_team_games(&mut self) -> Result<(), TournamentError> {
        if self.tour.settings.over_the_board || self.tour.book.status != TournamentStatus::Running {
            return Ok(());
        }
        let Some(team) = &self.tour.book.team else { return Ok(()) };
        let Some(last) = team.rounds.last().filter(|r| r.on) else { return Ok(()) };
        let round = team.rounds.len() as u32;
        let boards = team.settings.boards;
        let mut games = Vec::new();
        for (m, number) in last.matches.iter().zip(1..) {
            for (result, board) in m.results.iter().zip(1..) {
                if result.is_some() {
                    continue;
                }
                let Some(players) = team.board_players(round, number, board) else { continue };
                let [white, black] = players.map(|(t, position)| {
                    let entry = &team.teams[t.index()];
                    let user_id = entry.accounts.get(position).copied().flatten().map(UserId);
                    Player {
                        kind: if user_id.is_some() {
                            PlayerKind::User
                        } else {
                            PlayerKind::Anonymous
                        },
                        user_id,
                        name: entry.team.roster()[position].name.clone(),
                        engine_level: None,
                    }
                });
                // The round's boards numbered through its matches: match 2's board 1 is
                // board `boards + 1` of the round, as the store's tournament games list them.
                let flat = (number - 1) * boards + board;
                games.push((self.tour.team_game(round, number, board), white, black, flat));
            }
        }
        let time_control = self.tour.settings.time_control();
        for (id, white, black, flat) in games {
            self.create_game_at(id, white, black, (Some(round), flat), time_control.clone())
                .await?;
        }
        Ok(())
    }

    /// A board's game ended: its result is the board's, unless the arbiter's came first.
    pub(super) async fn team_game_ended(
        &mut self,
        (round, number, board): (u32, u32, u32),
        outcome: Outcome,
    ) -> Result<(), TournamentError> {
        let Some(team) = &self.tour.book.team else { return Ok(()) };
        if !matches!(team.board(round, number, board), Ok(None)) {
            return Ok(()); // recorded already (a restart tells every ended game again)
        }
        let Some(result) = board_result_of(&outcome) else { return Ok(()) };
        self.team_result(None, (round, number, board), result, None).await
    }

    /// The arbiter's result for a board whose game is still played ends the game with it.
    pub(super) async fn team_board_decided(
        &mut self,
        (round, number, board): (u32, u32, u32),
        result: BoardResult,
    ) {
        let live = self.tour.team_game(round, number, board);
        if self.host().is_live(&live) {
            let outcome = Outcome {
                result: game_result_of(result),
                termination: Termination::ArbiterDecision,
            };
            self.host().act(&live, rookery_protocol::GameAction::Adjudicate(outcome)).await;
        }
    }
}
