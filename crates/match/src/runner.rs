//! A match: two engines, a number of games, each opening played twice with colours swapped,
//! several games at once on worker threads, statistics after every game and an optional SPRT
//! that stops the match early.

use core::fmt;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

use rookery_arbiter::{GameResult, Outcome};
use rookery_core::{ByColor, Color};

use crate::engine::{EngineError, EngineProcess};
use crate::game::{self, GameSettings, Seat};
use crate::opening::Opening;
use crate::spec::EngineSpec;
use crate::sprt::{Sprt, SprtDecision};
use crate::stats::{Failures, Wdl};
use crate::Timer;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// The two engines; results are given from the first one's side.
    pub engines: [EngineSpec; 2],
    /// Games to play (at most; an SPRT may stop the match earlier).
    pub games: usize,
    /// Games played at the same time.
    pub concurrency: usize,
    /// The openings, used in order, each twice (colours swapped), from the first again when
    /// the list runs out; empty: the standard start. An opening from a Chess960 position
    /// (RULES.md §13; see [`Opening::chess960`]) makes its games Chess960 games: then both
    /// engines are started with `UCI_Chess960` on, and those games' PGN says
    /// `[Variant "Chess960"]`.
    pub openings: Vec<Opening>,
    /// How each game is played.
    pub settings: GameSettings,
    /// Stop when this test decides.
    pub sprt: Option<Sprt>,
    /// The PGN `Event` tag.
    pub event: String,
    /// The PGN `Site` tag.
    pub site: String,
    /// The PGN `Date` tag (`YYYY.MM.DD`).
    pub date: String,
    /// How long an engine may take to start (`uci` to `readyok`), in ms.
    pub start_timeout_ms: u64,
}

/// One finished game, as the match reports it.
#[derive(Clone, Debug)]
pub struct Finished {
    /// The game's number, from 1 (its PGN `Round`).
    pub number: usize,
    /// Which engine (0 or 1) had White.
    pub white: usize,
    /// The result and why.
    pub outcome: Outcome,
    /// Ended by resign or draw adjudication.
    pub adjudicated: bool,
    /// Plies played.
    pub plies: usize,
    /// The game in PGN.
    pub pgn: String,
}

/// The standings of a match.
#[derive(Clone, Debug, PartialEq)]
pub struct MatchReport {
    /// The engines' names, as in the PGN.
    pub names: [String; 2],
    /// The first engine's wins, draws and losses.
    pub wdl: Wdl,
    /// What went wrong, per engine.
    pub failures: [Failures; 2],
    /// Games ended by adjudication.
    pub adjudicated: u64,
    /// Games won by White, drawn, won by Black.
    pub by_colour: Wdl,
    /// The SPRT, if one runs.
    pub sprt: Option<SprtState>,
    /// Games that were to be played.
    pub planned: usize,
}

/// Where a match's SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtState {
    /// The test.
    pub test: Sprt,
    /// The log-likelihood ratio after the last game counted.
    pub llr: f64,
    /// The decision; once reached it stands, and no later game is counted towards it.
    pub decision: SprtDecision,
    /// The games counted: those before the decision.
    pub games: u64,
}

impl SprtState {
    /// Counts the standings `wdl`, unless the test has decided already.
    fn update(&mut self, wdl: &Wdl) {
        if self.decision == SprtDecision::Continue {
            self.llr = self.test.llr(wdl);
            self.decision = self.test.decide(wdl);
            self.games = wdl.games();
        }
    }
}

/// Why a match could not run.
#[derive(Debug)]
pub enum MatchError {
    /// Engine 1 or 2 (by its spec) could not be started.
    Engine {
        /// The spec as given.
        spec: String,
        /// Why.
        error: EngineError,
    },
    /// An opening cannot start a game.
    Opening {
        /// Its number, from 1.
        number: usize,
        /// Why.
        error: rookery_arbiter::GameSpecError,
    },
    /// The game callback failed (writing the PGN, say).
    Io(std::io::Error),
}

