//! Legal move generation, directly: the check mask and pin masks computed when the position was
//! made restrict each piece's destinations, so no move is generated and then thrown away
//! (RULES.md §2–§4). The only per-move test is the king's: each destination square is checked
//! for attackers with the king lifted off the board.
//!
//! Moves go to a [`Sink`] in groups (one piece and its destination set, or a set of pawn
//! destinations sharing one step), so that counting them (perft's last ply) is a handful of
//! population counts, while listing them expands each group.

use crate::attacks;
use crate::{Bitboard, CastlingSide, Color, Move, Position, Rank, Role, Square};

/// Receives the legal moves of a position in groups.
pub(crate) trait Sink {
    /// Moves of the non-pawn piece on `from` (a king's normal moves included) to each of `to`.
    fn piece(&mut self, role: Role, from: Square, to: Bitboard);
    /// Pawn moves to each square of `to`, each from the square `step` indices behind it;
    /// `promotion` says that each is four moves, one per promotion role.
    fn pawns(&mut self, to: Bitboard, step: i32, promotion: bool);
    /// One special move (en passant or castling).
    fn special(&mut self, m: Move);
}

/// Counts moves without listing them.
pub(crate) struct Counter(pub u64);

impl Sink for Counter {
    #[inline(always)]
    fn piece(&mut self, _: Role, _: Square, to: Bitboard) {
        self.0 += u64::from(to.count());
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, _: i32, promotion: bool) {
        self.0 += u64::from(to.count()) << (2 * u32::from(promotion));
    }

    #[inline(always)]
    fn special(&mut self, _: Move) {
        self.0 += 1;
    }
}

/// Calls a closure for each move.
pub(crate) struct ForEach<F>(pub F);

impl<F: FnMut(Move)> Sink for ForEach<F> {
    #[inline(always)]
    fn piece(&mut self, _: Role, from: Square, to: Bitboard) {
        for to in to {
            (self.0)(Move::normal(from, to));
        }
    }

    #[inline(always)]
    fn pawns(&mut self, to: Bitboard, step: i32, promotion: bool) {
        for to in to {
            let from = Square::from_index_wrapping((to as i32 - step) as u32);
            if promotion {
                for role in Role::PROMOTIONS {
                    (self.0)(Move::promotion(from, to, role));
                }
            } else {
                (self.0)(Move::normal(from, to));
            }
        }
    }

    #[inline(always)]
    fn special(&mut self, m: Move) {
        (self.0)(m);
    }
}

const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);

/// Which legal moves [`generate`] produces: its `KIND` parameter.
pub(crate) mod kind {
    /// Every legal move.
    pub(crate) const ALL: u8 = 0;
    /// The captures (en passant included) and the promotions: the moves a quiescence search
    /// looks at, and the first a move picker tries.
    pub(crate) const TACTICAL: u8 = 1;
    /// The rest: moves that neither capture nor promote, castling included.
    pub(crate) const QUIET: u8 = 2;
}

/// Generates the legal moves of `pos` of one [`kind`] into `sink`, without generating the
/// others to throw them away. `TACTICAL` and `QUIET` split `ALL` in two.
#[inline(always)]
pub(crate) fn generate<S: Sink, const KIND: u8>(pos: &Position, sink: &mut S) {
    let tactical = KIND == kind::TACTICAL;
    let quiet = KIND == kind::QUIET;
    let us = pos.turn();
    let them = !us;
    let board = pos.board();
    let ours = board.by_color(us);
    let occupied = board.occupied();
    let king = pos.king_of(us);
    let checkers = pos.checkers();

    // The king: every attacked destination is tested with the king lifted, so that it cannot
    // step back along the ray of a slider that checks it.
    let without_king = occupied.without(king);
    let theirs = board.by_color(them);
    let king_targets = match KIND {
        kind::TACTICAL => attacks::king(king) & theirs,
        kind::QUIET => attacks::king(king) - occupied,
        _ => attacks::king(king) - ours,
    };
    let mut king_to = Bitboard::EMPTY;
    for to in king_targets {
        if !pos.is_attacked(to, them, without_king) {
            king_to.add(to);
        }
    }
    sink.piece(Role::King, king, king_to);

    if checkers.more_than_one() {
        return; // Double check: only the king can move (§4).
    }

    // Where the other pieces may go: anywhere but onto our own pieces, or, in check, onto the
    // checker or between it and the king.
    let target = match checkers.first() {
        Some(checker) => attacks::between(king, checker).with(checker),
        None => !ours,
    };
    let pinned = pos.pinned();
    // Tactical: pieces capture only (pawns also push to promote, so they take the full
    // target). Quiet: nothing is captured.
    let piece_target = match KIND {
        kind::TACTICAL => target & theirs,
        kind::QUIET => target - theirs,
        _ => target,
    };

    for from in pos.our(Role::Knight) - pinned {
        sink.piece(Role::Knight, from, attacks::knight(from) & piece_target);
    }
    for from in pos.our(Role::Bishop) {
        let mut to = attacks::bishop(from, occupied) & piece_target;
        if pinned.contains(from) {
            to &= attacks::line(king, from);
        }
        sink.piece(Role::Bishop, from, to);
    }
    for from in pos.our(Role::Rook) {
        let mut to = attacks::rook(from, occupied) & piece_target;
        if pinned.contains(from) {
            to &= attacks::line(king, from);
        }
        sink.piece(Role::Rook, from, to);
    }
    for from in pos.our(Role::Queen) {
        let mut to = attacks::queen(from, occupied) & piece_target;
        if pinned.contains(from) {
            to &= attacks::line(king, from);
        }
        sink.piece(Role::Queen, from, to);
    }

    match us {
        Color::White => pawns::<S, true, KIND>(pos, sink, target),
        Color::Black => pawns::<S, false, KIND>(pos, sink, target),
    }

    if let Some(ep) = pos.ep_square().filter(|_| !quiet) {
        for from in attacks::pawn(them, ep) & pos.our(Role::Pawn) {
            if pos.is_legal_en_passant(from, ep) {
                sink.special(Move::en_passant(from, ep));
            }
        }
    }

    if checkers.is_empty() && !tactical {
        castling(pos, sink, king);
    }
}

