//! Self-play games for tuning data: the engine against itself at a fixed number of nodes a
//! move, from a set of openings and a few random plies more. The arbiter runs each game, as
//! in `rookery match`: it ends it by the rules (mate, stalemate, repetition, fifty moves, a
//! dead position), or the match's adjudicator does once both sides' searches agree that the
//! game is decided.
//!
//! Games at a fixed node count are reproducible: game `n` of a run depends only on the
//! settings, the openings and the seed, never on the machine's load or the thread that
//! played it. Their positions are labelled the way this engine plays them, which is what
//! Texel's method needs and master games (decided by sacrifices the evaluation cannot see)
//! do not give.

use std::io::{self, Write};
use std::time::Instant;

use rookery_arbiter::{Game, GameSpec, GameSpecError, MoveInput};
use rookery_core::Position;
use rookery_engine::{Engine, Limits, Options, Score, Signals};
use rookery_match::adjudication::Adjudicator;
use rookery_match::{DrawRule, ResignRule, ENGINE_RULES};
use rookery_pgn::Writer;
use rookery_uci::ScoreValue;

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
    /// When a side has lost: both searches agree, move after move (as `rookery match
    /// --resign-adjudication`).
    pub resign: ResignRule,
    /// When a game is drawn: both searches find it level, move after move (as `rookery match
    /// --draw-adjudication`).
    pub draw: DrawRule,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            nodes: 5000,
            random_plies: 4,
            balance_cp: 150,
            hash_mb: 8,
            resign: ResignRule { moves: 3, cp: 1000 },
            draw: DrawRule { move_number: 41, moves: 8, cp: 10 },
        }
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
        if matches!(outcome.score, Some(Score::Centipawns(cp)) if cp.abs() <= settings.balance_cp) {
            break;
        }
    }
    pos
}

/// A self-play game and what the engine thought of it.
#[derive(Clone, Debug)]
pub struct Played {
    /// The game, as the arbiter recorded it.
    pub game: Game,
    /// For each ply, the score of the search that chose it, from the mover's side.
    pub scores: Vec<Option<Score>>,
}

impl Played {
    /// The game's quiet positions with the engine's verdict, for training an evaluation: each
    /// position before a ply whose mover was not in check, whose move was neither a capture
    /// nor a promotion, and whose search found no mate, with that search's score in
    /// centipawns from White's side. Mated, stalemated and drawn-by-rule final positions
    /// have no search, so they are not among them.
    pub fn quiet_positions(&self) -> Vec<(Position, i32)> {
        let mut pos = *self.game.start_position();
        let mut out = Vec::new();
        for (ply, score) in self.game.plies().iter().zip(&self.scores) {
            let quiet =
                !pos.is_check() && !pos.is_capture(ply.m) && ply.m.promotion_role().is_none();
            if let (true, Some(Score::Centipawns(cp))) = (quiet, score) {
                let white = if pos.turn() == rookery_core::Color::White { *cp } else { -cp };
                out.push((pos, white));
            }
            pos.play_unchecked(ply.m);
        }
        out
    }
}

/// Plays game number `round` from `opening` (varied by `seed`) with `engine` on both sides.
///
/// The arbiter runs the game, untimed, by the rules engine matches use
/// ([`ENGINE_RULES`]): it ends it by mate, stalemate, repetition, the fifty-move rule or a
/// dead position. The settings' resign and draw rules end it earlier, on both searches'
/// scores, as `rookery match` does.
///
/// # Errors
/// [`GameSpecError`] if the opening and the random plies leave no legal move.
pub fn play(
    engine: &mut Engine,
    opening: &Position,
    settings: &Settings,
    seed: u64,
    round: u64,
) -> Result<Played, GameSpecError> {
    let start = start_position(engine, opening, settings, seed);
    let player = format!("rookery {} nodes", settings.nodes);
    let spec = GameSpec {
        fen: Some(start.to_fen()),
        castling_mode: start.castling_mode(),
        rules: ENGINE_RULES,
        time_control: None,
        white: player.clone(),
        black: player,
        tags: vec![
            ("Event".into(), "rookery self-play".into()),
            ("Site".into(), "rookery-selfplay".into()),
            ("Round".into(), round.to_string()),
        ],
        start: None,
    };
    // Untimed: the clock never runs, so every action happens at 0 ms.
    let mut game = Game::new(spec, 0)?;
    engine.clear();
    let limits = Limits { nodes: Some(settings.nodes), ..Limits::default() };
    let mut adjudicator = Adjudicator::new(Some(settings.resign), Some(settings.draw));
    // The engine's repetition history: the positions since the last irreversible move.
    let mut keys = vec![start.repetition_key()];
    let mut scores = Vec::new();
    while !game.is_over() {
        let pos = *game.position();
        let side = pos.turn();
        let history = &keys[..keys.len() - 1];
        let outcome =
            engine.search(&pos, history, &limits, &Signals::new(), &Instant::now(), &mut ());
        let Some(m) = outcome.best else { unreachable!("a game not over has legal moves") };
        let played = game.play(side, &MoveInput::from(m), false, 0);
        assert!(played.is_ok(), "the engine's move {m:?} in {pos} is legal");
        scores.push(outcome.score);
        if game.is_over() {
            break;
        }
        if pos.is_capture(m) || pos.board().role_at(m.from()) == Some(rookery_core::Role::Pawn) {
            keys.clear();
        }
        keys.push(game.position().repetition_key());
        let score = outcome.score.map(ScoreValue::from);
        if let Some(verdict) = adjudicator.record(side, score, game.position().fullmoves()) {
            let outcome = verdict.outcome();
            game.adjudicate(outcome.result, outcome.termination, 0);
        }
    }
    Ok(Played { game, scores })
}

