#![doc = include_str!("../README.md")]
#![deny(unsafe_code)]

pub mod attacks;
mod bitboard;
mod board;
mod castling;
pub mod chess960;
mod color;
pub mod fen;
pub mod hint;
pub mod legality;
mod movegen;
mod moves;
pub mod perft;
mod position;
mod result;
mod role;
pub mod san;
pub mod scoresheet;
mod setup;
mod square;
pub mod uci;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use board::Board;
pub use castling::{Castles, CastlingMode, CastlingRights, CastlingSide};
pub use color::{ByColor, Color};
pub use fen::{Fen, FenError, ParseFenError};
pub use legality::{Attempt, Illegal, NotAMove};
pub use moves::{Move, MoveKind, MoveList, MAX_LEGAL_MOVES};
pub use position::{PlayError, Position, PositionError};
pub use result::{GameResult, ParseGameResultError};
pub use role::{ByRole, Piece, Role};
pub use san::{San, SanPlus};
pub use setup::Setup;
pub use square::{File, ParseSquareError, Rank, Square};
pub use uci::UciMove;
