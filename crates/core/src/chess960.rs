//! The 960 start positions of Chess960 (RULES.md §13), by their standard numbers 0–959
//! (Scharnagl's numbering, 518 being the standard start).
//!
//! A number picks, in order: the light-squared bishop's file among b, d, f, h (n mod 4), the
//! dark-squared bishop's among a, c, e, g (then mod 4), the queen's among the six files left
//! (mod 6), the knights' pair among the five left (one of ten pairs); the last three files hold
//! rook, king, rook. Black mirrors White.

use crate::{
    Board, Castles, CastlingMode, CastlingSide, Color, File, Position, Rank, Role, Setup, Square,
};

/// How many start positions there are.
pub const COUNT: u16 = 960;

/// The number of the standard start position.
pub const STANDARD: u16 = 518;

/// The ten ways to place two knights on five free files, in the numbering's order.
const KNIGHTS: [(usize, usize); 10] =
    [(0, 1), (0, 2), (0, 3), (0, 4), (1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)];

/// The back rank of start position `n` (a-file first), or `None` when `n` ≥ 960.
pub fn back_rank(n: u16) -> Option<[Role; 8]> {
    if n >= COUNT {
        return None;
    }
    let mut rank: [Option<Role>; 8] = [None; 8];
    let n = usize::from(n);
    rank[2 * (n % 4) + 1] = Some(Role::Bishop);
    let n = n / 4;
    rank[2 * (n % 4)] = Some(Role::Bishop);
    let n = n / 4;
    place_nth_free(&mut rank, n % 6, Role::Queen);
    let (first, second) = KNIGHTS[n / 6];
    // The second knight first: placing the first would shift the free squares under it.
    place_nth_free(&mut rank, second, Role::Knight);
    place_nth_free(&mut rank, first, Role::Knight);
    for role in [Role::Rook, Role::King, Role::Rook] {
        place_nth_free(&mut rank, 0, role);
    }
    let mut out = [Role::Pawn; 8];
    for (o, r) in out.iter_mut().zip(rank) {
        *o = r?;
    }
    Some(out)
}

fn place_nth_free(rank: &mut [Option<Role>; 8], n: usize, role: Role) {
    if let Some(slot) = rank.iter_mut().filter(|r| r.is_none()).nth(n) {
        *slot = Some(role);
    }
}

/// The start position's setup: both back ranks of `n`, pawns in front, all four castling
/// rights with the rooks of the back rank.
pub fn setup(n: u16) -> Option<Setup> {
    let rank = back_rank(n)?;
    let mut board = Board::empty();
    let mut castling = Castles::NONE;
    let king = rank.iter().position(|&r| r == Role::King)?;
    for (file, &role) in File::ALL.iter().zip(&rank) {
        for color in Color::ALL {
            let back = Rank::First.relative_to(color);
            let pawns = Rank::Second.relative_to(color);
            board.put(role.of(color), Square::from_coords(*file, back));
            board.put(Role::Pawn.of(color), Square::from_coords(*file, pawns));
            if role == Role::Rook {
                let side = if file.index() > king {
                    CastlingSide::KingSide
                } else {
                    CastlingSide::QueenSide
                };
                castling = castling.with(color, side, *file);
            }
        }
    }
    Some(Setup { castling, ..Setup { board, ..Setup::standard() } })
}

/// Start position `n` as a Chess960 position (castling written king-takes-rook).
pub fn position(n: u16) -> Option<Position> {
    Position::from_setup(setup(n)?, CastlingMode::Chess960).ok()
}

/// The number of the start position `board` shows, if it is one: both back ranks a start
/// rank, Black's the mirror of White's, every pawn on its start square and nothing else.
pub fn number(board: &Board) -> Option<u16> {
    let mut rank = [Role::Pawn; 8];
    for (file, slot) in File::ALL.iter().zip(rank.iter_mut()) {
        *slot = board.role_at(Square::from_coords(*file, Rank::First))?;
    }
    let n = (0..COUNT).find(|&n| back_rank(n) == Some(rank))?;
    let start = setup(n)?;
    (start.board == *board).then_some(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_name_the_published_start_positions() {
        let text = |n| {
            back_rank(n)
                .map(|r| r.iter().map(|role| role.upper_char()).collect::<String>())
                .unwrap_or_default()
        };
        // The standard start, the first and the last, and a few from the published table.
        assert_eq!(text(518), "RNBQKBNR");
        assert_eq!(text(0), "BBQNNRKR");
        assert_eq!(text(959), "RKRNNQBB");
        assert_eq!(text(1), "BQNBNRKR");
        assert!(back_rank(960).is_none());
    }

    #[test]
    fn every_number_is_a_distinct_legal_start_and_reads_back() {
        let mut seen = std::collections::HashSet::new();
        for n in 0..COUNT {
            let rank = back_rank(n).unwrap();
            assert!(seen.insert(rank), "{n} repeats a back rank");
            let king = rank.iter().position(|&r| r == Role::King).unwrap();
            let rooks: Vec<_> =
                rank.iter().enumerate().filter(|(_, &r)| r == Role::Rook).map(|(i, _)| i).collect();
            assert!(rooks[0] < king && king < rooks[1], "{n}: the king between the rooks");
            let bishops: Vec<_> = rank
                .iter()
                .enumerate()
                .filter(|(_, &r)| r == Role::Bishop)
                .map(|(i, _)| i)
                .collect();
            assert_ne!(bishops[0] % 2, bishops[1] % 2, "{n}: bishops on opposite colours");
            let pos = position(n).unwrap();
            assert_eq!(number(pos.board()), Some(n));
            assert_eq!(pos.castling_rights(), crate::CastlingRights::ALL, "{n}");
        }
        assert_eq!(seen.len(), 960);
        assert_eq!(number(Position::new().board()), Some(STANDARD));
    }
}
