//! Material and piece-square tables, middlegame and endgame (CPW "Piece-Square Tables",
//! "Tapered Eval").
//!
//! Rookery's own hand-set values, in the classical spirit of Michniewski's "Simplified
//! Evaluation Function" (CPW): knights and bishops toward the centre, rooks on the seventh,
//! the king sheltered in the middlegame and central in the endgame, pawns encouraged forward
//! in the centre and kept back before a castled king. The tables are laid out as a board is
//! drawn, rank 8 first, from White's point of view; Black reads them mirrored.

use core::ops::{Add, AddAssign, Mul, Neg, Sub, SubAssign};

use rookery_core::{Color, Role, Square};

/// A middlegame and an endgame value, blended by the game phase.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct S(pub(crate) i32, pub(crate) i32);

impl Add for S {
    type Output = S;
    fn add(self, o: S) -> S {
        S(self.0 + o.0, self.1 + o.1)
    }
}

impl AddAssign for S {
    fn add_assign(&mut self, o: S) {
        *self = *self + o;
    }
}

impl Sub for S {
    type Output = S;
    fn sub(self, o: S) -> S {
        S(self.0 - o.0, self.1 - o.1)
    }
}

impl SubAssign for S {
    fn sub_assign(&mut self, o: S) {
        *self = *self - o;
    }
}

impl Neg for S {
    type Output = S;
    fn neg(self) -> S {
        S(-self.0, -self.1)
    }
}

impl Mul<i32> for S {
    type Output = S;
    fn mul(self, k: i32) -> S {
        S(self.0 * k, self.1 * k)
    }
}

/// Material by role (the king's is irrelevant).
pub(crate) const MATERIAL: [S; 6] =
    [S(85, 110), S(325, 300), S(340, 320), S(460, 520), S(980, 950), S(0, 0)];

#[rustfmt::skip]
const PAWN_MG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     40,  50,  50,  55,  55,  50,  50,  40,
     10,  15,  20,  30,  30,  20,  15,  10,
      0,   5,  10,  25,  25,  10,   5,   0,
     -5,   0,   8,  20,  20,   5,   0,  -5,
     -5,   0,   0,   5,   5, -10,   0,  -5,
     -5,   5,   5, -15, -15,  10,  10,  -5,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const PAWN_EG: [i32; 64] = [
      0,   0,   0,   0,   0,   0,   0,   0,
     35,  35,  30,  30,  30,  30,  35,  35,
     20,  20,  15,  15,  15,  15,  20,  20,
     10,  10,   5,   5,   5,   5,  10,  10,
      5,   5,   0,   0,   0,   0,   5,   5,
      0,   0,   0,  -2,  -2,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
];

#[rustfmt::skip]
const KNIGHT_MG: [i32; 64] = [
    -60, -30, -25, -20, -20, -25, -30, -60,
    -30, -15,   0,   5,   5,   0, -15, -30,
    -20,   5,  12,  18,  18,  12,   5, -20,
    -15,   5,  15,  22,  22,  15,   5, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,   0,  10,  10,  10,  10,   0, -20,
    -30, -15,  -5,   2,   2,  -5, -15, -30,
    -55, -25, -20, -15, -15, -20, -25, -55,
];

#[rustfmt::skip]
const KNIGHT_EG: [i32; 64] = [
    -45, -30, -20, -15, -15, -20, -30, -45,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -20,  -5,   8,  12,  12,   8,  -5, -20,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -15,   0,  12,  18,  18,  12,   0, -15,
    -20,  -5,   5,  10,  10,   5,  -5, -20,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -45, -30, -20, -15, -15, -20, -30, -45,
];

#[rustfmt::skip]
const BISHOP_MG: [i32; 64] = [
    -20, -10, -10, -10, -10, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   8,   8,   5,   0, -10,
    -10,   5,   5,  10,  10,   5,   5, -10,
    -10,   0,  10,  10,  10,  10,   0, -10,
    -10,  10,   8,  10,  10,   8,  10, -10,
    -10,  12,   0,   5,   5,   0,  12, -10,
    -20, -10, -12, -10, -10, -12, -10, -20,
];

#[rustfmt::skip]
const BISHOP_EG: [i32; 64] = [
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
     -8,   0,   5,   5,   5,   5,   0,  -8,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -5,   0,   5,  10,  10,   5,   0,  -5,
     -8,   0,   5,   5,   5,   5,   0,  -8,
    -10,  -3,   0,   0,   0,   0,  -3, -10,
    -15, -10,  -8,  -5,  -5,  -8, -10, -15,
];

#[rustfmt::skip]
const ROOK_MG: [i32; 64] = [
      5,   5,  10,  12,  12,  10,   5,   5,
     15,  20,  20,  20,  20,  20,  20,  15,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -5,   0,   0,   0,   0,   0,   0,  -5,
     -8,  -2,   0,   0,   0,   0,  -2,  -8,
     -5,   0,   5,  10,  10,   8,   0,  -5,
];

