//! Attack tables: which squares each piece attacks (RULES.md §2).
//!
//! Knight, king and pawn tables are computed by `const fn` at compile time. Sliders use "fancy"
//! magic bitboards: the relevant blockers of a square, multiplied by a magic number and shifted,
//! index a table built at compile time as well. The magic numbers were found by a random search
//! (sparse candidates) and are checked while the table is built: a destructive collision stops
//! the compilation. Portable: only multiplication and shifts, no CPU-specific instructions.

use crate::{Bitboard, Color, Piece, Role, Square};

const ROOK_DIRS: [(i32, i32); 4] = [(1, 0), (-1, 0), (0, 1), (0, -1)];
const BISHOP_DIRS: [(i32, i32); 4] = [(1, 1), (1, -1), (-1, 1), (-1, -1)];
const KNIGHT_STEPS: [(i32, i32); 8] =
    [(1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)];
const KING_STEPS: [(i32, i32); 8] =
    [(1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)];

#[rustfmt::skip]
const ROOK_MAGICS: [u64; 64] = [
    0x1080004008801020, 0x0840092002c03000, 0x1900200010400900, 0x0880100008000480,
    0x4200100420080200, 0x8100020100080400, 0x0200040110886200, 0x0200008040220411,
    0x0404800084400220, 0x0000401000402000, 0x0086001081220440, 0x0408800800100280,
    0x000a001201040820, 0x8848800200840080, 0x4001000100040200, 0x0442000102105084,
    0x9080010020804100, 0x0040404000201009, 0x0000808010002009, 0x2200090021d00100,
    0x0008008008040080, 0x0004004002010040, 0x0011040008015042, 0x00000a0001768104,
    0x0000800080204009, 0x2010004140002001, 0x9800200280100080, 0x1000100080080080,
    0x0442000a00049020, 0x2100040080020080, 0x0800120400900148, 0x0010040a00128541,
    0x2800804000800030, 0x1010002000400041, 0x4000200011004100, 0x0610008410800800,
    0x0400802402800800, 0xc100020080800400, 0x0002000802000401, 0x0182085882000401,
    0x0220204000808000, 0x2860100040024022, 0x0001002004110040, 0x99101042000a0020,
    0x0004080004008080, 0x0010040002008080, 0x2012004881020004, 0x8300842444820011,
    0x0088403882010200, 0x0820400080210100, 0x0110910040a00300, 0x0801100280080480,
    0x0242009008200600, 0x1002000489500200, 0x0040800200010080, 0x0091800041000080,
    0x0000209300488001, 0x04c1002414824001, 0x020020000b001041, 0x7000100004200901,
    0x8002002004100802, 0x30010002084c0007, 0x0888221800813004, 0x4000002840840112,
];

#[rustfmt::skip]
const BISHOP_MAGICS: [u64; 64] = [
    0xa010041108003100, 0x006082020a002900, 0x6810010619200000, 0x08281a0520000408,
    0x0001104001000400, 0x0018901008048400, 0x00040a0210245280, 0x000200210808a402,
    0x9140048410821200, 0x0800091010820041, 0x20504804832202c0, 0x0100091401081000,
    0x8021011140000012, 0x0810020804450400, 0x208b0542109008a2, 0x0080084a08040204,
    0x0040e2a80811244c, 0x2505022008008108, 0x0430220100420040, 0x010a040420220040,
    0x1105000290400000, 0x0093001200822120, 0x4000a62048043004, 0x280120048a015004,
    0x006090002a020814, 0x44042000240800d0, 0x01102800040a4400, 0x1004080080220040,
    0x0001001011004024, 0x0010044000805040, 0x0914041200820100, 0x0004821012821480,
    0x0024040500c05021, 0x0088611002080200, 0x0116080a00040020, 0x4000020080080080,
    0x2450450140840040, 0x0000880201484100, 0x0222020404020092, 0x8081110600002e00,
    0x2842101105000801, 0x1100809008001025, 0x00020202221c0400, 0x0422014022009020,
    0x0210046102100c00, 0xc004008082029102, 0x00aa461801101200, 0x0404080080201108,
    0x020542108c205002, 0x0410544804100100, 0x0040910841100000, 0x0400200042021100,
    0x00004204850400c0, 0x0200100410a42102, 0x1040020801210102, 0x0805040410420000,
    0x2884804130100200, 0x800c262201242000, 0x1058000194108800, 0x0014221054420204,
    0x0104000012a02200, 0x0200881003300100, 0x0140400202840100, 0x0402020801010201,
];

