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
use rookery_cluster::{RemoteGame, RemoteUpdate, ALIVE_EVERY};
use rookery_core::Color;
use rookery_store::{GameSummary, Player};
use tokio::sync::broadcast;

use crate::api::{game_id, stored_game_view};
use crate::clock::now_ms;
use crate::error::ApiError;
use crate::identity::Visitor;
use crate::live::{locate, GameHandle, Located, Seat};
use crate::protocol::{ClientMessage, GameId, ParseError, ProtocolError, Refusal, ServerMessage};
use crate::sockets::{Scope, SocketPermit};
use crate::state::AppState;

/// A message larger than this closes the connection (close code 1009). Checked here, not by
/// tungstenite, for messages up to [`MAX_READ`]: a read tungstenite refuses ends its stream
/// for good, so the client's answer to the close frame could not be read, and the connection
/// was dropped at once; the client's answer then met a closed socket, and Chromium, loaded,
/// lost the 1009 to the reset (issue 51: 1006 for a 70 KiB message, CI, now and then).
pub(crate) const MAX_FRAME: usize = 64 * 1024;
/// tungstenite's limit on a frame and on a message: one up to this size is read whole even
/// when it is refused for being over [`MAX_FRAME`], the reader stays in step with the stream,
/// reads the client's answer to the close frame, and the close is clean. A larger one is
/// refused by tungstenite (the close then best effort: [`close_after`]).
pub(crate) const MAX_READ: usize = 4 * MAX_FRAME;
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
/// How long a socket the server closes waits for the client's close frame.
const CLOSE_WAIT: Duration = Duration::from_secs(2);
/// The close code of a game socket silent for [`SILENT_AFTER_MS`] (RFC 6455: 1008, a policy
/// broken; docs/protocol.md, "Silence").
const SILENT_CLOSE: u16 = close_code::POLICY;
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
    let located = locate(&state.live, &id).await?;
    // A game without an actor here or elsewhere is over; a relayed game's players are read
    // from its row. Read once here (its row and record, not its actions), for the 404 and for
    // the socket.
    let stored = match located {
        Located::Here(_) => None,
        Located::Elsewhere | Located::Over => Some(
            state
                .store
                .game_summary(id.as_str())
                .await?
                .ok_or_else(|| ApiError::NotFound(format!("game {id:?}")))?,
        ),
    };
    Ok(ws
        .max_message_size(MAX_READ)
        .max_frame_size(MAX_READ)
        .read_buffer_size(READ_BUFFER)
        .on_upgrade(move |socket| async move {
            let mut conn = Connection::new(socket, state.clone(), permit);
            match (located, stored) {
                (Located::Here(handle), _) => {
                    let seat = seat_of(&visitor, &handle.meta.white, &handle.meta.black);
                    conn.play_here(handle, seat, &visitor).await
                }
                (Located::Elsewhere, Some(stored)) => {
                    let seat = seat_of(&visitor, &stored.white, &stored.black);
                    conn.play_elsewhere(&id, seat, &visitor).await
                }
                (Located::Over, Some(stored)) => conn.watch_finished(&stored, &visitor).await,
                _ => {}
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
        .max_message_size(MAX_READ)
        .max_frame_size(MAX_READ)
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
    /// The close code of a frame [`receive`](Connection::receive) refused, for the loop's end.
    refused: Option<u16>,
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

/// Closes `socket` with `code`, then waits (at most [`CLOSE_WAIT`]) for the client's close
/// frame, reading and dropping what it still sends (RFC 6455 §7.1.1: the server closes the
/// connection after the client's reply). Dropped at once instead, a connection with the
/// client's bytes unread is reset, and a client that had not read the close frame yet loses
/// it: it saw 1006, not the code that says why (issue 51).
async fn close(socket: &mut WebSocket, code: u16, reason: &'static str) {
    if send_close(socket, code, reason).await {
        await_close(socket).await;
    }
}

/// Closes `socket` after a failed read, with the code RFC 6455 gives its cause if it has one
/// (1009, 1007, 1002). Best effort: tungstenite's stream has ended, so the client's answer
/// cannot be read, and the connection is dropped once the close frame is sent.
pub(crate) async fn close_after(socket: &mut WebSocket, error: axum::Error) {
    if let Some(code) = close_code_for(error) {
        refuse(socket, code).await;
    }
}

/// Closes `socket` with a refusal's code (1009, 1007, 1002) and its reason, then waits for
/// the client's answer ([`close`]).
pub(crate) async fn refuse(socket: &mut WebSocket, code: u16) {
    close(socket, code, refusal_reason(code)).await;
}

/// Whether a message read is over [`MAX_FRAME`], to be refused with 1009 (tungstenite reads
/// it whole up to [`MAX_READ`], so the close that follows is clean).
pub(crate) fn too_large(message: &Message) -> bool {
    match message {
        Message::Text(text) => text.len() > MAX_FRAME,
        Message::Binary(bytes) => bytes.len() > MAX_FRAME,
        _ => false,
    }
}

/// The reason sent with the close code of a failed read ([`close_code_for`]).
fn refusal_reason(code: u16) -> &'static str {
    match code {
        close_code::SIZE => "message too large: at most 64 KiB",
        close_code::INVALID => "text frames must be UTF-8",
        _ => "protocol error",
    }
}

/// Sends a close frame: `false` if the connection is gone.
async fn send_close(socket: &mut WebSocket, code: u16, reason: &'static str) -> bool {
    let frame = CloseFrame { code, reason: reason.into() };
    socket.send(Message::Close(Some(frame))).await.is_ok()
}

/// The next tick of `interval`; never, without one.
async fn tick(interval: Option<&mut tokio::time::Interval>) {
    match interval {
        Some(interval) => {
            interval.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// Waits (at most [`CLOSE_WAIT`]) for the client's answer to a close frame sent, reading on
/// past what it sent before it. Dropped before the client had read the close frame, the
/// connection would be reset with the client's bytes unread, and Chromium reported 1006
/// instead of 1009 (issue 51). After a read tungstenite failed, its stream has ended and
/// this returns at once: why messages over the limit are refused here, not by tungstenite.
async fn await_close(socket: &mut WebSocket) {
    let _ = tokio::time::timeout(CLOSE_WAIT, async {
        while let Some(read) = socket.recv().await {
            if let Ok(Message::Close(_)) = read {
                return;
            }
        }
    })
    .await;
}

impl Connection {
    fn new(socket: WebSocket, state: Arc<AppState>, permit: SocketPermit) -> Connection {
        Connection { socket, state, permit, lag_ms: 0, heard_ms: now_ms(), refused: None }
    }

    async fn send(&mut self, msg: &ServerMessage) -> bool {
        self.send_text(&msg.to_text()).await
    }

    async fn send_text(&mut self, text: &str) -> bool {
        self.socket.send(Message::Text(Utf8Bytes::from(text))).await.is_ok()
    }

    /// Closes the socket with `code`, then waits for the client's close frame ([`close`]).
    async fn close(&mut self, code: u16, reason: &'static str) {
        close(&mut self.socket, code, reason).await;
    }

    /// After a loop that [`receive`](Connection::receive)d a frame it refused: the close
    /// with the code that says why, outside the loop's `select!`.
    async fn close_refused(&mut self) {
        if let Some(code) = self.refused.take() {
            refuse(&mut self.socket, code).await;
        }
    }

    /// Sends a close frame: `false` if the connection is gone.
    async fn send_close(&mut self, code: u16, reason: &'static str) -> bool {
        send_close(&mut self.socket, code, reason).await
    }

    /// Waits for the client's answer to a close frame sent ([`await_close`]).
    async fn await_close(&mut self) {
        await_close(&mut self.socket).await;
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
            Ok(message) if too_large(&message) => {
                self.refused = Some(close_code::SIZE);
                None
            }
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
            // Closed after the loop that asked, not here: this future is one branch of a
            // `select!`, and a message to the client winning the race would drop the close
            // half done (a text frame after the close frame, the connection dropped with the
            // client's bytes unread: Chromium saw 1006 for 1009, loaded, in CI).
            Err(e) => {
                self.refused = close_code_for(e);
                None
            }
        }
    }

    /// A game this node serves: joined through its actor.
    async fn play_here(&mut self, handle: GameHandle, seat: Seat, visitor: &Visitor) {
        let id = handle.meta.id.clone();
        if let Some((feed, hello)) = join_here(handle, seat, &self.state).await {
            return self.play(feed, seat, &hello).await;
        }
        // The actor ended between the lookup and the join: the game ended (it is in storage
        // now), or on a cluster it was handed to another node just then.
        match locate(&self.state.live, &id).await {
            Ok(Located::Here(moved)) => match join_here(moved, seat, &self.state).await {
                Some((feed, hello)) => self.play(feed, seat, &hello).await,
                None => self.watch_stored(&id, visitor).await,
            },
            Ok(Located::Elsewhere) => self.play_elsewhere(&id, seat, visitor).await,
            Ok(Located::Over) | Err(_) => self.watch_stored(&id, visitor).await,
        }
    }

    /// A game another node serves (issue 39): joined through the relay. A join that finds no
    /// owner (the game moved between the look and the join, or its owner just died) looks
    /// again, a few times, before the socket is closed for the client to connect again.
    async fn play_elsewhere(&mut self, id: &GameId, seat: Seat, visitor: &Visitor) {
        let relay = self.state.relay.clone();
        for attempt in 0..5u32 {
            if attempt > 0 {
                tokio::time::sleep(Duration::from_millis(100 * u64::from(attempt))).await;
                match locate(&self.state.live, id).await {
                    Ok(Located::Here(handle)) => {
                        if let Some((feed, hello)) = join_here(handle, seat, &self.state).await {
                            return self.play(feed, seat, &hello).await;
                        }
                    }
                    Ok(Located::Over) => return self.watch_stored(id, visitor).await,
                    Ok(Located::Elsewhere) | Err(_) => {}
                }
            }
            match relay.join(id, seat.into()).await {
                Ok((hello, game)) => return self.play(Feed::Elsewhere(game), seat, &hello).await,
                Err(e) => {
                    tracing::debug!(game = %id, error = %e, attempt, "cannot join a game served elsewhere")
                }
            }
        }
        // Its owner is gone: the client connects again, and the game is taken over.
        self.close(close_code::AGAIN, "connect again").await;
    }

    /// A game that ended after the socket found it live: shown from storage.
    async fn watch_stored(&mut self, id: &GameId, visitor: &Visitor) {
        match self.state.store.game_summary(id.as_str()).await {
            Ok(Some(stored)) => self.watch_finished(&stored, visitor).await,
            _ => {
                let _ = self
                    .send(&ServerMessage::Rejected { refusal: Refusal::GameOver, ply: None })
                    .await;
            }
        }
    }

    /// The game socket's loop, wherever the game is served.
    async fn play(&mut self, mut feed: Feed, seat: Seat, hello: &str) {
        if !self.send_text(hello).await {
            feed.leave(seat).await;
            return;
        }
        let mut closing = self.state.closing.subscribe();
        let mut ping = tokio::time::interval(PING_EVERY);
        // Only a relayed game asks whether its owner still answers; a game served here is.
        let mut alive = feed.relayed().then(|| tokio::time::interval(ALIVE_EVERY));
        // One deadline for the client's silence, put off as it is heard from, not a tick every
        // second: the timers of 18,000 sockets were more wake-ups than moves (issue 56).
        let silence = tokio::time::sleep(Duration::from_millis(SILENT_AFTER_MS));
        tokio::pin!(silence);
        // The game moved, or its owner no longer answers: the client connects again, and
        // finds where the game is served now (api.md, "several nodes").
        let again = (close_code::AGAIN, "connect again");
        let mut close = None;
        loop {
            tokio::select! {
                incoming = self.receive() => match incoming {
                    None => break,
                    Some(Incoming::Nothing) => {}
                    Some(Incoming::Message(Err(e))) => { self.send(&ServerMessage::Error(e)).await; }
                    Some(Incoming::Message(Ok(msg))) => {
                        match feed.answer(seat, msg, self.lag_ms, now_ms()).await {
                            Ok(Some(text)) => { self.send_text(&text).await; }
                            Ok(None) => {}
                            Err(()) => { close = Some(again); break }
                        }
                    }
                },
                update = feed.next() => match update {
                    Update::Text(text) => if !self.send_text(&text).await { break },
                    // Too slow to follow, or messages lost: start again from the full state.
                    Update::Behind => match feed.answer(seat, ClientMessage::Sync, 0, now_ms()).await {
                        Ok(Some(state)) => if !self.send_text(&state).await { break },
                        _ => { close = Some(again); break }
                    },
                    Update::Ended => { close = Some(again); break }
                },
                _ = ping.tick() => {
                    let stamp = now_ms().to_le_bytes().to_vec();
                    if self.socket.send(Message::Ping(stamp.into())).await.is_err() { break }
                }
                _ = tick(alive.as_mut()) => if !feed.alive().await { close = Some(again); break },
                () = &mut silence => {
                    let now = now_ms();
                    // This node was stopped (issue 51): the client's silence meanwhile is
                    // the node's, and the client is given its time again.
                    self.heard_ms = crate::clock::silence_counts_from(self.heard_ms, now);
                    let silent_for = now.saturating_sub(self.heard_ms);
                    if silent_for > SILENT_AFTER_MS {
                        tracing::debug!("game socket silent: closed");
                        close = Some((SILENT_CLOSE, "silent for 8 s"));
                        break;
                    }
                    let left = SILENT_AFTER_MS + 1 - silent_for;
                    silence.as_mut().reset(tokio::time::Instant::now() + Duration::from_millis(left));
                }
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
        // Told first, then the game is left (a relayed leave may wait for a stopped owner),
        // then the client's answer awaited.
        if let Some(code) = self.refused.take() {
            close = Some((code, refusal_reason(code)));
        }
        let told = match close {
            Some((code, reason)) => self.send_close(code, reason).await,
            None => false,
        };
        feed.leave(seat).await;
        if told {
            self.await_close().await;
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
        self.close_refused().await;
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
        self.close_refused().await;
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
                    let games = self.state.live.count_everywhere().await;
                    if !self.send(&ServerMessage::Live { games }).await { break }
                }
                _ = closing.changed() => {
                    let _ = self.socket.send(Message::Close(None)).await;
                    break;
                }
            }
        }
        self.close_refused().await;
    }
}

/// Joins the actor of `handle` as `seat`: the socket's feed and its `hello`; `None` if the
/// actor has ended.
async fn join_here(handle: GameHandle, seat: Seat, state: &AppState) -> Option<(Feed, String)> {
    let relay = state.relay.clone();
    let joined = GameHandle::join(&handle, seat).await?;
    Some((Feed::Here { handle, updates: joined.updates, relay }, joined.hello.to_text()))
}

/// The seat of `visitor` in a game between `white` and `black`.
fn seat_of(visitor: &Visitor, white: &Player, black: &Player) -> Seat {
    if visitor.identity.is(white) {
        Seat::Player(Color::White)
    } else if visitor.identity.is(black) {
        Seat::Player(Color::Black)
    } else {
        Seat::Spectator
    }
}

/// A game socket's source of messages: the actor on this node, or the relay from the node
/// that serves the game.
enum Feed {
    Here {
        handle: GameHandle,
        updates: broadcast::Receiver<Arc<str>>,
        /// On a cluster, for the count of actions that needed no relay.
        relay: Arc<dyn rookery_cluster::Relay>,
    },
    Elsewhere(RemoteGame),
}

/// The next thing a game socket sends.
enum Update {
    Text(Arc<str>),
    /// Messages were missed: the full state follows.
    Behind,
    /// The game's actor ended (or its node is gone).
    Ended,
}

impl Feed {
    /// Cancel safe: nothing is lost when another branch of the socket's loop goes first.
    async fn next(&mut self) -> Update {
        match self {
            Feed::Here { updates, .. } => match updates.recv().await {
                Ok(text) => Update::Text(text),
                Err(broadcast::error::RecvError::Lagged(_)) => Update::Behind,
                Err(broadcast::error::RecvError::Closed) => Update::Ended,
            },
            Feed::Elsewhere(game) => match game.next().await {
                RemoteUpdate::Text(text) => Update::Text(Arc::from(text)),
                RemoteUpdate::Gap => Update::Behind,
                RemoteUpdate::Ended => Update::Ended,
            },
        }
    }

    /// What to send the client after its message; `Err` when the game is out of reach.
    async fn answer(
        &self,
        seat: Seat,
        msg: ClientMessage,
        lag_ms: u64,
        received_ms: u64,
    ) -> Result<Option<String>, ()> {
        match self {
            Feed::Here { handle, relay, .. } => {
                if let ClientMessage::Act { .. } = &msg {
                    relay.count_local_action();
                }
                let answer = GameHandle::answer(handle, seat, msg, lag_ms, received_ms).await;
                Ok(answer.map(|m| m.to_text()))
            }
            Feed::Elsewhere(_) if msg == ClientMessage::Ping => {
                Ok(Some(ServerMessage::Pong { server_ms: now_ms() }.to_text()))
            }
            Feed::Elsewhere(game) => game.send(&msg, lag_ms, received_ms).await.map_err(|e| {
                tracing::debug!(error = %e, "a relayed message found no owner: socket closed");
            }),
        }
    }

    /// Whether the game is served by another node, through the relay.
    fn relayed(&self) -> bool {
        matches!(self, Feed::Elsewhere(_))
    }

    /// Whether the game is still within reach.
    async fn alive(&self) -> bool {
        match self {
            Feed::Here { .. } => true,
            Feed::Elsewhere(game) => game.alive().await.is_ok(),
        }
    }

    async fn leave(self, seat: Seat) {
        match self {
            Feed::Here { handle, .. } => GameHandle::leave(&handle, seat).await,
            Feed::Elsewhere(game) => game.leave().await,
        }
    }
}