impl fmt::Display for MatchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MatchError::Engine { spec, error } => write!(f, "engine {spec:?}: {error}"),
            MatchError::Opening { number, error } => write!(f, "opening {number}: {error}"),
            MatchError::Io(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MatchError {}

/// The engines as they are started: with `UCI_Chess960` set last (so that it wins) when any
/// game is a Chess960 game. An engine without the option fails to start, naming it.
fn engine_specs(config: &MatchConfig, openings: &[Opening]) -> [EngineSpec; 2] {
    let mut engines = config.engines.clone();
    if openings.iter().any(|o| o.start.is_chess960()) {
        for spec in &mut engines {
            spec.options.push((CHESS960_OPTION.to_owned(), Some("true".to_owned())));
        }
    }
    engines
}

/// The UCI option that switches an engine to Chess960.
const CHESS960_OPTION: &str = "UCI_Chess960";

/// The engines' names: the spec's, else the engine's `id name`, else the program's file
/// name; the second gets ` (2)` appended when both would be the same.
fn names(
    config: &MatchConfig,
    engines: &[EngineSpec; 2],
    timer: &(dyn Timer + Sync),
) -> Result<[String; 2], MatchError> {
    let mut names = [String::new(), String::new()];
    for (k, spec) in engines.iter().enumerate() {
        // Each engine is started once up front, so that a bad command or option fails the
        // match at once, with its reason, rather than losing every game.
        let engine = EngineProcess::start(spec, timer, config.start_timeout_ms)
            .map_err(|error| MatchError::Engine { spec: spec.to_string(), error })?;
        names[k] = match (&spec.name, engine.id_name()) {
            (Some(name), _) => name.clone(),
            (None, Some(id)) if !id.trim().is_empty() => id.trim().to_owned(),
            _ => std::path::Path::new(&spec.command)
                .file_name()
                .map_or_else(|| spec.command.clone(), |n| n.to_string_lossy().into_owned()),
        };
        engine.quit();
    }
    if names[0] == names[1] {
        names[1].push_str(" (2)");
    }
    Ok(names)
}

/// Runs the match, calling `on_game` after each game (in the order games finish) with the
/// game and the standings; an error from `on_game` stops the match.
///
/// # Errors
/// [`MatchError`]: an engine cannot be started at all, an opening is unusable, or `on_game`
/// failed.
pub fn run(
    config: &MatchConfig,
    timer: &(dyn Timer + Sync),
    mut on_game: impl FnMut(&Finished, &MatchReport) -> std::io::Result<()>,
) -> Result<MatchReport, MatchError> {
    let standard = [Opening::standard()];
    let openings: &[Opening] =
        if config.openings.is_empty() { &standard } else { &config.openings };
    let engines = engine_specs(config, openings);
    let names = names(config, &engines, timer)?;
    let mut report = MatchReport {
        names: names.clone(),
        wdl: Wdl::default(),
        failures: [Failures::default(); 2],
        adjudicated: 0,
        by_colour: Wdl::default(),
        sprt: config.sprt.map(|test| SprtState {
            test,
            llr: 0.0,
            decision: SprtDecision::Continue,
            games: 0,
        }),
        planned: config.games,
    };
    let next = AtomicUsize::new(0);
    let stop = AtomicBool::new(false);
    let (tx, rx) = mpsc::channel();
    let mut failure = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.clamp(1, config.games.max(1)) {
            let tx = tx.clone();
            let (next, stop, names) = (&next, &stop, &names);
            scope.spawn(move || worker(config, openings, names, timer, next, stop, &tx));
        }
        drop(tx);
        for message in rx {
            let (finished, failures) = match message {
                Ok(done) => done,
                Err(error) => {
                    stop.store(true, Ordering::Relaxed);
                    failure.get_or_insert(error);
                    continue;
                }
            };
            report.record(&finished, &failures);
            if let Some(sprt) = &mut report.sprt {
                // Games already under way when the test decides still finish and count in
                // the standings, but not in the test.
                sprt.update(&report.wdl);
                if sprt.decision != SprtDecision::Continue {
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Err(e) = on_game(&finished, &report) {
                stop.store(true, Ordering::Relaxed);
                failure.get_or_insert(MatchError::Io(e));
            }
        }
    });
    match failure {
        Some(error) => Err(error),
        None => Ok(report),
    }
}

type WorkerMessage = Result<(Finished, [Failures; 2]), MatchError>;

/// Takes games off the shared counter until none are left or the match stops. Each worker
/// owns its own two engine processes and restarts one that crashed or hung.
fn worker(
    config: &MatchConfig,
    openings: &[Opening],
    names: &[String; 2],
    timer: &(dyn Timer + Sync),
    next: &AtomicUsize,
    stop: &AtomicBool,
    tx: &mpsc::Sender<WorkerMessage>,
) {
    let engines = engine_specs(config, openings);
    let mut processes: [Option<EngineProcess>; 2] = [None, None];
    while !stop.load(Ordering::Relaxed) {
        let index = next.fetch_add(1, Ordering::Relaxed);
        if index >= config.games {
            break;
        }
        for (process, spec) in processes.iter_mut().zip(&engines) {
            if process.is_none() {
                // A failure leaves the seat empty: the game is lost as a crash.
                *process = EngineProcess::start(spec, timer, config.start_timeout_ms).ok();
            }
        }
        let white = index % 2;
        let opening_number = (index / 2) % openings.len();
        let [first, second] = &mut processes;
        let (white_process, black_process) =
            if white == 0 { (first, second) } else { (second, first) };
        let seats = ByColor {
            white: Seat { name: &names[white], process: white_process },
            black: Seat { name: &names[1 - white], process: black_process },
        };
        let opening = &openings[opening_number];
        let mut tags = vec![
            ("Event".to_owned(), config.event.clone()),
            ("Site".to_owned(), config.site.clone()),
            ("Date".to_owned(), config.date.clone()),
            ("Round".to_owned(), (index + 1).to_string()),
        ];
        if opening.start.is_chess960() {
            // The game's own start is in its `[SetUp]` and `[FEN]`, which the arbiter writes.
            tags.push(("Variant".to_owned(), "Chess960".to_owned()));
        }
        let played = match game::play(seats, opening, &config.settings, tags, timer) {
            Ok(played) => played,
            Err(error) => {
                let _ = tx.send(Err(MatchError::Opening { number: opening_number + 1, error }));
                break;
            }
        };
        let outcome = played.game.outcome().expect("a played game is over");
        let mut failures = [Failures::default(); 2];
        failures[white] = played.failures.white;
        failures[1 - white] = played.failures.black;
        let finished = Finished {
            number: index + 1,
            white,
            outcome,
            adjudicated: played.adjudicated,
            plies: played.game.plies().len(),
            pgn: played.game.to_pgn(),
        };
        if tx.send(Ok((finished, failures))).is_err() {
            break;
        }
    }
    for process in processes.into_iter().flatten() {
        process.quit();
    }
}

impl MatchReport {
    /// Adds one game.
    fn record(&mut self, game: &Finished, failures: &[Failures; 2]) {
        let first_colour = if game.white == 0 { Color::White } else { Color::Black };
        match game.outcome.result {
            GameResult::Win(winner) => {
                if winner == first_colour {
                    self.wdl.wins += 1;
                } else {
                    self.wdl.losses += 1;
                }
                if winner == Color::White {
                    self.by_colour.wins += 1;
                } else {
                    self.by_colour.losses += 1;
                }
            }
            GameResult::Draw | GameResult::NoResult => {
                self.wdl.draws += 1;
                self.by_colour.draws += 1;
            }
        }
        self.adjudicated += u64::from(game.adjudicated);
        for (total, game) in self.failures.iter_mut().zip(failures) {
            *total += *game;
        }
    }

    /// One line of progress: `rookery vs stockfish: 3 - 1 - 2 [0.667] 6/100`.
    pub fn progress(&self) -> String {
        let w = &self.wdl;
        let score = w.score().map_or_else(|| "-".to_owned(), |s| format!("{s:.3}"));
        format!(
            "{} vs {}: {} - {} - {} [{score}] {}/{}",
            self.names[0],
            self.names[1],
            w.wins,
            w.losses,
            w.draws,
            w.games(),
            self.planned
        )
    }
}

impl fmt::Display for MatchReport {
    /// The final table, as cutechess-cli words it, and the failure counts per engine.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let w = &self.wdl;
        let score = w.score().unwrap_or(0.5);
        writeln!(
            f,
            "Score of {} vs {}: {} - {} - {}  [{score:.3}] {}",
            self.names[0],
            self.names[1],
            w.wins,
            w.losses,
            w.draws,
            w.games()
        )?;
        writeln!(
            f,
            "White wins {}, draws {}, Black wins {}; adjudicated {}",
            self.by_colour.wins, self.by_colour.draws, self.by_colour.losses, self.adjudicated
        )?;
        if let Some(elo) = w.elo() {
            writeln!(
                f,
                "Elo difference: {elo} (95%), LOS: {:.1} %, DrawRatio: {:.1} %",
                w.los() * 100.0,
                w.draw_ratio().unwrap_or(0.0) * 100.0
            )?;
        }
        if let Some(state) = &self.sprt {
            let verdict = match state.decision {
                SprtDecision::H0 => "H0 accepted",
                SprtDecision::H1 => "H1 accepted",
                SprtDecision::Continue => "no decision",
            };
            let test = &state.test;
            writeln!(
                f,
                "SPRT: llr {:.2} ({:.1}%), lbound {:.2}, ubound {:.2}, elo0 {}, elo1 {} - {verdict} after {} games",
                state.llr,
                state.llr / test.upper_bound() * 100.0,
                test.lower_bound(),
                test.upper_bound(),
                test.elo0,
                test.elo1,
                state.games,
            )?;
        }
        let width = self.names.iter().map(|n| n.len()).max().unwrap_or(0).max(6);
        writeln!(
            f,
            "{:<width$}  {:>11}  {:>7}  {:>6}  {:>13}",
            "engine", "time losses", "crashes", "stalls", "illegal moves"
        )?;
        for (name, fails) in self.names.iter().zip(&self.failures) {
            writeln!(
                f,
                "{name:<width$}  {:>11}  {:>7}  {:>6}  {:>13}",
                fails.time_losses, fails.crashes, fails.stalls, fails.illegal_moves
            )?;
        }
        Ok(())
    }
}

