//! FIDE's Tournament Report File: read and write TRF-2026 (FIDE Handbook, "TRF26"), and read
//! the TRF(x) extensions of JaVaFo (AUM: `XXR`, `XXC`, `XXZ`, `XXS`, `XXA`, `XXP`) and the
//! TRF(bx) ones of bbpPairings (`BBW`, `BBD`, `BBL`, `BBZ`, `BBF`, `BBU`), which pairing
//! engines exchange between rounds.
//!
//! [`read`] is the only way from text to a [`Tournament`], and it checks what pairing relies
//! on: pairing numbers from 1 without gaps, opponents whose entries agree (same round, the
//! other colour, results that can both be true), no player meeting himself, at most one PAB
//! a round, byes that agree with the entries, and declared points that are the sum of the
//! rounds. A file that fails gets a [`ReadError`] naming the line and column; no input
//! panics (the fuzz target `trf` holds the reader to that).
//!
//! What the reader decides, as JaVaFo and bbpPairings do:
//! - A blank round block is an absence (`Z`), but a `240` record for that round, if the
//!   round has been played, fills it in; trailing blank blocks are dropped and the rounds of
//!   every player padded with absences up to [`Tournament::rounds_played`].
//! - An entry without opponent in the round after the last one played (`0000 - H`, `Z`,
//!   `F`) is a bye known before that round is paired ([`Tournament::announced_byes`]);
//!   `XXZ` records become `240 Z` byes of that round.
//! - The TRF-16 forms `0000 - +` and `0000 - -` read as the PAB and as an absence.
//! - The declared points (columns 81–84) may include the acceleration and a bye already
//!   entered for the round to be paired, as bbpPairings allows.
//!
//! Rookery's own record, `C07`, says which text of FIDE C.07 the tie-breaks of `202` follow,
//! which TRF-2026 has no record for: `C07 2024` (in force 1 August 2024 – 28 February 2026)
//! or `C07 2026` ([`Tournament::tie_break_regulations`]). A code with digits is no
//! federation's, so it cannot be taken for a National Rating Support record; JaVaFo and
//! bbpPairings skip records they do not know.
//!
//! [`write()`] writes TRF-2026 with CR line endings ([`write_with`] for LF or CRLF), and
//! `read(write(t))` gives back `t` for every `t` that `read` produced.

mod check;
mod columns;
mod error;
mod player;
mod read;
mod scoring;
mod write;

pub use error::{Feature, Field, ReadError, ReadErrorKind, WriteError, WriteErrorKind};
pub use write::{write, write_with, LineEnding, WriteOptions};

pub(crate) use columns::{lines, parse_points};

use crate::Tournament;

/// The year of a date as TRF files and spreadsheets write it: the first run of four digits
/// (`2026/03/01`, `26.03.2026`, `1990-05-01`, `1990`); `None` without one.
///
/// ```
/// use rookery_tournament::trf::year_of;
///
/// assert_eq!(year_of("2009/03/01"), Some(2009));
/// assert_eq!(year_of("01.03.2009"), Some(2009));
/// assert_eq!(year_of("09/03/01"), None);
/// ```
pub fn year_of(date: &str) -> Option<u16> {
    date.split(|c: char| !c.is_ascii_digit())
        .find(|part| part.len() == 4)
        .and_then(|part| part.parse().ok())
}

/// Reads a TRF-2026, TRF(x) or TRF(bx) file.
///
/// # Errors
///
/// The first problem found: a record that does not read (with the line and column of the
/// field), or a file that contradicts itself (with the line and column of the entry that
/// shows it).
///
/// # Example
///
/// ```
/// use rookery_tournament::{trf, ResultCode};
///
/// let text = "012 Club championship\r\
/// 001    1      Alpha, Anna                       2100                             1.0    1     2 w 1\r\
/// 001    2      Beta, Bert                        2000                             0.0    2     1 b 0\r";
/// let tournament = trf::read(text)?;
/// assert_eq!(tournament.name.as_deref(), Some("Club championship"));
/// assert_eq!(tournament.players[0].rounds[0].result, ResultCode::Win);
/// assert_eq!(trf::read(&trf::write(&tournament)?)?, tournament);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn read(text: &str) -> Result<Tournament, ReadError> {
    let mut reader = read::Reader::default();
    for (number, text) in columns::lines(text) {
        let line = columns::Line::new(number, text);
        if !line.chars.is_empty() {
            reader.line(&line)?;
        }
    }
    reader.finish()
}

/// Reads a TRF file given as bytes, which must be UTF-8 (TRF-2026 and the JaVaFo AUM
/// recommend it).
///
/// # Errors
///
/// As [`read`], and [`ReadErrorKind::InvalidUtf8`] at the first byte that is not UTF-8 (its
/// column counts the characters before it).
pub fn read_bytes(bytes: &[u8]) -> Result<Tournament, ReadError> {
    match std::str::from_utf8(bytes) {
        Ok(text) => read(text),
        Err(e) => {
            let valid = std::str::from_utf8(&bytes[..e.valid_up_to()]).expect("valid up to here");
            let line_start = valid.rfind(['\r', '\n']).map_or(0, |i| i + 1);
            let line = columns::lines(valid).count();
            let column = valid[line_start..].chars().count() + 1;
            Err(ReadError::new(
                u32::try_from(line).unwrap_or(u32::MAX),
                u32::try_from(column).unwrap_or(u32::MAX),
                ReadErrorKind::InvalidUtf8,
            ))
        }
    }
}
