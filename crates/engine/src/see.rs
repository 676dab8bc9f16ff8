//! Static exchange evaluation: does a move win at least a given amount of material once all
//! captures on its destination square are played out, least valuable attacker first?
//!
//! The swap algorithm of CPW ("SEE - The Swap Algorithm"), in the threshold form Stockfish
//! uses (`Position::see_ge`): instead of the exchange's value it answers "at least
//! `threshold`?", which lets it stop as soon as the answer is certain. X-rays are found by
//! recomputing slider attacks as pieces leave the board; pins are ignored.

use rookery_core::{attacks, Bitboard, Color, Move, MoveKind, Position, Role, Square};

/// Piece values for exchanges (the king is priceless, so it only captures last).
pub(crate) const SEE_VALUE: [i32; 6] = [100, 320, 330, 500, 950, 0];

fn value(role: Role) -> i32 {
    SEE_VALUE[role.index()]
}

/// `true` if `m` wins at least `threshold` centipawns of material by exchange.
pub(crate) fn see_ge(pos: &Position, m: Move, threshold: i32) -> bool {
    if m.is_castle() {
        return threshold <= 0;
    }
    let (from, to) = (m.from(), m.to());
    let board = pos.board();
    let Some(mover) = board.role_at(from) else { return threshold <= 0 };
    let mut swap = pos.captured_role(m).map_or(0, value) - threshold;
    let mut next_victim = mover;
    if let MoveKind::Promotion(role) = m.kind() {
        swap += value(role) - value(Role::Pawn);
        next_victim = role;
    }
    if swap < 0 {
        return false;
    }
    swap = value(next_victim) - swap;
    if swap <= 0 {
        return true;
    }
    let mut occupied = board.occupied() ^ Bitboard::from_square(from) ^ Bitboard::from_square(to);
    if m.is_en_passant() {
        occupied ^= Bitboard::from_square(Square::from_coords(to.file(), from.rank()));
    }
    let mut attackers = (pos.attackers_to(to, Color::White, occupied)
        | pos.attackers_to(to, Color::Black, occupied))
        & occupied;
    let diagonal = board.diagonal_sliders();
    let orthogonal = board.orthogonal_sliders();
    let mut side = pos.turn();
    // `win` says whether the side that made the last capture comes out ahead so far.
    let mut win = true;
    loop {
        side = !side;
        attackers &= occupied;
        let ours = attackers & board.by_color(side);
        if ours.is_empty() {
            break;
        }
        win = !win;
        let Some((role, sq)) = least_valuable(board, ours) else { break };
        if role == Role::King {
            // The king may capture only if nothing can recapture.
            if (attackers & board.by_color(!side)).any() {
                win = !win;
            }
            break;
        }
        swap = value(role) - swap;
        if swap < i32::from(win) {
            break;
        }
        occupied ^= Bitboard::from_square(sq);
        if matches!(role, Role::Pawn | Role::Bishop | Role::Queen) {
            attackers |= attacks::bishop(to, occupied) & diagonal;
        }
        if matches!(role, Role::Rook | Role::Queen) {
            attackers |= attacks::rook(to, occupied) & orthogonal;
        }
    }
    win
}

fn least_valuable(board: &rookery_core::Board, among: Bitboard) -> Option<(Role, Square)> {
    Role::ALL
        .into_iter()
        .find_map(|role| (among & board.by_role(role)).first().map(|sq| (role, sq)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn see(fen: &str, uci: &str, threshold: i32) -> bool {
        let pos: Position = fen.parse().unwrap();
        let m = *pos.legal_moves().iter().find(|m| m.to_uci() == uci).unwrap();
        see_ge(&pos, m, threshold)
    }

    #[test]
    fn exchanges() {
        // A free pawn.
        let fen = "1k1r4/1pp4p/p7/4p3/8/P5P1/1PP4P/2K1R3 w - - 0 1";
        assert!(see(fen, "e1e5", 100));
        assert!(!see(fen, "e1e5", 101));
        // Rook takes a pawn defended by a rook behind a knight's x-ray: loses the exchange.
        let fen = "1k1r3q/1ppn3p/p4b2/4p3/8/P2N2P1/1PP1R1BP/2K1Q3 w - - 0 1";
        assert!(!see(fen, "d3e5", 0));
        assert!(see(fen, "d3e5", -220));
        // Queen takes a defended pawn.
        let fen = "4k3/8/3p4/4p3/8/8/8/4QK2 w - - 0 1";
        assert!(!see(fen, "e1e5", 0));
        // Quiet move to an attacked square.
        let fen = "4k3/8/8/8/3p4/8/8/2B1K3 w - - 0 1";
        assert!(!see(fen, "c1e3", -99));
        assert!(see(fen, "c1e3", -330));
        // En passant wins a pawn.
        let fen = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1";
        assert!(see(fen, "e5d6", 100));
        // Promotion gains the queen minus the pawn.
        assert!(see("4k3/P7/8/8/8/8/8/4K3 w - - 0 1", "a7a8q", 850));
    }
}
