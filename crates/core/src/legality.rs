//! Judging an attempted move the way an arbiter does (RULES.md §8.2): a legal move, an
//! illegal move (the piece's movement pattern allows it but the rules forbid it — it counts
//! against the player), or no move at all (garbage, an empty square, the opponent's piece — a
//! protocol error that does not count).

use core::fmt;

use crate::{attacks, movegen};
use crate::{CastlingSide, Move, MoveKind, Position, Rank, Role, Square};

/// The verdict on an attempted move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Attempt {
    /// A legal move.
    Legal(Move),
    /// A move the piece's pattern allows that the rules forbid (§8.2).
    Illegal(Illegal),
    /// Not a move at all.
    NotAMove(NotAMove),
}

/// Why an attempt that the piece's movement pattern allows is illegal (§2–§4, §8.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Illegal {
    /// The king would step onto an attacked square ("送王").
    KingIntoCheck,
    /// The side is in check and the move does not answer it (§4).
    DoesNotAnswerCheck,
    /// The piece is pinned: moving it exposes the own king.
    Pinned,
    /// En passant here would expose the own king.
    EnPassantExposesKing,
    /// Another piece stands in the way.
    PathBlocked,
    /// The destination holds one of the mover's own pieces.
    OwnPiece,
    /// A pawn may move diagonally only to capture.
    PawnCapturesNothing,
    /// A pawn cannot capture straight ahead.
    PawnBlocked,
    /// The king or that rook has moved (§3).
    CastlingRightLost,
    /// A square the king or the rook must cross or land on is occupied (§3, §13).
    CastlingBlocked,
    /// The king is in check (§3).
    CastlingOutOfCheck,
    /// The king would pass through an attacked square (§3).
    CastlingThroughCheck,
    /// The king would land on an attacked square (§3).
    CastlingIntoCheck,
}

impl Illegal {
    /// Every reason.
    pub const ALL: [Illegal; 13] = [
        Illegal::KingIntoCheck,
        Illegal::DoesNotAnswerCheck,
        Illegal::Pinned,
        Illegal::EnPassantExposesKing,
        Illegal::PathBlocked,
        Illegal::OwnPiece,
        Illegal::PawnCapturesNothing,
        Illegal::PawnBlocked,
        Illegal::CastlingRightLost,
        Illegal::CastlingBlocked,
        Illegal::CastlingOutOfCheck,
        Illegal::CastlingThroughCheck,
        Illegal::CastlingIntoCheck,
    ];

    /// The reason [`Illegal::describe`] describes so, as a game record writes it.
    pub fn from_description(text: &str) -> Option<Illegal> {
        Illegal::ALL.into_iter().find(|i| i.describe() == text)
    }

    /// A short explanation in English, lower case.
    pub const fn describe(self) -> &'static str {
        match self {
            Illegal::KingIntoCheck => "the king would move into check",
            Illegal::DoesNotAnswerCheck => "the king is in check and this move does not answer it",
            Illegal::Pinned => "the piece is pinned to its king",
            Illegal::EnPassantExposesKing => "capturing en passant would expose the king",
            Illegal::PathBlocked => "another piece is in the way",
            Illegal::OwnPiece => "the square holds one of your own pieces",
            Illegal::PawnCapturesNothing => "a pawn moves diagonally only to capture",
            Illegal::PawnBlocked => "a pawn cannot capture straight ahead",
            Illegal::CastlingRightLost => {
                "castling is no longer allowed: the king or that rook has moved"
            }
            Illegal::CastlingBlocked => {
                "castling is blocked: a square the king or the rook must cross is occupied"
            }
            Illegal::CastlingOutOfCheck => "cannot castle out of check",
            Illegal::CastlingThroughCheck => "cannot castle through an attacked square",
            Illegal::CastlingIntoCheck => "cannot castle into check",
        }
    }
}

impl fmt::Display for Illegal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.describe())
    }
}

/// Why an attempt is not a move at all.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum NotAMove {
    /// Nothing stands on the from square.
    EmptySquare(Square),
    /// The piece on the from square belongs to the opponent.
    NotYourPiece(Square),
    /// The piece cannot move that way on any board.
    NotThePattern(Role),
    /// A pawn reaching the last rank needs a promotion role.
    PromotionMissing,
    /// A promotion role was given for a move that does not promote, or a king or pawn was
    /// chosen.
    BadPromotion,
    /// The null move (`0000` in UCI, `--` in SAN): passing is no move in chess.
    Pass,
}

impl fmt::Display for NotAMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAMove::EmptySquare(sq) => write!(f, "there is no piece on {sq}"),
            NotAMove::NotYourPiece(sq) => write!(f, "the piece on {sq} is not yours"),
            NotAMove::NotThePattern(role) => write!(f, "a {role} does not move like that"),
            NotAMove::PromotionMissing => f.write_str("a promotion piece is needed (q, r, b or n)"),
            NotAMove::BadPromotion => f.write_str("this move cannot promote to that piece"),
            NotAMove::Pass => f.write_str("passing is not a move"),
        }
    }
}

