//! Pawn structure: doubled, isolated, backward, connected and passed pawns (CPW "Pawn
//! Structure", "Passed Pawn"),
//! with a passed pawn's road to promotion judged by the enemy's attacks, and the king's pawn
//! shield (CPW "King Safety", "Pawn Shield").

use rookery_core::{attacks, Bitboard, Board, Color, Role, Square};

use crate::params::{Params, Term, S};
use crate::tracer::Tracer;

const FILE_A: u64 = 0x0101_0101_0101_0101;

const fn file_mask(file: usize) -> u64 {
    FILE_A << file
}

const fn rank_mask(rank: usize) -> u64 {
    0xff << (8 * rank)
}

const fn adjacent_files(file: usize) -> u64 {
    let mut mask = 0;
    if file > 0 {
        mask |= file_mask(file - 1);
    }
    if file < 7 {
        mask |= file_mask(file + 1);
    }
    mask
}

/// The squares strictly in front of `sq` (from `color`'s point of view) on its file and the
/// files beside it: where an enemy pawn must stand to stop a passed pawn.
const fn passed_masks() -> [[u64; 64]; 2] {
    let mut out = [[0; 64]; 2];
    let mut sq = 0;
    while sq < 64 {
        let (file, rank) = (sq % 8, sq / 8);
        let files = file_mask(file) | adjacent_files(file);
        let above = if rank == 7 { 0 } else { !0u64 << ((rank + 1) * 8) };
        let below = if rank == 0 { 0 } else { !0u64 >> ((8 - rank) * 8) };
        out[0][sq] = files & above;
        out[1][sq] = files & below;
        sq += 1;
    }
    out
}

static PASSED_MASK: [[u64; 64]; 2] = passed_masks();

/// The squares from which an enemy pawn could one day attack a piece of `color` on `sq`:
/// those in front of it, on the files beside it. An outpost is a square where this holds no
/// enemy pawn.
#[inline]
pub(crate) fn attack_span(color: Color, sq: Square) -> Bitboard {
    Bitboard(PASSED_MASK[color.index()][sq.index()] & adjacent_files(sq.file() as usize))
}

/// Chebyshev distance: king steps between two squares.
pub(crate) fn distance(a: Square, b: Square) -> i32 {
    let df = (a.file() as i32 - b.file() as i32).abs();
    let dr = (a.rank() as i32 - b.rank() as i32).abs();
    df.max(dr)
}

/// The pawn structure of both sides, White minus Black; `attacked` holds the squares each
/// side attacks, by [`Color::index`], for the passed pawns' roads.
#[inline(always)]
pub(crate) fn evaluate<T: Tracer>(
    board: &Board,
    kings: [Square; 2],
    attacked: [Bitboard; 2],
    p: &Params,
    t: &mut T,
) -> S {
    let mut score = S(0, 0);
    let pawns =
        [board.by_piece(Role::Pawn.of(Color::White)), board.by_piece(Role::Pawn.of(Color::Black))];
    let occupied = board.occupied();
    let defended = [attacks::pawns(Color::White, pawns[0]), attacks::pawns(Color::Black, pawns[1])];
    for color in [Color::White, Color::Black] {
        let us = color.index();
        let ours = pawns[us];
        let theirs = pawns[1 - us];
        let mut side = S(0, 0);
        for sq in ours {
            let file = sq.file() as usize;
            let beside = ours & Bitboard(adjacent_files(file));
            let front = if color == Color::White { sq.offset(0, 1) } else { sq.offset(0, -1) };
            if defended[us].contains(sq) || (beside & Bitboard(rank_mask(sq.rank() as usize))).any()
            {
                let rank = sq.rank().relative_to(color) as usize;
                side += p.connected[rank];
                t.add(color, Term::Connected(rank), 1);
            } else if beside.any()
                && (beside & Bitboard(PASSED_MASK[us][sq.index()])) == beside
                && front.is_some_and(|f| defended[1 - us].contains(f))
            {
                side += p.backward;
                t.add(color, Term::Backward, 1);
            }
            let on_file = ours & Bitboard(file_mask(file));
            if on_file.more_than_one() {
                // Counted once per extra pawn: the rearmost pawn of a file pays nothing.
                let behind = Bitboard(PASSED_MASK[1 - us][sq.index()] & file_mask(file)) & ours;
                if behind.any() {
                    side += p.doubled;
                    t.add(color, Term::Doubled, 1);
                }
            }
            if (ours & Bitboard(adjacent_files(file))).is_empty() {
                side += p.isolated;
                t.add(color, Term::Isolated, 1);
            }
            if (theirs & Bitboard(PASSED_MASK[us][sq.index()])).is_empty()
                && (ours & Bitboard(PASSED_MASK[us][sq.index()] & file_mask(file))).is_empty()
            {
                let rank = sq.rank().relative_to(color) as usize;
                side += p.passed[rank];
                t.add(color, Term::Passed(rank), 1);
                if let Some(front) = front {
                    if occupied.contains(front) {
                        side += p.passed_blocked;
                        t.add(color, Term::PassedBlocked, 1);
                    }
                    let weight = rank as i32 - 2;
                    if weight > 0 {
                        let their_king = weight * distance(kings[1 - us], front).min(5);
                        let our_king = weight * distance(kings[us], front).min(5);
                        side += p.passed_king_theirs * their_king + p.passed_king_ours * our_king;
                        t.add(color, Term::PassedKingTheirs, their_king);
                        t.add(color, Term::PassedKingOurs, our_king);
                        let stops = occupied | attacked[1 - us];
                        let path = Bitboard(PASSED_MASK[us][sq.index()] & file_mask(file));
                        if (path & stops).is_empty() {
                            side += p.passed_free_path * weight;
                            t.add(color, Term::PassedFreePath, weight);
                        } else if !stops.contains(front) {
                            side += p.passed_safe_push * weight;
                            t.add(color, Term::PassedSafePush, weight);
                        }
                    }
                }
            }
        }
        score += if color == Color::White { side } else { -side };
    }
    score
}

