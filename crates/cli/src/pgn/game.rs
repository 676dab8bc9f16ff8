//! The visitor behind every `rookery pgn` command: replays each game with rookery-core, collects
//! its problems with their places, classifies the final position, and can re-write the game in
//! export format with normalised SAN.

use std::ops::ControlFlow;

use rookery_arbiter::Repetitions;
use rookery_core::{Position, San, SanPlus};
use rookery_pgn::parallel::Origin;
use rookery_pgn::start::set_start_tags;
use rookery_pgn::tag::decode_text;
use rookery_pgn::{
    GameResult, Location, Nag, RawTag, ReadError, StartError, Variant, Visitor, Writer,
};

/// How the final position of a game stands by itself; the first that applies, in the order
/// issue 3 gives (RULES.md §4–§6).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    Checkmate,
    Stalemate,
    InsufficientMaterial,
    FivefoldRepetition,
    SeventyFiveMoves,
    ThreefoldRepetition,
    FiftyMoves,
}

impl Termination {
    pub const ALL: [Termination; 7] = [
        Termination::Checkmate,
        Termination::Stalemate,
        Termination::InsufficientMaterial,
        Termination::FivefoldRepetition,
        Termination::SeventyFiveMoves,
        Termination::ThreefoldRepetition,
        Termination::FiftyMoves,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::InsufficientMaterial => "insufficient_material",
            Termination::FivefoldRepetition => "fivefold_repetition",
            Termination::SeventyFiveMoves => "seventy_five_moves",
            Termination::ThreefoldRepetition => "threefold_repetition",
            Termination::FiftyMoves => "fifty_moves",
        }
    }

    /// Classifies `pos`, the last position of a game whose positions are in `history` (the
    /// arbiter's repetition tracking: same placement, side to move, castling rights and legal
    /// en passant, RULES.md §6.5).
    pub fn classify(pos: &Position, history: &Repetitions) -> Option<Termination> {
        if pos.is_checkmate() {
            return Some(Termination::Checkmate);
        }
        if pos.is_stalemate() {
            return Some(Termination::Stalemate);
        }
        if pos.is_insufficient_material() {
            return Some(Termination::InsufficientMaterial);
        }
        let repetitions = history.count(pos);
        let halfmoves = pos.halfmoves();
        if repetitions >= 5 {
            Some(Termination::FivefoldRepetition)
        } else if halfmoves >= 150 {
            Some(Termination::SeventyFiveMoves)
        } else if repetitions >= 3 {
            Some(Termination::ThreefoldRepetition)
        } else if halfmoves >= 100 {
            Some(Termination::FiftyMoves)
        } else {
            None
        }
    }
}

/// A problem of a game, shown as `game G, line L, column C: reason`.
pub enum Problem {
    /// The reader's: the text is not PGN.
    Read(ReadError),
    /// The replay's: a move, a tag or the result is wrong.
    Game { game: u64, at: Location, message: String },
}

impl Problem {
    /// The problem with its game and line numbered in the whole file ([`Origin`]).
    fn renumber(&mut self, origin: Origin) {
        match self {
            Problem::Read(e) => origin.read_error(e),
            Problem::Game { game, at, .. } => {
                *game = origin.game(*game);
                *at = origin.location(*at);
            }
        }
    }
}

impl std::fmt::Display for Problem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Problem::Read(e) => e.fmt(f),
            Problem::Game { game, at, message } => write!(f, "game {game}, {at}: {message}"),
        }
    }
}

/// What a command learns of one game.
pub struct GameReport {
    /// From 1, in the order of the input.
    pub game: u64,
    /// Main-line moves applied.
    pub plies: u64,
    /// The main line's last position.
    pub final_position: Position,
    /// The `Result` tag, else the termination marker, else `*`.
    pub result: GameResult,
    /// How the final position stands by itself; `None` when it is not over, or when
    /// [`Options::terminations`] was off.
    pub termination: Option<Termination>,
    /// Every problem, each naming the game, line and column.
    pub problems: Vec<Problem>,
    /// The game in export format, when asked for and the game has no problem.
    pub export: Option<Vec<u8>>,
}

impl GameReport {
    /// The report of a game read in a part of a file, numbered in the whole file.
    pub fn renumber(&mut self, origin: Origin) {
        self.game = origin.game(self.game);
        for problem in &mut self.problems {
            problem.renumber(origin);
        }
    }
}

