//! `rookery bench abuse`: issue 37's abuses, measured from outside against `rookery serve`
//! with its default limits. Other client addresses are other loopback addresses (127.0.0.2 …:
//! the client socket is bound to one before it connects), so this runs on Linux loopback only.
//!
//! - `silent`: N silent TCP connections from one address: how many are held, how many are
//!   refused, how long until the server closes each; `/health` latency from another address
//!   meanwhile.
//! - `slowloris`: the same with connections that send a header byte every second.
//! - `takeback`: one player floods `takeback` requests from 10 sockets at 20 messages a second
//!   each: sockets refused, requests stored, events sent to the opponent.
//! - `seeks`: 40 anonymous identities from one address open 5 seeks each and never open a
//!   lobby socket: how many are accepted, how long they stay listed.

use std::net::{IpAddr, SocketAddr};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use futures_util::{SinkExt, StreamExt};
use rookery_arbiter::MoveInput;
use rookery_core::Square;
use rookery_protocol::PlayerAction;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpSocket, TcpStream};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;

use crate::process::ServerProcess;
use crate::socket::{act, frame, play, Ws};
use crate::{Error, Host};

/// Arguments of `rookery bench abuse`.
#[derive(clap::Args)]
pub struct Args {
    /// An already running server on loopback (`http://127.0.0.1:8080`). By default a fresh
    /// `rookery serve` (this binary, default limits) is started over a temporary database.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// Connections opened by the `silent` and `slowloris` attackers.
    #[arg(long, default_value_t = 1100)]
    connections: usize,
    /// Give up waiting for the server to close an attacker's connection, or to unlist the
    /// spam seeks, after this long.
    #[arg(long, default_value_t = 120)]
    wait_s: u64,
    /// The abuses to run, in order.
    #[arg(long, value_delimiter = ',', default_value = "silent,slowloris,takeback,seeks")]
    only: Vec<Abuse>,
}

#[derive(Clone, Copy, clap::ValueEnum)]
enum Abuse {
    Silent,
    Slowloris,
    Takeback,
    Seeks,
}

const ATTACKER: &str = "127.0.0.1";
const BYSTANDER: &str = "127.0.0.2";
const VIEWER: &str = "127.0.0.3";

/// Runs the chosen abuses and prints their figures.
///
/// # Errors
/// [`Error::Run`] when the open-file limit is too low for `--connections`, or the server
/// cannot be started or reached.
pub fn run(args: Args, host: &Host) -> Result<ExitCode, Error> {
    Ok(run_all(&args, host)?)
}

fn run_all(args: &Args, host: &Host) -> Result<ExitCode> {
    let files = host.open_files;
    if files < args.connections as u64 + 256 {
        bail!("the open-file limit is {files}: too low for {} connections", args.connections);
    }
    let process = match &args.server {
        Some(_) => None,
        None => Some(ServerProcess::spawn(&host.rookery, &[])?),
    };
    let base = args.server.clone().or_else(|| process.as_ref().map(|p| p.base.clone()));
    let base = base.context("no server")?;
    let addr: SocketAddr = base
        .trim_start_matches("http://")
        .trim_end_matches('/')
        .parse()
        .with_context(|| format!("{base:?} is not http://IP:PORT"))?;
    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async {
        println!("server {base}; attacker {ATTACKER}, bystander {BYSTANDER}");
        for abuse in &args.only {
            match abuse {
                Abuse::Silent => held_connections(addr, args, false).await?,
                Abuse::Slowloris => held_connections(addr, args, true).await?,
                Abuse::Takeback => {
                    takeback_flood(addr, process.as_ref().map(ServerProcess::data_dir)).await?
                }
                Abuse::Seeks => seek_spam(addr, Duration::from_secs(args.wait_s)).await?,
            }
        }
        Ok::<_, anyhow::Error>(())
    })?;
    drop(process);
    Ok(ExitCode::SUCCESS)
}

async fn connect_from(local: &str, server: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = TcpSocket::new_v4()?;
    let ip: IpAddr = local.parse().map_err(std::io::Error::other)?;
    socket.bind(SocketAddr::new(ip, 0))?;
    socket.connect(server).await
}

