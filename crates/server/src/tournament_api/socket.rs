//! The tournament socket (docs/protocol.md, "Tournament socket"): the state and the clock
//! on connection, then every update the tournament's actor broadcasts, `ping` answered.

use std::sync::Arc;

use axum::extract::ws::{close_code, Message, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use rookery_competitions::view::TournamentView;
use rookery_competitions::{Answer, Clock, Op, SocketError, TournamentHandle, TournamentMessage};
use tokio::sync::broadcast;

use super::{view_of, Shared};
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::identity::Visitor;
use crate::state::AppState;

/// `GET /api/v1/tournaments/{id}/socket`: counted among the visitor's sockets (issue 37),
/// 4 at most on one tournament; `ping`s come out of the shared message budget.
pub async fn socket(
    State(state): Shared,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    headers: axum::http::HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    crate::ws::same_origin(&headers)?;
    let permit = state.sockets.open(
        visitor.identity.name(),
        crate::sockets::Scope::Tournament(id.clone()),
        now_ms(),
    )?;
    let unexpected = || ApiError::Internal("an answer of another kind".into());
    let first = view_of(&state, &id, Op::View).await?.into_view().ok_or_else(unexpected)?;
    let clock = view_of(&state, &id, Op::Clock).await?.into_clock().ok_or_else(unexpected)?;
    let h = state.tournaments.get(&id);
    let name = visitor.identity.name().to_owned();
    Ok(ws
        .max_message_size(crate::ws::MAX_READ)
        .max_frame_size(crate::ws::MAX_READ)
        .on_upgrade(move |socket| watch(socket, state, h, name, (first, clock), permit))
        .into_response())
}

async fn watch(
    mut socket: WebSocket,
    state: Arc<AppState>,
    h: Option<TournamentHandle>,
    name: String,
    (first, first_clock): (Arc<TournamentView>, Clock),
    permit: crate::sockets::SocketPermit,
) {
    let sub = match &h {
        Some(h) => h.subscribe().await,
        None => None,
    };
    let (view, clock, mut updates) = match sub {
        Some((v, clock, rx)) => (v, clock, Some(rx)),
        None => (first, first_clock, None),
    };
    let hello = TournamentMessage::Tournament { tournament: view };
    if socket.send(Message::Text(hello.to_text().into())).await.is_err() {
        return;
    }
    // protocol.md: the `clock` is sent on connection (a countdown needs it at once).
    let clock = TournamentMessage::Clock(clock);
    if socket.send(Message::Text(clock.to_text().into())).await.is_err() {
        return;
    }
    let mut closing = state.closing.subscribe();
    loop {
        tokio::select! {
            incoming = socket.recv() => match incoming {
                None | Some(Ok(Message::Close(_))) => break,
                Some(Ok(message)) if crate::ws::too_large(&message) => {
                    crate::ws::refuse(&mut socket, close_code::SIZE).await;
                    break;
                }
                Some(Err(e)) => {
                    crate::ws::close_after(&mut socket, e).await;
                    break;
                }
                Some(Ok(Message::Text(t))) => {
                    let answer = if !permit.take_message(now_ms()) {
                        TournamentMessage::Error(SocketError::RateLimited)
                    } else if t.contains("\"ping\"") {
                        TournamentMessage::Pong { server_ms: now_ms() }
                    } else {
                        TournamentMessage::Error(SocketError::UnknownType)
                    };
                    if socket.send(Message::Text(answer.to_text().into())).await.is_err() { break }
                }
                Some(Ok(_)) => {}
            },
            msg = async { match &mut updates { Some(rx) => rx.recv().await, None => std::future::pending().await } } => {
                match msg {
                    // A player's own messages (`your_game`) go to their sockets only.
                    Ok(u) => if u.is_for(&name) && socket.send(Message::Text(u.text.to_string().into())).await.is_err() { break },
                    // A slow socket missed some events (a `your_game` among them, maybe): the
                    // whole state now, from which a page finds its player's game.
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let Some(h) = &h else { continue };
                        let Ok(Answer::View(view)) = h.request(None, Op::View).await else { continue };
                        let msg = TournamentMessage::Tournament { tournament: view };
                        if socket.send(Message::Text(msg.to_text().into())).await.is_err() { break }
                    }
                    Err(broadcast::error::RecvError::Closed) => updates = None,
                }
            }
            _ = closing.changed() => break,
        }
    }
}
