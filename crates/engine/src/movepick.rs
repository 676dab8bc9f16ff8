//! Move ordering: which move to search next (CPW "Move Ordering"; Stockfish `movepick.cpp`).
//!
//! The moves come in stages, each generated only when the ones before it have not cut the
//! node off. The transposition table's move comes first, before any move is generated. Then
//! the captures and promotions: winning and equal captures by MVV-LVA (most valuable victim,
//! least valuable attacker) and their capture history, queen promotions among them. Then the
//! killer moves and the countermove, tested for legality one by one. Only then are the quiet
//! moves generated, and tried by their butterfly and continuation histories; losing captures
//! (static exchange below zero) and underpromotions come last. Within a stage moves are picked
//! one at a time by selection, since most nodes need only the first few.

use rookery_core::{Move, MoveKind, Position, Role, MAX_LEGAL_MOVES};

use crate::history::{Continuations, History, Killers};
use crate::see::{see_ge, SEE_VALUE};

const GOOD_CAPTURE: i32 = 4_000_000;
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
    GenerateTactical,
    GoodTactical,
    /// The killers and the countermove, by index into [`MovePicker::refutations`].
    Refutations(usize),
    GenerateQuiet,
    Quiet,
    BadTactical,
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

    /// Swaps the best-scored move of `from..to` to `from` (the first of equals).
    #[inline]
    fn select(&mut self, from: usize, to: usize) {
        let mut best = from;
        for i in from + 1..to {
            if self.scores[i] > self.scores[best] {
                best = i;
            }
        }
        self.moves.swap(from, best);
        self.scores.swap(from, best);
    }
}

/// Yields the legal moves of a position, best first, in a [`MoveBuffer`] it is given on each
/// call (always the same one). The buffer holds the captures and promotions first
/// (`..tactical_len`), then the quiet moves (`tactical_len..len`).
pub(crate) struct MovePicker {
    mode: Mode,
    /// Whether quiet moves are yielded: in the main search, and in check.
    quiets: bool,
    stage: Stage,
    tt_move: Option<Move>,
    hints: QuietHints,
    /// The killers and the countermove, each kept only if it is a legal quiet move other
    /// than the TT move and the ones before it: yielded in their stage, skipped in the next.
    refutations: [Option<Move>; 3],
    tactical_len: usize,
    len: usize,
    /// The next captures or promotion to consider (good ones, then the bad ones left).
    next_tactical: usize,
    /// The next quiet move.
    next_quiet: usize,
    skip_quiets: bool,
    /// Whether the quiet moves from `next_quiet` on are sorted already.
    sorted: bool,
}