/// Squares reached from `sq` by single steps.
const fn step_table(steps: &[(i32, i32)]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        let (f, r) = (sq % 8, sq / 8);
        let mut i = 0;
        while i < steps.len() {
            let (nf, nr) = (f + steps[i].0, r + steps[i].1);
            if nf >= 0 && nf < 8 && nr >= 0 && nr < 8 {
                table[sq as usize] |= 1 << (nr * 8 + nf);
            }
            i += 1;
        }
        sq += 1;
    }
    table
}

/// Squares a slider on `sq` attacks along `dirs`, stopping at (and including) blockers in `occ`.
const fn slide(sq: i32, occ: u64, dirs: &[(i32, i32); 4]) -> u64 {
    let mut attacks = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while f >= 0 && f < 8 && r >= 0 && r < 8 {
            let bit = 1u64 << (r * 8 + f);
            attacks |= bit;
            if occ & bit != 0 {
                break;
            }
            f += df;
            r += dr;
        }
        d += 1;
    }
    attacks
}

/// The blockers that matter for a slider on `sq`: its rays without their last square.
const fn relevant_mask(sq: i32, dirs: &[(i32, i32); 4]) -> u64 {
    let mut mask = 0;
    let mut d = 0;
    while d < 4 {
        let (df, dr) = dirs[d];
        let (mut f, mut r) = (sq % 8 + df, sq / 8 + dr);
        while f + df >= 0 && f + df < 8 && r + dr >= 0 && r + dr < 8 {
            mask |= 1u64 << (r * 8 + f);
            f += df;
            r += dr;
        }
        d += 1;
    }
    mask
}

#[derive(Clone, Copy)]
struct Magic {
    mask: u64,
    magic: u64,
    offset: u32,
    shift: u32,
}

const fn magics(dirs: &[(i32, i32); 4], numbers: &[u64; 64], base: u32) -> [Magic; 64] {
    let mut out = [Magic { mask: 0, magic: 0, offset: 0, shift: 0 }; 64];
    let mut offset = base;
    let mut sq = 0;
    while sq < 64 {
        let mask = relevant_mask(sq as i32, dirs);
        let bits = mask.count_ones();
        out[sq] = Magic { mask, magic: numbers[sq], offset, shift: 64 - bits };
        offset += 1 << bits;
        sq += 1;
    }
    out
}

const ROOK_TABLE_LEN: usize = 102_400;
const BISHOP_TABLE_LEN: usize = 5_248;
const SLIDER_TABLE_LEN: usize = ROOK_TABLE_LEN + BISHOP_TABLE_LEN;

const ROOK_ENTRIES: [Magic; 64] = magics(&ROOK_DIRS, &ROOK_MAGICS, 0);
const BISHOP_ENTRIES: [Magic; 64] = magics(&BISHOP_DIRS, &BISHOP_MAGICS, ROOK_TABLE_LEN as u32);
static ROOK: [Magic; 64] = ROOK_ENTRIES;
static BISHOP: [Magic; 64] = BISHOP_ENTRIES;

const fn fill(table: &mut [u64; SLIDER_TABLE_LEN], dirs: &[(i32, i32); 4], magics: &[Magic; 64]) {
    let mut sq = 0;
    while sq < 64 {
        let m = magics[sq];
        // Enumerate every subset of the mask (Carry-Rippler).
        let mut subset: u64 = 0;
        loop {
            let index = m.offset as usize + (subset.wrapping_mul(m.magic) >> m.shift) as usize;
            let attacks = slide(sq as i32, subset, dirs);
            assert!(
                table[index] == 0 || table[index] == attacks,
                "magic number collides destructively"
            );
            table[index] = attacks;
            subset = subset.wrapping_sub(m.mask) & m.mask;
            if subset == 0 {
                break;
            }
        }
        sq += 1;
    }
}

const fn slider_table() -> [u64; SLIDER_TABLE_LEN] {
    let mut table = [0; SLIDER_TABLE_LEN];
    let (rook, bishop) = (ROOK_ENTRIES, BISHOP_ENTRIES);
    assert!(rook[63].offset as usize + (1 << (64 - rook[63].shift)) == ROOK_TABLE_LEN);
    assert!(bishop[63].offset as usize + (1 << (64 - bishop[63].shift)) == SLIDER_TABLE_LEN);
    fill(&mut table, &ROOK_DIRS, &rook);
    fill(&mut table, &BISHOP_DIRS, &bishop);
    table
}

