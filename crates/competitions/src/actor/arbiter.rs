//! The arbiter's decisions (docs/api.md, *Arbiter*; RULES.md §12): each checked, stored with
//! its reason, then carried out on the games (time added, a result declared, colours turned
//! round, a round unpaired).

use rookery_arbiter::{GameResult, Outcome, Termination};
use rookery_store::TournamentStatus;
use rookery_tournament::competition::{Action, RoundState};

use crate::log::{self, Entry};
use crate::message::TournamentMessage;
use crate::refusal::{PairSide, TournamentError, TournamentRefusal};
use crate::settings::Format;
use crate::view::{RoundStateName, RoundView};
use crate::Who;
use rookery_protocol::{GameAction, GameId};

use super::rounds::game_result_of;
use super::{Actor, ArbiterAction};
use crate::ports::{Acted, Host};

impl<H: Host> Actor<H> {
    pub(super) async fn arbiter(
        &mut self,
        who: &Who,
        action: ArbiterAction,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let by = Some(who);
        let comp = |a: Action| Entry::of_action(a, None);
        if self.tour.settings.format == Format::Knockout {
            match action {
                ArbiterAction::Pair
                | ArbiterAction::Publish { .. }
                | ArbiterAction::Unpair { .. }
                | ArbiterAction::Bye { .. }
                | ArbiterAction::CancelBye { .. }
                | ArbiterAction::ForbidPair { .. }
                | ArbiterAction::AllowPair { .. }
                | ArbiterAction::AddTime { .. }
                | ArbiterAction::SwapColours { .. }
                | ArbiterAction::Incident { .. } => return Err(super::knockout::NO_ROUNDS.into()),
                ArbiterAction::Withdraw { .. } | ArbiterAction::Reinstate { .. }
                    if self.knockout_started() =>
                {
                    return Err(super::knockout::NO_WITHDRAWAL.into())
                }
                ArbiterAction::Enter { round, board, result, game } => {
                    return self.enter_knockout(by, (round, board), result, game, reason).await
                }
                ArbiterAction::Result { round, board, result } => {
                    return self.declare_knockout(by, (round, board), result, reason).await
                }
                ArbiterAction::Lots { round, board, winner } => {
                    return self.knockout_lots(by, (round, board), &winner, reason).await
                }
                _ => {}
            }
        }
        match action {
            ArbiterAction::Start => self.start(by).await?,
            ArbiterAction::Pair => {
                if self.tour.settings.format == Format::Arena {
                    return Err(TournamentRefusal::ArenaPairsItself.into());
                }
                if self.tour.book.status != TournamentStatus::Running {
                    return Err(TournamentRefusal::NotStarted.into());
                }
                self.pair(by).await?;
            }
            ArbiterAction::Publish { round } => {
                self.record(self.publish_entry(round), by, reason).await?;
                self.round_published(round).await?;
            }
            ArbiterAction::Unpair { round } => self.unpair(by, round, reason).await?,
            ArbiterAction::Withdraw { player, round } => {
                let entrant = self.entrant(&player)?;
                let from_round = round.unwrap_or_else(|| self.tour.book.comp.next_round());
                self.record(comp(Action::Withdraw { entrant, from_round }), by, reason).await?;
            }
            ArbiterAction::Reinstate { player } => {
                let entrant = self.entrant(&player)?;
                self.record(comp(Action::Reinstate { entrant }), by, reason).await?;
            }
            ArbiterAction::Bye { player, round, kind } => {
                let entrant = self.entrant(&player)?;
                let bye = Action::Bye { entrant, round, kind, requested: true };
                self.record(comp(bye), by, reason).await?;
            }
            ArbiterAction::CancelBye { player, round } => {
                let entrant = self.entrant(&player)?;
                self.record(comp(Action::CancelBye { entrant, round }), by, reason).await?;
            }
            ArbiterAction::ForbidPair { a, b } => {
                let a =
                    self.entrant(&a).map_err(|_| TournamentRefusal::UnknownOfPair(PairSide::A))?;
                let b =
                    self.entrant(&b).map_err(|_| TournamentRefusal::UnknownOfPair(PairSide::B))?;
                self.record(comp(Action::ForbidPair { a, b }), by, reason).await?;
            }
            ArbiterAction::AllowPair { a, b } => {
                let a =
                    self.entrant(&a).map_err(|_| TournamentRefusal::UnknownOfPair(PairSide::A))?;
                let b =
                    self.entrant(&b).map_err(|_| TournamentRefusal::UnknownOfPair(PairSide::B))?;
                let forbidden = self.tour.book.comp.forbidden_pairs();
                if !forbidden.contains(&(a, b)) && !forbidden.contains(&(b, a)) {
                    return Err(TournamentRefusal::NotForbidden.into());
                }
                self.record(comp(Action::AllowPair { a, b }), by, reason).await?;
            }
            ArbiterAction::AddTime { round, board, color, seconds } => {
                self.board(round, board)?;
                let game = self.tour.board_game(round, board);
                let ms = seconds * 1000;
                match self.host().act(&game, GameAction::AddTime { color, ms }).await {
                    Acted::Done => {}
                    Acted::Refused(refusal) => {
                        return Err(TournamentRefusal::TimeRefused(refusal).into())
                    }
                    Acted::NotLive => return Err(TournamentRefusal::GameOver.into()),
                }
                self.record(Entry::AddTime(log::AddTime { round, board, color, ms }), by, reason)
                    .await?;
            }
            ArbiterAction::Lots { .. } => {
                return Err(TournamentRefusal::WrongFormat(
                    "only a knockout has matches for the arbiter to decide",
                )
                .into())
            }
            ArbiterAction::Enter { game: Some(_), .. } => {
                return Err(TournamentRefusal::WrongFormat(
                    "only a knockout's match has games: a board has one",
                )
                .into())
            }
            ArbiterAction::Enter { round, board, result, game: None } => {
                if !self.tour.settings.over_the_board {
                    return Err(TournamentRefusal::PlayedOnline.into());
                }
                if self.board(round, board)?.result.is_some() {
                    return Err(TournamentRefusal::HasResult.into());
                }
                self.enter_board_result(by, (round, board), result, reason, true).await?;
            }
            ArbiterAction::Undo { round, board, result } => {
                self.undo(by, (round, board), result).await?
            }
            ArbiterAction::Result { round, board, result } => {
                self.record(comp(Action::Result { round, board, result }), by, reason).await?;
                // Over the board the board's game record is the desk's entry: corrected too.
                if self.tour.settings.over_the_board {
                    self.record_board_game(round, board, result).await?;
                }
                self.result_told(round, board, result, true);
                // A game still being played ends with the arbiter's decision.
                let game = self.tour.board_game(round, board);
                if self.host().is_live(&game) {
                    let result = game_result_of(result);
                    let outcome = Outcome { result, termination: Termination::ArbiterDecision };
                    self.host().act(&game, GameAction::Adjudicate(outcome)).await;
                }
                self.after_result(by).await?;
            }
            ArbiterAction::SwapColours { round, board } => {
                self.swap(by, round, board, reason).await?
            }
            ArbiterAction::Import { entries } => self.import_roster(by, entries).await?,
            ArbiterAction::Guest { name, rating, title } => {
                self.add_guest(by, name, rating, title).await?
            }
            ArbiterAction::CheckIn { players, present } => {
                self.check_in(by, players, present).await?
            }
            ArbiterAction::FixBoard { player, board } => self.fix_board(by, player, board).await?,
            ArbiterAction::Link { player, account } => self.link(by, player, account).await?,
            ArbiterAction::Incident { round, board, report, decision } => {
                self.incident(by, (round, board), report, decision, reason).await?
            }
            ArbiterAction::Team { .. }
            | ArbiterAction::Captain { .. }
            | ArbiterAction::LineUp { .. }
            | ArbiterAction::TeamEnter { .. }
            | ArbiterAction::TeamResult { .. }
            | ArbiterAction::TeamAbsent { .. }
            | ArbiterAction::ForbidTeamPair { .. }
            | ArbiterAction::AllowTeamPair { .. } => {
                return Err(TournamentRefusal::WrongFormat("only a team event has teams").into())
            }
            ArbiterAction::End => self.record(Entry::End(log::Empty {}), by, reason).await?,
            ArbiterAction::Cancel => self.record(Entry::Cancel(log::Empty {}), by, reason).await?,
        }
        Ok(())
    }

