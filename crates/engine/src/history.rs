//! What the search learned about quiet moves, for ordering them: the history heuristic
//! (Schaeffer 1989; CPW "History Heuristic"), countermoves (Uiterwijk 1992; CPW
//! "Countermove Heuristic") and killer moves (CPW "Killer Heuristic").

use rookery_core::{Color, Move, Piece};

/// History values stay within ±`HISTORY_MAX`.
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Per-thread statistics that outlive one search (cleared by a new game).
pub(crate) struct History {
    /// Butterfly history: by side, from square and to square.
    butterfly: [[[i16; 64]; 64]; 2],
    /// The move that last refuted a move, by the refuted move's piece and destination.
    counter: [[Option<Move>; 64]; 12],
}

/// The bonus for a move that caused a cutoff at `depth` (the malus for the quiet moves tried
/// before it is its negation).
pub(crate) fn bonus(depth: i32) -> i32 {
    (150 * depth - 100).clamp(0, 1_500)
}

fn piece_index(piece: Piece) -> usize {
    piece.color.index() * 6 + piece.role.index()
}

impl History {
    /// Empty statistics, on the heap (they are about 20 kB).
    pub(crate) fn new() -> Box<History> {
        Box::new(History { butterfly: [[[0; 64]; 64]; 2], counter: [[None; 64]; 12] })
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        *self = History { butterfly: [[[0; 64]; 64]; 2], counter: [[None; 64]; 12] };
    }

    /// The history value of a quiet move of `color`.
    #[inline]
    pub(crate) fn get(&self, color: Color, m: Move) -> i32 {
        i32::from(self.butterfly[color.index()][m.from().index()][m.to().index()])
    }

    /// Adds `bonus` with "gravity": the closer the value to the bound, the less it moves,
    /// so that values stay bounded and recent results weigh more (Stockfish's history update).
    pub(crate) fn update(&mut self, color: Color, m: Move, bonus: i32) {
        let entry = &mut self.butterfly[color.index()][m.from().index()][m.to().index()];
        let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
        let old = i32::from(*entry);
        let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
        *entry = new.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
    }

    /// The countermove to the previous move, which `piece` made to its destination.
    #[inline]
    pub(crate) fn counter(&self, previous: Option<(Piece, Move)>) -> Option<Move> {
        let (piece, m) = previous?;
        self.counter[piece_index(piece)][m.to().index()]
    }

    /// Records `refutation` as the answer to the previous move.
    pub(crate) fn set_counter(&mut self, previous: Option<(Piece, Move)>, refutation: Move) {
        if let Some((piece, m)) = previous {
            self.counter[piece_index(piece)][m.to().index()] = Some(refutation);
        }
    }

    /// Halves every value, so that a new search leans on recent results.
    pub(crate) fn age(&mut self) {
        for side in &mut self.butterfly {
            for from in side.iter_mut() {
                for value in from.iter_mut() {
                    *value /= 2;
                }
            }
        }
    }
}

/// Two killer moves per ply: quiet moves that caused a cutoff at the same ply elsewhere in
/// the tree.
#[derive(Clone, Copy, Default)]
pub(crate) struct Killers(pub(crate) [Option<Move>; 2]);

impl Killers {
    /// Records a cutoff move; the newest killer comes first.
    pub(crate) fn push(&mut self, m: Move) {
        if self.0[0] != Some(m) {
            self.0[1] = self.0[0];
            self.0[0] = Some(m);
        }
    }

    /// `true` if `m` is one of the killers.
    pub(crate) fn contains(&self, m: Move) -> bool {
        self.0[0] == Some(m) || self.0[1] == Some(m)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_core::Square;

    #[test]
    fn history_stays_bounded() {
        let mut history = History::new();
        let m = Move::normal(Square::E2, Square::E4);
        for _ in 0..1_000 {
            history.update(Color::White, m, bonus(20));
        }
        assert!(history.get(Color::White, m) <= HISTORY_MAX);
        assert!(history.get(Color::White, m) > HISTORY_MAX / 2);
        assert_eq!(history.get(Color::Black, m), 0);
        for _ in 0..1_000 {
            history.update(Color::White, m, -bonus(20));
        }
        assert!(history.get(Color::White, m) >= -HISTORY_MAX);
        assert!(history.get(Color::White, m) < 0);
    }

    #[test]
    fn killers_keep_two() {
        let (a, b, c) = (
            Move::normal(Square::A2, Square::A3),
            Move::normal(Square::B2, Square::B3),
            Move::normal(Square::C2, Square::C3),
        );
        let mut killers = Killers::default();
        killers.push(a);
        killers.push(a);
        killers.push(b);
        assert_eq!(killers.0, [Some(b), Some(a)]);
        killers.push(c);
        assert!(killers.contains(c) && killers.contains(b) && !killers.contains(a));
    }
}