/// Pawn pushes and captures, set-wise for unpinned pawns, one by one for pinned ones; of
/// [`kind::TACTICAL`], captures and pushes to the last rank only; of [`kind::QUIET`], pushes
/// short of it only.
#[inline(always)]
fn pawns<S: Sink, const WHITE: bool, const KIND: u8>(
    pos: &Position,
    sink: &mut S,
    target: Bitboard,
) {
    let (up, up_left, up_right): (i32, i32, i32) = if WHITE { (8, 7, 9) } else { (-8, -9, -7) };
    let shift = |b: Bitboard, by: i32| -> Bitboard {
        if by > 0 {
            Bitboard(b.0 << by)
        } else {
            Bitboard(b.0 >> -by)
        }
    };
    let last_rank = Bitboard::from_rank(if WHITE { Rank::Eighth } else { Rank::First });
    let third_rank = Bitboard::from_rank(if WHITE { Rank::Third } else { Rank::Sixth });
    let board = pos.board();
    let empty = !board.occupied();
    let theirs = board.by_color(if WHITE { Color::Black } else { Color::White });
    let pawns = pos.our(Role::Pawn);
    let pinned = pos.pinned();
    let king = pos.king_of(pos.turn());
    // Where pushes may land (promotions only, for the tactical moves; anything else, for the
    // quiet ones), and where captures may (nowhere, for the quiet moves).
    let push_target = match KIND {
        kind::TACTICAL => target & last_rank,
        kind::QUIET => target - last_rank,
        _ => target,
    };
    let theirs = if KIND == kind::QUIET { Bitboard::EMPTY } else { theirs };

    let mut emit = |to: Bitboard, step: i32| {
        sink.pawns(to - last_rank, step, false);
        sink.pawns(to & last_rank, step, true);
    };

    // A pawn pinned along a file may still push; along a diagonal it may capture its pinner.
    // Pinned pawns are rare: handle each with its pin line as an extra mask.
    let free = pawns - pinned;
    let single = shift(free, up) & empty;
    emit(single & push_target, up);
    emit(shift(single & third_rank, up) & empty & push_target, 2 * up);
    emit(shift(free - FILE_A, up_left) & theirs & target, up_left);
    emit(shift(free - FILE_H, up_right) & theirs & target, up_right);

    for from in pawns & pinned {
        let pin = attacks::line(king, from) & target;
        let one = Bitboard::from_square(from);
        let single = shift(one, up) & empty;
        emit(single & pin & push_target, up);
        emit(shift(single & third_rank, up) & empty & pin & push_target, 2 * up);
        emit(shift(one - FILE_A, up_left) & theirs & pin, up_left);
        emit(shift(one - FILE_H, up_right) & theirs & pin, up_right);
    }
}

/// Castling (§3, §13): the right still held, the squares the king and the rook cross empty, and
/// the king neither in check (the caller checks) nor passing through or landing on an attacked
/// square.
#[inline(always)]
fn castling<S: Sink>(pos: &Position, sink: &mut S, king: Square) {
    let us = pos.turn();
    let rights = pos.castling_rights();
    if rights.of(us).is_empty() {
        return;
    }
    for side in CastlingSide::ALL {
        if can_castle(pos, side, king) {
            let to = if pos.is_chess960() {
                pos.castles().rook(us, side).unwrap_or(king)
            } else {
                side.king_to(us)
            };
            sink.special(Move::castle(king, to));
        }
    }
}