    pub(super) async fn unpair(
        &mut self,
        by: Option<&Who>,
        round: u32,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let published = self
            .tour
            .book
            .comp
            .rounds()
            .get((round as usize).wrapping_sub(1))
            .is_some_and(|r| r.state != RoundState::Paired);
        if published {
            let games = self.store().tournament_games(&self.tour.row.id).await?;
            if games.iter().any(|g| g.round == Some(round) && (g.moves > 0 || g.result.is_some())) {
                return Err(TournamentRefusal::RoundStarted(round).into());
            }
        }
        self.record(Entry::of_action(Action::Unpair { round }, None), by, reason).await?;
        self.remove_stale_games().await?;
        self.broadcast(&TournamentMessage::RoundPaired(RoundView {
            round,
            state: RoundStateName::Unpaired,
            bye: None,
            absent: None,
            boards: Vec::new(),
            chess960: None,
        }));
        Ok(())
    }

    /// Deletes the unstarted games of rounds that are no longer paired (an unpairing, or a
    /// crash in the middle of one).
    pub(super) async fn remove_stale_games(&mut self) -> Result<(), TournamentError> {
        // A knockout's games belong to its matches, a team event's to its boards, never to a
        // paired round of the competition: none is stale.
        if self.tour.settings.format == Format::Knockout || self.tour.settings.format.is_team() {
            return Ok(());
        }
        let games = self.store().tournament_games(&self.tour.row.id).await?;
        for g in games {
            let Some(round) = g.round else { continue };
            let current = self.tour.book.comp.rounds().get(round as usize - 1).is_some_and(|r| {
                r.state != RoundState::Paired && (g.board as usize) <= r.boards.len()
            }) && self.tour.board_game(round, g.board).as_str() == g.id;
            if current || g.status != rookery_store::GameStatus::Live {
                continue;
            }
            let Some(id) = GameId::parse(&g.id) else { continue };
            if self.host().is_live(&id) {
                if g.moves > 0 {
                    continue;
                }
                self.host().stop(&id).await;
            }
            self.store().delete_unstarted_game(&g.id).await?;
        }
        Ok(())
    }

