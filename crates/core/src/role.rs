//! Kinds of pieces, and pieces (a kind with a colour).

use core::fmt;

use crate::Color;

/// The kind of a piece (RULES.md §1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[repr(u8)]
pub enum Role {
    /// Moves forward, captures diagonally forward (§2), promotes (§3).
    Pawn = 0,
    /// Jumps two and one (§2).
    Knight = 1,
    /// Slides diagonally.
    Bishop = 2,
    /// Slides orthogonally.
    Rook = 3,
    /// Slides in all eight directions.
    Queen = 4,
    /// Steps one square; may never be left in check (§4).
    King = 5,
}

impl Role {
    /// All roles, pawn first.
    pub const ALL: [Role; 6] =
        [Role::Pawn, Role::Knight, Role::Bishop, Role::Rook, Role::Queen, Role::King];

    /// The roles a pawn may promote to (§3), in the order Q, R, B, N.
    pub const PROMOTIONS: [Role; 4] = [Role::Queen, Role::Rook, Role::Bishop, Role::Knight];

    /// The role's index (pawn 0 … king 5).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter used in FEN and UCI (`p n b r q k`).
    pub const fn char(self) -> char {
        match self {
            Role::Pawn => 'p',
            Role::Knight => 'n',
            Role::Bishop => 'b',
            Role::Rook => 'r',
            Role::Queen => 'q',
            Role::King => 'k',
        }
    }

    /// The upper-case letter used in SAN (`P N B R Q K`).
    pub const fn upper_char(self) -> char {
        self.char().to_ascii_uppercase()
    }

    /// Reads a role letter of either case.
    pub const fn from_char(c: char) -> Option<Role> {
        match c.to_ascii_lowercase() {
            'p' => Some(Role::Pawn),
            'n' => Some(Role::Knight),
            'b' => Some(Role::Bishop),
            'r' => Some(Role::Rook),
            'q' => Some(Role::Queen),
            'k' => Some(Role::King),
            _ => None,
        }
    }

    /// The role's English name in lower case.
    pub const fn name(self) -> &'static str {
        match self {
            Role::Pawn => "pawn",
            Role::Knight => "knight",
            Role::Bishop => "bishop",
            Role::Rook => "rook",
            Role::Queen => "queen",
            Role::King => "king",
        }
    }

    /// Pieces of the same colour on one square: a colour and this role.
    #[inline]
    pub const fn of(self, color: Color) -> Piece {
        Piece { color, role: self }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One value per role.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct ByRole<T>(pub [T; 6]);

impl<T> core::ops::Index<Role> for ByRole<T> {
    type Output = T;

    #[inline]
    fn index(&self, role: Role) -> &T {
        &self.0[role.index()]
    }
}

impl<T> core::ops::IndexMut<Role> for ByRole<T> {
    #[inline]
    fn index_mut(&mut self, role: Role) -> &mut T {
        &mut self.0[role.index()]
    }
}

/// A piece: a role of one colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Whose piece it is.
    pub color: Color,
    /// What kind of piece it is.
    pub role: Role,
}

impl Piece {
    /// The FEN letter: upper case for White, lower case for Black.
    pub const fn char(self) -> char {
        match self.color {
            Color::White => self.role.upper_char(),
            Color::Black => self.role.char(),
        }
    }

    /// Reads a FEN piece letter (`PNBRQK` White, `pnbrqk` Black).
    pub const fn from_char(c: char) -> Option<Piece> {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        match Role::from_char(c) {
            Some(role) => Some(Piece { color, role }),
            None => None,
        }
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.color, self.role)
    }
}
