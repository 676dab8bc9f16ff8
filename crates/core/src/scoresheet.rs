//! Moves as a person copies them from a paper scoresheet (RULES.md §10, §12 "Over the board"):
//! SAN or UCI, with the slips people make forgiven — a piece letter in lower case (`nf3`), the
//! origin square written out (`ng1f3`, `Ng1-f3`), plain UCI (`g1f3`), castling with zeros or
//! small letters (`0-0`, `o-o`), `e.p.` after an en passant capture, a missing `x`, `+` or `=`
//! (`exd6`, `e8Q`). A reading is accepted only when exactly one legal move fits; the
//! candidates are listed otherwise.
//!
//! [`read_move`] reads one move; [`read_moves`] a whole move list as pasted (`1. e4 e5 2. Nf3`,
//! numbers optional), stopping at the first move that does not read, with its number.

use core::fmt;

use crate::{Color, Move, Position, San, SanPlus, UciMove};

/// Why a typed move is not one legal move in the position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TypedMoveError {
    /// Not a move in any notation read here.
    Unreadable {
        /// The text as typed.
        text: String,
    },
    /// A move, but not a legal one here; the reason as the SAN reader gives it.
    Illegal {
        /// The text as typed.
        text: String,
        /// Why (`no piece can go there`, `the king would be in check` …).
        reason: String,
    },
    /// Several legal moves fit.
    Ambiguous {
        /// The text as typed.
        text: String,
        /// Every legal move that fits, in SAN.
        candidates: Vec<String>,
    },
}

impl TypedMoveError {
    /// The text as typed.
    pub fn text(&self) -> &str {
        match self {
            TypedMoveError::Unreadable { text }
            | TypedMoveError::Illegal { text, .. }
            | TypedMoveError::Ambiguous { text, .. } => text,
        }
    }
}

impl fmt::Display for TypedMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TypedMoveError::Unreadable { text } => write!(f, "{text:?} is not a move"),
            TypedMoveError::Illegal { text, reason } => {
                write!(f, "{text:?} is not legal here: {reason}")
            }
            TypedMoveError::Ambiguous { text, candidates } => {
                write!(f, "{text:?} is ambiguous: {}", candidates.join(" or "))
            }
        }
    }
}

impl std::error::Error for TypedMoveError {}

/// A move of a move list that does not read: where it sits and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveListError {
    /// Its index in the list (0: the first move).
    pub ply: usize,
    /// The move number (the start position's full-move counter, counted on).
    pub number: u32,
    /// Whose move it was.
    pub color: Color,
    /// Why it does not read.
    pub error: TypedMoveError,
}

impl fmt::Display for MoveListError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let dots = if self.color == Color::White { "." } else { "..." };
        write!(f, "move {}{dots} {}", self.number, self.error)
    }
}

impl std::error::Error for MoveListError {}

/// Reads one typed move in `pos`, forgiving the usual slips (see the module docs).
///
/// # Errors
/// [`TypedMoveError`]: unreadable, illegal (with the SAN reader's reason), or ambiguous (with
/// the candidates).
pub fn read_move(pos: &Position, text: &str) -> Result<Move, TypedMoveError> {
    let typed = text.trim();
    let body = strip_en_passant(typed);
    let mut found: Vec<Move> = Vec::new();
    let mut first_error: Option<TypedMoveError> = None;
    for reading in readings(body) {
        match read_exact(pos, &reading, typed) {
            Ok(m) => {
                if !found.contains(&m) {
                    found.push(m);
                }
            }
            Err(e) => {
                // An ambiguity says more than an illegality, which says more than nothing.
                let better = matches!(
                    (&first_error, &e),
                    (None | Some(TypedMoveError::Unreadable { .. }), _)
                        | (Some(TypedMoveError::Illegal { .. }), TypedMoveError::Ambiguous { .. })
                );
                if better {
                    first_error = Some(e);
                }
            }
        }
    }
    match found.as_slice() {
        [m] => Ok(*m),
        [] => Err(first_error.unwrap_or_else(|| unreadable(typed))),
        many => Err(TypedMoveError::Ambiguous {
            text: typed.to_owned(),
            candidates: many.iter().map(|&m| pos.san(m)).collect(),
        }),
    }
}

/// Reads a move list as pasted from a scoresheet: moves separated by spaces, move numbers
/// (`12.`, `12...`, `12.Nf3`) optional, a final result (`1-0`, `½-½`, `*`) and `e.p.`
/// tokens ignored. Every move is played from `start`.
///
/// # Errors
/// The first move that does not read, with its number and colour ([`MoveListError`]).
pub fn read_moves(start: &Position, text: &str) -> Result<Vec<Move>, MoveListError> {
    let mut pos = *start;
    let mut moves = Vec::new();
    for token in tokens(text) {
        match read_move(&pos, token) {
            Ok(m) => {
                moves.push(m);
                pos.play_unchecked(m);
            }
            Err(error) => {
                let (number, color, ply) = (pos.fullmoves(), pos.turn(), moves.len());
                return Err(MoveListError { ply, number, color, error });
            }
        }
    }
    Ok(moves)
}