    pub(super) async fn swap(
        &mut self,
        by: Option<&Who>,
        round: u32,
        board: u32,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let b = self.board(round, board)?;
        if b.result.is_some() {
            return Err(TournamentRefusal::HasResult.into());
        }
        let old = self.tour.board_game(round, board);
        // RULES.md §12: restarted with the right colours unless a quarter of the first
        // period's time has been used (by either side).
        let initial = self.tour.settings.time_control().initial_ms().unwrap_or(0);
        let used = match self.host().clocks(&old).await {
            Some(left) => {
                let w = initial.saturating_sub(left.white.unwrap_or(initial));
                let bl = initial.saturating_sub(left.black.unwrap_or(initial));
                w.max(bl)
            }
            None => 0,
        };
        if used * 4 >= initial && initial > 0 {
            self.record(Entry::SwapDeclined(log::BoardRef { round, board }), by, reason).await?;
            return Err(TournamentRefusal::QuarterUsed.into());
        }
        if self.tour.book.restarted.contains(&(round, board)) {
            return Err(TournamentRefusal::RestartedOnce.into());
        }
        self.record(Entry::of_action(Action::SwapColours { round, board }, None), by, reason)
            .await?;
        if self.host().is_live(&old) {
            let outcome =
                Outcome { result: GameResult::NoResult, termination: Termination::Aborted };
            self.host().act(&old, GameAction::Adjudicate(outcome)).await;
        }
        let b = self.board(round, board)?;
        let (white, black) = (self.tour.player_of(b.white), self.tour.player_of(b.black));
        self.create_game(self.tour.board_game(round, board), white, black, Some(round), board)
            .await?;
        self.round_told(round);
        Ok(())
    }
}
