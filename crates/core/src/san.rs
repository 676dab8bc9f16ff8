//! Standard Algebraic Notation (RULES.md §10): reading, forgiving where real files are, and
//! writing the canonical form.
//!
//! Reading is two steps, as syntax and legality are different failures: [`SanPlus::from_ascii`]
//! parses the text ([`ParseSanError`]), then [`San::to_move`] finds the one legal move it names
//! in a position ([`SanError`]: no such move, and why, or several).

use core::fmt;
use core::str::FromStr;

use crate::attacks;
use crate::movegen;
use crate::{Bitboard, CastlingSide, File, Move, Position, Rank, Role, Square};

/// A move in SAN, without its check suffix.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum San {
    /// A piece or pawn move, as `Nbd7`, `exd5`, `e8=Q`.
    Normal {
        /// The moving role (`Pawn` when no letter is given).
        role: Role,
        /// The file the piece comes from, when given.
        file: Option<File>,
        /// The rank the piece comes from, when given.
        rank: Option<Rank>,
        /// Written as a capture (`x`).
        capture: bool,
        /// The destination.
        to: Square,
        /// The promotion role, when given.
        promotion: Option<Role>,
    },
    /// `O-O` or `O-O-O`.
    Castle(CastlingSide),
    /// A null move, `--` (only in analysis files; never legal).
    Null,
}

/// The check marker after a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Suffix {
    /// `+`
    Check,
    /// `#`
    Checkmate,
}

/// A SAN move with its check or mate suffix, as written in a game score.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SanPlus {
    /// The move.
    pub san: San,
    /// `+` or `#`, if written (or, from [`SanPlus::from_move`], if the move gives it).
    pub suffix: Option<Suffix>,
}

/// Text that is not SAN at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSanError {
    /// The offending text (lossily decoded).
    pub text: String,
}

impl fmt::Display for ParseSanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "not a move in SAN: {:?}", self.text)
    }
}

impl std::error::Error for ParseSanError {}

/// Why a SAN move does not name exactly one legal move in a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanError {
    /// No piece of that kind can go there by its movement pattern.
    NoPiece {
        /// The move as written.
        san: San,
    },
    /// The only pieces that could go there are pinned to their king.
    Pinned {
        /// The move as written.
        san: San,
        /// The pinned piece.
        from: Square,
    },
    /// The move leaves or puts the own king in check (§2, §4).
    KingInCheck {
        /// The move as written.
        san: San,
    },
    /// A promotion is needed (the pawn reaches the last rank) but not written, or written where
    /// none happens, or to a king or pawn.
    BadPromotion {
        /// The move as written.
        san: San,
    },
    /// Castling that the rules forbid here (§3), with the reason.
    Castling {
        /// Which castling.
        side: CastlingSide,
        /// Why not.
        reason: &'static str,
    },
    /// A null move, which is never legal.
    Null,
    /// More than one legal move fits.
    Ambiguous {
        /// The move as written.
        san: San,
        /// Every legal move that fits, in SAN.
        candidates: Vec<San>,
    },
}

impl fmt::Display for SanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanError::NoPiece { san } => write!(f, "illegal move {san}: no piece can go there"),
            SanError::Pinned { san, from } => {
                write!(f, "illegal move {san}: the piece on {from} is pinned")
            }
            SanError::KingInCheck { san } => {
                write!(f, "illegal move {san}: the king would be in check")
            }
            SanError::BadPromotion { san } => write!(f, "illegal move {san}: wrong promotion"),
            SanError::Castling { side, reason } => {
                write!(f, "illegal move {}: {reason}", San::Castle(*side))
            }
            SanError::Null => f.write_str("illegal move --: null moves are not moves"),
            SanError::Ambiguous { san, candidates } => {
                write!(f, "ambiguous move {san}: could be ")?;
                for (i, c) in candidates.iter().enumerate() {
                    if i > 0 {
                        f.write_str(" or ")?;
                    }
                    write!(f, "{c}")?;
                }
                Ok(())
            }
        }
    }
}

impl std::error::Error for SanError {}

