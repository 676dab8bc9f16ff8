//! The JSON API (docs/api.md): lobby, games, users, leaderboard, health.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::header::CONTENT_TYPE;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use rookery_arbiter::{RuleSet, TimeControl};
use rookery_store::{GameStatus, GameSummary, Player, PlayerKind};
use serde_json::{json, Value};

use crate::accounts::user_json;
use crate::client::ClientAddr;
use crate::error::{ApiError, Body, FromBody, QueryOf};
use crate::identity::{Identity, Visitor};
use crate::live::{
    finished_view, live_view, pgn_record, rebuild, stored_record, stored_variant, Crowd, Rebuilt,
};
use crate::lobby::{self, ColorChoice, SeekTerms};
use crate::protocol::{
    FieldError, Fields, GameId, GameView, NewLiveGame, PlayerView, Variant, VariantChoice,
};
use crate::state::AppState;

type Shared = State<Arc<AppState>>;

/// `POST /api/v1/seeks` and `/challenges`.
pub struct SeekBody {
    terms: SeekTerms,
    to: Option<String>,
}

impl FromBody for SeekBody {
    fn from_fields(f: &mut Fields) -> Result<SeekBody, FieldError> {
        let terms = SeekTerms {
            time_control: f.req("time_control")?,
            rated: f.opt("rated")?.unwrap_or(false),
            rules: f.opt("rules")?.unwrap_or(RuleSet::SEED),
            variant: VariantChoice::from_fields(f)?,
            color: f.opt("color")?.unwrap_or(ColorChoice::Random),
        };
        Ok(SeekBody { terms, to: f.opt("to")? })
    }
}

/// `GET /api/v1/seeks`.
pub async fn seeks(State(state): Shared, Extension(visitor): Extension<Visitor>) -> Json<Value> {
    Json(json!({ "seeks": state.lobby.visible(visitor.identity.name()) }))
}

async fn open_seek(
    state: &AppState,
    visitor: &Visitor,
    addr: ClientAddr,
    body: SeekBody,
    challenge: bool,
) -> Result<Response, ApiError> {
    if body.terms.rated && matches!(visitor.identity, Identity::Anonymous { .. }) {
        return Err(ApiError::field("rated", "rated games need an account: sign in"));
    }
    let to = match (challenge, body.to) {
        (false, Some(_)) => {
            return Err(ApiError::field("to", "use /api/v1/challenges to challenge a user"))
        }
        (false, None) => None,
        (true, None) => return Err(ApiError::field("to", "whom to challenge")),
        (true, Some(name)) => {
            let user = state
                .store
                .user_by_name(&name)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("user {name:?}")))?;
            if Some(user.id) == visitor.identity.user_id() {
                return Err(ApiError::field("to", "you cannot challenge yourself"));
            }
            Some(user.username)
        }
    };
    let seek = lobby::new_seek(visitor.identity.as_player(), addr, body.terms, to)?;
    let seek = state.lobby.add(seek)?;
    Ok((StatusCode::CREATED, Json(seek)).into_response())
}

/// `POST /api/v1/seeks`.
pub async fn create_seek(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Extension(addr): Extension<ClientAddr>,
    Body(body): Body<SeekBody>,
) -> Result<Response, ApiError> {
    open_seek(&state, &visitor, addr, body, false).await
}

/// `POST /api/v1/challenges`.
pub async fn challenge(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Extension(addr): Extension<ClientAddr>,
    Body(body): Body<SeekBody>,
) -> Result<Response, ApiError> {
    open_seek(&state, &visitor, addr, body, true).await
}

/// `DELETE /api/v1/seeks/{id}`: of a seek on this node or, on a cluster, on another.
pub async fn cancel_seek(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
) -> Result<StatusCode, ApiError> {
    lobby::cancel(&state.lobby, &state.live, &visitor.identity.as_player(), &id).await?;
    Ok(StatusCode::NO_CONTENT)
}

/// `POST /api/v1/seeks/{id}/accept`: exactly one accepter gets the game, whichever node it
/// asks (see [`lobby::accept`]).
pub async fn accept_seek(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
) -> Result<Response, ApiError> {
    let game = lobby::accept(&state.lobby, &state.live, &visitor.identity.as_player(), &id).await?;
    Ok((StatusCode::CREATED, Json(json!({ "game": game }))).into_response())
}

