//! `rookery serve` as a process: killed hard (SIGKILL) in the middle of a game and started
//! again on the same database, it has lost no acknowledged move and the clocks agree.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod serving;

use std::net::SocketAddr;
use std::path::Path;
use std::process::Child;
use std::time::{Duration, Instant};

use common::Client;
use serde_json::json;
use serving::{free_addr, serve_command, start};

/// A Ruy Lopez, Breyer variation: 20 plies with no repetition.
const MOVES: [&str; 20] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1b5", "a7a6", "b5a4", "g8f6", "e1g1", "f8e7", "f1e1", "b7b5",
    "a4b3", "d7d6", "c2c3", "e8g8", "h2h3", "c6b8", "d2d4", "b8d7",
];

/// Starts `rookery serve` and waits until it listens.
fn serve(addr: SocketAddr, data_dir: &Path) -> Child {
    let mut command = serve_command(addr);
    command.arg("--data-dir").arg(data_dir);
    start(command, Duration::from_secs(30), false)
}

/// A server handle the harness's `Client` can talk to.
async fn client(addr: SocketAddr) -> Client {
    let server = common::TestServer::remote(addr);
    Client::new(&server).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_loses_no_acknowledged_move() {
    let dir = tempfile::tempdir().unwrap();
    let addr = free_addr();
    let mut server = serve(addr, dir.path());

    let white = client(addr).await;
    white.signup("hardkill").await;
    let black = client(addr).await;
    black.signup("survivor").await;
    let game = white
        .seek_accepted_by(
            &black,
            json!({ "time_control": "600+0", "rated": true, "rules": "seed", "color": "white" }),
        )
        .await;
    let (mut w, _) = white.game_socket(&game).await;
    let (mut b, _) = black.game_socket(&game).await;

    // Play 11 acknowledged moves, send the 12th and kill the server at once, before or
    // while it stores it.
    let mut last_clock = json!(null);
    for (ply, uci) in MOVES.iter().enumerate().take(11) {
        let mover = if ply % 2 == 0 { &mut w } else { &mut b };
        last_clock = mover.play(uci, ply).await["clock"].clone();
    }
    b.send(json!({ "t": "move", "uci": MOVES[11], "ply": 11 })).await;
    server.kill().unwrap();
    let killed_at = Instant::now();
    server.wait().unwrap();

    let mut server = serve(addr, dir.path());
    let (status, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(status, reqwest::StatusCode::OK, "{g}");
    assert_eq!(g["status"], "live");
    let stored: Vec<&str> =
        g["moves"].as_array().unwrap().iter().map(|m| m["uci"].as_str().unwrap()).collect();
    assert!(stored.len() == 11 || stored.len() == 12, "{stored:?}");
    assert_eq!(stored, MOVES[..stored.len()], "the stored moves are the played ones");
    // White's clock stood still while the server was down; Black's (if its move was not
    // stored, Black is still on move) lost at most the time since its last stored action.
    let white_before = last_clock["white_ms"].as_u64().unwrap();
    let white_now = g["clock"]["white_ms"].as_u64().unwrap();
    let outage = killed_at.elapsed().as_millis() as u64;
    if stored.len() == 11 {
        assert_eq!(white_now, white_before, "white is not on move: its clock did not run");
        let black_now = g["clock"]["black_ms"].as_u64().unwrap();
        let black_before = last_clock["black_ms"].as_u64().unwrap();
        assert!(
            black_now <= black_before && black_before - black_now < 2_000 + outage / 10,
            "black {black_before} -> {black_now}"
        );
    } else {
        assert!(
            white_now <= white_before && white_before - white_now < 2_000,
            "white {white_before} -> {white_now}"
        );
    }

    // The game goes on to the end of the line.
    let (mut w, hello) = white.game_socket(&game).await;
    assert_eq!(hello["you"], "white");
    let (mut b, _) = black.game_socket(&game).await;
    for (ply, uci) in MOVES.iter().enumerate().skip(stored.len()) {
        let mover = if ply % 2 == 0 { &mut w } else { &mut b };
        mover.play(uci, ply).await;
    }
    b.send(json!({ "t": "resign" })).await;
    assert_eq!(w.next_of("end").await["termination"], "resignation");
    server.kill().unwrap();
    server.wait().unwrap();
}