impl SanPlus {
    /// Parses SAN, forgiving as real files need: `0-0` for `O-O`, `e8Q` for `e8=Q`, `Pe4`,
    /// redundant disambiguation, LAN-style `Ng1-f3`, and any trailing `+`, `#`, `!` and `?`
    /// (annotation glyphs are dropped; a final `+`/`#` becomes the suffix).
    ///
    /// # Errors
    /// [`ParseSanError`] for text that is not a move.
    #[inline(always)]
    pub fn from_ascii(text: &[u8]) -> Result<SanPlus, ParseSanError> {
        // One `Option<SanPlus>`, eight bytes, out of both parsers: the caller gets it in a
        // register rather than through memory.
        match parse_plain(text).or_else(|| parse_any(text)) {
            Some(san_plus) => Ok(san_plus),
            None => Err(not_san(text)),
        }
    }

    /// The SAN of a legal move `m` in `pos`, with `+` or `#` when it checks or mates.
    pub fn from_move(pos: &Position, m: Move) -> SanPlus {
        let san = San::from_move(pos, m);
        let mut after = *pos;
        after.play_unchecked(m);
        let suffix = if after.is_checkmate() {
            Some(Suffix::Checkmate)
        } else if after.is_check() {
            Some(Suffix::Check)
        } else {
            None
        };
        SanPlus { san, suffix }
    }
}

/// The shapes that nearly every move in a game score has, read front to back in one pass:
/// `[piece][file|rank|square][x|:|-]<square>[+|#]`. `None` for anything else, which
/// [`parse_san`] then reads; for these shapes the two agree.
#[inline(always)]
fn parse_plain(text: &[u8]) -> Option<SanPlus> {
    let (body, suffix) = match *text {
        [ref body @ .., b'+'] => (body, Some(Suffix::Check)),
        [ref body @ .., b'#'] => (body, Some(Suffix::Checkmate)),
        _ => (text, None),
    };
    let (role, rest) = match *body {
        [c, ref rest @ ..] => match piece_letter(c) {
            Some(role) => (role, rest),
            None => (Role::Pawn, body),
        },
        [] => return None,
    };
    let [ref head @ .., f, r] = *rest else { return None };
    let to = square_at(f, r)?;
    let (capture, head) = match *head {
        [ref head @ .., b'x' | b':'] => (true, head),
        [ref head @ .., b'-'] => (false, head),
        _ => (false, head),
    };
    let (file, rank) = match *head {
        [] => (None, None),
        [c] => match (file_letter(c), rank_digit(c)) {
            (Some(file), _) => (Some(file), None),
            (None, Some(rank)) => (None, Some(rank)),
            (None, None) => return None,
        },
        [f, r] => (Some(file_letter(f)?), Some(rank_digit(r)?)),
        _ => return None,
    };
    Some(SanPlus { san: San::Normal { role, file, rank, capture, to, promotion: None }, suffix })
}

/// Any SAN, the forgiving forms included; kept out of line, as [`parse_plain`] reads most moves.
#[inline(never)]
fn parse_any(text: &[u8]) -> Option<SanPlus> {
    let (end, suffix) = split_marks(text);
    Some(SanPlus { san: parse_san(&text[..end])?, suffix })
}

/// Splits the trailing check, mate and annotation marks off a move: the end of the move proper,
/// and the suffix, which is the last `+` or `#` (`e4+#` mates, `e4#+` checks).
#[inline]
fn split_marks(text: &[u8]) -> (usize, Option<Suffix>) {
    let mut end = text.len();
    let mut suffix = None;
    while let Some(&last) = text[..end].last() {
        let mark = match last {
            b'+' => Some(Suffix::Check),
            b'#' => Some(Suffix::Checkmate),
            b'!' | b'?' => None,
            _ => break,
        };
        suffix = suffix.or(mark);
        end -= 1;
    }
    (end, suffix)
}

