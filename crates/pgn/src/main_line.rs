//! The main line of a game, played from the position its tags give: the one replay of a PGN
//! game that the tools share (`rookery play --pgn`, engine-match openings, tuning data, the
//! server's finished games, `rookery pgn`'s start positions).
//!
//! The start is the one [`crate::start`] reads from the tags: the `[FEN]` tag when there is
//! one, whatever `[SetUp]` says, else the standard start; in Chess960 (`[Variant "Chess960"]`
//! and the names others give it) the `[FEN]` read with Chess960 castling, and required. Another
//! `[Variant]` is refused. Every move is then played in the start's castling mode. Variations
//! are skipped; the first move that is not legal ends the replay with an error naming its
//! place.

use std::fmt;
use std::ops::ControlFlow;

use rookery_core::san::SanError;
use rookery_core::{Color, FenError, GameResult, Move, Position, SanPlus};

use crate::start::{fen_hint, StartError, Variant};
use crate::tag::decode_text;
use crate::{Location, RawTag, ReadError, Reader, Visitor};

/// One game's main line, played.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MainLine {
    /// The tag pairs, in the order of the text, decoded as UTF-8 (Latin-1 where that fails).
    pub tags: Vec<(String, String)>,
    /// The position the game starts from, in the game's castling mode (Chess960 for a
    /// Chess960 game, whatever its start).
    pub start: Position,
    /// The moves, each legal in the position before it.
    pub plies: Vec<Ply>,
    /// Comment texts before the first move (kept with [`Options::comments`]).
    pub comments: Vec<String>,
    /// The termination marker; `None` for a game cut off without one.
    pub result: Option<GameResult>,
}

/// One move of a main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ply {
    /// The move.
    pub m: Move,
    /// The move as the text writes it.
    pub san: SanPlus,
    /// Where it is written.
    pub at: Location,
    /// Comment texts after it, before the next move (kept with [`Options::comments`]).
    pub comments: Vec<String>,
}

impl MainLine {
    /// The value of the first tag called `name`.
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags.iter().find(|(n, _)| n == name).map(|(_, v)| v.as_str())
    }

    /// The moves.
    pub fn moves(&self) -> impl Iterator<Item = Move> + '_ {
        self.plies.iter().map(|p| p.m)
    }

    /// The position after the first `plies` moves (all of them when `plies` is larger).
    pub fn position_after(&self, plies: usize) -> Position {
        let mut pos = self.start;
        for m in self.moves().take(plies) {
            pos.play_unchecked(m);
        }
        pos
    }

    /// The position after the last move.
    pub fn end(&self) -> Position {
        self.position_after(self.plies.len())
    }

    /// The variant the game is played in: that of its start.
    pub fn variant(&self) -> Variant {
        Variant::of(&self.start)
    }

    /// The result the game states: its termination marker, else its `Result` tag.
    pub fn stated_result(&self) -> Option<GameResult> {
        self.result.or_else(|| self.tag("Result").and_then(|r| r.parse().ok()))
    }
}

/// What to keep besides the moves.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Keep the comments of the main line ([`Ply::comments`]).
    pub comments: bool,
    /// Stop after this many moves.
    pub max_plies: Option<usize>,
}

/// Why a game's main line cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MainLineError {
    /// The game, from 1, in the order of the input.
    pub game: u64,
    /// What is wrong.
    pub kind: MainLineErrorKind,
}

/// What is wrong with a game's main line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MainLineErrorKind {
    /// The text does not read as PGN.
    Read(ReadError),
    /// The `[FEN]` tag is no legal position.
    Fen {
        /// The tag's value.
        fen: String,
        /// Where the tag is.
        at: Location,
        /// Why.
        error: FenError,
    },
    /// A `[Variant]` other than standard chess and Chess960.
    Variant {
        /// The tag's value.
        variant: String,
        /// Where the tag is.
        at: Location,
    },
    /// A Chess960 game without a `[FEN]` tag: its start position is unknown.
    MissingFen {
        /// The `[Variant]` tag's value.
        variant: String,
        /// Where the `[Variant]` tag is.
        at: Location,
    },
    /// A move that is not legal in its position.
    Move {
        /// The move as written.
        san: SanPlus,
        /// Where it is written.
        at: Location,
        /// The position's move number.
        number: u32,
        /// The side to move.
        turn: Color,
        /// Why.
        error: SanError,
    },
}

