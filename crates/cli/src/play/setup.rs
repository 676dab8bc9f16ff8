//! From the command line to the first position: the mode, the rule set and clock, the start
//! (standard chess, a FEN, or a Chess960 start position, RULES.md §13), and the moves of a PGN
//! to continue. Every error names the offending argument (and for a PGN, the file, line and
//! column) and exits with status 2.

use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

use rookery_arbiter::{Game, GameSpec, MoveInput, StartPolicy};
use rookery_core::{chess960, CastlingMode, Color, SanPlus};
use rookery_engine::Level;
use rookery_pgn::date::UtcDateTime;
use rookery_pgn::main_line::MainLineErrorKind;
use rookery_pgn::{Location, MainLineReader, Reader};

use super::screen::{detect_look, Look};
use super::{Args, ColorChoice};
use crate::fen_arg::{castling_mode_of, fen_and_number, read_fen, start_position};
use crate::usage::UsageError;

/// Who plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// Two people at one keyboard: whoever is on move acts.
    HotSeat,
    /// A person against the engine.
    Engine {
        /// The person's colour.
        human: Color,
        /// The engine's level.
        level: Level,
    },
}

/// Everything a game needs to start, checked.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game to create (rules, clock, start position, names).
    pub spec: GameSpec,
    /// The Chess960 start position's number, when the game starts from one by `--960`.
    pub chess960: Option<u16>,
    /// Moves to replay before play starts (the main line of `--pgn`), with where they stand.
    pub moves: Vec<(SanPlus, Location)>,
    /// The PGN file the moves come from, for messages.
    pub pgn: Option<PathBuf>,
    /// Who plays.
    pub mode: Mode,
    /// How the board is drawn.
    pub look: Look,
    /// Black at the bottom.
    pub flipped: bool,
    /// Where Ctrl-S writes the PGN.
    pub save: PathBuf,
    /// Also write it when the game ends and on quitting (`--save`).
    pub auto_save: bool,
    /// Seeds the engine's choices.
    pub seed: u64,
}

impl Config {
    /// A hot-seat game from the standard start with these rules and clock, drawn in colour.
    #[cfg(test)]
    pub fn hot_seat(spec: GameSpec) -> Config {
        Config {
            spec,
            chess960: None,
            moves: Vec::new(),
            pgn: None,
            mode: Mode::HotSeat,
            look: Look::TrueColor,
            flipped: false,
            save: PathBuf::from("rookery-test.pgn"),
            auto_save: false,
            seed: 1,
        }
    }

    /// Creates the game at `now` and replays the moves to continue from.
    ///
    /// # Errors
    /// [`UsageError`] naming the bad `--fen`, or the PGN move that cannot be played.
    pub fn start_game(&self, now: u64) -> Result<Game, UsageError> {
        // The spec carries the castling mode: the arbiter reads the start, and judges and
        // records every move, in Chess960 when the game is one.
        let mut game = Game::new(self.spec.clone(), now).map_err(|e| match &self.pgn {
            Some(path) => UsageError(format!("{}: [FEN]: {e}", path.display())),
            None => UsageError(format!("bad --fen: {e}")),
        })?;
        for (san, at) in &self.moves {
            let turn = game.position().turn();
            let input = MoveInput::San(*san);
            if let Err(rejected) = game.play(turn, &input, false, now) {
                let file = self
                    .pgn
                    .as_deref()
                    .map_or_else(|| "PGN".to_owned(), |p| p.display().to_string());
                return Err(UsageError(format!("{file}: {at}: cannot play {san}: {rejected}")));
            }
        }
        // The replay took no time: its readings would be invented.
        game.forget_clock_readings();
        if game.is_over() {
            let file =
                self.pgn.as_deref().map_or_else(|| "PGN".to_owned(), |p| p.display().to_string());
            return Err(UsageError(format!("{file}: the game is already over")));
        }
        Ok(game)
    }
}

/// The wall clock, read once at start: it names the default save file and dates the game.
pub struct WallClock {
    /// Seconds since the Unix epoch.
    pub unix_secs: u64,
    /// Nanoseconds within the second, for a default seed.
    pub nanos: u32,
}

impl WallClock {
    /// Reads the system clock.
    pub fn now() -> WallClock {
        let since = SystemTime::now().duration_since(UNIX_EPOCH).unwrap_or_default();
        WallClock { unix_secs: since.as_secs(), nanos: since.subsec_nanos() }
    }

