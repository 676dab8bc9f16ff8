//! Self-play games for tuning data: the engine against itself at a fixed number of nodes a
//! move, from a set of openings and a few random plies more, ended by the rules (mate,
//! stalemate, threefold repetition, fifty moves, insufficient material) or adjudicated once
//! both sides' searches agree that the game is decided.
//!
//! Games at a fixed node count are reproducible: game `n` of a run depends only on the
//! settings, the openings and the seed, never on the machine's load or the thread that
//! played it. Their positions are labelled the way this engine plays them, which is what
//! Texel's method needs and master games (decided by sacrifices the evaluation cannot see)
//! do not give.

use std::io::{self, Write};
use std::time::Instant;

use rookery_core::{Color, Move, Position, SanPlus};
use rookery_engine::{Engine, Limits, Options, Score, Signals};
use rookery_pgn::{GameResult, Writer};

use crate::data::splitmix;

/// How the games are played and when they are adjudicated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Nodes searched for each move.
    pub nodes: u64,
    /// Random legal moves played after the opening, to vary the games.
    pub random_plies: u32,
    /// After the random plies, a start is kept only if a search of `nodes` nodes scores it
    /// within this many centipawns of equality (else other random plies are tried).
    pub balance_cp: i32,
    /// Transposition table size of each engine, in megabytes.
    pub hash_mb: usize,
    /// A side has lost once its score was at most `-resign_cp`, and its opponent's at least
    /// `resign_cp`, for `resign_moves` consecutive moves of each.
    pub resign_moves: u32,
    /// See `resign_moves`.
    pub resign_cp: i32,
    /// From this ply of the game on, a game is drawn once both scores lay within
    /// `draw_cp` of zero for `draw_moves` consecutive moves of each.
    pub draw_from_ply: u32,
    /// See `draw_from_ply`.
    pub draw_moves: u32,
    /// See `draw_from_ply`.
    pub draw_cp: i32,
    /// A game still going after this many plies is drawn.
    pub max_plies: u32,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nodes: 5000,
            random_plies: 4,
            balance_cp: 150,
            hash_mb: 8,
            resign_moves: 3,
            resign_cp: 1000,
            draw_from_ply: 80,
            draw_moves: 8,
            draw_cp: 10,
            max_plies: 400,
        }
    }
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Termination {
    /// Checkmate.
    Checkmate,
    /// Stalemate.
    Stalemate,
    /// The same position for the third time.
    Repetition,
    /// Fifty moves of each side without a capture or a pawn move.
    FiftyMoves,
    /// Neither side can mate.
    InsufficientMaterial,
    /// Both searches agreed that one side has lost.
    ResignAdjudication,
    /// Both searches agreed that the game is level and quiet.
    DrawAdjudication,
    /// The game went on too long.
    MaxPlies,
}

impl Termination {
    /// A short description, for the PGN's `Termination` tag.
    pub fn describe(self) -> &'static str {
        match self {
            Termination::Checkmate => "checkmate",
            Termination::Stalemate => "stalemate",
            Termination::Repetition => "threefold repetition",
            Termination::FiftyMoves => "fifty-move rule",
            Termination::InsufficientMaterial => "insufficient material",
            Termination::ResignAdjudication => "adjudication: decided",
            Termination::DrawAdjudication => "adjudication: drawn",
            Termination::MaxPlies => "adjudication: too long",
        }
    }
}

/// A finished game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Game {
    /// The position the engine started from (after the opening and the random plies).
    pub start: Position,
    /// The moves played.
    pub moves: Vec<Move>,
    /// The result.
    pub result: GameResult,
    /// Why it ended.
    pub termination: Termination,
}

/// A score as a number to compare, from the side to move's view: mates beyond any
/// centipawn value.
fn centipawns(score: Score) -> i32 {
    match score {
        Score::Centipawns(cp) => cp,
        Score::Mate(n) if n > 0 => 100_000 - n,
        Score::Mate(n) => -100_000 - n,
    }
}

/// The game's start: `opening` with up to `settings.random_plies` random legal moves more,
/// tried with different moves until the engine finds the position balanced (at most 16
/// tries; the last one stands). The random moves come from `seed`.
fn start_position(
    engine: &mut Engine,
    opening: &Position,
    settings: &Settings,
    seed: u64,
) -> Position {
    if settings.random_plies == 0 {
        return *opening;
    }
    let mut pos = *opening;
    for attempt in 0..16u64 {
        pos = *opening;
        let mut state = splitmix(seed ^ attempt);
        for _ in 0..settings.random_plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            state = splitmix(state);
            pos.play_unchecked(moves[(state % moves.len() as u64) as usize]);
        }
        if pos.legal_moves().is_empty() {
            continue;
        }
        engine.clear();
        let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
        let outcome = engine.search(&pos, &[], &limits, &Signals::new(), &Instant::now(), &mut ());
        if outcome.score.is_some_and(|s| centipawns(s).abs() <= settings.balance_cp) {
            break;
        }
    }
    pos
}