impl Position {
    /// Judges the attempt to move the piece on `from` to `to` (promoting to `promotion`), as
    /// an arbiter would (RULES.md §8.2). Castling is attempted as the king's two-square move.
    pub fn attempt(&self, from: Square, to: Square, promotion: Option<Role>) -> Attempt {
        let us = self.turn();
        let board = self.board();
        let Some(piece) = board.piece_at(from) else {
            return Attempt::NotAMove(NotAMove::EmptySquare(from));
        };
        if piece.color != us {
            return Attempt::NotAMove(NotAMove::NotYourPiece(from));
        }
        let role = piece.role;
        let castle_side = castling_geometry(self, from, to);
        if role == Role::King && castle_side.is_some() {
            if promotion.is_some() {
                return Attempt::NotAMove(NotAMove::BadPromotion);
            }
            let side = castle_side.unwrap_or(CastlingSide::KingSide);
            return match castle_problem(self, side) {
                Ok(m) => Attempt::Legal(m),
                Err(reason) => Attempt::Illegal(reason),
            };
        }
        if !pattern_allows(self, role, from, to) {
            return Attempt::NotAMove(NotAMove::NotThePattern(role));
        }
        let promotes = role == Role::Pawn && to.rank() == Rank::Eighth.relative_to(us);
        let kind = match (promotes, promotion) {
            (true, None) => return Attempt::NotAMove(NotAMove::PromotionMissing),
            (true, Some(p)) if Role::PROMOTIONS.contains(&p) => MoveKind::Promotion(p),
            (false, None) => MoveKind::Normal,
            _ => return Attempt::NotAMove(NotAMove::BadPromotion),
        };
        let occupied = board.occupied();
        if board.by_color(us).contains(to) {
            return Attempt::Illegal(Illegal::OwnPiece);
        }
        let mut kind = kind;
        if role == Role::Pawn {
            let diagonal = from.file() != to.file();
            if diagonal && !board.by_color(!us).contains(to) {
                if self.ep_square() == Some(to) {
                    kind = MoveKind::EnPassant;
                } else {
                    return Attempt::Illegal(Illegal::PawnCapturesNothing);
                }
            }
            if !diagonal && occupied.contains(to) {
                return Attempt::Illegal(Illegal::PawnBlocked);
            }
            if !diagonal && (attacks::between(from, to) & occupied).any() {
                return Attempt::Illegal(Illegal::PathBlocked);
            }
        } else if (attacks::between(from, to) & occupied).any() && role != Role::Knight {
            return Attempt::Illegal(Illegal::PathBlocked);
        }
        let m = Move::new(from, to, kind);
        if self.is_legal(m) {
            return Attempt::Legal(m);
        }
        Attempt::Illegal(if role == Role::King {
            Illegal::KingIntoCheck
        } else if kind == MoveKind::EnPassant && !self.is_check() {
            Illegal::EnPassantExposesKing
        } else if self.pinned().contains(from)
            && !attacks::aligned(self.king_of(us), from, to)
            && !self.is_check()
        {
            Illegal::Pinned
        } else {
            Illegal::DoesNotAnswerCheck
        })
    }
}

/// The castling side when `from` → `to` is a king's castling move by its geometry: the king onto
/// a rook it may castle with, or two squares or more along the back rank onto its castling
/// square (from the e-file in standard chess). The one reading of a dragged or typed king move
/// as castling, for the arbiter's judge and for UCI text alike.
pub(crate) fn castling_geometry(pos: &Position, from: Square, to: Square) -> Option<CastlingSide> {
    let us = pos.turn();
    if from != pos.king_of(us) || from.rank() != Rank::First.relative_to(us) {
        return None;
    }
    if let Some(side) =
        CastlingSide::ALL.into_iter().find(|&s| pos.castles().rook(us, s) == Some(to))
    {
        return Some(side);
    }
    if !pos.is_chess960() && from != CastlingSide::standard_king_from(us) {
        return None;
    }
    CastlingSide::ALL
        .into_iter()
        .find(|side| side.king_to(us) == to && from.file().index().abs_diff(to.file().index()) >= 2)
}

/// The castling move on `side`, or why the rules forbid it here (§3, §13).
fn castle_problem(pos: &Position, side: CastlingSide) -> Result<Move, Illegal> {
    let us = pos.turn();
    let king = pos.king_of(us);
    let (Some(m), Some(rook)) = (pos.castling_move(side), pos.castles().rook(us, side)) else {
        return Err(Illegal::CastlingRightLost);
    };
    if pos.is_legal(m) {
        return Ok(m);
    }
    let others = pos.board().occupied().without(king).without(rook);
    let king_to = side.king_to(us);
    Err(if movegen::castling_blockers(pos, side, king, rook).any() {
        Illegal::CastlingBlocked
    } else if pos.is_check() {
        Illegal::CastlingOutOfCheck
    } else if attacks::between(king, king_to).into_iter().any(|sq| pos.is_attacked(sq, !us, others))
    {
        Illegal::CastlingThroughCheck
    } else {
        Illegal::CastlingIntoCheck
    })
}

