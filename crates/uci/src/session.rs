//! The UCI loop: reads commands, drives the engine, writes messages.
//!
//! The search runs on its own thread, which owns the engine while it searches, so that the
//! loop always reads and answers: `isready` is answered at once, whatever runs. A command that
//! needs the search out of the way (`go`, `position`, `ucinewgame`, `setoption`, `bench`,
//! `uci`) stops it first, as Stockfish does (issue 41): the stopped search answers with its
//! `bestmove` before the command acts, so every accepted `go` gets exactly one `bestmove`. A
//! line that cannot be used is answered with `info string ignored: <line>: <why>` and changes
//! nothing — a malformed `go` starts no search. A search that panics still answers with a
//! legal move.

use core::fmt;
use std::io::{self, BufRead, Write};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rookery_core::{perft, CastlingMode, Fen, Move, Position, PositionError};
use rookery_engine::bench::{bench, BENCH_DEPTH};
use rookery_engine::{BestMove, Bound, Engine, Handler, Limits, SearchInfo, Signals, TimeLeft};

use crate::settings::{self, OptionError, Settings};
use crate::{
    Command, Go, InfoField, Message, ParseError, ScoreBound, ScoreValue, StartPosition, UciMove,
    WdlModel,
};

/// The name the engine gives after `uci`.
pub const ENGINE_NAME: &str = concat!("Rookery ", env!("CARGO_PKG_VERSION"));
/// The author the engine gives after `uci`.
pub const ENGINE_AUTHOR: &str = "The Rookery developers";

/// Why a command was ignored.
#[derive(Debug)]
enum Rejection {
    Parse(ParseError),
    Illegal { m: UciMove, index: usize },
    Position(PositionError),
    Option(OptionError),
}

impl fmt::Display for Rejection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rejection::Parse(e) => e.fmt(f),
            Rejection::Illegal { m, index } => {
                write!(f, "illegal move {m} (move {})", index + 1)
            }
            Rejection::Position(e) => write!(f, "illegal position: {e}"),
            Rejection::Option(e) => e.fmt(f),
        }
    }
}

/// The output, shared with the search thread; every message is one flushed line.
struct Output<W>(Arc<Mutex<W>>);

impl<W> Clone for Output<W> {
    fn clone(&self) -> Output<W> {
        Output(Arc::clone(&self.0))
    }
}

impl<W: Write> Output<W> {
    fn line(&self, text: &dyn fmt::Display) -> io::Result<()> {
        // A thread that panicked while writing leaves a usable writer behind.
        let mut out = self.0.lock().unwrap_or_else(|e| e.into_inner());
        writeln!(out, "{text}")?;
        out.flush()
    }

    fn send(&self, message: &Message) -> io::Result<()> {
        self.line(message)
    }
}

/// Writes the search's reports as `info` and `bestmove` lines.
struct UciHandler<W> {
    out: Output<W>,
    answered: bool,
    /// `UCI_ShowWDL`: the model that turns scores into `wdl`.
    wdl: Option<WdlModel>,
}

impl<W: Write> Handler for UciHandler<W> {
    fn info(&mut self, info: &SearchInfo) {
        let mut message = info_message(info);
        if let (Some(model), Message::Info(fields)) = (self.wdl, &mut message) {
            let [win, draw, loss] = model.per_mille(ScoreValue::from(info.score));
            // After the score, where Stockfish writes it.
            let at =
                fields.iter().position(|f| matches!(f, InfoField::Score(_))).map_or(0, |i| i + 1);
            fields.insert(at, InfoField::Wdl { win, draw, loss });
        }
        let _ = self.out.send(&message);
    }

    fn best_move(&mut self, best: &BestMove) {
        self.answered = true;
        let _ = self.out.send(&best_move_message(best));
    }
}

/// The `info` line of a search report.
pub fn info_message(info: &SearchInfo) -> Message {
    let value = ScoreValue::from(info.score);
    let bound = match info.bound {
        Bound::Exact => None,
        Bound::Lower => Some(ScoreBound::Lower),
        Bound::Upper => Some(ScoreBound::Upper),
    };
    Message::Info(vec![
        InfoField::Depth(info.depth),
        InfoField::SelDepth(info.seldepth),
        InfoField::MultiPv(info.multipv),
        InfoField::Score(crate::Score { value, bound }),
        InfoField::Nodes(info.nodes),
        InfoField::Nps(info.nps),
        InfoField::HashFull(info.hashfull),
        InfoField::Time(info.time),
        InfoField::Pv(info.pv.iter().map(|&m| UciMove::from_move(m)).collect()),
    ])
}

