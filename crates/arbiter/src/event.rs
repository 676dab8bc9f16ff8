//! What the game says back: the events an action caused, or why it was refused.

use core::fmt;

use core::str::FromStr;
use rookery_core::legality::{Illegal, NotAMove};

use rookery_core::{Color, Move, Role, SanPlus, Square, UciMove};

use crate::outcome::Outcome;

/// A move as a player sends it, read at the edge (the arbiter never reads move text).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// The squares a piece is taken from and put on, and a promotion: UCI's `e2e4`, `e7e8q`,
    /// castling as the king's move `e1g1`, or a drag on a board.
    Uci(UciMove),
    /// SAN: `e4`, `Nf3`, `O-O`, `e8=Q`.
    San(SanPlus),
}

impl MoveInput {
    /// Reads a move as people type it: UCI if the text is UCI, else SAN.
    ///
    /// # Errors
    /// [`ParseMoveError`] for text that is neither.
    pub fn from_ascii(text: &[u8]) -> Result<MoveInput, ParseMoveError> {
        if let Ok(uci) = UciMove::from_ascii(text) {
            return Ok(MoveInput::Uci(uci));
        }
        match SanPlus::from_ascii(text) {
            Ok(san) => Ok(MoveInput::San(san)),
            Err(_) => Err(ParseMoveError { text: String::from_utf8_lossy(text).into_owned() }),
        }
    }

    /// The move from its squares.
    pub fn squares(from: Square, to: Square, promotion: Option<Role>) -> MoveInput {
        MoveInput::Uci(UciMove::Normal { from, to, promotion })
    }
}

impl From<Move> for MoveInput {
    fn from(m: Move) -> MoveInput {
        MoveInput::Uci(UciMove::from_move(m))
    }
}

impl FromStr for MoveInput {
    type Err = ParseMoveError;

    fn from_str(s: &str) -> Result<MoveInput, ParseMoveError> {
        MoveInput::from_ascii(s.as_bytes())
    }
}

impl fmt::Display for MoveInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveInput::Uci(m) => m.fmt(f),
            MoveInput::San(s) => s.fmt(f),
        }
    }
}

/// Text that is neither a UCI nor a SAN move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMoveError {
    /// The text.
    pub text: String,
}

impl fmt::Display for ParseMoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot read the move {:?}", self.text)
    }
}

impl std::error::Error for ParseMoveError {}

/// What a touch (§8.1) or an illegal attempt in check (§8.3) obliges the player to do.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Obligation {
    /// Move the piece on this square.
    MovePiece(Square),
    /// Capture the piece on this square (with any piece).
    Capture(Square),
}

impl fmt::Display for Obligation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Obligation::MovePiece(sq) => write!(f, "must move the piece on {sq}"),
            Obligation::Capture(sq) => write!(f, "must capture the piece on {sq}"),
        }
    }
}

/// The draws a player may claim under claimed-draw rules (FIDE 9.2, 9.3).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DrawClaim {
    /// The same position for the third time (§6.5).
    ThreefoldRepetition,
    /// Fifty moves by each side without capture or pawn move (§6.6).
    FiftyMoves,
}

impl DrawClaim {
    /// Both claims.
    pub const ALL: [DrawClaim; 2] = [DrawClaim::ThreefoldRepetition, DrawClaim::FiftyMoves];

    /// The short name the server's protocol uses: `threefold` or `fifty`.
    pub const fn name(self) -> &'static str {
        match self {
            DrawClaim::ThreefoldRepetition => "threefold",
            DrawClaim::FiftyMoves => "fifty",
        }
    }

    /// Reads a name written by [`DrawClaim::name`].
    pub fn from_name(name: &str) -> Option<DrawClaim> {
        DrawClaim::ALL.into_iter().find(|c| c.name() == name)
    }
}

/// Something that happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// A move was played (the clock was pressed with it).
    MovePlayed {
        /// The ply number, 1 for White's first move from the standard start.
        ply: u32,
        /// Who moved.
        color: Color,
        /// The move.
        m: Move,
        /// Its SAN, with `+` or `#`.
        san: SanPlus,
        /// Time the mover spent, in ms.
        spent_ms: u64,
        /// The mover's time after the move (bonus included), if timed.
        remaining_ms: Option<u64>,
    },
    /// The side to move is in check (§4).
    Check(Color),
    /// A draw was offered with a move (§7).
    DrawOffered(Color),
    /// A draw offer was declined, in words or by moving (§7).
    DrawDeclined {
        /// Who declined.
        by: Color,
        /// Declined by making a move rather than in words.
        by_moving: bool,
    },
    /// A touch binds the player (§8.1, §8.3).
    Obliged {
        /// Who is bound.
        color: Color,
        /// To what.
        obligation: Obligation,
    },
    /// An illegal move was counted against the player (§8.2, §8.4).
    IllegalMoveCounted {
        /// Who tried it.
        color: Color,
        /// Which illegal move of theirs this is.
        count: u8,
        /// The count that loses, if the rule set has one.
        limit: Option<u8>,
        /// Why it was illegal.
        reason: Illegal,
    },
    /// Time was added to a clock (FIDE 7.5.3, 9.5).
    TimeAdded {
        /// Whose clock.
        color: Color,
        /// How much, in ms.
        ms: u64,
    },
    /// A player went berserk (an arena, issue 40): half their time, no increment.
    Berserk {
        /// Who.
        color: Color,
    },
    /// A draw could now be claimed by the player on move (rule set `fide`).
    DrawClaimable(DrawClaim),
    /// A takeback was asked for (rule set `casual`).
    TakebackRequested(Color),
    /// Moves were taken back; the game continues after `plies` plies.
    TakenBack {
        /// The number of plies left.
        plies: u32,
    },
    /// The game ended.
    GameOver(Outcome),
}

