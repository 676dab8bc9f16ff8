//! The two WebSockets (docs/protocol.md): a game's and the lobby's. A connection task holds
//! only a stub of the game's actor; every text message passes one gate ([`Connection::admit`]:
//! size and rate), is read into a [`ClientMessage`] at once, and is forwarded as typed values.
//! The connection measures its lag with ping frames.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{close_code, CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, RawQuery, State};
use axum::http::header::{HOST, ORIGIN};
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Extension;
use rookery_core::Color;
use rookery_store::GameSummary;
use tokio::sync::{broadcast, oneshot};

use crate::api::{game_id, stored_game_view};
use crate::error::ApiError;
use crate::identity::Visitor;
use crate::live::{Command, GameHandle, Seat};
use crate::protocol::{ClientMessage, ParseError, ProtocolError, Refusal, ServerMessage};
use crate::sockets::{Scope, SocketPermit};
use crate::state::{now_ms, AppState};

/// A frame larger than this closes the connection (close code 1009).
const MAX_FRAME: usize = 64 * 1024;
/// A message larger than this is refused with an error.
const MAX_MESSAGE: usize = 4 * 1024;
/// Ping frames measure each connection's lag (docs/protocol.md); every 5 s keeps that
/// measurement fresh without flooding: 10,000 sockets at 2 s were 5,000 frames a second.
const PING_EVERY: Duration = Duration::from_secs(5);
/// A game socket that has sent no message for this long is gone: a stalled network does not
/// close a socket (issue 38), so the server closes it, and the opponent is told within seconds
/// instead of when TCP gives up. The page sends `ping` whenever it has been quiet for 2 s.
/// Pong frames do not count: a browser may answer them below a stalled page (Chromium's
/// offline mode does), so they prove the connection, not the client.
const SILENT_AFTER_MS: u64 = 8_000;
/// The read buffer of a socket. Messages are at most [`MAX_MESSAGE`] (larger frames grow the
/// buffer); tungstenite's default of 128 KiB is zero-filled before every read, which made it
/// resident: 290 KiB per game for its two sockets (BENCHMARKS.md, "Server load").
const READ_BUFFER: usize = 4 * 1024;