/// One line of play: the main line or a variation.
#[derive(Clone, Copy)]
struct Line {
    pos: Position,
    /// The position before the last move: where a variation of that move starts (kept only
    /// when variations are read).
    before: Option<Position>,
    /// Moves in this line are no longer checked (an earlier one was illegal).
    dead: bool,
}

/// Options of a [`Replayer`].
#[derive(Clone, Copy, Default)]
pub struct Options {
    /// Check the moves of variations too (else they are skipped).
    pub variations: bool,
    /// Re-write each game in export format.
    pub export: bool,
    /// Report a termination marker that contradicts the `[Result]` tag (PGN standard 8.2.6:
    /// they must be the same).
    pub results: bool,
    /// Classify each game's final position ([`GameReport::termination`]); the positions of
    /// the main line are then recorded for repetitions. Else the termination is `None`.
    pub terminations: bool,
}

pub struct Replayer {
    options: Options,
    game: u64,
    line: Line,
    stack: Vec<Line>,
    plies: u64,
    history: Repetitions,
    /// The `[FEN]` tag's text (its memory kept from game to game) and where it was.
    fen: String,
    fen_at: Option<Location>,
    /// The `[FEN]` tag's bytes are those of `last_fen`, which then stands for `fen`.
    fen_same: bool,
    /// The last `[FEN]` text that set up a position, and that position (in its game's
    /// variant): engine matches play each opening twice, colours swapped, so a game often
    /// starts where the last one did.
    last_fen: String,
    last_start: Option<Position>,
    variant: Option<(String, Location)>,
    /// The position the game starts from: a Chess960 game's export says it in its tags.
    start: Position,
    tags: Vec<(String, String)>,
    /// The `[Result]` tag, where it was, and its text.
    result_tag: Option<(GameResult, Location)>,
    result_token: Option<GameResult>,
    problems: Vec<Problem>,
    movetext: Writer<Vec<u8>>,
}

impl Replayer {
    pub fn new(options: Options) -> Replayer {
        let start = Position::new();
        Replayer {
            options,
            game: 0,
            line: Line { pos: start, before: None, dead: false },
            stack: Vec::new(),
            plies: 0,
            history: Repetitions::new(&start),
            fen: String::new(),
            fen_at: None,
            fen_same: false,
            last_fen: String::new(),
            last_start: None,
            variant: None,
            start,
            tags: Vec::new(),
            result_tag: None,
            result_token: None,
            problems: Vec::new(),
            movetext: Writer::new(Vec::new()),
        }
    }

    fn problem(&mut self, at: Location, message: impl std::fmt::Display) {
        let message = message.to_string();
        self.problems.push(Problem::Game { game: self.game, at, message });
    }

    /// Sets up the start position from the tags as rookery-pgn's main-line replay does
    /// (`rookery_pgn::start`): the `[FEN]` if present (whatever `[SetUp]` says), read in the
    /// `[Variant]`'s castling mode; a Chess960 game must have one.
    fn start(&mut self) -> Result<Position, ()> {
        let variant_tag = self.variant.take();
        let variant = match &variant_tag {
            None => Variant::Standard,
            Some((value, at)) => match Variant::from_tag(value) {
                Some(variant) => variant,
                None => {
                    self.problem(*at, StartError::Variant(value.clone()));
                    return Err(());
                }
            },
        };
        let Some(at) = self.fen_at.take() else {
            return variant.start(None).map_err(|e| {
                if let Some((value, at)) = variant_tag {
                    self.problem(at, format_args!("[Variant {value:?}]: {e}"));
                }
            });
        };
        // The same text sets up the same position in the same variant: read and checked once
        // (issue 41: a `[FEN]` a game was a twentieth of the time on engine self-play files).
        let cached = self.last_start.filter(|p| self.fen_same && Variant::of(p) == variant);
        if let Some(pos) = cached {
            return Ok(pos);
        }
        // With `fen_same` the text is the last one's, which `fen` was not filled with.
        let text = if self.fen_same { &self.last_fen } else { &self.fen };
        match variant.start(Some(text)) {
            Ok(pos) => {
                if !self.fen_same {
                    std::mem::swap(&mut self.fen, &mut self.last_fen);
                }
                self.last_start = Some(pos);
                Ok(pos)
            }
            Err(e) => {
                self.problem(at, e);
                Err(())
            }
        }
    }