    /// The UTC date and time.
    fn civil(&self) -> UtcDateTime {
        UtcDateTime::from_unix_secs(self.unix_secs)
    }
}

/// Checks the arguments and builds the game's configuration, and checks that the game starts.
///
/// # Errors
/// [`UsageError`] naming the bad argument or PGN file.
pub fn config(args: Args, wall: &WallClock) -> Result<Config, UsageError> {
    let config = configure(args, wall)?;
    // Fail now, before the terminal changes, if the position or the PGN cannot be played.
    config.start_game(0)?;
    Ok(config)
}

/// Checks the arguments and builds the game's configuration, without starting the game.
///
/// # Errors
/// [`UsageError`] naming the bad argument or PGN file.
pub fn configure(args: Args, wall: &WallClock) -> Result<Config, UsageError> {
    let seed = args.seed.unwrap_or(u64::from(wall.nanos) ^ wall.unix_secs);
    let mode = match args.level {
        None => Mode::HotSeat,
        Some(n) => {
            let level = Level::new(n)
                .ok_or_else(|| UsageError(format!("bad --level {n}: expected 1 to 8")))?;
            let human = match args.color {
                ColorChoice::White => Color::White,
                ColorChoice::Black => Color::Black,
                ColorChoice::Random if seed.is_multiple_of(2) => Color::White,
                ColorChoice::Random => Color::Black,
            };
            Mode::Engine { human, level }
        }
    };
    let (white, black) = match mode {
        Mode::HotSeat => ("?".to_owned(), "?".to_owned()),
        Mode::Engine { human, level } => {
            let person = std::env::var("USER").unwrap_or_else(|_| "Player".to_owned());
            let engine = format!("Rookery level {}", level.get());
            match human {
                Color::White => (person, engine),
                Color::Black => (engine, person),
            }
        }
    };
    let now = wall.civil();
    let start = start_of(args.fen, args.chess960, seed)?;
    // RULES.md §9: outside a competition no clock runs before both sides have moved, and a
    // first move not made in time aborts the game, as on the site.
    let policy = args.tc.is_timed().then(|| StartPolicy::online(args.tc.speed()));
    let mut spec = GameSpec {
        fen: start.fen,
        castling_mode: start.castling_mode,
        rules: args.rules,
        time_control: Some(args.tc),
        white,
        black,
        tags: vec![
            ("Event".into(), "Rookery terminal game".into()),
            ("Site".into(), "rookery play".into()),
            ("Date".into(), now.pgn_date()),
            ("Round".into(), "-".into()),
        ],
        start: policy,
    };
    let mut moves = Vec::new();
    if let Some(path) = &args.pgn {
        let loaded = load_pgn(path)?;
        spec.fen = loaded.fen;
        spec.castling_mode = loaded.castling_mode;
        moves = loaded.moves;
        // The game goes on between the same players; the engine takes its side's name.
        let engine_side = match mode {
            Mode::HotSeat => None,
            Mode::Engine { human, .. } => Some(!human),
        };
        for (color, name) in [(Color::White, loaded.white), (Color::Black, loaded.black)] {
            let slot = if color == Color::White { &mut spec.white } else { &mut spec.black };
            if let Some(name) = name.filter(|_| engine_side != Some(color)) {
                *slot = name;
            }
        }
    }
    if spec.castling_mode.is_chess960() {
        // The saved PGN says it is Chess960, as every Chess960 game must (rookery_pgn::start);
        // the arbiter writes `[SetUp]` and `[FEN]` from `spec.fen`, which a Chess960 game has.
        spec.tags.push(("Variant".into(), "Chess960".into()));
    }
    if let Some(path) = &args.save {
        check_save_path(path)?;
    }
    let look = if args.ascii { Look::Ascii } else { detect_look() };
    let save = args.save.clone().unwrap_or_else(|| {
        let UtcDateTime { year, month, day, hour, minute, second } = now;
        PathBuf::from(format!(
            "rookery-{year:04}{month:02}{day:02}-{hour:02}{minute:02}{second:02}.pgn"
        ))
    });
    Ok(Config {
        spec,
        chess960: start.number,
        moves,
        pgn: args.pgn,
        mode,
        look,
        flipped: args.flip,
        save,
        auto_save: args.save.is_some(),
        seed,
    })
}

