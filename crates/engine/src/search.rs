//! The search: principal variation search (CPW "Principal Variation Search") in a negamax
//! frame with alpha-beta, a transposition table, and the usual selectivity — null-move
//! pruning, reverse futility pruning, razoring, futility and late-move pruning, static
//! exchange and history pruning, late-move reductions, check and singular extensions (two
//! plies for a move with no alternative, one fewer for a hash move not singular but above
//! beta), internal iterative reductions, mate-distance pruning — over a quiescence search of
//! captures and queen promotions with stand pat (CPW "Quiescence Search"). Static
//! evaluations are corrected by what searches of the same pawn structure found
//! ([`crate::correction`]), and late moves are reduced more at expected cut nodes (nodes
//! whose parent expects them to fail high). Ideas and their conditions follow CPW and
//! Stockfish (`search.cpp`); margins are Rookery's own.
//!
//! Draws: a repetition of any position since the last irreversible move (game history and
//! search path alike, never across a null move), the fifty-move rule unless the move before
//! it mated, and insufficient material.

use std::sync::OnceLock;

use rookery_core::{Color, Move, Piece, Position, Role};

use crate::eval::classical;
use crate::history::{bonus, ContinuationKey, Continuations};
use crate::movepick::{is_tactical, Mode, MovePicker, QuietHints};
use crate::score::{
    is_mate, value_from_tt, value_to_tt, Bound, DRAW, INFINITE, MATE, MATE_IN_MAX_PLY, MAX_PLY,
};
use crate::see::{see_ge, SEE_VALUE};
use crate::thread::Worker;

/// The static evaluation stored for positions in check, where there is none.
const NO_EVAL: i32 = -INFINITE;

/// Late-move reductions by depth and move number: `0.8 + ln(depth) ln(moves) / 2.4` plies
/// (the logarithmic formula of Stockfish and many engines since).
fn reduction(depth: i32, moves: usize) -> i32 {
    static TABLE: OnceLock<Vec<[u8; 64]>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        (0..64)
            .map(|d| {
                let mut row = [0u8; 64];
                for (m, r) in row.iter_mut().enumerate().skip(1) {
                    if d > 0 {
                        let v = 0.8 + (d as f64).ln() * (m as f64).ln() / 2.4;
                        *r = v.max(0.0) as u8;
                    }
                }
                row
            })
            .collect()
    });
    i32::from(table[depth.clamp(0, 63) as usize][moves.min(63)])
}

/// What a node is expected to be (Knuth and Moore's node types): on the principal variation,
/// failing high (a cut node, where one move refutes the move before), or failing low (an all
/// node, where every move must be searched).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Node {
    Pv,
    Cut,
    All,
}

impl Node {
    /// The type of the child reached by this node's first move: a PV node's first move leads
    /// to a PV node; the refutation of a cut node's move leads to an all node, and the other
    /// way round.
    fn first_child(self) -> Node {
        match self {
            Node::Pv => Node::Pv,
            Node::Cut => Node::All,
            Node::All => Node::Cut,
        }
    }

    /// The type of a child searched with a null window at full depth (after a null move, or
    /// a reduced search that failed high): the opposite of a cut node, else a cut node.
    fn opposite(self) -> Node {
        if self == Node::Cut {
            Node::All
        } else {
            Node::Cut
        }
    }

    /// This node searched again with a null window (a singular-extension search).
    fn non_pv(self) -> Node {
        if self == Node::Pv {
            Node::All
        } else {
            self
        }
    }
}

/// `true` if `color` has a piece other than pawns and king: null moves are unsound in pawn
/// endings, where zugzwang is common.
fn has_pieces(pos: &Position, color: Color) -> bool {
    let board = pos.board();
    (board.by_color(color) - board.by_role(Role::Pawn) - board.by_role(Role::King)).any()
}