    /// Plays `san` in the current line, in place: a position is copied only where a variation
    /// may need the one before the move (issue 41: copies of the position were a good part of
    /// what the commands did beyond rookery-core's replay).
    fn play(&mut self, san: SanPlus, at: Location) -> ControlFlow<()> {
        let pos = &self.line.pos;
        let found = if san.san == San::Null && !pos.is_check() {
            // Analysis files write `Z0` or `--` for a pass; python-chess reads it so too.
            Ok(None)
        } else {
            // `find_move` answers in a register; `to_move` is asked only to say why not.
            match san.san.find_move(pos) {
                Some(m) => Ok(Some(m)),
                None => san.san.to_move(pos).map(Some),
            }
        };
        let m = match found {
            Ok(m) => m,
            Err(e) => {
                let number = pos.fullmoves();
                let dots = if pos.turn() == rookery_core::Color::White { "." } else { "..." };
                self.problem(at, format_args!("move {number}{dots} {san}: {e}"));
                self.line.dead = true;
                return if self.stack.is_empty() {
                    ControlFlow::Break(())
                } else {
                    ControlFlow::Continue(())
                };
            }
        };
        if self.options.export {
            // The normalised SAN (its check and mate suffix needs the replies generated) only
            // for export: check, replay and stats never show it (issue 41).
            let normalised = m.map_or(san, |m| SanPlus::from_move(&self.line.pos, m));
            // Writing to memory cannot fail.
            let _ = self.movetext.san(&normalised);
        }
        if self.options.variations {
            self.line.before = Some(self.line.pos);
        }
        match m {
            Some(m) => self.line.pos.play_unchecked(m),
            None => self.line.pos.play_null(),
        }
        if self.stack.is_empty() {
            self.plies += 1;
            if self.options.terminations {
                self.history.push(&self.line.pos);
            }
        }
        ControlFlow::Continue(())
    }
}

impl Visitor for Replayer {
    type Output = GameReport;

    fn begin_game(&mut self) {
        self.game += 1;
        self.stack.clear();
        self.plies = 0;
        self.fen_at = None;
        self.variant = None;
        self.tags.clear();
        self.result_tag = None;
        self.result_token = None;
        self.problems.clear();
        self.movetext = Writer::new(Vec::new());
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, at: Location) {
        match name {
            b"FEN" => {
                // The bytes of the last `[FEN]` that set up a position, without an escape that
                // decoding would remove, decode to that text: neither decoded nor copied
                // (issue 41: half the games of an engine match).
                let raw = value.as_bytes();
                self.fen_same = self.last_start.is_some()
                    && raw == self.last_fen.as_bytes()
                    && !raw.contains(&b'\\');
                if !self.fen_same {
                    // Into the memory of the last game's: a string a game was a cost of its own.
                    self.fen.clear();
                    self.fen.push_str(&value.decode_utf8());
                }
                self.fen_at = Some(at);
            }
            b"Variant" => self.variant = Some((value.decode_utf8().into_owned(), at)),
            b"Result" => {
                self.result_tag = GameResult::from_ascii(value.as_bytes()).map(|r| (r, at));
            }
            _ => {}
        }
        if self.options.export {
            self.tags.push((decode_text(name).into_owned(), value.decode_utf8().into_owned()));
        }
    }

