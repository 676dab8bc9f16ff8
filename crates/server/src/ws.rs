//! The two WebSockets (docs/protocol.md): a game's and the lobby's. A connection task holds
//! only a stub of the game's actor; it validates each message, measures the connection's lag
//! with ping frames, and forwards actions.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use rookery_core::{Color, Square};
use rookery_store::StoredGame;
use serde_json::{json, Value};
use tokio::sync::{broadcast, oneshot};

use crate::api::{check_game_id, stored_game_json};
use crate::error::ApiError;
use crate::identity::Visitor;
use crate::live::{Command, GameHandle, Request, Seat};
use crate::sockets::{Scope, SocketPermit};
use crate::state::{now_ms, AppState};

/// A frame larger than this closes the connection.
const MAX_FRAME: usize = 64 * 1024;
/// A message larger than this is refused with an error.
const MAX_MESSAGE: usize = 4 * 1024;
/// Ping frames measure each connection's lag (docs/protocol.md); every 5 s keeps that
/// measurement fresh without flooding: 10,000 sockets at 2 s were 5,000 frames a second.
const PING_EVERY: Duration = Duration::from_secs(5);
/// The read buffer of a socket. Messages are at most [`MAX_MESSAGE`] (larger frames grow the
/// buffer); tungstenite's default of 128 KiB is zero-filled before every read, which made it
/// resident: 290 KiB per game for its two sockets (BENCHMARKS.md, "Server load").
const READ_BUFFER: usize = 4 * 1024;

/// Refuses cross-site WebSocket upgrades: a browser's `Origin` must name this host.
fn same_origin(headers: &HeaderMap) -> Result<(), ApiError> {
    let Some(origin) = headers.get(ORIGIN).and_then(|v| v.to_str().ok()) else { return Ok(()) };
    let host = headers.get(HOST).and_then(|v| v.to_str().ok()).unwrap_or("");
    let origin_host = origin.split("://").nth(1).unwrap_or("");
    if origin_host == host {
        Ok(())
    } else {
        Err(ApiError::Forbidden(format!("cross-site WebSocket from {origin:?} refused")))
    }
}

/// `GET /api/v1/games/{id}/socket`.
pub async fn game_socket(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
    Path(id): Path<String>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    same_origin(&headers)?;
    check_game_id(&id)?;
    // Issue 37: a place among the visitor's sockets, and their shared message budget.
    let permit = state.sockets.open(visitor.identity.name(), Scope::Game(id.clone()), now_ms())?;
    let handle = state.live.get(&id);
    // A game without an actor is over: read it once here, for the 404 and for the socket.
    let stored = match handle {
        Some(_) => None,
        None => Some(
            state
                .store
                .game(&id)
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?,
        ),
    };
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let mut conn = Connection::new(socket, state.clone(), permit);
            match (handle, stored) {
                (Some(handle), _) => conn.play(handle, &visitor).await,
                (None, Some(stored)) => conn.watch_finished(&stored, &visitor).await,
                (None, None) => {}
            }
        })
        .into_response())
}

/// `GET /api/v1/lobby/socket`.
pub async fn lobby_socket(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    same_origin(&headers)?;
    // Issue 37: a place among the visitor's sockets, and their shared message budget.
    let permit = state.sockets.open(visitor.identity.name(), Scope::Lobby, now_ms())?;
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let name = visitor.identity.name();
            state.lobby.enter(name);
            let mut conn = Connection::new(socket, state.clone(), permit);
            conn.lobby(name).await;
            state.lobby.leave(name);
        })
        .into_response())
}

struct Connection {
    socket: WebSocket,
    state: Arc<AppState>,
    /// This socket's place and the visitor's message budget on its game (or the lobby).
    permit: SocketPermit,
    /// Smoothed one-way lag, ms.
    lag_ms: u64,
}

/// What the connection loop should do after a message.
enum Flow {
    Continue,
    Stop,
}