/// `POST /api/v1/engine-games`.
pub struct EngineGameBody {
    level: u8,
    color: ColorChoice,
    time_control: TimeControl,
    rules: RuleSet,
    variant: VariantChoice,
}

impl FromBody for EngineGameBody {
    fn from_fields(f: &mut Fields) -> Result<EngineGameBody, FieldError> {
        let level: i64 = f.req("level")?;
        if !(1..=8).contains(&level) {
            return Err(FieldError::field("level", format!("1 to 8, not {level}")));
        }
        Ok(EngineGameBody {
            level: level as u8,
            color: f.opt("color")?.unwrap_or(ColorChoice::Random),
            time_control: f.req("time_control")?,
            rules: f.opt("rules")?.unwrap_or(RuleSet::CASUAL),
            variant: VariantChoice::from_fields(f)?,
        })
    }
}

/// `POST /api/v1/engine-games`.
pub async fn engine_game(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Body(body): Body<EngineGameBody>,
) -> Result<Response, ApiError> {
    let engine = Player {
        kind: PlayerKind::Engine,
        user_id: None,
        name: format!("Rookery level {}", body.level),
        engine_level: Some(body.level),
    };
    let me = visitor.identity.as_player();
    let (white, black) = if body.color.owner_is_white() { (me, engine) } else { (engine, me) };
    let variant = body.variant.resolve();
    let new = NewLiveGame::between(white, black, variant, body.rules, body.time_control, false);
    let handle = state.live.create(new).await?;
    Ok((StatusCode::CREATED, Json(json!({ "game": handle.meta.id.as_str() }))).into_response())
}

/// A stored game's variant and start, for the lists: a row whose start does not read is
/// listed as standard chess (its own page says what is wrong with it).
fn summary_variant(g: &GameSummary) -> Variant {
    stored_variant(g.variant, g.initial_fen.as_deref()).unwrap_or_default()
}

fn summary_json(g: &GameSummary) -> Value {
    let variant = summary_variant(g);
    json!({
        "id": g.id, "white": PlayerView::of(&g.white), "black": PlayerView::of(&g.black),
        "rules": g.rules, "variant": variant.name(), "position": variant.number(),
        "time_control": g.time_control, "rated": g.rated,
        "status": g.status.as_str(), "result": g.result.map(|r| r.as_str()), "termination": g.termination,
        "created_at_ms": g.created_at_ms, "ended_at_ms": g.ended_at_ms,
    })
}

/// The most live games `GET /api/v1/games/live` lists on a cluster (the newest first); its
/// `count` says how many there are in all.
const LIVE_LIST_LIMIT: i64 = 500;

/// `GET /api/v1/games/live`: the live games and their count, read together, so that a lobby
/// showing both never contradicts itself (the lobby socket's `live` count on a cluster can be
/// a few seconds older: `AppState::live_games`).
pub async fn live_games(State(state): Shared) -> Result<Json<Value>, ApiError> {
    let row = |id: &str,
               white: &Player,
               black: &Player,
               rules: &str,
               variant: Variant,
               tc: String,
               rated,
               at| {
        let speed = tc.parse::<TimeControl>().map_or("", |tc| tc.speed().name());
        json!({
            "id": id, "white": PlayerView::of(white), "black": PlayerView::of(black),
            "rules": rules, "variant": variant.name(), "position": variant.number(),
            "time_control": tc, "speed": speed,
            "rated": rated, "status": "live", "created_at_ms": at,
        })
    };
    let (count, mut games): (usize, Vec<Value>) = if state.ownership.node().is_some() {
        // On a cluster each node's actors hold only its own games: the store has them all.
        let stored = state.store.live_game_summaries(LIVE_LIST_LIMIT).await?;
        let count = if stored.len() < LIVE_LIST_LIMIT as usize {
            stored.len()
        } else {
            state.store.count_live_games().await? as usize
        };
        let rows = stored.iter().map(|g| {
            let at = g.created_at_ms.max(0) as u64;
            let variant = summary_variant(g);
            row(&g.id, &g.white, &g.black, &g.rules, variant, g.time_control.clone(), g.rated, at)
        });
        (count, rows.collect())
    } else {
        let rows: Vec<Value> = state
            .live
            .list()
            .iter()
            .map(|h| {
                let m = &h.meta;
                let tc = m.time_control.to_string();
                row(
                    m.id.as_str(),
                    &m.white,
                    &m.black,
                    m.rules.label(),
                    m.variant,
                    tc,
                    m.rated,
                    m.created_at_ms,
                )
            })
            .collect();
        (rows.len(), rows)
    };
    games.sort_by_key(|g| std::cmp::Reverse(g["created_at_ms"].as_u64()));
    Ok(Json(json!({ "games": games, "count": count })))
}