/// The `bestmove` line of a search's answer (`bestmove 0000` without a legal move).
pub fn best_move_message(best: &BestMove) -> Message {
    Message::BestMove {
        best: best.best.map_or(UciMove::Null, UciMove::from_move),
        ponder: best.ponder.map(UciMove::from_move),
    }
}

/// A search running on its own thread.
struct Running {
    handle: JoinHandle<Engine>,
    signals: Arc<Signals>,
    /// `go infinite` or pondering: it will not end by itself.
    endless: bool,
    /// Limited by depth, nodes, time or a mate: it ends by itself once not pondering.
    bounded: bool,
}

/// How the loop ended.
enum Ended {
    Quit,
    Input,
}

/// The state of the loop.
struct Session<W> {
    out: Output<W>,
    /// The engine, when no search holds it.
    engine: Option<Engine>,
    search: Option<Running>,
    position: Position,
    /// Repetition keys of the positions before `position`.
    history: Vec<u64>,
    settings: Settings,
    /// The last FEN read as Chess960 while `UCI_Chess960` was off, once said so: a GUI
    /// sends its game's FEN again before every move, and one note is enough.
    noted: Option<Fen>,
}

/// Runs the UCI loop on `input` and `output` until `quit` or the end of the input, and
/// hands the output back. `quit` stops a running search; at the end of the input, a search
/// bounded by depth, nodes or time is let finish (an endless one is stopped).
///
/// # Errors
/// When reading the input or writing the output fails.
pub fn run<R: BufRead, W: Write + Send + 'static>(input: R, output: W) -> io::Result<W> {
    let out = Output(Arc::new(Mutex::new(output)));
    let mut session = Session {
        out: out.clone(),
        engine: Some(Engine::new()),
        search: None,
        position: Position::new(),
        history: Vec::new(),
        settings: Settings::default(),
        noted: None,
    };
    // `quit` stops a search; the end of the input lets a bounded one finish.
    let result = session.read_all(input);
    session.finish_search(!matches!(result, Ok(Ended::Input)));
    drop(session);
    result?;
    match Arc::try_unwrap(out.0) {
        Ok(mutex) => Ok(mutex.into_inner().unwrap_or_else(|e| e.into_inner())),
        Err(_) => Err(io::Error::other("the search thread outlived the loop")),
    }
}