/// The pawn shield of `color`'s king: pawns on the three files around a king on its first
/// two ranks, close in front of it.
#[inline(always)]
pub(crate) fn shield<T: Tracer>(
    board: &Board,
    color: Color,
    king: Square,
    p: &Params,
    t: &mut T,
) -> S {
    let relative_rank = king.rank().relative_to(color) as usize;
    if relative_rank > 1 {
        t.add(color, Term::KingExposed, 1);
        return p.king_exposed;
    }
    let ours = board.by_piece(Role::Pawn.of(color));
    let theirs = board.by_piece(Role::Pawn.of(!color));
    let file = king.file() as usize;
    let mut score = S(0, 0);
    let first = file.saturating_sub(1);
    let last = (file + 1).min(7);
    let forward = if color == Color::White { 1 } else { -1 };
    // The squares in front of the king on its file and those beside it: a passed pawn's span.
    let ahead = Bitboard(PASSED_MASK[color.index()][king.index()]);
    for f in first..=last {
        let stormers = theirs & ahead & Bitboard(file_mask(f));
        // The enemy pawn nearest the king: the lowest for White's king, the highest for Black's.
        let nearest = match color {
            Color::White => stormers.first(),
            Color::Black => stormers.last(),
        };
        match nearest {
            Some(pawn) if pawn.offset(0, -forward).is_some_and(|sq| ours.contains(sq)) => {
                score += p.storm_blocked;
                t.add(color, Term::StormBlocked, 1);
            }
            Some(pawn) => {
                let rank = pawn.rank().relative_to(color) as usize;
                score += p.storm[rank];
                t.add(color, Term::Storm(rank), 1);
            }
            None => {
                score += p.storm[0];
                t.add(color, Term::Storm(0), 1);
            }
        }
        let near = king.offset(f as i32 - file as i32, forward);
        let far = king.offset(f as i32 - file as i32, 2 * forward);
        let (term, value) = if near.is_some_and(|sq| ours.contains(sq)) {
            (Term::ShieldNear, p.shield_near)
        } else if far.is_some_and(|sq| ours.contains(sq)) {
            (Term::ShieldFar, p.shield_far)
        } else if (ours & Bitboard(file_mask(f))).is_empty() {
            (Term::ShieldOpen, p.shield_open)
        } else {
            (Term::ShieldMissing, p.shield_missing)
        };
        score += value;
        t.add(color, term, 1);
    }
    score
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::ACTIVE;
    use crate::tracer::NoTrace;
    use rookery_core::Position;

    fn pawns(fen: &str) -> S {
        let pos: Position = fen.parse().unwrap();
        let kings = [pos.king_of(Color::White), pos.king_of(Color::Black)];
        let attacked = [Color::White, Color::Black].map(|color| {
            let mut all = Bitboard::EMPTY;
            for (sq, piece) in pos.board().pieces() {
                if piece.color == color {
                    all |= rookery_core::attacks::attacks(piece, sq, pos.board().occupied());
                }
            }
            all
        });
        evaluate(pos.board(), kings, attacked, &ACTIVE, &mut NoTrace)
    }

    fn shield(board: &Board, color: Color, king: Square) -> i32 {
        super::shield(board, color, king, &ACTIVE, &mut NoTrace).0
    }

    #[test]
    fn symmetric_structures_cancel() {
        assert_eq!(pawns("4k3/pppppppp/8/8/8/8/PPPPPPPP/4K3 w - - 0 1"), S(0, 0));
    }

    #[test]
    fn penalties_and_bonuses() {
        // Doubled and isolated pawns on the a-file against a healthy pair.
        let bad = pawns("4k3/6pp/8/8/8/P7/P7/4K3 w - - 0 1");
        assert!(bad.0 < 0 && bad.1 < 0, "{bad:?}");
        // A far-advanced passed pawn is worth a lot in the endgame.
        let passed = pawns("4k3/8/1P6/8/8/8/8/4K3 w - - 0 1");
        assert!(passed.1 > 60, "{passed:?}");
        // Black's passed pawn counts for Black.
        let black = pawns("4k3/8/8/8/8/1p6/8/4K3 w - - 0 1");
        assert_eq!(black, S(-passed.0, -passed.1));
    }

    #[test]
    fn connected_and_backward_pawns() {
        // A phalanx and a defended chain beat the same pawns apart.
        let phalanx = pawns("4k3/8/8/8/3PP3/8/8/4K3 w - - 0 1");
        let apart = pawns("4k3/8/8/8/2P2P2/8/8/4K3 w - - 0 1");
        assert!(phalanx.0 > apart.0, "{phalanx:?} {apart:?}");
        let chain = pawns("4k3/8/8/8/4P3/3P4/8/4K3 w - - 0 1");
        assert!(chain.0 > apart.0, "{chain:?} {apart:?}");
        // d3 is behind its neighbour e4, and Black's c5 watches d4: d3 is backward. With the
        // black pawn on c6 instead, d3 may advance.
        let backward = pawns("4k3/8/8/2p5/4P3/3P4/8/4K3 w - - 0 1");
        let healthy = pawns("4k3/8/2p5/8/4P3/3P4/8/4K3 w - - 0 1");
        assert!(healthy.0 > backward.0, "{healthy:?} {backward:?}");
    }

    #[test]
    fn a_free_road_is_worth_more() {
        // The same passed pawn on the sixth rank, its road free, then watched by a rook.
        let free = pawns("7k/8/1P6/8/8/8/8/K7 w - - 0 1");
        let watched = pawns("r6k/8/1P6/8/8/8/8/K7 w - - 0 1");
        let blocked = pawns("1r5k/8/1P6/8/8/8/8/K7 w - - 0 1");
        assert!(free.1 > watched.1 && watched.1 > blocked.1, "{free:?} {watched:?} {blocked:?}");
        assert_eq!(
            attack_span(Color::White, Square::E4),
            Bitboard::from_iter([
                Square::D5,
                Square::D6,
                Square::D7,
                Square::D8,
                Square::F5,
                Square::F6,
                Square::F7,
                Square::F8,
            ])
        );
    }

    #[test]
    fn shields() {
        let both: Position = "6k1/5ppp/8/8/8/8/5PPP/6K1 w - - 0 1".parse().unwrap();
        let castled = shield(both.board(), Color::White, Square::G1);
        let pos: Position = "6k1/5ppp/8/8/8/8/8/6K1 w - - 0 1".parse().unwrap();
        let bare = shield(pos.board(), Color::White, Square::G1);
        assert!(castled > bare, "{castled} {bare}");
        // The same for Black in the mirrored position (pawn storms included).
        assert_eq!(castled, shield(both.board(), Color::Black, Square::G8));
    }
}