/// Reads a game id from a URL: anything that cannot be one is not found.
///
/// # Errors
/// [`ApiError::NotFound`].
pub fn game_id(text: &str) -> Result<GameId, ApiError> {
    GameId::parse(text).ok_or_else(|| ApiError::NotFound(format!("game {text:?}")))
}

/// The game's state: from its actor when live, else from storage.
pub async fn game_state(state: &AppState, id: &GameId) -> Result<GameView, ApiError> {
    if let Some(handle) = state.live.get(id) {
        if let Some(v) = handle.snapshot().await {
            return Ok(v);
        }
    }
    let stored = state
        .store
        .game_summary(id.as_str())
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?;
    stored_game_view(state, &stored).await
}

/// A game no actor holds, as `GET /api/v1/games/{id}` shows it. A finished or aborted game is
/// served from its stored result and PGN record, not replayed action by action; only a live
/// game without an actor (it failed to resume) is rebuilt from its action log.
///
/// # Errors
/// The store failing, or a stored game that does not read.
pub async fn stored_game_view(state: &AppState, g: &GameSummary) -> Result<GameView, ApiError> {
    if g.status != GameStatus::Live {
        let record = finished_record(state, g).await?;
        return Ok(finished_view(g, &record)?);
    }
    let stored = state
        .store
        .game(&g.id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {:?}", g.id)))?;
    let Rebuilt { meta, game, last_stamp, .. } = rebuild(&stored)?;
    Ok(live_view(&meta, &game, last_stamp, &Crowd::default()))
}

/// The record of a game that has ended (see [`stored_record`]): a standard game's from its
/// summary's PGN, a Chess960 game's from its action log, read for it.
///
/// # Errors
/// The store failing, or a stored game that does not read.
pub async fn finished_record(
    state: &AppState,
    g: &GameSummary,
) -> Result<rookery_arbiter::GameRecord, ApiError> {
    if g.variant == rookery_core::CastlingMode::Standard {
        return Ok(pgn_record(g.pgn.as_deref())?);
    }
    let stored = state
        .store
        .game(&g.id)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {:?}", g.id)))?;
    Ok(stored_record(&stored)?)
}

/// `GET /api/v1/games/{id}`.
pub async fn game(
    State(state): Shared,
    Path(id): Path<String>,
) -> Result<Json<GameView>, ApiError> {
    Ok(Json(game_state(&state, &game_id(&id)?).await?))
}

fn pgn_response(pgn: String, filename: &str) -> Response {
    (
        [
            (CONTENT_TYPE, "application/x-chess-pgn; charset=utf-8".to_owned()),
            (axum::http::header::CONTENT_DISPOSITION, format!("inline; filename=\"{filename}\"")),
        ],
        pgn,
    )
        .into_response()
}

/// `GET /api/v1/games/{id}/pgn`.
pub async fn game_pgn(State(state): Shared, Path(id): Path<String>) -> Result<Response, ApiError> {
    let id = game_id(&id)?;
    if let Some(handle) = state.live.get(&id) {
        if let Some(pgn) = handle.pgn().await {
            return Ok(pgn_response(pgn, &format!("rookery-{id}.pgn")));
        }
    }
    let stored = state
        .store
        .game_summary(id.as_str())
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?;
    let pgn = match stored.pgn {
        Some(pgn) => pgn,
        // A live game whose actor is gone: its PGN so far, from its actions.
        None => match state.store.game(id.as_str()).await? {
            Some(stored) => crate::live::record_pgn(&rebuild(&stored)?.game),
            None => return Err(ApiError::NotFound(format!("game {id:?}"))),
        },
    };
    Ok(pgn_response(pgn, &format!("rookery-{id}.pgn")))
}

/// `GET /api/v1/users/{name}`.
pub async fn user(State(state): Shared, Path(name): Path<String>) -> Result<Json<Value>, ApiError> {
    let user = state
        .store
        .user_by_name(&name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("user {name:?}")))?;
    let history: Vec<Value> = state
        .store
        .rating_history(user.id, 500)
        .await?
        .iter()
        .map(|h| json!({ "game": h.game_id, "at_ms": h.at_ms, "points": h.points.to_string(), "delta": h.points_delta.to_string(), "rating": (h.rating * 10.0).round() / 10.0 }))
        .collect();
    let games: Vec<Value> =
        state.store.user_games(user.id, 20, None).await?.iter().map(summary_json).collect();
    Ok(Json(json!({ "user": user_json(&user), "history": history, "games": games })))
}