/// `true` if a `role` of the side to move could go from `from` to `to` on an empty board.
fn pattern_allows(pos: &Position, role: Role, from: Square, to: Square) -> bool {
    let us = pos.turn();
    match role {
        Role::Pawn => {
            let forward = if us.is_white() { 1 } else { -1 };
            from.offset(0, forward) == Some(to)
                || (from.rank() == Rank::Second.relative_to(us)
                    && from.offset(0, 2 * forward) == Some(to))
                || attacks::pawn(us, from).contains(to)
        }
        Role::Knight => attacks::knight(from).contains(to),
        Role::Bishop => attacks::bishop_rays(from).contains(to),
        Role::Rook => attacks::rook_rays(from).contains(to),
        Role::Queen => (attacks::bishop_rays(from) | attacks::rook_rays(from)).contains(to),
        Role::King => attacks::king(from).contains(to),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use Square::*;

    fn judge(fen: &str, from: Square, to: Square) -> Attempt {
        fen.parse::<Position>().unwrap().attempt(from, to, None)
    }

    #[test]
    fn classifies_attempts() {
        let start = crate::fen::STARTING_FEN;
        assert_eq!(judge(start, E2, E4), Attempt::Legal(Move::normal(E2, E4)));
        assert_eq!(judge(start, E3, E4), Attempt::NotAMove(NotAMove::EmptySquare(E3)));
        assert_eq!(judge(start, E7, E5), Attempt::NotAMove(NotAMove::NotYourPiece(E7)));
        assert_eq!(judge(start, G1, G3), Attempt::NotAMove(NotAMove::NotThePattern(Role::Knight)));
        assert_eq!(judge(start, F1, C4), Attempt::Illegal(Illegal::PathBlocked));
        assert_eq!(judge(start, D1, D2), Attempt::Illegal(Illegal::OwnPiece));
        assert_eq!(judge(start, E2, D3), Attempt::Illegal(Illegal::PawnCapturesNothing));
        assert_eq!(judge(start, E1, G1), Attempt::Illegal(Illegal::CastlingBlocked));
        // King into check, pinned piece, not answering a check.
        let fen = "4k3/8/8/8/4r3/8/8/3K4 w - - 0 1";
        assert_eq!(judge(fen, D1, E1), Attempt::Illegal(Illegal::KingIntoCheck));
        let pinned = "4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1";
        assert_eq!(judge(pinned, E2, C3), Attempt::Illegal(Illegal::Pinned));
        let check = "4k3/8/8/8/8/8/3PN3/r3K3 w - - 0 1";
        assert_eq!(judge(check, E2, F4), Attempt::Illegal(Illegal::DoesNotAnswerCheck));
        // Castling reasons (§3).
        let rights = "4k3/8/8/8/8/8/8/R3K2R w - - 0 1";
        assert_eq!(judge(rights, E1, G1), Attempt::Illegal(Illegal::CastlingRightLost));
        let through = "4k3/8/8/8/8/8/5r2/R3K2R w KQ - 0 1";
        assert_eq!(judge(through, E1, G1), Attempt::Illegal(Illegal::CastlingThroughCheck));
        let into = "4k3/8/8/8/8/8/6r1/R3K2R w KQ - 0 1";
        assert_eq!(judge(into, E1, G1), Attempt::Illegal(Illegal::CastlingIntoCheck));
        let out = "4k3/8/8/8/8/8/4r3/R3K2R w KQ - 0 1";
        assert_eq!(judge(out, E1, C1), Attempt::Illegal(Illegal::CastlingOutOfCheck));
        assert_eq!(judge(into, E1, C1), Attempt::Legal(Move::castle(E1, C1)));
        // En passant exposing the king along the rank.
        let ep = "8/8/8/K2pP2r/8/8/8/7k w - d6 0 1";
        assert_eq!(judge(ep, E5, D6), Attempt::Illegal(Illegal::EnPassantExposesKing));
        // Promotion needs a role.
        let promo = "4k3/1P6/8/8/8/8/8/4K3 w - - 0 1";
        assert_eq!(judge(promo, B7, B8), Attempt::NotAMove(NotAMove::PromotionMissing));
    }

    #[test]
    fn every_legal_move_is_judged_legal() {
        for fen in [
            crate::fen::STARTING_FEN,
            "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1",
            "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1",
            "8/8/8/K2pP2q/8/8/8/7k w - d6 0 1",
        ] {
            let pos: Position = fen.parse().unwrap();
            for &m in pos.legal_moves().iter() {
                assert_eq!(
                    pos.attempt(m.from(), m.to(), m.promotion_role()),
                    Attempt::Legal(m),
                    "{m} in {fen}"
                );
            }
            // And nothing else is.
            for from in Square::ALL {
                for to in Square::ALL {
                    if let Attempt::Legal(m) = pos.attempt(from, to, None) {
                        assert!(pos.is_legal(m));
                    }
                }
            }
        }
    }
}
