//! What the tuning program (`crates/tune`) needs from the engine, and nothing else uses:
//! the evaluation's parameters ([`Params`], [`Term`]), its linear trace ([`trace()`]), and a
//! quiescence search that resolves a position to a quiet one ([`quiet`]). Hidden from the
//! documentation: it is no stable interface.

use rookery_core::{Move, Position, Role};

pub use crate::params::{psqt_index, Params, Term, ACTIVE, HAND_SET, PHASE_MAX, S, TUNED};
pub use crate::trace::{trace, Trace, ROUNDING};

use crate::eval::evaluate_with;
use crate::see::{see_ge, SEE_VALUE};
use crate::tracer::NoTrace;

/// The static evaluation of `pos` with `params`, side to move's view.
pub fn evaluate_with_params(pos: &Position, params: &Params) -> i32 {
    evaluate_with(pos, params, &mut NoTrace)
}

/// Plies of captures [`quiet`] looks at, at most.
const QUIET_PLIES: usize = 12;

/// The quiet position at the end of the principal variation of a quiescence search of
/// `pos` with `params` — stand pat, then captures and queen promotions that do not lose
/// material by exchange, most valuable victim first — with its value for `pos`'s side to
/// move. As Texel's tuning method does (CPW "Texel's Tuning Method"), the tuner fits the
/// evaluation of this leaf rather than of `pos`, where a capture may be pending.
///
/// Unlike the engine's search it has no table and does not look for mates or draws, so that
/// the result depends on `pos` and `params` only.
pub fn quiet(pos: &Position, params: &Params) -> (Position, i32) {
    let mut leaf = *pos;
    let value = qsearch(pos, params, -i32::MAX, i32::MAX, 0, &mut leaf);
    (leaf, value)
}

fn qsearch(
    pos: &Position,
    params: &Params,
    mut alpha: i32,
    beta: i32,
    ply: usize,
    leaf: &mut Position,
) -> i32 {
    *leaf = *pos;
    let stand_pat = evaluate_with(pos, params, &mut NoTrace);
    if stand_pat >= beta || ply >= QUIET_PLIES {
        return stand_pat;
    }
    alpha = alpha.max(stand_pat);
    let mut moves: Vec<(i32, Move)> = pos
        .legal_moves()
        .iter()
        .copied()
        .filter(|&m| {
            (pos.is_capture(m) || m.promotion_role() == Some(Role::Queen)) && see_ge(pos, m, 0)
        })
        .map(|m| {
            let victim = pos.captured_role(m).map_or(0, |r| SEE_VALUE[r.index()]);
            let attacker = pos.board().role_at(m.from()).map_or(0, |r| r.index() as i32);
            (victim * 8 - attacker, m)
        })
        .collect();
    // Stable, so equal keys keep move generation's order: deterministic.
    moves.sort_by_key(|&(key, _)| -key);
    let mut child_leaf = *pos;
    for (_, m) in moves {
        let mut child = *pos;
        child.play_unchecked(m);
        let value = -qsearch(&child, params, -beta, -alpha, ply + 1, &mut child_leaf);
        if value > alpha {
            alpha = value;
            *leaf = child_leaf;
            if value >= beta {
                break;
            }
        }
    }
    alpha
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quiet_positions_are_their_own_leaf() {
        let pos = Position::new();
        let (leaf, value) = quiet(&pos, &HAND_SET);
        assert_eq!(leaf, pos);
        assert_eq!(value, evaluate_with_params(&pos, &HAND_SET));
    }

    #[test]
    fn a_hanging_piece_is_taken() {
        // White's queen takes the undefended knight on e5.
        let pos: Position = "4k3/8/8/4n3/8/8/1Q6/4K3 w - - 0 1".parse().unwrap();
        let (leaf, value) = quiet(&pos, &HAND_SET);
        let expected: Position = "4k3/8/8/4Q3/8/8/8/4K3 b - - 0 1".parse().unwrap();
        assert_eq!(leaf.board(), expected.board());
        assert_eq!(value, -evaluate_with_params(&leaf, &HAND_SET));
    }
}
