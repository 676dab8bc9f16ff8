//! An incident at a board of an over-the-board tournament (RULES.md §12, *Over the board*;
//! issue 53): checked against the board, recorded with the arbiter's decision and reason, and
//! a loss it decides entered as the desk's `enter` would.

use rookery_arbiter::IllegalMovePolicy;
use rookery_core::Color;
use rookery_tournament::competition::{Action, BoardResult};

use crate::log::{self, Entry, IncidentKind, Penalty};
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::request::IncidentReport;
use crate::Who;

use super::Actor;
use crate::ports::Host;

impl<H: Host> Actor<H> {
    pub(super) async fn incident(
        &mut self,
        by: Option<&Who>,
        (round, board): (u32, u32),
        report: IncidentReport,
        decision: String,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        if !self.tour.settings.over_the_board {
            return Err(TournamentRefusal::PlayedOnline.into());
        }
        let b = self.board(round, board)?;
        let color_of = |player: &str| -> Result<Color, TournamentError> {
            let not_on_board =
                || TournamentRefusal::NotOnBoard { player: player.to_owned(), round, board };
            let e = self.entrant(player).map_err(|_| not_on_board())?;
            if e == b.white {
                Ok(Color::White)
            } else if e == b.black {
                Ok(Color::Black)
            } else {
                Err(not_on_board().into())
            }
        };
        let what = match report {
            IncidentReport::IllegalMove { player } => {
                let color = color_of(&player)?;
                self.illegal_move(round, board, color)
            }
            IncidentReport::TimeAdded { player, seconds } => {
                IncidentKind::TimeAdded { color: color_of(&player)?, seconds }
            }
            IncidentReport::ColourMixup { before_quarter } => {
                IncidentKind::ColourMixup { before_quarter }
            }
            IncidentReport::IrregularityAfter => IncidentKind::IrregularityAfter,
            IncidentReport::Misconduct { player, what, sanction } => {
                IncidentKind::Misconduct { color: color_of(&player)?, what, sanction }
            }
        };
        self.record(Entry::Incident(log::Incident { round, board, what, decision }), by, reason)
            .await?;
        // A loss decided is entered as the desk enters a result, unless the board has one.
        match what.loser() {
            Some(loser) if b.result.is_none() => {
                let result = match loser {
                    Color::White => BoardResult::BlackWon,
                    Color::Black => BoardResult::WhiteWon,
                };
                let entry = Entry::of_action(Action::Result { round, board, result }, None);
                self.record(entry, by, None).await?;
                self.record_board_game(round, board, result).await?;
                self.result_told(round, board, result, true);
                self.after_result(by).await?;
            }
            _ => self.round_told(round),
        }
        Ok(())
    }

    /// The illegal move's count for the player in this game and its penalty under the
    /// tournament's rule set (RULES.md §8.4): `seed` loses at its limit (the third); `fide`
    /// adds time to the opponent for the first (2 minutes, 1 in rapid and blitz: FIDE
    /// Appendix A.4.2) and loses at the second (FIDE 7.5.5; the dead-position draw of 7.5.5
    /// is the arbiter's to declare with `result`, the site not knowing the position).
    fn illegal_move(&self, round: u32, board: u32, color: Color) -> IncidentKind {
        let earlier = self.tour.book.incidents.get(&(round, board)).map_or(0, |list| {
            list.iter()
                .filter(
                    |i| matches!(i.what, IncidentKind::IllegalMove { color: c, .. } if c == color),
                )
                .count()
        });
        let count = earlier as u32 + 1;
        let rules = self.tour.settings.rules();
        let (penalty, added_ms) = match rules.illegal_moves {
            IllegalMovePolicy::RejectOnly => (Penalty::None, None),
            IllegalMovePolicy::Strikes { limit } if count >= u32::from(limit) => {
                (Penalty::Loss, None)
            }
            IllegalMovePolicy::Strikes { .. } => (Penalty::None, None),
            IllegalMovePolicy::Fide if count >= 2 => (Penalty::Loss, None),
            IllegalMovePolicy::Fide => match rules.penalty_ms(&self.tour.settings.time_control()) {
                Some(ms) => (Penalty::TimeAdded, Some(ms)),
                None => (Penalty::None, None),
            },
        };
        IncidentKind::IllegalMove { color, count, penalty, added_ms }
    }
}
