//! Forsyth–Edwards Notation (RULES.md §10): reading with errors that name the bad field, and
//! writing with the en passant square only when an en passant capture is legal.

use core::fmt;
use core::str::FromStr;

use crate::{
    Bitboard, Board, Castles, CastlingMode, CastlingSide, Color, File, Piece, Position,
    PositionError, Rank, Role, Setup, Square,
};

/// The FEN of the standard starting position.
pub const STARTING_FEN: &str = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";

/// A parsed FEN: syntactically valid, not yet checked for legality.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fen(pub Setup);

/// A FEN that cannot be read: the field and the reason.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFenError {
    /// Nothing but white space.
    Empty,
    /// Not 4, 5 or 6 space-separated fields.
    FieldCount(usize),
    /// The placement does not have 8 ranks separated by `/`.
    RankCount {
        /// The ranks found.
        found: usize,
        /// The placement field.
        field: String,
    },
    /// A rank that does not describe exactly 8 squares.
    RankLength {
        /// The rank, as on the board.
        rank: Rank,
        /// The squares it describes.
        squares: u32,
        /// Its text.
        text: String,
    },
    /// A character that is neither a piece letter nor a digit 1–8.
    BadPiece {
        /// The rank, as on the board.
        rank: Rank,
        /// The character.
        found: char,
    },
    /// The side to move is not `w` or `b`.
    BadTurn(String),
    /// The castling field is not `-` or up to one right of each of the four kinds, written
    /// `KQkq` or by the rook's file (X-FEN, Shredder-FEN: `HAha`).
    BadCastling(String),
    /// The en passant field is not `-` or a square on rank 3 or 6.
    BadEnPassant(String),
    /// The halfmove clock is not a number.
    BadHalfmoves(String),
    /// The fullmove number is not a number.
    BadFullmoves(String),
}

impl fmt::Display for ParseFenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFenError::Empty => f.write_str("empty FEN"),
            ParseFenError::FieldCount(n) => {
                write!(f, "expected 6 fields (4 at least), found {n}")
            }
            ParseFenError::RankCount { found, field } => {
                write!(f, "placement has {found} ranks, expected 8: {field:?}")
            }
            ParseFenError::RankLength { rank, squares, text } => {
                write!(f, "rank {rank} has {squares} squares: {text:?}")
            }
            ParseFenError::BadPiece { rank, found } => {
                write!(f, "rank {rank} has an invalid piece letter {found:?}")
            }
            ParseFenError::BadTurn(s) => write!(f, "side to move must be w or b, found {s:?}"),
            ParseFenError::BadCastling(s) => {
                write!(
                    f,
                    "castling field must be - or KQkq, or the rooks' files (AHah), each right once, found {s:?}"
                )
            }
            ParseFenError::BadEnPassant(s) => {
                write!(f, "en passant field must be - or a square on rank 3 or 6, found {s:?}")
            }
            // A number too large for its field is out of range, not "not a number".
            ParseFenError::BadHalfmoves(s) if is_digits(s) => {
                write!(f, "halfmove clock is out of range (at most {}), found {s:?}", u32::MAX)
            }
            ParseFenError::BadHalfmoves(s) => {
                write!(f, "halfmove clock must be a number, found {s:?}")
            }
            ParseFenError::BadFullmoves(s) if is_digits(s) => {
                write!(f, "fullmove number is out of range (at most {}), found {s:?}", u32::MAX)
            }
            ParseFenError::BadFullmoves(s) => {
                write!(f, "fullmove number must be a number, found {s:?}")
            }
        }
    }
}

fn is_digits(s: &str) -> bool {
    !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit())
}

impl std::error::Error for ParseFenError {}

/// A FEN that is unreadable or describes an illegal position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FenError {
    /// The text is not FEN.
    Parse(ParseFenError),
    /// The text is FEN, but not of a legal position.
    Position(PositionError),
}

impl fmt::Display for FenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FenError::Parse(e) => write!(f, "invalid FEN: {e}"),
            FenError::Position(e) => write!(f, "illegal position in FEN: {e}"),
        }
    }
}

