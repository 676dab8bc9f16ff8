//! Issue 38: the analysis of a finished game, in one background job, stored and computed once;
//! refused while the game is played (RULES.md §8.5) and for an aborted game.

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// A budget small enough for debug builds; the fool's mate needs no depth.
fn limits() -> rookery_server::Limits {
    let mut limits = rookery_server::Limits::default();
    limits.analysis.nodes_per_position = 20_000;
    limits
}

async fn start(dir: &std::path::Path) -> TestServer {
    TestServer::start_full(dir.to_path_buf(), "127.0.0.1:0".parse().unwrap(), None, limits()).await
}

/// Plays `moves` from the start between two fresh visitors; the game id and the clients.
async fn play(server: &TestServer, moves: &[&str]) -> (String, Client, Client) {
    let white = Client::new(server).await;
    let black = Client::new(server).await;
    let seek =
        json!({ "time_control": "600+0", "rated": false, "rules": "fide", "color": "white" });
    let game = white.seek_accepted_by(&black, seek).await;
    let (mut w, _) = white.game_socket(&game).await;
    let (mut b, _) = black.game_socket(&game).await;
    for (ply, uci) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut w } else { &mut b };
        mover.play(uci, ply).await;
    }
    (game, white, black)
}

/// Polls the job until it is done (a bound on a hang, not a timing assertion).
async fn wait_done(client: &Client, game: &str) -> Value {
    for _ in 0..1200 {
        let (status, body) = client.get(&format!("/api/v1/games/{game}/analysis")).await;
        assert_eq!(status, StatusCode::OK, "{body}");
        match body["status"].as_str() {
            Some("done") => return body,
            Some("queued" | "running") => tokio::time::sleep(Duration::from_millis(100)).await,
            _ => panic!("unexpected analysis state: {body}"),
        }
    }
    panic!("the analysis of {game} did not finish in two minutes");
}

#[tokio::test]
async fn a_finished_game_is_analysed_once_and_its_blunder_found() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    // 1. f3 e5 2. g4?? Qh4#: White's second move allows a mate in one.
    let (game, white, _black) = play(&server, &["f2f3", "e7e5", "g2g4", "d8h4"]).await;
    let path = format!("/api/v1/games/{game}/analysis");

    // Its opening, named on the game and in the stored PGN (issue 38).
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["opening"], json!({ "eco": "A00", "name": "Barnes Opening: Fool's Mate" }));
    let (_, pgn) = white.get_text(&format!("/api/v1/games/{game}/pgn")).await;
    assert!(pgn.contains("[ECO \"A00\"]\n[Opening \"Barnes Opening: Fool's Mate\"]"), "{pgn}");

    let (status, body) = white.get(&path).await;
    assert_eq!((status, body["status"].as_str()), (StatusCode::OK, Some("none")), "{body}");
    let (status, body) = white.post(&path, json!(null)).await;
    assert!(status == StatusCode::ACCEPTED || status == StatusCode::OK, "{status} {body}");
    assert_eq!(body["nodes"], 20_000);
    let done = wait_done(&white, &game).await;
    let a = &done["analysis"];

    let evals = a["evals"].as_array().unwrap();
    assert_eq!(evals.len(), 5, "one evaluation per position: {a}");
    assert_eq!(evals[3]["mate"], -1, "after 2. g4 Black mates in one: {}", evals[3]);
    assert_eq!(evals[3]["best_san"], "Qh4#");
    assert_eq!((evals[4]["mate"].as_i64(), evals[4]["best"].as_str()), (Some(0), None));
    assert!(evals[4]["win"].as_f64().unwrap() < 5.0, "White is mated: {}", evals[4]);

    let moves = a["moves"].as_array().unwrap();
    let sans: Vec<&str> = moves.iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    let g4 = &moves[2];
    assert_eq!(
        (g4["judgement"].as_str(), g4["glyph"].as_str()),
        (Some("blunder"), Some("??")),
        "{g4}"
    );
    let better = g4["better"].as_str().expect("a better move");
    assert_ne!(better, "g4");
    assert!(g4["accuracy"].as_f64().unwrap() < 20.0, "{g4}");
    assert_eq!(moves[3]["judgement"], Value::Null, "the mate itself is no mistake");
    assert_eq!(moves[3]["accuracy"], 100.0);
    let players = &a["players"];
    assert!(players["white"]["blunders"].as_u64().unwrap() >= 1, "{players}");
    assert_eq!(players["black"]["blunders"], 0, "{players}");
    assert!(
        players["black"]["accuracy"].as_f64().unwrap()
            > players["white"]["accuracy"].as_f64().unwrap(),
        "{players}"
    );

    // Asked for again: the same analysis at once, not a second job.
    let (status, again) = white.post(&path, json!(null)).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(again, done);

    // Stored: a restarted server serves the same analysis.
    server.stop().await;
    let server = start(dir.path()).await;
    let reader = Client::new(&server).await;
    let (status, after) = reader.get(&path).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(after, done);
    server.stop().await;
}

#[tokio::test]
async fn no_analysis_during_play_nor_of_an_aborted_game() {
    let dir = tempfile::tempdir().unwrap();
    let server = start(dir.path()).await;
    let (game, white, black) = play(&server, &["e2e4", "e7e5"]).await;
    let path = format!("/api/v1/games/{game}/analysis");
    // §8.5: no advice while the game is played, whoever asks.
    for client in [&white, &black] {
        let (status, body) = client.post(&path, json!(null)).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("game_in_progress")),
            "{body}"
        );
        let (status, body) = client.get(&path).await;
        assert_eq!(
            (status, body["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("game_in_progress"))
        );
    }

    // An aborted game was not played.
    let (aborted, white, _black) = play(&server, &[]).await;
    let (mut w, _) = white.game_socket(&aborted).await;
    w.send(json!({ "t": "abort" })).await;
    w.next_of("end").await;
    let (status, body) =
        white.post(&format!("/api/v1/games/{aborted}/analysis"), json!(null)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_aborted")),
        "{body}"
    );
    let (status, _) = white.post("/api/v1/games/NoSuchGame/analysis", json!(null)).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.stop().await;
}