/// `true` if the side to move, not in check, with its king on `king`, may castle on `side`:
/// the right is kept, every square the king and the rook cross or land on is empty but for the
/// two of them, and the king passes through and lands on no attacked square (RULES.md §3,
/// §13).
#[inline]
pub(crate) fn can_castle(pos: &Position, side: CastlingSide, king: Square) -> bool {
    let us = pos.turn();
    let king_to = side.king_to(us);
    if !pos.is_chess960() {
        // Standard chess: king on e1/e8, rook in the corner; only the squares between them
        // need be empty, and the rook shields nothing the king crosses. The general test below
        // decides the same with more work, on every node of a search or a perft.
        let occupied = pos.board().occupied();
        return pos.castling_rights().has(us, side)
            && (attacks::between(king, side.standard_rook_from(us)) & occupied).is_empty()
            && (attacks::between(king, king_to).with(king_to))
                .into_iter()
                .all(|sq| !pos.is_attacked(sq, !us, occupied));
    }
    // The attacks are seen without the castling rook, which may have shielded the king's
    // landing square (king on e1, rook on b1, an enemy rook on a1 covers c1).
    let Some(rook) = pos.castles().rook(us, side) else { return false };
    let others = pos.board().occupied().without(king).without(rook);
    castling_blockers(pos, side, king, rook).is_empty()
        && (attacks::between(king, king_to).with(king_to))
            .into_iter()
            .all(|sq| !pos.is_attacked(sq, !us, others))
}

/// The pieces, other than the castling king on `king` and rook on `rook`, on a square either
/// must cross or land on (RULES.md §3, §13): castling needs none.
#[inline]
pub(crate) fn castling_blockers(
    pos: &Position,
    side: CastlingSide,
    king: Square,
    rook: Square,
) -> Bitboard {
    let us = pos.turn();
    let (king_to, rook_to) = (side.king_to(us), side.rook_to(us));
    let others = pos.board().occupied().without(king).without(rook);
    let path = attacks::between(king, king_to).with(king_to)
        | attacks::between(rook, rook_to).with(rook_to);
    path & others
}

/// `true` if `m` is legal in `pos`: the same rules as [`generate`], applied to one move.
pub(crate) fn is_legal(pos: &Position, m: Move) -> bool {
    let us = pos.turn();
    let board = pos.board();
    let (from, to) = (m.from(), m.to());
    let ours = board.by_color(us);
    let king = pos.king_of(us);
    let checkers = pos.checkers();
    if m.kind() == crate::MoveKind::Castle {
        // In Chess960 a castling move goes to the king's own rook.
        let mut found = false;
        if checkers.is_empty() && from == king {
            castling(pos, &mut ForEach(|c: Move| found |= c == m), king);
        }
        return found;
    }
    if !ours.contains(from) || ours.contains(to) {
        return false;
    }
    let Some(role) = board.role_at(from) else { return false };
    let occupied = board.occupied();
    if m.kind() == crate::MoveKind::EnPassant {
        return role == Role::Pawn
            && pos.ep_square() == Some(to)
            && attacks::pawn(us, from).contains(to)
            && pos.is_legal_en_passant(from, to);
    }
    if role == Role::King {
        return m.kind() == crate::MoveKind::Normal
            && attacks::king(from).contains(to)
            && !pos.is_attacked(to, !us, occupied.without(king));
    }
    if checkers.more_than_one() {
        return false;
    }
    let theirs = board.by_color(!us);
    let reachable = match role {
        Role::Pawn => {
            let last_rank = if us == Color::White { Rank::Eighth } else { Rank::First };
            let promotion = match m.kind() {
                crate::MoveKind::Promotion(p) if Role::PROMOTIONS.contains(&p) => true,
                crate::MoveKind::Promotion(_) => return false,
                _ => false,
            };
            if (to.rank() == last_rank) != promotion {
                return false;
            }
            let (forward, start_rank) =
                if us == Color::White { (1, Rank::Second) } else { (-1, Rank::Seventh) };
            let one = from.offset(0, forward);
            (attacks::pawn(us, from) & theirs).contains(to)
                || (one == Some(to) && !occupied.contains(to))
                || (from.rank() == start_rank
                    && from.offset(0, 2 * forward) == Some(to)
                    && one.is_some_and(|o| !occupied.contains(o))
                    && !occupied.contains(to))
        }
        _ if matches!(m.kind(), crate::MoveKind::Promotion(_)) => false,
        Role::Knight => attacks::knight(from).contains(to),
        Role::Bishop => attacks::bishop(from, occupied).contains(to),
        Role::Rook => attacks::rook(from, occupied).contains(to),
        Role::Queen => attacks::queen(from, occupied).contains(to),
        Role::King => false,
    };
    let target = match checkers.first() {
        Some(checker) => attacks::between(king, checker).with(checker),
        None => Bitboard::FULL,
    };
    reachable
        && target.contains(to)
        && (!pos.pinned().contains(from) || attacks::aligned(king, from, to))
}
