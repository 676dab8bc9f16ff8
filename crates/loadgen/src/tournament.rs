//! `rookery bench tournament`: issue 40's scale on this machine. It starts `rookery serve` on
//! a temporary SQLite database, signs up the players over HTTP and opens a lobby socket for
//! each (as a browser on the tournaments page would), then measures:
//!
//! - a Swiss round start with `--players` (1,000): the creation, the joins, then from the
//!   arbiter's `start` (which pairs round 1 as a preview) through `publish` (which creates the
//!   games) until every paired player has been told of their game on the lobby socket
//!   (`tournament_game`); the target is 10 s (issue 40). The games are checked to exist, once
//!   each, in the round's view.
//! - an arena with `--arena-players` (500): the joins, the first pairing wave from the
//!   arbiter's `start` until every player has been told of a game, and a second wave: Black
//!   resigns every game, and from the last game's end until every player is told again.
//!
//! Times are wall-clock on loopback, the load generator sharing the machine with the server.

use std::process::ExitCode;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, ensure, Context, Result};
use futures_util::{SinkExt, StreamExt};
use reqwest::header::{COOKIE, SET_COOKIE};
use reqwest::StatusCode;
use rookery_protocol::PlayerAction;
use serde_json::{json, Value};
use tokio::sync::{mpsc, Semaphore};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;
use tokio_tungstenite::tungstenite::Message;

use crate::process::ServerProcess;
use crate::socket::{act, frame, Ws};
use crate::{Error, Host};

/// `rookery serve` flags for a load from one address: the limits per client address
/// (issue 37) and on sign-ups would stop it long before a thousand players.
const SERVER_FLAGS: &[&str] = &[
    "--max-connections-per-address",
    "10000000",
    "--max-connections",
    "10000000",
    "--signups-per-address",
    "10000000",
];

/// Issue 40's target for a 1,000-player Swiss round start.
const TARGET: Duration = Duration::from_secs(10);

/// How long a phase may take before the run is given up (a lost message, not a measurement).
const GIVE_UP: Duration = Duration::from_secs(300);

/// Arguments of `rookery bench tournament`.
#[derive(clap::Args)]
pub struct Args {
    /// Players of the Swiss whose round start is measured (0: no Swiss).
    #[arg(long, default_value_t = 1000)]
    players: usize,
    /// Players of the arena whose pairing waves are measured (0: no arena; at most
    /// `--players` when both run: the arena's players are the Swiss's first ones).
    #[arg(long, default_value_t = 500)]
    arena_players: usize,
    /// HTTP requests and socket connections in flight at once.
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u16).range(1..=1024))]
    concurrency: u16,
    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    json: bool,
}

/// Runs `rookery bench tournament`: the table (or `--json`) on stdout, progress on stderr;
/// exits with failure when the Swiss round start misses its target.
///
/// # Errors
/// [`Error::Run`] for fewer than 2 players, or when the server cannot be started or a step
/// of the run fails.
pub fn run(args: Args, host: &Host) -> Result<ExitCode, Error> {
    Ok(run_all(&args, host)?)
}

