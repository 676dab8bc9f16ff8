//! Move ordering: which move to search next (CPW "Move Ordering"; Stockfish `movepick.cpp`).
//!
//! The transposition table's move comes first, before any move is generated: it often cuts
//! the node off alone. Then winning and equal captures by MVV-LVA (most valuable victim, least
//! valuable attacker) and their capture history, queen promotions among them; killer moves;
//! the countermove; the other quiet moves by their butterfly and continuation histories;
//! losing captures (static exchange below zero) and underpromotions last. Moves are picked one at a time by selection, since most nodes need only the first
//! few.

use rookery_core::{Move, MoveKind, Position, Role, MAX_LEGAL_MOVES};

use crate::history::{Continuations, History, Killers};
use crate::see::{see_ge, SEE_VALUE};

const GOOD_CAPTURE: i32 = 4_000_000;
const KILLER_1: i32 = 3_000_000;
const KILLER_2: i32 = 2_900_000;
const COUNTER: i32 = 2_800_000;
const BAD_CAPTURE: i32 = -3_000_000;
const UNDERPROMOTION: i32 = -4_000_000;

/// Which moves a picker yields.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// All legal moves (the main search).
    All,
    /// Captures and queen promotions only (quiescence search, not in check).
    Tactical,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stage {
    TtMove,
    Generate,
    Rest,
}

/// What the search knows about good quiet moves at a node: its killers, the countermove to
/// the move before, and the earlier moves the continuation histories follow.
#[derive(Clone, Copy, Default)]
pub(crate) struct QuietHints {
    pub(crate) killers: Killers,
    pub(crate) counter: Option<Move>,
    pub(crate) before: Continuations,
}

/// Room for the moves of one node and their ordering scores. The search keeps one per ply
/// and lends it to that ply's picker, so that no node pays for clearing 1.5 kB of arrays.
pub(crate) struct MoveBuffer {
    moves: [Move; MAX_LEGAL_MOVES],
    scores: [i32; MAX_LEGAL_MOVES],
}

impl MoveBuffer {
    /// An empty buffer.
    pub(crate) fn new() -> MoveBuffer {
        MoveBuffer { moves: [Move::from_bits(0); MAX_LEGAL_MOVES], scores: [0; MAX_LEGAL_MOVES] }
    }
}

/// Yields the legal moves of a position, best first, in a [`MoveBuffer`] it is given on each
/// call (always the same one).
pub(crate) struct MovePicker {
    mode: Mode,
    stage: Stage,
    tt_move: Option<Move>,
    hints: QuietHints,
    len: usize,
    next: usize,
    skip_quiets: bool,
    /// Whether the moves from `next` on are sorted already.
    sorted: bool,
}

/// Moves picked by selection before the rest are sorted once: most nodes need only the first
/// few, while nodes that need them all pay less for one sort than for repeated selection.
const SELECTED: usize = 3;

/// `true` for captures and queen promotions: the moves quiescence search looks at.
#[inline]
pub(crate) fn is_tactical(pos: &Position, m: Move) -> bool {
    pos.is_capture(m) || m.promotion_role() == Some(Role::Queen)
}

impl MovePicker {
    /// A picker for `pos`. `tt_move` need not be legal: it is checked.
    pub(crate) fn new(
        pos: &Position,
        mode: Mode,
        tt_move: Option<Move>,
        hints: QuietHints,
    ) -> MovePicker {
        let tt_move = tt_move.filter(|&m| {
            pos.is_legal(m) && (mode == Mode::All || pos.is_check() || is_tactical(pos, m))
        });
        MovePicker {
            mode,
            stage: Stage::TtMove,
            tt_move,
            hints,
            len: 0,
            next: 0,
            skip_quiets: false,
            sorted: false,
        }
    }

    /// From now on, yield no quiet moves, quiet checks included (late-move and futility
    /// pruning, as in Stockfish's move picker).
    pub(crate) fn skip_quiets(&mut self) {
        self.skip_quiets = true;
    }

    /// The next move, or `None` when all have been yielded.
    pub(crate) fn next(
        &mut self,
        pos: &Position,
        history: &History,
        buf: &mut MoveBuffer,
    ) -> Option<Move> {
        if self.stage == Stage::TtMove {
            self.stage = Stage::Generate;
            if let Some(m) = self.tt_move {
                return Some(m);
            }
        }
        if self.stage == Stage::Generate {
            self.stage = Stage::Rest;
            self.generate(pos, history, buf);
        }
        while self.next < self.len {
            if self.next < SELECTED {
                // Selection: swap the best remaining move to the front.
                let mut best = self.next;
                for i in self.next + 1..self.len {
                    if buf.scores[i] > buf.scores[best] {
                        best = i;
                    }
                }
                buf.moves.swap(self.next, best);
                buf.scores.swap(self.next, best);
            } else if !self.sorted {
                self.sorted = true;
                insertion_sort(buf, self.next, self.len);
            }
            let m = buf.moves[self.next];
            self.next += 1;
            if self.skip_quiets && !is_tactical(pos, m) {
                continue;
            }
            return Some(m);
        }
        None
    }

