//! One simulated pair of players, as a browser would be: visitors with their cookies, a seek
//! and its acceptance over HTTP (docs/api.md), then one WebSocket each (docs/protocol.md) on
//! which they think, move and time the round trip of every move.

use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::StatusCode;
use rookery_arbiter::MoveInput;
use rookery_core::{Color, Position};
use rookery_protocol::{ClientMessage, PlayerAction};
use serde_json::{json, Value};
use tokio::sync::watch;
use tokio::time::{sleep_until, Instant};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::tungstenite::Message;

use super::stats::Stats;
use super::ThinkTime;
use crate::socket::{act, frame, play, Ws};

/// A game with no move for this long is given up as stalled (a lost message).
const STALL: Duration = Duration::from_secs(30);
/// The sockets' read buffer: the server's messages are a few hundred bytes.
const READ_BUFFER: usize = 4 * 1024;
/// After a failure, wait this long before trying again.
const BACKOFF: Duration = Duration::from_secs(1);

/// What every player shares: the HTTP client, the server's address, the pacing, the counters.
pub struct Shared {
    /// One HTTP client (one keep-alive pool) for all visitors: cookies travel by hand.
    pub http: reqwest::Client,
    /// `http://HOST:PORT`.
    pub base: String,
    /// `ws://HOST:PORT`.
    pub ws_base: String,
    /// Where Black's game sockets connect: `ws_base`, or another node of a cluster.
    pub black_ws_base: String,
    /// The games' time control.
    pub time_control: String,
    /// Each player's think time per move.
    pub think: ThinkTime,
    /// Resign the games still running when the run stops (a server that is not ours).
    pub resign_on_stop: bool,
    /// The counters.
    pub stats: Stats,
}

/// Why a step failed: a short kind for the error table.
pub struct Failure(pub String);

/// An anonymous visitor: its cookies and CSRF token (docs/api.md, "Identity").
pub struct Visitor {
    cookie: HeaderValue,
    csrf: String,
}

impl Visitor {
    /// `GET /api/v1/account`: the server sets the visitor's cookies.
    pub async fn new(shared: &Shared) -> Result<Visitor, Failure> {
        let r = shared
            .http
            .get(format!("{}/api/v1/account", shared.base))
            .send()
            .await
            .map_err(http_failure)?;
        if r.status() != StatusCode::OK {
            return Err(Failure(format!("http:GET /api/v1/account {}", r.status().as_u16())));
        }
        let cookie = r
            .headers()
            .get_all(SET_COOKIE)
            .iter()
            .filter_map(|v| v.to_str().ok()?.split(';').next())
            .collect::<Vec<_>>()
            .join("; ");
        let me: Value = r.json().await.map_err(http_failure)?;
        let csrf = me["csrf"]
            .as_str()
            .ok_or_else(|| Failure("http:account without csrf".into()))?
            .to_owned();
        let cookie =
            HeaderValue::from_str(&cookie).map_err(|_| Failure("http:unreadable cookie".into()))?;
        Ok(Visitor { cookie, csrf })
    }

    async fn post(
        &self,
        shared: &Shared,
        path: &str,
        body: &Value,
        want: StatusCode,
    ) -> Result<Value, Failure> {
        let r = shared
            .http
            .post(format!("{}{path}", shared.base))
            .header(COOKIE, self.cookie.clone())
            .header("x-csrf-token", &self.csrf)
            .json(body)
            .send()
            .await
            .map_err(http_failure)?;
        if r.status() != want {
            let route = if path.ends_with("/accept") { "/api/v1/seeks/{id}/accept" } else { path };
            return Err(Failure(format!("http:POST {route} {}", r.status().as_u16())));
        }
        r.json().await.map_err(http_failure)
    }