/// Where a game from the command line starts.
struct Start {
    /// The FEN the arbiter sets the game up from; `None` for the standard start.
    fen: Option<String>,
    castling_mode: CastlingMode,
    /// The Chess960 start position's number, for `--960`.
    number: Option<u16>,
}

/// The start that `--fen` and `--960 [N]` give (the same combinations as `perft` and `moves`
/// take, `crate::fen_arg`, but for a bare `--960`, which here draws a start position from
/// `seed`). A FEN is read as Chess960 when `--960` or its castling field says so.
///
/// # Errors
/// [`UsageError`] for a FEN that is no position of its variant, or both `--960 N` and `--fen`.
fn start_of(
    fen: Option<String>,
    chess960: Option<Option<u16>>,
    seed: u64,
) -> Result<Start, UsageError> {
    match (fen, chess960) {
        (None, None) => {
            Ok(Start { fen: None, castling_mode: CastlingMode::Standard, number: None })
        }
        (None, Some(n)) => {
            let n = n.unwrap_or_else(|| random_start(seed));
            let fen = start_position(n)?.to_fen();
            Ok(Start { fen: Some(fen), castling_mode: CastlingMode::Chess960, number: Some(n) })
        }
        (Some(_), Some(Some(n))) => Err(fen_and_number(n)),
        (Some(fen), asked) => {
            let castling_mode =
                if asked.is_some() { CastlingMode::Chess960 } else { castling_mode_of(&fen) };
            // The arbiter names a bad standard FEN itself; a Chess960 one is checked here.
            if castling_mode.is_chess960() {
                read_fen(&fen, Some(castling_mode))
                    .map_err(|e| UsageError(format!("bad --fen: {e}")))?;
            }
            Ok(Start { fen: Some(fen), castling_mode, number: None })
        }
    }
}

/// A Chess960 start position drawn from `seed`: SplitMix64's mixing of it (Steele, Lea and
/// Flood, 2014), as `--color random` already takes the seed's lowest bit.
pub(super) fn random_start(seed: u64) -> u16 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^= z >> 31;
    let n = z % u64::from(chess960::COUNT);
    u16::try_from(n).unwrap_or(chess960::STANDARD)
}

/// `--save FILE` is checked before the game, not at the first save (issue 41): a directory,
/// or a file in a directory that does not exist, is refused.
fn check_save_path(path: &Path) -> Result<(), UsageError> {
    let shown = path.display();
    if path.is_dir() {
        return Err(UsageError(format!("--save {shown}: is a directory, not a file")));
    }
    let parent = path.parent().filter(|p| !p.as_os_str().is_empty());
    if parent.is_some_and(|dir| !dir.is_dir()) {
        return Err(UsageError(format!("--save {shown}: no such directory")));
    }
    Ok(())
}

/// The first game of a PGN file: its start position, main-line moves and players.
struct LoadedGame {
    fen: Option<String>,
    castling_mode: CastlingMode,
    moves: Vec<(SanPlus, Location)>,
    white: Option<String>,
    black: Option<String>,
}

/// Plays the main line of the first game with rookery-pgn's one replay: the `[FEN]` tag is
/// honoured, variations are skipped, and the first illegal move is named by its place.
fn load_pgn(path: &Path) -> Result<LoadedGame, UsageError> {
    let file = std::fs::File::open(path)
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?;
    let mut reader = Reader::new(file);
    let line = reader
        .read_game(&mut MainLineReader::default())
        .map_err(|e| UsageError(format!("cannot read {}: {e}", path.display())))?
        .ok_or_else(|| UsageError(format!("{}: no game in the file", path.display())))?
        .map_err(|e| match &e.kind {
            MainLineErrorKind::Move { san, at, error, .. } => {
                UsageError(format!("{}: {at}: cannot play {san}: {error}", path.display()))
            }
            _ => UsageError(format!("{}: {e}", path.display())),
        })?;
    // A Chess960 game always has its `[FEN]` (rookery_pgn::start); the start is written back in
    // X-FEN, which the arbiter reads.
    let fen = line.tag("FEN").is_some().then(|| line.start.to_fen());
    let castling_mode = line.start.castling_mode();
    let name = |tag: &str| line.tag(tag).map(str::to_owned).filter(|n| !n.is_empty() && n != "?");
    let (white, black) = (name("White"), name("Black"));
    let moves = line.plies.into_iter().map(|p| (p.san, p.at)).collect();
    Ok(LoadedGame { fen, castling_mode, moves, white, black })
}
