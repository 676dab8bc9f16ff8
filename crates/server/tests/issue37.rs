//! Issue 37, end to end against a real server: a game starts fairly (no clock before both
//! first moves, a missed first move aborts, no claim before both have moved), actions that
//! change nothing are refused, and the server says what the docs say (close codes, strict
//! fields, every HTTP error as the documented JSON).

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use futures_util::{SinkExt, StreamExt};
use reqwest::StatusCode;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;

fn seek(tc: &str, rated: bool, rules: &str) -> Value {
    json!({ "time_control": tc, "rated": rated, "rules": rules, "color": "white" })
}

#[tokio::test]
async fn no_clock_runs_before_both_first_moves() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let game = white.seek_accepted_by(&black, seek("180+0", false, "seed")).await;
    let (mut w, hello) = white.game_socket(&game).await;
    let g = &hello["game"];
    assert!(g["clock"]["running"].is_null(), "no clock runs at the start: {g}");
    assert_eq!(g["first_move"]["color"], "white", "{g}");
    let left = g["first_move"]["ms"].as_u64().unwrap();
    assert!(left > 20_000 && left <= 30_000, "blitz: 30 s for the first move: {g}");
    let (mut b, _) = black.game_socket(&game).await;
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let m = w.play("e2e4", 0).await;
    assert!(m["clock"]["running"].is_null(), "Black's clock waits for its first move: {m}");
    assert_eq!(m["clock"]["white_ms"], 180_000, "{m}");
    assert_eq!(m["first_move"]["color"], "black", "{m}");
    tokio::time::sleep(Duration::from_millis(1200)).await;
    let m = b.play("e7e5", 1).await;
    assert_eq!(m["clock"]["black_ms"], 180_000, "{m}");
    assert_eq!(m["clock"]["running"], "white", "the clocks run from here: {m}");
    assert!(m["first_move"].is_null(), "{m}");
    server.stop().await;
}

#[tokio::test]
async fn a_rated_game_nobody_starts_is_aborted_without_points() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    white.signup("starter").await;
    let black = Client::new(&server).await;
    black.signup("nostarter").await;
    // Issue 37: this game ended 0-1 on time with ±10.00 points.
    let game = white.seek_accepted_by(&black, seek("5+0", true, "seed")).await;
    let (mut b, _) = black.game_socket(&game).await;
    let end = loop {
        // 30 s for White's first move, then the server aborts the game by itself.
        let v = b.recv_within(Duration::from_secs(45)).await;
        if v["t"] == "end" {
            break v;
        }
    };
    assert_eq!(end["result"], "*", "{end}");
    assert_eq!(end["termination"], "no_start", "{end}");
    assert!(end["ladder"].is_null(), "{end}");
    assert_eq!(end["reason"], "Game aborted: White made no first move in time");
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["status"], "aborted");
    for name in ["starter", "nostarter"] {
        let (_, profile) = white.get(&format!("/api/v1/users/{name}")).await;
        assert_eq!(profile["user"]["points"], "0.00", "{profile}");
        assert_eq!(profile["history"], json!([]), "{profile}");
    }
    server.stop().await;
}

#[tokio::test]
async fn an_absent_accepter_cannot_be_claimed_against_before_both_moved() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    // Bullet: a claim would be possible after 15 s away; Black never connects.
    let game = white.seek_accepted_by(&black, seek("60+0", false, "seed")).await;
    let (mut w, hello) = white.game_socket(&game).await;
    assert!(hello["game"]["abandoned"].is_null(), "{hello}");
    w.play("e2e4", 0).await;
    w.idle(Duration::from_millis(15_500)).await;
    w.send(json!({ "t": "claim_abandoned", "result": "win" })).await;
    let r = w.next_of("rejected").await;
    assert_eq!(r["code"], "not_started", "{r}");
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["status"], "live");
    assert_eq!(g["first_move"]["color"], "black", "{g}");
    server.stop().await;
}