fn run_all(args: &Args, host: &Host) -> Result<ExitCode> {
    let players = args.players.max(args.arena_players);
    ensure!(players >= 2, "--players: at least 2");
    let open_files = host.open_files;
    let needed = players as u64 * 2 + 256;
    if open_files < needed {
        eprintln!("rookery: warning: the open-file limit is {open_files}, the run needs about {needed} (ulimit -n)");
    }
    let server = ServerProcess::spawn(&host.rookery, SERVER_FLAGS)?;
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let report = runtime.block_on(measure(args, players, &server.base))?;
    runtime.shutdown_background();
    drop(server);
    if args.json {
        println!("{}", serde_json::to_string(&report).context("the report as JSON")?);
    } else {
        report.print();
    }
    let swiss_ms = report.swiss.as_ref().map(|s| s.round_start_ms);
    Ok(if swiss_ms.is_some_and(|ms| ms > TARGET.as_millis() as f64) {
        eprintln!("rookery: the Swiss round start missed the target of {} s", TARGET.as_secs());
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}

/// A signed-up player: its cookies and CSRF token (docs/api.md, "Identity").
struct Account {
    name: String,
    cookie: HeaderValue,
    csrf: String,
}

/// What the bench shares: the HTTP client and the server's address.
struct Shared {
    http: reqwest::Client,
    base: String,
    ws_base: String,
}

fn cookies_of(r: &reqwest::Response) -> Vec<String> {
    r.headers()
        .get_all(SET_COOKIE)
        .iter()
        .filter_map(|v| Some(v.to_str().ok()?.split(';').next()?.to_owned()))
        .collect()
}

impl Shared {
    /// A visitor's cookies, then a sign-up as `name`.
    async fn sign_up(&self, name: String) -> Result<Account> {
        let r = self.http.get(format!("{}/api/v1/account", self.base)).send().await?;
        let mut cookies = cookies_of(&r);
        let me: Value = r.json().await?;
        let csrf = me["csrf"].as_str().context("no csrf token")?.to_owned();
        let r = self
            .http
            .post(format!("{}/api/v1/account/signup", self.base))
            .header(COOKIE, cookies.join("; "))
            .header("x-csrf-token", &csrf)
            .json(&json!({"username": name, "password": "correct horse battery"}))
            .send()
            .await?;
        ensure!(r.status() == StatusCode::CREATED, "sign-up of {name}: {}", r.status());
        for c in cookies_of(&r) {
            let key = c.split('=').next().unwrap_or_default().to_owned();
            cookies.retain(|old| !old.starts_with(&format!("{key}=")));
            cookies.push(c);
        }
        let cookie = HeaderValue::from_str(&cookies.join("; "))?;
        Ok(Account { name, cookie, csrf })
    }

    async fn post(&self, who: &Account, path: &str, body: Value) -> Result<Value> {
        let r = self
            .http
            .post(format!("{}{path}", self.base))
            .header(COOKIE, who.cookie.clone())
            .header("x-csrf-token", &who.csrf)
            .json(&body)
            .send()
            .await?;
        let status = r.status();
        let v: Value = r.json().await.unwrap_or(Value::Null);
        ensure!(status.is_success(), "POST {path} {body} by {}: {status} {v}", who.name);
        Ok(v)
    }

    async fn get(&self, path: &str) -> Result<Value> {
        Ok(self.http.get(format!("{}{path}", self.base)).send().await?.json().await?)
    }

    async fn socket(&self, who: &Account, path: &str) -> Result<Ws> {
        let mut request = format!("{}{path}", self.ws_base).into_client_request()?;
        request.headers_mut().insert(COOKIE, who.cookie.clone());
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .with_context(|| format!("socket {path} of {}", who.name))?;
        Ok(ws)
    }
}

/// A player told of a game: (player, tournament, game, when).
type Told = (usize, String, String, Instant);

/// Opens player `i`'s lobby socket, waits for its first message (it is subscribed), and then
/// reports every `tournament_game` it is told.
async fn lobby(
    shared: Arc<Shared>,
    who: Arc<Account>,
    i: usize,
    told: mpsc::UnboundedSender<Told>,
) -> Result<()> {
    let mut ws = shared.socket(&who, "/api/v1/lobby/socket").await?;
    ws.next().await.context("the lobby socket closed at once")??;
    tokio::spawn(async move {
        while let Some(Ok(msg)) = ws.next().await {
            let Message::Text(text) = msg else { continue };
            if !text.as_str().contains("\"tournament_game\"") {
                continue;
            }
            let Ok(v) = serde_json::from_str::<Value>(text.as_str()) else { continue };
            let (Some(t), Some(g)) = (v["tournament"].as_str(), v["game"].as_str()) else {
                continue;
            };
            let _ = told.send((i, t.to_owned(), g.to_owned(), Instant::now()));
        }
    });
    Ok(())
}

/// Runs `f` on every item, `limit` at a time; the first failure fails the whole.
async fn each<T, F, Fut>(items: Vec<T>, limit: usize, f: F) -> Result<()>
where
    T: Send + 'static,
    F: Fn(T) -> Fut,
    Fut: std::future::Future<Output = Result<()>> + Send + 'static,
{
    let gate = Arc::new(Semaphore::new(limit));
    let mut tasks = tokio::task::JoinSet::new();
    for item in items {
        let permit = gate.clone().acquire_owned().await?;
        let fut = f(item);
        tasks.spawn(async move {
            let r = fut.await;
            drop(permit);
            r
        });
    }
    while let Some(r) = tasks.join_next().await {
        r??;
    }
    Ok(())
}

/// Waits until `want` distinct players have been told of a game of `tournament` (not one of
/// `old`); gives the time of the last.
async fn told_all(
    rx: &mut mpsc::UnboundedReceiver<Told>,
    tournament: &str,
    want: usize,
    old: &std::collections::HashSet<String>,
    games: &mut std::collections::HashSet<String>,
) -> Result<Instant> {
    let mut players = std::collections::HashSet::new();
    let mut last = Instant::now();
    let deadline = tokio::time::Instant::now() + GIVE_UP;
    while players.len() < want {
        let Ok(Some((i, t, g, at))) = tokio::time::timeout_at(deadline, rx.recv()).await else {
            bail!("only {} of {want} players told in {} s", players.len(), GIVE_UP.as_secs());
        };
        if t == tournament && !old.contains(&g) && players.insert(i) {
            games.insert(g);
            last = at;
        }
    }
    Ok(last)
}

fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 10_000.0).round() / 10.0
}

