//! How a game ended (RULES.md §5, §6): the result and the reason.

use core::fmt;

use rookery_core::{Color, GameResult};

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Termination {
    /// §4, §5.
    Checkmate,
    /// §5.
    Resignation,
    /// §5: the flag fell and the opponent could mate.
    Timeout,
    /// §5: the flag fell but the opponent could never mate: drawn.
    TimeoutVsInsufficientMaterial,
    /// §5, §8.4: too many illegal moves.
    IllegalMoves,
    /// §6.1.
    Agreement,
    /// §6.2: neither side can mate by any series of legal moves.
    DeadPosition,
    /// §6.3.
    PerpetualCheck,
    /// §6.4.
    Stalemate,
    /// §6.5 (automatic, or claimed under `fide`).
    ThreefoldRepetition,
    /// FIDE 9.6.1: automatic in every rule set.
    FivefoldRepetition,
    /// §6.6 (automatic, or claimed under `fide`).
    FiftyMoves,
    /// FIDE 9.6.2: automatic in every rule set.
    SeventyFiveMoves,
    /// Resigned when the opponent could never mate (FIDE 5.1.2, rule set `fide`): drawn.
    ResignationVsInsufficientMaterial,
    /// The losing illegal move was made when the opponent could never mate (FIDE 7.5.5, rule
    /// set `fide`): drawn.
    IllegalMovesVsInsufficientMaterial,
    /// Stopped before each side had moved.
    Aborted,
    /// Ended by the server because a player left (the opponent claimed).
    Abandoned,
    /// A side did not make its first move by the deadline of the game's
    /// [`StartPolicy`](crate::StartPolicy): aborted online, lost by default in tournaments.
    NoStart,
    /// Decided by the competition's arbiter (a result declared, RULES.md §12).
    ArbiterDecision,
    /// Played at a board in a hall (RULES.md §12, "Over the board"): the result is the one
    /// reported from the board and entered at the arbiter's desk; the moves, if any, were typed
    /// from the scoresheet afterwards.
    OverTheBoard,
    /// An engine game ended on the engines' scores: both agreed, move after move, that this
    /// side had lost (`rookery match --resign-adjudication`, self-play). Not a resignation:
    /// neither engine resigned.
    ResignAdjudication,
    /// An engine game ended on the engines' scores: both found it level, move after move
    /// (`rookery match --draw-adjudication`, self-play). Not an agreement: neither engine
    /// offered a draw.
    DrawAdjudication,
}

impl Termination {
    /// The machine label, as in the PGN `Termination` tag and the JSON of `rookery pgn
    /// replay`: `checkmate`, `perpetual_check`, ….
    pub const fn label(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Resignation => "resignation",
            Termination::Timeout => "timeout",
            Termination::TimeoutVsInsufficientMaterial => "timeout_vs_insufficient_material",
            Termination::IllegalMoves => "illegal_moves",
            Termination::Agreement => "agreement",
            Termination::DeadPosition => "dead_position",
            Termination::PerpetualCheck => "perpetual_check",
            Termination::Stalemate => "stalemate",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
            Termination::SeventyFiveMoves => "seventy_five_moves",
            Termination::ResignationVsInsufficientMaterial => {
                "resignation_vs_insufficient_material"
            }
            Termination::IllegalMovesVsInsufficientMaterial => {
                "illegal_moves_vs_insufficient_material"
            }
            Termination::Aborted => "aborted",
            Termination::Abandoned => "abandoned",
            Termination::NoStart => "no_start",
            Termination::ArbiterDecision => "arbiter_decision",
            Termination::OverTheBoard => "over_the_board",
            Termination::ResignAdjudication => "resign_adjudication",
            Termination::DrawAdjudication => "draw_adjudication",
        }
    }

    /// The PGN standard's `Termination` value (section 9.8.1), which lichess, python-chess
    /// and other tools read: `normal` for any ending by the rules of play, `time forfeit`,
    /// `rules infraction` (illegal moves), `abandoned` (a player left or never started), and
    /// `unterminated` for a game aborted without a result, `adjudication` for a result the
    /// arbiter declared or an engine game's resign or draw adjudication. Rookery's own [`Termination::label`]
    /// says more, and goes in a tag of its own.
    pub const fn pgn_value(self) -> &'static str {
        match self {
            Termination::Timeout | Termination::TimeoutVsInsufficientMaterial => "time forfeit",
            Termination::IllegalMoves | Termination::IllegalMovesVsInsufficientMaterial => {
                "rules infraction"
            }
            Termination::Abandoned | Termination::NoStart => "abandoned",
            Termination::Aborted => "unterminated",
            Termination::ArbiterDecision
            | Termination::ResignAdjudication
            | Termination::DrawAdjudication => "adjudication",
            Termination::Checkmate
            | Termination::Resignation
            | Termination::Agreement
            | Termination::DeadPosition
            | Termination::PerpetualCheck
            | Termination::Stalemate
            | Termination::ThreefoldRepetition
            | Termination::FivefoldRepetition
            | Termination::FiftyMoves
            | Termination::SeventyFiveMoves
            | Termination::ResignationVsInsufficientMaterial
            | Termination::OverTheBoard => "normal",
        }
    }

    /// Every termination.
    pub const ALL: [Termination; 22] = [
        Termination::Checkmate,
        Termination::Resignation,
        Termination::Timeout,
        Termination::TimeoutVsInsufficientMaterial,
        Termination::IllegalMoves,
        Termination::Agreement,
        Termination::DeadPosition,
        Termination::PerpetualCheck,
        Termination::Stalemate,
        Termination::ThreefoldRepetition,
        Termination::FivefoldRepetition,
        Termination::FiftyMoves,
        Termination::SeventyFiveMoves,
        Termination::ResignationVsInsufficientMaterial,
        Termination::IllegalMovesVsInsufficientMaterial,
        Termination::Aborted,
        Termination::Abandoned,
        Termination::NoStart,
        Termination::ArbiterDecision,
        Termination::OverTheBoard,
        Termination::ResignAdjudication,
        Termination::DrawAdjudication,
    ];

    /// Reads a label written by [`Termination::label`].
    pub fn from_label(label: &str) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.label() == label)
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// The end of a game: the result and why.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Outcome {
    /// The result ([`GameResult::NoResult`] for a game aborted before it began: no points, no
    /// rating change).
    pub result: GameResult,
    /// The reason.
    pub termination: Termination,
}

