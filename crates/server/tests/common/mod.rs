//! The test harness: a real server on an ephemeral port over a temporary SQLite file, and
//! real HTTP and WebSocket clients with their own cookie jars.

#![allow(dead_code)]

pub mod tournament;

use std::net::{IpAddr, SocketAddr};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use reqwest::cookie::{CookieStore, Jar};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio::io::AsyncReadExt;
use tokio::net::TcpStream;
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A running server.
pub struct TestServer {
    pub addr: SocketAddr,
    pub data_dir: PathBuf,
    _dir: Option<tempfile::TempDir>,
    stop: Option<oneshot::Sender<()>>,
    task: Option<tokio::task::JoinHandle<()>>,
}

impl TestServer {
    /// A server over a fresh temporary database.
    pub async fn start() -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let data_dir = dir.path().to_path_buf();
        let mut server = TestServer::start_in(data_dir).await;
        server._dir = Some(dir);
        server
    }

    /// A server over the database in `data_dir`.
    pub async fn start_in(data_dir: PathBuf) -> TestServer {
        TestServer::start_at(data_dir, "127.0.0.1:0".parse().unwrap()).await
    }

    /// A server over the database in `data_dir` on `addr`.
    pub async fn start_at(data_dir: PathBuf, addr: SocketAddr) -> TestServer {
        TestServer::start_with(data_dir, addr, None).await
    }

    /// A server on `addr` over `database` (a URL), or the SQLite file in `data_dir`.
    pub async fn start_with(
        data_dir: PathBuf,
        addr: SocketAddr,
        database: Option<String>,
    ) -> TestServer {
        TestServer::start_full(data_dir, addr, database, rookery_server::Limits::default()).await
    }

    /// A server over a fresh temporary database with these limits.
    pub async fn start_limited(limits: rookery_server::Limits) -> TestServer {
        let dir = tempfile::tempdir().expect("temp dir");
        let data_dir = dir.path().to_path_buf();
        let mut server =
            TestServer::start_full(data_dir, "127.0.0.1:0".parse().unwrap(), None, limits).await;
        server._dir = Some(dir);
        server
    }

    /// A server on `addr` over `database` (or the SQLite file in `data_dir`) with `limits`.
    pub async fn start_full(
        data_dir: PathBuf,
        addr: SocketAddr,
        database: Option<String>,
        limits: rookery_server::Limits,
    ) -> TestServer {
        let config = rookery_server::Config {
            public_url: None,
            addr,
            data_dir: data_dir.clone(),
            database,
            limits,
            node: None,
        };
        let server = rookery_server::Server::bind(&config).await.expect("server binds");
        let addr = server.local_addr();
        let (stop, stopped) = oneshot::channel::<()>();
        let task = tokio::spawn(async move {
            server
                .run(async {
                    let _ = stopped.await;
                })
                .await
                .expect("server runs");
        });
        TestServer { addr, data_dir, _dir: None, stop: Some(stop), task: Some(task) }
    }

    /// Stops in order (live games store their clocks) and waits.
    pub async fn stop(mut self) -> Option<tempfile::TempDir> {
        if let Some(stop) = self.stop.take() {
            let _ = stop.send(());
        }
        if let Some(task) = self.task.take() {
            let _ = tokio::time::timeout(Duration::from_secs(10), task).await;
        }
        self._dir.take()
    }

    /// A handle on a server running elsewhere (another process), for the clients.
    pub fn remote(addr: SocketAddr) -> TestServer {
        TestServer { addr, data_dir: PathBuf::new(), _dir: None, stop: None, task: None }
    }

    pub fn url(&self, path: &str) -> String {
        format!("http://{}{}", self.addr, path)
    }
}

/// A browser: an HTTP client with a cookie jar and the CSRF token.
pub struct Client {
    pub http: reqwest::Client,
    pub jar: Arc<Jar>,
    pub base: String,
    pub addr: SocketAddr,
    pub csrf: String,
    /// The local address its connections come from (`None`: the system's choice).
    pub local: Option<IpAddr>,
}

impl Client {
    pub async fn new(server: &TestServer) -> Client {
        Client::new_from(server, None).await
    }

    /// A browser whose connections come from `local` (127.0.0.2 …: another client address
    /// on loopback).
    pub async fn new_at(server: &TestServer, local: &str) -> Client {
        Client::new_from(server, Some(local.parse().expect("an IP address"))).await
    }