impl fmt::Display for MainLineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let game = self.game;
        match &self.kind {
            MainLineErrorKind::Read(e) => e.fmt(f),
            MainLineErrorKind::Fen { fen, at, error } => {
                write!(f, "game {game}, {at}: [FEN {fen:?}]: {error}{}", fen_hint(fen))
            }
            MainLineErrorKind::Variant { variant, at } => {
                write!(f, "game {game}, {at}: {}", StartError::Variant(variant.clone()))
            }
            MainLineErrorKind::MissingFen { variant, at } => {
                write!(f, "game {game}, {at}: [Variant {variant:?}]: {}", StartError::MissingFen)
            }
            MainLineErrorKind::Move { san, at, number, turn, error } => {
                let dots = if *turn == Color::White { "." } else { "..." };
                write!(f, "game {game}, {at}: move {number}{dots} {san}: {error}")
            }
        }
    }
}

impl std::error::Error for MainLineError {}

/// Where [`crate::start`]'s readings of the tags were first: kept here, where they were, for the
/// tools that import them from here.
pub use crate::start::{fen_tag_position, is_standard_variant};

/// The visitor that plays each game's main line: give it to [`Reader::read_game`].
#[derive(Clone, Debug)]
pub struct MainLineReader {
    options: Options,
    game: u64,
    line: MainLine,
    pos: Position,
    /// The `[Variant]` and `[FEN]` tags and where they are: the start is set up once all tags
    /// are read, as a `[Variant]` may come after the `[FEN]` it governs.
    variant: Option<(String, Location)>,
    fen: Option<(String, Location)>,
    /// Moves played; stop reading (the rest is skipped).
    done: bool,
    error: Option<MainLineErrorKind>,
}

impl MainLineReader {
    /// A reader keeping what `options` ask for.
    pub fn new(options: Options) -> MainLineReader {
        MainLineReader {
            options,
            game: 0,
            line: MainLine::default(),
            pos: Position::new(),
            variant: None,
            fen: None,
            done: false,
            error: None,
        }
    }

    fn fail(&mut self, kind: MainLineErrorKind) {
        self.error.get_or_insert(kind);
        self.done = true;
    }
}

impl Default for MainLineReader {
    fn default() -> MainLineReader {
        MainLineReader::new(Options::default())
    }
}

impl Visitor for MainLineReader {
    type Output = Result<MainLine, MainLineError>;

    fn begin_game(&mut self) {
        self.game += 1;
        self.line = MainLine::default();
        self.pos = Position::new();
        self.variant = None;
        self.fen = None;
        self.done = false;
        self.error = None;
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, at: Location) {
        let (name, value) = (decode_text(name).into_owned(), value.decode_utf8().into_owned());
        match name.as_str() {
            "FEN" => self.fen = Some((value.clone(), at)),
            "Variant" => self.variant = Some((value.clone(), at)),
            _ => {}
        }
        self.line.tags.push((name, value));
    }

