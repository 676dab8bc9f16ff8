//! What the search learned about quiet moves, for ordering them: the history heuristic
//! (Schaeffer 1989; CPW "History Heuristic"), continuation histories (the history of a move
//! as the answer to the move one and two plies before it: "counter-move history" and
//! "follow-up history", Stockfish's `continuationHistory`), countermoves (Uiterwijk 1992; CPW
//! "Countermove Heuristic") and killer moves (CPW "Killer Heuristic"); and, for captures, a
//! capture history by piece, destination and victim (Stockfish's `captureHistory`), which
//! orders captures of equal victims by how often they refuted.
//!
//! Every table is keyed by where the moving piece lands, which for castling is the king's
//! castling square (g1, c1, g8, c8) and not the move's `to()`: in Chess960 a castling move is
//! written as the king taking its own rook (`e1h1`, RULES.md §13), so keying by `to()` would
//! file the same castling under different cells in the two notations.

use rookery_core::{Color, Move, Piece, Role};

use crate::correction::Correction;

/// History values stay within ±`HISTORY_MAX`.
pub(crate) const HISTORY_MAX: i32 = 16_384;

/// Per-thread statistics that outlive one search (cleared by a new game).
pub(crate) struct History {
    /// The static evaluation's recent errors, by pawn structure ([`Correction`]).
    pub(crate) correction: Correction,
    /// Butterfly history: by side, from square and to square.
    butterfly: [[[i16; 64]; 64]; 2],
    /// The move that last refuted a move, by the refuted move's piece and destination.
    counter: [[Option<Move>; 64]; 12],
    /// Continuation history, flat: by an earlier move's piece and destination, then by this
    /// move's piece and destination (12 × 64 × 12 × 64 values, 1.2 MB, so on the heap).
    continuation: Vec<i16>,
    /// Capture history: by the capturing piece, the destination and the captured role.
    capture: [[[i16; 6]; 64]; 12],
}

/// The number of continuation-history values that follow one earlier move.
const CONTINUATION_ROW: usize = 12 * 64;

/// An earlier move of the search path, as a key into continuation history: where its row
/// of values starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct ContinuationKey(usize);

impl ContinuationKey {
    /// The key of the move `m`, made by `piece`.
    #[inline]
    pub(crate) fn new(piece: Piece, m: Move) -> ContinuationKey {
        ContinuationKey((piece_index(piece) * 64 + landing(piece.color, m)) * CONTINUATION_ROW)
    }
}

/// The index of the square where `color`'s move `m` puts the moving piece: its `to()`, but
/// the king's castling square for castling, whichever way the position writes it. So a
/// Chess960 search of a standard position fills the same cells as the standard search, and
/// standard chess, where the two agree, is keyed as before.
#[inline]
fn landing(color: Color, m: Move) -> usize {
    match m.castling_side() {
        Some(side) => side.king_to(color).index(),
        None => m.to().index(),
    }
}

/// The earlier moves a quiet move's continuation history is looked up by: the move one ply
/// before it and the move two plies before (`None` for a null move or before the root).
pub(crate) type Continuations = [Option<ContinuationKey>; 2];