    fn generate(&mut self, pos: &Position, history: &History, buf: &mut MoveBuffer) {
        let tactical_only = self.mode == Mode::Tactical && !pos.is_check();
        let tt_move = self.tt_move;
        let mut len = 0;
        let mut push = |m| {
            if Some(m) != tt_move && (!tactical_only || is_tactical(pos, m)) {
                buf.moves[len] = m;
                len += 1;
            }
        };
        if tactical_only {
            // Captures and promotions only, of which the picker keeps queen promotions.
            pos.for_each_legal_capture_or_promotion(&mut push);
        } else {
            pos.for_each_legal_move(&mut push);
        }
        self.len = len;
        let hints = &self.hints;
        for i in 0..len {
            let m = buf.moves[i];
            buf.scores[i] = if let Some(victim) = pos.captured_role(m) {
                // The victim first; among equal victims, the capture history (within about
                // a pawn's worth of victim value), then the cheaper attacker.
                let piece = pos.moving_piece(m);
                let attacker = piece.map_or(0, |p| p.role.index()) as i32;
                let learned = piece.map_or(0, |p| history.capture(p, m, victim));
                let mvv_lva = SEE_VALUE[victim.index()] * 8 - attacker + learned / 32;
                let good = self.mode == Mode::Tactical || see_ge(pos, m, 0);
                if good {
                    GOOD_CAPTURE + mvv_lva
                } else {
                    BAD_CAPTURE + mvv_lva
                }
            } else if let MoveKind::Promotion(role) = m.kind() {
                if role == Role::Queen {
                    GOOD_CAPTURE + SEE_VALUE[Role::Queen.index()]
                } else {
                    UNDERPROMOTION
                }
            } else if hints.killers.0[0] == Some(m) {
                KILLER_1
            } else if hints.killers.0[1] == Some(m) {
                KILLER_2
            } else if hints.counter == Some(m) {
                COUNTER
            } else {
                pos.moving_piece(m).map_or(0, |piece| history.quiet(&hints.before, piece, m))
            };
        }
    }
}

/// Sorts `buf[from..to]` by descending score; stable, and quick for the short lists of one
/// node.
fn insertion_sort(buf: &mut MoveBuffer, from: usize, to: usize) {
    for i in from + 1..to {
        let (m, score) = (buf.moves[i], buf.scores[i]);
        let mut j = i;
        while j > from && buf.scores[j - 1] < score {
            buf.moves[j] = buf.moves[j - 1];
            buf.scores[j] = buf.scores[j - 1];
            j -= 1;
        }
        buf.moves[j] = m;
        buf.scores[j] = score;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order(fen: &str, tt: Option<&str>) -> Vec<String> {
        let pos: Position = fen.parse().unwrap();
        let tt_move = tt.map(|t| *pos.legal_moves().iter().find(|m| m.to_uci() == t).unwrap());
        let history = History::new();
        let mut picker = MovePicker::new(&pos, Mode::All, tt_move, QuietHints::default());
        let mut buf = MoveBuffer::new();
        let mut out = Vec::new();
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            out.push(m.to_uci());
        }
        out
    }

    #[test]
    fn yields_every_move_once_in_order() {
        let fen = "4k3/8/3p4/4p3/3P4/2N5/8/4KQ2 w - - 0 1";
        let moves = order(fen, Some("e1d2"));
        let pos: Position = fen.parse().unwrap();
        assert_eq!(moves.len(), pos.legal_moves().len());
        let mut sorted = moves.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), moves.len());
        assert_eq!(moves[0], "e1d2", "the TT move first");
        assert_eq!(moves[1], "d4e5", "the winning capture next");
    }

    #[test]
    fn illegal_tt_move_is_ignored() {
        let pos = Position::new();
        let bogus = Move::from_bits(0xffff);
        let history = History::new();
        let mut picker = MovePicker::new(&pos, Mode::All, Some(bogus), QuietHints::default());
        let mut buf = MoveBuffer::new();
        let mut n = 0;
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            assert!(pos.is_legal(m));
            n += 1;
        }
        assert_eq!(n, 20);
    }

    #[test]
    fn tactical_mode_yields_captures_and_queen_promotions() {
        let pos: Position = "4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        let history = History::new();
        let mut picker = MovePicker::new(&pos, Mode::Tactical, None, QuietHints::default());
        let mut buf = MoveBuffer::new();
        let mut moves = Vec::new();
        while let Some(m) = picker.next(&pos, &history, &mut buf) {
            moves.push(m.to_uci());
        }
        assert_eq!(moves, ["b7b8q", "e4d5"]);
    }
}