    fn end_tags(&mut self) -> ControlFlow<()> {
        let start = self.start();
        let pos = start.unwrap_or_default();
        self.start = pos;
        self.line = Line { pos, before: None, dead: start.is_err() };
        self.history.restart(&pos);
        self.movetext.set_start(pos.fullmoves(), pos.turn());
        if start.is_err() {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    }

    fn san(&mut self, san_plus: SanPlus, at: Location) -> ControlFlow<()> {
        if self.line.dead {
            return ControlFlow::Continue(());
        }
        self.play(san_plus, at)
    }

    fn nag(&mut self, nag: Nag) {
        if self.options.export {
            let _ = self.movetext.nag(nag);
        }
    }

    fn wants_comments(&self) -> bool {
        // Only export shows comments: check, replay and stats let the reader step over them.
        self.options.export
    }

    fn comment(&mut self, comment: &[u8]) {
        if self.options.export {
            let _ = self.movetext.comment(&decode_text(comment));
        }
    }

    fn begin_variation(&mut self) -> ControlFlow<()> {
        if !self.options.variations {
            return ControlFlow::Break(());
        }
        let outer = self.line;
        self.stack.push(outer);
        self.line = Line {
            pos: outer.before.unwrap_or(outer.pos),
            before: None,
            // A variation before any move has no move to replace.
            dead: outer.dead || outer.before.is_none(),
        };
        if self.options.export {
            let _ = self.movetext.begin_variation();
        }
        ControlFlow::Continue(())
    }

    fn end_variation(&mut self) {
        if let Some(outer) = self.stack.pop() {
            self.line = outer;
        }
        if self.options.export {
            let _ = self.movetext.end_variation();
        }
    }

    fn result(&mut self, result: GameResult) {
        self.result_token = Some(result);
    }

    fn error(&mut self, error: ReadError) {
        self.problems.push(Problem::Read(error));
    }

    fn end_game(&mut self) -> GameReport {
        // The main line is the bottom of the stack when the game ended inside a variation.
        let main = self.stack.first().copied().unwrap_or(self.line);
        if let (true, Some((tag, at)), Some(token)) =
            (self.options.results, self.result_tag, self.result_token)
        {
            if tag != token {
                self.problem(at, format_args!("the game ends {token}, but [Result] says {tag}"));
            }
        }
        let result =
            self.result_tag.map(|(r, _)| r).or(self.result_token).unwrap_or(GameResult::NoResult);
        let export = (self.options.export && self.problems.is_empty()).then(|| {
            let mut tags = std::mem::take(&mut self.tags);
            // A Chess960 game says so in the tags every reader knows: `[Variant "Chess960"]`,
            // `[SetUp "1"]`, its start in X-FEN. Standard games keep their tags as written.
            if Variant::of(&self.start) == Variant::Chess960 {
                set_start_tags(&mut tags, &self.start);
            }
            tags.retain(|(k, _)| k != "Result");
            tags.push(("Result".to_owned(), result.to_string()));
            let mut out = Writer::new(Vec::new());
            let _ = out.tags(&tags);
            let mut text = out.into_inner();
            let mut movetext = std::mem::replace(&mut self.movetext, Writer::new(Vec::new()));
            let _ = movetext.end_game(result);
            text.extend_from_slice(&movetext.into_inner());
            text
        });
        GameReport {
            game: self.game,
            plies: self.plies,
            final_position: main.pos,
            result,
            termination: self
                .options
                .terminations
                .then(|| Termination::classify(&main.pos, &self.history))
                .flatten(),
            problems: std::mem::take(&mut self.problems),
            export,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn classify(fen: &str) -> Option<Termination> {
        let pos = Position::from_fen(fen).unwrap();
        Termination::classify(&pos, &Repetitions::new(&pos))
    }

    #[test]
    fn classifies_in_order() {
        let mate = "R5k1/5ppp/8/8/8/8/8/6K1 b - - 0 1";
        assert_eq!(classify(mate), Some(Termination::Checkmate));
        assert_eq!(classify("7k/5Q2/6K1/8/8/8/8/8 b - - 0 1"), Some(Termination::Stalemate));
        assert_eq!(
            classify("7k/8/8/8/8/8/8/K7 w - - 200 1"),
            Some(Termination::InsufficientMaterial)
        );
        assert_eq!(
            classify("7k/8/8/8/8/8/8/KR6 w - - 150 90"),
            Some(Termination::SeventyFiveMoves)
        );
        assert_eq!(classify("7k/8/8/8/8/8/8/KR6 w - - 100 90"), Some(Termination::FiftyMoves));
        assert_eq!(classify("7k/8/8/8/8/8/8/KR6 w - - 99 90"), None);
        let pos = Position::from_fen("7k/8/8/8/8/8/8/KR6 w - - 10 20").unwrap();
        let mut history = Repetitions::new(&pos);
        history.push(&pos);
        history.push(&pos);
        assert_eq!(Termination::classify(&pos, &history), Some(Termination::ThreefoldRepetition));
        history.push(&pos);
        history.push(&pos);
        assert_eq!(Termination::classify(&pos, &history), Some(Termination::FivefoldRepetition));
    }
}
