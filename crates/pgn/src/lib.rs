#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod buffer;
pub mod comment;
pub mod date;
mod error;
pub mod main_line;
pub mod parallel;
mod reader;
mod scan;
pub mod start;
pub mod tag;
mod token;
mod visitor;
mod writer;

pub use error::{Location, ReadError, ReadErrorKind};
pub use main_line::{read_main_line, MainLine, MainLineError, MainLineReader};
pub use reader::Reader;
/// The game termination marker (§8.2.6), which is also the value of the `Result` tag
/// (§8.1.1.7): rookery-core's one result type.
pub use rookery_core::GameResult;
pub use start::{StartError, Variant};
pub use tag::RawTag;
pub use token::Nag;
pub use visitor::{SkipVisitor, Visitor};
pub use writer::{Writer, LINE_LIMIT, SEVEN_TAG_ROSTER};