/// A fresh engine for self-play: one thread, full strength.
///
/// # Errors
/// If the hash table cannot be had.
pub fn engine(settings: &Settings) -> Result<Engine, rookery_engine::HashSizeError> {
    Engine::with_options(Options { hash_mb: settings.hash_mb, ..Options::default() })
}

/// Writes `game` as PGN (the arbiter's record: its start as a `[FEN]` tag, its result and
/// termination).
///
/// # Errors
/// Errors of `out`.
pub fn write_pgn(out: impl Write, game: &Game) -> io::Result<()> {
    game.write_pgn(&mut Writer::new(out))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rookery_arbiter::{GameResult, Termination};

    fn quick() -> Settings {
        Settings { nodes: 300, ..Settings::default() }
    }

    #[test]
    fn games_are_legal_reproducible_and_read_back() {
        let settings = quick();
        let mut engine = engine(&settings).unwrap();
        let played = play(&mut engine, &Position::new(), &settings, 7, 1).unwrap();
        let b = play(&mut engine, &Position::new(), &settings, 7, 1).unwrap().game;
        let a = &played.game;
        assert!(a.is_over());
        assert_eq!(a.to_pgn(), b.to_pgn(), "a fixed node count and seed make the same game");
        assert_ne!(*a.start_position(), Position::new(), "random plies vary the start");

        let mut text = Vec::new();
        write_pgn(&mut text, a).unwrap();
        let pgn = String::from_utf8(text.clone()).unwrap();
        assert!(pgn.contains("[Round \"1\"]") && pgn.contains("[FEN "), "{pgn}");
        let (positions, stats) = crate::sample(
            &text,
            &crate::Sampling { skip_plies: 0, every: 1, seed: 1, max_games: None },
        )
        .unwrap();
        assert_eq!((stats.games, stats.used), (1, 1));
        assert!(!positions.is_empty());

        assert_eq!(played.scores.len(), a.plies().len(), "one score a ply");
        let quiet = played.quiet_positions();
        assert!(!quiet.is_empty() && quiet.len() < a.plies().len(), "{}", quiet.len());
        for (pos, _) in &quiet {
            assert!(!pos.is_check(), "{pos}");
        }
    }

    #[test]
    fn games_end_by_the_rules_and_by_adjudication() {
        let settings = Settings { random_plies: 0, ..quick() };
        let mut engine = engine(&settings).unwrap();
        // White mates at once: Ra8.
        let mate: Position = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1".parse().unwrap();
        let game = play(&mut engine, &mate, &settings, 1, 1).unwrap().game;
        let outcome = game.outcome().unwrap();
        assert_eq!(
            (outcome.result, outcome.termination),
            (GameResult::Win(rookery_core::Color::White), Termination::Checkmate)
        );
        assert_eq!(game.plies().len(), 1);
        // A queen up: both searches agree for three moves each, and Black resigns.
        let won: Position = "4k3/8/8/8/8/8/3QP3/4K3 w - - 0 1".parse().unwrap();
        let game = play(&mut engine, &won, &settings, 1, 2).unwrap().game;
        let outcome = game.outcome().unwrap();
        assert_eq!(outcome.result, GameResult::Win(rookery_core::Color::White));
        assert!(
            matches!(outcome.termination, Termination::ResignAdjudication | Termination::Checkmate),
            "{outcome:?}"
        );
        // Neither side can mate: the arbiter calls the dead position after the first move.
        let dead: Position = "8/8/4k3/8/3n4/8/4K3/8 w - - 0 1".parse().unwrap();
        let game = play(&mut engine, &dead, &settings, 1, 3).unwrap().game;
        let outcome = game.outcome().unwrap();
        assert_eq!(
            (outcome.result, outcome.termination),
            (GameResult::Draw, Termination::DeadPosition)
        );
        // A start without a legal move is no game.
        let stalemate: Position = "7k/5Q2/6K1/8/8/8/8/8 b - - 0 1".parse().unwrap();
        assert!(matches!(
            play(&mut engine, &stalemate, &settings, 1, 4),
            Err(GameSpecError::AlreadyOver(_))
        ));
    }
}