impl std::error::Error for FenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            FenError::Parse(e) => Some(e),
            FenError::Position(e) => Some(e),
        }
    }
}

impl From<ParseFenError> for FenError {
    fn from(e: ParseFenError) -> FenError {
        FenError::Parse(e)
    }
}

impl From<PositionError> for FenError {
    fn from(e: PositionError) -> FenError {
        FenError::Position(e)
    }
}

/// What each byte of a placement field is, in one load: a piece (its colour times 6 plus its
/// role), a digit (16 plus its value), the rank separator, or nothing a placement holds.
static PLACEMENT_BYTES: [u8; 256] = {
    let mut table = [placement::INVALID; 256];
    let mut b = 0;
    while b < 128 {
        if let Some(piece) = Piece::from_char(b as u8 as char) {
            table[b] = (piece.color.index() * 6 + piece.role.index()) as u8;
        }
        b += 1;
    }
    let mut d = 1;
    while d <= 8 {
        table[b'0' as usize + d] = placement::DIGIT + d as u8;
        d += 1;
    }
    table[b'/' as usize] = placement::SLASH;
    table
};

/// The kinds of [`PLACEMENT_BYTES`] other than pieces (0 to 11).
mod placement {
    pub(super) const DIGIT: u8 = 16;
    pub(super) const SLASH: u8 = 32;
    pub(super) const INVALID: u8 = 255;
}

/// The placement field read byte by byte, without collecting its ranks: `None` for anything
/// irregular, which [`parse_board`] then reads again to name the error. Every game of a file
/// whose games start from a `[FEN]` tag sets up its position here (issue 41). Each byte is
/// looked up once and handled without a branch on its kind, which the processor mispredicted
/// at most bytes of a placement: a piece goes into its set, anything else into a thirteenth set
/// that is thrown away, and whatever is wrong is remembered for the end.
fn parse_board_fast(field: &[u8]) -> Option<Board> {
    let mut sets = [0u64; 13];
    let (mut rank, mut file) = (7u32, 0u32);
    let mut bad = false;
    for &c in field {
        let kind = PLACEMENT_BYTES[usize::from(c)];
        let piece = kind < 12;
        let slash = kind == placement::SLASH;
        let digit = kind & 0xf0 == placement::DIGIT;
        bad |= kind == placement::INVALID;
        bad |= slash && (file != 8 || rank == 0);
        bad |= piece && file >= 8;
        sets[if piece { usize::from(kind) } else { 12 }] |= 1 << ((rank * 8 + file) & 63);
        let step = if piece {
            1
        } else if digit {
            u32::from(kind - placement::DIGIT)
        } else {
            0
        };
        file = if slash { 0 } else { file + step };
        rank = rank.wrapping_sub(u32::from(slash)) & 7;
        bad |= file > 8;
    }
    if bad || rank != 0 || file != 8 {
        return None;
    }
    let mut by_color = [[Bitboard::EMPTY; 6]; 2];
    for (k, &set) in sets[..12].iter().enumerate() {
        by_color[k / 6][k % 6] = Bitboard(set);
    }
    Some(Board::from_piece_sets(&by_color))
}

fn parse_board(field: &str) -> Result<Board, ParseFenError> {
    match parse_board_fast(field.as_bytes()) {
        Some(board) => Ok(board),
        None => parse_board_ranks(field),
    }
}

/// The placement field rank by rank, naming what is wrong with it.
fn parse_board_ranks(field: &str) -> Result<Board, ParseFenError> {
    let ranks: Vec<&str> = field.split('/').collect();
    if ranks.len() != 8 {
        return Err(ParseFenError::RankCount { found: ranks.len(), field: field.to_owned() });
    }
    let mut board = Board::empty();
    for (i, text) in ranks.iter().enumerate() {
        let rank = Rank::ALL[7 - i];
        let mut file = 0u32;
        for c in text.chars() {
            if let Some(d) = c.to_digit(10).filter(|d| (1..=8).contains(d)) {
                file += d;
            } else if let Some(piece) = Piece::from_char(c) {
                if let Some(f) = File::new(file) {
                    board.put(piece, Square::from_coords(f, rank));
                }
                file += 1;
            } else {
                return Err(ParseFenError::BadPiece { rank, found: c });
            }
        }
        if file != 8 {
            return Err(ParseFenError::RankLength {
                rank,
                squares: file,
                text: (*text).to_owned(),
            });
        }
    }
    Ok(board)
}