/// One request on a fresh connection from `local`: status and the whole response. HTTP/1.1 is
/// written by hand here because the connection must come from a chosen loopback address,
/// which the HTTP client cannot bind.
async fn request(local: &str, server: SocketAddr, head: &str, body: &str) -> Result<(u16, String)> {
    let mut tcp = connect_from(local, server).await?;
    let text = format!(
        "{head}\r\nHost: {server}\r\nConnection: close\r\ncontent-type: application/json\r\n\
         content-length: {}\r\n\r\n{body}",
        body.len()
    );
    tcp.write_all(text.as_bytes()).await?;
    let mut response = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), tcp.read_to_end(&mut response))
        .await
        .context("no answer in 30 s")??;
    let response = String::from_utf8_lossy(&response).into_owned();
    let status = response.get(9..12).and_then(|s| s.parse().ok()).unwrap_or(0);
    Ok((status, response))
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    if sorted.is_empty() {
        return f64::NAN;
    }
    sorted[((sorted.len() - 1) as f64 * p).round() as usize]
}

/// `/health` from the bystander every 100 ms (one at a time, each given 30 s) until `stop`:
/// latencies (ms) and failures.
async fn probe_health(
    server: SocketAddr,
    mut stop: tokio::sync::watch::Receiver<bool>,
) -> (Vec<f64>, usize) {
    let mut latencies = Vec::new();
    let mut failures = 0;
    let mut every = tokio::time::interval(Duration::from_millis(100));
    // A probe stuck behind a stalled server is one slow answer, not a burst of fast ones after.
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {}
            _ = stop.changed() => break,
        }
        let started = Instant::now();
        match request(BYSTANDER, server, "GET /health HTTP/1.1", "").await {
            Ok((200, _)) => latencies.push(started.elapsed().as_secs_f64() * 1000.0),
            _ => failures += 1,
        }
    }
    latencies.sort_by(f64::total_cmp);
    (latencies, failures)
}

/// What became of one attacker's connection.
enum Fate {
    /// Answered at once with this status and closed.
    Refused(u16),
    /// Held, then closed by the server after this long.
    Closed(Duration),
    /// Still open when the bench gave up.
    Open,
    /// Could not even connect.
    NoConnect,
}

async fn attacker(server: SocketAddr, slow: bool, wait: Duration) -> Fate {
    let Ok(mut tcp) = connect_from(ATTACKER, server).await else { return Fate::NoConnect };
    let opened = Instant::now();
    // Garbage on purpose, so written by hand: a request head that never ends, one more byte
    // of a header line each second (slowloris), as no client library would send.
    if slow {
        let _ = tcp.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\n").await;
    }
    let mut got = Vec::new();
    let mut buf = [0u8; 1024];
    let mut tick = tokio::time::interval(Duration::from_secs(1));
    tick.tick().await;
    let deadline = tokio::time::sleep(wait);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            read = tcp.read(&mut buf) => match read {
                Ok(0) | Err(_) => break,
                Ok(n) => got.extend_from_slice(&buf[..n]),
            },
            _ = tick.tick(), if slow => {
                if tcp.write_all(b"X").await.is_err() { break }
            }
            () = &mut deadline => return Fate::Open,
        }
    }
    let status = String::from_utf8_lossy(&got).get(9..12).and_then(|s| s.parse().ok());
    match status {
        Some(429 | 503) => Fate::Refused(status.unwrap_or(0)),
        _ => Fate::Closed(opened.elapsed()),
    }
}

async fn held_connections(server: SocketAddr, args: &Args, slow: bool) -> Result<()> {
    let name = if slow { "slowloris (a header byte a second)" } else { "silent" };
    let (stop_tx, stop_rx) = tokio::sync::watch::channel(false);
    let probe = tokio::spawn(probe_health(server, stop_rx));
    let wait = Duration::from_secs(args.wait_s);
    let started = Instant::now();
    let mut attackers = Vec::new();
    for _ in 0..args.connections {
        attackers.push(tokio::spawn(attacker(server, slow, wait)));
        // Opened over about a second, as a script would.
        tokio::time::sleep(Duration::from_micros(900)).await;
    }
    let mut closed = Vec::new();
    let (mut refused, mut busy, mut open, mut failed) = (0, 0, 0, 0);
    for a in attackers {
        match a.await? {
            Fate::Refused(503) => busy += 1,
            Fate::Refused(_) => refused += 1,
            Fate::Closed(d) => closed.push(d.as_secs_f64()),
            Fate::Open => open += 1,
            Fate::NoConnect => failed += 1,
        }
    }
    let _ = stop_tx.send(true);
    let (health, health_failures) = probe.await?;
    closed.sort_by(f64::total_cmp);
    println!("\n{name}: {} connections from {ATTACKER}", args.connections);
    println!("  refused at once: 429 / 503        {refused} / {busy}");
    println!(
        "  held, then closed by the server   {} (after {:.1} s min, {:.1} s median, {:.1} s max)",
        closed.len(),
        percentile(&closed, 0.0),
        percentile(&closed, 0.5),
        percentile(&closed, 1.0)
    );
    println!("  still open after {} s             {open}", args.wait_s);
    println!("  could not connect                 {failed}");
    println!(
        "  /health from {BYSTANDER}: {} answered, {health_failures} failed; p50 {:.2} ms, \
         p99 {:.2} ms, max {:.2} ms (over {:.0} s)",
        health.len(),
        percentile(&health, 0.5),
        percentile(&health, 0.99),
        percentile(&health, 1.0),
        started.elapsed().as_secs_f64()
    );
    Ok(())
}