impl Outcome {
    /// The outcome in English words, for people: "White wins by checkmate", "Draw by
    /// agreement", "Game aborted".
    pub fn describe(self) -> String {
        let how = match self.termination {
            Termination::Checkmate => "by checkmate",
            Termination::Resignation => "by resignation",
            Termination::Timeout => "on time",
            Termination::TimeoutVsInsufficientMaterial => {
                "on time: the flag fell, but no mate was possible"
            }
            Termination::IllegalMoves => "by illegal moves",
            Termination::Agreement => "by agreement",
            Termination::DeadPosition => "by dead position: no one can mate",
            Termination::PerpetualCheck => "by perpetual check",
            Termination::Stalemate => "by stalemate",
            Termination::ThreefoldRepetition => "by threefold repetition",
            Termination::FivefoldRepetition => "by fivefold repetition",
            Termination::FiftyMoves => "by the fifty-move rule",
            Termination::SeventyFiveMoves => "by the seventy-five-move rule",
            Termination::ResignationVsInsufficientMaterial => {
                "by resignation against a side that could not mate"
            }
            Termination::IllegalMovesVsInsufficientMaterial => {
                "by illegal moves against a side that could not mate"
            }
            Termination::Aborted => "",
            Termination::Abandoned => "by abandonment",
            Termination::ArbiterDecision => "by the arbiter's decision",
            Termination::OverTheBoard => "over the board",
            Termination::ResignAdjudication => "by adjudication: both engines' scores agreed",
            Termination::DrawAdjudication => "by adjudication: both engines' scores were level",
            Termination::NoStart => match self.result {
                GameResult::Win(Color::White) => "by default: Black made no first move in time",
                GameResult::Win(Color::Black) => "by default: White made no first move in time",
                _ => "",
            },
        };
        let who = match self.result {
            GameResult::Win(Color::White) => "White wins",
            GameResult::Win(Color::Black) => "Black wins",
            GameResult::Draw => "Draw",
            GameResult::NoResult if self.termination == Termination::NoStart => {
                return "Game aborted: a first move was not made in time".to_owned()
            }
            GameResult::NoResult => return "Game aborted".to_owned(),
        };
        format!("{who} {how}")
    }
}

impl Outcome {
    /// [`Outcome::describe`], naming the side that made no first move when the game was
    /// aborted for it ([`Termination::NoStart`]; that side is the one to move at the end).
    pub fn describe_missed(self, missed_start: Option<Color>) -> String {
        match (self.result, self.termination, missed_start) {
            (GameResult::NoResult, Termination::NoStart, Some(late)) => {
                let side = if late == Color::White { "White" } else { "Black" };
                format!("Game aborted: {side} made no first move in time")
            }
            _ => self.describe(),
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.result, self.termination)
    }
}