fn parse_castling(field: &str, board: &Board) -> Result<Castles, ParseFenError> {
    if field == "-" {
        return Ok(Castles::NONE);
    }
    castles_of(field.as_bytes(), board).ok_or_else(|| ParseFenError::BadCastling(field.to_owned()))
}

/// The castling field's rights on `board`, in any of its three forms (RULES.md §10, §13):
/// `KQkq` (the outermost rook on that side of the king; the corner rook in standard chess),
/// X-FEN (`KQkq`, or the rook's file where another rook stands further out) or Shredder-FEN
/// (always the file: `HAha`). `None` for anything else, or a right given twice.
fn castles_of(field: &[u8], board: &Board) -> Option<Castles> {
    if field.is_empty() || field.len() > 4 {
        return None;
    }
    let mut castles = Castles::NONE;
    for &c in field {
        let color = if c.is_ascii_uppercase() { Color::White } else { Color::Black };
        let back = Rank::First.relative_to(color);
        let king = board.king_of(color).filter(|k| k.rank() == back).map(|k| k.file());
        let rooks = board.by_piece(Role::Rook.of(color)) & Bitboard::from_rank(back);
        let (side, file) = match c.to_ascii_lowercase() {
            b'k' => {
                let beyond = |f: &File| king.is_none_or(|k| *f > k);
                let outer = rooks.into_iter().map(|sq| sq.file()).filter(beyond).max();
                (CastlingSide::KingSide, outer.unwrap_or(File::H))
            }
            b'q' => {
                let beyond = |f: &File| king.is_none_or(|k| *f < k);
                let outer = rooks.into_iter().map(|sq| sq.file()).filter(beyond).min();
                (CastlingSide::QueenSide, outer.unwrap_or(File::A))
            }
            f @ b'a'..=b'h' => {
                let file = File::new(u32::from(f - b'a'))?;
                let kingside = match king {
                    Some(k) => file > k,
                    None => file > File::E,
                };
                let side = if kingside { CastlingSide::KingSide } else { CastlingSide::QueenSide };
                (side, file)
            }
            _ => return None,
        };
        if castles.rights().has(color, side) {
            return None;
        }
        castles = castles.with(color, side, file);
    }
    Some(castles)
}

/// The common form of a FEN, six fields each after one space (`… w KQkq - 0 1`), read in one
/// pass over its bytes: `None` for anything else, which [`Fen::parse_fields`] then reads as
/// [`Fen::parse`] always did (and names the error). Whatever this accepts, that reads to the
/// same [`Fen`] (tested). Splitting on any white space and parsing each number in general was
/// most of the time of a FEN, which a file of games that start from `[FEN]` tags reads once a
/// game (issue 41).
fn parse_plain(text: &[u8]) -> Option<Fen> {
    let space = text.iter().position(|&b| b == b' ')?;
    let board = parse_board_fast(&text[..space])?;
    let (turn, rest) = match &text[space + 1..] {
        [b'w', b' ', rest @ ..] => (Color::White, rest),
        [b'b', b' ', rest @ ..] => (Color::Black, rest),
        _ => return None,
    };
    let (castling, rest) = match rest {
        [b'-', b' ', rest @ ..] => (Castles::NONE, rest),
        _ => {
            let k = rest.iter().position(|&b| b == b' ')?;
            (castles_of(&rest[..k], &board)?, rest.get(k + 1..)?)
        }
    };
    let (ep_square, rest) = match rest {
        [b'-', b' ', rest @ ..] => (None, rest),
        [file @ b'a'..=b'h', rank @ (b'3' | b'6'), b' ', rest @ ..] => {
            let file = File::new(u32::from(file - b'a'))?;
            let rank = Rank::new(u32::from(rank - b'1'))?;
            (Some(Square::from_coords(file, rank)), rest)
        }
        _ => return None,
    };
    let space = rest.iter().position(|&b| b == b' ')?;
    let halfmoves = plain_number(&rest[..space])?;
    let fullmoves = plain_number(&rest[space + 1..])?;
    Some(Fen(Setup { board, turn, castling, ep_square, halfmoves, fullmoves }))
}

