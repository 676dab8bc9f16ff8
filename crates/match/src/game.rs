//! One game between two engines, run by the arbiter.
//!
//! The arbiter's [`Game`] keeps the clock and the rules: the clock starts when the game is
//! created, every `bestmove` is played at the millisecond it arrived, the flag check decides
//! time losses, and the game ends by the arbiter's rules (checkmate, stalemate, repetition,
//! fifty moves, dead position). Engines play under the `seed` rules with the strike limit at
//! one, without touch-move: an illegal move loses at once, as in every engine match. The
//! runner decides what the arbiter cannot see: an unreadable `bestmove` loses as an illegal
//! move; an engine that exits loses (`abandoned`) and one that stays silent past its flag and
//! the margin loses on the arbiter's flag; either is restarted before its next game.

use rookery_arbiter::{
    Game, GameResult, GameSpec, GameSpecError, IllegalMovePolicy, MoveInput, Outcome, RuleSet,
    Termination, TimeControl,
};
use rookery_core::{ByColor, Color};
use rookery_uci::{Command, Go, StartPosition, UciMove};

use crate::adjudication::{Adjudicator, DrawRule, ResignRule};
use crate::engine::{EngineError, EngineProcess};
use crate::opening::Opening;
use crate::stats::Failures;
use crate::Timer;

/// The rules engines play by: `seed` with the first illegal move losing and no touch-move.
pub const ENGINE_RULES: RuleSet = RuleSet {
    illegal_moves: IllegalMovePolicy::Strikes { limit: 1 },
    touch_move: false,
    ..RuleSet::SEED
};

/// How each game is played.
#[derive(Clone, Debug)]
pub struct GameSettings {
    /// The time control (timed: engines are told their clocks).
    pub time_control: TimeControl,
    /// How long past its flag an engine may stay silent before it counts as hung, in ms.
    pub margin_ms: u64,
    /// How long `isready` may take, in ms.
    pub ready_timeout_ms: u64,
    /// Resign adjudication, if any.
    pub resign: Option<ResignRule>,
    /// Draw adjudication, if any.
    pub draw: Option<DrawRule>,
}

/// One side of a game: an engine's name and its process, if it is running.
#[derive(Debug)]
pub struct Seat<'a> {
    /// The name for the PGN.
    pub name: &'a str,
    /// The process; `None` if it could not be (re)started, and set to `None` here when it
    /// crashes or hangs, for the caller to restart.
    pub process: &'a mut Option<EngineProcess>,
}

/// A finished game and what went wrong in it.
#[derive(Debug)]
pub struct Played {
    /// The game, over.
    pub game: Game,
    /// Per side: time losses, stalls, crashes and illegal moves in this game.
    pub failures: ByColor<Failures>,
    /// The game was ended by resign or draw adjudication.
    pub adjudicated: bool,
}