#[tokio::test]
async fn an_action_that_changes_nothing_is_neither_stored_nor_told() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let game = white.seek_accepted_by(&black, seek("600+0", false, "casual")).await;
    let (mut w, _) = white.game_socket(&game).await;
    let (mut b, _) = black.game_socket(&game).await;
    w.play("e2e4", 0).await;
    b.play("e7e5", 1).await;
    for _ in 0..3 {
        w.send(json!({ "t": "takeback", "ply": 2 })).await;
    }
    let mut refused = 0;
    while refused < 2 {
        let v = w.recv().await;
        if v["t"] == "rejected" {
            assert_eq!(v["code"], "takeback_pending", "{v}");
            refused += 1;
        }
    }
    // Black was told once: everything before the answer to its `sync`.
    b.send(json!({ "t": "sync" })).await;
    let mut told = 0;
    loop {
        let v = b.recv().await;
        if v["t"] == "state" {
            break;
        }
        told += usize::from(v["kind"] == "takeback_requested");
    }
    assert_eq!(told, 1);
    // One stored row for the three requests.
    let dir = server.stop().await.expect("a temporary directory");
    let url = format!("sqlite://{}", dir.path().join("rookery.sqlite3").display());
    let mut db = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url).await.unwrap();
    let (n,): (i64,) =
        sqlx::query_as("SELECT COUNT(*) FROM actions WHERE game_id = ? AND kind = 'takeback'")
            .bind(&game)
            .fetch_one(&mut db)
            .await
            .unwrap();
    assert_eq!(n, 1, "one takeback request stored, not three");
}

/// The close frame the server ends with.
async fn close_code(ws: &mut common::Ws) -> u16 {
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.stream.next())
            .await
            .expect("an answer within 10 s")
            .expect("a close frame before the end")
            .expect("a clean close, not a dropped connection");
        if let Message::Close(frame) = msg {
            return frame.map_or(1005, |f| u16::from(f.code));
        }
    }
}

#[tokio::test]
async fn sockets_close_with_the_code_that_says_why() {
    let server = TestServer::start().await;
    let c = Client::new(&server).await;
    let mut lobby = c.socket("/api/v1/lobby/socket").await;
    lobby.next_of("seeks").await;
    lobby.send_raw(&"x".repeat(70 * 1024)).await;
    assert_eq!(close_code(&mut lobby).await, 1009, "a frame over 64 KiB");
    let mut lobby = c.socket("/api/v1/lobby/socket").await;
    lobby.next_of("seeks").await;
    let bad = Frame::message(vec![b'"', 0xff, 0xfe, b'"'], OpCode::Data(Data::Text), true);
    lobby.stream.send(Message::Frame(bad)).await.unwrap();
    assert_eq!(close_code(&mut lobby).await, 1007, "text that is not UTF-8");
    server.stop().await;
}

#[tokio::test]
async fn socket_messages_are_read_strictly() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let game = white.seek_accepted_by(&black, seek("600+0", false, "seed")).await;
    let (mut w, _) = white.game_socket(&game).await;
    // Issue 37: this played one of the two moves.
    w.send(json!({ "t": "move", "uci": "g1f3", "san": "a3", "ply": 0 })).await;
    let e = w.next_of("error").await;
    assert_eq!((e["code"].as_str(), e["field"].as_str()), (Some("bad_field"), Some("san")), "{e}");
    w.send(json!({ "t": "move", "uci": "e2e4", "ply": 0, "premove": true })).await;
    let e = w.next_of("error").await;
    assert_eq!((e["code"].as_str(), e["field"].as_str()), (Some("bad_field"), Some("premove")));
    w.send(json!({ "t": "resign", "by": "black" })).await;
    assert_eq!(w.next_of("error").await["field"], "by");
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!((g["ply"].as_u64(), g["status"].as_str()), (Some(0), Some("live")), "{g}");
    server.stop().await;
}