/// One to nine ASCII digits (no sign, never out of range) as a number; `None` for anything
/// else, which `str::parse` then reads.
#[inline]
fn plain_number(digits: &[u8]) -> Option<u32> {
    if digits.is_empty() || digits.len() > 9 {
        return None;
    }
    digits.iter().try_fold(0u32, |n, &b| b.is_ascii_digit().then(|| n * 10 + u32::from(b - b'0')))
}

impl Fen {
    /// Reads a FEN. The halfmove clock and fullmove number may be left out (as in EPD); they
    /// then default to 0 and 1.
    ///
    /// # Errors
    /// [`ParseFenError`] naming the first bad field.
    pub fn parse(text: &str) -> Result<Fen, ParseFenError> {
        match parse_plain(text.as_bytes()) {
            Some(fen) => Ok(fen),
            None => Fen::parse_fields(text),
        }
    }

    /// [`Fen::parse`] field by field, for any FEN [`parse_plain`] leaves: it names the first
    /// bad field.
    fn parse_fields(text: &str) -> Result<Fen, ParseFenError> {
        // The fields in an array, not a vector: one allocation less a game for files whose
        // games start from a `[FEN]` tag (issue 41).
        let mut fields = [""; 6];
        let mut count = 0;
        for field in text.split_ascii_whitespace() {
            if let Some(slot) = fields.get_mut(count) {
                *slot = field;
            }
            count += 1;
        }
        if count == 0 {
            return Err(ParseFenError::Empty);
        }
        if !(4..=6).contains(&count) {
            return Err(ParseFenError::FieldCount(count));
        }
        let fields = &fields[..count];
        let board = parse_board(fields[0])?;
        let turn = match fields[1] {
            "w" => Color::White,
            "b" => Color::Black,
            other => return Err(ParseFenError::BadTurn(other.to_owned())),
        };
        let castling = parse_castling(fields[2], &board)?;
        let ep_square = match fields[3] {
            "-" => None,
            s => match s.parse::<Square>() {
                Ok(sq) if matches!(sq.rank(), Rank::Third | Rank::Sixth) => Some(sq),
                _ => return Err(ParseFenError::BadEnPassant(s.to_owned())),
            },
        };
        let halfmoves = match fields.get(4) {
            None => 0,
            Some(s) => s.parse().map_err(|_| ParseFenError::BadHalfmoves((*s).to_owned()))?,
        };
        let fullmoves = match fields.get(5) {
            None => 1,
            Some(s) => s.parse().map_err(|_| ParseFenError::BadFullmoves((*s).to_owned()))?,
        };
        Ok(Fen(Setup { board, turn, castling, ep_square, halfmoves, fullmoves }))
    }

    /// The FEN of a position, with the en passant square only when a capture there is legal.
    pub fn from_position(pos: &Position) -> Fen {
        let mut setup = pos.to_setup();
        setup.ep_square = pos.legal_ep_square();
        Fen(setup)
    }

    /// Checks the setup and builds the position, for standard chess.
    ///
    /// # Errors
    /// [`PositionError`] if the FEN describes an illegal position.
    pub fn into_position(self) -> Result<Position, PositionError> {
        Position::from_setup(self.0, CastlingMode::Standard)
    }

    /// Checks the setup and builds the position, with castling in `mode`.
    ///
    /// # Errors
    /// [`PositionError`] if the FEN describes an illegal position.
    pub fn into_position_in(self, mode: CastlingMode) -> Result<Position, PositionError> {
        Position::from_setup(self.0, mode)
    }