    async fn new_from(server: &TestServer, local: Option<IpAddr>) -> Client {
        let jar = Arc::new(Jar::default());
        let http = reqwest::Client::builder()
            .cookie_provider(jar.clone())
            .local_address(local)
            // The server closes a connection idle for 10 s (issue 37); a client that keeps one
            // in its pool longer may send on it as it closes (hyper's IncompleteMessage).
            .pool_idle_timeout(std::time::Duration::from_secs(5))
            .build()
            .unwrap();
        let base = format!("http://{}", server.addr);
        let me: Value =
            http.get(format!("{base}/api/v1/account")).send().await.unwrap().json().await.unwrap();
        let csrf = me["csrf"].as_str().expect("csrf token").to_owned();
        Client { http, jar, base, addr: server.addr, csrf, local }
    }

    pub async fn get(&self, path: &str) -> (StatusCode, Value) {
        let r = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::String(text)))
    }

    pub async fn get_text(&self, path: &str) -> (StatusCode, String) {
        let r = self.http.get(format!("{}{path}", self.base)).send().await.unwrap();
        (r.status(), r.text().await.unwrap())
    }

    pub async fn post(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::POST, path, body).await
    }

    pub async fn put(&self, path: &str, body: Value) -> (StatusCode, Value) {
        self.send(reqwest::Method::PUT, path, body).await
    }

    async fn send(&self, method: reqwest::Method, path: &str, body: Value) -> (StatusCode, Value) {
        let r = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("x-csrf-token", &self.csrf)
            .json(&body)
            .send()
            .await
            .unwrap();
        let status = r.status();
        let text = r.text().await.unwrap();
        (status, serde_json::from_str(&text).unwrap_or(Value::Null))
    }

    pub async fn signup(&self, name: &str) -> Value {
        let (status, body) = self
            .post(
                "/api/v1/account/signup",
                json!({ "username": name, "password": "correct horse battery" }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
        body
    }

    /// Opens a seek and has `other` accept it; returns the game id.
    pub async fn seek_accepted_by(&self, other: &Client, body: Value) -> String {
        let (status, seek) = self.post("/api/v1/seeks", body).await;
        assert_eq!(status, StatusCode::CREATED, "{seek}");
        let id = seek["id"].as_str().unwrap();
        let (status, game) = other.post(&format!("/api/v1/seeks/{id}/accept"), json!(null)).await;
        assert_eq!(status, StatusCode::CREATED, "{game}");
        game["game"].as_str().unwrap().to_owned()
    }

    pub async fn socket(&self, path: &str) -> Ws {
        self.try_socket(path)
            .await
            .unwrap_or_else(|(status, body)| panic!("websocket {path} refused: {status} {body}"))
    }

    /// Opens a WebSocket, or gives the HTTP status and JSON body it was refused with.
    pub async fn try_socket(&self, path: &str) -> Result<Ws, (u16, Value)> {
        use tokio_tungstenite::tungstenite::Error;
        let url = format!("ws://{}{path}", self.addr);
        let mut request = url.as_str().into_client_request().unwrap();
        let http_url: reqwest::Url = self.base.parse().unwrap();
        if let Some(cookies) = self.jar.cookies(&http_url) {
            request.headers_mut().insert("cookie", cookies);
        }
        let tcp = connect_from(self.local, self.addr).await;
        match tokio_tungstenite::client_async(request, MaybeTlsStream::Plain(tcp)).await {
            Ok((stream, _)) => Ok(Ws { stream, keepalives: 0 }),
            Err(Error::Http(response)) => {
                let status = response.status().as_u16();
                let body = response
                    .body()
                    .as_deref()
                    .and_then(|b| serde_json::from_slice(b).ok())
                    .unwrap_or(Value::Null);
                Err((status, body))
            }
            Err(e) => panic!("websocket {path}: {e}"),
        }
    }

    pub async fn game_socket(&self, game: &str) -> (Ws, Value) {
        let mut ws = self.socket(&format!("/api/v1/games/{game}/socket")).await;
        let hello = ws.next_of("hello").await;
        (ws, hello)
    }
}

/// A TCP connection to `server` from `local` (any local address when `None`).
pub async fn connect_from(local: Option<IpAddr>, server: SocketAddr) -> TcpStream {
    let socket = match server {
        SocketAddr::V4(_) => tokio::net::TcpSocket::new_v4(),
        SocketAddr::V6(_) => tokio::net::TcpSocket::new_v6(),
    }
    .expect("a socket");
    if let Some(ip) = local {
        socket.bind(SocketAddr::new(ip, 0)).expect("binds the local address");
    }
    socket.connect(server).await.expect("connects")
}

/// Long enough for any machine to notice what a test waits for.
pub const DEADLINE: Duration = Duration::from_secs(30);

/// Reads until the server closes the connection (EOF or reset), within [`DEADLINE`]: what it
/// sent before, as text.
pub async fn closed_by_server(tcp: &mut TcpStream) -> String {
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let end = tokio::time::timeout(DEADLINE, async {
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            }
        }
    })
    .await;
    assert!(end.is_ok(), "the server kept the connection open for {DEADLINE:?}");
    String::from_utf8_lossy(&got).into_owned()
}

