//! A knockout's life (RULES.md §12, *Knockout*; issue 54): the bracket seeded at the start,
//! each match game's result entered from the board, a level match decided by the arbiter, the
//! end when the final is decided. The bracket and every match's state machine are the pure
//! crate's ([`rookery_tournament::knockout`]); here they are stored and told.

use rookery_tournament::competition::{BoardResult, EntrantId};

use crate::knockout::seeds;
use crate::log::{self, Entry};
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::Who;

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
        self.record(Entry::KnockoutSeeded(seeds(&playing)), by, None).await
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
        self.knockout_over(by).await
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