    /// The FEN with the castling field in Shredder-FEN: each right by its rook's file
    /// (`HAha`), as some engines and GUIs write Chess960 positions.
    pub fn to_shredder(&self) -> String {
        let mut text = String::with_capacity(96);
        self.write(&mut text, true);
        text
    }
}

impl FromStr for Fen {
    type Err = ParseFenError;

    fn from_str(s: &str) -> Result<Fen, ParseFenError> {
        Fen::parse(s)
    }
}

/// The placement field of a board (`rnbqkbnr/pppppppp/8/…`).
pub fn board_fen(board: &Board) -> String {
    // Room for the other fields too, as `Fen::append_to` appends them.
    let mut out = String::with_capacity(96);
    append_board_fen(board, &mut out);
    out
}

/// Appends the placement field of `board` to `out`.
pub fn append_board_fen(board: &Board, out: &mut String) {
    let mut field = [0u8; PLACEMENT_ROOM];
    let n = write_board_fen(board, &mut field);
    // ASCII by construction; the check is a pass over at most 71 bytes.
    out.push_str(core::str::from_utf8(&field[..n]).unwrap_or_default());
}

/// Room for a placement field (at most 64 letters and 7 slashes) and the 8 bytes that
/// [`write_board_fen`] may write past the last rank's end.
const PLACEMENT_ROOM: usize = 80;

/// How a rank with some squares occupied is written: `len` bytes, byte `k` taken from place
/// `from[k]` of the rank's letters followed by the digits `0` to `8` (the letter of the piece
/// on file `f` at place `f`, the count `d` of a run of empty squares at place `8 + d`).
#[derive(Clone, Copy)]
struct RankShape {
    from: [u8; 8],
    len: u8,
}

/// The [`RankShape`] of each set of occupied files (bit `f` for file `f`).
static RANK_SHAPES: [RankShape; 256] = {
    let mut shapes = [RankShape { from: [0; 8], len: 0 }; 256];
    let mut occupied = 0;
    while occupied < 256 {
        let shape = &mut shapes[occupied];
        let (mut len, mut empty) = (0, 0);
        let mut file = 0;
        while file < 8 {
            if occupied & (1 << file) != 0 {
                if empty > 0 {
                    shape.from[len] = 8 + empty;
                    len += 1;
                    empty = 0;
                }
                shape.from[len] = file as u8;
                len += 1;
            } else {
                empty += 1;
            }
            file += 1;
        }
        if empty > 0 {
            shape.from[len] = 8 + empty;
            len += 1;
        }
        shape.len = len as u8;
        occupied += 1;
    }
    shapes
};

/// Writes the placement field of `board` at the start of `field` and returns its length;
/// bytes after it may be overwritten. The pieces go into a table of the 64 squares first,
/// one pass over the twelve piece sets (asking each square for its piece searched the roles
/// 64 times); then each rank is written in the shape its set of occupied files has, eight
/// byte copies without a branch: a square at a time, whether an occupied square came after
/// an empty one was a branch the processor could not foresee, and each square's bookkeeping
/// depended on the last's (`rookery pgn replay` writes a FEN a game; issue 41).
fn write_board_fen(board: &Board, field: &mut [u8; PLACEMENT_ROOM]) -> usize {
    let mut letters = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            for sq in board.by_piece(piece) {
                letters[sq.index()] = piece.char() as u8;
            }
        }
    }
    let occupied = board.occupied().0;
    let mut n = 0;
    for rank in (0..8).rev() {
        let shape = RANK_SHAPES[((occupied >> (rank * 8)) & 0xff) as usize];
        // The rank's letters, then the digits; 32 places, so that a mask keeps any index in.
        let mut places = *b"........012345678...............";
        places[..8].copy_from_slice(&letters[rank * 8..rank * 8 + 8]);
        let Some(out) = field.get_mut(n..n + 8) else { break };
        for (o, &from) in out.iter_mut().zip(&shape.from) {
            *o = places[usize::from(from) & 31];
        }
        n += usize::from(shape.len);
        if let Some(slash) = field.get_mut(n) {
            *slash = b'/';
        }
        n += usize::from(rank != 0);
    }
    n
}