    /// Opens the game's socket and waits for `hello`.
    async fn connect(&self, ws_base: &str, game: &str) -> Result<(Ws, Value), Failure> {
        let url = format!("{ws_base}/api/v1/games/{game}/socket");
        let mut request =
            url.into_client_request().map_err(|e| Failure(format!("ws:bad request: {e}")))?;
        request.headers_mut().insert(COOKIE, self.cookie.clone());
        // No Nagle: a move is one small frame and its latency is what is measured. A small read
        // buffer: tungstenite zero-fills the whole buffer before each read (128 KiB by default).
        let config = WebSocketConfig::default().read_buffer_size(READ_BUFFER);
        let (mut ws, _) = tokio_tungstenite::connect_async_with_config(request, Some(config), true)
            .await
            .map_err(|e| Failure(format!("ws:connect: {}", short(&e.to_string()))))?;
        let deadline = Instant::now() + STALL;
        loop {
            let msg = tokio::time::timeout_at(deadline, ws.next())
                .await
                .map_err(|_| Failure("ws:no hello".into()))?;
            let Some(Ok(Message::Text(text))) = msg else {
                if matches!(msg, Some(Ok(_))) {
                    continue;
                }
                return Err(Failure("ws:closed before hello".into()));
            };
            let v: Value =
                serde_json::from_str(text.as_str()).map_err(|_| Failure("ws:bad json".into()))?;
            if v["t"] == "hello" {
                return Ok((ws, v));
            }
        }
    }
}

fn http_failure(e: reqwest::Error) -> Failure {
    let what = if e.is_timeout() {
        "timeout"
    } else if e.is_connect() {
        "connect"
    } else {
        "transport"
    };
    Failure(format!("http:{what}"))
}

fn short(text: &str) -> &str {
    text.split(':').next().unwrap_or(text)
}

/// `white` opens a seek as White, `black` accepts it: the new game's id.
async fn create_game(shared: &Shared, white: &Visitor, black: &Visitor) -> Result<String, Failure> {
    let body = json!({ "time_control": shared.time_control, "rated": false, "rules": "casual", "color": "white" });
    let seek = white.post(shared, "/api/v1/seeks", &body, StatusCode::CREATED).await?;
    let id = seek["id"].as_str().ok_or_else(|| Failure("http:seek without id".into()))?;
    let game = black
        .post(shared, &format!("/api/v1/seeks/{id}/accept"), &Value::Null, StatusCode::CREATED)
        .await?;
    Ok(game["game"].as_str().ok_or_else(|| Failure("http:accept without game".into()))?.to_owned())
}

/// Two fresh visitors and a game between them, no socket open yet: an idle live game.
pub async fn idle_game(shared: &Shared) -> Result<(Visitor, Visitor, String), Failure> {
    let white = Visitor::new(shared).await?;
    let black = Visitor::new(shared).await?;
    let id = create_game(shared, &white, &black).await?;
    Ok((white, black, id))
}

/// Both players of game `id` connect (each has had its `hello`).
pub async fn connect_pair(
    shared: &Shared,
    white: &Visitor,
    black: &Visitor,
    id: &str,
) -> Result<(Ws, Ws), Failure> {
    let ((w, _), (b, _)) = tokio::try_join!(
        white.connect(&shared.ws_base, id),
        black.connect(&shared.black_ws_base, id)
    )?;
    Ok((w, b))
}

/// Resolves when the run stops.
async fn stopped(stop: &mut watch::Receiver<bool>) {
    let _ = stop.wait_for(|s| *s).await;
}

/// How often a socket says `ping` when it has nothing else to say, as the browser does: the
/// server closes a game socket silent for 8 s (docs/protocol.md, "Silence").
const KEEPALIVE: Duration = Duration::from_millis(2500);

/// Reads a socket until it closes (the library answers the server's pings), pinging as the
/// browser does.
pub async fn drain(mut ws: Ws) {
    let mut keepalive = tokio::time::interval(KEEPALIVE);
    loop {
        tokio::select! {
            msg = ws.next() => if !matches!(msg, Some(Ok(_))) { break },
            _ = keepalive.tick() => {
                if ws.send(frame(&ClientMessage::Ping)).await.is_err() { break }
            }
        }
    }
}