impl<W: Write + Send + 'static> Session<W> {
    fn read_all<R: BufRead>(&mut self, input: R) -> io::Result<Ended> {
        for line in input.lines() {
            let line = line?;
            // The time a command arrives is when its clock starts.
            let received = Instant::now();
            if line.trim().is_empty() {
                continue;
            }
            match line.parse::<Command>() {
                Ok(Command::Quit) => return Ok(Ended::Quit),
                Ok(command) => self.handle(&line, command, received)?,
                Err(e) => self.ignore(&line, &Rejection::Parse(e))?,
            }
        }
        Ok(Ended::Input)
    }

    fn ignore(&self, line: &str, why: &Rejection) -> io::Result<()> {
        self.out.send(&Message::info_string(format!("ignored: {}: {why}", line.trim())))
    }

    fn handle(&mut self, line: &str, command: Command, received: Instant) -> io::Result<()> {
        match command {
            Command::Uci => {
                self.out.send(&Message::IdName(ENGINE_NAME.to_owned()))?;
                self.out.send(&Message::IdAuthor(ENGINE_AUTHOR.to_owned()))?;
                let settings = self.settings.clone();
                for decl in settings::declarations(self.engine(), &settings) {
                    self.out.send(&Message::Option(decl))?;
                }
                self.out.send(&Message::UciOk)
            }
            Command::Debug(_) | Command::Register(_) => Ok(()),
            Command::IsReady => self.out.send(&Message::ReadyOk),
            Command::SetOption { name, value } => {
                let mut settings = self.settings.clone();
                let engine = self.engine();
                match settings::apply(engine, &mut settings, &name, value.as_deref()) {
                    Ok(()) => {
                        // `UCI_Chess960` also rewrites the current position's castling, when
                        // its rights fit the new mode, so that a `go` without a new `position`
                        // answers in the notation just asked for.
                        if let Ok(pos) = self.position.with_castling_mode(settings.castling_mode())
                        {
                            self.position = pos;
                        }
                        self.settings = settings;
                        Ok(())
                    }
                    Err(e) => self.ignore(line, &Rejection::Option(e)),
                }
            }
            Command::UciNewGame => {
                self.engine().clear();
                Ok(())
            }
            Command::Position { start, moves } => {
                match replay(&start, &moves, self.settings.castling_mode()) {
                    Ok((position, history)) => {
                        self.finish_search(true);
                        self.position = position;
                        self.history = history;
                        self.note_chess960(&start, &position)
                    }
                    Err(why) => self.ignore(line, &why),
                }
            }
            Command::Go(go) => self.go(line, go, received),
            Command::Stop => {
                self.finish_search(true);
                Ok(())
            }
            Command::PonderHit => {
                if let Some(search) = &mut self.search {
                    search.signals.ponderhit();
                    search.endless = !search.bounded;
                }
                Ok(())
            }
            Command::Quit => Ok(()),
            Command::Bench { depth } => {
                self.finish_search(true);
                let report = bench(depth.unwrap_or(BENCH_DEPTH).clamp(1, 64), &received);
                for (i, (fen, nodes, best)) in report.positions.iter().enumerate() {
                    let best = best.map_or(UciMove::Null, UciMove::from_move);
                    let text = format!("position {}: {fen}: {nodes} nodes, {best}", i + 1);
                    self.out.send(&Message::info_string(text))?;
                }
                self.out.line(&"===========================")?;
                self.out.line(&format_args!("Total time (ms) : {}", report.time.as_millis()))?;
                self.out.line(&format_args!("Nodes searched  : {}", report.nodes))?;
                self.out.line(&format_args!("Nodes/second    : {}", report.nps()))
            }
        }
    }

    /// Says, once per FEN, that a FEN was read as Chess960 though `UCI_Chess960` is off.
    fn note_chess960(&mut self, start: &StartPosition, position: &Position) -> io::Result<()> {
        let StartPosition::Fen(fen) = start else { return Ok(()) };
        if self.settings.chess960 || !position.is_chess960() || self.noted.as_ref() == Some(fen) {
            return Ok(());
        }
        self.noted = Some(*fen);
        self.out.send(&Message::info_string(format!(
            "FEN {fen} has castling rights only Chess960 allows: read as Chess960, castling \
             written as the king taking its rook (set UCI_Chess960 to say so)"
        )))
    }

    /// The engine, once no search holds it: a running search is stopped.
    fn engine(&mut self) -> &mut Engine {
        self.finish_search(true);
        self.engine.get_or_insert_with(Engine::new)
    }

    /// Ends the running search, if any: stops it if `stop` or if it would never end, then
    /// waits for its `bestmove` and takes the engine back.
    fn finish_search(&mut self, stop: bool) {
        if let Some(search) = self.search.take() {
            if stop || search.endless {
                search.signals.stop();
            }
            // The search thread catches its panics, so joining fails only if writing its
            // fallback answer panicked too; start afresh then.
            self.engine = Some(search.handle.join().unwrap_or_default());
        }
    }

    fn go(&mut self, line: &str, go: Go, received: Instant) -> io::Result<()> {
        self.finish_search(true);
        if let Some(depth) = go.perft {
            return self.perft(depth);
        }
        let pos = self.position;
        let mut limits = Limits {
            depth: go.depth,
            nodes: go.nodes,
            movetime: go.movetime,
            mate: go.mate,
            infinite: go.infinite,
            ..Limits::default()
        };
        let (time, increment) = match pos.turn() {
            rookery_core::Color::White => (go.wtime, go.winc),
            rookery_core::Color::Black => (go.btime, go.binc),
        };
        if let Some(remaining) = time {
            limits.clock = Some(TimeLeft {
                remaining,
                increment: increment.unwrap_or(Duration::ZERO),
                moves_to_go: go.moves_to_go.filter(|&n| n > 0),
            });
        }
        for (index, &m) in go.search_moves.iter().enumerate() {
            match m.to_move(&pos) {
                Ok(m) => limits.search_moves.push(m),
                Err(_) => self.ignore(line, &Rejection::Illegal { m, index })?,
            }
        }
        // A bare `go` searches until stopped, like `go infinite`.
        let bounded = !go.infinite
            && (limits.depth.is_some()
                || limits.nodes.is_some()
                || limits.movetime.is_some()
                || limits.mate.is_some()
                || limits.clock.is_some());
        let bounded_now = bounded && !go.ponder;
        if pos.legal_moves().is_empty() {
            // What GUIs expect before `bestmove 0000`, as Stockfish writes it: the score of a
            // mated root is mate 0, of a stalemated one a draw.
            let value =
                if pos.is_check() { ScoreValue::Mate(0) } else { ScoreValue::Centipawns(0) };
            let score = crate::Score { value, bound: None };
            let mut fields = vec![InfoField::Depth(0), InfoField::Score(score)];
            if self.settings.show_wdl {
                // Stalemate is a draw, not the model's guess at an even score.
                let (win, draw, loss) = if pos.is_check() { (0, 0, 1000) } else { (0, 1000, 0) };
                fields.push(InfoField::Wdl { win, draw, loss });
            }
            self.out.send(&Message::Info(fields))?;
        }
        let signals = Arc::new(if go.ponder { Signals::pondering() } else { Signals::new() });
        let mut engine = self.engine.take().unwrap_or_default();
        let history = self.history.clone();
        let out = self.out.clone();
        let wdl = self.settings.show_wdl.then_some(WdlModel::CALIBRATED);
        let thread_signals = Arc::clone(&signals);
        let handle =
            std::thread::Builder::new().name("rookery-search".to_owned()).spawn(move || {
                let mut handler = UciHandler { out, answered: false, wdl };
                let searched = catch_unwind(AssertUnwindSafe(|| {
                    engine.search(&pos, &history, &limits, &thread_signals, &received, &mut handler)
                }));
                if searched.is_ok() {
                    return engine;
                }
                if !handler.answered {
                    // Any legal move beats no answer.
                    let best = pos.legal_moves().first().copied();
                    handler.best_move(&BestMove { best, ponder: None });
                }
                let _ = handler.out.send(&Message::info_string("the search failed; restarted"));
                let options = engine.options().clone();
                Engine::with_options(options).unwrap_or_default()
            })?;
        self.search = Some(Running { handle, signals, endless: !bounded_now, bounded });
        Ok(())
    }

    /// `go perft <depth>`, in Stockfish's format: each root move with its count, then the
    /// total.
    fn perft(&mut self, depth: u32) -> io::Result<()> {
        let depth = depth.min(20);
        if depth == 0 {
            return self.out.line(&"\nNodes searched: 1");
        }
        let mut total = 0;
        for (m, nodes) in perft::divide(&self.position, depth) {
            total += nodes;
            self.out.line(&format_args!("{m}: {nodes}"))?;
        }
        self.out.line(&format_args!("\nNodes searched: {total}"))
    }
}