/// The PGN date (`YYYY.MM.DD`, UTC) of a moment, for the `Date` tag.
pub fn pgn_date(at: std::time::SystemTime) -> String {
    rookery_pgn::date::UtcDateTime::from_system_time(at).pgn_date()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates() {
        let at = std::time::UNIX_EPOCH + std::time::Duration::from_secs(1_700_000_000);
        assert_eq!(pgn_date(at), "2023.11.14");
    }

    /// A game that was under way when the test decided must not undo the decision (it did:
    /// 45-11-30 crossed the bound at game 85, then a loss at game 86 printed "no decision").
    #[test]
    fn an_sprt_decision_stands() {
        let test = Sprt::parse("0,15").unwrap();
        let mut state = SprtState { test, llr: 0.0, decision: SprtDecision::Continue, games: 0 };
        state.update(&Wdl::new(45, 30, 10));
        assert_eq!(state.decision, SprtDecision::H1, "llr {}", state.llr);
        let (llr, games) = (state.llr, state.games);
        assert!(test.decide(&Wdl::new(45, 30, 11)) == SprtDecision::Continue);
        state.update(&Wdl::new(45, 30, 11));
        assert_eq!((state.decision, state.llr, state.games), (SprtDecision::H1, llr, games));
        assert_eq!(games, 85);
    }
}