static SLIDER_ATTACKS: [u64; SLIDER_TABLE_LEN] = slider_table();
static KNIGHT: [u64; 64] = step_table(&KNIGHT_STEPS);
static KING: [u64; 64] = step_table(&KING_STEPS);

const fn pawn_table() -> [[u64; 64]; 2] {
    [step_table(&[(-1, 1), (1, 1)]), step_table(&[(-1, -1), (1, -1)])]
}

static PAWN: [[u64; 64]; 2] = pawn_table();

/// `BETWEEN[a][b]`: the squares strictly between `a` and `b` on a shared line, else empty.
/// `LINE[a][b]`: the whole line (edge to edge) through `a` and `b`, else empty.
const fn line_tables() -> ([[u64; 64]; 64], [[u64; 64]; 64]) {
    let mut between = [[0; 64]; 64];
    let mut line = [[0; 64]; 64];
    let mut a = 0;
    while a < 64 {
        let mut b = 0;
        while b < 64 {
            let bit_b = 1u64 << b;
            let (rook_a, bishop_a) = (slide(a, 0, &ROOK_DIRS), slide(a, 0, &BISHOP_DIRS));
            if a != b && rook_a & bit_b != 0 {
                between[a as usize][b as usize] =
                    slide(a, bit_b, &ROOK_DIRS) & slide(b, 1 << a, &ROOK_DIRS);
                line[a as usize][b as usize] =
                    (rook_a & slide(b, 0, &ROOK_DIRS)) | (1 << a) | bit_b;
            } else if a != b && bishop_a & bit_b != 0 {
                between[a as usize][b as usize] =
                    slide(a, bit_b, &BISHOP_DIRS) & slide(b, 1 << a, &BISHOP_DIRS);
                line[a as usize][b as usize] =
                    (bishop_a & slide(b, 0, &BISHOP_DIRS)) | (1 << a) | bit_b;
            }
            b += 1;
        }
        a += 1;
    }
    (between, line)
}

static LINES: ([[u64; 64]; 64], [[u64; 64]; 64]) = line_tables();

const fn ray_table(dirs: &[(i32, i32); 4]) -> [u64; 64] {
    let mut table = [0; 64];
    let mut sq = 0;
    while sq < 64 {
        table[sq] = slide(sq as i32, 0, dirs);
        sq += 1;
    }
    table
}

static ROOK_RAYS: [u64; 64] = ray_table(&ROOK_DIRS);
static BISHOP_RAYS: [u64; 64] = ray_table(&BISHOP_DIRS);

/// The squares a rook on `sq` attacks on an empty board.
#[inline]
pub fn rook_rays(sq: Square) -> Bitboard {
    Bitboard(ROOK_RAYS[sq.index()])
}

/// The squares a bishop on `sq` attacks on an empty board.
#[inline]
pub fn bishop_rays(sq: Square) -> Bitboard {
    Bitboard(BISHOP_RAYS[sq.index()])
}

/// The squares a knight on `sq` attacks.
#[inline]
pub fn knight(sq: Square) -> Bitboard {
    Bitboard(KNIGHT[sq.index()])
}

/// The squares a king on `sq` attacks.
#[inline]
pub fn king(sq: Square) -> Bitboard {
    Bitboard(KING[sq.index()])
}

/// The squares a pawn of `color` on `sq` attacks (its diagonal captures).
#[inline]
pub fn pawn(color: Color, sq: Square) -> Bitboard {
    Bitboard(PAWN[color.index()][sq.index()])
}

/// The squares the pawns `pawns` of `color` attack towards file a and towards file h, for
/// all pawns at once (set-wise, by shifting the set).
#[inline]
pub const fn pawns_by_side(color: Color, pawns: Bitboard) -> (Bitboard, Bitboard) {
    const NOT_A: u64 = !0x0101_0101_0101_0101;
    const NOT_H: u64 = !0x8080_8080_8080_8080;
    let p = pawns.0;
    match color {
        Color::White => (Bitboard((p << 7) & NOT_H), Bitboard((p << 9) & NOT_A)),
        Color::Black => (Bitboard((p >> 9) & NOT_H), Bitboard((p >> 7) & NOT_A)),
    }
}

/// The squares attacked by any of the pawns `pawns` of `color`.
#[inline]
pub const fn pawns(color: Color, pawns: Bitboard) -> Bitboard {
    let (west, east) = pawns_by_side(color, pawns);
    Bitboard(west.0 | east.0)
}

