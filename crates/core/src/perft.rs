//! Perft: the number of leaf nodes of the legal move tree to a fixed depth, the standard test of
//! a move generator. The last ply is counted, not played ("bulk counting").

use crate::{Move, Position};

/// The number of move sequences of length `depth` from `pos`.
pub fn perft(pos: &Position, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => pos.count_legal_moves(),
        _ => {
            let mut nodes = 0;
            pos.for_each_legal_move(|m| {
                let mut child = *pos;
                child.play_unchecked(m);
                nodes += perft(&child, depth - 1);
            });
            nodes
        }
    }
}

/// Perft split by root move: each legal move with the leaf count below it (`depth` ≥ 1).
pub fn divide(pos: &Position, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut child = *pos;
            child.play_unchecked(m);
            (m, perft(&child, depth.saturating_sub(1)))
        })
        .collect()
}
