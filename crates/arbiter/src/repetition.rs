//! Repetition of positions (RULES.md §6.3, §6.5): the same placement, side to move, castling
//! rights and en passant possibility (counted only when an en passant capture is legal),
//! tracked by each position's [`Position::repetition_key`].

use rookery_core::Position;

/// The positions of a game, the start included, for counting repetitions.
///
/// Only positions since the last capture or pawn move can repeat the current one, so counts
/// look back as far as the halfmove clock says and no further.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Repetitions {
    keys: Vec<u64>,
}

impl Repetitions {
    /// The history of a game starting at `start`.
    pub fn new(start: &Position) -> Repetitions {
        Repetitions { keys: vec![start.repetition_key()] }
    }

    /// Starts again from `start`, keeping the memory: a reader of many games needs one
    /// history, not one allocation (and its growth) a game.
    pub fn restart(&mut self, start: &Position) {
        self.keys.clear();
        self.keys.push(start.repetition_key());
    }

    /// Records the position after a move.
    pub fn push(&mut self, pos: &Position) {
        self.keys.push(pos.repetition_key());
    }

    /// Forgets the last position (a takeback).
    pub fn pop(&mut self) {
        if self.keys.len() > 1 {
            self.keys.pop();
        }
    }

    /// The number of positions recorded, the start included.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// `true` when nothing is recorded (never after [`Repetitions::new`]).
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The indices (0 = the start) of the recorded positions equal to `pos` that can still
    /// repeat it: those since the last capture or pawn move.
    fn window(&self, pos: &Position) -> impl Iterator<Item = usize> + '_ {
        let key = pos.repetition_key();
        let from = self.keys.len().saturating_sub(pos.halfmoves() as usize + 1);
        (from..self.keys.len()).filter(move |&i| self.keys[i] == key)
    }

    /// How often `pos` occurs among the recorded positions (the current position, once
    /// pushed, counts itself).
    pub fn count(&self, pos: &Position) -> usize {
        self.window(pos).count()
    }

    /// The index of the first occurrence of `pos` (0 = the start; ply `i` leads to position
    /// `i`), for perpetual check (§6.3).
    pub fn first_occurrence(&self, pos: &Position) -> Option<usize> {
        self.window(pos).next()
    }

    /// `count` as if `pos` were pushed next (for a claim with an intended move, FIDE 9.2).
    pub fn count_if_pushed(&self, pos: &Position) -> usize {
        self.count(pos) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_a_knight_dance() {
        let mut pos = Position::new();
        let mut reps = Repetitions::new(&pos);
        for uci in ["g1f3", "g8f6", "f3g1", "f6g8", "g1f3", "g8f6", "f3g1", "f6g8"] {
            pos.play_unchecked(pos.parse_uci(uci).unwrap());
            reps.push(&pos);
        }
        assert_eq!(reps.count(&pos), 3, "the start position, twice more");
        assert_eq!(reps.first_occurrence(&pos), Some(0));
        reps.pop();
        assert_eq!(reps.len(), 8);
        // A new game from the same start: nothing of the dance is left.
        reps.restart(&Position::new());
        assert_eq!((reps.len(), reps.count(&Position::new())), (1, 1));
    }

    #[test]
    fn an_irreversible_move_closes_the_window() {
        let mut pos: Position = "4k3/8/8/8/8/8/4P3/4K3 w - - 99 60".parse().unwrap();
        let mut reps = Repetitions::new(&pos);
        pos.play_unchecked(pos.parse_uci("e2e4").unwrap());
        reps.push(&pos);
        assert_eq!(reps.count(&pos), 1);
        assert_eq!(pos.halfmoves(), 0);
    }
}