#[inline]
fn magic_lookup(m: &Magic, occupied: Bitboard) -> Bitboard {
    let index =
        m.offset as usize + ((occupied.0 & m.mask).wrapping_mul(m.magic) >> m.shift) as usize;
    Bitboard(SLIDER_ATTACKS[index])
}

/// The squares a bishop on `sq` attacks when `occupied` holds the pieces on the board.
#[inline]
pub fn bishop(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&BISHOP[sq.index()], occupied)
}

/// The squares a rook on `sq` attacks when `occupied` holds the pieces on the board.
#[inline]
pub fn rook(sq: Square, occupied: Bitboard) -> Bitboard {
    magic_lookup(&ROOK[sq.index()], occupied)
}

/// The squares a queen on `sq` attacks when `occupied` holds the pieces on the board.
#[inline]
pub fn queen(sq: Square, occupied: Bitboard) -> Bitboard {
    bishop(sq, occupied) | rook(sq, occupied)
}

/// The squares `piece` on `sq` attacks when `occupied` holds the pieces on the board.
#[inline]
pub fn attacks(piece: Piece, sq: Square, occupied: Bitboard) -> Bitboard {
    match piece.role {
        Role::Pawn => pawn(piece.color, sq),
        Role::Knight => knight(sq),
        Role::Bishop => bishop(sq, occupied),
        Role::Rook => rook(sq, occupied),
        Role::Queen => queen(sq, occupied),
        Role::King => king(sq),
    }
}

/// The squares strictly between `a` and `b` if they share a rank, file or diagonal, else empty.
#[inline]
pub fn between(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.0[a.index()][b.index()])
}

/// The full line (edge to edge) through `a` and `b` if they share one, else empty.
#[inline]
pub fn line(a: Square, b: Square) -> Bitboard {
    Bitboard(LINES.1[a.index()][b.index()])
}

/// `true` if `a`, `b` and `c` stand on one rank, file or diagonal.
#[inline]
pub fn aligned(a: Square, b: Square, c: Square) -> bool {
    line(a, b).contains(c)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bb(squares: &[Square]) -> Bitboard {
        squares.iter().copied().collect()
    }

    /// `n` pseudo-random sets of squares from `seed` (xorshift64), each about a quarter full.
    fn random_sets(seed: u64, n: usize) -> impl Iterator<Item = u64> {
        let mut x = seed;
        (0..n).map(move |_| {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x & (x >> 3)
        })
    }

    #[test]
    fn set_wise_pawn_attacks_agree_with_the_tables() {
        for set in random_sets(0x9e37_79b9_7f4a_7c15, 2_000).map(Bitboard) {
            for color in [Color::White, Color::Black] {
                let one_by_one =
                    set.into_iter().fold(Bitboard::EMPTY, |all, sq| all | pawn(color, sq));
                assert_eq!(pawns(color, set), one_by_one, "{color} {:x}", set.0);
                let (west, east) = pawns_by_side(color, set);
                assert_eq!(west | east, one_by_one);
                assert!((west & Bitboard(0x8080_8080_8080_8080)).is_empty(), "no wrap to file h");
            }
        }
    }

    #[test]
    fn sliders_match_ray_walk_on_random_boards() {
        for occ in random_sets(0x1234_5678_9abc_def1, 20_000) {
            for sq in Square::ALL {
                let s = sq as i32;
                assert_eq!(rook(sq, Bitboard(occ)).0, slide(s, occ, &ROOK_DIRS), "{sq} {occ:x}");
                assert_eq!(
                    bishop(sq, Bitboard(occ)).0,
                    slide(s, occ, &BISHOP_DIRS),
                    "{sq} {occ:x}"
                );
            }
        }
    }

    #[test]
    fn steppers() {
        use Square::*;
        assert_eq!(knight(A1), bb(&[B3, C2]));
        assert_eq!(king(H8), bb(&[G8, G7, H7]));
        assert_eq!(pawn(Color::White, E4), bb(&[D5, F5]));
        assert_eq!(pawn(Color::Black, A5), bb(&[B4]));
    }

    #[test]
    fn lines() {
        use Square::*;
        assert_eq!(between(A1, D4), bb(&[B2, C3]));
        assert_eq!(between(E1, E4), bb(&[E2, E3]));
        assert_eq!(between(A1, B3), Bitboard::EMPTY);
        assert_eq!(line(B2, C3), bb(&[A1, B2, C3, D4, E5, F6, G7, H8]));
        assert!(aligned(A1, H8, D4));
        assert!(!aligned(A1, H8, D5));
    }
}