/// Adds `bonus` to `entry` with "gravity": the closer the value to the bound, the less it
/// moves, so that values stay bounded and recent results weigh more (Stockfish's history
/// update).
#[inline]
fn nudge(entry: &mut i16, bonus: i32) {
    let bonus = bonus.clamp(-HISTORY_MAX, HISTORY_MAX);
    let old = i32::from(*entry);
    let new = old + bonus - old * bonus.abs() / HISTORY_MAX;
    *entry = new.clamp(-HISTORY_MAX, HISTORY_MAX) as i16;
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
    /// Empty statistics, on the heap (about 1.3 MB).
    pub(crate) fn new() -> Box<History> {
        Box::new(History {
            correction: Correction::new(),
            butterfly: [[[0; 64]; 64]; 2],
            counter: [[None; 64]; 12],
            continuation: vec![0; 12 * 64 * CONTINUATION_ROW],
            capture: [[[0; 6]; 64]; 12],
        })
    }

    /// Forgets everything.
    pub(crate) fn clear(&mut self) {
        self.correction.clear();
        self.butterfly = [[[0; 64]; 64]; 2];
        self.counter = [[None; 64]; 12];
        self.continuation.fill(0);
        self.capture = [[[0; 6]; 64]; 12];
    }

    /// The butterfly history value of a quiet move of `color`.
    #[inline]
    pub(crate) fn get(&self, color: Color, m: Move) -> i32 {
        i32::from(self.butterfly[color.index()][m.from().index()][landing(color, m)])
    }

    /// The continuation history of the quiet move `m` by `piece` after the moves `before`:
    /// the sum of its values as the answer to each.
    #[inline]
    pub(crate) fn continuation(&self, before: &Continuations, piece: Piece, m: Move) -> i32 {
        let at = piece_index(piece) * 64 + landing(piece.color, m);
        before.iter().flatten().map(|key| i32::from(self.continuation[key.0 + at])).sum()
    }

    /// The ordering score of the quiet move `m` by `piece`: butterfly and continuation
    /// histories together.
    #[inline]
    pub(crate) fn quiet(&self, before: &Continuations, piece: Piece, m: Move) -> i32 {
        self.get(piece.color, m) + self.continuation(before, piece, m)
    }

    /// Adds `bonus` to every history of the quiet move `m` by `piece` after `before`.
    pub(crate) fn update(&mut self, before: &Continuations, piece: Piece, m: Move, bonus: i32) {
        let to = landing(piece.color, m);
        nudge(&mut self.butterfly[piece.color.index()][m.from().index()][to], bonus);
        let at = piece_index(piece) * 64 + to;
        for key in before.iter().flatten() {
            nudge(&mut self.continuation[key.0 + at], bonus);
        }
    }

    /// The capture history of `piece` capturing a `victim` with `m`.
    #[inline]
    pub(crate) fn capture(&self, piece: Piece, m: Move, victim: Role) -> i32 {
        i32::from(self.capture[piece_index(piece)][m.to().index()][victim.index()])
    }

    /// Adds `bonus` to the capture history of `piece` capturing a `victim` with `m`.
    pub(crate) fn update_capture(&mut self, piece: Piece, m: Move, victim: Role, bonus: i32) {
        nudge(&mut self.capture[piece_index(piece)][m.to().index()][victim.index()], bonus);
    }

    /// The countermove to the previous move, which `piece` made to its destination.
    #[inline]
    pub(crate) fn counter(&self, previous: Option<(Piece, Move)>) -> Option<Move> {
        let (piece, m) = previous?;
        self.counter[piece_index(piece)][landing(piece.color, m)]
    }

    /// Records `refutation` as the answer to the previous move.
    pub(crate) fn set_counter(&mut self, previous: Option<(Piece, Move)>, refutation: Move) {
        if let Some((piece, m)) = previous {
            self.counter[piece_index(piece)][landing(piece.color, m)] = Some(refutation);
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
    use rookery_core::{Role, Square};

    #[test]
    fn history_stays_bounded() {
        let mut history = History::new();
        let pawn = Role::Pawn.of(Color::White);
        let m = Move::normal(Square::E2, Square::E4);
        for _ in 0..1_000 {
            history.update(&[None, None], pawn, m, bonus(20));
        }
        assert!(history.get(Color::White, m) <= HISTORY_MAX);
        assert!(history.get(Color::White, m) > HISTORY_MAX / 2);
        assert_eq!(history.get(Color::Black, m), 0);
        for _ in 0..1_000 {
            history.update(&[None, None], pawn, m, -bonus(20));
        }
        assert!(history.get(Color::White, m) >= -HISTORY_MAX);
        assert!(history.get(Color::White, m) < 0);
    }

    #[test]
    fn continuation_history_follows_the_earlier_moves() {
        let mut history = History::new();
        let knight = Role::Knight.of(Color::Black);
        let reply = Move::normal(Square::G8, Square::F6);
        let e4 =
            ContinuationKey::new(Role::Pawn.of(Color::White), Move::normal(Square::E2, Square::E4));
        let d4 =
            ContinuationKey::new(Role::Pawn.of(Color::White), Move::normal(Square::D2, Square::D4));
        history.update(&[Some(e4), None], knight, reply, bonus(10));
        let after_e4 = history.continuation(&[Some(e4), None], knight, reply);
        assert!(after_e4 > 0);
        assert_eq!(history.continuation(&[Some(d4), None], knight, reply), 0);
        // Both earlier moves count, and the butterfly value comes on top.
        history.update(&[Some(e4), Some(d4)], knight, reply, bonus(10));
        let both = history.continuation(&[Some(e4), Some(d4)], knight, reply);
        assert!(both > after_e4);
        assert_eq!(
            history.quiet(&[Some(e4), Some(d4)], knight, reply),
            both + history.get(Color::Black, reply)
        );
        history.clear();
        assert_eq!(history.quiet(&[Some(e4), Some(d4)], knight, reply), 0);
    }

    #[test]
    fn capture_history_is_by_piece_destination_and_victim() {
        let mut history = History::new();
        let rook = Role::Rook.of(Color::White);
        let rxd5 = Move::normal(Square::D1, Square::D5);
        history.update_capture(rook, rxd5, Role::Knight, bonus(8));
        assert!(history.capture(rook, rxd5, Role::Knight) > 0);
        assert_eq!(history.capture(rook, rxd5, Role::Bishop), 0);
        assert_eq!(history.capture(Role::Queen.of(Color::White), rxd5, Role::Knight), 0);
        history.update_capture(rook, rxd5, Role::Bishop, -bonus(8));
        assert!(history.capture(rook, rxd5, Role::Bishop) < 0);
        history.clear();
        assert_eq!(history.capture(rook, rxd5, Role::Knight), 0);
    }

    /// Castling written both ways (`e1g1` in standard chess, `e1h1` in Chess960) is one entry
    /// in every table: a history learned in one notation is found in the other.
    #[test]
    fn castling_is_keyed_by_the_kings_landing_square() {
        let mut history = History::new();
        let king = Role::King.of(Color::White);
        let standard = Move::castle(Square::E1, Square::G1);
        let chess960 = Move::castle(Square::E1, Square::H1);
        let knight = Role::Knight.of(Color::Black);
        let reply = Move::normal(Square::G8, Square::F6);
        let after = |m| [Some(ContinuationKey::new(king, m)), None];
        history.update(&after(standard), knight, reply, bonus(10));
        history.update(&[None, None], king, chess960, bonus(10));
        history.set_counter(Some((king, chess960)), reply);
        for m in [standard, chess960] {
            assert!(history.get(Color::White, m) > 0, "{m:?}");
            assert!(history.continuation(&after(m), knight, reply) > 0, "{m:?}");
            assert_eq!(history.counter(Some((king, m))), Some(reply), "{m:?}");
        }
        let long = Move::castle(Square::B1, Square::A1);
        assert_eq!(history.get(Color::White, long), 0, "queen side is apart");
        assert_eq!(landing(Color::Black, Move::castle(Square::B8, Square::A8)), 58, "c8");
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
