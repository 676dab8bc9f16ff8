//! Two `rookery serve` nodes on one PostgreSQL database (issue 39): a game moves to the other
//! node when its owner stops (SIGSTOP) or dies (SIGKILL); the stopped owner, woken up, writes
//! nothing and closes its sockets; every acknowledged move is stored once, in order.
//!
//! Needs `ROOKERY_TEST_POSTGRES` (an admin URL, as the store's tests; scripts/
//! postgres-test-server.sh starts one); skipped without it, except under CI.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod serving;

use std::net::SocketAddr;
use std::process::{Child, Command};
use std::time::{Duration, Instant};

use common::{Client, TestServer, Ws};
use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::json;
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
    async fn create(admin: &str) -> Database {
        let name = format!("rookery_cluster_{}", std::process::id());
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
        let addr = free_addr();
        let mut command = serve_command(addr);
        command
            .args(["--database", database, "--node-id", name, "--lease-ms"])
            .arg(LEASE_MS.to_string())
            .arg("--data-dir")
            .arg(std::env::temp_dir());
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

/// The same browser (cookies, CSRF token) talking to another node.
fn at(c: &Client, node: &Node) -> Client {
    Client {
        http: c.http.clone(),
        jar: c.jar.clone(),
        base: format!("http://{}", node.addr),
        addr: node.addr,
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_game_moves_to_another_node_and_a_stopped_owner_writes_nothing() {
    let admin = match std::env::var("ROOKERY_TEST_POSTGRES") {
        Ok(url) if !url.is_empty() => url,
        _ if std::env::var_os("CI").is_some() => {
            panic!("ROOKERY_TEST_POSTGRES is not set: CI must run the cluster test")
        }
        _ => {
            eprintln!("note: ROOKERY_TEST_POSTGRES is not set; the cluster test is skipped");
            return;
        }
    };
    let db = Database::create(&admin).await;
    let a = Node::start("node-a", &db.url);
    let b = Node::start("node-b", &db.url);

    // Two players on node A, which creates the game and so owns it.
    let alice = Client::new(&TestServer::remote(a.addr)).await;
    alice.signup("alice").await;
    let bob = Client::new(&TestServer::remote(a.addr)).await;
    bob.signup("bob").await;
    let game = alice
        .seek_accepted_by(
            &bob,
            json!({ "time_control": "600+0", "rated": false, "rules": "seed", "color": "white" }),
        )
        .await;
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

    // Stored once each, in order: the log's sequence numbers have no gap.
    let store = rookery_store::Store::open(&db.url).await.unwrap();
    let stored = store.game(&game).await.unwrap().unwrap();
    let seqs: Vec<i64> = stored.actions.iter().map(|a| a.seq).collect();
    assert_eq!(seqs, (0..seqs.len() as i64).collect::<Vec<_>>());
    let moves_stored = stored.actions.iter().filter(|a| a.kind == "move").count();
    assert_eq!(moves_stored, 7, "{:?}", stored.actions);
    store.close().await;
    drop(a);
    db.drop().await;
}
