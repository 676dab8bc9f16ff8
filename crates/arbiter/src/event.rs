//! What the game says back: the events an action caused, or why it was refused.

use core::fmt;

use rookery_core::legality::{Illegal, NotAMove};
use rookery_core::{Color, Move, Square};

use crate::outcome::Outcome;

/// A move as a player sends it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MoveInput {
    /// UCI text: `e2e4`, `e7e8q`, castling as the king's move `e1g1`.
    Uci(String),
    /// SAN text: `e4`, `Nf3`, `O-O`, `e8=Q`.
    San(String),
    /// From and to squares and a promotion, as a board UI sends them.
    Squares {
        /// Where the piece is picked up.
        from: Square,
        /// Where it is put down.
        to: Square,
        /// The promotion piece, for a pawn reaching the last rank.
        promotion: Option<rookery_core::Role>,
    },
}

impl fmt::Display for MoveInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveInput::Uci(s) | MoveInput::San(s) => f.write_str(s),
            MoveInput::Squares { from, to, promotion } => {
                write!(f, "{from}{to}")?;
                if let Some(p) = promotion {
                    write!(f, "{}", p.char())?;
                }
                Ok(())
            }
        }
    }
}

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
        san: String,
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
    /// The move text cannot be read.
    Unreadable(String),
    /// Not a move at all (§8.2: a protocol error, not counted).
    NotAMove(NotAMove),
    /// SAN that fits several legal moves (not counted).
    Ambiguous(String),
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
            Rejection::Unreadable(text) => write!(f, "cannot read the move {text:?}"),
            Rejection::NotAMove(why) => write!(f, "not a move: {why}"),
            Rejection::Ambiguous(text) => write!(f, "ambiguous move: {text}"),
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
