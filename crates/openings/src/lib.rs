#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

use std::collections::HashMap;
use std::fmt;
use std::sync::OnceLock;

use rookery_core::{FenError, Move, Position};

/// A named opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Opening {
    /// The ECO code, `A00` to `E99`.
    pub eco: &'static str,
    /// The English name, `Family: Variation, Subvariation`.
    pub name: &'static str,
}

/// The vendored files, one per ECO volume.
const FILES: [(&str, &str); 5] = [
    ("a.tsv", include_str!("../data/a.tsv")),
    ("b.tsv", include_str!("../data/b.tsv")),
    ("c.tsv", include_str!("../data/c.tsv")),
    ("d.tsv", include_str!("../data/d.tsv")),
    ("e.tsv", include_str!("../data/e.tsv")),
];

/// A line of the data that does not read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DataError {
    /// The file.
    pub file: &'static str,
    /// The line, from 1.
    pub line: usize,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for DataError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}, line {}: {}", self.file, self.line, self.reason)
    }
}

impl std::error::Error for DataError {}

/// Openings by the repetition key of their position.
#[derive(Debug, Default)]
pub struct Index {
    by_key: HashMap<u64, Opening>,
}

impl Index {
    /// Reads one file of the data set (`eco`, `name`, `pgn`, tab-separated, a header line)
    /// into the index. When two lines name the same position, the first is kept, as lichess
    /// keeps the first.
    ///
    /// # Errors
    /// [`DataError`] naming the first line that does not read or whose moves are illegal.
    pub fn add_file(&mut self, file: &'static str, text: &'static str) -> Result<(), DataError> {
        for (i, line) in text.lines().enumerate().skip(1) {
            let error = |reason: String| DataError { file, line: i + 1, reason };
            if line.trim().is_empty() {
                continue;
            }
            let mut fields = line.split('\t');
            let (Some(eco), Some(name), Some(pgn), None) =
                (fields.next(), fields.next(), fields.next(), fields.next())
            else {
                return Err(error("expected three tab-separated fields".into()));
            };
            if !is_eco(eco) {
                return Err(error(format!("{eco:?} is no ECO code")));
            }
            let mut pos = Position::new();
            for token in pgn.split_whitespace() {
                if token.ends_with('.')
                    && token[..token.len() - 1].chars().all(|c| c.is_ascii_digit())
                {
                    continue;
                }
                let m = pos.parse_san(token).map_err(|e| error(format!("move {token:?}: {e}")))?;
                pos.play_unchecked(m);
            }
            self.by_key.entry(pos.repetition_key()).or_insert(Opening { eco, name });
        }
        Ok(())
    }

    /// The index of the whole vendored data set.
    ///
    /// # Errors
    /// [`DataError`] for a line that does not read (the crate's tests read every line).
    pub fn vendored() -> Result<Index, DataError> {
        let mut index = Index::default();
        for (file, text) in FILES {
            index.add_file(file, text)?;
        }
        Ok(index)
    }

    /// How many positions have a name.
    pub fn len(&self) -> usize {
        self.by_key.len()
    }

    /// `true` without any opening.
    pub fn is_empty(&self) -> bool {
        self.by_key.is_empty()
    }

    /// The opening of this very position.
    pub fn get(&self, pos: &Position) -> Option<Opening> {
        self.by_key.get(&pos.repetition_key()).copied()
    }

    /// The opening of a game from `start` through `moves` (legal, in order): the name of the
    /// last named position along it, the start included.
    pub fn of_game(&self, start: &Position, moves: &[Move]) -> Option<Opening> {
        let mut pos = *start;
        let mut found = self.get(&pos);
        for &m in moves {
            pos.play_unchecked(m);
            found = self.get(&pos).or(found);
        }
        found
    }
}

fn is_eco(text: &str) -> bool {
    let b = text.as_bytes();
    b.len() == 3 && (b'A'..=b'E').contains(&b[0]) && b[1].is_ascii_digit() && b[2].is_ascii_digit()
}

/// The vendored index, read once.
fn index() -> &'static Index {
    static INDEX: OnceLock<Index> = OnceLock::new();
    // The crate's tests read every line, so the data set always reads; were a line ever bad,
    // names would be missing rather than the server down.
    INDEX.get_or_init(|| Index::vendored().unwrap_or_default())
}

/// The opening of this very position.
pub fn by_position(pos: &Position) -> Option<Opening> {
    index().get(pos)
}

/// The opening of a position given as EPD (a FEN without the move counters) or as FEN.
///
/// # Errors
/// [`FenError`] when the text is no legal position.
pub fn by_epd(epd: &str) -> Result<Option<Opening>, FenError> {
    let text = epd.trim();
    let pos = if text.split_whitespace().count() == 4 {
        Position::from_fen(&format!("{text} 0 1"))?
    } else {
        Position::from_fen(text)?
    };
    Ok(by_position(&pos))
}

/// The opening of a game from `start` through `moves`: the last named position along it. A
/// game set up from another position than the standard one has no name.
pub fn of_game(start: &Position, moves: &[Move]) -> Option<Opening> {
    if start.repetition_key() != Position::new().repetition_key() {
        return None;
    }
    index().of_game(start, moves)
}
