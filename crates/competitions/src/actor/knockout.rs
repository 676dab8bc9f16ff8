//! A knockout's life (RULES.md §12, *Knockout*; issue 54): the bracket seeded at the start,
//! each match game's result entered from the board, a level match decided by the arbiter, the
//! end when the final is decided. The bracket and every match's state machine are the pure
//! crate's ([`rookery_tournament::knockout`]); here they are stored and told.

use rookery_arbiter::{Outcome, Termination};
use rookery_store::TournamentStatus;
use rookery_tournament::competition::{BoardResult, EntrantId};

use crate::knockout::seeds;
use crate::log::{self, Entry};
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::Who;

use super::rounds::{board_result_of, game_result_of};
use super::Actor;
use crate::ports::Host;

/// The arbiter's actions that belong to rounds of a pairing system, which a knockout has not.
pub(super) const NO_ROUNDS: TournamentRefusal = TournamentRefusal::WrongFormat(
    "a knockout has matches, not paired rounds: enter each match game's result",
);

/// A withdrawal once the bracket is seeded: the player's match is lost by forfeit instead.
pub(super) const NO_WITHDRAWAL: TournamentRefusal = TournamentRefusal::WrongFormat(
    "the bracket is seeded: a knockout player who withdraws forfeits the match (+- or -+)",
);

impl<H: Host> Actor<H> {
    /// Seeds the bracket from the entrants playing (checked in, not withdrawn), by rating.
    pub(super) async fn seed_knockout(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let comp = &self.tour.book.comp;
        let playing: Vec<(EntrantId, Option<u16>)> = comp
            .entrants()
            .iter()
            .enumerate()
            .map(|(i, e)| (EntrantId(i as u32), e))
            .filter(|(id, e)| comp.is_present(*id) && e.withdrawn_from.is_none())
            .map(|(id, e)| (id, e.rating))
            .collect();
        self.record(Entry::KnockoutSeeded(seeds(&playing)), by, None).await?;
        self.create_knockout_games().await
    }

    /// Online: the live game of each match's next game in the round on, each once (its id is
    /// derived from the match and the game), at its stage's time control.
    pub(super) async fn create_knockout_games(&mut self) -> Result<(), TournamentError> {
        if self.tour.settings.over_the_board || self.tour.book.status != TournamentStatus::Running {
            return Ok(());
        }
        let Some(knockout) = &self.tour.book.knockout else { return Ok(()) };
        for (id, next, [white, black]) in knockout.to_play() {
            // Checked at creation: a stage's clock is a time control, and an online knockout
            // has no Armageddon game (one clock for both sides).
            let time_control =
                next.time_control.parse().map_err(|_| TournamentError::Settings {
                    tournament: self.tour.row.id.clone(),
                    error: format!("match {id}: {:?} is not a time control", next.time_control),
                })?;
            let game = self.tour.knockout_game(id.round, id.number, next.game);
            let (white, black) = (self.tour.player_of(white), self.tour.player_of(black));
            self.create_game_at(game, white, black, (Some(id.round), id.number), time_control)
                .await?;
        }
        Ok(())
    }

    /// A live match game ended: its result is the match's, unless the arbiter's came first.
    pub(super) async fn knockout_game_ended(
        &mut self,
        (round, number, game): (u32, u32, u32),
        outcome: Outcome,
    ) -> Result<(), TournamentError> {
        let Some(knockout) = &self.tour.book.knockout else { return Ok(()) };
        if knockout.next_game(round, number).map(|n| n.game) != Ok(game) {
            return Ok(()); // recorded already (a restart tells every ended game again)
        }
        let Some(result) = board_result_of(&outcome) else { return Ok(()) };
        let entry = Entry::KnockoutResult(log::KnockoutResult { round, number, game, result });
        self.record(entry, None, None).await?;
        self.knockout_over(None).await?;
        self.create_knockout_games().await
    }

    /// A match game's result from the board: game `game` (the next if not given) of match
    /// `round.number`.
    pub(super) async fn enter_knockout(
        &mut self,
        by: Option<&Who>,
        (round, number): (u32, u32),
        result: BoardResult,
        game: Option<u32>,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        if !self.tour.settings.over_the_board {
            return Err(TournamentRefusal::PlayedOnline.into());
        }
        let knockout = self.tour.book.knockout.as_ref().ok_or(TournamentRefusal::NotStarted)?;
        let next = knockout.next_game(round, number)?;
        let game = game.unwrap_or(next.game);
        let entry = Entry::KnockoutResult(log::KnockoutResult { round, number, game, result });
        self.record(entry, by, reason).await?;
        self.knockout_over(by).await
    }

    /// Online: the arbiter declares the result of a match's next game (a game decided at the
    /// board, a player who did not come): recorded with the reason, then the live game ends
    /// with it. Over the board the desk enters results (`enter`); a match's recorded game is
    /// never rewritten (the match went on from it).
    pub(super) async fn declare_knockout(
        &mut self,
        by: Option<&Who>,
        (round, number): (u32, u32),
        result: BoardResult,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        if self.tour.settings.over_the_board {
            return Err(TournamentRefusal::WrongFormat(
                "over the board a knockout game's result is entered (enter), and stands",
            )
            .into());
        }
        let knockout = self.tour.book.knockout.as_ref().ok_or(TournamentRefusal::NotStarted)?;
        let game = knockout.next_game(round, number)?.game;
        let entry = Entry::KnockoutResult(log::KnockoutResult { round, number, game, result });
        self.record(entry, by, reason).await?;
        let live = self.tour.knockout_game(round, number, game);
        if self.host().is_live(&live) {
            let result = game_result_of(result);
            let outcome = Outcome { result, termination: Termination::ArbiterDecision };
            self.host().act(&live, rookery_protocol::GameAction::Adjudicate(outcome)).await;
        }
        self.knockout_over(by).await?;
        self.create_knockout_games().await
    }

    /// A match level after every stage decided for `winner`.
    pub(super) async fn knockout_lots(
        &mut self,
        by: Option<&Who>,
        (round, number): (u32, u32),
        winner: &str,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let winner = self.entrant(winner)?.0;
        let entry = Entry::KnockoutLots(log::KnockoutLots { round, number, winner });
        self.record(entry, by, reason).await?;
        self.knockout_over(by).await?;
        self.create_knockout_games().await
    }

    /// The final decided ends the tournament.
    async fn knockout_over(&mut self, by: Option<&Who>) -> Result<(), TournamentError> {
        let decided = self.tour.book.knockout.as_ref().and_then(|k| k.champion()).is_some();
        if decided {
            self.record(Entry::End(log::Empty {}), by, None).await?;
        }
        Ok(())
    }
}
