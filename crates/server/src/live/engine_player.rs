//! The built-in engine as a player: it thinks on a blocking thread (a search is CPU work, not
//! async work) and sends its move back to the game's actor like any other message.

use std::time::{Duration, Instant};

use rookery_arbiter::time_control::Bonus;
use rookery_arbiter::Game;
use rookery_core::Color;
use rookery_engine::{Engine, Level, Limits, Options, Signals, TimeLeft};

use super::{Command, GameHandle};

/// The engine's hash table per game: small, since a server runs many engine games.
const HASH_MB: usize = 4;
/// Untimed games and long controls still get a prompt answer.
const MAX_THINK: Duration = Duration::from_secs(10);

/// The engine's side of one game.
pub struct EngineSeat {
    /// Its colour.
    pub color: Color,
    /// Its level, 1 to 8.
    pub level: u8,
    /// The engine, while it is not thinking (created on the first move).
    pub engine: Option<Box<Engine>>,
    /// A search is running.
    pub thinking: bool,
}

impl EngineSeat {
    /// The engine at `level` playing `color`.
    pub fn new(color: Color, level: u8) -> EngineSeat {
        EngineSeat { color, level: level.clamp(1, 8), engine: None, thinking: false }
    }

    /// Starts a search of the game's position at game time `now`; the move comes back to
    /// `handle` as [`Command::EngineMove`].
    pub fn think(&mut self, game: &Game, now: u64, handle: GameHandle) {
        let mut engine = match self.engine.take() {
            Some(engine) => engine,
            None => {
                let options = Options {
                    hash_mb: HASH_MB,
                    level: Level::new(self.level),
                    seed: seed(),
                    ..Options::default()
                };
                match Engine::with_options(options) {
                    Ok(engine) => Box::new(engine),
                    Err(e) => {
                        tracing::error!(error = %e, "cannot create the engine");
                        return;
                    }
                }
            }
        };
        self.thinking = true;
        let pos = *game.position();
        let mut history = Vec::with_capacity(game.plies().len() + 1);
        let mut p = *game.start_position();
        for ply in game.plies() {
            history.push(p.repetition_key());
            p.play_unchecked(ply.m);
        }
        let clock = game.clock();
        let limits = match clock.remaining(self.color, now) {
            Some(remaining) => {
                let increment = match clock.time_control().periods().first().map(|p| p.bonus) {
                    Some(Bonus::Increment(ms) | Bonus::Bronstein(ms) | Bonus::SimpleDelay(ms)) => {
                        ms
                    }
                    _ => 0,
                };
                let mut limits = Limits::clock(TimeLeft {
                    remaining: Duration::from_millis(remaining),
                    increment: Duration::from_millis(increment),
                    moves_to_go: clock.moves_to_control(self.color),
                });
                limits.movetime = Some(MAX_THINK);
                limits
            }
            None => Limits::movetime(Duration::from_secs(2)),
        };
        let key = pos.zobrist();
        tokio::task::spawn_blocking(move || {
            let started = Instant::now();
            let outcome =
                engine.search(&pos, &history, &limits, &Signals::new(), &started, &mut ());
            let _ = handle.tx.blocking_send(Command::EngineMove { key, mv: outcome.best, engine });
        });
    }
}

fn seed() -> u64 {
    let mut buf = [0u8; 8];
    let _ = getrandom::fill(&mut buf);
    u64::from_le_bytes(buf)
}