async fn measure(args: &Args, players: usize, base: &str) -> Result<Report> {
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(usize::from(args.concurrency) * 2)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(120))
        // Below the server's 10 s idle timeout, so no request goes out on a closing connection.
        .pool_idle_timeout(Duration::from_secs(5))
        .build()?;
    let shared = Arc::new(Shared {
        http,
        base: base.to_owned(),
        ws_base: base.replacen("http://", "ws://", 1),
    });
    let limit = usize::from(args.concurrency);

    let started = Instant::now();
    let td = shared.sign_up("arbiter".into()).await?;
    let accounts = Arc::new(std::sync::Mutex::new(vec![None; players]));
    let names: Vec<usize> = (0..players).collect();
    let (s, a) = (shared.clone(), accounts.clone());
    each(names, limit, move |i| {
        let (s, a) = (s.clone(), a.clone());
        async move {
            let acc = s.sign_up(format!("p{i:04}")).await?;
            a.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(Arc::new(acc));
            Ok(())
        }
    })
    .await?;
    let accounts: Vec<Arc<Account>> = accounts
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .iter()
        .map(|a| a.clone().expect("signed up"))
        .collect();
    let signups = started.elapsed();
    eprintln!("{players} players signed up in {:.1} s", signups.as_secs_f64());
    let (tx, mut rx) = mpsc::unbounded_channel();
    let (s, tx2) = (shared.clone(), tx.clone());
    let sockets: Vec<(usize, Arc<Account>)> = accounts.iter().cloned().enumerate().collect();
    each(sockets, limit, move |(i, acc)| lobby(s.clone(), acc, i, tx2.clone())).await?;
    drop(tx);
    eprintln!("{players} lobby sockets open");

    let mut report = Report {
        players_signed_up: players,
        signup_s: signups.as_secs_f64(),
        swiss: None,
        arena: None,
    };
    if args.players >= 2 {
        report.swiss = Some(swiss(&shared, &td, &accounts[..args.players], limit, &mut rx).await?);
    }
    if args.arena_players >= 2 {
        report.arena =
            Some(arena(&shared, &td, &accounts[..args.arena_players], limit, &mut rx).await?);
    }
    Ok(report)
}

async fn join_all(
    shared: &Arc<Shared>,
    id: &str,
    accounts: &[Arc<Account>],
    limit: usize,
) -> Result<Duration> {
    let t = Instant::now();
    let s = shared.clone();
    let path = format!("/api/v1/tournaments/{id}/join");
    each(accounts.to_vec(), limit, move |acc| {
        let (s, path) = (s.clone(), path.clone());
        async move { s.post(&acc, &path, json!({})).await.map(|_| ()) }
    })
    .await?;
    Ok(t.elapsed())
}

