//! Correction history (Stockfish's `correctionHistory`, after Ethereal and Caissa): how far
//! the search's values have lately strayed from the static evaluation in positions with the
//! same pawn structure and side to move. The static evaluation misjudges some structures
//! consistently (a pawn storm it underrates, a blockade it overrates); the search sees the
//! error, and the correction carries it over to the pruning decisions of the next node with
//! that structure.

use rookery_core::{Board, Color, Role};

/// Entries per side (a power of two).
const SIZE: usize = 16_384;
/// Corrections are kept in 1/`GRAIN` centipawns.
const GRAIN: i32 = 256;
/// The weights of a new error and of the old average sum to `SCALE`.
const SCALE: i32 = 256;
/// No correction exceeds this many centipawns.
const LIMIT: i32 = 64;

/// Per-thread corrections by side to move and pawn structure.
pub(crate) struct Correction {
    table: [[i32; SIZE]; 2],
}

/// The slot of a pawn structure: a mix of both sides' pawn sets (splitmix64's finaliser),
/// folded to the table size.
#[inline]
fn slot(board: &Board) -> usize {
    let white = board.by_piece(Role::Pawn.of(Color::White)).0;
    let black = board.by_piece(Role::Pawn.of(Color::Black)).0;
    let mut x = white ^ black.rotate_left(29).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^= x >> 31;
    x as usize & (SIZE - 1)
}

impl Correction {
    /// No corrections.
    pub(crate) fn new() -> Correction {
        Correction { table: [[0; SIZE]; 2] }
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.table = [[0; SIZE]; 2];
    }

    /// The static evaluation `eval` of a position of `board` with `turn` to move, corrected.
    #[inline]
    pub(crate) fn apply(&self, board: &Board, turn: Color, eval: i32) -> i32 {
        eval + self.table[turn.index()][slot(board)] / GRAIN
    }

    /// Learns that a search to `depth` valued a position whose static evaluation is `eval`
    /// at `value`: the deeper the search, the more it counts.
    pub(crate) fn update(&mut self, board: &Board, turn: Color, depth: i32, eval: i32, value: i32) {
        let entry = &mut self.table[turn.index()][slot(board)];
        let error = (value - eval).clamp(-LIMIT, LIMIT) * GRAIN;
        let weight = (depth + 1).min(16);
        *entry = (*entry * (SCALE - weight) + error * weight) / SCALE;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_core::Position;

    #[test]
    fn corrections_follow_the_search_and_stay_bounded() {
        let pos = Position::new();
        let board = pos.board();
        let mut correction = Correction::new();
        assert_eq!(correction.apply(board, Color::White, 10), 10);
        for _ in 0..1_000 {
            correction.update(board, Color::White, 20, 10, 500);
        }
        let corrected = correction.apply(board, Color::White, 10);
        assert!(corrected > 10 + LIMIT / 2 && corrected <= 10 + LIMIT, "{corrected}");
        // The other side to move and other structures learned nothing.
        assert_eq!(correction.apply(board, Color::Black, 10), 10);
        let other: Position = "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1".parse().unwrap();
        assert_eq!(correction.apply(other.board(), Color::White, 10), 10);
        correction.clear();
        assert_eq!(correction.apply(board, Color::White, 10), 10);
    }
}
