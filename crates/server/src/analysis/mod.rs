//! Engine analysis of finished games, for the review board (issue 38): the whole game in one
//! background job (`POST` to queue it, `GET` for its progress and report; [`worker`] computes
//! it, [`judge`] marks the moves), or one position at once (`GET …?ply=N`). Never of a game in
//! progress (RULES.md §8.5: no advice during play), nor of an aborted one (nothing was
//! played). Searches run on blocking threads with fixed budgets.

pub mod judge;
pub mod worker;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rookery_arbiter::RecordError;
use rookery_core::Color;
use rookery_engine::{Engine, Limits, Options, Score, Signals};
use rookery_pgn::main_line::{self, read_main_line};
use rookery_store::{AnalysisStatus, GameStatus, StoredAnalysis};
use serde_json::{json, Value};
use tokio::sync::Semaphore;

use crate::api::game_id;
use crate::error::{ApiError, FromBody, QueryOf};
use crate::live::StoredGameError;
use crate::protocol::GameId;
use crate::protocol::{FieldError, Fields, Ply};
use crate::state::{now_ms, AppState};

/// The budget of one analysis.
const NODES: u64 = 1_500_000;
const TIME: Duration = Duration::from_secs(3);

/// Limits concurrent analyses to the machine's cores.
pub struct Analysts(Semaphore);

impl Default for Analysts {
    fn default() -> Analysts {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Analysts(Semaphore::new(cores))
    }
}

/// `?ply=N`: the position after `N` moves.
pub struct At {
    ply: Option<usize>,
}

impl FromBody for At {
    fn from_fields(f: &mut Fields) -> Result<At, FieldError> {
        // Query values are text: read the number, then check it as a ply.
        let ply: Option<i64> = f.opt("ply")?;
        let ply = match ply {
            None => None,
            Some(p) if (0..100_000).contains(&p) => Some(Ply(p as usize).0),
            Some(p) => {
                return Err(FieldError::field("ply", format!("a move number from 0, not {p}")))
            }
        };
        Ok(At { ply })
    }
}

/// `POST /api/v1/games/{id}/analysis`: queues the analysis of a finished game (once: asking
/// again changes nothing) and answers as `GET` does, with 202 until it is done.
pub async fn request(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    finished(&state, &id).await?;
    let nodes = i64::try_from(state.analyst.nodes()).unwrap_or(i64::MAX);
    let analysis = state.store.request_analysis(id.as_str(), nodes, now_ms() as i64).await?;
    if matches!(analysis.status, AnalysisStatus::Queued) {
        state.analyst.wake();
    }
    let body = analysis_json(&state, &analysis).await?;
    let status =
        if analysis.status == AnalysisStatus::Done { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(body)).into_response())
}

/// The job as the API shows it: its status, place in the queue or progress, and report.
async fn analysis_json(state: &AppState, a: &StoredAnalysis) -> Result<Value, ApiError> {
    let mut body = json!({ "status": a.status.as_str(), "nodes": a.nodes });
    match a.status {
        AnalysisStatus::Queued => {
            body["queued_before"] =
                json!(state.store.analyses_queued_before(a.requested_at_ms).await?);
        }
        AnalysisStatus::Running => {
            body["progress"] = json!(state.analyst.progress(&a.game_id));
        }
        AnalysisStatus::Done => {
            let text = a.result.as_deref().unwrap_or("null");
            let report: Value = serde_json::from_str(text).map_err(|e| {
                ApiError::Internal(format!("stored analysis of {:?}: {e}", a.game_id))
            })?;
            body["analysis"] = report;
        }
        AnalysisStatus::Failed => body["error"] = json!(a.error),
    }
    Ok(body)
}

/// `GET /api/v1/games/{id}/analysis`: the game's analysis job (`{"status":"none"}` if
/// nobody asked for it); with `?ply=N`, the engine's view of one position at once.
pub async fn analysis(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryOf(at): QueryOf<At>,
) -> Result<Json<Value>, ApiError> {
    let id = game_id(&id)?;
    let Some(ply) = at.ply else {
        return game_analysis(&state, &id).await.map(Json);
    };
    let stored = state
        .store
        .game_summary(id.as_str())
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?;
    if stored.status == GameStatus::Live {
        return Err(ApiError::GameInProgress);
    }
    // The stored record's main line, played once by rookery-pgn's replay: nothing of the
    // action log is read.
    let pgn = stored.pgn.as_deref().ok_or(StoredGameError::NoRecord)?;
    let line = read_main_line(pgn, main_line::Options::default())
        .ok_or(StoredGameError::Record(RecordError::Empty))?
        .map_err(|e| StoredGameError::Record(RecordError::MainLine(e)))?;
    let plies = line.plies.len();
    if ply > plies {
        return Err(ApiError::field("ply", format!("0 to {plies}, not {ply}")));
    }
    let mut pos = line.start;
    let mut history = Vec::with_capacity(ply);
    for m in line.moves().take(ply) {
        history.push(pos.repetition_key());
        pos.play_unchecked(m);
    }
    let fen = pos.to_fen();
    if !pos.has_legal_moves() {
        return Ok(Json(json!({
            "ply": ply, "fen": fen, "depth": 0, "score_cp": null,
            "mate": if pos.is_check() { Some(0) } else { None }, "pv": [], "best": null, "nodes": 0,
        })));
    }
    let _permit =
        state.analysts.0.acquire().await.map_err(|e| ApiError::Internal(e.to_string()))?;
    let outcome = tokio::task::spawn_blocking(move || {
        let mut engine = Engine::with_options(Options { hash_mb: 32, ..Options::default() })
            .map_err(|e| e.to_string())?;
        let limits = Limits { nodes: Some(NODES), movetime: Some(TIME), ..Limits::default() };
        Ok::<_, String>(engine.search(
            &pos,
            &history,
            &limits,
            &Signals::new(),
            &Instant::now(),
            &mut (),
        ))
    })
    .await
    .map_err(|e| ApiError::Internal(e.to_string()))?
    .map_err(ApiError::Internal)?;
    // From White's point of view, as review boards show it.
    let sign = if pos.turn() == Color::White { 1 } else { -1 };
    let (cp, mate) = match outcome.score {
        Some(Score::Centipawns(cp)) => (Some(cp * sign), None),
        Some(Score::Mate(n)) => (None, Some(n * sign)),
        None => (None, None),
    };
    Ok(Json(json!({
        "ply": ply, "fen": fen, "depth": outcome.depth, "score_cp": cp, "mate": mate,
        "pv": outcome.pv.iter().map(|m| m.to_uci()).collect::<Vec<_>>(),
        "best": outcome.best.map(|m| m.to_uci()), "nodes": outcome.nodes,
    })))
}

/// Refuses a game that is not finished: unknown, played (§8.5: no engine advice during play)
/// or aborted (nothing to analyse).
async fn finished(state: &AppState, id: &GameId) -> Result<(), ApiError> {
    let stored = state
        .store
        .game_summary(id.as_str())
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?;
    match stored.status {
        GameStatus::Live => Err(ApiError::GameInProgress),
        GameStatus::Aborted => Err(ApiError::GameAborted),
        GameStatus::Finished => Ok(()),
    }
}

/// The game's analysis job, refused while the game is played.
async fn game_analysis(state: &AppState, id: &GameId) -> Result<Value, ApiError> {
    finished(state, id).await?;
    match state.store.analysis(id.as_str()).await? {
        Some(a) => analysis_json(state, &a).await,
        None => Ok(json!({ "status": "none" })),
    }
}
