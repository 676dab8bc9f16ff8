//! Every route in one block (docs/api.md, docs/protocol.md).

use std::sync::Arc;

use axum::extract::DefaultBodyLimit;
use axum::middleware;
use axum::routing::{delete, get, post, put};
use axum::Router;

use crate::state::AppState;
use crate::{accounts, analysis_api, api, assets, class, identity, tournament_api, ws};

/// The whole site.
pub fn router(state: Arc<AppState>) -> Router {
    let api = Router::new()
        .route("/account", get(accounts::me))
        .route("/account/signup", post(accounts::signup))
        .route("/account/login", post(accounts::login))
        .route("/account/logout", post(accounts::logout))
        .route("/account/first-login", post(class::first_login))
        .route("/class/accounts", get(class::list).post(class::create))
        .route("/class/accounts/{name}/code", post(class::renew))
        .route("/seeks", get(api::seeks).post(api::create_seek))
        .route("/seeks/{id}", delete(api::cancel_seek))
        .route("/seeks/{id}/accept", post(api::accept_seek))
        .route("/challenges", post(api::challenge))
        .route("/engine-games", post(api::engine_game))
        .route("/games/live", get(api::live_games))
        .route("/games/recent", get(api::recent_games))
        .route("/games/{id}", get(api::game))
        .route("/games/{id}/pgn", get(api::game_pgn))
        .route("/games/{id}/analysis", get(analysis_api::analysis).post(analysis_api::request))
        .route("/games/{id}/socket", get(ws::game_socket))
        .route("/lobby/socket", get(ws::lobby_socket))
        .route("/users/{name}", get(api::user))
        .route("/users/{name}/games.pgn", get(api::user_pgn))
        .route("/leaderboard", get(api::leaderboard))
        .route("/tournaments", get(tournament_api::list).post(tournament_api::create))
        .route(
            "/tournaments/import",
            post(tournament_api::import).layer(DefaultBodyLimit::max(crate::error::MAX_UPLOAD)),
        )
        .route("/tournaments/{id}", get(tournament_api::get))
        .route("/tournaments/{id}/socket", get(tournament_api::socket))
        .route("/tournaments/{id}/join", post(tournament_api::join))
        .route("/tournaments/{id}/withdraw", post(tournament_api::withdraw))
        .route("/tournaments/{id}/byes", post(tournament_api::bye))
        .route("/tournaments/{id}/report", post(tournament_api::report))
        .route("/tournaments/{id}/byes/{round}", delete(tournament_api::cancel_bye))
        .route("/tournaments/{id}/berserk", post(tournament_api::berserk))
        .route("/tournaments/{id}/arbiter", post(tournament_api::arbiter))
        .route("/tournaments/{id}/line_up", post(tournament_api::line_up))
        .route(
            "/tournaments/{id}/roster",
            post(tournament_api::roster).layer(DefaultBodyLimit::max(crate::error::MAX_UPLOAD)),
        )
        .route("/tournaments/{id}/boards/{round}/{board}/moves", put(tournament_api::moves))
        .route("/tournaments/{id}/trf", get(tournament_api::trf))
        .route("/tournaments/{id}/pgn", get(tournament_api::pgn))
        .route("/tournaments/{id}/standings.csv", get(tournament_api::csv))
        .route("/tournaments/{id}/board-prizes.csv", get(tournament_api::board_prizes_csv))
        .route("/tournaments/{id}/standings.html", get(tournament_api::html))
        .route("/tournaments/{id}/print/{document}", get(tournament_api::print))
        .route("/health", get(api::health))
        .fallback(|| async { crate::error::ApiError::NotFound("API route".into()) })
        .method_not_allowed_fallback(|| async { crate::error::ApiError::MethodNotAllowed })
        // Larger bodies are refused before they are read (`too_large`, as JSON).
        .layer(DefaultBodyLimit::max(crate::error::MAX_BODY));
    // Cookies are read and set by the API only: the pages and their long-cached assets are
    // the same for everyone.
    let identified = Router::new()
        .nest("/api/v1", api)
        .layer(middleware::from_fn_with_state(state.clone(), identity::identify));
    Router::new()
        .merge(identified)
        .route("/health", get(api::health))
        .merge(assets::router())
        .fallback(assets::not_found)
        .with_state(state)
}