async fn swiss(
    shared: &Arc<Shared>,
    td: &Account,
    accounts: &[Arc<Account>],
    limit: usize,
    rx: &mut mpsc::UnboundedReceiver<Told>,
) -> Result<SwissReport> {
    let n = accounts.len();
    let t = Instant::now();
    let v = shared
        .post(
            td,
            "/api/v1/tournaments",
            json!({"name":"Bench Swiss","format":"swiss","rounds":9,"time_control":"600+5"}),
        )
        .await?;
    let create = t.elapsed();
    let id = v["id"].as_str().context("no id")?.to_owned();
    let joins = join_all(shared, &id, accounts, limit).await?;
    eprintln!("swiss: {n} joins in {:.1} s", joins.as_secs_f64());
    let arbiter = format!("/api/v1/tournaments/{id}/arbiter");
    // The round starts: paired (a preview), then published (the games created, the players
    // told).
    let t0 = Instant::now();
    let paired = shared.post(td, &arbiter, json!({"action":"start"})).await?;
    let pair = t0.elapsed();
    ensure!(
        paired["rounds_list"][0]["state"] == "paired",
        "round 1 not paired: {}",
        paired["rounds_list"][0]
    );
    let published = shared.post(td, &arbiter, json!({"action":"publish","round":1})).await?;
    let publish = t0.elapsed() - pair;
    let boards = published["rounds_list"][0]["boards"].as_array().context("no boards")?.len();
    let want = 2 * boards;
    let mut games = std::collections::HashSet::new();
    let last = told_all(rx, &id, want, &Default::default(), &mut games).await?;
    let round_start = last.max(t0 + pair + publish) - t0;
    ensure!(games.len() == boards, "{} games told for {boards} boards", games.len());
    // The games exist, once each: the round's view lists them, and each answers.
    let view = shared.get(&format!("/api/v1/tournaments/{id}")).await?;
    let listed: std::collections::HashSet<String> = view["rounds_list"][0]["boards"]
        .as_array()
        .context("no boards")?
        .iter()
        .filter_map(|b| b["game"].as_str().map(str::to_owned))
        .collect();
    ensure!(listed == games, "the view's games are not those told");
    for g in games.iter().take(5) {
        let v = shared.get(&format!("/api/v1/games/{g}")).await?;
        ensure!(v["status"] == "live", "game {g}: {v}");
    }
    eprintln!("swiss: round 1 of {n} started in {:.2} s", round_start.as_secs_f64());
    Ok(SwissReport {
        players: n,
        create_ms: ms(create),
        joins_s: joins.as_secs_f64(),
        joins_per_s: (n as f64 / joins.as_secs_f64()).round(),
        pair_ms: ms(pair),
        publish_ms: ms(publish),
        games: boards,
        players_told: want,
        round_start_ms: ms(round_start),
        target_ms: TARGET.as_millis(),
    })
}

