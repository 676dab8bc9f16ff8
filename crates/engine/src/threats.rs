//! Threats: enemy pieces attacked by pawns, by lesser pieces or by the king, hanging pieces,
//! and pawn pushes that would attack a piece. A side that must answer a threat loses a tempo
//! or material, which a quiescence search sees only when the threatening side is to move.
//! After Stockfish 11's classical `Evaluation::threats` (and Ethereal's
//! `evaluateThreats`), with weights in [`Params`].
//!
//! Also the [`Attacks`] of each side, gathered once per evaluation while the pieces are
//! evaluated, which the threats, the king's safe checks and the passed pawns' roads share.

use rookery_core::{attacks, Bitboard, Board, Color, Rank, Role, Square};

use crate::params::{Params, Term, S};
use crate::tracer::Tracer;

/// The pieces that threats count, in the order of the per-role weights: pawns and the king
/// are never the victims of these terms.
const VICTIMS: [Role; 4] = [Role::Knight, Role::Bishop, Role::Rook, Role::Queen];

/// `bb` moved one rank forward for `color`.
#[inline]
fn forward(bb: Bitboard, color: Color) -> Bitboard {
    match color {
        Color::White => bb.shift_up(),
        Color::Black => bb.shift_down(),
    }
}

/// The squares one side attacks: by role, at all, and at least twice. Pinned pieces and
/// x-rays are not considered.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Attacks {
    /// Attacked by a piece of this role, by [`Role::index`].
    pub by_role: [Bitboard; 6],
    /// Attacked by any piece.
    pub all: Bitboard,
    /// Attacked by two pieces or more (two pawns count).
    pub twice: Bitboard,
}

impl Attacks {
    /// The attacks of `color`'s pawns and of its king on `king`; the other pieces are
    /// [`Attacks::add`]ed as the evaluation meets them.
    #[inline]
    pub(crate) fn new(board: &Board, color: Color, king: Square) -> Attacks {
        let (west, east) = attacks::pawns_by_side(color, board.by_piece(Role::Pawn.of(color)));
        let pawns = west | east;
        let king = attacks::king(king);
        let mut by_role = [Bitboard::EMPTY; 6];
        by_role[Role::Pawn.index()] = pawns;
        by_role[Role::King.index()] = king;
        Attacks { by_role, all: pawns | king, twice: (west & east) | (pawns & king) }
    }

    /// Adds the squares `reach` that a piece of `role` attacks.
    #[inline(always)]
    pub(crate) fn add(&mut self, role: Role, reach: Bitboard) {
        self.twice |= self.all & reach;
        self.all |= reach;
        self.by_role[role.index()] |= reach;
    }
}