impl Worker<'_> {
    /// Searches the root moves from `pv_idx` on in the window (`alpha`, `beta`), recording
    /// each move's value and line. Returns the best value.
    pub(crate) fn root_search(
        &mut self,
        root: &Position,
        mut alpha: i32,
        beta: i32,
        depth: i32,
    ) -> i32 {
        let mut best = -INFINITE;
        self.accumulators.set(0, root.board());
        self.stack[0].static_eval = if root.is_check() {
            NO_EVAL
        } else {
            let raw = self.evaluate(root, 0);
            self.corrected(root, raw)
        };
        self.stack[2].killers = Default::default();
        for i in self.pv_idx..self.root_moves.len() {
            let m = self.root_moves[i].mv;
            let mut child = *root;
            child.play_unchecked(m);
            let extension = i32::from(child.is_check());
            self.push(root.moving_piece(m), m, &child, 0);
            let new_depth = depth - 1 + extension;
            let mut value;
            if i == self.pv_idx {
                value = -self.negamax(&child, -beta, -alpha, new_depth, 1, Node::Pv);
            } else {
                // Reduce late quiet root moves a little, as for any PV node.
                let quiet = !is_tactical(root, m) && !child.is_check();
                let r = if self.shared.selective && depth >= 3 && quiet && i >= self.pv_idx + 3 {
                    (reduction(depth, i + 1 - self.pv_idx) - 1).clamp(0, new_depth - 1)
                } else {
                    0
                };
                value = -self.negamax(&child, -alpha - 1, -alpha, new_depth - r, 1, Node::Cut);
                if value > alpha && r > 0 {
                    value = -self.negamax(&child, -alpha - 1, -alpha, new_depth, 1, Node::Cut);
                }
                if value > alpha && value < beta {
                    value = -self.negamax(&child, -beta, -alpha, new_depth, 1, Node::Pv);
                }
            }
            self.pop();
            if self.stopped {
                return best;
            }
            let rm = &mut self.root_moves[i];
            if i == self.pv_idx || value > alpha {
                rm.score = value;
                rm.seldepth = self.seldepth;
                rm.pv.clear();
                rm.pv.push(m);
                rm.pv.extend_from_slice(&self.pv[1][1..self.pv_len[1]]);
            } else {
                // Only an upper bound: keep it below every searched move.
                rm.score = -INFINITE;
            }
            if value > best {
                best = value;
                if value > alpha {
                    alpha = value;
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        best
    }

    /// Enters `child` (reached by `m`, made by `piece`, at `ply`) on the search stack.
    #[inline]
    fn push(&mut self, piece: Option<Piece>, m: Move, child: &Position, ply: usize) {
        self.stack[ply].played = piece.map(|p| (p, m));
        self.stack[ply + 1].plies_from_null = self.stack[ply].plies_from_null + 1;
        self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
        self.accumulators.set(ply + 1, child.board());
        self.keys.push(child.repetition_key());
    }

    #[inline]
    fn pop(&mut self) {
        self.keys.pop();
    }

    /// `true` if the position at `ply` repeats an earlier one since the last irreversible
    /// move and the last null move.
    fn is_repetition(&self, pos: &Position, ply: usize) -> bool {
        let last = self.keys.len() - 1;
        let reach = (pos.halfmoves() as usize).min(self.stack[ply].plies_from_null).min(last);
        let key = self.keys[last];
        (4..=reach).step_by(2).any(|back| self.keys[last - back] == key)
    }

    /// Draw by repetition, the fifty-move rule or insufficient material.
    fn is_draw(&self, pos: &Position, ply: usize) -> bool {
        // The fifty-move rule, unless the last move mated.
        if pos.halfmoves() >= 100 && (!pos.is_check() || pos.has_legal_moves()) {
            return true;
        }
        self.is_repetition(pos, ply) || pos.is_insufficient_material()
    }

    /// Stores the line through `m` at `ply` as the principal variation.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: Move) {
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        head[ply][ply] = m;
        head[ply][ply + 1..child_len].copy_from_slice(&tail[0][ply + 1..child_len]);
        self.pv_len[ply] = child_len;
    }

    /// The alpha-beta search of a node below the root.
    pub(crate) fn negamax(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        mut beta: i32,
        mut depth: i32,
        ply: usize,
        node: Node,
    ) -> i32 {
        let pv_node = node == Node::Pv;
        if depth <= 0 {
            return self.qsearch(pos, alpha, beta, ply, pv_node);
        }
        self.pv_len[ply] = ply;
        if self.count_node() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos, ply) {
            return DRAW;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate(pos, ply) };
        }
        // Mate-distance pruning: no line from here beats a mate already found nearer the root.
        alpha = alpha.max(-MATE + ply as i32);
        beta = beta.min(MATE - ply as i32 - 1);
        if alpha >= beta {
            return alpha;
        }

        // A singular-extension search of this node without one move: the table's entry is
        // about the node with all its moves, so it neither cuts this search off nor takes
        // its result.
        let excluded = self.stack[ply].excluded;
        let key = pos.zobrist();
        let hit = self.shared.tt.probe(key);
        let tt_move = hit.and_then(|h| h.mv);
        if let (Some(hit), None) = (hit, excluded) {
            let value = value_from_tt(hit.value, ply, pos.halfmoves());
            let cutoff = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if !pv_node && hit.depth >= depth && cutoff && pos.halfmoves() < 90 {
                return value;
            }
        }

        // The static evaluation (kept in the table and on the stack), and the estimate the
        // pruning decisions use: the search value when its bound says it is the better guess.
        let raw_eval = match hit {
            _ if in_check => NO_EVAL,
            Some(h) if h.eval != NO_EVAL => h.eval,
            _ => self.evaluate(pos, ply),
        };
        let us = pos.turn();
        let static_eval = self.corrected(pos, raw_eval);
        let mut eval = static_eval;
        if let (Some(hit), false) = (hit, in_check) {
            let value = value_from_tt(hit.value, ply, pos.halfmoves());
            let tighter = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => value > eval,
                Bound::Upper => value < eval,
            };
            if tighter && !is_mate(value) {
                eval = value;
            }
        }
        self.stack[ply].static_eval = static_eval;
        let improving = !in_check
            && ply >= 2
            && self.stack[ply - 2].static_eval != NO_EVAL
            && static_eval > self.stack[ply - 2].static_eval;
        self.stack[ply + 2].killers = Default::default();

        let selective = self.shared.selective;
        if !pv_node && !in_check && selective && excluded.is_none() {
            // Reverse futility pruning (static null move): far above beta near the leaves.
            if depth <= 7 && eval - 80 * (depth - i32::from(improving)) >= beta && !is_mate(beta) {
                return eval;
            }
            // Razoring: far below alpha near the leaves, ask quiescence search.
            if depth <= 3 && eval + 200 + 150 * depth < alpha {
                let value = self.qsearch(pos, alpha - 1, alpha, ply, false);
                if value < alpha {
                    return value;
                }
            }
            // Null-move pruning: if passing still fails high, a real move will too.
            let after_null = ply > 0 && self.stack[ply - 1].played.is_none();
            if depth >= 3 && eval >= beta && !after_null && has_pieces(pos, us) && !is_mate(beta) {
                let r = 3 + depth / 4 + ((eval - beta) / 200).min(3);
                let mut child = *pos;
                child.play_null();
                self.shared.tt.prefetch(child.zobrist());
                self.stack[ply].played = None;
                self.stack[ply + 1].plies_from_null = 0;
                self.stack[ply + 1].double_extensions = self.stack[ply].double_extensions;
                self.accumulators.set(ply + 1, child.board());
                self.keys.push(child.repetition_key());
                let value =
                    -self.negamax(&child, -beta, -beta + 1, depth - r, ply + 1, node.opposite());
                self.keys.pop();
                if self.stopped {
                    return DRAW;
                }
                if value >= beta {
                    return if is_mate(value) { beta } else { value };
                }
            }
        }

        // Internal iterative reduction: without a hash move the node was never searched well
        // enough to be worth its full depth.
        if depth >= 4 && tt_move.is_none() && selective {
            depth -= 1;
        }

        let previous = if ply > 0 { self.stack[ply - 1].played } else { None };
        let counter = self.history.counter(previous);
        let killers = self.stack[ply].killers;
        let before = self.continuations(ply);
        let hints = QuietHints { killers, counter, before };
        let mut picker = MovePicker::new(pos, Mode::All, tt_move, hints);
        // Singular extension (Anantharaman, Campbell and Marsland 1990; Stockfish): a hash move
        // whose lower bound no other move comes near is searched a ply deeper.
        let singular_candidate = hit.filter(|h| {
            selective
                && ply > 0
                && depth >= 8
                && excluded.is_none()
                && h.mv.is_some()
                && h.bound != Bound::Upper
                && h.depth >= depth - 3
                && !is_mate(h.value)
        });
        let mut best = -INFINITE;
        let mut best_move = None;
        let mut legal = 0usize;
        let mut quiets_tried: [Option<(Piece, Move)>; 64] = [None; 64];
        let mut quiet_count = 0;
        let mut captures_tried: [Option<(Piece, Move, Role)>; 32] = [None; 32];
        let mut capture_count = 0;
        let original_alpha = alpha;

        while let Some(m) = picker.next(pos, self.history, &mut self.buffers[ply]) {
            if excluded == Some(m) {
                continue;
            }
            legal += 1;
            let quiet = !is_tactical(pos, m);
            let mut child = *pos;
            child.play_unchecked(m);
            self.shared.tt.prefetch(child.zobrist());
            let gives_check = child.is_check();
            let piece = pos.moving_piece(m);
            // The capturing piece and its victim, for capture history.
            let capture = piece.zip(pos.captured_role(m)).map(|(p, victim)| (p, m, victim));
            let continuation = match piece {
                Some(piece) if quiet => self.history.continuation(&before, piece, m),
                _ => 0,
            };

            if best > -MATE_IN_MAX_PLY && has_pieces(pos, us) && selective {
                if quiet && !gives_check && !in_check {
                    // Late-move pruning.
                    let limit = (3 + depth * depth) / (2 - i32::from(improving));
                    if depth <= 8 && legal as i32 > limit {
                        picker.skip_quiets();
                        continue;
                    }
                    // Futility pruning: quiet moves cannot lift a hopeless eval to alpha.
                    if depth <= 8 && eval + 100 + 90 * depth <= alpha {
                        picker.skip_quiets();
                        continue;
                    }
                    // History pruning: quiet moves that keep failing as answers to these
                    // earlier moves.
                    if depth <= 4 && continuation < -3_000 * depth {
                        continue;
                    }
                    if depth <= 8 && !see_ge(pos, m, -25 * depth * depth) {
                        continue;
                    }
                } else if !quiet && depth <= 8 && !see_ge(pos, m, -90 * depth) {
                    continue;
                }
            }

            let mut extension = 0;
            if ply < 2 * self.root_depth as usize {
                if let Some(h) = singular_candidate.filter(|h| h.mv == Some(m)) {
                    let tt_value = value_from_tt(h.value, ply, pos.halfmoves());
                    let singular_beta = tt_value - 2 * depth;
                    self.stack[ply].excluded = Some(m);
                    let value = self.negamax(
                        pos,
                        singular_beta - 1,
                        singular_beta,
                        (depth - 1) / 2,
                        ply,
                        node.non_pv(),
                    );
                    self.stack[ply].excluded = None;
                    if self.stopped {
                        return DRAW;
                    }
                    if value < singular_beta {
                        // Far below it, off the principal variation: no alternative at
                        // all, so two plies deeper, at most six times on a path (Stockfish's
                        // double extensions).
                        let alone = !pv_node && value < singular_beta - 20;
                        extension =
                            if alone && self.stack[ply].double_extensions < 6 { 2 } else { 1 };
                    } else if singular_beta >= beta {
                        // Multi-cut: another move also beats beta, so this node fails high.
                        return singular_beta;
                    } else if tt_value >= beta {
                        // Not singular, and expected to fail high anyway: if this move
                        // does not, another nearly as good may, so it is searched a ply
                        // less (Stockfish's negative extension).
                        extension = -1;
                    }
                }
                if gives_check {
                    extension = extension.max(1);
                }
            }
            let new_depth = depth - 1 + extension;
            self.push(piece, m, &child, ply);
            self.stack[ply + 1].double_extensions += u8::from(extension >= 2);
            let mut value;
            if legal == 1 {
                value =
                    -self.negamax(&child, -beta, -alpha, new_depth, ply + 1, node.first_child());
            } else {
                let mut r = 0;
                if selective
                    && depth >= 3
                    && legal > 1 + usize::from(pv_node)
                    && (quiet || !see_ge(pos, m, 0))
                {
                    r = reduction(depth, legal);
                    r += i32::from(!pv_node) + i32::from(!improving) + i32::from(node == Node::Cut);
                    if killers.contains(m) || counter == Some(m) {
                        r -= 1;
                    }
                    if gives_check || in_check {
                        r -= 1;
                    }
                    if quiet {
                        r -= (self.history.get(us, m) + continuation) / 8_000;
                    }
                    r = r.clamp(0, new_depth - 1);
                }
                let (reduced, next) = (new_depth - r, ply + 1);
                value = -self.negamax(&child, -alpha - 1, -alpha, reduced, next, Node::Cut);
                if value > alpha && r > 0 {
                    value =
                        -self.negamax(&child, -alpha - 1, -alpha, new_depth, next, node.opposite());
                }
                if pv_node && value > alpha && value < beta {
                    value = -self.negamax(&child, -beta, -alpha, new_depth, next, Node::Pv);
                }
            }
            self.pop();
            if self.stopped {
                return DRAW;
            }

            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        if quiet {
                            let tried = &quiets_tried[..quiet_count];
                            self.reward_quiet(ply, piece.map(|p| (p, m)), depth, &before, tried);
                        }
                        self.reward_capture(capture, depth, &captures_tried[..capture_count]);
                        break;
                    }
                }
            }
            if quiet && quiet_count < quiets_tried.len() {
                quiets_tried[quiet_count] = piece.map(|p| (p, m));
                quiet_count += 1;
            } else if capture.is_some() && capture_count < captures_tried.len() {
                captures_tried[capture_count] = capture;
                capture_count += 1;
            }
        }

        if legal == 0 {
            return if excluded.is_some() {
                // The excluded move was the only one: nothing else comes near it.
                alpha
            } else if in_check {
                -MATE + ply as i32
            } else {
                DRAW
            };
        }
        if excluded.is_some() {
            return best;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        // The search's verdict on a quiet position, where it says more than the static
        // evaluation: a fail-high above it or a fail-low below it, or an exact value.
        let tactical_best = best_move.is_some_and(|m| is_tactical(pos, m));
        let beyond_bound = match bound {
            Bound::Lower => best <= static_eval,
            Bound::Upper => best >= static_eval,
            Bound::Exact => false,
        };
        if !(in_check || tactical_best || is_mate(best) || beyond_bound) {
            self.history.correction.update(pos.board(), us, depth, raw_eval, best);
        }
        self.shared.tt.store(key, best_move, value_to_tt(best, ply), raw_eval, depth, bound);
        best
    }

    /// The static evaluation of `pos`, the position at `ply`.
    #[inline]
    fn evaluate(&mut self, pos: &Position, ply: usize) -> i32 {
        if !self.shared.use_nnue {
            return classical(pos);
        }
        let net = self.shared.net;
        let value = self.accumulators.evaluate(net, ply, pos.turn());
        debug_assert_eq!(value, net.evaluate(pos), "{pos} at ply {ply}");
        value
    }

    /// The static evaluation `raw` of `pos` with the correction history's adjustment, kept
    /// clear of mate values (`NO_EVAL`, in check, stays as it is).
    #[inline]
    fn corrected(&self, pos: &Position, raw: i32) -> i32 {
        if raw == NO_EVAL {
            return NO_EVAL;
        }
        let value = self.history.correction.apply(pos.board(), pos.turn(), raw);
        value.clamp(-MATE_IN_MAX_PLY + 1, MATE_IN_MAX_PLY - 1)
    }

    /// A quiet move caused a cutoff: make it a killer and the countermove, raise its history
    /// and lower that of the quiet moves tried before it.
    /// `before` are the node's earlier moves; moves come with the piece that made them.
    fn reward_quiet(
        &mut self,
        ply: usize,
        best: Option<(Piece, Move)>,
        depth: i32,
        before: &Continuations,
        tried: &[Option<(Piece, Move)>],
    ) {
        let Some((piece, m)) = best else { return };
        self.stack[ply].killers.push(m);
        if ply > 0 {
            self.history.set_counter(self.stack[ply - 1].played, m);
        }
        let bonus = bonus(depth);
        self.history.update(before, piece, m, bonus);
        for &(piece, other) in tried.iter().flatten() {
            self.history.update(before, piece, other, -bonus);
        }
    }

    /// A move caused a cutoff: raise its capture history if it is a capture (`best`), and
    /// lower that of the captures tried before it, which did not.
    fn reward_capture(
        &mut self,
        best: Option<(Piece, Move, Role)>,
        depth: i32,
        tried: &[Option<(Piece, Move, Role)>],
    ) {
        let bonus = bonus(depth);
        if let Some((piece, m, victim)) = best {
            self.history.update_capture(piece, m, victim, bonus);
        }
        for &(piece, m, victim) in tried.iter().flatten() {
            self.history.update_capture(piece, m, victim, -bonus);
        }
    }

    /// The moves one and two plies before `ply`, as keys into continuation history.
    #[inline]
    fn continuations(&self, ply: usize) -> Continuations {
        let key = |back: usize| {
            let (piece, m) = self.stack[ply.checked_sub(back)?].played?;
            Some(ContinuationKey::new(piece, m))
        };
        [key(1), key(2)]
    }

    /// Quiescence search: stand pat, then captures and queen promotions that do not lose
    /// material by exchange (all evasions when in check).
    fn qsearch(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        if self.count_node() {
            return DRAW;
        }
        self.seldepth = self.seldepth.max(ply);
        if self.is_draw(pos, ply) {
            return DRAW;
        }
        let in_check = pos.is_check();
        if ply >= MAX_PLY - 1 {
            return if in_check { DRAW } else { self.evaluate(pos, ply) };
        }
        let key = pos.zobrist();
        let hit = self.shared.tt.probe(key);
        if let Some(hit) = hit {
            let value = value_from_tt(hit.value, ply, pos.halfmoves());
            let cutoff = match hit.bound {
                Bound::Exact => true,
                Bound::Lower => value >= beta,
                Bound::Upper => value <= alpha,
            };
            if !pv_node && cutoff {
                return value;
            }
        }
        let raw_eval = match hit {
            _ if in_check => NO_EVAL,
            Some(h) if h.eval != NO_EVAL => h.eval,
            _ => self.evaluate(pos, ply),
        };
        let stand_pat = self.corrected(pos, raw_eval);
        let mut best = if in_check {
            -INFINITE
        } else {
            if stand_pat >= beta {
                return stand_pat;
            }
            alpha = alpha.max(stand_pat);
            stand_pat
        };
        let original_alpha = alpha;
        let mut best_move = None;
        let mut legal = 0;
        let mut picker =
            MovePicker::new(pos, Mode::Tactical, hit.and_then(|h| h.mv), QuietHints::default());
        while let Some(m) = picker.next(pos, self.history, &mut self.buffers[ply]) {
            legal += 1;
            if !in_check {
                // Delta pruning: even winning the piece does not reach alpha.
                let gain = pos.captured_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
                if m.promotion_role().is_none() && stand_pat + gain + 200 < alpha {
                    continue;
                }
                // Losing captures: sacrifices are the main search's business.
                if !see_ge(pos, m, 0) {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(m);
            self.shared.tt.prefetch(child.zobrist());
            self.push(pos.moving_piece(m), m, &child, ply);
            let value = -self.qsearch(&child, -beta, -alpha, ply + 1, pv_node);
            self.pop();
            if self.stopped {
                return DRAW;
            }
            if value > best {
                best = value;
                if value > alpha {
                    best_move = Some(m);
                    alpha = value;
                    if pv_node {
                        self.update_pv(ply, m);
                    }
                    if value >= beta {
                        break;
                    }
                }
            }
        }
        if in_check && legal == 0 {
            return -MATE + ply as i32;
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if pv_node && best > original_alpha {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.shared.tt.store(key, best_move, value_to_tt(best, ply), raw_eval, 0, bound);
        best
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reductions_grow_with_depth_and_move_number() {
        assert_eq!(reduction(1, 1), 0);
        assert!(reduction(10, 30) > reduction(3, 30));
        assert!(reduction(10, 30) > reduction(10, 3));
        assert!(reduction(63, 63) < 10);
    }
}
