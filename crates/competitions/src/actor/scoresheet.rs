//! A board's moves typed from its paper scoresheet (issue 53; RULES.md §12, "Over the
//! board"): who may type them, the checks the server makes again whatever the page checked,
//! and the record written in place of the moves it had.

use rookery_tournament::competition::Board;

use crate::board_record::{read_board_moves, start_of, SavedRecord};
use crate::ports::Host;
use crate::refusal::{TournamentError, TournamentRefusal};
use crate::Who;

use super::rounds::game_result_of;
use super::Actor;

impl<H: Host> Actor<H> {
    /// Saves the moves typed for a board that has a played result: the record's moves are
    /// replaced (a second save is a correction), its result and §11 points are left as the
    /// desk's entry made them.
    pub(super) async fn type_moves(
        &mut self,
        who: &Who,
        (round, board): (u32, u32),
        text: &str,
    ) -> Result<SavedRecord, TournamentError> {
        if !self.tour.settings.over_the_board {
            return Err(TournamentRefusal::PlayedOnline.into());
        }
        let b = self.board(round, board)?;
        if !self.may_type(who, &b) {
            return Err(TournamentRefusal::NotYourBoard { round, board }.into());
        }
        let result = b.result.ok_or(TournamentRefusal::NoResultYet { round, board })?;
        if !result.is_played() {
            return Err(TournamentRefusal::ForfeitBoard { round, board }.into());
        }
        let start = start_of(self.tour.book.chess960_starts.get(&round).copied());
        let moves = read_board_moves(&start, text, result)?;
        // The record exists once the result is entered; a crash in between is repaired here
        // as at a restart.
        self.record_board_game(round, board, result).await?;
        let id = self.tour.board_game(round, board).to_string();
        let pgn = self.board_record_pgn((round, board), game_result_of(result), &moves)?;
        // Unfenced, as the record's finish (`record_board_game`): a board's game is served by
        // no node; this actor, the tournament's one writer, has checked it.
        if !self.store().replace_record(&id, &pgn).await? {
            return Err(TournamentError::Games(format!("game {id} has no finished record")));
        }
        Ok(SavedRecord { game: id, plies: moves.len(), pgn })
    }

    /// The arbiter, or one of the board's two players when both have accounts.
    fn may_type(&self, who: &Who, b: &Board) -> bool {
        if who.user_id == self.tour.row.created_by {
            return true;
        }
        let (white, black) = (self.tour.player_of(b.white), self.tour.player_of(b.black));
        match (white.user_id, black.user_id) {
            (Some(w), Some(bl)) => who.user_id == w || who.user_id == bl,
            _ => false,
        }
    }
}