impl Connection {
    fn new(socket: WebSocket, state: Arc<AppState>, permit: SocketPermit) -> Connection {
        Connection { socket, state, permit, lag_ms: 0 }
    }

    async fn send(&mut self, v: &Value) -> bool {
        self.socket.send(Message::Text(Utf8Bytes::from(v.to_string()))).await.is_ok()
    }

    async fn send_text(&mut self, text: &str) -> bool {
        self.socket.send(Message::Text(Utf8Bytes::from(text))).await.is_ok()
    }

    async fn error(&mut self, code: &str, message: String, field: Option<&str>) -> bool {
        let mut v = json!({ "t": "error", "code": code, "message": message });
        if let Some(field) = field {
            v["field"] = Value::from(field);
        }
        self.send(&v).await
    }

    fn on_pong(&mut self, payload: &[u8]) {
        if let Ok(bytes) = <[u8; 8]>::try_from(payload) {
            let sent = u64::from_le_bytes(bytes);
            let rtt = now_ms().saturating_sub(sent).min(4_000);
            let one_way = rtt / 2;
            self.lag_ms = if self.lag_ms == 0 { one_way } else { (self.lag_ms * 3 + one_way) / 4 };
        }
    }

    /// Reads one client text message: size, rate and JSON checks. `Err` carries an error
    /// already sent (or the socket failing).
    async fn read_json(&mut self, text: &str) -> Option<Value> {
        if text.len() > MAX_MESSAGE {
            self.error(
                "too_large",
                format!("a message may have at most {MAX_MESSAGE} bytes"),
                None,
            )
            .await;
            return None;
        }
        if !self.permit.take_message(now_ms()) {
            let message = "too many messages to this game from you, over all your sockets";
            self.error("rate_limited", message.into(), None).await;
            return None;
        }
        match serde_json::from_str::<Value>(text) {
            Ok(v) if v.is_object() => Some(v),
            Ok(_) => {
                self.error("bad_json", "a message is a JSON object".into(), None).await;
                None
            }
            Err(e) => {
                self.error("bad_json", format!("bad JSON: {e}"), None).await;
                None
            }
        }
    }

