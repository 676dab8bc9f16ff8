//! Openings: the positions the games of a match start from, read from EPD or PGN.
//!
//! **EPD**, one opening a line: the four FEN fields (placement, side to move, castling, en
//! passant), then optionally the two move counters as in FEN, then optional operations ended
//! by `;`. Of the operations, `hmvc N` and `fmvn N` set the counters (EPD standard), and
//! `moves M…` (a Rookery extension) plays moves in UCI or SAN from there. Blank lines and
//! lines starting with `#` are skipped; other operations (`id`, `c0`, `bm`, …) are ignored.
//!
//! **PGN**: each game's main line (variations are skipped) from its `[FEN]` tag or the
//! standard start, optionally cut to its first `max_plies` plies.
//!
//! **Chess960** (RULES.md §13): the start positions by number ([`Opening::chess960`]), drawn
//! at random from a seed ([`random_chess960`]), or a file read with castling in Chess960 mode
//! ([`load_in`]), whose FENs may then use X-FEN or Shredder-FEN castling fields. An opening
//! whose start is a Chess960 position makes its game a Chess960 game.
//!
//! A game starts from the position at the end of the opening: the opening's moves are not
//! played on the clock.

use core::fmt;
use std::path::Path;

use rookery_core::{chess960, CastlingMode, Move, Position, PositionError, UciMove};
use rookery_pgn::main_line::Options;
use rookery_pgn::{MainLineError, MainLineReader, Reader};

/// One opening: where it starts and its moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// The position before the moves.
    pub start: Position,
    /// The moves.
    pub moves: Vec<Move>,
}

impl Opening {
    /// The standard starting position, no moves.
    pub fn standard() -> Opening {
        Opening { start: Position::new(), moves: Vec::new() }
    }

    /// Chess960 start position `n` (0 to 959, 518 the standard one; RULES.md §13), no moves.
    pub fn chess960(n: u16) -> Option<Opening> {
        Some(Opening { start: chess960::position(n)?, moves: Vec::new() })
    }

    /// The position the game starts from: the start with the moves played.
    pub fn position(&self) -> Position {
        let mut pos = self.start;
        for &m in &self.moves {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The same opening with castling in `mode`: its start rewritten, and its moves read
    /// again from their UCI text, since a castling move is written `e1g1` in standard chess
    /// and `e1h1` in Chess960.
    ///
    /// # Errors
    /// [`PositionError`] when the start's castling rights do not fit `mode` (a Chess960
    /// opening with the king off the e-file, in standard chess).
    pub fn in_mode(&self, mode: CastlingMode) -> Result<Opening, PositionError> {
        let start = self.start.with_castling_mode(mode)?;
        let mut pos = start;
        let mut moves = Vec::with_capacity(self.moves.len());
        for &m in &self.moves {
            let m = UciMove::from_move(m)
                .to_move(&pos)
                .expect("a legal move stays legal whichever way castling is written");
            pos.play_unchecked(m);
            moves.push(m);
        }
        Ok(Opening { start, moves })
    }
}

/// `count` Chess960 start positions drawn from `seed`: a shuffle of all 960, so that none
/// comes twice before all have come (Fisher–Yates with SplitMix64, Steele, Lea and Flood
/// 2014), begun afresh after each 960.
pub fn random_chess960(count: usize, seed: u64) -> Vec<Opening> {
    let mut state = seed;
    let mut next = move || {
        state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    };
    let mut numbers = Vec::with_capacity(count);
    while numbers.len() < count {
        let mut all: Vec<u16> = (0..chess960::COUNT).collect();
        for i in (1..all.len()).rev() {
            all.swap(i, (next() % (i as u64 + 1)) as usize);
        }
        numbers.extend(all.into_iter().take(count - numbers.len()));
    }
    numbers.into_iter().map(|n| Opening::chess960(n).expect("0 to 959")).collect()
}

/// Why an opening file cannot be used.
#[derive(Debug)]
pub struct OpeningError {
    /// Where: the file, and the line (EPD) or game (PGN) if the error is in one.
    pub place: String,
    /// What is wrong.
    pub kind: OpeningErrorKind,
}

/// What is wrong with an opening.
#[derive(Debug)]
pub enum OpeningErrorKind {
    /// The file cannot be read.
    Io(std::io::Error),
    /// Neither `.epd` nor `.pgn`.
    UnknownFormat,
    /// A FEN (or EPD position) that does not parse or is not legal.
    Fen(String),
    /// A move that does not parse or is not legal where it stands.
    Move(String),
    /// A PGN game whose main line cannot be played (the error names the game and the place).
    Pgn(MainLineError),
    /// An opening after which the game would already be over.
    NoLegalMove,
    /// The file has no openings.
    Empty,
}

impl fmt::Display for OpeningError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: ", self.place)?;
        match &self.kind {
            OpeningErrorKind::Io(e) => write!(f, "{e}"),
            OpeningErrorKind::UnknownFormat => {
                f.write_str("unknown opening format (expected a .epd or .pgn file)")
            }
            OpeningErrorKind::Fen(why) => write!(f, "bad position: {why}"),
            OpeningErrorKind::Move(why) => write!(f, "bad move: {why}"),
            OpeningErrorKind::Pgn(why) => write!(f, "{why}"),
            OpeningErrorKind::NoLegalMove => f.write_str("the opening leaves no legal move"),
            OpeningErrorKind::Empty => f.write_str("no openings"),
        }
    }
}