/// A move without its marks: castling and the null move as whole words, else
/// `[piece][file][rank][x|:|-]<square>[[=]promotion]` read from the end.
#[inline]
fn parse_san(s: &[u8]) -> Option<San> {
    if let Some(b'O' | b'0' | b'-' | b'Z' | b'@') = s.first() {
        match s {
            b"O-O" | b"0-0" => return Some(San::Castle(CastlingSide::KingSide)),
            b"O-O-O" | b"0-0-0" => return Some(San::Castle(CastlingSide::QueenSide)),
            b"--" | b"Z0" | b"0000" | b"@@@@" => return Some(San::Null),
            // `-e4` is a pawn move with a LAN dash: read on.
            _ => {}
        }
    }
    let mut n = s.len();
    let mut promotion = None;
    if let Some(&p) = s.last() {
        if let Some(role) = piece_letter(p) {
            n -= 1;
            if n > 0 && s[n - 1] == b'=' {
                n -= 1;
            }
            promotion = Some(role);
        } else if n >= 2 && s[n - 2] == b'=' {
            // After `=` the letter may be lower case (`e8=q`).
            promotion = Some(piece_letter(p.to_ascii_uppercase())?);
            n -= 2;
        }
    }
    if n < 2 {
        return None;
    }
    let to = square_at(s[n - 2], s[n - 1])?;
    let head = &s[..n - 2];
    let (role, head) = match *head {
        [c, ref rest @ ..] if c.is_ascii_uppercase() => (piece_letter(c)?, rest),
        _ => (Role::Pawn, head),
    };
    let (capture, head) = match *head {
        [ref rest @ .., b'x' | b':'] => (true, rest),
        [ref rest @ .., b'-'] => (false, rest),
        _ => (false, head),
    };
    let (file, rank) = match *head {
        [] => (None, None),
        [f] if f.is_ascii_lowercase() => (Some(file_letter(f)?), None),
        [r] => (None, Some(rank_digit(r)?)),
        [f, r] => (Some(file_letter(f)?), Some(rank_digit(r)?)),
        _ => return None,
    };
    Some(San::Normal { role, file, rank, capture, to, promotion })
}

/// The role of an upper-case piece letter, `P` included.
#[inline]
fn piece_letter(c: u8) -> Option<Role> {
    // A table, not a `match`: the letter of a move is hard to predict, a load is not.
    PIECE_LETTERS[usize::from(c)]
}

static PIECE_LETTERS: [Option<Role>; 256] = {
    let mut table = [None; 256];
    let mut i = 0;
    while i < Role::ALL.len() {
        let role = Role::ALL[i];
        table[role.upper_char() as usize] = Some(role);
        i += 1;
    }
    table
};

/// The square of a file letter and a rank digit, in one table load.
#[inline]
fn square_at(f: u8, r: u8) -> Option<Square> {
    let (file, rank) = (f.wrapping_sub(b'a'), r.wrapping_sub(b'1'));
    (file < 8 && rank < 8)
        .then(|| Square::from_index_wrapping(u32::from(rank) * 8 + u32::from(file)))
}

#[inline]
fn file_letter(c: u8) -> Option<File> {
    File::ALL.get(usize::from(c.wrapping_sub(b'a'))).copied()
}

#[inline]
fn rank_digit(c: u8) -> Option<Rank> {
    Rank::ALL.get(usize::from(c.wrapping_sub(b'1'))).copied()
}

#[cold]
fn not_san(text: &[u8]) -> ParseSanError {
    ParseSanError { text: String::from_utf8_lossy(text).into_owned() }
}

impl San {
    /// The canonical SAN of a legal move `m` in `pos`: minimal disambiguation (file, then rank,
    /// then both), `x` for captures, `=Q` for promotions, `O-O`/`O-O-O`.
    pub fn from_move(pos: &Position, m: Move) -> San {
        if let Some(side) = m.castling_side() {
            return San::Castle(side);
        }
        let (from, to) = (m.from(), m.to());
        let role = pos.board().role_at(from).unwrap_or(Role::Pawn);
        let capture = pos.is_capture(m);
        let promotion = m.promotion_role();
        let (mut file, mut rank) = (None, None);
        if role == Role::Pawn {
            if capture {
                file = Some(from.file());
            }
        } else if role != Role::King {
            let others = (attackers_of_role(pos, role, to) & pos.our(role)).without(from);
            let rivals: Bitboard =
                others.into_iter().filter(|&o| pos.is_legal(Move::normal(o, to))).collect();
            if rivals.any() {
                if (rivals & Bitboard::from_file(from.file())).is_empty() {
                    file = Some(from.file());
                } else if (rivals & Bitboard::from_rank(from.rank())).is_empty() {
                    rank = Some(from.rank());
                } else {
                    file = Some(from.file());
                    rank = Some(from.rank());
                }
            }
        }
        San::Normal { role, file, rank, capture, to, promotion }
    }