#[rustfmt::skip]
const ROOK_EG: [i32; 64] = [
      5,   5,   5,   5,   5,   5,   5,   5,
     10,  12,  12,  12,  12,  12,  12,  10,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
      0,   0,   0,   0,   0,   0,   0,   0,
     -3,   0,   0,   0,   0,   0,   0,  -3,
     -5,   0,   0,   0,   0,   0,   0,  -5,
];

#[rustfmt::skip]
const QUEEN_MG: [i32; 64] = [
    -20, -10, -10,  -5,  -5, -10, -10, -20,
    -10,   0,   0,   0,   0,   0,   0, -10,
    -10,   0,   5,   5,   5,   5,   0, -10,
     -5,   0,   5,   5,   5,   5,   0,  -5,
     -5,   0,   5,   5,   5,   5,   0,  -5,
    -10,   2,   5,   5,   5,   5,   0, -10,
    -10,   0,   2,   0,   0,   0,   0, -10,
    -20, -10, -10,  -2,  -5, -10, -10, -20,
];

#[rustfmt::skip]
const QUEEN_EG: [i32; 64] = [
    -25, -15, -10,  -5,  -5, -10, -15, -25,
    -15,  -5,   0,   5,   5,   0,  -5, -15,
    -10,   0,  10,  12,  12,  10,   0, -10,
     -5,   5,  12,  15,  15,  12,   5,  -5,
     -5,   5,  12,  15,  15,  12,   5,  -5,
    -10,   0,  10,  12,  12,  10,   0, -10,
    -15,  -5,   0,   5,   5,   0,  -5, -15,
    -25, -15, -10,  -5,  -5, -10, -15, -25,
];

#[rustfmt::skip]
const KING_MG: [i32; 64] = [
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -40, -50, -50, -60, -60, -50, -50, -40,
    -30, -40, -40, -50, -50, -40, -40, -30,
    -20, -30, -30, -40, -40, -30, -30, -20,
     10,  10, -10, -20, -20, -10,  15,  15,
     20,  30,  10, -10,   0, -10,  35,  25,
];

#[rustfmt::skip]
const KING_EG: [i32; 64] = [
    -50, -35, -25, -20, -20, -25, -35, -50,
    -30, -15,  -5,   0,   0,  -5, -15, -30,
    -25,  -5,  15,  25,  25,  15,  -5, -25,
    -25,  -5,  25,  35,  35,  25,  -5, -25,
    -25,  -5,  25,  35,  35,  25,  -5, -25,
    -25,  -5,  15,  25,  25,  15,  -5, -25,
    -30, -20,  -5,   0,   0,  -5, -20, -30,
    -50, -35, -30, -25, -25, -30, -35, -50,
];

const TABLES: [(&[i32; 64], &[i32; 64]); 6] = [
    (&PAWN_MG, &PAWN_EG),
    (&KNIGHT_MG, &KNIGHT_EG),
    (&BISHOP_MG, &BISHOP_EG),
    (&ROOK_MG, &ROOK_EG),
    (&QUEEN_MG, &QUEEN_EG),
    (&KING_MG, &KING_EG),
];

/// Material plus table value of a piece of `color` and `role` on `sq`, from White's point of
/// view for White and Black's for Black.
const fn build() -> [[[S; 64]; 6]; 2] {
    let mut out = [[[S(0, 0); 64]; 6]; 2];
    let mut role = 0;
    while role < 6 {
        let (mg, eg) = TABLES[role];
        let mut sq = 0;
        while sq < 64 {
            // Square a1 = 0; the tables start at a8. White mirrors ranks, Black reads as is.
            let white = sq ^ 56;
            out[0][role][sq] = S(MATERIAL[role].0 + mg[white], MATERIAL[role].1 + eg[white]);
            out[1][role][sq] = S(MATERIAL[role].0 + mg[sq], MATERIAL[role].1 + eg[sq]);
            sq += 1;
        }
        role += 1;
    }
    out
}

static PSQT: [[[S; 64]; 6]; 2] = build();

/// Material and placement of a piece, from its own side's point of view.
#[inline]
pub(crate) fn psqt(color: Color, role: Role, sq: Square) -> S {
    PSQT[color.index()][role.index()][sq.index()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_mirror_between_colours() {
        for role in Role::ALL {
            for sq in Square::ALL {
                assert_eq!(
                    psqt(Color::White, role, sq),
                    psqt(Color::Black, role, sq.flip_vertical())
                );
            }
        }
        // The knight prefers f3 to h3, the king g1 to e2 in the middlegame.
        assert!(
            psqt(Color::White, Role::Knight, Square::F3).0
                > psqt(Color::White, Role::Knight, Square::H3).0
        );
        assert!(
            psqt(Color::White, Role::King, Square::G1).0
                > psqt(Color::White, Role::King, Square::E2).0
        );
        assert!(
            psqt(Color::Black, Role::Pawn, Square::E2).1
                > psqt(Color::Black, Role::Pawn, Square::E7).1
        );
    }
}