/// Plays one game from `opening` (varied by `seed`) with `engine` on both sides.
pub fn play(engine: &mut Engine, opening: &Position, settings: &Settings, seed: u64) -> Game {
    let start = start_position(engine, opening, settings, seed);
    engine.clear();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let mut pos = start;
    let mut moves = Vec::new();
    // Repetition keys of the positions since the last irreversible move, this one last.
    let mut keys = vec![pos.repetition_key()];
    // White's view of each search's score, one per move played.
    let mut scores: Vec<i32> = Vec::new();
    let window = |n: u32| 2 * n as usize;
    let (result, termination) = loop {
        if let Some(outcome) = pos.outcome() {
            break match outcome {
                rookery_core::Outcome::Checkmate { winner: Color::White } => {
                    (GameResult::WhiteWins, Termination::Checkmate)
                }
                rookery_core::Outcome::Checkmate { winner: Color::Black } => {
                    (GameResult::BlackWins, Termination::Checkmate)
                }
                rookery_core::Outcome::Stalemate => (GameResult::Draw, Termination::Stalemate),
            };
        }
        if pos.is_insufficient_material() {
            break (GameResult::Draw, Termination::InsufficientMaterial);
        }
        if pos.halfmoves() >= 100 {
            break (GameResult::Draw, Termination::FiftyMoves);
        }
        let current = pos.repetition_key();
        if keys.iter().filter(|&&k| k == current).count() >= 3 {
            break (GameResult::Draw, Termination::Repetition);
        }
        if moves.len() as u32 >= settings.max_plies {
            break (GameResult::Draw, Termination::MaxPlies);
        }

        let history = &keys[..keys.len() - 1];
        let outcome =
            engine.search(&pos, history, &limits, &Signals::new(), &Instant::now(), &mut ());
        let Some(m) = outcome.best else { unreachable!("a position with legal moves") };
        let score = outcome.score.map_or(0, centipawns);
        scores.push(if pos.turn() == Color::White { score } else { -score });

        let recent = |n: u32| scores.len() >= window(n) && n > 0;
        if recent(settings.resign_moves) {
            let last = &scores[scores.len() - window(settings.resign_moves)..];
            if last.iter().all(|&s| s >= settings.resign_cp) {
                moves.push(m);
                break (GameResult::WhiteWins, Termination::ResignAdjudication);
            }
            if last.iter().all(|&s| s <= -settings.resign_cp) {
                moves.push(m);
                break (GameResult::BlackWins, Termination::ResignAdjudication);
            }
        }
        if moves.len() as u32 + 1 >= settings.draw_from_ply && recent(settings.draw_moves) {
            let last = &scores[scores.len() - window(settings.draw_moves)..];
            if last.iter().all(|&s| s.abs() <= settings.draw_cp) {
                moves.push(m);
                break (GameResult::Draw, Termination::DrawAdjudication);
            }
        }

        let irreversible =
            pos.is_capture(m) || pos.board().role_at(m.from()) == Some(rookery_core::Role::Pawn);
        pos.play_unchecked(m);
        moves.push(m);
        if irreversible {
            keys.clear();
        }
        keys.push(pos.repetition_key());
    };
    Game { start, moves, result, termination }
}

/// A fresh engine for self-play: one thread, full strength.
///
/// # Errors
/// If the hash table cannot be had.
pub fn engine(settings: &Settings) -> Result<Engine, rookery_engine::HashSizeError> {
    Engine::with_options(Options { hash_mb: settings.hash_mb, ..Options::default() })
}

/// Writes `game` as PGN, numbered `round`, with a `[FEN]` tag for its start.
///
/// # Errors
/// Errors of `out`.
pub fn write_pgn(out: impl Write, game: &Game, round: u64, settings: &Settings) -> io::Result<()> {
    let mut w = Writer::new(out);
    let result = match game.result {
        GameResult::WhiteWins => "1-0",
        GameResult::BlackWins => "0-1",
        GameResult::Draw => "1/2-1/2",
        GameResult::Unknown => "*",
    };
    let player = format!("rookery {} nodes", settings.nodes);
    w.tags(&[
        ("Event", "rookery self-play"),
        ("Site", "rookery-selfplay"),
        ("Round", &round.to_string()),
        ("White", &player),
        ("Black", &player),
        ("Result", result),
        ("FEN", &game.start.to_string()),
        ("SetUp", "1"),
        ("Termination", game.termination.describe()),
    ])?;
    w.set_start(game.start.fullmoves(), game.start.turn());
    let mut pos = game.start;
    for &m in &game.moves {
        w.san(&SanPlus::from_move(&pos, m))?;
        pos.play_unchecked(m);
    }
    w.end_game(game.result)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn quick() -> Settings {
        Settings { nodes: 300, max_plies: 60, ..Settings::default() }
    }

    #[test]
    fn games_are_legal_reproducible_and_read_back() {
        let settings = quick();
        let mut engine = engine(&settings).unwrap();
        let a = play(&mut engine, &Position::new(), &settings, 7);
        let b = play(&mut engine, &Position::new(), &settings, 7);
        assert_eq!(a, b, "a fixed node count and seed make the same game");
        assert_ne!(a.start, Position::new(), "random plies vary the start");

        let mut pos = a.start;
        for &m in &a.moves {
            assert!(pos.is_legal(m));
            pos.play_unchecked(m);
        }
        let mut text = Vec::new();
        write_pgn(&mut text, &a, 1, &settings).unwrap();
        let (positions, stats) = crate::sample(
            &text,
            &crate::Sampling { skip_plies: 0, every: 1, seed: 1, max_games: None },
        )
        .unwrap();
        assert_eq!((stats.games, stats.used), (1, 1));
        assert!(!positions.is_empty());
    }

    #[test]
    fn a_mated_side_loses_and_a_stalemate_is_drawn() {
        let settings = Settings { random_plies: 0, ..quick() };
        let mut engine = engine(&settings).unwrap();
        // White mates at once: Ra8.
        let mate: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse().unwrap();
        let game = play(&mut engine, &mate, &settings, 1);
        assert_eq!(game.result, GameResult::WhiteWins);
        let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
        let game = play(&mut engine, &stalemate, &settings, 1);
        assert_eq!((game.result, game.termination), (GameResult::Draw, Termination::Stalemate));
        assert!(game.moves.is_empty());
    }
}
