//! The screen's shared vocabulary, which every other part of the game imports and which
//! imports none of them: how the board is drawn ([`Look`]) and where it sits on a screen of a
//! given size ([`BoardGeometry`]), so that a mouse click ([`super::input`]) lands on the
//! square that [`super::render`] drew there.

use ratatui::layout::Rect;
use rookery_core::{File, Rank, Square};

/// How the board is drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// Letters, no colour.
    Ascii,
    /// Unicode pieces on squares of the 256-colour palette.
    Indexed,
    /// Unicode pieces on 24-bit colours.
    TrueColor,
}

/// The look the terminal can show, as its environment says: no colour for `TERM=dumb` or
/// `NO_COLOR` (no-color.org), 24-bit colour when `COLORTERM` says so, else the 256-colour
/// palette. Environment variables only (crossterm's colour count reads `COLORTERM` and
/// `TERM`): nothing is asked of the terminal itself.
pub fn detect_look() -> Look {
    let term = std::env::var("TERM").unwrap_or_default();
    if std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty())
        || term.is_empty()
        || term == "dumb"
    {
        return Look::Ascii;
    }
    match std::env::var("COLORTERM").as_deref() {
        Ok("truecolor" | "24bit") => Look::TrueColor,
        _ if crossterm::style::available_color_count() >= 256 => Look::Indexed,
        _ => Look::Ascii,
    }
}

/// The smallest screen the game draws on.
pub const MIN_SIZE: (u16, u16) = (27, 14);

/// Rows under the board area: the message (two, for the long ones), the move being typed, the
/// keys.
pub const BOTTOM_ROWS: u16 = 4;

/// Where the board sits on the screen and how big a square is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BoardGeometry {
    /// The column of the top-left square's top-left cell.
    pub x: u16,
    /// The row of that cell.
    pub y: u16,
    /// A square's width in cells.
    pub width: u16,
    /// A square's height in cells.
    pub height: u16,
    /// Black at the bottom.
    pub flipped: bool,
}

impl BoardGeometry {
    /// The cells of `sq`.
    pub fn square_rect(&self, sq: Square) -> Rect {
        let (column, row) = self.cell_of(sq);
        Rect::new(self.x + column * self.width, self.y + row * self.height, self.width, self.height)
    }

    /// The square under the screen cell (`x`, `y`), if any.
    pub fn square_at(&self, x: u16, y: u16) -> Option<Square> {
        let column = x.checked_sub(self.x)? / self.width;
        let row = y.checked_sub(self.y)? / self.height;
        if column >= 8 || row >= 8 {
            return None;
        }
        let (file, rank) = if self.flipped { (7 - column, row) } else { (column, 7 - row) };
        Some(Square::from_coords(File::ALL[file as usize], Rank::ALL[rank as usize]))
    }

    fn cell_of(&self, sq: Square) -> (u16, u16) {
        let (file, rank) = (sq.file().index() as u16, sq.rank().index() as u16);
        if self.flipped {
            (7 - file, rank)
        } else {
            (file, 7 - rank)
        }
    }

    /// The width of the board with its rank labels.
    pub fn outer_width(&self) -> u16 {
        self.x + 8 * self.width
    }
}

/// The board's place on a screen of this size; `None` when the screen is too small.
pub fn board_geometry(screen: Rect, look: Look, flipped: bool) -> Option<BoardGeometry> {
    if screen.width < MIN_SIZE.0 || screen.height < MIN_SIZE.1 {
        return None;
    }
    // Terminal cells are about twice as tall as wide: 3×1, 5×2 and 7×3 squares look square
    // enough. The largest that leaves room for the clocks and moves (28 columns) wins.
    let sizes: &[(u16, u16)] = match look {
        Look::Ascii => &[(3, 1)],
        Look::Indexed | Look::TrueColor => &[(7, 3), (5, 2), (3, 1)],
    };
    let (width, height) = sizes
        .iter()
        .copied()
        .find(|&(w, h)| 3 + 8 * w + 28 <= screen.width && 2 + 8 * h + BOTTOM_ROWS <= screen.height)
        .unwrap_or((3, 1));
    Some(BoardGeometry { x: screen.x + 3, y: screen.y + 1, width, height, flipped })
}
