//! Several `rookery serve` nodes on one PostgreSQL database (issue 39): a game moves to the
//! other node when its owner stops (SIGSTOP) or dies (SIGKILL); the stopped owner, woken up,
//! writes nothing and closes its sockets; every acknowledged move is stored once, in order.
//! With NATS (Debian's `nats-server`), a player's socket on any node plays a game another
//! node serves, and a game moves to the node its players are on.
//!
//! Needs `ROOKERY_TEST_POSTGRES` (an admin URL, as the store's tests; scripts/
//! postgres-test-server.sh starts one) and, for the relay, `nats-server` on the PATH or in
//! /usr/sbin; skipped without them, except under CI.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod serving;

use std::net::SocketAddr;
use std::process::{Child, Command};
use std::sync::Arc;
use std::time::{Duration, Instant};

use common::{Client, TestServer, Ws};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use serving::{free_addr, serve_command, start};
use sqlx::{Connection, Executor, PgConnection};
use tokio_tungstenite::tungstenite::Message;

/// The nodes' lease: short, so that a test waits little for a takeover.
const LEASE_MS: u64 = 1_000;

/// A database of its own on the test server, dropped at the end.
struct Database {
    admin: String,
    name: String,
    url: String,
}

impl Database {
    async fn create(admin: &str, test: &str) -> Database {
        let name = format!("rookery_{test}_{}", std::process::id());
        let mut conn = PgConnection::connect(admin).await.expect("the admin URL connects");
        conn.execute(format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)").as_str())
            .await
            .unwrap();
        conn.execute(format!("CREATE DATABASE {name}").as_str()).await.unwrap();
        conn.close().await.unwrap();
        // The admin URL with its database (the last path segment) replaced.
        let (base, _) = admin.rsplit_once('/').expect("a URL with a database");
        Database { admin: admin.to_owned(), url: format!("{base}/{name}"), name }
    }

    async fn drop(self) {
        let mut conn = PgConnection::connect(&self.admin).await.unwrap();
        let sql = format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name);
        conn.execute(sql.as_str()).await.unwrap();
    }
}

/// A node: `rookery serve --node-id NAME` on the database, listening on a free port.
struct Node {
    addr: SocketAddr,
    child: Child,
}

impl Node {
    fn start(name: &str, database: &str) -> Node {
        Node::start_relayed(name, database, None)
    }

    /// A node relaying through the NATS server `nats`, if given.
    fn start_relayed(name: &str, database: &str, nats: Option<&Nats>) -> Node {
        Node::start_leased(name, database, nats, LEASE_MS)
    }

    /// A node relaying through `nats`, if given, under a lease of `lease_ms`.
    fn start_leased(name: &str, database: &str, nats: Option<&Nats>, lease_ms: u64) -> Node {
        let addr = free_addr();
        let mut command = serve_command(addr);
        command
            .args(["--database", database, "--node-id", name, "--lease-ms"])
            .arg(lease_ms.to_string())
            .arg("--data-dir")
            .arg(std::env::temp_dir());
        // Every test client comes from 127.0.0.1, straight to the nodes: the limits per
        // client address are lifted (the loads below are hundreds of players).
        command.args([
            "--max-connections-per-address",
            "1000000",
            "--seeks-per-address",
            "1000000",
            "--seeks-per-address-per-minute",
            "1000000",
            "--signups-per-address",
            "1000000",
        ]);
        if let Some(nats) = nats {
            command.args(["--nats", &nats.url()]);
        }
        Node { addr, child: start(command, Duration::from_secs(60), true) }
    }

    fn signal(&self, signal: &str) {
        let status = Command::new("kill")
            .args([signal, &self.child.id().to_string()])
            .status()
            .expect("kill runs");
        assert!(status.success(), "kill {signal}");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// Debian's `nats-server` on a free loopback port.
struct Nats {
    addr: SocketAddr,
    child: Child,
}

impl Nats {
    fn start_at(addr: SocketAddr) -> Nats {
        let binary = installed("nats-server").expect("nats-server is installed");
        let child = Command::new(binary)
            .args(["-a", "127.0.0.1", "-p", &addr.port().to_string()])
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("nats-server starts");
        let started = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "nats-server listens");
            std::thread::sleep(Duration::from_millis(20));
        }
        Nats { addr, child }
    }

    fn url(&self) -> String {
        format!("nats://{}", self.addr)
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.kill();
    }
}

/// Debian's HAProxy on a free loopback port in front of one server: it connects to the server
/// from `source` and, with `send_proxy`, begins each connection with a PROXY v2 header.
struct Haproxy {
    addr: SocketAddr,
    child: Child,
    _dir: tempfile::TempDir,
}

impl Haproxy {
    fn start(server: SocketAddr, source: &str, send_proxy: bool) -> Haproxy {
        let binary = installed("haproxy").expect("haproxy is installed");
        let addr = free_addr();
        let send = if send_proxy { "send-proxy-v2" } else { "" };
        let config = format!(
            "defaults\n    mode http\n    timeout connect 2s\n    timeout client 30s\n    \
             timeout server 30s\nfrontend players\n    bind {addr}\n    default_backend node\n\
             backend node\n    source {source}\n    server node {server} {send}\n"
        );
        let dir = tempfile::tempdir().expect("a temporary directory");
        let path = dir.path().join("haproxy.cfg");
        std::fs::write(&path, &config).expect("the config is written");
        // -db: in the foreground, so that the test holds the process.
        let child = Command::new(binary)
            .arg("-db")
            .arg("-f")
            .arg(&path)
            .stdout(std::process::Stdio::null())
            .spawn()
            .expect("haproxy starts");
        let started = Instant::now();
        while std::net::TcpStream::connect(addr).is_err() {
            assert!(started.elapsed() < Duration::from_secs(10), "haproxy listens:\n{config}");
            std::thread::sleep(Duration::from_millis(20));
        }
        Haproxy { addr, child, _dir: dir }
    }
}

impl Drop for Haproxy {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The admin URL of the test PostgreSQL server; `None` (the test is skipped) without one,
/// except under CI.
fn postgres_admin() -> Option<String> {
    match std::env::var("ROOKERY_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => Some(url),
        _ if std::env::var_os("CI").is_some() => {
            panic!("ROOKERY_TEST_POSTGRES is not set: CI must run the cluster tests")
        }
        _ => {
            eprintln!("note: ROOKERY_TEST_POSTGRES is not set; the cluster test is skipped");
            None
        }
    }
}

/// The admin URL of the test PostgreSQL server when it and nats-server are both there;
/// `None` (`test` is skipped, and says why) otherwise, except under CI, which must run it.
fn postgres_and_nats(test: &str) -> Option<String> {
    let admin = postgres_admin()?;
    if installed("nats-server").is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install nats-server for {test}");
        eprintln!("note: nats-server is not installed; {test} is skipped");
        return None;
    }
    Some(admin)
}

/// The program `name` on the PATH, or where Debian's package puts it (/usr/sbin).
fn installed(name: &str) -> Option<std::path::PathBuf> {
    let on_path = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|p| std::env::split_paths(&p).map(|d| d.join(name)).collect::<Vec<_>>());
    on_path.chain([std::path::Path::new("/usr/sbin").join(name)]).find(|p| p.is_file())
}

/// The same browser (cookies, CSRF token) talking to another node.
fn at(c: &Client, node: &Node) -> Client {
    at_addr(c, node.addr)
}

/// The same browser talking to the node at `addr`.
fn at_addr(c: &Client, addr: SocketAddr) -> Client {
    Client {
        http: c.http.clone(),
        jar: c.jar.clone(),
        base: format!("http://{addr}"),
        addr,
        csrf: c.csrf.clone(),
        local: c.local,
    }
}

