//! Forsyth–Edwards Notation (RULES.md §10): reading with errors that name the bad field, and
//! writing with the en passant square only when an en passant capture is legal.

use core::fmt;
use core::str::FromStr;

use crate::{
    Bitboard, Board, CastlingRights, CastlingSide, Color, File, Piece, Position, PositionError,
    Rank, Role, Setup, Square,
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
    /// The castling field is not `-` or some of `KQkq` once each.
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
                write!(f, "castling field must be - or letters of KQkq, found {s:?}")
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

fn parse_castling(field: &str) -> Result<CastlingRights, ParseFenError> {
    if field == "-" {
        return Ok(CastlingRights::NONE);
    }
    let mut rights = CastlingRights::NONE;
    for c in field.chars() {
        let right = match c {
            'K' => CastlingRights::WHITE_KING_SIDE,
            'Q' => CastlingRights::WHITE_QUEEN_SIDE,
            'k' => CastlingRights::BLACK_KING_SIDE,
            'q' => CastlingRights::BLACK_QUEEN_SIDE,
            _ => return Err(ParseFenError::BadCastling(field.to_owned())),
        };
        if rights.contains(right) {
            return Err(ParseFenError::BadCastling(field.to_owned()));
        }
        rights = rights.union(right);
    }
    if rights.is_empty() {
        return Err(ParseFenError::BadCastling(field.to_owned()));
    }
    Ok(rights)
}

impl Fen {
    /// Reads a FEN. The halfmove clock and fullmove number may be left out (as in EPD); they
    /// then default to 0 and 1.
    ///
    /// # Errors
    /// [`ParseFenError`] naming the first bad field.
    pub fn parse(text: &str) -> Result<Fen, ParseFenError> {
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
        let castling = parse_castling(fields[2])?;
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

    /// Checks the setup and builds the position.
    ///
    /// # Errors
    /// [`PositionError`] if the FEN describes an illegal position.
    pub fn into_position(self) -> Result<Position, PositionError> {
        Position::from_setup(self.0)
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
    // The pieces go into a table of the 64 squares first, one pass over the twelve piece
    // sets: asking each square for its piece searched the roles 64 times. The field is then
    // put together in bytes and appended once, not a character at a time (`rookery pgn
    // replay` writes a FEN a game; issue 41).
    let mut letters = [0u8; 64];
    for color in Color::ALL {
        for role in Role::ALL {
            let piece = role.of(color);
            for sq in board.by_piece(piece) {
                letters[sq.index()] = piece.char() as u8;
            }
        }
    }
    // At most 64 letters and 7 slashes, and room for the byte written past the last one.
    let mut field = [0u8; 72];
    let mut n = 0;
    // Each square writes both what it may need, the count of the empty squares before it and
    // its letter, and keeps what it needs: an occupied square after an empty one was a branch
    // the processor could not foresee, twice a rank.
    for rank in Rank::ALL.iter().rev() {
        let mut empty = 0u8;
        for &letter in &letters[rank.index() * 8..rank.index() * 8 + 8] {
            let occupied = letter != 0;
            field[n] = b'0' + empty;
            n += usize::from(occupied && empty > 0);
            field[n] = letter;
            n += usize::from(occupied);
            empty = if occupied { 0 } else { empty + 1 };
        }
        field[n] = b'0' + empty;
        n += usize::from(empty > 0);
        field[n] = b'/';
        n += usize::from(*rank != Rank::First);
    }
    // ASCII by construction; the check is a pass over at most 71 bytes.
    out.push_str(core::str::from_utf8(&field[..n]).unwrap_or_default());
}

impl Fen {
    /// Appends the FEN's text, as [`Display`](fmt::Display) writes it, to `out`: a writer of
    /// many FENs keeps one string.
    pub fn append_to(&self, out: &mut String) {
        let s = &self.0;
        append_board_fen(&s.board, out);
        out.push(' ');
        out.push(s.turn.to_char());
        out.push(' ');
        if s.castling.is_empty() {
            out.push('-');
        }
        for (color, side, c) in [
            (Color::White, CastlingSide::KingSide, 'K'),
            (Color::White, CastlingSide::QueenSide, 'Q'),
            (Color::Black, CastlingSide::KingSide, 'k'),
            (Color::Black, CastlingSide::QueenSide, 'q'),
        ] {
            if s.castling.has(color, side) {
                out.push(c);
            }
        }
        out.push(' ');
        match s.ep_square {
            Some(sq) => {
                out.push(sq.file().char());
                out.push(sq.rank().char());
            }
            None => out.push('-'),
        }
        for number in [s.halfmoves, s.fullmoves] {
            out.push(' ');
            push_decimal(out, u64::from(number));
        }
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
    let mut digits = [0u8; 20];
    let mut k = digits.len();
    let mut n = n;
    loop {
        k -= 1;
        digits[k] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    text.extend(digits[k..].iter().map(|&d| char::from(d)));
}

impl Position {
    /// Reads a position from FEN.
    ///
    /// # Errors
    /// [`FenError`]: the text is not FEN, or not of a legal position.
    pub fn from_fen(text: &str) -> Result<Position, FenError> {
        Ok(Fen::parse(text)?.into_position()?)
    }

    /// The position's FEN (en passant square only when an en passant capture is legal).
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
            let bytes = placement.as_bytes();
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
            for v in variants {
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
}