/// The position after `moves` from `start` with castling in `mode`, and the repetition keys
/// of the positions before it.
///
/// A FEN whose castling rights fit only Chess960 (the king off the e-file, or a right's rook
/// off its corner, in X-FEN or Shredder-FEN) is read as Chess960 even in standard mode, as
/// Stockfish reads it: refusing it would leave the GUI without an engine for a game it has
/// already set up, and the moves read the same (castling is accepted in both notations).
/// Castling is then written as the king taking its rook, since the standard notation cannot
/// tell castling from a king's step there (`f1g1` with the king on f1).
fn replay(
    start: &StartPosition,
    moves: &[UciMove],
    mode: CastlingMode,
) -> Result<(Position, Vec<u64>), Rejection> {
    let mut pos = match start {
        StartPosition::Standard => Position::new()
            .with_castling_mode(mode)
            .expect("the standard start fits both castling modes"),
        StartPosition::Fen(fen) => match fen.into_position_in(mode) {
            Ok(pos) => pos,
            Err(error @ PositionError::InvalidCastlingRight(_)) if !mode.is_chess960() => fen
                .into_position_in(CastlingMode::Chess960)
                .map_err(|_| Rejection::Position(error))?,
            Err(error) => return Err(Rejection::Position(error)),
        },
    };
    let mut history = Vec::with_capacity(moves.len());
    for (index, &m) in moves.iter().enumerate() {
        let legal: Move = m.to_move(&pos).map_err(|_| Rejection::Illegal { m, index })?;
        history.push(pos.repetition_key());
        pos.play_unchecked(legal);
    }
    Ok((pos, history))
}