async fn arena(
    shared: &Arc<Shared>,
    td: &Account,
    accounts: &[Arc<Account>],
    limit: usize,
    rx: &mut mpsc::UnboundedReceiver<Told>,
) -> Result<ArenaReport> {
    let n = accounts.len();
    let v = shared
        .post(
            td,
            "/api/v1/tournaments",
            json!({"name":"Bench Arena","format":"arena","duration_s":3600,"time_control":"300+0"}),
        )
        .await?;
    let id = v["id"].as_str().context("no id")?.to_owned();
    let joins = join_all(shared, &id, accounts, limit).await?;
    eprintln!("arena: {n} joins in {:.1} s", joins.as_secs_f64());
    let t0 = Instant::now();
    shared
        .post(td, &format!("/api/v1/tournaments/{id}/arbiter"), json!({"action":"start"}))
        .await?;
    let want = n - n % 2;
    let mut first = std::collections::HashSet::new();
    let last = told_all(rx, &id, want, &Default::default(), &mut first).await?;
    let wave1 = last - t0;
    eprintln!("arena: wave 1, {} games, in {:.2} s", first.len(), wave1.as_secs_f64());
    // Black resigns every game; the next wave pairs everyone again.
    let view = shared.get(&format!("/api/v1/tournaments/{id}")).await?;
    let by_name: std::collections::HashMap<String, Arc<Account>> =
        accounts.iter().map(|a| (a.name.clone(), a.clone())).collect();
    let mut resigners = Vec::new();
    for g in view["arena"]["games"].as_array().context("no games")? {
        let game = g["game"].as_str().context("no game id")?.to_owned();
        let black = by_name.get(g["black"].as_str().unwrap_or_default()).context("no black")?;
        resigners.push((game, black.clone()));
    }
    let ended = Arc::new(std::sync::Mutex::new(Instant::now()));
    let (s, e) = (shared.clone(), ended.clone());
    each(resigners, limit, move |(game, black)| {
        let (s, e) = (s.clone(), e.clone());
        async move {
            let mut ws = s.socket(&black, &format!("/api/v1/games/{game}/socket")).await?;
            ws.send(frame(&act(PlayerAction::Resign, None))).await?;
            while let Some(msg) = ws.next().await {
                if let Message::Text(t) = msg? {
                    if t.as_str().contains("\"t\":\"end\"") {
                        let mut last = e.lock().unwrap_or_else(|e| e.into_inner());
                        *last = (*last).max(Instant::now());
                        return Ok(());
                    }
                }
            }
            bail!("game {game}: the socket closed before the end")
        }
    })
    .await?;
    let ended = *ended.lock().unwrap_or_else(|e| e.into_inner());
    let mut second = std::collections::HashSet::new();
    let last = told_all(rx, &id, want, &first, &mut second).await?;
    let wave2 = last.saturating_duration_since(ended);
    eprintln!("arena: wave 2, {} games, in {:.2} s", second.len(), wave2.as_secs_f64());
    Ok(ArenaReport {
        players: n,
        joins_s: joins.as_secs_f64(),
        joins_per_s: (n as f64 / joins.as_secs_f64()).round(),
        wave1_games: first.len(),
        wave1_ms: ms(wave1),
        wave2_games: second.len(),
        wave2_ms: ms(wave2),
    })
}

/// What the bench measured: printed as a table, or as one JSON object with `--json`.
#[derive(serde::Serialize)]
struct Report {
    players_signed_up: usize,
    signup_s: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    swiss: Option<SwissReport>,
    #[serde(skip_serializing_if = "Option::is_none")]
    arena: Option<ArenaReport>,
}

/// A Swiss round's start (times in ms, one decimal).
#[derive(serde::Serialize)]
struct SwissReport {
    players: usize,
    create_ms: f64,
    joins_s: f64,
    joins_per_s: f64,
    /// `start`: round 1 paired, a preview.
    pair_ms: f64,
    /// `publish`: the games created.
    publish_ms: f64,
    games: usize,
    players_told: usize,
    /// From `start` until the last player is told of their game.
    round_start_ms: f64,
    target_ms: u128,
}

/// An arena's two pairing waves (times in ms, one decimal).
#[derive(serde::Serialize)]
struct ArenaReport {
    players: usize,
    joins_s: f64,
    joins_per_s: f64,
    wave1_games: usize,
    /// From `start` until every player of the first wave is told.
    wave1_ms: f64,
    wave2_games: usize,
    /// From the last game's end until every player of the second wave is told.
    wave2_ms: f64,
}

impl Report {
    fn print(&self) {
        println!(
            "rookery bench tournament: rookery serve on SQLite in a temporary directory, loopback"
        );
        println!("players signed up          {} in {:.1} s", self.players_signed_up, self.signup_s);
        if let Some(s) = &self.swiss {
            println!("Swiss of {} players", s.players);
            println!("  create                   {} ms", s.create_ms);
            println!(
                "  joins                    {:.1} s ({:.0} a second)",
                s.joins_s, s.joins_per_s
            );
            println!("  round 1 paired (start)   {} ms", s.pair_ms);
            println!("  published, games created {} ms ({} games)", s.publish_ms, s.games);
            println!(
                "  round start, all told    {} ms ({} players; target {} ms)",
                s.round_start_ms, s.players_told, s.target_ms
            );
        }
        if let Some(a) = &self.arena {
            println!("Arena of {} players", a.players);
            println!(
                "  joins                    {:.1} s ({:.0} a second)",
                a.joins_s, a.joins_per_s
            );
            println!("  wave 1 (start, all told) {} ms ({} games)", a.wave1_ms, a.wave1_games);
            println!("  wave 2 (last end, told)  {} ms ({} games)", a.wave2_ms, a.wave2_games);
        }
    }
}