/// One WebSocket connection.
pub struct Ws {
    pub stream: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// Pings sent while waiting, whose pongs are not the caller's (see [`Ws::recv_within`]).
    keepalives: usize,
}

impl Ws {
    pub async fn send(&mut self, v: Value) {
        self.stream.send(Message::Text(v.to_string().into())).await.unwrap();
    }

    pub async fn send_raw(&mut self, text: &str) {
        self.stream.send(Message::Text(text.to_owned().into())).await.unwrap();
    }

    /// Sends a pong frame answering a ping the server sent `rtt` ago (the server writes its
    /// clock, Unix ms, in each ping): the server measures a `rtt` round trip, as on a slow
    /// link (docs/protocol.md, "Clocks and lag").
    pub async fn pong_after(&mut self, rtt: Duration) {
        let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
        let sent = (now - rtt).as_millis() as u64;
        self.stream.send(Message::Pong(sent.to_le_bytes().to_vec().into())).await.unwrap();
    }

    /// Waits `d` without a word of its own but `ping` every 2 s, as an idle browser does (the
    /// server closes a game socket silent for 8 s); those pongs are not returned later.
    pub async fn idle(&mut self, d: Duration) {
        let until = tokio::time::Instant::now() + d;
        while tokio::time::Instant::now() < until {
            self.send(serde_json::json!({ "t": "ping" })).await;
            self.keepalives += 1;
            tokio::time::sleep_until(
                until.min(tokio::time::Instant::now() + Duration::from_secs(2)),
            )
            .await;
        }
    }

    /// The next JSON message (pings are answered by the library), within 10 s.
    pub async fn recv(&mut self) -> Value {
        self.recv_within(Duration::from_secs(10)).await
    }

    /// The next JSON message, within `limit` (a bound on a hang, not a timing assertion).
    /// While it waits it sends `ping` every 2 s, as the browser does: the server closes a
    /// game socket silent for 8 s (protocol.md, "Silence"). Those pongs are not returned.
    pub async fn recv_within(&mut self, limit: Duration) -> Value {
        let until = tokio::time::Instant::now() + limit;
        loop {
            let left = until.saturating_duration_since(tokio::time::Instant::now());
            assert!(!left.is_zero(), "a message in time");
            let msg =
                match tokio::time::timeout(left.min(Duration::from_secs(2)), self.stream.next())
                    .await
                {
                    Ok(msg) => msg.expect("socket open").expect("no socket error"),
                    Err(_) => {
                        self.send(serde_json::json!({ "t": "ping" })).await;
                        self.keepalives += 1;
                        continue;
                    }
                };
            match msg {
                Message::Text(t) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["t"] == "pong" && self.keepalives > 0 {
                        self.keepalives -= 1;
                        continue;
                    }
                    return v;
                }
                Message::Close(_) => panic!("socket closed"),
                _ => continue,
            }
        }
    }

    /// Skips messages until one of type `t` (and, for events, of kind `kind` when given as
    /// `event:kind`).
    pub async fn next_of(&mut self, t: &str) -> Value {
        let (t, kind) = t.split_once(':').map_or((t, None), |(a, b)| (a, Some(b)));
        loop {
            let v = self.recv().await;
            if v["t"] == t && kind.is_none_or(|k| v["kind"] == k) {
                return v;
            }
        }
    }

    /// Plays a move and waits for it to come back.
    pub async fn play(&mut self, uci: &str, ply: usize) -> Value {
        self.send(json!({ "t": "move", "uci": uci, "ply": ply })).await;
        loop {
            let v = self.recv().await;
            if v["t"] == "move" && v["ply"] == ply + 1 {
                return v;
            }
            assert_ne!(v["t"], "rejected", "move {uci} at ply {ply}: {v}");
        }
    }
}

/// Waits (bounded by a number of polls, not by time) until `cond` holds on tournament `id`'s
/// view; `what` names the wait in the panic.
pub async fn until(c: &Client, id: &str, what: &str, cond: impl Fn(&Value) -> bool) -> Value {
    for _ in 0..500 {
        let (_, v) = c.get(&format!("/api/v1/tournaments/{id}")).await;
        if cond(&v) {
            return v;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never: {what}");
}

/// Waits (bounded by a number of polls) until the game `game` exists; its view.
pub async fn game_made(c: &Client, game: &str) -> Value {
    for _ in 0..500 {
        let (status, g) = c.get(&format!("/api/v1/games/{game}")).await;
        if status == StatusCode::OK {
            return g;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("never made: {game}");
}
