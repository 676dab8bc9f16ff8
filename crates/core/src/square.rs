//! Files, ranks and squares of the 8×8 board (RULES.md §1).

use core::fmt;
use core::str::FromStr;

use crate::Color;

/// A column of the board, `a` to `h`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum File {
    A = 0,
    B,
    C,
    D,
    E,
    F,
    G,
    H,
}

/// A row of the board, `1` to `8`, counted from White's side.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
pub enum Rank {
    First = 0,
    Second,
    Third,
    Fourth,
    Fifth,
    Sixth,
    Seventh,
    Eighth,
}

impl File {
    /// All files, `a` first.
    pub const ALL: [File; 8] =
        [File::A, File::B, File::C, File::D, File::E, File::F, File::G, File::H];

    /// The file with index `i` (0 = `a`), if `i < 8`.
    #[inline]
    pub const fn new(i: u32) -> Option<File> {
        if i < 8 {
            Some(File::ALL[i as usize])
        } else {
            None
        }
    }

    /// The file's index, 0 for `a`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The letter `a`–`h`.
    pub const fn char(self) -> char {
        (b'a' + self as u8) as char
    }

    /// Reads `a`–`h`.
    pub const fn from_char(c: char) -> Option<File> {
        if c >= 'a' && c <= 'h' {
            File::new(c as u32 - 'a' as u32)
        } else {
            None
        }
    }

    /// The file `delta` columns to the right (towards `h`), if on the board.
    #[inline]
    pub const fn offset(self, delta: i32) -> Option<File> {
        let i = self as i32 + delta;
        if i >= 0 && i < 8 {
            Some(File::ALL[i as usize])
        } else {
            None
        }
    }
}

impl Rank {
    /// All ranks, `1` first.
    pub const ALL: [Rank; 8] = [
        Rank::First,
        Rank::Second,
        Rank::Third,
        Rank::Fourth,
        Rank::Fifth,
        Rank::Sixth,
        Rank::Seventh,
        Rank::Eighth,
    ];

    /// The rank with index `i` (0 = rank 1), if `i < 8`.
    #[inline]
    pub const fn new(i: u32) -> Option<Rank> {
        if i < 8 {
            Some(Rank::ALL[i as usize])
        } else {
            None
        }
    }

    /// The rank's index, 0 for rank 1.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The digit `1`–`8`.
    pub const fn char(self) -> char {
        (b'1' + self as u8) as char
    }

    /// Reads `1`–`8`.
    pub const fn from_char(c: char) -> Option<Rank> {
        if c >= '1' && c <= '8' {
            Rank::new(c as u32 - '1' as u32)
        } else {
            None
        }
    }

    /// This rank as seen by `color`: rank 1 stays rank 1 for White and becomes rank 8 for Black.
    #[inline]
    pub const fn relative_to(self, color: Color) -> Rank {
        match color {
            Color::White => self,
            Color::Black => Rank::ALL[7 - self as usize],
        }
    }
}

/// A square of the board. `A1` is White's left-hand corner; `H1` and `A8`, the corners at each
/// player's right hand, are light (RULES.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
#[allow(missing_docs)]
#[rustfmt::skip]
pub enum Square {
    A1 = 0,
    B1 = 1,
    C1 = 2,
    D1 = 3,
    E1 = 4,
    F1 = 5,
    G1 = 6,
    H1 = 7,
    A2 = 8,
    B2 = 9,
    C2 = 10,
    D2 = 11,
    E2 = 12,
    F2 = 13,
    G2 = 14,
    H2 = 15,
    A3 = 16,
    B3 = 17,
    C3 = 18,
    D3 = 19,
    E3 = 20,
    F3 = 21,
    G3 = 22,
    H3 = 23,
    A4 = 24,
    B4 = 25,
    C4 = 26,
    D4 = 27,
    E4 = 28,
    F4 = 29,
    G4 = 30,
    H4 = 31,
    A5 = 32,
    B5 = 33,
    C5 = 34,
    D5 = 35,
    E5 = 36,
    F5 = 37,
    G5 = 38,
    H5 = 39,
    A6 = 40,
    B6 = 41,
    C6 = 42,
    D6 = 43,
    E6 = 44,
    F6 = 45,
    G6 = 46,
    H6 = 47,
    A7 = 48,
    B7 = 49,
    C7 = 50,
    D7 = 51,
    E7 = 52,
    F7 = 53,
    G7 = 54,
    H7 = 55,
    A8 = 56,
    B8 = 57,
    C8 = 58,
    D8 = 59,
    E8 = 60,
    F8 = 61,
    G8 = 62,
    H8 = 63,
}