    fn end_tags(&mut self) -> ControlFlow<()> {
        let (variant, fen) = (self.variant.take(), self.fen.take());
        let start = Variant::of_game(variant.as_ref().map(|(v, _)| v.as_str()))
            .and_then(|v| v.start(fen.as_ref().map(|(f, _)| f.as_str())));
        match (start, variant, fen) {
            (Ok(pos), ..) => (self.line.start, self.pos) = (pos, pos),
            (Err(StartError::Fen { fen, error, .. }), _, Some((_, at))) => {
                self.fail(MainLineErrorKind::Fen { fen, at, error });
            }
            (Err(StartError::MissingFen), Some((variant, at)), _) => {
                self.fail(MainLineErrorKind::MissingFen { variant, at });
            }
            // Only a `[Variant]` tag is left to blame.
            (Err(_), Some((variant, at)), _) => {
                self.fail(MainLineErrorKind::Variant { variant, at });
            }
            // A start error names a tag the game has: no other case.
            (Err(_), None, _) => {}
        }
        if self.done {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn san(&mut self, san: SanPlus, at: Location) -> ControlFlow<()> {
        if self.done || self.options.max_plies.is_some_and(|n| self.line.plies.len() >= n) {
            self.done = true;
            return ControlFlow::Break(());
        }
        match san.san.to_move(&self.pos) {
            Ok(m) => {
                self.pos.play_unchecked(m);
                self.line.plies.push(Ply { m, san, at, comments: Vec::new() });
                ControlFlow::Continue(())
            }
            Err(error) => {
                let (number, turn) = (self.pos.fullmoves(), self.pos.turn());
                self.fail(MainLineErrorKind::Move { san, at, number, turn, error });
                ControlFlow::Break(())
            }
        }
    }

    fn wants_comments(&self) -> bool {
        self.options.comments
    }

    fn comment(&mut self, comment: &[u8]) {
        // Variations are skipped whole, their comments with them.
        if !self.options.comments || self.done {
            return;
        }
        let text = decode_text(comment).into_owned();
        match self.line.plies.last_mut() {
            Some(ply) => ply.comments.push(text),
            None => self.line.comments.push(text),
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(())
    }

    fn result(&mut self, result: GameResult) {
        self.line.result = Some(result);
    }

    fn error(&mut self, error: ReadError) {
        self.fail(MainLineErrorKind::Read(error));
    }

    fn end_game(&mut self) -> Self::Output {
        match self.error.take() {
            Some(kind) => Err(MainLineError { game: self.game, kind }),
            None => Ok(std::mem::take(&mut self.line)),
        }
    }
}

/// Plays the main line of the first game of `pgn`; `None` when the text holds no game.
///
/// # Errors
/// [`MainLineError`] naming the first problem.
pub fn read_main_line(pgn: &str, options: Options) -> Option<Result<MainLine, MainLineError>> {
    let mut reader = Reader::new(pgn.as_bytes());
    // Reading from memory cannot fail.
    reader.read_game(&mut MainLineReader::new(options)).ok().flatten()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_core::Square;

    fn read(pgn: &str) -> Result<MainLine, MainLineError> {
        read_main_line(pgn, Options { comments: true, max_plies: None }).expect("a game")
    }

    #[test]
    fn plays_from_the_fen_tag() {
        let pgn = "[Event \"e\"]\n[SetUp \"1\"]\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 b - - 0 30\"]\n\n\
                   30... Kd7 {a comment} 31. e4 (31. e3 {not this}) Kc6 1/2-1/2\n";
        let line = read(pgn).unwrap();
        assert_eq!(line.start.to_fen(), "4k3/8/8/8/8/8/4P3/4K3 b - - 0 30");
        let sans: Vec<String> = line.plies.iter().map(|p| p.san.to_string()).collect();
        assert_eq!(sans, ["Kd7", "e4", "Kc6"]);
        assert_eq!(line.plies[0].comments, ["a comment"]);
        assert!(line.plies[1].comments.is_empty(), "a variation's comment is not the main line's");
        assert_eq!(line.end().to_fen(), "8/8/2k5/8/4P3/8/8/4K3 w - - 1 32");
        assert_eq!(line.position_after(1).king_of(Color::Black), Square::D7);
        assert_eq!(line.result, Some(GameResult::Draw));
        assert_eq!(line.tag("SetUp"), Some("1"));
    }

    #[test]
    fn honours_fen_without_setup_and_fullmove_zero() {
        let line = read("[FEN \"4k3/8/8/8/8/8/8/4K2R w K - 1 0\"]\n\n1. O-O *\n").unwrap();
        assert_eq!(line.start.fullmoves(), 1);
        assert!(line.plies[0].m.is_castle());
        assert_eq!(line.stated_result(), Some(GameResult::NoResult));
        let line = read("1. e4 e5 *").unwrap();
        assert_eq!(line.start, Position::new());
    }

    #[test]
    fn errors_name_the_game_and_the_place() {
        let e = read("[FEN \"8/8/8/8/8/8/8/8 w - - 0 1\"]\n\n1. e4 *\n").unwrap_err();
        assert!(matches!(e.kind, MainLineErrorKind::Fen { .. }));
        assert!(
            e.to_string().starts_with("game 1, line 1, column 1: [FEN \"8/8/8/8/8/8/8/8 w"),
            "{e}"
        );
        let e = read("[Event \"x\"]\n[Variant \"Crazyhouse\"]\n\n1. e4 *\n").unwrap_err();
        assert_eq!(e.to_string(), "game 1, line 2, column 1: unsupported variant \"Crazyhouse\"");
        let e = read("[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e4 Ke9 *\n").unwrap_err();
        assert!(matches!(e.kind, MainLineErrorKind::Read(_)), "{e}");
        let e = read("1. e4 e5 2. Ke3 *\n").unwrap_err();
        let MainLineErrorKind::Move { at, number: 2, turn: Color::White, .. } = e.kind else {
            panic!("{e:?}")
        };
        assert_eq!(at, Location { line: 1, column: 13 });
        assert!(e.to_string().starts_with("game 1, line 1, column 13: move 2. Ke3: "), "{e}");
    }

    #[test]
    fn reads_each_game_and_stops_where_asked() {
        let text = "1. e4 e5 2. Nf3 *\n\n[FEN \"4k3/8/8/8/8/8/4P3/4K3 w - - 0 1\"]\n\n1. e3 *\n";
        let mut reader = Reader::new(text.as_bytes());
        let mut v = MainLineReader::new(Options { comments: false, max_plies: Some(2) });
        let first = reader.read_game(&mut v).unwrap().unwrap().unwrap();
        assert_eq!(first.plies.len(), 2, "cut to two plies");
        let second = reader.read_game(&mut v).unwrap().unwrap().unwrap();
        assert_eq!(second.start.to_fen(), "4k3/8/8/8/8/8/4P3/4K3 w - - 0 1");
        assert_eq!(second.plies.len(), 1);
        assert!(reader.read_game(&mut v).unwrap().is_none());
        assert!(read_main_line("", Options::default()).is_none());
    }
}