/// Refuses cross-site WebSocket upgrades: a browser's `Origin` must name this host.
pub(crate) fn same_origin(headers: &HeaderMap) -> Result<(), ApiError> {
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
    let id = game_id(&id)?;
    // Issue 37: a place among the visitor's sockets, and their shared message budget.
    let permit = state.sockets.open(
        visitor.identity.name(),
        Scope::Game(id.as_str().to_owned()),
        now_ms(),
    )?;
    let handle = match state.live.get(&id) {
        Some(handle) => Some(handle),
        // On a cluster, a live game that no live node serves is taken over here.
        None => state.live.take_over(&state, &id).await?,
    };
    // A game without an actor is over: read it once here (its row and record, not its
    // actions), for the 404 and for the socket.
    let stored = match handle {
        Some(_) => None,
        None => Some(
            state
                .store
                .game_summary(id.as_str())
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

/// `GET /api/v1/lobby/socket`; `?notices`: the visitor's own notices only (a game of theirs
/// in a tournament), for every page of the site: no seeks, and not being in the lobby (a
/// seek does not live on it).
pub async fn lobby_socket(
    State(state): State<Arc<AppState>>,
    Extension(visitor): Extension<Visitor>,
    RawQuery(query): RawQuery,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Result<Response, ApiError> {
    same_origin(&headers)?;
    let notices = match query.as_deref() {
        None | Some("") => false,
        Some("notices") => true,
        Some(other) => {
            return Err(ApiError::field("notices", format!("?notices or nothing, not {other:?}")))
        }
    };
    // Issue 37: a place among the visitor's sockets, and their shared message budget.
    let scope = if notices { Scope::Notices } else { Scope::Lobby };
    let permit = state.sockets.open(visitor.identity.name(), scope, now_ms())?;
    Ok(ws
        .max_message_size(MAX_FRAME)
        .max_frame_size(MAX_FRAME)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let name = visitor.identity.name();
            let mut conn = Connection::new(socket, state.clone(), permit);
            if notices {
                conn.notices(name).await;
                return;
            }
            state.lobby.enter(name);
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
    /// When the client last sent a message, Unix ms.
    heard_ms: u64,
}

/// What came in on a socket.
enum Incoming {
    /// A text message, read (or refused with the error to send).
    Message(Result<ClientMessage, ProtocolError>),
    /// Anything else that keeps the connection open (pong, ping, a refused frame).
    Nothing,
}

/// The close code RFC 6455 gives a failed read, if it has one: 1009 for a frame or message
/// over the limit, 1007 for text that is not UTF-8, 1002 for a broken frame.
fn close_code_for(error: axum::Error) -> Option<u16> {
    let inner = error.into_inner();
    match inner.downcast_ref::<tungstenite::Error>()? {
        tungstenite::Error::Capacity(_) => Some(close_code::SIZE),
        tungstenite::Error::Utf8(_) => Some(close_code::INVALID),
        tungstenite::Error::Protocol(_) => Some(close_code::PROTOCOL),
        _ => None,
    }
}

impl Connection {
    fn new(socket: WebSocket, state: Arc<AppState>, permit: SocketPermit) -> Connection {
        Connection { socket, state, permit, lag_ms: 0, heard_ms: now_ms() }
    }

    async fn send(&mut self, msg: &ServerMessage) -> bool {
        self.send_text(&msg.to_text()).await
    }

    async fn send_text(&mut self, text: &str) -> bool {
        self.socket.send(Message::Text(Utf8Bytes::from(text))).await.is_ok()
    }

    fn on_pong(&mut self, payload: &[u8]) {
        if let Ok(bytes) = <[u8; 8]>::try_from(payload) {
            let sent = u64::from_le_bytes(bytes);
            let rtt = now_ms().saturating_sub(sent).min(4_000);
            let one_way = rtt / 2;
            self.lag_ms = if self.lag_ms == 0 { one_way } else { (self.lag_ms * 3 + one_way) / 4 };
        }
    }

    /// The one gate every client text message passes before it is read: its size, and the
    /// connection's message rate. (A per-visitor limit belongs here too.)
    fn admit(&mut self, text: &str) -> Result<(), ProtocolError> {
        if text.len() > MAX_MESSAGE {
            return Err(ProtocolError::TooLarge { max: MAX_MESSAGE });
        }
        if !self.permit.take_message(now_ms()) {
            return Err(ProtocolError::RateLimited);
        }
        Ok(())
    }

    /// The next thing from the client; `None` when the connection is over (closed by the
    /// client, or failed: then closed here with the code that says why).
    async fn receive(&mut self) -> Option<Incoming> {
        match self.socket.recv().await? {
            Ok(Message::Text(text)) => {
                self.heard_ms = now_ms();
                Some(Incoming::Message(self.admit(text.as_str()).and_then(|()| {
                    ClientMessage::parse(text.as_str()).map_err(ProtocolError::Parse)
                })))
            }
            Ok(Message::Binary(_)) => Some(Incoming::Message(Err(ProtocolError::Binary))),
            Ok(Message::Pong(payload)) => {
                self.on_pong(&payload);
                Some(Incoming::Nothing)
            }
            Ok(Message::Ping(_)) => Some(Incoming::Nothing),
            Ok(Message::Close(_)) => None,
            Err(e) => {
                if let Some(code) = close_code_for(e) {
                    let reason = match code {
                        close_code::SIZE => "frame too large: at most 64 KiB",
                        close_code::INVALID => "text frames must be UTF-8",
                        _ => "protocol error",
                    };
                    let frame = CloseFrame { code, reason: reason.into() };
                    let _ = self.socket.send(Message::Close(Some(frame))).await;
                }
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
            match self.state.store.game_summary(meta.id.as_str()).await {
                Ok(Some(stored)) => return self.watch_finished(&stored, visitor).await,
                _ => {
                    let _ = self
                        .send(&ServerMessage::Rejected { refusal: Refusal::GameOver, ply: None })
                        .await;
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
        let mut watchdog = tokio::time::interval(Duration::from_secs(1));
        loop {
            tokio::select! {
                incoming = self.receive() => match incoming {
                    None => break,
                    Some(Incoming::Nothing) => {}
                    Some(Incoming::Message(Err(e))) => { self.send(&ServerMessage::Error(e)).await; }
                    Some(Incoming::Message(Ok(msg))) => self.on_game_message(&handle, seat, msg).await,
                },
                update = updates.recv() => match update {
                    Ok(text) => if !self.send_text(&text).await { break },
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        // Too slow to follow: start again from the full state.
                        match handle.snapshot().await {
                            Some(game) => if !self.send(&ServerMessage::State { game: Box::new(game) }).await { break },
                            None => break,
                        }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = ping.tick() => {
                    let stamp = now_ms().to_le_bytes().to_vec();
                    if self.socket.send(Message::Ping(stamp.into())).await.is_err() { break }
                }
                _ = watchdog.tick() => {
                    if now_ms().saturating_sub(self.heard_ms) > SILENT_AFTER_MS {
                        tracing::debug!(game = %meta.id, "socket silent: closed");
                        break;
                    }
                }
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
        handle.send(Command::Leave { seat }).await;
    }

    async fn on_game_message(&mut self, handle: &GameHandle, seat: Seat, msg: ClientMessage) {
        let received_ms = now_ms();
        let (reply, rx) = oneshot::channel();
        let command = match (msg, seat) {
            (ClientMessage::Ping, _) => {
                self.send(&ServerMessage::Pong { server_ms: now_ms() }).await;
                return;
            }
            (ClientMessage::Sync, _) => {
                if let Some(game) = handle.snapshot().await {
                    self.send(&ServerMessage::State { game: Box::new(game) }).await;
                }
                return;
            }
            (ClientMessage::Act { ply, .. }, Seat::Spectator) => {
                self.send(&ServerMessage::Rejected { refusal: Refusal::Spectator, ply }).await;
                return;
            }
            (ClientMessage::ClaimAbandoned { .. }, Seat::Spectator) => {
                self.send(&ServerMessage::Rejected { refusal: Refusal::Spectator, ply: None })
                    .await;
                return;
            }
            (ClientMessage::Act { action, ply }, Seat::Player(by)) => {
                Command::Act { by, action, ply, lag_ms: self.lag_ms, received_ms, reply }
            }
            (ClientMessage::ClaimAbandoned { draw }, Seat::Player(by)) => {
                Command::ClaimAbandoned { by, draw, reply }
            }
        };
        if !handle.send(command).await {
            self.send(&ServerMessage::Rejected { refusal: Refusal::GameOver, ply: None }).await;
            return;
        }
        if let Ok(Some(rejected)) = rx.await {
            self.send(&rejected).await;
        }
    }

    /// A game no actor holds: send it, then answer `ping` and `sync` until the client leaves.
    async fn watch_finished(&mut self, stored: &GameSummary, visitor: &Visitor) {
        let game = match stored_game_view(&self.state, stored).await {
            Ok(game) => Box::new(game),
            Err(e) => {
                tracing::error!(game = %stored.id, error = %e, "cannot show a stored game");
                return;
            }
        };
        let you = if visitor.identity.is(&stored.white) {
            Some(Color::White)
        } else if visitor.identity.is(&stored.black) {
            Some(Color::Black)
        } else {
            None
        };
        if !self.send(&ServerMessage::Hello { you, game: game.clone() }).await {
            return;
        }
        let mut closing = self.state.closing.subscribe();
        loop {
            tokio::select! {
                incoming = self.receive() => match incoming {
                    None => break,
                    Some(Incoming::Nothing) => {}
                    Some(Incoming::Message(Err(e))) => { self.send(&ServerMessage::Error(e)).await; }
                    Some(Incoming::Message(Ok(ClientMessage::Ping))) => {
                        self.send(&ServerMessage::Pong { server_ms: now_ms() }).await;
                    }
                    Some(Incoming::Message(Ok(ClientMessage::Sync))) => {
                        self.send(&ServerMessage::State { game: game.clone() }).await;
                    }
                    Some(Incoming::Message(Ok(_))) => {
                        self.send(&ServerMessage::Rejected { refusal: Refusal::GameOver, ply: None }).await;
                    }
                },
                _ = closing.changed() => break,
            }
        }
    }

    /// Answers what the lobby or notices socket read: only `ping` is spoken there (the game
    /// messages are of the game socket). `false` once the socket has closed.
    async fn answer_ping_only(&mut self, incoming: Option<Incoming>) -> bool {
        match incoming {
            None => return false,
            Some(Incoming::Nothing) => {}
            Some(Incoming::Message(Err(e))) => {
                self.send(&ServerMessage::Error(e)).await;
            }
            Some(Incoming::Message(Ok(ClientMessage::Ping))) => {
                self.send(&ServerMessage::Pong { server_ms: now_ms() }).await;
            }
            Some(Incoming::Message(Ok(other))) => {
                let t = other.name().to_owned();
                let unknown = ProtocolError::Parse(ParseError::UnknownType(t));
                self.send(&ServerMessage::Error(unknown)).await;
            }
        }
        true
    }

    /// The notices socket: the lobby's messages addressed to this visitor by name.
    async fn notices(&mut self, name: &str) {
        let mut events = self.state.lobby.events.subscribe();
        let mut closing = self.state.closing.subscribe();
        loop {
            tokio::select! {
                incoming = self.receive() => if !self.answer_ping_only(incoming).await { break },
                event = events.recv() => match event {
                    Ok(m) => if m.audience.is_some() && m.is_for(name) && !self.send_text(&m.text).await { break },
                    // Missed notices: the pages find a player's game from the tournament's view.
                    Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
    }

    async fn lobby(&mut self, name: &str) {
        let mut events = self.state.lobby.events.subscribe();
        let seeks = self.state.lobby.visible(name);
        if !self.send(&ServerMessage::Seeks { seeks }).await {
            return;
        }
        let mut closing = self.state.closing.subscribe();
        let mut tick = tokio::time::interval(Duration::from_secs(10));
        loop {
            tokio::select! {
                incoming = self.receive() => if !self.answer_ping_only(incoming).await { break },
                event = events.recv() => match event {
                    Ok(m) => if m.is_for(name) && !self.send_text(&m.text).await { break },
                    Err(broadcast::error::RecvError::Lagged(_)) => {
                        let seeks = self.state.lobby.visible(name);
                        if !self.send(&ServerMessage::Seeks { seeks }).await { break }
                    }
                    Err(broadcast::error::RecvError::Closed) => break,
                },
                _ = tick.tick() => {
                    let games = self.state.live.len();
                    if !self.send(&ServerMessage::Live { games }).await { break }
                }
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
    }
}
