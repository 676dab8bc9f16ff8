//! One UCI engine process, spoken to over its standard input and output.
//!
//! A reader thread turns the engine's output into lines on a channel; the owner of the
//! [`EngineProcess`] (one match worker) writes commands and waits on that channel with a
//! deadline, so an engine that hangs is noticed and one that dies shows as the channel closing.
//! Lines are parsed with `rookery-uci`'s [`Message`]; what does not parse is ignored, except a
//! `bestmove` line, which is handed on as text for the arbiter to refuse.

use core::fmt;
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command as Process, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::Duration;

use rookery_uci::{Command, Go, InfoField, Message, OptionDecl, ScoreBound, ScoreValue, UciMove};

use crate::spec::EngineSpec;
use crate::Timer;

/// Why an engine could not do what it was asked.
#[derive(Debug)]
pub enum EngineError {
    /// The program could not be started.
    Spawn {
        /// The program.
        command: String,
        /// Why.
        error: std::io::Error,
    },
    /// The process closed its output or input: it exited or crashed.
    Exited,
    /// No answer in time: the thing waited for (`uciok`, `readyok`, `bestmove`).
    Timeout(&'static str),
    /// An option to set is not among those the engine declared.
    UnknownOption {
        /// The option as given.
        name: String,
        /// The options the engine declared.
        declared: Vec<String>,
    },
}

impl fmt::Display for EngineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EngineError::Spawn { command, error } => write!(f, "cannot start {command:?}: {error}"),
            EngineError::Exited => f.write_str("the engine exited"),
            EngineError::Timeout(what) => write!(f, "no {what} from the engine in time"),
            EngineError::UnknownOption { name, declared } => {
                write!(f, "the engine has no option {name:?} (it has: {})", declared.join(", "))
            }
        }
    }
}

impl std::error::Error for EngineError {}

/// The engine's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move, or the `bestmove` line as sent when it does not parse.
    pub best: Result<UciMove, String>,
    /// When the `bestmove` line arrived, in the match's milliseconds.
    pub at_ms: u64,
    /// The last exact score of the first line the engine reported, from its own side.
    pub score: Option<ScoreValue>,
}

/// A running UCI engine after the `uci`/`uciok` handshake.
pub struct EngineProcess {
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
    id_name: Option<String>,
    options: Vec<OptionDecl>,
    /// The spec's node limit, sent with every `go`.
    nodes: Option<u64>,
}

impl fmt::Debug for EngineProcess {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("EngineProcess")
            .field("pid", &self.child.id())
            .field("id_name", &self.id_name)
            .finish_non_exhaustive()
    }
}

impl EngineProcess {
    /// Starts the engine, runs the handshake (`uci` … `uciok`), sets the spec's options and
    /// waits for `readyok`, all within `timeout_ms`.
    ///
    /// # Errors
    /// [`EngineError`]: the program does not start, does not answer in time, exits, or lacks
    /// an option the spec sets.
    pub fn start(
        spec: &EngineSpec,
        timer: &dyn Timer,
        timeout_ms: u64,
    ) -> Result<EngineProcess, EngineError> {
        let mut child = Process::new(&spec.command)
            .args(&spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|error| EngineError::Spawn { command: spec.command.clone(), error })?;
        let (stdin, stdout) = match (child.stdin.take(), child.stdout.take()) {
            (Some(stdin), Some(stdout)) => (stdin, stdout),
            _ => unreachable!("both pipes were asked for"),
        };
        let (tx, lines) = mpsc::channel();
        std::thread::Builder::new()
            .name(format!("uci-reader {}", child.id()))
            .spawn(move || {
                let mut stdout = BufReader::new(stdout);
                let mut buf = Vec::new();
                loop {
                    buf.clear();
                    match stdout.read_until(b'\n', &mut buf) {
                        Ok(0) | Err(_) => break,
                        Ok(_) => {
                            let line = String::from_utf8_lossy(&buf).trim().to_owned();
                            if tx.send(line).is_err() {
                                break;
                            }
                        }
                    }
                }
            })
            .map_err(|error| EngineError::Spawn { command: spec.command.clone(), error })?;
        let mut engine = EngineProcess {
            child,
            stdin,
            lines,
            id_name: None,
            options: Vec::new(),
            nodes: spec.nodes,
        };
        let deadline = timer.now_ms() + timeout_ms;
        engine.send(&Command::Uci)?;
        loop {
            match engine.line(deadline, timer, "uciok")?.parse::<Message>() {
                Ok(Message::UciOk) => break,
                Ok(Message::IdName(name)) => engine.id_name = Some(name),
                Ok(Message::Option(decl)) => engine.options.push(decl),
                _ => {}
            }
        }
        for (name, value) in &spec.options {
            let Some(decl) = engine.options.iter().find(|d| d.name.eq_ignore_ascii_case(name))
            else {
                return Err(EngineError::UnknownOption {
                    name: name.clone(),
                    declared: engine.options.iter().map(|d| d.name.clone()).collect(),
                });
            };
            let command = Command::SetOption { name: decl.name.clone(), value: value.clone() };
            engine.send(&command)?;
        }
        engine.ready(deadline, timer)?;
        Ok(engine)
    }