/// Waits for the server to close the socket (a close frame, or the connection ending).
async fn closed_within(ws: &mut Ws, limit: Duration) -> bool {
    let until = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(until, ws.stream.next()).await {
            Err(_) => return false,
            Ok(None | Some(Err(_) | Ok(Message::Close(_)))) => return true,
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// The game's moves in SAN, as the node `c` talks to serves the game.
async fn moves(c: &Client, game: &str) -> String {
    let (status, view) = c.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let moves = view["moves"].as_array().expect("moves");
    moves.iter().map(|m| m["san"].as_str().unwrap()).collect::<Vec<_>>().join(" ")
}

/// A node relaying through `nats` whose seeks wait `grace_s` for their owner's lobby socket,
/// with the limits per client address lifted (every test client is on 127.0.0.1).
fn lobby_node(name: &str, database: &str, nats: &Nats, grace_s: u64) -> Node {
    let addr = free_addr();
    let mut command = serve_command(addr);
    command
        .args(["--database", database, "--node-id", name, "--lease-ms"])
        .arg(LEASE_MS.to_string())
        .arg("--data-dir")
        .arg(std::env::temp_dir())
        .args(["--nats", &nats.url(), "--seek-owner-grace-s", &grace_s.to_string()])
        .args(["--signups-per-address", "1000", "--seeks-per-address-per-minute", "1000"]);
    Node { addr, child: start(command, Duration::from_secs(60), true) }
}

/// The ids of the seeks `c` sees on its node.
async fn seek_ids(c: &Client) -> Vec<String> {
    let (status, body) = c.get("/api/v1/seeks").await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let seeks = body["seeks"].as_array().expect("seeks");
    seeks.iter().map(|s| s["id"].as_str().unwrap().to_owned()).collect()
}

/// Waits until the seek `id` is listed (`listed`) or not on `c`'s node; whether it came to
/// be within `limit` (a bound on a hang).
async fn listed_within(c: &Client, id: &str, listed: bool, limit: Duration) -> bool {
    let started = Instant::now();
    while started.elapsed() < limit {
        if seek_ids(c).await.iter().any(|s| s == id) == listed {
            return true;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    false
}

/// A new user `name`, signed up on `node`, with a lobby socket there past its first list.
async fn lobby_member(node: &Node, name: &str) -> (Client, Ws) {
    let c = Client::new(&TestServer::remote(node.addr)).await;
    c.signup(name).await;
    let mut lobby = c.socket("/api/v1/lobby/socket").await;
    lobby.next_of("seeks").await;
    (c, lobby)
}

/// Opens a seek (or, with `to`, a challenge) on `c`'s node: its id.
async fn open_seek(c: &Client, to: Option<&str>) -> String {
    let body = json!({ "time_control": "300+3", "rated": false, "rules": "seed", "to": to });
    let path = if to.is_some() { "/api/v1/challenges" } else { "/api/v1/seeks" };
    let (status, seek) = c.post(path, body).await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    seek["id"].as_str().unwrap().to_owned()
}

/// `c` accepts the seek `id` on its node: the status and body.
async fn accept(c: &Client, id: &str) -> (StatusCode, Value) {
    c.post(&format!("/api/v1/seeks/{id}/accept"), json!(null)).await
}

/// Skips a lobby socket's messages until one of type `t` about the seek `id` (its `id`,
/// `seek` or `seek.id`).
async fn lobby_news(ws: &mut Ws, t: &str, id: &str) -> Value {
    loop {
        let v = ws.next_of(t).await;
        if v["id"] == id || v["seek"] == id || v["seek"]["id"] == id {
            return v;
        }
    }
}

/// How many games the database holds.
/// Alice and Bob signed up on `node`, and a game of theirs made there, so that `node` owns
/// it: 10 minutes, unrated, under `rules`, Alice White.
async fn alice_and_bob_play_on(node: SocketAddr, rules: &str) -> (Client, Client, String) {
    let alice = Client::new(&TestServer::remote(node)).await;
    alice.signup("alice").await;
    let bob = Client::new(&TestServer::remote(node)).await;
    bob.signup("bob").await;
    let game = alice
        .seek_accepted_by(
            &bob,
            json!({ "time_control": "600+0", "rated": false, "rules": rules, "color": "white" }),
        )
        .await;
    (alice, bob, game)
}

async fn games_stored(db: &Database) -> i64 {
    let mut conn = PgConnection::connect(&db.url).await.unwrap();
    let n: i64 =
        sqlx::query_scalar("SELECT count(*) FROM games").fetch_one(&mut conn).await.unwrap();
    conn.close().await.unwrap();
    n
}

/// The lobby's count of games in play, read from the store on a cluster and kept a few
/// seconds, is read again when the node's own games change: a lobby opened right after a
/// game was made shows it, as does the list beside it (a browser saw "1 game in play" from
/// the list, then "0 games in play" from the kept count).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_count_of_games_in_play_is_never_older_than_this_nodes_games() {
    let Some(admin) = postgres_and_nats("the live count test") else { return };
    let db = Database::create(&admin, "live_count").await;
    let nats = Nats::start_at(free_addr());
    let a = lobby_node("node-a", &db.url, &nats, 3);
    let (ann, mut lobby) = lobby_member(&a, "ann").await;
    assert_eq!(lobby.next_of("live").await["games"], 0);
    let body = json!({ "level": 1, "color": "white", "time_control": "300+2", "rules": "casual" });
    let (status, game) = ann.post("/api/v1/engine-games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let (_, list) = ann.get("/api/v1/games/live").await;
    assert_eq!(list["games"].as_array().map(Vec::len), Some(1), "{list}");
    assert_eq!(list["count"], 1, "the count is read with the list: {list}");
    let mut again = ann.socket("/api/v1/lobby/socket").await;
    assert_eq!(again.next_of("live").await["games"], 1, "the count agrees with the list");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lobby_is_one_across_the_nodes() {
    let Some(admin) = postgres_and_nats("the lobby test") else { return };
    let db = Database::create(&admin, "lobby").await;
    let nats = Nats::start_at(free_addr());
    // A seek's owner has 3 s to come to a lobby: more than a lobby snapshot's interval
    // (2 s), so that the owner's presence on another node is known in time without luck.
    let grace_s = 3;
    let mut a = lobby_node("node-a", &db.url, &nats, grace_s);
    let b = lobby_node("node-b", &db.url, &nats, grace_s);
    let c = lobby_node("node-c", &db.url, &nats, grace_s);

    let (ann, mut ann_lobby) = lobby_member(&a, "ann").await;
    let (bob, mut bob_lobby) = lobby_member(&b, "bob").await;
    let (cy, mut cy_lobby) = lobby_member(&c, "cyd").await;

    // A seek made on A shows on B and C, on their lobby sockets and in their lists.
    let seek = open_seek(&ann, None).await;
    lobby_news(&mut bob_lobby, "seek_added", &seek).await;
    lobby_news(&mut cy_lobby, "seek_added", &seek).await;
    assert!(seek_ids(&bob).await.contains(&seek), "B lists A's seek");
    assert!(seek_ids(&cy).await.contains(&seek), "C lists A's seek");

    // Cy accepts it on C: A creates the game, once; both players are told on their lobby
    // sockets, on A and C; the seek is gone everywhere.
    let (status, body) = accept(&cy, &seek).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = body["game"].as_str().expect("a game").to_owned();
    assert_eq!(lobby_news(&mut ann_lobby, "game_started", &seek).await["game"], game);
    assert_eq!(lobby_news(&mut cy_lobby, "game_started", &seek).await["game"], game);
    lobby_news(&mut bob_lobby, "seek_removed", &seek).await;
    for (who, node) in [(&ann, "A"), (&bob, "B"), (&cy, "C")] {
        assert!(!seek_ids(who).await.contains(&seek), "{node} still lists the accepted seek");
    }
    assert_eq!(games_stored(&db).await, 1);
    let (status, view) = cy.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(status, StatusCode::OK, "{view}");
    let mut players = [view["white"]["name"].clone(), view["black"]["name"].clone()];
    players.sort_by_key(|p| p.to_string());
    assert_eq!(players, [json!("ann"), json!("cyd")], "{view}");
    // Accepted once: another accept, on B, is told the seek is gone, as on one node.
    let (status, body) = accept(&bob, &seek).await;
    assert_eq!((status, body["error"]["code"].clone()), (StatusCode::CONFLICT, json!("gone")));

    // Two accepters on two nodes at once: exactly one game.
    let seek = open_seek(&ann, None).await;
    lobby_news(&mut bob_lobby, "seek_added", &seek).await;
    lobby_news(&mut cy_lobby, "seek_added", &seek).await;
    let (by_bob, by_cy) = tokio::join!(accept(&bob, &seek), accept(&cy, &seek));
    let mut statuses = [by_bob.0, by_cy.0];
    statuses.sort();
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CONFLICT], "{by_bob:?} {by_cy:?}");
    assert_eq!(games_stored(&db).await, 2);

    // A challenge made on A, to bob: shown to him on B (not to cy), accepted there.
    let challenge = open_seek(&ann, Some("bob")).await;
    lobby_news(&mut bob_lobby, "seek_added", &challenge).await;
    assert!(!seek_ids(&cy).await.contains(&challenge), "C shows cyd a challenge to bob");
    let (status, body) = accept(&cy, &challenge).await;
    assert_eq!(
        (status, body["error"]["code"].clone()),
        (StatusCode::FORBIDDEN, json!("forbidden"))
    );
    let (status, body) = accept(&bob, &challenge).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    assert_eq!(lobby_news(&mut bob_lobby, "game_started", &challenge).await["game"], body["game"]);
    assert_eq!(games_stored(&db).await, 3);

    // Its owner cancels a seek of A through B.
    let seek = open_seek(&ann, None).await;
    lobby_news(&mut bob_lobby, "seek_added", &seek).await;
    let status = ann
        .http
        .delete(format!("http://{}/api/v1/seeks/{seek}", b.addr))
        .header("x-csrf-token", &ann.csrf)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, StatusCode::NO_CONTENT);
    lobby_news(&mut bob_lobby, "seek_removed", &seek).await;

    // Presence across nodes: dee's lobby socket is on B, her seek made through A; fay, in no
    // lobby, makes one after hers. Once fay's is swept (its grace over), dee's, older, is
    // past its grace too and stays.
    let (dee, dee_lobby) = lobby_member(&b, "dee").await;
    let fay = Client::new(&TestServer::remote(a.addr)).await;
    fay.signup("fay").await;
    let kept = open_seek(&at(&dee, &a), None).await;
    let swept = open_seek(&fay, None).await;
    let limit = Duration::from_secs(grace_s + 10);
    assert!(listed_within(&cy, &swept, false, limit).await, "fay's seek is swept");
    assert!(seek_ids(&ann).await.contains(&kept), "A keeps dee's seek: she is in B's lobby");
    assert!(seek_ids(&cy).await.contains(&kept), "C shows dee's seek");
    // Dee leaves B's lobby, and so every lobby: her seek closes.
    drop(dee_lobby);
    assert!(listed_within(&ann, &kept, false, Duration::from_secs(10)).await, "dee's seek closes");

    // A dies: its seeks vanish from B and C once A is no longer heard; an accept meanwhile
    // finds no node to answer it, and is told the seek is gone.
    let orphan = open_seek(&ann, None).await;
    lobby_news(&mut cy_lobby, "seek_added", &orphan).await;
    assert!(seek_ids(&bob).await.contains(&orphan));
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let (status, body) = accept(&bob, &orphan).await;
    assert_eq!((status, body["error"]["code"].clone()), (StatusCode::CONFLICT, json!("gone")));
    lobby_news(&mut cy_lobby, "seek_removed", &orphan).await;
    assert!(!seek_ids(&cy).await.contains(&orphan), "C still lists the dead node's seek");
    assert!(!seek_ids(&bob).await.contains(&orphan), "B still lists the dead node's seek");
    let (_, health) = at_health(&b).await;
    assert!(health["relay"]["lobby"]["asked"].as_u64() >= Some(1), "{health}");

    drop((b, c, nats));
    db.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_lobby_works_alone_while_nats_is_down_and_the_mirrors_refill_after() {
    let Some(admin) = postgres_and_nats("the lobby test") else { return };
    let db = Database::create(&admin, "lobby_nats").await;
    let mut nats = Nats::start_at(free_addr());
    let a = lobby_node("node-a", &db.url, &nats, 5);
    let b = lobby_node("node-b", &db.url, &nats, 5);
    let (ann, mut ann_lobby) = lobby_member(&a, "ann").await;
    let (bob, mut bob_lobby) = lobby_member(&b, "bob").await;
    let seek = open_seek(&ann, None).await;
    lobby_news(&mut bob_lobby, "seek_added", &seek).await;

    // NATS dies: B no longer hears A, and closes A's seek for its sockets (it could not be
    // accepted from B); B's own lobby goes on.
    nats.kill();
    lobby_news(&mut bob_lobby, "seek_removed", &seek).await;
    assert!(!seek_ids(&bob).await.contains(&seek));
    let local = open_seek(&bob, None).await;
    let (status, body) = accept(&at(&ann, &b), &local).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    lobby_news(&mut bob_lobby, "game_started", &local).await;
    assert!(seek_ids(&ann).await.contains(&seek), "A keeps its own seek");

    // NATS returns: the nodes hear each other again, and A's seek is back on B.
    let nats = Nats::start_at(nats.addr);
    assert!(listed_within(&bob, &seek, true, Duration::from_secs(30)).await, "A's seek is back");
    lobby_news(&mut bob_lobby, "seek_added", &seek).await;
    let (status, body) = accept(&bob, &seek).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    lobby_news(&mut ann_lobby, "game_started", &seek).await;
    assert_eq!(games_stored(&db).await, 2);

    drop((a, b, nats));
    db.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_owner_holds_five_seeks_across_the_nodes_not_five_on_each() {
    let Some(admin) = postgres_and_nats("the lobby test") else { return };
    let db = Database::create(&admin, "owner_seeks").await;
    let nats = Nats::start_at(free_addr());
    let a = lobby_node("node-a", &db.url, &nats, 60);
    let b = lobby_node("node-b", &db.url, &nats, 60);
    let (ann, mut ann_lobby) = lobby_member(&a, "ann").await;
    let (_bob, mut bob_lobby) = lobby_member(&b, "bob").await;
    let body = json!({ "time_control": "300+3", "rated": false, "rules": "seed" });

    // Five seeks on A; a sixth there is refused: the error to expect on B.
    let mut on_a = Vec::new();
    for _ in 0..5 {
        on_a.push(open_seek(&ann, None).await);
    }
    let (status, refused) = ann.post("/api/v1/seeks", body.clone()).await;
    assert_eq!(status, StatusCode::CONFLICT, "{refused}");
    assert_eq!(refused["error"]["code"], "too_many_seeks", "{refused}");
    // Once B's mirror holds them, B refuses a sixth the same way.
    for id in &on_a {
        lobby_news(&mut bob_lobby, "seek_added", id).await;
    }
    let ann_on_b = at(&ann, &b);
    assert_eq!(ann_on_b.post("/api/v1/seeks", body.clone()).await, (status, refused.clone()));

    // One closes on A: once B hears of it, Ann may open one there; then A, hearing of that
    // one, refuses her again.
    let status = ann
        .http
        .delete(format!("http://{}/api/v1/seeks/{}", a.addr, on_a[0]))
        .header("x-csrf-token", &ann.csrf)
        .send()
        .await
        .unwrap()
        .status();
    assert_eq!(status, StatusCode::NO_CONTENT);
    lobby_news(&mut bob_lobby, "seek_removed", &on_a[0]).await;
    let on_b = open_seek(&ann_on_b, None).await;
    lobby_news(&mut ann_lobby, "seek_added", &on_b).await;
    assert_eq!(ann.post("/api/v1/seeks", body).await, (StatusCode::CONFLICT, refused));

    drop((a, b, nats));
    db.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn behind_haproxy_each_client_address_has_its_own_allowance_with_the_proxy_protocol() {
    if installed("haproxy").is_none() {
        assert!(std::env::var_os("CI").is_none(), "CI must install haproxy");
        eprintln!("note: haproxy is not installed; the PROXY protocol test is skipped");
        return;
    }
    let body = json!({ "time_control": "300+3", "rated": false, "rules": "seed" });
    // HAProxy connects from 127.0.0.9; the clients come from 127.0.0.2 and 127.0.0.3.
    for proxy_protocol in [false, true] {
        let data = tempfile::tempdir().unwrap();
        let addr = free_addr();
        let mut command = serve_command(addr);
        command.arg("--data-dir").arg(data.path()).args([
            "--seeks-per-address",
            "2",
            "--seek-owner-grace-s",
            "3600",
        ]);
        if proxy_protocol {
            command.args(["--proxy-protocol", "127.0.0.9/32"]);
        }
        let mut node = start(command, Duration::from_secs(60), true);
        let haproxy = Haproxy::start(addr, "127.0.0.9", proxy_protocol);
        let front = TestServer::remote(haproxy.addr);

        let first = Client::new_at(&front, "127.0.0.2").await;
        for _ in 0..2 {
            open_seek(&first, None).await;
        }
        let (status, refused) = first.post("/api/v1/seeks", body.clone()).await;
        assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{refused}");
        assert_eq!(refused["error"]["code"], "too_many_seeks", "{refused}");
        // 127.0.0.3 has its own allowance only when the node is told who it is.
        let second = Client::new_at(&front, "127.0.0.3").await;
        let (status, seek) = second.post("/api/v1/seeks", body.clone()).await;
        if proxy_protocol {
            assert_eq!(status, StatusCode::CREATED, "{seek}");
        } else {
            assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "both are HAProxy's address: {seek}");
        }
        drop(haproxy);
        node.kill().unwrap();
        node.wait().unwrap();
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_moves_to_another_node_and_a_stopped_owner_writes_nothing() {
    let Some(admin) = postgres_admin() else { return };
    let db = Database::create(&admin, "cluster").await;
    let a = Node::start("node-a", &db.url);
    let b = Node::start("node-b", &db.url);

    // Two players on node A, which creates the game and so owns it.
    let (alice, bob, game) = alice_and_bob_play_on(a.addr, "seed").await;
    let (mut white_a, _) = alice.game_socket(&game).await;
    let (mut black_a, _) = bob.game_socket(&game).await;
    white_a.play("e2e4", 0).await;
    black_a.play("e7e5", 1).await;
    white_a.play("g1f3", 2).await;

    // A stops (a long pause: a garbage collector, a stalled disk, a VM migration). Once its
    // lease has run out, the players' next connections, on B, take the game over.
    a.signal("-STOP");
    tokio::time::sleep(Duration::from_millis(LEASE_MS + 700)).await;
    let (alice_b, bob_b) = (at(&alice, &b), at(&bob, &b));
    let (mut white_b, hello) = alice_b.game_socket(&game).await;
    assert_eq!(hello["game"]["moves"].as_array().map(Vec::len), Some(3), "{hello}");
    let (mut black_b, _) = bob_b.game_socket(&game).await;
    black_b.play("b8c6", 3).await;
    white_b.play("f1b5", 4).await;

    // A wakes up and believes the game is still its own, at ply 3: Black's move there is
    // refused unstored (its epoch is stale), and A closes its sockets.
    a.signal("-CONT");
    black_a.send(json!({ "t": "move", "uci": "g8f6", "ply": 3 })).await;
    assert!(closed_within(&mut black_a, Duration::from_secs(5)).await, "A closes Black's socket");
    assert!(closed_within(&mut white_a, Duration::from_secs(5)).await, "A closes White's socket");
    assert_eq!(moves(&alice_b, &game).await, "e4 e5 Nf3 Nc6 Bb5");
    // A socket that comes back to A is told where the game is now.
    let refused = alice.try_socket(&format!("/api/v1/games/{game}/socket")).await.err();
    let refused = refused.as_ref().map(|(status, body)| (*status, body["error"]["code"].clone()));
    assert_eq!(refused, Some((421, json!("elsewhere"))), "{refused:?}");

    // B dies (SIGKILL): A, alive again, takes the game back once B's lease has run out.
    let mut b = b;
    b.child.kill().unwrap();
    b.child.wait().unwrap();
    drop(white_b);
    drop(black_b);
    let started = Instant::now();
    let (mut white, mut black) = loop {
        match alice.try_socket(&format!("/api/v1/games/{game}/socket")).await {
            Ok(mut ws) => {
                ws.next_of("hello").await;
                let (black, _) = bob.game_socket(&game).await;
                break (ws, black);
            }
            Err((421, _)) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(other) => panic!("{other:?}"),
        }
        assert!(started.elapsed() < Duration::from_secs(15), "A takes the game back");
    };
    black.play("a7a6", 5).await;
    white.play("b5a4", 6).await;
    assert_eq!(moves(&alice, &game).await, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4");

    assert_stored_once(&db, &game, 7).await;
    drop(a);
    db.drop().await;
}

/// Every acknowledged move of `game` is stored once, in order: `moves` moves, and the log's
/// sequence numbers have no gap.
async fn assert_stored_once(db: &Database, game: &str, moves: usize) {
    let store = rookery_store::Store::open(&db.url).await.unwrap();
    let stored = store.game(game).await.unwrap().unwrap();
    let seqs: Vec<i64> = stored.actions.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, (0..seqs.len() as i64).collect::<Vec<_>>());
    let moves_stored = stored.actions.iter().filter(|a| a.kind == "move").count();
    assert_eq!(moves_stored, moves, "{:?}", stored.actions);
    store.close().await;
}

/// The node that owns `game`, as stored.
async fn owner(db: &Database, game: &str) -> Option<String> {
    let store = rookery_store::Store::open(&db.url).await.unwrap();
    let (owner, _) = store.game_owner(game).await.unwrap();
    store.close().await;
    owner
}

/// Sends `uci` at `ply` on `mover`, then reads every socket of `all` up to that move's echo:
/// the plies of the `move` messages each one saw are added to its list in `seen`.
async fn play_seen(
    mover: usize,
    all: &mut [&mut Ws],
    seen: &mut [Vec<u64>],
    uci: &str,
    ply: usize,
) {
    all[mover].send(json!({ "t": "move", "uci": uci, "ply": ply })).await;
    for (ws, seen) in all.iter_mut().zip(seen.iter_mut()) {
        loop {
            let v = ws.recv().await;
            assert_ne!(v["t"], "rejected", "move {uci} at ply {ply}: {v}");
            if v["t"] == "move" {
                seen.push(v["ply"].as_u64().unwrap());
                if v["ply"] == ply + 1 {
                    break;
                }
            }
        }
    }
}

/// A socket on `c`'s node for `game`, trying again while the node answers that another
/// serves it or closes the socket for the client to connect again (an owner that died, whose
/// lease has not run out yet; NATS coming back), for at most `limit`.
async fn socket_again(c: &Client, game: &str, limit: Duration) -> (Ws, Value) {
    let started = Instant::now();
    loop {
        assert!(started.elapsed() < limit, "a socket for {game} within {limit:?}");
        match c.try_socket(&format!("/api/v1/games/{game}/socket")).await {
            Ok(mut ws) => {
                match tokio::time::timeout(Duration::from_secs(5), ws.stream.next()).await {
                    Ok(Some(Ok(Message::Text(t)))) => {
                        let v: Value = serde_json::from_str(t.as_str()).unwrap();
                        if v["t"] == "hello" {
                            return (ws, v);
                        }
                        panic!("a socket's first message is hello: {v}");
                    }
                    _ => tokio::time::sleep(Duration::from_millis(100)).await,
                }
            }
            Err((421, _)) => tokio::time::sleep(Duration::from_millis(100)).await,
            Err(other) => panic!("{other:?}"),
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_relay_games_through_nats_and_a_killed_owner_loses_nothing() {
    let Some(admin) = postgres_and_nats("the relay test") else { return };
    let mut nats = Nats::start_at(free_addr());
    let db = Database::create(&admin, "relay").await;
    let a = Node::start_relayed("node-a", &db.url, Some(&nats));
    let mut b = Node::start_relayed("node-b", &db.url, Some(&nats));
    let c = Node::start_relayed("node-c", &db.url, Some(&nats));

    // The game is made on A, so A owns it; White's socket reaches B (the balancer's choice),
    // and A, with no player of the game on it, hands the game to B.
    let (alice, bob, game) = alice_and_bob_play_on(a.addr, "seed").await;
    let carol = Client::new(&TestServer::remote(a.addr)).await;
    carol.signup("carol").await;
    assert_eq!(owner(&db, &game).await.as_deref(), Some("node-a"));
    let (mut white, _) = at(&alice, &b).game_socket(&game).await;
    assert_eq!(owner(&db, &game).await.as_deref(), Some("node-b"), "handed to White's node");
    // Black's socket is on C: B keeps the game (White plays there) and C relays.
    let (mut black, hello) = at(&bob, &c).game_socket(&game).await;
    assert_eq!(hello["you"], "black", "{hello}");
    assert_eq!(owner(&db, &game).await.as_deref(), Some("node-b"), "kept where White is");

    // Both sockets see every move, in order, whichever node they are on.
    let line = ["e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6"];
    let mut seen = vec![Vec::new(), Vec::new()];
    for (ply, uci) in line.iter().enumerate() {
        play_seen(ply % 2, &mut [&mut white, &mut black], &mut seen, uci, ply).await;
    }
    let plies: Vec<u64> = (1..=line.len() as u64).collect();
    assert_eq!(seen, vec![plies.clone(), plies], "the same stream on both nodes");
    // B counts White's moves as its own sockets' and Black's as relayed; A handed one game over.
    let on_b = at(&alice, &b).get("/health").await.1;
    assert_eq!(on_b["relay"]["local_actions"], 3, "{on_b}");
    assert_eq!(on_b["relay"]["relayed_actions"], 3, "{on_b}");
    assert_eq!(alice.get("/health").await.1["relay"]["handed_over"], 1);

    // White thinks 3 s, then B dies. The relayed socket on C is closed within seconds (its
    // owner no longer answers), and the players' sockets, reconnecting on C, take the game
    // over once B's lease ran out.
    let (mut white_clock, mut black_clock) = (Vec::new(), Vec::new());
    for ws in [&mut white, &mut black] {
        ws.send(json!({ "t": "sync" })).await;
        let state = ws.next_of("state").await;
        white_clock.push(state["game"]["clock"]["white_ms"].as_i64().unwrap());
        black_clock.push(state["game"]["clock"]["black_ms"].as_i64().unwrap());
    }
    tokio::time::sleep(Duration::from_millis(3_000)).await;
    b.child.kill().unwrap();
    b.child.wait().unwrap();
    assert!(closed_within(&mut black, Duration::from_secs(10)).await, "C closes Black's socket");
    let (mut white, hello) = socket_again(&at(&alice, &c), &game, Duration::from_secs(15)).await;
    assert_eq!(hello["game"]["moves"].as_array().map(Vec::len), Some(6), "{hello}");
    // White's 3 s before B died are charged, up to B's last heartbeat (every 250 ms); the
    // seconds no node served the game are not (issue 39: the outage credited). Black's clock
    // stood.
    let charged = white_clock[0] - hello["game"]["clock"]["white_ms"].as_i64().unwrap();
    assert!((2_400..3_900).contains(&charged), "White charged {charged} ms: {hello}");
    assert_eq!(black_clock[0], hello["game"]["clock"]["black_ms"].as_i64().unwrap());
    let (mut black, _) = at(&bob, &c).game_socket(&game).await;
    assert_eq!(owner(&db, &game).await.as_deref(), Some("node-c"));
    let mut seen = vec![Vec::new(), Vec::new()];
    for (ply, uci) in [(6, "b5a4"), (7, "g8f6")] {
        play_seen(ply % 2, &mut [&mut white, &mut black], &mut seen, uci, ply).await;
    }

    // NATS dies: the game, whose sockets are on its owner, goes on.
    nats.kill();
    for (ply, uci) in [(8, "e1g1"), (9, "f8e7")] {
        play_seen(ply % 2, &mut [&mut white, &mut black], &mut seen, uci, ply).await;
    }
    assert_eq!(seen, vec![vec![7, 8, 9, 10], vec![7, 8, 9, 10]]);
    // NATS comes back: a spectator on A follows the game C serves.
    let nats = Nats::start_at(nats.addr);
    let (mut watcher, hello) = socket_again(&at(&carol, &a), &game, Duration::from_secs(30)).await;
    assert_eq!(hello["you"], Value::Null, "{hello}");
    assert_eq!(hello["game"]["moves"].as_array().map(Vec::len), Some(10), "{hello}");
    let mut seen = vec![Vec::new(), Vec::new(), Vec::new()];
    play_seen(0, &mut [&mut white, &mut black, &mut watcher], &mut seen, "f1e1", 10).await;
    assert_eq!(seen, vec![vec![11], vec![11], vec![11]]);
    assert_eq!(moves(&alice, &game).await, "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1");

    assert_stored_once(&db, &game, 11).await;
    drop((a, c, nats));
    db.drop().await;
}

/// The wall clock, Unix ms, as the nodes stamp their clocks (`server_ms`).
fn wall_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis() as i64
}

/// Waits for the server to close the socket: `Some` with the close frame's code (`None`: the
/// connection ended without one), or `None` if it stayed open for `limit`.
async fn close_within(ws: &mut Ws, limit: Duration) -> Option<Option<u16>> {
    let until = tokio::time::Instant::now() + limit;
    loop {
        match tokio::time::timeout_at(until, ws.stream.next()).await {
            Err(_) => return None,
            Ok(Some(Ok(Message::Close(frame)))) => return Some(frame.map(|f| u16::from(f.code))),
            Ok(None | Some(Err(_))) => return Some(None),
            Ok(Some(Ok(_))) => {}
        }
    }
}

/// Issue 51: an owner paused past its lease (SIGSTOP) and woken before any other node took its
/// game charges the side to move up to its last good heartbeat, not for the pause: no node
/// served the game meanwhile (docs/api.md). The credit is stored, so a node that rebuilds the
/// game from its log later shows the same clocks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue51_a_paused_owner_charges_no_one_the_pause() {
    let Some(admin) = postgres_admin() else { return };
    let db = Database::create(&admin, "paused_owner").await;
    let mut a = Node::start("node-a", &db.url);
    let (alice, bob, game) = alice_and_bob_play_on(a.addr, "casual").await;
    let (mut white, _) = alice.game_socket(&game).await;
    let (mut black, _) = bob.game_socket(&game).await;
    white.play("e2e4", 0).await;
    // White's clock runs from Black's first move: its time then, and when (the server's clock).
    let echo = black.play("e7e5", 1).await;
    let white_ms = echo["clock"]["white_ms"].as_i64().unwrap();
    let started_ms = echo["clock"]["server_ms"].as_i64().unwrap();

    // White thinks a second; A stops for four leases and wakes before anyone took the game.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    let stopped_ms = wall_ms();
    a.signal("-STOP");
    tokio::time::sleep(Duration::from_millis(4 * LEASE_MS)).await;
    a.signal("-CONT");
    let paused = wall_ms() - stopped_ms;
    white.send(json!({ "t": "sync" })).await;
    let state = white.next_of("state").await;
    let thought = stopped_ms - started_ms;
    let charged = white_ms - state["game"]["clock"]["white_ms"].as_i64().unwrap();
    eprintln!("White thought {thought} ms, A stopped {paused} ms: White charged {charged} ms");
    // Charged the time thought up to A's last heartbeat before it stopped (every quarter
    // lease), and what the wake-up took; not the pause (it was charged all of it, issue 51).
    let heartbeat = LEASE_MS as i64 / 4;
    assert!(charged < thought + LEASE_MS as i64, "White charged {charged} ms: {state}");
    assert!(charged > thought - heartbeat - 500, "White charged {charged} ms: {state}");

    // The credit is stored: White moves, A dies, and B, rebuilding the game from its log,
    // shows White's clock (standing now) as A last did, to the millisecond.
    let echo = white.play("g1f3", 2).await;
    let white_after = echo["clock"]["white_ms"].clone();
    a.child.kill().unwrap();
    a.child.wait().unwrap();
    let b = Node::start("node-b", &db.url);
    let (_, hello) = socket_again(&at(&alice, &b), &game, Duration::from_secs(15)).await;
    assert_eq!(hello["game"]["clock"]["white_ms"], white_after, "replayed: {hello}");
    assert_stored_once(&db, &game, 3).await;
    drop(b);
    db.drop().await;
}

/// Issue 51: when a game's owner stops (SIGSTOP) rather than dies, the node relaying its
/// players' and spectators' sockets notices that it no longer answers and closes them with
/// 1013 (connect again) within 2 s, as for a dead owner; a socket that connects again there
/// takes the game over as soon as the owner's lease has run out; the owner, woken, gives the
/// game up, and its players play on through the relay.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue51_a_paused_owners_relayed_sockets_are_told_within_two_seconds() {
    let Some(admin) = postgres_and_nats("the paused owner relay test") else { return };
    let nats = Nats::start_at(free_addr());
    let db = Database::create(&admin, "paused_relay").await;
    // The default lease, longer than the notice: Black connects again while it still runs.
    let lease_ms = 3_000;
    let a = Node::start_leased("node-a", &db.url, Some(&nats), lease_ms);
    let b = Node::start_leased("node-b", &db.url, Some(&nats), lease_ms);
    let c = Node::start_leased("node-c", &db.url, Some(&nats), lease_ms);
    let (alice, bob, game) = alice_and_bob_play_on(a.addr, "casual").await;
    let carol = Client::new(&TestServer::remote(a.addr)).await;
    carol.signup("carol").await;
    // White on B (the game is handed there), Black and a spectator on C, relayed to B.
    let (mut white, _) = at(&alice, &b).game_socket(&game).await;
    let (mut black, _) = at(&bob, &c).game_socket(&game).await;
    let (mut watcher, _) = at(&carol, &c).game_socket(&game).await;
    assert_eq!(owner(&db, &game).await.as_deref(), Some("node-b"));
    let mut seen = vec![Vec::new(), Vec::new(), Vec::new()];
    for (ply, uci) in ["e2e4", "e7e5", "g1f3", "b8c6"].into_iter().enumerate() {
        let all = &mut [&mut white, &mut black, &mut watcher];
        play_seen(ply % 2, all, &mut seen, uci, ply).await;
    }

    // B stops. C's sockets are told (closed, 1013) within 2 s, not when a request times out.
    let stopped = Instant::now();
    b.signal("-STOP");
    let black_told =
        async { (close_within(&mut black, Duration::from_secs(10)).await, stopped.elapsed()) };
    let watcher_told =
        async { (close_within(&mut watcher, Duration::from_secs(10)).await, stopped.elapsed()) };
    let ((black_code, black_at), (watcher_code, watcher_at)) =
        tokio::join!(black_told, watcher_told);
    eprintln!("C told Black after {black_at:?} ({black_code:?}), the spectator after {watcher_at:?} ({watcher_code:?})");
    assert_eq!(black_code, Some(Some(1013)), "Black's socket closed, to connect again");
    assert_eq!(watcher_code, Some(Some(1013)), "the spectator's socket closed, to connect again");
    assert!(black_at.max(watcher_at) < Duration::from_secs(2), "{black_at:?} {watcher_at:?}");

    // Black connects again on C, which takes the game over once B's lease has run out.
    let (mut black, hello) = socket_again(&at(&bob, &c), &game, Duration::from_secs(15)).await;
    let taken = stopped.elapsed();
    eprintln!("C took the game over {taken:?} after B stopped (lease {lease_ms} ms)");
    assert_eq!(hello["game"]["moves"].as_array().map(Vec::len), Some(4), "{hello}");
    assert_eq!(owner(&db, &game).await.as_deref(), Some("node-c"));
    assert!(taken < Duration::from_millis(lease_ms + 1_500), "taken over after {taken:?}");

    // B wakes: it closes White's socket; White, on B again, plays through the relay to C.
    b.signal("-CONT");
    assert!(closed_within(&mut white, Duration::from_secs(10)).await, "B closes White's socket");
    let (mut white, hello) = socket_again(&at(&alice, &b), &game, Duration::from_secs(15)).await;
    assert_eq!(hello["game"]["moves"].as_array().map(Vec::len), Some(4), "{hello}");
    let mut seen = vec![Vec::new(), Vec::new()];
    for (ply, uci) in [(4, "f1b5"), (5, "a7a6")] {
        play_seen(ply % 2, &mut [&mut white, &mut black], &mut seen, uci, ply).await;
    }
    assert_eq!(seen, vec![vec![5, 6], vec![5, 6]]);
    assert_stored_once(&db, &game, 6).await;
    drop((a, b, c, nats));
    db.drop().await;
}

/// Issue 51: a node paused past its lease serves no game state when it wakes before it has
/// checked its claims again: the sockets and requests that queued while it was stopped are
/// answered with the game as its new owner has it, never with the position and clocks of
/// before the pause.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn issue51_a_woken_node_serves_no_stale_state() {
    let Some(admin) = postgres_and_nats("the stale state test") else { return };
    let nats = Nats::start_at(free_addr());
    let db = Database::create(&admin, "stale_state").await;
    let a = Node::start_relayed("node-a", &db.url, Some(&nats));
    let b = Node::start_relayed("node-b", &db.url, Some(&nats));
    let (alice, bob, game) = alice_and_bob_play_on(a.addr, "casual").await;
    let (mut white_a, _) = alice.game_socket(&game).await;
    let (mut black_a, _) = bob.game_socket(&game).await;
    white_a.play("e2e4", 0).await;
    black_a.play("e7e5", 1).await;
    white_a.play("g1f3", 2).await;
    let mut watchers = Vec::new();
    for _ in 0..4 {
        watchers.push(Client::new(&TestServer::remote(a.addr)).await);
    }

    // A stops; the players take the game over on B and play two more moves there.
    a.signal("-STOP");
    tokio::time::sleep(Duration::from_millis(LEASE_MS + 700)).await;
    let (mut white_b, _) = socket_again(&at(&alice, &b), &game, Duration::from_secs(15)).await;
    let (mut black_b, _) = at(&bob, &b).game_socket(&game).await;
    black_b.play("b8c6", 3).await;
    white_b.play("f1b5", 4).await;

    // Spectators' sockets and requests reach A while it is stopped, and wait there.
    let mut queued = tokio::task::JoinSet::new();
    for w in watchers {
        let path = format!("/api/v1/games/{game}/socket");
        queued.spawn(async move {
            match w.try_socket(&path).await {
                Ok(mut ws) => ("socket", first_text(&mut ws).await.unwrap_or(Value::Null)),
                Err((status, body)) => ("refused", json!({ "status": status, "body": body })),
            }
        });
        let (http, url) =
            (reqwest::Client::new(), format!("http://{}/api/v1/games/{game}", a.addr));
        queued.spawn(async move {
            let r = http.get(url).send().await.unwrap();
            ("view", json!({ "status": r.status().as_u16(), "game": r.json::<Value>().await.ok() }))
        });
    }
    tokio::time::sleep(Duration::from_millis(300)).await;
    a.signal("-CONT");
    while let Some(answer) = queued.join_next().await {
        let (what, v) = answer.unwrap();
        let moves = match what {
            "socket" => &v["game"]["moves"],
            "view" => &v["game"]["moves"],
            _ => continue,
        };
        assert_eq!(
            moves.as_array().map(Vec::len),
            Some(5),
            "A served the game as before its pause: {what} {v}"
        );
    }
    drop((a, b, nats));
    db.drop().await;
}

/// Twenty plies of a Ruy Lopez, in UCI: every game of the load plays them.
const RUY_LOPEZ: [&str; 20] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
];

/// One player of the load: a browser, and its game socket on some node, opened again on a
/// live node whenever it closes.
struct Player {
    client: Client,
    ws: Option<Ws>,
}

/// A `hello` a player's socket opened with, and when it came.
struct Hello {
    at: Instant,
    view: Value,
}

impl Player {
    /// Its socket, opened (on the first live node that gives a `hello`) if it has none; the
    /// `hello` when it was opened now.
    async fn socket(&mut self, game: &str, live: &[SocketAddr]) -> (&mut Ws, Option<Hello>) {
        let mut opened = None;
        if self.ws.is_none() {
            let started = Instant::now();
            // Its own node first, while it lives.
            let mut order: Vec<SocketAddr> = live.to_vec();
            if let Some(k) = order.iter().position(|a| *a == self.client.addr) {
                order.rotate_left(k);
            }
            'found: loop {
                for addr in &order {
                    let c = at_addr(&self.client, *addr);
                    if let Ok(mut ws) = c.try_socket(&format!("/api/v1/games/{game}/socket")).await
                    {
                        if let Some(view) = first_text(&mut ws).await {
                            if view["t"] == "hello" {
                                opened = Some(Hello { at: Instant::now(), view });
                                self.ws = Some(ws);
                                break 'found;
                            }
                        }
                    }
                }
                assert!(started.elapsed() < Duration::from_secs(30), "a socket for {game}");
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
        }
        (self.ws.as_mut().unwrap(), opened)
    }
}

/// The first text message of a socket within 5 s, `None` if it closes first.
async fn first_text(ws: &mut Ws) -> Option<Value> {
    loop {
        match tokio::time::timeout(Duration::from_secs(5), ws.stream.next()).await {
            Ok(Some(Ok(Message::Text(t)))) => return serde_json::from_str(t.as_str()).ok(),
            Ok(Some(Ok(_))) => {}
            _ => return None,
        }
    }
}

/// How a move was acknowledged.
struct Ack {
    /// When.
    at: Instant,
    /// The clocks the server sent with it (`white_ms`, `black_ms`), when it was the move's
    /// echo; `None` when a reconnection showed the move already played (the clocks then are
    /// those of later).
    clock: Option<Value>,
    /// The `hello`s of the sockets opened on the way, in order.
    hellos: Vec<Hello>,
}

/// Plays `ply` for `mover` until the server acknowledges it (its echo on the mover's
/// socket, or a reconnection showing it played), through closed sockets and dead nodes.
async fn play_acknowledged(
    mover: &mut Player,
    game: &str,
    ply: usize,
    live: &tokio::sync::watch::Receiver<Vec<SocketAddr>>,
) -> Ack {
    let mut hellos = Vec::new();
    loop {
        let nodes = live.borrow().clone();
        let (ws, opened) = mover.socket(game, &nodes).await;
        if let Some(hello) = opened {
            let played = hello.view["game"]["moves"].as_array().map_or(0, Vec::len);
            hellos.push(hello);
            if played > ply {
                return Ack { at: Instant::now(), clock: None, hellos }; // stored before the socket closed
            }
        }
        let sent = ws.stream.send(Message::Text(
            json!({ "t": "move", "uci": RUY_LOPEZ[ply], "ply": ply }).to_string().into(),
        ));
        if sent.await.is_err() {
            mover.ws = None;
            continue;
        }
        loop {
            match tokio::time::timeout(Duration::from_secs(3), ws.stream.next()).await {
                Ok(Some(Ok(Message::Text(t)))) => {
                    let v: Value = serde_json::from_str(t.as_str()).unwrap();
                    if v["t"] == "move" && v["ply"] == ply + 1 {
                        let clock = Some(v["clock"].clone());
                        return Ack { at: Instant::now(), clock, hellos };
                    }
                    if v["t"] == "rejected" {
                        // Sent on a socket that reconnected after the move was played
                        // (stale ply): ask for the state again through a new socket.
                        assert_eq!(v["code"], "stale_ply", "{v}");
                        mover.ws = None;
                        break;
                    }
                }
                Ok(Some(Ok(_))) => {}
                Ok(Some(Err(_)) | None) | Err(_) => {
                    mover.ws = None;
                    break;
                }
            }
        }
    }
}

/// The node killed under load: when, its name, and the games it owned then.
#[derive(Default)]
struct Kill {
    at: Option<Instant>,
    /// The same moment by the wall clock (Unix ms), as the nodes stamp their clocks.
    wall_ms: i64,
    owned: std::collections::HashSet<String>,
}

/// How fairly one game that lost its owner was treated, as its players saw it.
#[derive(Debug)]
struct Outage {
    /// From the kill to the game's first move acknowledged after it.
    recovered: Duration,
    /// The time charged to the side to move across the outage, less the time its clock ran
    /// before the kill (ms): between minus the owner's heartbeat interval and the few
    /// milliseconds from the new owner's start to its `hello`, when only the time no node
    /// served the game was credited.
    credit_error_ms: Option<i64>,
}

/// Plays one game of the load: `RUY_LOPEZ`, a move about every second, through whatever
/// happens to the nodes; what its players saw of the kill if it lost its owner.
async fn play_load_game(
    id: &str,
    [white, black]: &mut [Player; 2],
    live: &tokio::sync::watch::Receiver<Vec<SocketAddr>>,
    kill: &std::sync::Mutex<Kill>,
) -> Option<Outage> {
    // The side to move's turn: when its clock started (the server's wall clock, ms) and the
    // time it started from (ms), when known exactly (the previous move's echo).
    let mut turn: Option<(i64, i64)> = None;
    let mut outage = None::<Outage>;
    for ply in 0..RUY_LOPEZ.len() {
        let (mover, key) =
            if ply % 2 == 0 { (&mut *white, "white_ms") } else { (&mut *black, "black_ms") };
        let ack = play_acknowledged(mover, id, ply, live).await;
        let (killed_at, killed_wall_ms, lost_owner) = {
            let kill = kill.lock().unwrap();
            (kill.at, kill.wall_ms, kill.owned.contains(id))
        };
        if let (Some(killed_at), true, None) = (killed_at, lost_owner, &outage) {
            if ack.at > killed_at {
                // The first socket opened after the kill shows the clock the new owner
                // rebuilt: the mover charged from the turn's start to the old owner's last
                // heartbeat, not for the seconds no node served the game.
                let first = ack.hellos.iter().find(|h| h.at > killed_at);
                let credit_error_ms = match (first, turn) {
                    (Some(hello), Some((started_ms, clock_ms)))
                        if started_ms < killed_wall_ms
                            && hello.view["game"]["moves"].as_array().map(Vec::len)
                                == Some(ply) =>
                    {
                        // Both clocks as the server stamped them (`server_ms`, its wall
                        // clock): the turn's start as the move's echo had it, the kill by
                        // this machine's same clock.
                        let now_ms = hello.view["game"]["clock"][key].as_i64().unwrap();
                        Some((clock_ms - now_ms) - (killed_wall_ms - started_ms))
                    }
                    _ => None,
                };
                outage = Some(Outage { recovered: ack.at - killed_at, credit_error_ms });
            }
        }
        // The clocks run from Black's first move (§9); the next mover's time from this echo.
        let next = if ply % 2 == 0 { "black_ms" } else { "white_ms" };
        turn = ack
            .clock
            .filter(|_| ply >= 1)
            .map(|c| (c["server_ms"].as_i64().unwrap(), c[next].as_i64().unwrap()));
        tokio::time::sleep(Duration::from_millis(700)).await;
    }
    outage
}

/// Games of the load test: the issue's 150 unless `ROOKERY_FAILOVER_GAMES` says otherwise.
fn load_games() -> usize {
    std::env::var("ROOKERY_FAILOVER_GAMES").ok().and_then(|n| n.parse().ok()).unwrap_or(150)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn the_busiest_node_killed_under_load_loses_no_acknowledged_move() {
    let Some(admin) = postgres_and_nats("the failover test") else { return };
    let games_n = load_games();
    let nats = Nats::start_at(free_addr());
    let db = Database::create(&admin, "failover").await;
    let names = ["node-a", "node-b", "node-c"];
    let mut nodes: Vec<Node> =
        names.iter().map(|name| Node::start_relayed(name, &db.url, Some(&nats))).collect();
    let addrs: Vec<SocketAddr> = nodes.iter().map(|n| n.addr).collect();
    let (live_tx, live) = tokio::sync::watch::channel(addrs.clone());

    // Each game made on one node, White's socket on the next (the game moves there), Black's
    // on the third (relayed).
    let mut games = Vec::new();
    for i in 0..games_n {
        let at_node = |k: usize| TestServer::remote(addrs[(i + k) % 3]);
        let white = Client::new(&at_node(0)).await;
        let black = Client::new(&at_node(0)).await;
        let id = white
            .seek_accepted_by(
                &black,
                json!({ "time_control": "600+0", "rated": false, "rules": "casual", "color": "white" }),
            )
            .await;
        let (white, black) = (at(&white, &nodes[(i + 1) % 3]), at(&black, &nodes[(i + 2) % 3]));
        games.push((id, [Player { client: white, ws: None }, Player { client: black, ws: None }]));
    }

    // Every game plays its twenty plies, about a move a second each; a third of the way in,
    // the node serving the most games dies.
    let kill = Arc::new(std::sync::Mutex::new(Kill::default()));
    let mut tasks = tokio::task::JoinSet::new();
    let stagger = Duration::from_millis(4_000 / games_n.max(1) as u64);
    let ids: Vec<String> = games.iter().map(|(id, _)| id.clone()).collect();
    for (i, (id, mut players)) in games.into_iter().enumerate() {
        let (live, kill) = (live.clone(), kill.clone());
        tasks.spawn(async move {
            tokio::time::sleep(stagger * i as u32).await;
            let outage = play_load_game(&id, &mut players, &live, &kill).await;
            (id, outage)
        });
    }
    tokio::time::sleep(Duration::from_secs(8)).await;
    let mut busiest = (0, 0);
    for (k, node) in nodes.iter().enumerate() {
        let (_, health) = at_health(node).await;
        let n = health["live_games"].as_u64().unwrap_or(0);
        if n > busiest.1 {
            busiest = (k, n);
        }
    }
    let victim_name = names[busiest.0];
    let mut victim = nodes.remove(busiest.0);
    live_tx.send(nodes.iter().map(|n| n.addr).collect()).unwrap();
    {
        // Its games as stored a moment before: ownership changes only by a claim, and no
        // node claims a game whose owner's lease runs.
        let mut conn = PgConnection::connect(&db.url).await.unwrap();
        let owned: std::collections::HashSet<String> =
            sqlx::query_scalar("SELECT id FROM games WHERE owner = $1")
                .bind(victim_name)
                .fetch_all(&mut conn)
                .await
                .unwrap()
                .into_iter()
                .collect();
        conn.close().await.unwrap();
        victim.child.kill().unwrap();
        let wall_ms =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_millis()
                as i64;
        *kill.lock().unwrap() = Kill { at: Some(Instant::now()), wall_ms, owned };
    }
    victim.child.wait().unwrap();

    let mut outages = Vec::new();
    while let Some(done) = tasks.join_next().await {
        let (id, outage) = done.expect("a game's task");
        assert_stored_once(&db, &id, RUY_LOPEZ.len()).await;
        outages.extend(outage.map(|o| (id, o)));
    }
    let lost = kill.lock().unwrap().owned.len();
    eprintln!("killed {victim_name}, owner of {lost} of {games_n} games ({} live)", busiest.1);
    assert_eq!(outages.len(), lost, "every game that lost its owner moved again");
    let mut recovered: Vec<Duration> = outages.iter().map(|(_, o)| o.recovered).collect();
    recovered.sort();
    let mut errors: Vec<i64> = outages.iter().filter_map(|(_, o)| o.credit_error_ms).collect();
    errors.sort();
    eprintln!("first move acknowledged after the kill, per game: {recovered:?}");
    eprintln!("clock charged across the outage minus time thought before it (ms): {errors:?}");
    // Every game's first move after the kill came within the lease, the detection (a relayed
    // socket's 2 s `alive`) and the reconnection; a bound on a hang, with room for a loaded
    // machine: the figures are printed above.
    assert!(recovered.iter().all(|r| *r < Duration::from_secs(15)), "{recovered:?}");
    // The outage credited to within a second (issue 39), in every game where the players saw
    // the turn's start and the new owner's first clock (most: a move echoed before the kill
    // and not played before the first reconnection).
    assert!(errors.len() * 2 >= lost, "{} of {lost} games measured", errors.len());
    for (id, o) in &outages {
        if let Some(e) = o.credit_error_ms {
            assert!((-1_000..1_000).contains(&e), "game {id}: outage credited off by {e} ms");
        }
    }

    // Every game's record replays: `rookery pgn replay` on the PGNs the nodes export.
    let reader = Client::new(&TestServer::remote(nodes[0].addr)).await;
    let mut pgns = String::new();
    for id in &ids {
        let r = reader.http.get(format!("{}/api/v1/games/{id}/pgn", reader.base)).send().await;
        let r = r.unwrap();
        assert_eq!(r.status(), StatusCode::OK, "the PGN of {id}");
        pgns.push_str(&r.text().await.unwrap());
        pgns.push('\n');
    }
    let file = std::env::temp_dir().join(format!("rookery-failover-{}.pgn", std::process::id()));
    std::fs::write(&file, &pgns).unwrap();
    let replay = Command::new(env!("CARGO_BIN_EXE_rookery"))
        .args(["pgn", "replay", "--json"])
        .arg(&file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    assert!(replay.status.success(), "{}", String::from_utf8_lossy(&replay.stderr));
    let reports: Vec<Value> = String::from_utf8(replay.stdout)
        .unwrap()
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(reports.len(), games_n);
    for report in &reports {
        assert_eq!(report["error"], Value::Null, "{report}");
        assert_eq!(report["plies"], RUY_LOPEZ.len(), "{report}");
    }
    drop((nodes, nats));
    db.drop().await;
}

/// A node's `/health`.
async fn at_health(node: &Node) -> (StatusCode, Value) {
    let http = reqwest::Client::new();
    let r = http.get(format!("http://{}/health", node.addr)).send().await.unwrap();
    (r.status(), r.json().await.unwrap())
}