/// An anonymous visitor: its cookies and CSRF token.
struct Visitor {
    local: &'static str,
    cookie: String,
    csrf: String,
}

impl Visitor {
    async fn new(local: &'static str, server: SocketAddr) -> Result<Visitor> {
        let (status, response) = request(local, server, "GET /api/v1/account HTTP/1.1", "").await?;
        if status != 200 {
            bail!("GET /api/v1/account: {status}");
        }
        let cookie = response
            .lines()
            .filter_map(|l| l.strip_prefix("set-cookie: "))
            .filter_map(|c| c.split(';').next())
            .collect::<Vec<_>>()
            .join("; ");
        let body = response.split("\r\n\r\n").nth(1).unwrap_or("");
        let me: Value = serde_json::from_str(body)?;
        let csrf = me["csrf"].as_str().context("no csrf")?.to_owned();
        Ok(Visitor { local, cookie, csrf })
    }

    async fn post(&self, server: SocketAddr, path: &str, body: &Value) -> Result<(u16, Value)> {
        let head = format!(
            "POST {path} HTTP/1.1\r\ncookie: {}\r\nx-csrf-token: {}",
            self.cookie, self.csrf
        );
        let (status, response) = request(self.local, server, &head, &body.to_string()).await?;
        let body = response.split("\r\n\r\n").nth(1).unwrap_or("");
        Ok((status, serde_json::from_str(body).unwrap_or(Value::Null)))
    }

    async fn get(&self, server: SocketAddr, path: &str) -> Result<Value> {
        let head = format!("GET {path} HTTP/1.1\r\ncookie: {}", self.cookie);
        let (_, response) = request(self.local, server, &head, "").await?;
        let body = response.split("\r\n\r\n").nth(1).unwrap_or("");
        Ok(serde_json::from_str(body)?)
    }

    /// A WebSocket, or the HTTP status it was refused with.
    async fn socket(&self, server: SocketAddr, path: &str) -> Result<Result<Ws, u16>> {
        let mut request = format!("ws://{server}{path}").into_client_request()?;
        request.headers_mut().insert("cookie", self.cookie.parse()?);
        let tcp = connect_from(self.local, server).await?;
        match tokio_tungstenite::client_async(
            request,
            tokio_tungstenite::MaybeTlsStream::Plain(tcp),
        )
        .await
        {
            Ok((ws, _)) => Ok(Ok(ws)),
            Err(tokio_tungstenite::tungstenite::Error::Http(r)) => Ok(Err(r.status().as_u16())),
            Err(e) => Err(e.into()),
        }
    }
}

/// Reads `ws` until a `move` message reaching `ply`.
async fn until_ply(ws: &mut Ws, ply: u64) -> Result<()> {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(30), ws.next())
            .await
            .context("no move in 30 s")?
            .context("socket closed")??;
        if let Message::Text(t) = msg {
            let v: Value = serde_json::from_str(t.as_str())?;
            if v["t"] == "move" && v["ply"] == ply {
                return Ok(());
            }
        }
    }
}

