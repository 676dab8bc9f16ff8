//! One position at once, for the review board's engine line (`GET …/analysis?ply=N`): a
//! search with a fixed budget on a blocking thread, at most one per core.

use std::time::{Duration, Instant};

use rookery_core::{Color, Position};
use rookery_engine::{Engine, Limits, Options, Score, Signals};
use rookery_pgn::main_line::MainLine;
use serde::Serialize;
use tokio::sync::Semaphore;

/// The budget of one analysis.
const NODES: u64 = 1_500_000;
const TIME: Duration = Duration::from_secs(3);

/// The engine's view of one position, White's point of view, as the API shows it. Fields in
/// alphabetical order: the order the API has always written them in.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PositionAnalysis {
    /// The best move (UCI), `None` when there is no legal move.
    pub best: Option<String>,
    /// The depth searched.
    pub depth: u32,
    /// The position (FEN).
    pub fen: String,
    /// Mate in this many moves (negative: Black mates); `Some(0)`: the side to move is mated.
    pub mate: Option<i32>,
    /// Nodes searched.
    pub nodes: u64,
    /// The position's ply in the game.
    pub ply: usize,
    /// The principal variation (UCI).
    pub pv: Vec<String>,
    /// The score in centipawns, when not a mate.
    pub score_cp: Option<i32>,
}

/// Why a position could not be analysed.
#[derive(Debug, thiserror::Error)]
pub enum PositionError {
    /// The game has fewer moves than the ply asked for.
    #[error("0 to {plies}, not {ply}")]
    PlyOutOfRange {
        /// The ply asked for.
        ply: usize,
        /// The game's length.
        plies: usize,
    },
    /// The engine could not run.
    #[error("the engine: {0}")]
    Engine(String),
}

/// The searches of single positions: at most one per core at once.
pub struct Analysts(Semaphore);

impl Default for Analysts {
    fn default() -> Analysts {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Analysts(Semaphore::new(cores))
    }
}

impl Analysts {
    /// The position after `ply` moves of `line`, searched to the fixed budget.
    ///
    /// # Errors
    /// [`PositionError::PlyOutOfRange`] past the game's end; [`PositionError::Engine`] when
    /// the engine cannot start or its thread fails.
    pub async fn analyse(
        &self,
        line: MainLine,
        ply: usize,
    ) -> Result<PositionAnalysis, PositionError> {
        let plies = line.plies.len();
        if ply > plies {
            return Err(PositionError::PlyOutOfRange { ply, plies });
        }
        let mut pos: Position = line.start;
        let mut history = Vec::with_capacity(ply);
        for m in line.moves().take(ply) {
            history.push(pos.repetition_key());
            pos.play_unchecked(m);
        }
        let fen = pos.to_fen();
        if !pos.has_legal_moves() {
            return Ok(PositionAnalysis {
                best: None,
                depth: 0,
                fen,
                mate: pos.is_check().then_some(0),
                nodes: 0,
                ply,
                pv: Vec::new(),
                score_cp: None,
            });
        }
        let _permit = self.0.acquire().await.map_err(|e| PositionError::Engine(e.to_string()))?;
        let searched = pos;
        let outcome = tokio::task::spawn_blocking(move || {
            let mut engine = Engine::with_options(Options { hash_mb: 32, ..Options::default() })
                .map_err(|e| e.to_string())?;
            let limits = Limits { nodes: Some(NODES), movetime: Some(TIME), ..Limits::default() };
            Ok::<_, String>(engine.search(
                &searched,
                &history,
                &limits,
                &Signals::new(),
                &Instant::now(),
                &mut (),
            ))
        })
        .await
        .map_err(|e| PositionError::Engine(e.to_string()))?
        .map_err(PositionError::Engine)?;
        // From White's point of view, as review boards show it.
        let sign = if pos.turn() == Color::White { 1 } else { -1 };
        let (score_cp, mate) = match outcome.score {
            Some(Score::Centipawns(cp)) => (Some(cp * sign), None),
            Some(Score::Mate(n)) => (None, Some(n * sign)),
            None => (None, None),
        };
        Ok(PositionAnalysis {
            best: outcome.best.map(|m| m.to_uci()),
            depth: outcome.depth,
            fen,
            mate,
            nodes: outcome.nodes,
            ply,
            pv: outcome.pv.iter().map(|m| m.to_uci()).collect(),
            score_cp,
        })
    }
}