    /// The engine's `id name`, if it sent one.
    pub fn id_name(&self) -> Option<&str> {
        self.id_name.as_deref()
    }

    /// The options the engine declared.
    pub fn options(&self) -> &[OptionDecl] {
        &self.options
    }

    /// Tells the engine a new game starts (`ucinewgame`) and waits for `readyok`.
    ///
    /// # Errors
    /// [`EngineError::Exited`] or [`EngineError::Timeout`].
    pub fn new_game(&mut self, timer: &dyn Timer, timeout_ms: u64) -> Result<(), EngineError> {
        self.send(&Command::UciNewGame)?;
        self.ready(timer.now_ms() + timeout_ms, timer)
    }

    /// Sends the position and `go` (with the spec's node limit, if it has one), and waits until
    /// `deadline_ms` (match time) for `bestmove`, keeping the last exact score the engine
    /// reported for its first line.
    ///
    /// # Errors
    /// [`EngineError::Exited`], or [`EngineError::Timeout`] at the deadline.
    pub fn think(
        &mut self,
        position: &Command,
        go: &Go,
        deadline_ms: u64,
        timer: &dyn Timer,
    ) -> Result<Reply, EngineError> {
        self.send(position)?;
        self.send(&Command::Go(Go { nodes: self.nodes.or(go.nodes), ..go.clone() }))?;
        let mut score = None;
        loop {
            let line = self.line(deadline_ms, timer, "bestmove")?;
            match line.parse::<Message>() {
                Ok(Message::BestMove { best, .. }) => {
                    return Ok(Reply { best: Ok(best), at_ms: timer.now_ms(), score });
                }
                Ok(Message::Info(fields)) => {
                    if let Some(value) = first_line_score(&fields) {
                        score = Some(value);
                    }
                }
                _ if line.split_ascii_whitespace().next() == Some("bestmove") => {
                    return Ok(Reply { best: Err(line), at_ms: timer.now_ms(), score });
                }
                _ => {}
            }
        }
    }

    /// Asks the engine to quit, waits a little, and kills it if it is still running.
    pub fn quit(mut self) {
        let _ = self.send(&Command::Quit);
        for _ in 0..50 {
            if matches!(self.child.try_wait(), Ok(Some(_))) {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        // Drop kills it.
    }

    fn send(&mut self, command: &Command) -> Result<(), EngineError> {
        writeln!(self.stdin, "{command}")
            .and_then(|()| self.stdin.flush())
            .map_err(|_| EngineError::Exited)
    }

    /// `isready`, then lines until `readyok`.
    fn ready(&mut self, deadline: u64, timer: &dyn Timer) -> Result<(), EngineError> {
        self.send(&Command::IsReady)?;
        while self.line(deadline, timer, "readyok")? != "readyok" {}
        Ok(())
    }

    /// The next line, waiting until `deadline` (match time) at most.
    fn line(
        &mut self,
        deadline: u64,
        timer: &dyn Timer,
        waiting_for: &'static str,
    ) -> Result<String, EngineError> {
        let wait = deadline.saturating_sub(timer.now_ms());
        match self.lines.recv_timeout(Duration::from_millis(wait)) {
            Ok(line) => Ok(line),
            Err(RecvTimeoutError::Timeout) => Err(EngineError::Timeout(waiting_for)),
            Err(RecvTimeoutError::Disconnected) => Err(EngineError::Exited),
        }
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// The exact score of the first (or only) principal variation in an `info` line.
fn first_line_score(fields: &[InfoField]) -> Option<ScoreValue> {
    let mut score = None;
    for field in fields {
        match field {
            InfoField::MultiPv(n) if *n != 1 => return None,
            InfoField::Score(s)
                if !matches!(s.bound, Some(ScoreBound::Lower | ScoreBound::Upper)) =>
            {
                score = Some(s.value)
            }
            _ => {}
        }
    }
    score
}