/// Quiet moves picked by selection before the rest are sorted once: most nodes need only the
/// first few, while nodes that need them all pay less for one sort than for repeated
/// selection.
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
        let quiets = mode == Mode::All || pos.is_check();
        let tt_move = tt_move.filter(|&m| pos.is_legal(m) && (quiets || is_tactical(pos, m)));
        MovePicker {
            mode,
            quiets,
            stage: Stage::TtMove,
            tt_move,
            hints,
            refutations: [None; 3],
            tactical_len: 0,
            len: 0,
            next_tactical: 0,
            next_quiet: 0,
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
        loop {
            match self.stage {
                Stage::TtMove => {
                    self.stage = Stage::GenerateTactical;
                    if self.tt_move.is_some() {
                        return self.tt_move;
                    }
                }
                Stage::GenerateTactical => {
                    self.generate_tactical(pos, history, buf);
                    self.stage = Stage::GoodTactical;
                }
                Stage::GoodTactical => {
                    if self.next_tactical < self.tactical_len {
                        buf.select(self.next_tactical, self.tactical_len);
                        if buf.scores[self.next_tactical] >= GOOD_CAPTURE {
                            self.next_tactical += 1;
                            return Some(buf.moves[self.next_tactical - 1]);
                        }
                    }
                    // The bad ones wait for the last stage.
                    self.stage =
                        if self.quiets { Stage::Refutations(0) } else { Stage::BadTactical };
                }
                Stage::Refutations(i) => {
                    if self.skip_quiets {
                        self.stage = Stage::BadTactical;
                        continue;
                    }
                    if i == 3 {
                        self.stage = Stage::GenerateQuiet;
                        continue;
                    }
                    self.stage = Stage::Refutations(i + 1);
                    let candidate = match i {
                        0 | 1 => self.hints.killers.0[i],
                        _ => self.hints.counter,
                    };
                    let Some(m) = candidate else { continue };
                    if Some(m) == self.tt_move
                        || self.refutations[..i].contains(&Some(m))
                        || !pos.is_legal(m)
                        || pos.is_capture(m)
                        || m.promotion_role().is_some()
                    {
                        continue;
                    }
                    self.refutations[i] = Some(m);
                    return Some(m);
                }
                Stage::GenerateQuiet => {
                    self.generate_quiet(pos, history, buf);
                    self.stage = Stage::Quiet;
                }
                Stage::Quiet => {
                    if self.skip_quiets || self.next_quiet == self.len {
                        self.stage = Stage::BadTactical;
                        continue;
                    }
                    if self.next_quiet - self.tactical_len < SELECTED {
                        buf.select(self.next_quiet, self.len);
                    } else if !self.sorted {
                        self.sorted = true;
                        insertion_sort(buf, self.next_quiet, self.len);
                    }
                    self.next_quiet += 1;
                    return Some(buf.moves[self.next_quiet - 1]);
                }
                Stage::BadTactical => {
                    while self.next_tactical < self.tactical_len {
                        buf.select(self.next_tactical, self.tactical_len);
                        let m = buf.moves[self.next_tactical];
                        self.next_tactical += 1;
                        if self.skip_quiets && !is_tactical(pos, m) {
                            continue;
                        }
                        return Some(m);
                    }
                    return None;
                }
            }
        }
    }

    /// The captures and promotions but the TT move, scored; in the quiescence search (not in
    /// check), without underpromotions.
    fn generate_tactical(&mut self, pos: &Position, history: &History, buf: &mut MoveBuffer) {
        let (tt_move, quiets) = (self.tt_move, self.quiets);
        let mut len = 0;
        pos.for_each_legal_capture_or_promotion(|m| {
            // Without quiet moves, no underpromotion either.
            if Some(m) != tt_move && (quiets || is_tactical(pos, m)) {
                buf.moves[len] = m;
                len += 1;
            }
        });
        self.tactical_len = len;
        self.next_tactical = 0;
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
            } else if m.kind() == MoveKind::Promotion(Role::Queen) {
                GOOD_CAPTURE + SEE_VALUE[Role::Queen.index()]
            } else {
                UNDERPROMOTION
            };
        }
    }

    /// The quiet moves but the TT move and the refutations already tried, after the
    /// tactical ones, scored by their histories.
    fn generate_quiet(&mut self, pos: &Position, history: &History, buf: &mut MoveBuffer) {
        let tt_move = self.tt_move;
        let refutations = self.refutations;
        let mut len = self.tactical_len;
        pos.for_each_legal_quiet(|m| {
            if Some(m) != tt_move && !refutations.contains(&Some(m)) {
                buf.moves[len] = m;
                len += 1;
            }
        });
        self.len = len;
        self.next_quiet = self.tactical_len;
        let before = &self.hints.before;
        for i in self.tactical_len..len {
            let m = buf.moves[i];
            buf.scores[i] = pos.moving_piece(m).map_or(0, |piece| history.quiet(before, piece, m));
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

    fn uci(pos: &Position, text: &str) -> Move {
        *pos.legal_moves().iter().find(|m| m.to_uci() == text).unwrap()
    }

    /// The moves of `pos` in the order a picker yields them; with `skip_after`, the picker is
    /// told to skip quiet moves after that many.
    fn picked(
        pos: &Position,
        mode: Mode,
        tt_move: Option<Move>,
        hints: QuietHints,
        skip_after: Option<usize>,
    ) -> Vec<String> {
        let history = History::new();
        let mut picker = MovePicker::new(pos, mode, tt_move, hints);
        let mut buf = MoveBuffer::new();
        let mut out = Vec::new();
        while let Some(m) = picker.next(pos, &history, &mut buf) {
            out.push(m.to_uci());
            if Some(out.len()) == skip_after {
                picker.skip_quiets();
            }
        }
        out
    }

    #[test]
    fn yields_every_move_once_in_order() {
        let pos: Position = "4k3/8/3p4/4p3/3P4/2N5/8/4KQ2 w - - 0 1".parse().unwrap();
        let moves = picked(&pos, Mode::All, Some(uci(&pos, "e1d2")), QuietHints::default(), None);
        assert_eq!(moves.len(), pos.legal_moves().len());
        let mut sorted = moves.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), moves.len());
        assert_eq!(moves[0], "e1d2", "the TT move first");
        assert_eq!(moves[1], "d4e5", "the winning capture next");
    }

    #[test]
    fn stages_come_in_order_and_each_move_once() {
        // Good tactical moves: b7b8q, d4e5; a bad capture: Qxe5 (the d6 pawn recaptures);
        // three underpromotions.
        let pos: Position = "4k3/1P6/3p4/4p3/3P4/2N5/7Q/4K3 w - - 0 1".parse().unwrap();
        let (knight, capture, king) = (uci(&pos, "c3b5"), uci(&pos, "d4e5"), uci(&pos, "e1d2"));
        // A killer that is a capture here, and a countermove that is a killer too: each
        // still comes once, in its own stage.
        let hints = QuietHints {
            killers: Killers([Some(knight), Some(capture)]),
            counter: Some(king),
            before: Default::default(),
        };
        let tt_move = Some(uci(&pos, "h2h1"));
        let stages = |hints, skip_after| picked(&pos, Mode::All, tt_move, hints, skip_after);
        let moves = stages(hints, None);
        let mut unique = moves.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), moves.len(), "{moves:?}");
        assert_eq!(moves.len(), pos.legal_moves().len());
        assert_eq!(moves[0], "h2h1", "the TT move first");
        let mut good = moves[1..3].to_vec();
        good.sort();
        assert_eq!(good, ["b7b8q", "d4e5"], "then the good tactical moves");
        assert_eq!(moves[3..5], ["c3b5", "e1d2"], "then the killer and the countermove");
        let n = moves.len();
        assert_eq!(moves[n - 4], "h2e5", "the losing capture after the quiet moves");
        let mut under = moves[n - 3..].to_vec();
        under.sort();
        assert_eq!(under, ["b7b8b", "b7b8n", "b7b8r"], "underpromotions last");

        let duplicate = QuietHints { counter: Some(knight), ..hints };
        assert_eq!(stages(duplicate, None).len(), moves.len());

        // Told to skip quiet moves (after the TT move, then after the first killer): the
        // tactical moves that remain, and no other quiet move.
        for (after, kept) in [(1, 3), (4, 4)] {
            let mut expected = moves[..kept].to_vec();
            expected.push("h2e5".to_string());
            assert_eq!(stages(hints, Some(after)), expected, "skipping after {after}");
        }
    }

    /// In Chess960 castling goes from the king to its own rook (`e1h1`, RULES.md §13): a hash
    /// move, killer or countermove written the standard way (`e1g1`, learned on the same board
    /// in standard chess) names no legal move and is skipped, and each castling comes once, in
    /// its own notation.
    #[test]
    fn chess960_castling_comes_once_in_its_own_notation() {
        use rookery_core::{CastlingMode, Square};
        let fen = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1";
        let pos = Position::from_fen_in(fen, CastlingMode::Chess960).unwrap();
        let short = Move::castle(Square::E1, Square::G1);
        let long = Move::castle(Square::E1, Square::C1);
        let hints = QuietHints {
            killers: Killers([Some(long), Some(uci(&pos, "e1h1"))]),
            counter: Some(short),
            before: Default::default(),
        };
        let moves = picked(&pos, Mode::All, Some(short), hints, None);
        let mut unique = moves.clone();
        unique.sort();
        unique.dedup();
        assert_eq!(unique.len(), moves.len(), "{moves:?}");
        assert_eq!(moves.len(), pos.legal_moves().len(), "{moves:?}");
        let captures = pos.legal_moves().iter().filter(|&&m| pos.is_capture(m)).count();
        assert_eq!(moves[captures], "e1h1", "the legal killer right after the captures");
        assert!(moves.contains(&"e1a1".to_owned()), "{moves:?}");
        assert!(!moves.iter().any(|m| m == "e1g1" || m == "e1c1"), "{moves:?}");
    }

    #[test]
    fn illegal_tt_move_is_ignored() {
        let pos = Position::new();
        let bogus = Move::from_bits(0xffff);
        let moves = picked(&pos, Mode::All, Some(bogus), QuietHints::default(), None);
        let legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_uci()).collect();
        assert!(moves.iter().all(|m| legal.contains(m)), "{moves:?}");
        assert_eq!(moves.len(), 20);
    }

    #[test]
    fn tactical_mode_yields_captures_and_queen_promotions() {
        let pos: Position = "4k3/1P6/8/3p4/4P3/8/8/4K3 w - - 0 1".parse().unwrap();
        let moves = picked(&pos, Mode::Tactical, None, QuietHints::default(), None);
        assert_eq!(moves, ["b7b8q", "e4d5"]);
    }
}