impl std::error::Error for OpeningError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.kind {
            OpeningErrorKind::Io(e) => Some(e),
            _ => None,
        }
    }
}

/// Reads a move in UCI or, failing that, SAN.
fn parse_move(pos: &Position, text: &str) -> Result<Move, String> {
    pos.parse_uci(text)
        .or_else(|_| pos.parse_san(text))
        .map_err(|_| format!("{text:?} is not a legal move in {}", pos.to_fen()))
}

/// Reads the openings of an EPD text; `name` names it in errors.
///
/// # Errors
/// [`OpeningError`] naming the line of the first bad opening, or [`OpeningErrorKind::Empty`].
pub fn parse_epd(text: &str, name: &str) -> Result<Vec<Opening>, OpeningError> {
    parse_epd_in(text, name, CastlingMode::Standard)
}

/// Reads the openings of an EPD text with castling in `mode` (in Chess960, the castling
/// fields may be X-FEN or Shredder-FEN); `name` names it in errors.
///
/// # Errors
/// [`OpeningError`] naming the line of the first bad opening, or [`OpeningErrorKind::Empty`].
pub fn parse_epd_in(
    text: &str,
    name: &str,
    mode: CastlingMode,
) -> Result<Vec<Opening>, OpeningError> {
    let mut openings = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let error = |kind| OpeningError { place: format!("{name}, line {}", i + 1), kind };
        let opening = parse_epd_line(line, mode).map_err(error)?;
        if !opening.position().has_legal_moves() {
            return Err(error(OpeningErrorKind::NoLegalMove));
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningError { place: name.to_owned(), kind: OpeningErrorKind::Empty });
    }
    Ok(openings)
}

fn parse_epd_line(line: &str, mode: CastlingMode) -> Result<Opening, OpeningErrorKind> {
    let mut fields = line.split_ascii_whitespace();
    let placement: Vec<&str> = fields.by_ref().take(4).collect();
    if placement.len() < 4 {
        return Err(OpeningErrorKind::Fen(format!("{line:?} has fewer than four FEN fields")));
    }
    let rest: Vec<&str> = fields.collect();
    // Full FEN: two counters before any operation.
    let numbers = rest.iter().take(2).take_while(|w| w.parse::<u32>().is_ok()).count();
    let (mut halfmoves, mut fullmoves) = ("0", "1");
    if numbers == 2 {
        (halfmoves, fullmoves) = (rest[0], rest[1]);
    }
    let operations = rest[if numbers == 2 { 2 } else { 0 }..].join(" ");
    let mut moves_text = None;
    for operation in operations.split(';').map(str::trim).filter(|o| !o.is_empty()) {
        let (opcode, operand) = operation.split_once(' ').unwrap_or((operation, ""));
        match opcode {
            "hmvc" => halfmoves = operand.trim(),
            "fmvn" => fullmoves = operand.trim(),
            "moves" => moves_text = Some(operand),
            _ => {}
        }
    }
    let fen = format!("{} {halfmoves} {fullmoves}", placement.join(" "));
    let start = Position::from_fen_in(&fen, mode)
        .map_err(|e| OpeningErrorKind::Fen(format!("{fen}: {e}")))?;
    let mut pos = start;
    let mut moves = Vec::new();
    for text in moves_text.unwrap_or_default().split_ascii_whitespace() {
        let m = parse_move(&pos, text).map_err(OpeningErrorKind::Move)?;
        pos.play_unchecked(m);
        moves.push(m);
    }
    Ok(Opening { start, moves })
}