impl Square {
    /// All 64 squares, `a1`, `b1`, … `h8` (rank by rank).
    #[rustfmt::skip]
    pub const ALL: [Square; 64] = [Square::A1, Square::B1, Square::C1, Square::D1, Square::E1, Square::F1, Square::G1, Square::H1, Square::A2, Square::B2, Square::C2, Square::D2, Square::E2, Square::F2, Square::G2, Square::H2, Square::A3, Square::B3, Square::C3, Square::D3, Square::E3, Square::F3, Square::G3, Square::H3, Square::A4, Square::B4, Square::C4, Square::D4, Square::E4, Square::F4, Square::G4, Square::H4, Square::A5, Square::B5, Square::C5, Square::D5, Square::E5, Square::F5, Square::G5, Square::H5, Square::A6, Square::B6, Square::C6, Square::D6, Square::E6, Square::F6, Square::G6, Square::H6, Square::A7, Square::B7, Square::C7, Square::D7, Square::E7, Square::F7, Square::G7, Square::H7, Square::A8, Square::B8, Square::C8, Square::D8, Square::E8, Square::F8, Square::G8, Square::H8];

    /// The square with index `i` (`a1` = 0, `b1` = 1, … `h8` = 63), if `i < 64`.
    #[inline]
    pub const fn new(i: u32) -> Option<Square> {
        if i < 64 {
            Some(Square::ALL[i as usize])
        } else {
            None
        }
    }

    /// The square with index `i & 63`: for indices known to be in range.
    #[inline]
    pub const fn from_index_wrapping(i: u32) -> Square {
        // A conversion, not a table load: squares come out of bitboard scans and packed moves
        // on every move played.
        // SAFETY: `Square` is `repr(u8)` with the discriminants 0 to 63, and `i & 63` is one.
        #[allow(unsafe_code)]
        unsafe {
            core::mem::transmute::<u8, Square>((i & 63) as u8)
        }
    }

    /// The square on `file` and `rank`.
    #[inline]
    pub const fn from_coords(file: File, rank: Rank) -> Square {
        Square::from_index_wrapping(rank as u32 * 8 + file as u32)
    }

    /// The square's index, 0 for `a1` up to 63 for `h8`.
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The square's file.
    #[inline]
    pub const fn file(self) -> File {
        // SAFETY: `File` is `repr(u8)` with the discriminants 0 to 7, and `self & 7` is one.
        #[allow(unsafe_code)]
        unsafe {
            core::mem::transmute::<u8, File>(self as u8 & 7)
        }
    }

    /// The square's rank.
    #[inline]
    pub const fn rank(self) -> Rank {
        // SAFETY: `Rank` is `repr(u8)` with the discriminants 0 to 7, and `self >> 3` is one
        // (a square's discriminant is below 64).
        #[allow(unsafe_code)]
        unsafe {
            core::mem::transmute::<u8, Rank>(self as u8 >> 3)
        }
    }

    /// The square `files` to the right and `ranks` up, if it is on the board.
    #[inline]
    pub const fn offset(self, files: i32, ranks: i32) -> Option<Square> {
        let f = self.file() as i32 + files;
        let r = self.rank() as i32 + ranks;
        if f >= 0 && f < 8 && r >= 0 && r < 8 {
            Some(Square::from_index_wrapping((r * 8 + f) as u32))
        } else {
            None
        }
    }

    /// The same square seen from the other side (`a1` ↔ `a8`).
    #[inline]
    pub const fn flip_vertical(self) -> Square {
        Square::from_index_wrapping(self as u32 ^ 56)
    }

    /// `true` for light squares such as `h1` and `a8` (RULES.md §1).
    #[inline]
    pub const fn is_light(self) -> bool {
        (self.file() as u8 + self.rank() as u8) % 2 == 1
    }

    /// `true` for dark squares such as `a1` and `h8`.
    #[inline]
    pub const fn is_dark(self) -> bool {
        !self.is_light()
    }

    /// Reads a square name such as `e4` (lower case) from bytes.
    ///
    /// # Errors
    /// [`ParseSquareError`] unless `s` is a file letter followed by a rank digit.
    pub const fn from_ascii(s: &[u8]) -> Result<Square, ParseSquareError> {
        if s.len() == 2 {
            if let (Some(f), Some(r)) =
                (File::from_char(s[0] as char), Rank::from_char(s[1] as char))
            {
                return Ok(Square::from_coords(f, r));
            }
        }
        Err(ParseSquareError)
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.file().char(), self.rank().char())
    }
}

impl fmt::Display for File {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// A square name that is not a file letter `a`–`h` followed by a rank digit `1`–`8`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseSquareError;

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("invalid square name (expected a1 … h8)")
    }
}

impl std::error::Error for ParseSquareError {}

impl FromStr for Square {
    type Err = ParseSquareError;

    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for sq in Square::ALL {
            assert_eq!(sq.to_string().parse::<Square>(), Ok(sq));
        }
        assert_eq!("e4".parse::<Square>(), Ok(Square::E4));
        for bad in ["", "e", "e9", "i1", "E4", "e44", "4e"] {
            assert_eq!(bad.parse::<Square>(), Err(ParseSquareError), "{bad:?}");
        }
    }

    #[test]
    fn right_hand_corners_are_light() {
        // RULES.md §1: the corner at each player's right hand is light.
        assert!(Square::H1.is_light());
        assert!(Square::A8.is_light());
        assert!(Square::A1.is_dark());
        assert!(Square::H8.is_dark());
        assert!(Square::D1.is_light(), "the white queen stands on her own colour");
        assert!(Square::D8.is_dark(), "the black queen stands on her own colour");
    }
}