/// One slot of the load: after `start_after`, two visitors play game after game until `stop`.
pub async fn run_slot(shared: Arc<Shared>, start_after: Duration, mut stop: watch::Receiver<bool>) {
    tokio::select! {
        () = tokio::time::sleep(start_after) => {}
        () = stopped(&mut stop) => return,
    }
    let mut rng = fastrand::Rng::new();
    let mut visitors = None;
    while !*stop.borrow() {
        let step = async {
            let (white, black) = match visitors.take() {
                Some(v) => v,
                None => (Visitor::new(&shared).await?, Visitor::new(&shared).await?),
            };
            let result = async {
                let id = create_game(&shared, &white, &black).await?;
                let (w, b) = tokio::try_join!(
                    white.connect(&shared.ws_base, &id),
                    black.connect(&shared.black_ws_base, &id)
                )?;
                shared.stats.started.fetch_add(1, Ordering::Relaxed);
                Ok::<_, Failure>((w, b))
            }
            .await;
            visitors = Some((white, black));
            result
        };
        let sockets = tokio::select! {
            r = step => r,
            () = stopped(&mut stop) => return,
        };
        match sockets {
            Ok(((w, hello_w), (b, hello_b))) => {
                shared.stats.live.fetch_add(1, Ordering::Relaxed);
                let ending = Board::new(&shared, [w, b], [&hello_w, &hello_b], &mut rng)
                    .play(&shared, &mut stop)
                    .await;
                shared.stats.live.fetch_sub(1, Ordering::Relaxed);
                match ending {
                    Ending::Over => {
                        shared.stats.finished.fetch_add(1, Ordering::Relaxed);
                    }
                    Ending::Stopped => return,
                    Ending::Broken(Failure(kind)) => {
                        shared.stats.error(kind);
                        tokio::time::sleep(BACKOFF).await;
                    }
                }
            }
            Err(Failure(kind)) => {
                shared.stats.error(kind);
                tokio::time::sleep(BACKOFF).await;
            }
        }
    }
}

enum Ending {
    /// Mate, a draw rule: the game is over.
    Over,
    /// The run ended.
    Stopped,
    /// A socket closed or the game stalled.
    Broken(Failure),
}

/// One player's side of the game: its socket and the last position it was told.
struct Seat {
    ws: Ws,
    color: Color,
    ply: u64,
    fen: String,
    /// When this seat last sent a frame: it says `ping` only after [`KEEPALIVE`] of silence.
    sent: Instant,
}

/// A move sent and not yet seen back on the mover's socket.
struct Pending {
    ply: u64,
    sent: Instant,
}

/// Two players of one game, each acting on what its own socket says.
struct Board<'r> {
    seats: [Seat; 2],
    /// Each seat's move in flight.
    pending: [Option<Pending>; 2],
    /// When the side to move will have thought enough, and who it is.
    wake: Option<(Instant, Color)>,
    think: super::ThinkTime,
    rng: &'r mut fastrand::Rng,
}