    async fn play(&mut self, handle: GameHandle, visitor: &Visitor) {
        let meta = handle.meta.clone();
        let seat = if visitor.identity.is(&meta.white) {
            Seat::Player(Color::White)
        } else if visitor.identity.is(&meta.black) {
            Seat::Player(Color::Black)
        } else {
            Seat::Spectator
        };
        let Some(joined) = handle.join(seat).await else {
            // The game ended between the lookup and the join: it is in storage now.
            match self.state.store.game(&meta.id).await {
                Ok(Some(stored)) => return self.watch_finished(&stored, visitor).await,
                _ => {
                    self.error("not_found", format!("game {:?} not found", meta.id), None).await;
                    return;
                }
            }
        };
        if !self.send(&joined.hello).await {
            handle.send(Command::Leave { seat }).await;
            return;
        }
        let mut updates = joined.updates;
        let mut closing = self.state.closing.subscribe();
        let mut ping = tokio::time::interval(PING_EVERY);
        loop {
            tokio::select! {
                msg = self.socket.recv() => {
                    let Some(Ok(msg)) = msg else { break };
                    let flow = match msg {
                        Message::Text(text) => self.on_game_message(&handle, seat, text.as_str()).await,
                        Message::Pong(payload) => { self.on_pong(&payload); Flow::Continue }
                        Message::Close(_) => Flow::Stop,
                        Message::Binary(_) => {
                            self.error("bad_json", "binary frames are not used".into(), None).await;
                            Flow::Continue
                        }
                        Message::Ping(_) => Flow::Continue,
                    };
                    if matches!(flow, Flow::Stop) { break; }
                }
                update = updates.recv() => match update {
                    Ok(text) => if !self.send_text(&text).await { break },
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Too slow to follow: start again from the full state.
                        match handle.snapshot().await {
                            Some(game) => if !self.send(&json!({ "t": "state", "game": game })).await { break },
                            None => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = ping.tick() => {
                    let stamp = now_ms().to_le_bytes().to_vec();
                    if self.socket.send(Message::Ping(stamp.into())).await.is_err() { break }
                }
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
        handle.send(Command::Leave { seat }).await;
    }

    async fn on_game_message(&mut self, handle: &GameHandle, seat: Seat, text: &str) -> Flow {
        let received_ms = now_ms();
        let Some(v) = self.read_json(text).await else { return Flow::Continue };
        let t = v.get("t").and_then(Value::as_str).unwrap_or("");
        match t {
            "ping" => {
                self.send(&json!({ "t": "pong", "server_ms": now_ms() })).await;
                return Flow::Continue;
            }
            "sync" => {
                if let Some(game) = handle.snapshot().await {
                    self.send(&json!({ "t": "state", "game": game })).await;
                }
                return Flow::Continue;
            }
            _ => {}
        }
        let request = match parse_request(t, &v) {
            Ok(r) => r,
            Err(RequestError::UnknownType) => {
                self.error("unknown_type", format!("unknown message type {t:?}"), None).await;
                return Flow::Continue;
            }
            Err(RequestError::BadField(field, message)) => {
                self.error("bad_field", format!("field {field}: {message}"), Some(field)).await;
                return Flow::Continue;
            }
        };
        let Seat::Player(by) = seat else {
            let current = v.get("ply").cloned().unwrap_or(Value::Null);
            self.send(&json!({ "t": "rejected", "code": "spectator", "message": "spectators cannot act in the game", "ply": current })).await;
            return Flow::Continue;
        };
        let ply = match v.get("ply") {
            None | Some(Value::Null) => None,
            Some(p) => match p.as_u64() {
                Some(p) if p < 10_000 => Some(p as usize),
                _ => {
                    self.error("bad_field", "field ply: a move number from 0".into(), Some("ply"))
                        .await;
                    return Flow::Continue;
                }
            },
        };
        let (reply, rx) = oneshot::channel();
        let lag_ms = self.lag_ms;
        if !handle.send(Command::Act { by, request, ply, lag_ms, received_ms, reply }).await {
            self.send(
                &json!({ "t": "rejected", "code": "game_over", "message": "the game is over" }),
            )
            .await;
            return Flow::Continue;
        }
        if let Ok(Some(rejected)) = rx.await {
            self.send(&rejected).await;
        }
        Flow::Continue
    }

    /// A finished game no actor holds: send it, then answer `ping` and `sync` until the
    /// client leaves.
    async fn watch_finished(&mut self, stored: &StoredGame, visitor: &Visitor) {
        let game = match stored_game_json(stored) {
            Ok(game) => game,
            Err(e) => {
                self.error("internal", e.to_string(), None).await;
                return;
            }
        };
        let you = if visitor.identity.is(&stored.white) {
            Value::from("white")
        } else if visitor.identity.is(&stored.black) {
            Value::from("black")
        } else {
            Value::Null
        };
        if !self.send(&json!({ "t": "hello", "you": you, "game": game })).await {
            return;
        }
        let mut closing = self.state.closing.subscribe();
        loop {
            tokio::select! {
                msg = self.socket.recv() => {
                    let Some(Ok(msg)) = msg else { break };
                    match msg {
                        Message::Text(text) => {
                            let Some(v) = self.read_json(text.as_str()).await else { continue };
                            match v.get("t").and_then(Value::as_str).unwrap_or("") {
                                "ping" => { self.send(&json!({ "t": "pong", "server_ms": now_ms() })).await; }
                                "sync" => { self.send(&json!({ "t": "state", "game": game })).await; }
                                _ => { self.send(&json!({ "t": "rejected", "code": "game_over", "message": "the game is over" })).await; }
                            }
                        }
                        Message::Close(_) => break,
                        _ => {}
                    }
                }
                _ = closing.changed() => break,
            }
        }
    }

    async fn lobby(&mut self, name: &str) {
        let mut events = self.state.lobby.events.subscribe();
        let seeks = self.state.lobby.visible_json(name);
        if !self.send(&json!({ "t": "seeks", "seeks": seeks })).await {
            return;
        }
        let mut closing = self.state.closing.subscribe();
        let mut tick = tokio::time::interval(Duration::from_secs(10));
        loop {
            tokio::select! {
                msg = self.socket.recv() => {
                    let Some(Ok(msg)) = msg else { break };
                    match msg {
                        Message::Text(text) => {
                            let Some(v) = self.read_json(text.as_str()).await else { continue };
                            match v.get("t").and_then(Value::as_str).unwrap_or("") {
                                "ping" => { self.send(&json!({ "t": "pong", "server_ms": now_ms() })).await; }
                                t => { self.error("unknown_type", format!("unknown message type {t:?}"), None).await; }
                            }
                        }
                        Message::Close(_) => break,
                        _ => {}
                    }
                }
                event = events.recv() => match event {
                    Ok(m) => if m.is_for(name) && !self.send_text(&m.text).await { break },
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let seeks = self.state.lobby.visible_json(name);
                        if !self.send(&json!({ "t": "seeks", "seeks": seeks })).await { break }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = tick.tick() => {
                    let n = self.state.live.len();
                    if !self.send(&json!({ "t": "live", "games": n })).await { break }
                }
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
    }
}

enum RequestError {
    UnknownType,
    BadField(&'static str, String),
}

fn string_field(
    v: &Value,
    field: &'static str,
    max: usize,
) -> Result<Option<String>, RequestError> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(None),
        Some(Value::String(s)) if !s.is_empty() && s.len() <= max && s.is_ascii() => {
            Ok(Some(s.clone()))
        }
        Some(_) => Err(RequestError::BadField(
            field,
            format!("a short ASCII string (at most {max} characters)"),
        )),
    }
}

fn bool_field(v: &Value, field: &'static str) -> Result<bool, RequestError> {
    match v.get(field) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(RequestError::BadField(field, "true or false".into())),
    }
}

/// Reads an action message (docs/protocol.md, client → server).
fn parse_request(t: &str, v: &Value) -> Result<Request, RequestError> {
    Ok(match t {
        "move" => {
            let uci = string_field(v, "uci", 8)?;
            let san = string_field(v, "san", 16)?;
            if uci.is_none() && san.is_none() {
                return Err(RequestError::BadField(
                    "uci",
                    "a move as uci (e2e4) or san (e4)".into(),
                ));
            }
            Request::Move { uci, san, offer_draw: bool_field(v, "offer_draw")? }
        }
        "touch" => {
            let text = string_field(v, "square", 2)?
                .ok_or_else(|| RequestError::BadField("square", "a square such as e2".into()))?;
            let sq = Square::from_ascii(text.as_bytes())
                .map_err(|_| RequestError::BadField("square", format!("not a square: {text:?}")))?;
            Request::Touch(sq)
        }
        "accept_draw" => Request::AcceptDraw,
        "decline_draw" => Request::DeclineDraw,
        "claim_draw" => {
            let claim = string_field(v, "claim", 10)?.unwrap_or_default();
            if crate::live::parse_claim(&claim).is_none() {
                return Err(RequestError::BadField("claim", "threefold or fifty".into()));
            }
            Request::ClaimDraw { claim, uci: string_field(v, "uci", 8)? }
        }
        "resign" => Request::Resign,
        "abort" => Request::Abort,
        "takeback" => Request::Takeback,
        "accept_takeback" => Request::AcceptTakeback,
        "claim_abandoned" => match string_field(v, "result", 4)?.as_deref() {
            Some("win") => Request::ClaimAbandoned { draw: false },
            Some("draw") => Request::ClaimAbandoned { draw: true },
            _ => return Err(RequestError::BadField("result", "win or draw".into())),
        },
        _ => return Err(RequestError::UnknownType),
    })
}
