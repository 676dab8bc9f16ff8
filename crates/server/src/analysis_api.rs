//! The HTTP edge of engine analysis (issue 38; rookery-analysis computes it): `POST` queues
//! a finished game's analysis, `GET` shows its progress and report, or with `?ply=N` the
//! engine's view of one position at once. Never of a game in progress (RULES.md §8.5: no
//! advice during play), nor of an aborted one (nothing was played).

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use rookery_analysis::{PositionAnalysis, PositionError, Progress};
use rookery_store::{AnalysisStatus, GameStatus, StoredAnalysis};
use serde::Serialize;
use serde_json::Value;

use crate::api::{finished_record, game_id};
use crate::clock::now_ms;
use crate::error::{ApiError, FromBody, QueryOf};
use crate::live::main_line;
use crate::protocol::GameId;
use crate::protocol::{FieldError, Fields, Ply};
use crate::state::AppState;

/// An analysis job as the API shows it (docs/api.md, "Analysis"): its status, and its place
/// in the queue, progress, report or error as the status has them. Fields in alphabetical
/// order, the order the API has always written them in; an absent field is not written.
#[derive(Debug, Default, Serialize)]
pub struct JobView {
    /// The report, once done.
    #[serde(skip_serializing_if = "Option::is_none")]
    analysis: Option<Value>,
    /// Why it failed (`null` when no reason was stored).
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<Option<String>>,
    /// The budget of each position, in nodes.
    #[serde(skip_serializing_if = "Option::is_none")]
    nodes: Option<i64>,
    /// How far the running job is (`null` between two reads of the worker).
    #[serde(skip_serializing_if = "Option::is_none")]
    progress: Option<Option<Progress>>,
    /// How many jobs are ahead of a queued one.
    #[serde(skip_serializing_if = "Option::is_none")]
    queued_before: Option<i64>,
    /// `none`, `queued`, `running`, `done` or `failed`.
    status: &'static str,
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
    let body = job_view(&state, &analysis).await?;
    let status =
        if analysis.status == AnalysisStatus::Done { StatusCode::OK } else { StatusCode::ACCEPTED };
    Ok((status, Json(body)).into_response())
}

/// The job as the API shows it.
async fn job_view(state: &AppState, a: &StoredAnalysis) -> Result<JobView, ApiError> {
    let mut view =
        JobView { status: a.status.as_str(), nodes: Some(a.nodes), ..JobView::default() };
    match a.status {
        AnalysisStatus::Queued => {
            view.queued_before = Some(state.store.analyses_queued_before(a.requested_at_ms).await?);
        }
        AnalysisStatus::Running => view.progress = Some(state.analyst.progress(&a.game_id)),
        AnalysisStatus::Done => {
            let text = a.result.as_deref().unwrap_or("null");
            let report: Value = serde_json::from_str(text).map_err(|e| {
                ApiError::Internal(format!("stored analysis of {:?}: {e}", a.game_id))
            })?;
            view.analysis = Some(report);
        }
        AnalysisStatus::Failed => view.error = Some(a.error.clone()),
    }
    Ok(view)
}

/// `GET /api/v1/games/{id}/analysis`: the game's analysis job (`{"status":"none"}` if
/// nobody asked for it); with `?ply=N`, the engine's view of one position at once.
pub async fn analysis(
    State(state): State<Arc<AppState>>,
    Path(id): Path<String>,
    QueryOf(at): QueryOf<At>,
) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    let Some(ply) = at.ply else {
        return Ok(Json(game_analysis(&state, &id).await?).into_response());
    };
    let stored = state
        .store
        .game_summary(id.as_str())
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?;
    if stored.status == GameStatus::Live {
        return Err(ApiError::GameInProgress);
    }
    // The stored record's main line (a Chess960 game's from its action log, see
    // `stored_record`), in the game's own castling mode: the engine searches its positions.
    let line = main_line(&finished_record(&state, &stored).await?);
    let view: PositionAnalysis = state.analysts.analyse(line, ply).await.map_err(|e| match e {
        PositionError::PlyOutOfRange { .. } => ApiError::field("ply", e.to_string()),
        PositionError::Engine(why) => ApiError::Internal(why),
    })?;
    Ok(Json(view).into_response())
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
async fn game_analysis(state: &AppState, id: &GameId) -> Result<JobView, ApiError> {
    finished(state, id).await?;
    match state.store.analysis(id.as_str()).await? {
        Some(a) => job_view(state, &a).await,
        None => Ok(JobView { status: "none", ..JobView::default() }),
    }
}