/// Why an action was refused. Nothing changed, except what the accompanying events say.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Rejection {
    /// The game is over.
    GameOver,
    /// Only the side on move may do this.
    NotYourTurn,
    /// Not a move at all (§8.2: a protocol error, not counted).
    NotAMove(NotAMove),
    /// SAN that fits several legal moves (not counted).
    Ambiguous(SanPlus),
    /// An illegal move (§8.2), counted as the rule set says.
    Illegal(Illegal),
    /// A touched piece binds the player (§8.1, §8.3).
    TouchMove(Obligation),
    /// The draw offer is refused (§7), and the move sent with it was not played.
    OfferNotAllowed(&'static str),
    /// There is no draw offer from the opponent to answer.
    NoOfferPending,
    /// Draws are decided automatically in this rule set; there is nothing to claim.
    ClaimsNotUsed,
    /// The claimed draw's condition does not hold.
    ClaimIncorrect(DrawClaim),
    /// Abort is possible only before each side has moved.
    TooLateToAbort,
    /// Takebacks are not part of this rule set.
    TakebacksNotAllowed,
    /// There is nothing to take back, or no request to answer.
    NoTakeback,
    /// The player's takeback request already stands: asking again would change nothing.
    TakebackPending,
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::GameOver => f.write_str("the game is over"),
            Rejection::NotYourTurn => f.write_str("it is not your turn"),
            Rejection::NotAMove(why) => write!(f, "not a move: {why}"),
            Rejection::Ambiguous(san) => write!(f, "ambiguous move: {san}"),
            Rejection::Illegal(why) => write!(f, "illegal move: {why}"),
            Rejection::TouchMove(obligation) => write!(f, "touch-move: you {obligation}"),
            Rejection::OfferNotAllowed(why) => write!(f, "draw offer not allowed: {why}"),
            Rejection::NoOfferPending => f.write_str("there is no draw offer to answer"),
            Rejection::ClaimsNotUsed => {
                f.write_str("draws by repetition and fifty moves are automatic in this rule set")
            }
            Rejection::ClaimIncorrect(DrawClaim::ThreefoldRepetition) => {
                f.write_str("incorrect claim: the position has not occurred three times")
            }
            Rejection::ClaimIncorrect(DrawClaim::FiftyMoves) => f.write_str(
                "incorrect claim: there have not been fifty moves without capture or pawn move",
            ),
            Rejection::TooLateToAbort => f.write_str("too late to abort: both sides have moved"),
            Rejection::TakebacksNotAllowed => {
                f.write_str("takebacks are not allowed in this rule set")
            }
            Rejection::NoTakeback => f.write_str("there is no takeback to make or answer"),
            Rejection::TakebackPending => f.write_str("your takeback request already stands"),
        }
    }
}

/// A refused action: the reason, and what happened anyway (a strike counted, time added, the
/// flag found fallen).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rejected {
    /// Why the action was refused.
    pub reason: Rejection,
    /// Events that happened all the same.
    pub events: Vec<Event>,
}

impl From<Rejection> for Rejected {
    fn from(reason: Rejection) -> Rejected {
        Rejected { reason, events: Vec::new() }
    }
}

impl fmt::Display for Rejected {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.reason.fmt(f)
    }
}

impl std::error::Error for Rejected {}

/// What an action returns: its events, or why it was refused.
pub type ActionResult = Result<Vec<Event>, Rejected>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_once_at_the_edge() {
        let uci: MoveInput = "e7e8q".parse().unwrap();
        assert_eq!(uci, MoveInput::squares(Square::E7, Square::E8, Some(Role::Queen)));
        assert!(matches!("Nf3".parse(), Ok(MoveInput::San(_))));
        assert!(matches!("O-O+".parse(), Ok(MoveInput::San(_))));
        assert_eq!("0000".parse(), Ok(MoveInput::Uci(UciMove::Null)));
        for text in ["xyz", "e2e4x", "e7e8k", ""] {
            let e = text.parse::<MoveInput>().unwrap_err();
            assert_eq!(e.to_string(), format!("cannot read the move {text:?}"));
        }
        for text in ["e2e4", "Nf3", "e7e8q", "O-O-O"] {
            assert_eq!(text.parse::<MoveInput>().unwrap().to_string(), text);
        }
    }
}