/// Reads the openings of a PGN text: each game's main line, cut to `max_plies` if given;
/// `name` names it in errors.
///
/// # Errors
/// [`OpeningError`] naming the game of the first bad opening, or [`OpeningErrorKind::Empty`].
pub fn parse_pgn(
    read: impl std::io::Read,
    name: &str,
    max_plies: Option<usize>,
) -> Result<Vec<Opening>, OpeningError> {
    let mut reader = Reader::new(read);
    let mut visitor = MainLineReader::new(Options { comments: false, max_plies });
    let mut openings = Vec::new();
    let io = |e| OpeningError { place: name.to_owned(), kind: OpeningErrorKind::Io(e) };
    while let Some(result) = reader.read_game(&mut visitor).map_err(io)? {
        let place = || format!("{name}, game {}", reader.games());
        let line = result
            .map_err(|e| OpeningError { place: name.to_owned(), kind: OpeningErrorKind::Pgn(e) })?;
        let opening = Opening { start: line.start, moves: line.moves().collect() };
        if !opening.position().has_legal_moves() {
            return Err(OpeningError { place: place(), kind: OpeningErrorKind::NoLegalMove });
        }
        openings.push(opening);
    }
    if openings.is_empty() {
        return Err(OpeningError { place: name.to_owned(), kind: OpeningErrorKind::Empty });
    }
    Ok(openings)
}

/// Reads an opening file, EPD or PGN by its extension (`.epd`, `.pgn`; any case).
///
/// # Errors
/// [`OpeningError`] naming the file, and the line or game where it is wrong.
pub fn load(path: &Path, max_plies: Option<usize>) -> Result<Vec<Opening>, OpeningError> {
    load_in(path, max_plies, CastlingMode::Standard)
}

/// Reads an opening file as [`load`] does, with castling in `mode`: EPD positions are read
/// in that mode, and PGN openings (whose start the PGN's own tags decide) rewritten to it.
///
/// # Errors
/// [`OpeningError`] naming the file, and the line or game where it is wrong; in standard
/// chess, a PGN opening whose castling only fits Chess960.
pub fn load_in(
    path: &Path,
    max_plies: Option<usize>,
    mode: CastlingMode,
) -> Result<Vec<Opening>, OpeningError> {
    let name = path.display().to_string();
    let io = |e| OpeningError { place: name.clone(), kind: OpeningErrorKind::Io(e) };
    let extension = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match extension.as_deref() {
        Some("epd") => {
            let bytes = std::fs::read(path).map_err(io)?;
            let mut openings = parse_epd_in(&String::from_utf8_lossy(&bytes), &name, mode)?;
            if let Some(n) = max_plies {
                openings.iter_mut().for_each(|o| o.moves.truncate(n));
            }
            Ok(openings)
        }
        Some("pgn") => {
            let openings = parse_pgn(std::fs::File::open(path).map_err(io)?, &name, max_plies)?;
            let place = |i: usize| format!("{name}, game {}", i + 1);
            openings
                .iter()
                .enumerate()
                .map(|(i, o)| {
                    o.in_mode(mode).map_err(|e| OpeningError {
                        place: place(i),
                        kind: OpeningErrorKind::Fen(format!("{}: {e}", o.start.to_fen())),
                    })
                })
                .collect()
        }
        _ => Err(OpeningError { place: name, kind: OpeningErrorKind::UnknownFormat }),
    }
}