    /// The one legal move this SAN names in `pos`. A wrong capture mark is forgiven.
    ///
    /// # Errors
    /// [`SanError`] saying why no legal move fits, or listing the candidates when several do.
    pub fn to_move(&self, pos: &Position) -> Result<Move, SanError> {
        self.resolve(pos)
    }

    /// [`San::to_move`]'s move, `None` where it gives an error: for a reader of many moves
    /// that asks `to_move` why only when there is no move. The answer fits in a register,
    /// where `to_move`'s `Result`, which can hold a list of candidates, is handed back
    /// through memory and read at once (issue 41: a tenth of `rookery pgn`'s move handling
    /// waited on that load).
    pub fn find_move(&self, pos: &Position) -> Option<Move> {
        self.resolve(pos).ok()
    }

    /// The body of [`San::to_move`] and [`San::find_move`], one copy inlined in each.
    #[inline(always)]
    fn resolve(&self, pos: &Position) -> Result<Move, SanError> {
        match *self {
            San::Null => Err(SanError::Null),
            San::Castle(side) => castle_move(pos, side),
            San::Normal { role, file, rank, to, promotion, .. } => {
                let mut from_mask = pos.our(role);
                if let Some(f) = file {
                    from_mask &= Bitboard::from_file(f);
                }
                if let Some(r) = rank {
                    from_mask &= Bitboard::from_rank(r);
                }
                let candidates = origins(pos, role, to, from_mask);
                if candidates.is_empty() || pos.board().by_color(pos.turn()).contains(to) {
                    return Err(SanError::NoPiece { san: *self });
                }
                let promotes =
                    role == Role::Pawn && to.rank() == Rank::Eighth.relative_to(pos.turn());
                let promotion = match (promotes, promotion) {
                    (true, Some(p)) if Role::PROMOTIONS.contains(&p) => Some(p),
                    (false, None) => None,
                    _ => return Err(SanError::BadPromotion { san: *self }),
                };
                let en_passant = role == Role::Pawn && Some(to) == pos.ep_square();
                // The common case, decided without the full legality test: one candidate, found
                // by its movement pattern with the board's blockers, onto a square free of own
                // pieces; not a king or en passant move, not in check, not pinned off its line.
                if !candidates.more_than_one()
                    && role != Role::King
                    && !en_passant
                    && !pos.is_check()
                {
                    let from = candidates.first().unwrap_or(to);
                    let king = pos.king_of(pos.turn());
                    if !pos.pinned().contains(from) || attacks::aligned(king, from, to) {
                        return Ok(Move::normal_or_promotion(from, to, promotion));
                    }
                }
                // A king move (castling aside) is legal when its destination is not attacked
                // once the king has left its square (RULES.md §4), in check or not.
                if role == Role::King {
                    let from = candidates.first().unwrap_or(to);
                    let occupied = pos.board().occupied().without(from);
                    if !is_attacked_by_them(pos, to, occupied) {
                        return Ok(Move::normal(from, to));
                    }
                }
                let mut found: Option<Move> = None;
                let mut extra: Vec<Move> = Vec::new();
                for from in candidates {
                    let mut m = Move::normal_or_promotion(from, to, promotion);
                    if en_passant && from.file() != to.file() {
                        m = Move::en_passant(from, to);
                    }
                    if pos.is_legal(m) {
                        if found.is_none() {
                            found = Some(m);
                        } else {
                            extra.push(m);
                        }
                    }
                }
                match found {
                    Some(m) if extra.is_empty() => Ok(m),
                    Some(m) => Err(SanError::Ambiguous {
                        san: *self,
                        candidates: core::iter::once(m)
                            .chain(extra)
                            .map(|c| San::from_move(pos, c))
                            .collect(),
                    }),
                    None => {
                        let pinned = candidates & pos.pinned();
                        match pinned.first() {
                            Some(from) if role != Role::King && !pos.is_check() => {
                                Err(SanError::Pinned { san: *self, from })
                            }
                            _ => Err(SanError::KingInCheck { san: *self }),
                        }
                    }
                }
            }
        }
    }
}