impl Fen {
    /// Appends the FEN's text, as [`Display`](fmt::Display) writes it, to `out`: a writer of
    /// many FENs keeps one string.
    pub fn append_to(&self, out: &mut String) {
        self.write(out, false);
    }

    /// Appends the FEN to `out`, its castling field in Shredder-FEN when `shredder`, else in
    /// X-FEN (`KQkq` for standard rights).
    fn write(&self, out: &mut String, shredder: bool) {
        let s = &self.0;
        // The whole text in bytes first and appended once: a character at a time, each push
        // checked for room and encoded, cost as much as the placement.
        let mut text = [0u8; PLACEMENT_ROOM + 32];
        let Some((field, _)) = text.split_first_chunk_mut::<PLACEMENT_ROOM>() else {
            return;
        };
        let mut n = write_board_fen(&s.board, field);
        let mut push = |b: u8| {
            if let Some(slot) = text.get_mut(n) {
                *slot = b;
                n += 1;
            }
        };
        push(b' ');
        push(s.turn.to_char() as u8);
        push(b' ');
        if s.castling.rights().is_empty() {
            push(b'-');
        } else if s.castling.is_standard() && !shredder {
            for (color, side, c) in [
                (Color::White, CastlingSide::KingSide, b'K'),
                (Color::White, CastlingSide::QueenSide, b'Q'),
                (Color::Black, CastlingSide::KingSide, b'k'),
                (Color::Black, CastlingSide::QueenSide, b'q'),
            ] {
                if s.castling.rights().has(color, side) {
                    push(c);
                }
            }
        } else {
            for b in castling_field(s, shredder).bytes() {
                push(b);
            }
        }
        push(b' ');
        match s.ep_square {
            Some(sq) => {
                push(sq.file().char() as u8);
                push(sq.rank().char() as u8);
            }
            None => push(b'-'),
        }
        for number in [s.halfmoves, s.fullmoves] {
            push(b' ');
            let (digits, k) = decimal(u64::from(number));
            for &d in &digits[k..] {
                push(d);
            }
        }
        // ASCII by construction.
        out.push_str(core::str::from_utf8(&text[..n]).unwrap_or_default());
    }
}

impl fmt::Display for Fen {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Built in one string and written once: the formatter's machinery for each of the
        // six fields cost more than the FEN itself (`rookery pgn replay` writes one a game).
        let mut text = String::with_capacity(96);
        self.append_to(&mut text);
        f.write_str(&text)
    }
}

/// Appends `n` in decimal, as `format!("{n}")` writes it without the formatter's machinery:
/// for writers of FEN and of lines around it (`rookery pgn replay`).
pub fn push_decimal(text: &mut String, n: u64) {
    let (digits, k) = decimal(n);
    text.extend(digits[k..].iter().map(|&d| char::from(d)));
}

/// The decimal digits of `n`, at the end of the array from the returned index on.
#[inline]
fn decimal(mut n: u64) -> ([u8; 20], usize) {
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return (digits, k);
        }
    }
}

/// The castling field in X-FEN (`shredder` false: `KQkq`, or the rook's file where another rook
/// of that side stands further out) or Shredder-FEN (`shredder` true: always the file), White's
/// rights first, each colour's from the h-side.
fn castling_field(s: &Setup, shredder: bool) -> String {
    let mut field = String::with_capacity(4);
    for color in Color::ALL {
        let back = Bitboard::from_rank(Rank::First.relative_to(color));
        let rooks = s.board.by_piece(Role::Rook.of(color)) & back;
        for side in CastlingSide::ALL {
            let Some(rook) = s.castling.rook(color, side) else { continue };
            let further_out = rooks.into_iter().any(|other| match side {
                CastlingSide::KingSide => other.file() > rook.file(),
                CastlingSide::QueenSide => other.file() < rook.file(),
            });
            let c = if shredder || further_out {
                rook.file().char()
            } else if side == CastlingSide::KingSide {
                'k'
            } else {
                'q'
            };
            field.push(if color.is_white() { c.to_ascii_uppercase() } else { c });
        }
    }
    if field.is_empty() {
        field.push('-');
    }
    field
}