#[tokio::test]
async fn every_http_error_is_the_documented_json() {
    let server = TestServer::start().await;
    let c = Client::new(&server).await;
    let error = |body: &Value| -> (String, Option<String>) {
        let e = &body["error"];
        (e["code"].as_str().unwrap_or("?").to_owned(), e["field"].as_str().map(str::to_owned))
    };
    // An unknown body field names itself.
    let (status, body) = c
        .post(
            "/api/v1/account/signup",
            json!({ "username": "bob", "password": "long enough", "admin": true }),
        )
        .await;
    assert_eq!(
        (status, error(&body)),
        (StatusCode::BAD_REQUEST, ("bad_field".into(), Some("admin".into())))
    );
    let (status, body) =
        c.post("/api/v1/seeks", json!({ "time_control": "300+0", "colour": "white" })).await;
    assert_eq!(
        (status, error(&body)),
        (StatusCode::BAD_REQUEST, ("bad_field".into(), Some("colour".into())))
    );
    // Query strings: bad values and unknown names.
    let (status, body) = c.get("/api/v1/leaderboard?limit=lots").await;
    assert_eq!(
        (status, error(&body)),
        (StatusCode::BAD_REQUEST, ("bad_field".into(), Some("limit".into()))),
        "{body}"
    );
    let (status, body) = c.get("/api/v1/leaderboard?page=2").await;
    assert_eq!(
        (status, error(&body)),
        (StatusCode::BAD_REQUEST, ("bad_field".into(), Some("page".into()))),
        "{body}"
    );
    // A body over the limit.
    let r = c
        .http
        .post(server.url("/api/v1/seeks"))
        .header("x-csrf-token", &c.csrf)
        .header("content-type", "application/json")
        .body(format!("{{\"time_control\":\"{}\"}}", "1".repeat(20 * 1024)))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::PAYLOAD_TOO_LARGE);
    let body: Value = r.json().await.expect("a JSON body");
    assert_eq!(error(&body).0, "too_large", "{body}");
    // A method the path does not answer.
    let r = c
        .http
        .delete(server.url("/api/v1/games/live"))
        .header("x-csrf-token", &c.csrf)
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::METHOD_NOT_ALLOWED);
    let body: Value = r.json().await.expect("a JSON body");
    assert_eq!(error(&body).0, "method_not_allowed", "{body}");
    server.stop().await;
}

/// Issue 37: a finished game is served from what is stored (its result and PGN record), not
/// replayed action by action on every request. With its action log deleted, the game, its
/// socket, its PGN and its analysis answer as before.
#[tokio::test]
async fn a_finished_game_is_served_from_its_record_not_its_action_log() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let game = white.seek_accepted_by(&black, seek("300+2", false, "seed")).await;
    let (mut w, _) = white.game_socket(&game).await;
    let (mut b, _) = black.game_socket(&game).await;
    w.play("e2e4", 0).await;
    b.play("e7e5", 1).await;
    // A counted illegal move (the queen is blocked), then a move with a draw offer.
    w.send(json!({ "t": "move", "uci": "d1d3", "ply": 2 })).await;
    assert_eq!(w.next_of("rejected").await["code"], "illegal");
    w.send(json!({ "t": "move", "uci": "g1f3", "ply": 2, "offer_draw": true })).await;
    w.next_of("move").await;
    b.send(json!({ "t": "resign" })).await;
    let end = w.next_of("end").await;
    assert_eq!(
        (end["result"].as_str(), end["termination"].as_str()),
        (Some("1-0"), Some("resignation"))
    );

    let path = format!("/api/v1/games/{game}");
    let (status, before) = white.get(&path).await;
    assert_eq!(status, StatusCode::OK);
    let moves: Vec<&str> =
        before["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(moves, ["e4", "e5", "Nf3"], "{before}");
    assert_eq!(before["strikes"], json!({ "white": 1, "black": 0 }), "{before}");
    assert_eq!(before["status"], "finished");
    assert_eq!(before["reason"], "White wins by resignation");
    let (_, pgn_before) = white.get_text(&format!("{path}/pgn")).await;

    let url = format!("sqlite://{}", server.data_dir.join("rookery.sqlite3").display());
    let mut db = <sqlx::SqliteConnection as sqlx::Connection>::connect(&url).await.unwrap();
    let deleted = sqlx::query("DELETE FROM actions WHERE game_id = ?")
        .bind(&game)
        .execute(&mut db)
        .await
        .unwrap()
        .rows_affected();
    assert!(deleted >= 5, "the game's actions were stored: {deleted}");

    let (_, after) = white.get(&path).await;
    assert_eq!(after, before, "served from the record: the action log is not read");
    let (_, hello) = black.game_socket(&game).await;
    assert_eq!(hello["game"], before, "the socket of a finished game too");
    assert_eq!(white.get_text(&format!("{path}/pgn")).await.1, pgn_before);
    let (status, analysis) = white.get(&format!("{path}/analysis?ply=2")).await;
    assert_eq!(status, StatusCode::OK, "{analysis}");
    assert_eq!(analysis["fen"], "rnbqkbnr/pppp1ppp/8/4p3/4P3/8/PPPP1PPP/RNBQKBNR w KQkq - 0 2");
    server.stop().await;
}