/// Plays one game from `opening` with `seats` (White's, Black's), PGN tags `tags`, reading time
/// from `timer`.
///
/// # Errors
/// [`GameSpecError`] if the opening cannot start a game.
pub fn play(
    seats: ByColor<Seat<'_>>,
    opening: &Opening,
    settings: &GameSettings,
    tags: Vec<(String, String)>,
    timer: &dyn Timer,
) -> Result<Played, GameSpecError> {
    let ByColor { white, black } = seats;
    let mut processes = ByColor { white: white.process, black: black.process };
    let start = opening.position();
    let standard = start == rookery_core::Position::new();
    let spec = GameSpec {
        fen: (!standard).then(|| start.to_fen()),
        castling_mode: start.castling_mode(),
        rules: ENGINE_RULES,
        time_control: Some(settings.time_control.clone()),
        white: white.name.to_owned(),
        black: black.name.to_owned(),
        tags,
        start: None,
    };
    let mut failures = ByColor::<Failures>::default();
    // Both engines are told first, so the clock does not run while they clear their tables.
    let mut not_ready = None;
    for color in [Color::White, Color::Black] {
        let ok = match processes[color].as_mut() {
            Some(p) => p.new_game(timer, settings.ready_timeout_ms).is_ok(),
            None => false,
        };
        if !ok && not_ready.is_none() {
            not_ready = Some(color);
        }
    }
    let mut game = Game::new(spec, timer.now_ms())?;
    if let Some(color) = not_ready {
        failures[color].crashes += 1;
        *processes[color] = None;
        game.adjudicate(GameResult::Win(!color), Termination::Abandoned, timer.now_ms());
        return Ok(Played { game, failures, adjudicated: false });
    }
    let start_position = match standard {
        true => StartPosition::Standard,
        false => StartPosition::Fen(rookery_core::Fen::from_position(&start)),
    };
    let mut adjudicator = Adjudicator::new(settings.resign, settings.draw);
    let mut adjudicated = false;
    let mut moves: Vec<UciMove> = Vec::new();
    while !game.is_over() {
        let side = game.position().turn();
        let now = timer.now_ms();
        let clock = game.clock();
        let increment = |color| clock_increment(&game, color);
        let go = Go {
            wtime: clock.remaining(Color::White, now).map(std::time::Duration::from_millis),
            btime: clock.remaining(Color::Black, now).map(std::time::Duration::from_millis),
            winc: increment(Color::White),
            binc: increment(Color::Black),
            moves_to_go: clock.moves_to_control(side),
            ..Go::default()
        };
        let deadline = clock.flag_deadline(side).unwrap_or(now) + settings.margin_ms;
        let position = Command::Position { start: start_position.clone(), moves: moves.clone() };
        let Some(process) = processes[side].as_mut() else { unreachable!("checked above") };
        let reply = match process.think(&position, &go, deadline, timer) {
            Ok(reply) => reply,
            Err(error) => {
                let now = timer.now_ms();
                *processes[side] = None;
                if matches!(error, EngineError::Timeout(_)) {
                    failures[side].stalls += 1;
                    game.poll(now);
                }
                if !game.is_over() {
                    // Exited, or (only with an untimed clock) silent: it abandoned the game.
                    failures[side].crashes += u64::from(!matches!(error, EngineError::Timeout(_)));
                    game.adjudicate(GameResult::Win(!side), Termination::Abandoned, now);
                }
                break;
            }
        };
        // An unreadable bestmove is no move: refused like one that is not a move at all, once
        // the clock has been read.
        let played = match reply.best {
            Ok(m) => game.play(side, &MoveInput::Uci(m), false, reply.at_ms).is_ok(),
            Err(_) => {
                game.poll(reply.at_ms);
                false
            }
        };
        if played {
            let m = game.plies().last().expect("a move was played").m;
            moves.push(UciMove::from_move(m));
        } else if !game.is_over() {
            // Unreadable, or not a move at all: no strike rule applies, so it loses here (a
            // refusal that ended the game was a fallen flag or the losing strike).
            game.adjudicate(GameResult::Win(!side), Termination::IllegalMoves, reply.at_ms);
        }
        if game.is_over() {
            break;
        }
        let fullmove = game.position().fullmoves();
        if let Some(verdict) = adjudicator.record(side, reply.score, fullmove) {
            let Outcome { result, termination } = verdict.outcome();
            game.adjudicate(result, termination, reply.at_ms);
            adjudicated = true;
        }
    }
    if let Some(outcome) = game.outcome() {
        let loser = match outcome.result {
            GameResult::Win(winner) => Some(!winner),
            _ => None,
        };
        match outcome.termination {
            Termination::Timeout => {
                if let Some(loser) = loser {
                    failures[loser].time_losses += 1;
                }
            }
            Termination::IllegalMoves => {
                if let Some(loser) = loser {
                    failures[loser].illegal_moves += 1;
                }
            }
            _ => {}
        }
        // A flag fall against a side that cannot be mated is a draw, but still a time loss.
        if outcome.termination == Termination::TimeoutVsInsufficientMaterial {
            let flagged = game.position().turn();
            failures[flagged].time_losses += 1;
        }
    }
    Ok(Played { game, failures, adjudicated })
}

/// The Fischer increment `color` earns with its current move, as UCI's `winc`/`binc`.
fn clock_increment(game: &Game, color: Color) -> Option<std::time::Duration> {
    use rookery_arbiter::time_control::Bonus;
    let periods = game.clock().time_control().periods();
    let period = game.clock().period(color) as usize;
    let period = periods.get(period).or(periods.last())?;
    match period.bonus {
        Bonus::Increment(ms) => Some(std::time::Duration::from_millis(ms)),
        _ => None,
    }
}