impl Position {
    /// Reads a position from FEN.
    ///
    /// # Errors
    /// [`FenError`]: the text is not FEN, or not of a legal position.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Ok(Fen::parse(text)?.into_position()?)
    }

    /// Reads a position from FEN, with castling in `mode`.
    ///
    /// # Errors
    /// [`FenError`]: the text is not FEN, or not of a legal position.
    pub fn from_fen_in(text: &str, mode: CastlingMode) -> Result<Position, FenError> {
        Ok(Fen::parse(text)?.into_position_in(mode)?)
    }

    /// The position's FEN (en passant square only when an en passant capture is legal; the
    /// castling field in X-FEN, which is `KQkq` in standard chess).
    pub fn to_fen(&self) -> String {
        Fen::from_position(self).to_string()
    }
}

impl FromStr for Position {
    type Err = FenError;

    fn from_str(s: &str) -> Result<Position, FenError> {
        Position::from_fen(s)
    }
}

impl fmt::Display for Position {
    /// The FEN.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", Fen::from_position(self))
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn decimals_as_the_formatter_writes_them() {
        for n in [0, 1, 9, 10, 99, 100, 12_345, u64::from(u32::MAX), u64::MAX] {
            let mut line = String::from("x");
            super::push_decimal(&mut line, n);
            assert_eq!(line, format!("x{n}"));
        }
    }

    use super::*;

    /// The byte-by-byte placement reader agrees with the rank-by-rank one wherever it answers,
    /// and answers for every board the other accepts: real placements and their mutations at
    /// every byte (each byte replaced by one of a set of near misses, or cut off).
    #[test]
    fn fast_placement_reader_agrees_with_the_rank_reader() {
        let placements = [
            "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR",
            "r1bqkb1r/ppp2ppp/2n2n2/3pp1N1/2B1P3/8/PPPP1PPP/RNBQK2R",
            "8/8/8/8/8/8/8/8",
            "4k3/8/8/8/8/8/4P3/4K3",
            "44/53/8/8/8/8/8/71",
        ];
        let replacements = b"/0123456789kKqQpPxX \xc3";
        let mut checked = 0;
        for placement in placements {
            for v in mutations(placement.as_bytes(), replacements) {
                let Ok(text) = std::str::from_utf8(&v) else { continue };
                let fast = parse_board_fast(text.as_bytes());
                let ranks = parse_board_ranks(text).ok();
                assert!(fast == ranks, "{text:?}: the two readers disagree");
                assert!(parse_board(text).is_ok() == ranks.is_some(), "{text:?}");
                checked += 1;
            }
        }
        assert!(checked > 1000, "only {checked} placements checked");
    }

    /// `bytes`, and `bytes` cut off at every byte, each byte replaced by each of
    /// `replacements`, and each of them inserted before every byte.
    fn mutations(bytes: &[u8], replacements: &[u8]) -> Vec<Vec<u8>> {
        let mut variants = vec![bytes.to_vec()];
        for i in 0..bytes.len() {
            variants.push(bytes[..i].to_vec());
            for &r in replacements {
                let mut v = bytes.to_vec();
                v[i] = r;
                variants.push(v.clone());
                v.insert(i, r);
                variants.push(v);
            }
        }
        variants
    }

    #[test]
    fn field_errors_still_named() {
        assert!(matches!(Fen::parse(""), Err(ParseFenError::Empty)));
        assert!(matches!(Fen::parse("8/8 w"), Err(ParseFenError::FieldCount(2))));
        assert!(matches!(
            Fen::parse("8/8/8/8/8/8/8/8 w - - 0 1 x"),
            Err(ParseFenError::FieldCount(7))
        ));
        assert!(matches!(
            Fen::parse("8/8/8/8/8/8/8/9 w - - 0 1"),
            Err(ParseFenError::BadPiece { found: '9', .. })
        ));
        assert!(matches!(
            Fen::parse("8/8/8/8/8/8/8/7 w - - 0 1"),
            Err(ParseFenError::RankLength { squares: 7, .. })
        ));
        assert!(matches!(
            Fen::parse("8/8/8/8/8/8/8 w - -"),
            Err(ParseFenError::RankCount { found: 7, .. })
        ));
    }