impl<'r> Board<'r> {
    fn new(
        shared: &Shared,
        [w, b]: [Ws; 2],
        hellos: [&Value; 2],
        rng: &'r mut fastrand::Rng,
    ) -> Board<'r> {
        let seat = |ws, color, hello: &Value| Seat {
            ws,
            color,
            ply: hello["game"]["ply"].as_u64().unwrap_or(0),
            fen: hello["game"]["fen"].as_str().unwrap_or_default().to_owned(),
            sent: Instant::now(),
        };
        let mut board = Board {
            seats: [seat(w, Color::White, hellos[0]), seat(b, Color::Black, hellos[1])],
            pending: [None, None],
            wake: None,
            think: shared.think,
            rng,
        };
        for i in 0..2 {
            board.maybe_think(i);
        }
        board
    }

    /// If seat `i` is to move in the position it knows and nothing is under way, it starts
    /// thinking.
    fn maybe_think(&mut self, i: usize) {
        let seat = &self.seats[i];
        let to_move = match seat.fen.split(' ').nth(1) {
            Some("w") => Color::White,
            Some("b") => Color::Black,
            _ => return,
        };
        if to_move == seat.color && self.pending[i].is_none() && self.wake.is_none() {
            let ms = self.rng.u64(self.think.lo_ms..=self.think.hi_ms);
            self.wake = Some((Instant::now() + Duration::from_millis(ms), seat.color));
        }
    }

    async fn play(mut self, shared: &Shared, stop: &mut watch::Receiver<bool>) -> Ending {
        let mut last_progress = Instant::now();
        let ending = loop {
            // As the browser does (web/js/socket.js): a seat pings when it has sent nothing
            // for KEEPALIVE, not every KEEPALIVE whatever it sent.
            let keepalive_at = self.seats[0].sent.min(self.seats[1].sent) + KEEPALIVE;
            let wake_at =
                self.wake.map_or(last_progress + STALL, |(at, _)| at.min(last_progress + STALL));
            let [white, black] = &mut self.seats;
            let (i, msg) = tokio::select! {
                m = white.ws.next() => (0, m),
                m = black.ws.next() => (1, m),
                () = sleep_until(wake_at) => {
                    if last_progress.elapsed() >= STALL {
                        break Ending::Broken(Failure("stalled: no move for 30 s".into()));
                    }
                    if let Err(f) = self.send_move().await {
                        break Ending::Broken(f);
                    }
                    continue;
                }
                () = sleep_until(keepalive_at) => {
                    let now = Instant::now();
                    for seat in &mut self.seats {
                        if now.duration_since(seat.sent) >= KEEPALIVE {
                            if seat.ws.send(frame(&ClientMessage::Ping)).await.is_err() {
                                break;
                            }
                            seat.sent = now;
                        }
                    }
                    continue;
                }
                () = stopped(stop) => break Ending::Stopped,
            };
            let text = match msg {
                Some(Ok(Message::Text(text))) => text,
                Some(Ok(Message::Close(_))) | None => {
                    break Ending::Broken(Failure("ws:closed by the server".into()))
                }
                Some(Err(e)) => {
                    break Ending::Broken(Failure(format!("ws:{}", short(&e.to_string()))))
                }
                Some(Ok(_)) => continue,
            };
            let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else {
                break Ending::Broken(Failure("ws:bad json".into()));
            };
            match v["t"].as_str().unwrap_or("") {
                "move" => {
                    let ply = v["ply"].as_u64().unwrap_or(0);
                    if let Some(p) = &self.pending[i] {
                        if ply == p.ply + 1 {
                            shared.stats.record_move(p.sent.elapsed());
                            self.pending[i] = None;
                            last_progress = Instant::now();
                        }
                    }
                    self.learn(i, ply, &v["fen"]);
                }
                "hello" | "state" => {
                    let game = &v["game"];
                    if game["status"] != "live" {
                        break Ending::Over;
                    }
                    self.pending[i] = None;
                    self.learn(i, game["ply"].as_u64().unwrap_or(0), &game["fen"]);
                }
                "end" => break Ending::Over,
                t @ ("rejected" | "error") => {
                    shared.stats.error(format!("{t}:{}", v["code"].as_str().unwrap_or("?")));
                    // Start again from the server's state.
                    self.pending[i] = None;
                    self.wake = None;
                    if self.seats[i].ws.send(frame(&ClientMessage::Sync)).await.is_err() {
                        break Ending::Broken(Failure("ws:send failed".into()));
                    }
                    self.seats[i].sent = Instant::now();
                }
                _ => {}
            }
        };
        if matches!(ending, Ending::Stopped) && shared.resign_on_stop {
            let _ = self.seats[0].ws.send(frame(&act(PlayerAction::Resign, None))).await;
        }
        for seat in &mut self.seats {
            let _ = seat.ws.close(None).await;
        }
        ending
    }

    /// Seat `i` was told the position after `ply` moves.
    fn learn(&mut self, i: usize, ply: u64, fen: &Value) {
        let seat = &mut self.seats[i];
        if ply >= seat.ply {
            if let Some(fen) = fen.as_str() {
                seat.ply = ply;
                fen.clone_into(&mut seat.fen);
            }
        }
        self.maybe_think(0);
        self.maybe_think(1);
    }

    /// The thinker has thought: a random legal move of the position its socket last showed.
    async fn send_move(&mut self) -> Result<(), Failure> {
        let Some((_, color)) = self.wake.take() else { return Ok(()) };
        let i = if color == Color::White { 0 } else { 1 };
        let seat = &mut self.seats[i];
        let position = Position::from_fen(&seat.fen)
            .map_err(|e| Failure(format!("bad fen from the server: {e}")))?;
        let moves = position.legal_moves();
        if moves.is_empty() {
            // Mate or stalemate: the `end` message is on its way.
            return Ok(());
        }
        let mv = MoveInput::from(moves[self.rng.usize(..moves.len())]);
        // The hot path (thousands of moves a second): one small map and one string, as much
        // as JSON written by hand would cost.
        let msg = frame(&play(mv, seat.ply as usize));
        let sent = Instant::now();
        seat.ws.send(msg).await.map_err(|_| Failure("ws:send failed".into()))?;
        seat.sent = sent;
        self.pending[i] = Some(Pending { ply: seat.ply, sent });
        Ok(())
    }
}
