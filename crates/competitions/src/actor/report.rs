//! Results from the players' phones (issue 53; RULES.md §12, "Over the board"): each player
//! of a board reports how it ended; the same report from both is the board's result, entered
//! as the desk would enter it; different reports leave the board to the arbiter, who sees
//! both and enters the result (the desk's entry always decides). A player may change a report
//! until the result is in.

use rookery_core::Color;
use rookery_tournament::competition::BoardResult;

use crate::log::{self, Entry};
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::settings::Format;
use crate::Who;

use super::Actor;
use crate::ports::Host;

/// The reason written with a result both players reported.
pub(crate) const CONFIRMED: &str = "reported by both players";

impl<H: Host> Actor<H> {
    /// `who` reports `result` for board `round.board`, theirs.
    pub(super) async fn report(
        &mut self,
        who: &Who,
        (round, board): (u32, u32),
        result: BoardResult,
    ) -> Result<(), TournamentError> {
        if !self.tour.settings.over_the_board {
            return Err(TournamentRefusal::PlayedOnline.into());
        }
        if self.tour.settings.format == Format::Knockout {
            return Err(TournamentRefusal::WrongFormat(
                "a knockout's games are entered at the desk, game by game",
            )
            .into());
        }
        let b = self.board(round, board)?;
        let me = self.entrant(&who.name).ok();
        let color = match me {
            Some(e) if e == b.white => Color::White,
            Some(e) if e == b.black => Color::Black,
            _ => {
                let player = who.name.clone();
                return Err(TournamentRefusal::NotOnBoard { player, round, board }.into());
            }
        };
        let said = self.tour.book.reports.get(&(round, board)).copied().unwrap_or_default();
        if said[color] == Some(result) && b.result.is_none() {
            return Ok(());
        }
        let report = log::Report { round, board, color, result };
        self.record(Entry::Report(report), Some(who), None).await?;
        if said[!color] == Some(result) {
            let confirmed = Some(CONFIRMED.to_owned());
            self.enter_board_result(None, (round, board), result, confirmed, false).await?;
        }
        Ok(())
    }
}