/// Pieces of the side to move, of any role among `role`, whose pattern reaches `to`.
#[inline(always)]
fn attackers_of_role(pos: &Position, role: Role, to: Square) -> Bitboard {
    let occupied = pos.board().occupied();
    match role {
        Role::Pawn => attacks::pawn(!pos.turn(), to),
        Role::Knight => attacks::knight(to),
        Role::Bishop => attacks::bishop(to, occupied),
        Role::Rook => attacks::rook(to, occupied),
        Role::Queen => attacks::queen(to, occupied),
        Role::King => attacks::king(to),
    }
}

/// The squares of `from`, pieces of `role` of the side to move, whose pattern reaches `to` on
/// the board: what [`attackers_of_role`] finds (pawns by [`pawn_origins`]), for the few
/// pieces a SAN move names. A slider is found on its empty-board rays and kept when nothing
/// stands between: one load from the 32 KB `between` table a candidate, where the slider
/// attack of `to` is a load from the 860 KB magic table, which misses the cache more often
/// than not when a file of games is read (issue 41: the command's profile had half of
/// `San::to_move` waiting on it).
#[inline(always)]
fn origins(pos: &Position, role: Role, to: Square, from: Bitboard) -> Bitboard {
    let occupied = pos.board().occupied();
    let unblocked = |rays: Bitboard| {
        let mut found = Bitboard::EMPTY;
        for sq in rays & from {
            if (attacks::between(sq, to) & occupied).is_empty() {
                found.add(sq);
            }
        }
        found
    };
    match role {
        Role::Pawn => pawn_origins(pos, to) & from,
        Role::Knight => attacks::knight(to) & from,
        Role::Bishop => unblocked(attacks::bishop_rays(to)),
        Role::Rook => unblocked(attacks::rook_rays(to)),
        Role::Queen => unblocked(attacks::rook_rays(to) | attacks::bishop_rays(to)),
        Role::King => attacks::king(to) & from,
    }
}

/// `true` if a piece of the side not to move attacks `sq` with `occupied` as the blockers:
/// [`Position::is_attacked`], with the sliders found on their rays as [`origins`] finds them
/// (a king move's destination, once a game in ten moves: the magic table's misses showed).
#[inline]
fn is_attacked_by_them(pos: &Position, sq: Square, occupied: Bitboard) -> bool {
    let b = pos.board();
    let them = !pos.turn();
    let theirs = b.by_color(them);
    let steppers = (attacks::knight(sq) & b.by_role(Role::Knight))
        | (attacks::pawn(!them, sq) & b.by_role(Role::Pawn))
        | (attacks::king(sq) & b.by_role(Role::King));
    if (steppers & theirs).any() {
        return true;
    }
    let sliders = ((attacks::rook_rays(sq) & b.orthogonal_sliders())
        | (attacks::bishop_rays(sq) & b.diagonal_sliders()))
        & theirs;
    sliders.into_iter().any(|from| (attacks::between(from, sq) & occupied).is_empty())
}