/// The threats of `color`, whose attacks are `ours`, against the other side, whose attacks
/// are `theirs`.
#[inline(always)]
pub(crate) fn threats<T: Tracer>(
    board: &Board,
    color: Color,
    ours: &Attacks,
    theirs: &Attacks,
    p: &Params,
    t: &mut T,
) -> S {
    let them = !color;
    let their_pawns = board.by_piece(Role::Pawn.of(them));
    let our_pawns = board.by_piece(Role::Pawn.of(color));
    let enemies = board.by_color(them) - board.by_piece(Role::King.of(them));
    let pieces = enemies - their_pawns;
    let mut score = S(0, 0);

    // Pieces attacked by a pawn that cannot simply be taken for free.
    let safe_pawns = our_pawns & (!theirs.all | ours.all);
    let by_pawn = attacks::pawns(color, safe_pawns) & pieces;
    // Minor pieces count when no pawn defends them: else the attacker offers a mere trade.
    let loose = pieces - theirs.by_role[Role::Pawn.index()];
    let minors = board.by_role(Role::Knight) | board.by_role(Role::Bishop);
    let majors = board.by_role(Role::Rook) | board.by_role(Role::Queen);
    let minor_reach = ours.by_role[Role::Knight.index()] | ours.by_role[Role::Bishop.index()];
    let by_minor = minor_reach & ((loose & minors) | (pieces & majors));
    let by_rook = ours.by_role[Role::Rook.index()]
        & ((loose & minors) | (pieces & board.by_role(Role::Queen)));
    if (by_pawn | by_minor | by_rook).any() {
        for role in VICTIMS {
            let victims = board.by_role(role);
            let i = role.index();
            let n = (by_pawn & victims).count() as i32;
            let m = (by_minor & victims).count() as i32;
            let r = (by_rook & victims).count() as i32;
            score += p.threat_by_pawn[i] * n + p.threat_by_minor[i] * m + p.threat_by_rook[i] * r;
            t.add(color, Term::ThreatByPawn(role), n);
            t.add(color, Term::ThreatByMinor(role), m);
            t.add(color, Term::ThreatByRook(role), r);
        }
    }

    // Stockfish's "weak" enemies: attacked, and defended neither by a pawn nor by more
    // pieces than attack them. Hanging: those undefended, and pieces attacked twice.
    let strongly_protected = theirs.by_role[Role::Pawn.index()] | (theirs.twice - ours.twice);
    let weak = (enemies & ours.all) - strongly_protected;
    if weak.any() {
        let hanging = (weak & (!theirs.all | (pieces & ours.twice))).count() as i32;
        let by_king = (weak & ours.by_role[Role::King.index()]).count() as i32;
        score += p.hanging * hanging + p.threat_by_king * by_king;
        t.add(color, Term::Hanging, hanging);
        t.add(color, Term::ThreatByKing, by_king);
    }

    // Pawn pushes, one square or two from the start, to a square the enemy pawns do not
    // attack and where the pawn is not simply lost, that attack a piece.
    let empty = !board.occupied();
    let third = Bitboard::from_rank(Rank::Third.relative_to(color));
    let mut pushes = forward(our_pawns, color) & empty;
    pushes |= forward(pushes & third, color) & empty;
    pushes &= !theirs.by_role[Role::Pawn.index()] & (ours.all | !theirs.all);
    let by_push = (attacks::pawns(color, pushes) & pieces).count() as i32;
    score += p.threat_by_push * by_push;
    t.add(color, Term::ThreatByPush, by_push);
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ACTIVE;
    use crate::tracer::NoTrace;
    use rookery_core::Position;

    /// Every piece's attacks of `color`, built square by square from the core's tables.
    fn reference(board: &Board, color: Color) -> Attacks {
        let mut by_role = [Bitboard::EMPTY; 6];
        let mut all = Bitboard::EMPTY;
        let mut twice = Bitboard::EMPTY;
        for (sq, piece) in board.pieces() {
            if piece.color == color {
                let reach = attacks::attacks(piece, sq, board.occupied());
                by_role[piece.role.index()] |= reach;
                twice |= all & reach;
                all |= reach;
            }
        }
        Attacks { by_role, all, twice }
    }

    fn gathered(board: &Board, color: Color) -> Attacks {
        let king = board.king_of(color).expect("a king");
        let mut a = Attacks::new(board, color, king);
        for role in [Role::Knight, Role::Bishop, Role::Rook, Role::Queen] {
            for sq in board.by_piece(role.of(color)) {
                a.add(role, attacks::attacks(role.of(color), sq, board.occupied()));
            }
        }
        a
    }

    /// The threats of White minus those of Black.
    fn threat_balance(fen: &str) -> S {
        let pos: Position = fen.parse().expect("a legal FEN");
        let board = pos.board();
        let white = gathered(board, Color::White);
        let black = gathered(board, Color::Black);
        threats(board, Color::White, &white, &black, &ACTIVE, &mut NoTrace)
            - threats(board, Color::Black, &black, &white, &ACTIVE, &mut NoTrace)
    }

    #[test]
    fn attacks_agree_with_the_tables() {
        for fen in [
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "4k3/pp4pp/2p5/8/4P3/P6P/1P4P1/4K3 w - - 0 1",
            "r1bqk2r/pppp1ppp/2n2n2/2b1p3/2B1P3/3P1N2/PPP2PPP/RNBQK2R w KQkq - 0 1",
        ] {
            let pos: Position = fen.parse().expect("a legal FEN");
            for color in [Color::White, Color::Black] {
                let (a, b) = (gathered(pos.board(), color), reference(pos.board(), color));
                assert_eq!(a.by_role, b.by_role, "{fen} {color}");
                assert_eq!(a.all, b.all, "{fen} {color}");
                assert_eq!(a.twice, b.twice, "{fen} {color}");
            }
        }
    }

    #[test]
    fn a_pawn_attacking_a_piece_is_a_threat() {
        // The knight on e5 attacked by the d4 pawn, and then not.
        let attacked = threat_balance("4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1");
        let quiet = threat_balance("4k3/8/8/4n3/8/3P4/8/4K3 w - - 0 1");
        assert!(attacked.0 > quiet.0 && attacked.1 > quiet.1, "{attacked:?} {quiet:?}");
        assert!(attacked.0 >= ACTIVE.threat_by_pawn[Role::Knight.index()].0, "{attacked:?}");
    }

    #[test]
    fn lesser_pieces_attacking_majors() {
        // A knight forking rook and queen; a rook attacking the queen.
        let fork = threat_balance("4k3/8/1r3q2/3N4/8/8/8/4K3 w - - 0 1");
        let expected = ACTIVE.threat_by_minor[Role::Rook.index()]
            + ACTIVE.threat_by_minor[Role::Queen.index()];
        assert!(fork.0 >= expected.0, "{fork:?}");
        let rook = threat_balance("4k3/8/8/3q4/8/8/8/3RK3 w - - 0 1");
        assert!(rook.0 >= ACTIVE.threat_by_rook[Role::Queen.index()].0, "{rook:?}");
    }

    #[test]
    fn hanging_pieces() {
        // The bishop on b5 is attacked by the queen and undefended; defended by a6 it is not
        // hanging.
        let hanging = threat_balance("4k3/8/8/1b6/8/8/8/1Q2K3 w - - 0 1");
        let defended = threat_balance("4k3/8/p7/1b6/8/8/8/1Q2K3 w - - 0 1");
        assert!(hanging.0 - defended.0 >= ACTIVE.hanging.0, "{hanging:?} {defended:?}");
        // A pawn attacked by the king and not defended.
        let pawn = threat_balance("8/8/4k3/8/3K4/4p3/8/8 w - - 0 1");
        assert_eq!(pawn, ACTIVE.hanging + ACTIVE.threat_by_king);
    }

    #[test]
    fn a_safe_push_that_attacks_is_a_threat() {
        let push = threat_balance("4k3/8/8/8/2b5/8/1PK5/8 w - - 0 1");
        assert_eq!(push, ACTIVE.threat_by_push);
        // Without the king, b3 is not safe: the bishop takes it.
        let unsafe_push = threat_balance("4k3/8/8/8/2b5/8/1P6/4K3 w - - 0 1");
        assert_eq!(unsafe_push, S(0, 0));
    }

    #[test]
    fn threats_are_symmetric() {
        for (white, black) in [
            ("4k3/8/8/4n3/3P4/8/8/4K3 w - - 0 1", "4k3/8/8/3p4/4N3/8/8/4K3 b - - 0 1"),
            ("4k3/8/1r3q2/3N4/8/8/8/4K3 w - - 0 1", "4k3/8/8/8/3n4/1R3Q2/8/4K3 b - - 0 1"),
            ("4k3/8/8/1b6/8/8/8/1Q2K3 w - - 0 1", "1q2k3/8/8/8/1B6/8/8/4K3 b - - 0 1"),
            // b2-b3, guarded by the king, would attack the bishop.
            ("4k3/8/8/8/2b5/8/1PK5/8 w - - 0 1", "8/1pk5/8/2B5/8/8/8/4K3 b - - 0 1"),
        ] {
            let (w, b) = (threat_balance(white), threat_balance(black));
            assert_eq!(w, -b, "{white} / {black}");
            assert!(w.0 > 0, "{white}: {w:?}");
        }
    }
}
