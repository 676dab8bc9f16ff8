#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod buffer;
pub mod comment;
pub mod date;
mod error;
mod reader;
mod scan;
pub mod tag;
mod token;
mod visitor;
mod writer;

pub use error::{Location, ReadError, ReadErrorKind};
pub use reader::Reader;
pub use tag::RawTag;
pub use token::{GameResult, Nag};
pub use visitor::{SkipVisitor, Visitor};
pub use writer::{Writer, LINE_LIMIT, SEVEN_TAG_ROSTER};