async fn takeback_flood(server: SocketAddr, data: Option<&std::path::Path>) -> Result<()> {
    let white = Visitor::new(ATTACKER, server).await?;
    let black = Visitor::new(BYSTANDER, server).await?;
    let seek = json!({ "time_control": "600+0", "rules": "casual", "color": "white" });
    let (status, s) = white.post(server, "/api/v1/seeks", &seek).await?;
    if status != 201 {
        bail!("seek: {status} {s}");
    }
    let id = s["id"].as_str().context("seek id")?;
    let (status, g) =
        black.post(server, &format!("/api/v1/seeks/{id}/accept"), &json!(null)).await?;
    if status != 201 {
        bail!("accept: {status} {g}");
    }
    let game = g["game"].as_str().context("game id")?.to_owned();
    let path = format!("/api/v1/games/{game}/socket");
    let mut b = black.socket(server, &path).await?.map_err(|s| anyhow::anyhow!("black: {s}"))?;
    let mut w = white.socket(server, &path).await?.map_err(|s| anyhow::anyhow!("white: {s}"))?;
    w.send(frame(&play(MoveInput::squares(Square::E2, Square::E4, None), 0))).await?;
    until_ply(&mut b, 1).await?;
    b.send(frame(&play(MoveInput::squares(Square::E7, Square::E5, None), 1))).await?;
    until_ply(&mut w, 2).await?;
    drop(w);
    tokio::time::sleep(Duration::from_millis(500)).await;
    // Ten sockets, each 20 messages a second for 10 s.
    let (mut sockets, mut refused) = (Vec::new(), 0);
    for _ in 0..10 {
        match white.socket(server, &path).await? {
            Ok(ws) => sockets.push(ws),
            Err(_) => refused += 1,
        }
    }
    let opened = sockets.len();
    let mut floods = Vec::new();
    for mut ws in sockets {
        floods.push(tokio::spawn(async move {
            let (mut sent, mut limited) = (0u32, 0u32);
            let mut every = tokio::time::interval(Duration::from_millis(50));
            let end = Instant::now() + Duration::from_secs(10);
            while Instant::now() < end {
                every.tick().await;
                if ws.send(frame(&act(PlayerAction::Takeback, Some(2)))).await.is_err() {
                    break;
                }
                sent += 1;
                while let Ok(Some(Ok(Message::Text(t)))) =
                    tokio::time::timeout(Duration::from_millis(1), ws.next()).await
                {
                    if t.as_str().contains("\"rate_limited\"") {
                        limited += 1;
                    }
                }
            }
            (sent, limited)
        }));
    }
    let mut events = 0;
    let counting = async {
        while let Ok(Some(Ok(msg))) = tokio::time::timeout(Duration::from_secs(3), b.next()).await {
            if let Message::Text(t) = msg {
                if t.as_str().contains("\"takeback_requested\"") {
                    events += 1;
                }
            }
        }
    };
    counting.await;
    let (mut sent, mut limited) = (0, 0);
    for f in floods {
        let (s, l) = f.await?;
        sent += s;
        limited += l;
    }
    // The rows, read from the database when the bench started the server.
    let rows = match data {
        Some(dir) => {
            let url = format!("sqlite://{}", dir.join("rookery.sqlite3").display());
            let store = rookery_store::Store::open(&url).await?;
            let stored = store.game(&game).await?.context("the game is not stored")?;
            let n = stored.actions.iter().filter(|a| a.kind == "takeback").count();
            store.close().await;
            n.to_string()
        }
        None => "unknown (--server)".to_owned(),
    };
    println!("\ntakeback flood: 10 sockets of one player × 20 messages/s × 10 s");
    println!("  sockets opened / refused (429)    {opened} / {refused}");
    println!("  takeback messages sent            {sent}");
    println!("  answered rate_limited             {limited}");
    println!("  takeback rows stored              {rows}");
    println!("  takeback_requested events to the opponent  {events}");
    Ok(())
}

async fn seek_spam(server: SocketAddr, wait: Duration) -> Result<()> {
    let started = Instant::now();
    let (mut accepted, mut refused) = (0, 0);
    let mut ids = Vec::new();
    for _ in 0..40 {
        let v = Visitor::new(ATTACKER, server).await?;
        for _ in 0..5 {
            let seek = json!({ "time_control": "300+0", "rules": "casual" });
            match v.post(server, "/api/v1/seeks", &seek).await? {
                (201, s) => {
                    accepted += 1;
                    ids.push(s["id"].clone());
                }
                _ => refused += 1,
            }
        }
    }
    let spent = started.elapsed();
    let viewer = Visitor::new(VIEWER, server).await?;
    let (listed_until, listed) = loop {
        let seeks = viewer.get(server, "/api/v1/seeks").await?;
        let listed = seeks["seeks"]
            .as_array()
            .map_or(0, |list| list.iter().filter(|s| ids.contains(&s["id"])).count());
        if listed == 0 || started.elapsed() > wait {
            break (started.elapsed(), listed);
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    println!("\nseek spam: 40 anonymous identities from {ATTACKER} × 5 seeks, no lobby socket");
    println!(
        "  seeks accepted / refused          {accepted} / {refused} (in {:.2} s)",
        spent.as_secs_f64()
    );
    if listed == 0 {
        println!(
            "  the last one listed until          {:.1} s after the first was created",
            listed_until.as_secs_f64()
        );
    } else {
        println!("  still listed after {} s            {listed}", wait.as_secs());
    }
    Ok(())
}