/// The move tokens of a move list: numbers, results and `e.p.` marks dropped.
fn tokens(text: &str) -> impl Iterator<Item = &str> {
    text.split_whitespace().filter_map(|raw| {
        // `12.Nf3`, `12...Nf6`: the number is dropped, the move kept.
        let token = raw.trim_start_matches(|c: char| c.is_ascii_digit());
        let token = if token.len() < raw.len() && token.starts_with('.') {
            token.trim_start_matches('.')
        } else {
            raw
        };
        let is_result = matches!(token, "1-0" | "0-1" | "1/2-1/2" | "½-½" | "*");
        let is_ep = matches!(token.to_ascii_lowercase().as_str(), "e.p." | "ep" | "e.p");
        (!token.is_empty() && !is_result && !is_ep).then_some(token)
    })
}

/// `exd6e.p.`, `exd6 ep`: the en passant mark dropped (a plain capture is read the same).
fn strip_en_passant(text: &str) -> &str {
    let lower = text.to_ascii_lowercase();
    for mark in ["e.p.", "e.p", "ep"] {
        if lower.len() > mark.len() + 1 && lower.ends_with(mark) {
            let rest = text[..text.len() - mark.len()].trim_end();
            // `ep` right after a square only (`exd6ep`), never inside a move.
            if rest.ends_with(|c: char| c.is_ascii_digit()) {
                return rest;
            }
        }
    }
    text
}

/// The texts a typed move may stand for: as typed; castling spelled `O-O`; the first letter
/// as a piece's (`nf3`, and `bc4`, a bishop's or a pawn's); a promotion piece in capitals.
fn readings(text: &str) -> Vec<String> {
    let mut out = vec![text.to_owned()];
    let castle = text.replace(['0', 'o'], "O");
    if castle.trim_end_matches(['+', '#', '!', '?']).chars().all(|c| c == 'O' || c == '-') {
        out.push(castle);
    }
    // `e8q`, `e8=q`: the promotion piece after the last rank.
    let mut chars: Vec<char> = text.chars().collect();
    if let Some((&piece, before)) = chars.split_last() {
        let rank = before.iter().rev().find(|&&c| c != '=');
        if matches!(rank, Some('1' | '8')) && matches!(piece, 'q' | 'r' | 'b' | 'n') {
            let i = chars.len() - 1;
            chars[i] = piece.to_ascii_uppercase();
            out.push(chars.iter().collect());
        }
    }
    let with_promotion: Vec<String> = out.clone();
    for t in with_promotion {
        let mut c = t.chars();
        if let Some(first @ ('n' | 'b' | 'r' | 'q' | 'k')) = c.next() {
            out.push(format!("{}{}", first.to_ascii_uppercase(), c.as_str()));
        }
    }
    out
}

/// One reading: UCI when it looks like UCI, else SAN.
fn read_exact(pos: &Position, reading: &str, typed: &str) -> Result<Move, TypedMoveError> {
    let lower = reading.to_ascii_lowercase();
    if let Ok(uci @ UciMove::Normal { .. }) = UciMove::from_ascii(lower.as_bytes()) {
        {
            return uci.to_move(pos).map_err(|_| TypedMoveError::Illegal {
                text: typed.to_owned(),
                reason: format!("no legal move from {} to {}", &lower[0..2], &lower[2..4]),
            });
        }
    }
    let san = SanPlus::from_ascii(reading.as_bytes()).map_err(|_| unreadable(typed))?;
    san.san.to_move(pos).map_err(|e| match e {
        crate::san::SanError::Ambiguous { candidates, .. } => TypedMoveError::Ambiguous {
            text: typed.to_owned(),
            candidates: candidates.iter().map(San::to_string).collect(),
        },
        e => TypedMoveError::Illegal { text: typed.to_owned(), reason: reason_of(&e) },
    })
}

/// The SAN reader's reason, without its `illegal move X: ` prefix (the caller names the text).
fn reason_of(e: &crate::san::SanError) -> String {
    let words = e.to_string();
    match words.split_once(": ") {
        Some((_, reason)) => reason.to_owned(),
        None => words,
    }
}

fn unreadable(text: &str) -> TypedMoveError {
    TypedMoveError::Unreadable { text: text.to_owned() }
}

#[cfg(test)]
mod tests;