/// `GET /api/v1/users/{name}/games.pgn`: every finished game, newest first.
pub async fn user_pgn(
    State(state): Shared,
    Path(name): Path<String>,
) -> Result<Response, ApiError> {
    let user = state
        .store
        .user_by_name(&name)
        .await?
        .ok_or_else(|| ApiError::NotFound(format!("user {name:?}")))?;
    let mut out = String::new();
    let mut before = None;
    loop {
        let page = state.store.user_games(user.id, 500, before).await?;
        for g in &page {
            if let Some(pgn) = &g.pgn {
                out.push_str(pgn.trim_end());
                out.push_str("\n\n");
            }
        }
        match page.last() {
            Some(last) if page.len() == 500 => before = last.ended_at_ms,
            _ => break,
        }
    }
    Ok(pgn_response(out, &format!("rookery-{}.pgn", user.username)))
}

/// `?limit=50&offset=0`.
pub struct Page {
    limit: i64,
    offset: i64,
}

impl FromBody for Page {
    fn from_fields(f: &mut Fields) -> Result<Page, FieldError> {
        let limit = f.opt("limit")?.unwrap_or(50);
        if !(1..=200).contains(&limit) {
            return Err(FieldError::field("limit", format!("1 to 200, not {limit}")));
        }
        let offset = f.opt("offset")?.unwrap_or(0);
        if offset < 0 {
            return Err(FieldError::field("offset", format!("0 or more, not {offset}")));
        }
        Ok(Page { limit, offset })
    }
}

/// `GET /api/v1/leaderboard`.
pub async fn leaderboard(
    State(state): Shared,
    QueryOf(Page { limit, offset }): QueryOf<Page>,
) -> Result<Json<Value>, ApiError> {
    let users: Vec<Value> =
        state.store.leaderboard(limit, offset).await?.iter().map(user_json).collect();
    Ok(Json(json!({ "users": users })))
}

/// `GET /api/v1/games/recent`: finished games, newest first.
pub async fn recent_games(State(state): Shared) -> Result<Json<Value>, ApiError> {
    let games: Vec<Value> = state.store.recent_games(30).await?.iter().map(summary_json).collect();
    Ok(Json(json!({ "games": games })))
}

/// `GET /health`.
pub async fn health(State(state): Shared) -> Response {
    let db = state.store.backend().as_str();
    match state.store.leaderboard(1, 0).await {
        Ok(_) => {
            let mut health =
                json!({ "status": "ok", "live_games": state.live.len(), "database": db });
            if let (Some(node), Some(relay)) = (state.ownership.node(), state.relay.counts()) {
                health["node"] = json!(node.id);
                health["relay"] = json!(relay);
                health["relay"]["lobby"] = json!(state.lobby.elsewhere.counts());
            }
            Json(health).into_response()
        }
        Err(e) => {
            tracing::error!(error = %e, "health check: database does not answer");
            (
                StatusCode::SERVICE_UNAVAILABLE,
                Json(json!({ "status": "database unavailable", "database": db })),
            )
                .into_response()
        }
    }
}