    /// The one-pass reader of the common form agrees with the field-by-field reader wherever
    /// it answers, and answers for the common form: real FENs and their mutations at every
    /// byte (each byte replaced by, or preceded by, one of a set of near misses, or cut off).
    #[test]
    fn plain_fen_reader_agrees_with_the_field_reader() {
        let fens = [
            STARTING_FEN,
            "r1bqkb1r/ppp2ppp/2n2n2/3pp1N1/2B1P3/8/PPPP1PPP/RNBQK2R w KQkq - 0 5",
            "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w Kq c6 0 2",
            "rnbqkbnr/pppp1ppp/8/8/3Pp3/8/PPP1PPPP/RNBQKBNR b Qk d3 0 3",
            "8/8/8/8/8/8/8/8 b - - 123456789 999999999",
            "4k3/8/8/8/8/8/4P3/4K3 w - - 1234567890 1",
        ];
        let replacements = b" \t-/0123456789+kKqQbwaefhx\xc3";
        let mut plain = 0;
        let mut checked = 0;
        for fen in fens {
            for v in mutations(fen.as_bytes(), replacements) {
                let Ok(text) = std::str::from_utf8(&v) else { continue };
                let fields = Fen::parse_fields(text);
                if let Some(fen) = parse_plain(text.as_bytes()) {
                    assert_eq!(Ok(fen), fields, "{text:?}: the two readers disagree");
                    plain += 1;
                }
                assert_eq!(Fen::parse(text), fields, "{text:?}");
                checked += 1;
            }
        }
        assert!(parse_plain(STARTING_FEN.as_bytes()).is_some(), "the common form read in one pass");
        assert!(plain > 100 && checked > 5000, "{plain} read in one pass of {checked}");
    }

    /// A straightforward writer of the placement: each square asked for its piece.
    fn placement_square_by_square(board: &Board) -> String {
        let mut out = String::new();
        for rank in Rank::ALL.iter().rev() {
            let mut empty = 0;
            for file in File::ALL {
                match board.piece_at(Square::from_coords(file, *rank)) {
                    Some(piece) => {
                        if empty > 0 {
                            out.push_str(&empty.to_string());
                            empty = 0;
                        }
                        out.push(piece.char());
                    }
                    None => empty += 1,
                }
            }
            if empty > 0 {
                out.push_str(&empty.to_string());
            }
            if *rank != Rank::First {
                out.push('/');
            }
        }
        out
    }

    /// Every set of occupied files of a rank, at every rank, with pieces of each kind: the
    /// rank shapes write what a square-by-square writer does.
    #[test]
    fn placements_written_as_square_by_square() {
        let pieces: Vec<Piece> =
            Color::ALL.iter().flat_map(|&c| Role::ALL.iter().map(move |r| r.of(c))).collect();
        for occupied in 0..256u32 {
            for rank in Rank::ALL {
                let mut board = Board::empty();
                for file in File::ALL {
                    if occupied >> file.index() & 1 != 0 {
                        let piece = pieces[(occupied as usize + file.index() * 5) % pieces.len()];
                        board.put(piece, Square::from_coords(file, rank));
                    }
                }
                // Another rank full, so that the shape is not the only thing written.
                let other = Rank::ALL[(rank.index() + 3) % 8];
                for file in File::ALL {
                    board.put(pieces[file.index()], Square::from_coords(file, other));
                }
                let mut written = String::from("x");
                append_board_fen(&board, &mut written);
                let want = format!("x{}", placement_square_by_square(&board));
                assert_eq!(written, want, "files {occupied:08b} on rank {rank}");
            }
        }
    }
}