/// Squares from which a pawn of the side to move could move to `to` by its pattern: a capture
/// (onto an enemy piece or the en passant square), a step or a double step.
fn pawn_origins(pos: &Position, to: Square) -> Bitboard {
    let us = pos.turn();
    let board = pos.board();
    let occupied = board.occupied();
    let back = if us.is_white() { -1 } else { 1 };
    if board.by_color(!us).contains(to) || pos.ep_square() == Some(to) {
        return attacks::pawn(!us, to);
    }
    if occupied.contains(to) {
        return Bitboard::EMPTY;
    }
    let mut origins = Bitboard::EMPTY;
    if let Some(one) = to.offset(0, back) {
        if board.by_color(us).contains(one) {
            origins.add(one);
        } else if !occupied.contains(one) && to.rank() == Rank::Fourth.relative_to(us) {
            if let Some(two) = one.offset(0, back) {
                origins.add(two);
            }
        }
    }
    origins
}

fn castle_move(pos: &Position, side: CastlingSide) -> Result<Move, SanError> {
    let us = pos.turn();
    let king = pos.king_of(us);
    // What `is_legal` decides for this move, without going through the move generator: a kept
    // right means the king stands on its castling square.
    if let Some(m) = pos.castling_move(side) {
        if !pos.is_check() && movegen::can_castle(pos, side, king) {
            return Ok(m);
        }
    }
    let reason = match pos.castles().rook(us, side) {
        None => "the king or that rook has moved",
        Some(_) if pos.is_check() => "the king is in check",
        Some(rook) if movegen::castling_blockers(pos, side, king, rook).any() => {
            "a square the king or the rook must cross is occupied"
        }
        Some(_) => "the king would pass through or land on an attacked square",
    };
    Err(SanError::Castling { side, reason })
}

impl fmt::Display for San {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            San::Castle(CastlingSide::KingSide) => f.write_str("O-O"),
            San::Castle(CastlingSide::QueenSide) => f.write_str("O-O-O"),
            San::Null => f.write_str("--"),
            San::Normal { role, file, rank, capture, to, promotion } => {
                if role != Role::Pawn {
                    write!(f, "{}", role.upper_char())?;
                }
                if let Some(file) = file {
                    write!(f, "{file}")?;
                }
                if let Some(rank) = rank {
                    write!(f, "{rank}")?;
                }
                if capture {
                    f.write_str("x")?;
                }
                write!(f, "{to}")?;
                if let Some(p) = promotion {
                    write!(f, "={}", p.upper_char())?;
                }
                Ok(())
            }
        }
    }
}

impl fmt::Display for SanPlus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.san)?;
        match self.suffix {
            Some(Suffix::Check) => f.write_str("+"),
            Some(Suffix::Checkmate) => f.write_str("#"),
            None => Ok(()),
        }
    }
}

impl FromStr for SanPlus {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<SanPlus, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes())
    }
}

impl FromStr for San {
    type Err = ParseSanError;

    fn from_str(s: &str) -> Result<San, ParseSanError> {
        SanPlus::from_ascii(s.as_bytes()).map(|s| s.san)
    }
}

impl Position {
    /// The SAN (with `+`/`#`) of a legal move.
    pub fn san(&self, m: Move) -> String {
        SanPlus::from_move(self, m).to_string()
    }

    /// Reads a move in SAN and finds it among the legal moves.
    ///
    /// # Errors
    /// [`SanMoveError`]: not SAN, or not exactly one legal move.
    pub fn parse_san(&self, text: &str) -> Result<Move, SanMoveError> {
        let san = SanPlus::from_ascii(text.as_bytes()).map_err(SanMoveError::Parse)?;
        san.san.to_move(self).map_err(SanMoveError::Illegal)
    }
}

/// A SAN move that is unreadable or names no single legal move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SanMoveError {
    /// Not SAN.
    Parse(ParseSanError),
    /// SAN, but not exactly one legal move here.
    Illegal(SanError),
}

impl fmt::Display for SanMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SanMoveError::Parse(e) => e.fmt(f),
            SanMoveError::Illegal(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for SanMoveError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn pos(fen: &str) -> Position {
        fen.parse().unwrap()
    }

    #[test]
    fn one_pass_reading_agrees_with_the_general_one() {
        // Every piece letter, origin, link, square and suffix, and bytes near each of them.
        let pieces = ["", "K", "Q", "R", "B", "N", "P", "O", "k", "x"];
        let origins = ["", "a", "h", "i", "1", "8", "0", "9", "a1", "h8", "e9", "x", "A"];
        let links = ["", "x", ":", "-", "=", "xx"];
        let squares = ["e4", "a1", "h8", "i4", "e0", "e9", "`4", "4e", "e"];
        let suffixes = ["", "+", "#", "++", "+#", "!", "?!", "+!", "=Q", "Q"];
        let mut plain = 0;
        for p in pieces {
            for o in origins {
                for l in links {
                    for sq in squares {
                        for sfx in suffixes {
                            let text = format!("{p}{o}{l}{sq}{sfx}");
                            if let Some(fast) = parse_plain(text.as_bytes()) {
                                plain += 1;
                                assert_eq!(Some(fast), parse_any(text.as_bytes()), "{text}");
                            }
                        }
                    }
                }
            }
        }
        assert!(plain > 1000, "{plain}");
    }

    #[test]
    fn reads_forgiving_forms() {
        let start = Position::new();
        for (text, uci) in [("e4", "e2e4"), ("Pe4", "e2e4"), ("Ng1f3", "g1f3"), ("Ng1-f3", "g1f3")]
        {
            assert_eq!(start.parse_san(text).unwrap().to_uci(), uci, "{text}");
        }
        let p = pos("4k3/1P6/8/8/8/8/8/R3K2R w KQ - 0 1");
        for (text, uci) in [("b8Q", "b7b8q"), ("b8=Q+", "b7b8q"), ("b8=N!?", "b7b8n")] {
            assert_eq!(p.parse_san(text).unwrap().to_uci(), uci, "{text}");
        }
        assert_eq!(p.parse_san("0-0").unwrap().to_uci(), "e1g1");
        assert_eq!(p.parse_san("O-O-O#").unwrap().to_uci(), "e1c1");
    }

    #[test]
    fn rejects_with_reasons() {
        let p = pos("4k3/8/8/8/8/8/8/RN2KN1R w - - 0 1");
        let err = p.parse_san("Nd2").unwrap_err().to_string();
        assert_eq!(err, "ambiguous move Nd2: could be Nbd2 or Nfd2");
        assert!(p.parse_san("Qd4").unwrap_err().to_string().contains("no piece can go there"));
        assert!(matches!(p.parse_san("e9"), Err(SanMoveError::Parse(_))));
        assert!(matches!(p.parse_san("b8"), Err(SanMoveError::Illegal(SanError::NoPiece { .. }))));
        let pinned = pos("4k3/4r3/8/8/8/8/4N3/4K3 w - - 0 1");
        assert_eq!(
            pinned.parse_san("Nc3").unwrap_err().to_string(),
            "illegal move Nc3: the piece on e2 is pinned"
        );
        let castle = pos("4k3/8/8/8/8/8/8/4K2r w - - 0 1");
        assert!(castle.parse_san("O-O").unwrap_err().to_string().contains("has moved"));
    }

    #[test]
    fn writes_minimal_disambiguation() {
        let p = pos("4k3/8/8/8/8/8/8/RN2KN1R w - - 0 1");
        let sans: Vec<String> = p.legal_moves().iter().map(|&m| p.san(m)).collect();
        assert!(sans.contains(&"Nbd2".to_owned()) && sans.contains(&"Nfd2".to_owned()));
        let c = pos("4k3/8/8/8/8/8/8/R3K2R w KQ - 0 1");
        assert_eq!(c.san(Move::castle(Square::E1, Square::G1)), "O-O");
        assert_eq!(c.san(Move::castle(Square::E1, Square::C1)), "O-O-O");
        // Three queens reach d4: a1 and a4 share the file, a4 and h4 the rank.
        let q = pos("1k6/8/8/8/Q6Q/8/8/Q5K1 w - - 0 1");
        assert_eq!(q.san(Move::normal(Square::A4, Square::D4)), "Qa4d4");
        assert_eq!(q.san(Move::normal(Square::A1, Square::D4)), "Q1d4");
        assert_eq!(q.san(Move::normal(Square::H4, Square::D4)), "Qhd4");
    }
}
