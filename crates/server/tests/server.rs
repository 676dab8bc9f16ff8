//! The server end to end: real HTTP and WebSocket clients against a real server on an
//! ephemeral port with a temporary SQLite file.

mod common;

use std::time::Duration;

use common::{Client, TestServer, Ws};
use reqwest::StatusCode;
use serde_json::json;

fn seek(tc: &str, rated: bool, rules: &str, color: &str) -> serde_json::Value {
    json!({ "time_control": tc, "rated": rated, "rules": rules, "color": color })
}

/// A game from `white`'s seek (`body`, White to `white`) accepted by `black`, with both
/// players' game sockets open.
async fn seated(white: &Client, black: &Client, body: serde_json::Value) -> (String, Ws, Ws) {
    let game = white.seek_accepted_by(black, body).await;
    let (w, _) = white.game_socket(&game).await;
    let (b, _) = black.game_socket(&game).await;
    (game, w, b)
}

#[tokio::test]
async fn accounts_sign_up_log_in_and_out() {
    let server = TestServer::start().await;
    let alice = Client::new(&server).await;
    let user = alice.signup("Alice").await;
    assert_eq!(user["name"], "Alice");
    assert_eq!(user["points"], "0.00");
    let (_, me) = alice.get("/api/v1/account").await;
    assert_eq!(me["user"]["name"], "Alice");

    // Names are unique regardless of case.
    let other = Client::new(&server).await;
    let (status, body) = other
        .post(
            "/api/v1/account/signup",
            json!({ "username": "alice", "password": "another password" }),
        )
        .await;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    assert_eq!(body["error"]["code"], "username_taken");
    // Bad names and passwords name the field.
    for (name, password, field) in [
        ("a", "long enough pw", "username"),
        ("9lives", "long enough pw", "username"),
        ("bob", "short", "password"),
    ] {
        let (status, body) = other
            .post("/api/v1/account/signup", json!({ "username": name, "password": password }))
            .await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
        assert_eq!(body["error"]["field"], field, "{body}");
    }
    // Unknown fields are refused.
    let (status, body) = other
        .post(
            "/api/v1/account/signup",
            json!({ "username": "bob", "password": "long enough pw", "admin": true }),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");

    // Log out, log in again with any case.
    let (status, _) = alice.post("/api/v1/account/logout", json!(null)).await;
    assert_eq!(status, StatusCode::NO_CONTENT);
    let (_, me) = alice.get("/api/v1/account").await;
    assert!(me["user"].is_null());
    let (status, body) = alice
        .post(
            "/api/v1/account/login",
            json!({ "username": "ALICE", "password": "correct horse battery" }),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (_, me) = alice.get("/api/v1/account").await;
    assert_eq!(me["user"]["name"], "Alice");

    // Wrong passwords: 401, then rate-limited.
    let mallory = Client::new(&server).await;
    for _ in 0..5 {
        let (status, _) = mallory
            .post(
                "/api/v1/account/login",
                json!({ "username": "alice", "password": "guess guess" }),
            )
            .await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    let (status, body) = mallory
        .post(
            "/api/v1/account/login",
            json!({ "username": "alice", "password": "correct horse battery" }),
        )
        .await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    server.stop().await;
}

#[tokio::test]
async fn state_changing_requests_need_the_csrf_header() {
    let server = TestServer::start().await;
    let c = Client::new(&server).await;
    let r = c
        .http
        .post(server.url("/api/v1/seeks"))
        .json(&seek("300+2", false, "casual", "white"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let r = c
        .http
        .post(server.url("/api/v1/seeks"))
        .header("x-csrf-token", "wrong")
        .json(&seek("300+2", false, "casual", "white"))
        .send()
        .await
        .unwrap();
    assert_eq!(r.status(), StatusCode::FORBIDDEN);
    let (_, seeks) = c.get("/api/v1/seeks").await;
    assert_eq!(seeks["seeks"].as_array().unwrap().len(), 0);
    server.stop().await;
}

#[tokio::test]
async fn a_seek_accepted_by_many_at_once_makes_one_game() {
    let server = TestServer::start().await;
    let owner = Client::new(&server).await;
    owner.signup("owner").await;
    // A seek lives while its owner is in the lobby (issue 37), and the sign-ups below take time.
    let _lobby = owner.socket("/api/v1/lobby/socket").await;
    let (status, s) = owner.post("/api/v1/seeks", seek("180+2", true, "seed", "random")).await;
    assert_eq!(status, StatusCode::CREATED, "{s}");
    let id = s["id"].as_str().unwrap().to_owned();
    let mut clients = Vec::new();
    for i in 0..12 {
        let c = Client::new(&server).await;
        c.signup(&format!("racer{i}")).await;
        clients.push(c);
    }
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|c| {
            let id = id.clone();
            tokio::spawn(
                async move { c.post(&format!("/api/v1/seeks/{id}/accept"), json!(null)).await },
            )
        })
        .collect();
    let mut won = 0;
    for t in tasks {
        let (status, body) = t.await.unwrap();
        match status {
            StatusCode::CREATED => won += 1,
            StatusCode::CONFLICT => assert_eq!(body["error"]["code"], "gone"),
            other => panic!("unexpected {other}: {body}"),
        }
    }
    assert_eq!(won, 1);
    let (_, live) = owner.get("/api/v1/games/live").await;
    assert_eq!(live["games"].as_array().unwrap().len(), 1);
    assert_eq!(live["count"], 1, "the count is read with the list");
    // Anonymous visitors cannot take rated seeks.
    let (_, s) = owner.post("/api/v1/seeks", seek("180+2", true, "seed", "random")).await;
    let anon = Client::new(&server).await;
    let (status, _) = anon
        .post(&format!("/api/v1/seeks/{}/accept", s["id"].as_str().unwrap()), json!(null))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    server.stop().await;
}

#[tokio::test]
async fn a_rated_game_to_checkmate_with_a_spectator_and_the_ladder() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    white.signup("whitey").await;
    let black = Client::new(&server).await;
    black.signup("blacky").await;
    let game = white.seek_accepted_by(&black, seek("300+3", true, "seed", "white")).await;

    let (mut w, hello) = white.game_socket(&game).await;
    assert_eq!(hello["you"], "white");
    assert_eq!(hello["game"]["ply"], 0);
    let (mut b, hello) = black.game_socket(&game).await;
    assert_eq!(hello["you"], "black");
    let watcher = Client::new(&server).await;
    let (mut s, hello) = watcher.game_socket(&game).await;
    assert!(hello["you"].is_null());

    let moves = ["f2f3", "e7e5", "g2g4", "d8h4"];
    for (ply, uci) in moves.iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut w } else { &mut b };
        let m = mover.play(uci, ply).await;
        assert_eq!(m["uci"], *uci);
        let seen = s.next_of("move").await;
        assert_eq!(seen["uci"], *uci, "the spectator sees every move");
    }
    let end = s.next_of("end").await;
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["termination"], "checkmate");
    let end = w.next_of("end").await;
    assert_eq!(end["reason"], "Black wins by checkmate");
    let ladder = &end["ladder"];
    let (a, b_) = rookery_ladder::award(
        rookery_ladder::Points::ZERO,
        rookery_ladder::Points::ZERO,
        rookery_ladder::PairResult::BWins,
    );
    assert_eq!(ladder["white"]["points_after"], a.to_string());
    assert_eq!(ladder["black"]["points_after"], b_.to_string());

    // The record: the API, the PGN, the profiles and the leaderboard.
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["status"], "finished");
    let sans: Vec<&str> =
        g["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(sans, ["f3", "e5", "g4", "Qh4#"]);
    let (status, pgn) = white.get_text(&format!("/api/v1/games/{game}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(pgn.contains("1. f3 {"), "{pgn}");
    assert!(pgn.contains("Qh4#"), "{pgn}");
    assert!(pgn.contains("[Result \"0-1\"]"), "{pgn}");
    let (_, profile) = white.get("/api/v1/users/BLACKY").await;
    assert_eq!(profile["user"]["points"], b_.to_string());
    assert_eq!(profile["user"]["wins"], 1);
    assert_eq!(profile["history"].as_array().unwrap().len(), 1);
    assert_eq!(profile["games"][0]["id"], game.as_str());
    let (_, export) = white.get_text("/api/v1/users/whitey/games.pgn").await;
    assert_eq!(export.trim(), pgn.trim());
    let (_, board) = white.get("/api/v1/leaderboard").await;
    assert_eq!(board["users"][0]["name"], "blacky");

    // Analysis of the finished game: before 2...Qh4# Black mates in one (White's view: -1).
    let (status, a) = white.get(&format!("/api/v1/games/{game}/analysis?ply=3")).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!((a["mate"].as_i64(), a["best"].as_str()), (Some(-1), Some("d8h4")), "{a}");
    let (status, _) = white.get(&format!("/api/v1/games/{game}/analysis?ply=5")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    server.stop().await;
}

#[tokio::test]
async fn draw_offers_over_the_wire() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let (game, mut w, mut b) = seated(&white, &black, seek("600+0", false, "seed", "white")).await;

    // No engine advice while the game is played (§8.5).
    let (status, body) = white.get(&format!("/api/v1/games/{game}/analysis?ply=0")).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("game_in_progress"))
    );
    // An offer is made with one's own move (§7).
    w.send(json!({ "t": "move", "uci": "e2e4", "ply": 0, "offer_draw": true })).await;
    let offered = b.next_of("event:draw_offered").await;
    assert_eq!(offered["by"], "white");
    // Only the opponent can answer; declined in words.
    w.send(json!({ "t": "accept_draw", "ply": 1 })).await;
    assert_eq!(w.next_of("rejected").await["code"], "no_offer_pending");
    b.send(json!({ "t": "decline_draw", "ply": 1 })).await;
    assert_eq!(w.next_of("event:draw_declined").await["by"], "black");
    b.play("e7e5", 1).await;
    // White may not offer again until Black has offered.
    w.send(json!({ "t": "move", "uci": "g1f3", "ply": 2, "offer_draw": true })).await;
    assert_eq!(w.next_of("rejected").await["code"], "offer_not_allowed");
    w.play("g1f3", 2).await;
    b.send(json!({ "t": "move", "uci": "b8c6", "ply": 3, "offer_draw": true })).await;
    w.next_of("event:draw_offered").await;
    w.send(json!({ "t": "accept_draw", "ply": 4 })).await;
    let end = b.next_of("end").await;
    assert_eq!(end["result"], "1/2-1/2");
    assert_eq!(end["termination"], "agreement");
    assert!(end["ladder"].is_null(), "casual games change no one's points");
    server.stop().await;
}

#[tokio::test]
async fn flag_fall_abort_and_resignation() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;

    // The flag falls by the server's clock, with nobody sending anything (the clock runs
    // from both sides' first moves on).
    let (_, mut w, mut b) = seated(&white, &black, seek("2+0", false, "seed", "white")).await;
    w.play("e2e4", 0).await;
    b.play("e7e5", 1).await;
    let end = b.next_of("end").await;
    assert_eq!(end["result"], "0-1");
    assert_eq!(end["termination"], "timeout");

    // Abort before each side has moved; not after.
    let game = white.seek_accepted_by(&black, seek("300+0", false, "casual", "white")).await;
    let (mut w, _) = white.game_socket(&game).await;
    w.play("d2d4", 0).await;
    w.send(json!({ "t": "abort" })).await;
    let end = w.next_of("end").await;
    assert_eq!(end["termination"], "aborted");
    assert_eq!(end["result"], "*");
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["status"], "aborted");

    let (_, mut w, mut b) = seated(&white, &black, seek("300+0", false, "casual", "white")).await;
    w.play("d2d4", 0).await;
    b.play("d7d5", 1).await;
    w.send(json!({ "t": "abort" })).await;
    assert_eq!(w.next_of("rejected").await["code"], "too_late_to_abort");
    b.send(json!({ "t": "resign" })).await;
    let end = w.next_of("end").await;
    assert_eq!(end["result"], "1-0");
    assert_eq!(end["termination"], "resignation");
    server.stop().await;
}

/// A move's lag allowance is the mover's: its clock stops that much before the server has the
/// move, and the opponent's starts when the server has it — the opponent never pays for the
/// mover's network (docs/protocol.md, "Clocks and lag").
#[tokio::test]
async fn the_opponent_does_not_pay_for_the_movers_lag() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let (_, mut w, mut b) = seated(&white, &black, seek("600+0", false, "seed", "white")).await;
    w.play("e2e4", 0).await;
    b.play("e7e5", 1).await;
    let before = w.play("g1f3", 2).await["clock"]["white_ms"].as_u64().unwrap();
    // Black is on a link with a 1 s round trip: 500 ms of allowance, the most a move gets
    // (the server smooths its measurements, so a few pongs make it so). Black thinks longer
    // than that, so all of it is credited.
    for _ in 0..16 {
        b.pong_after(Duration::from_millis(1_000)).await;
    }
    tokio::time::sleep(Duration::from_millis(700)).await;
    b.send(json!({ "t": "move", "uci": "b8c6", "ply": 3 })).await;
    // White answers the moment Black's move arrives.
    w.next_of("move").await;
    let after = w.play("f1b5", 4).await["clock"]["white_ms"].as_u64().unwrap();
    // White's clock ran from the server's receipt of Black's move to its receipt of White's:
    // one loopback round trip through this test. Had it started at Black's allowance-corrected
    // time, White would have paid Black's 500 ms.
    let spent = before - after;
    assert!(spent < 250, "White was charged {spent} ms for an instant reply");
    server.stop().await;
}

#[tokio::test]
async fn bad_input_gets_clear_errors_and_changes_nothing() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let game = white.seek_accepted_by(&black, seek("600+0", false, "seed", "white")).await;
    let other_game = white.seek_accepted_by(&black, seek("600+0", false, "seed", "white")).await;
    let (mut w, _) = white.game_socket(&game).await;
    let (mut b, _) = black.game_socket(&game).await;

    w.send_raw("{not json").await;
    assert_eq!(w.next_of("error").await["code"], "bad_json");
    w.send_raw("[1,2]").await;
    assert_eq!(w.next_of("error").await["code"], "bad_json");
    w.send(json!({ "t": "teleport" })).await;
    assert_eq!(w.next_of("error").await["code"], "unknown_type");
    w.send(json!({ "t": "move", "uci": 42, "ply": 0 })).await;
    let e = w.next_of("error").await;
    assert_eq!((e["code"].as_str(), e["field"].as_str()), (Some("bad_field"), Some("uci")));
    w.send(json!({ "t": "touch", "square": "z9", "ply": 0 })).await;
    assert_eq!(w.next_of("error").await["field"], "square");
    w.send_raw(&format!(
        "{{\"t\":\"move\",\"uci\":\"e2e4\",\"ply\":0,\"pad\":\"{}\"}}",
        "x".repeat(5000)
    ))
    .await;
    assert_eq!(w.next_of("error").await["code"], "too_large");
    // The wrong colour, and a move without the ply.
    b.send(json!({ "t": "move", "uci": "e7e5", "ply": 0 })).await;
    assert_eq!(b.next_of("rejected").await["code"], "not_your_turn");
    w.send(json!({ "t": "move", "uci": "e2e4" })).await;
    assert_eq!(w.next_of("rejected").await["code"], "stale_ply");
    // An illegal move is refused with its reason and counted (seed: the third loses).
    w.send(json!({ "t": "move", "uci": "e1e2", "ply": 0 })).await;
    let r = w.next_of("rejected").await;
    assert_eq!(r["code"], "illegal", "{r}");
    let counted = b.next_of("event:illegal_move").await;
    assert_eq!((counted["count"].as_u64(), counted["limit"].as_u64()), (Some(1), Some(3)));
    // A move that is not a pattern move is refused, not counted.
    w.send(json!({ "t": "move", "uci": "e2e5", "ply": 0 })).await;
    assert_eq!(w.next_of("rejected").await["code"], "not_a_move");
    // Played once; the same message replayed is stale.
    w.play("e2e4", 0).await;
    w.send(json!({ "t": "move", "uci": "e2e4", "ply": 0 })).await;
    assert_eq!(w.next_of("rejected").await["code"], "stale_ply");
    // A spectator cannot act; the opponent cannot answer an offer that does not exist.
    let eve = Client::new(&server).await;
    let (mut e, _) = eve.game_socket(&game).await;
    e.send(json!({ "t": "resign" })).await;
    assert_eq!(e.next_of("rejected").await["code"], "spectator");
    b.send(json!({ "t": "accept_draw", "ply": 1 })).await;
    assert_eq!(b.next_of("rejected").await["code"], "no_offer_pending");
    // A flood is cut off, and the connection still works afterwards.
    for _ in 0..80 {
        e.send(json!({ "t": "ping" })).await;
    }
    let mut limited = false;
    for _ in 0..80 {
        let v = e.recv().await;
        if v["code"] == "rate_limited" {
            limited = true;
            break;
        }
    }
    assert!(limited, "a flood is rate-limited");
    // Unknown games and bad ids are 404s; the other game is untouched.
    // The message names the id as it was sent, not the server's type around it.
    for path in ["", "/pgn", "/analysis"] {
        let (status, body) = white.get(&format!("/api/v1/games/NoSuchGame{path}")).await;
        assert_eq!(status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(body["error"]["message"], "game \"NoSuchGame\" not found", "{path}");
    }
    let (status, _) = white.get("/api/v1/games/..%2F..%2Fetc").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    let (_, g) = white.get(&format!("/api/v1/games/{other_game}")).await;
    assert_eq!(g["ply"], 0);
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["ply"], 1);
    assert_eq!(g["strikes"]["white"], 1);
    // Bad seeks name the field.
    let (status, body) =
        white.post("/api/v1/seeks", seek("5 minutes", false, "seed", "white")).await;
    assert_eq!(
        (status, body["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("time_control"))
    );
    let (status, body) =
        white.post("/api/v1/seeks", seek("300+0", false, "chess960", "white")).await;
    assert_eq!((status, body["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("rules")));
    let (status, body) = white.post("/api/v1/seeks", seek("300+0", true, "seed", "white")).await;
    assert_eq!((status, body["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("rated")));
    server.stop().await;
}

#[tokio::test]
async fn an_engine_game_and_a_takeback() {
    let server = TestServer::start().await;
    let me = Client::new(&server).await;
    let (status, body) = me
        .post(
            "/api/v1/engine-games",
            json!({ "level": 1, "color": "white", "time_control": "300+2", "rules": "casual" }),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = body["game"].as_str().unwrap().to_owned();
    let (mut ws, hello) = me.game_socket(&game).await;
    assert_eq!(hello["game"]["black"]["kind"], "engine");
    ws.play("e2e4", 0).await;
    let reply = ws.next_of("move").await;
    assert_eq!(reply["ply"], 2, "the engine answers");
    ws.send(json!({ "t": "takeback", "ply": 2 })).await;
    let state = ws.next_of("state").await;
    assert_eq!(state["game"]["ply"], 0, "the engine grants the takeback");
    let (status, _) =
        me.post("/api/v1/engine-games", json!({ "level": 9, "time_control": "300+2" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    server.stop().await;
}

#[tokio::test]
async fn an_orderly_restart_keeps_the_game_and_its_clocks() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    white.signup("restarter").await;
    let black = Client::new(&server).await;
    black.signup("waiter").await;
    let (game, mut w, mut b) = seated(&white, &black, seek("600+0", true, "seed", "white")).await;
    w.play("e2e4", 0).await;
    let before = b.play("c7c5", 1).await;
    let (data_dir, addr) = (server.data_dir.clone(), server.addr);
    let dir = server.stop().await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let server = TestServer::start_at(data_dir, addr).await;
    let (_, g) = white.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(g["ply"], 2);
    assert_eq!(g["status"], "live");
    // The outage is charged to no one: White's clock has barely moved.
    let was = before["clock"]["white_ms"].as_u64().unwrap();
    let now = g["clock"]["white_ms"].as_u64().unwrap();
    assert!(was - now < 1000, "white lost {} ms across the restart", was - now);
    let (mut w, hello) = white.game_socket(&game).await;
    assert_eq!(hello["you"], "white");
    w.play("g1f3", 2).await;
    server.stop().await;
    drop(dir);
}

#[tokio::test]
async fn a_player_who_leaves_can_be_claimed_against() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    // Bullet: the opponent may claim after 15 s away.
    let (game, mut w, mut b) = seated(&white, &black, seek("60+1", false, "seed", "white")).await;
    w.play("e2e4", 0).await;
    b.play("e7e5", 1).await;
    w.send(json!({ "t": "claim_abandoned", "result": "win" })).await;
    assert_eq!(w.next_of("rejected").await["code"], "not_abandoned");
    drop(b);
    let crowd = loop {
        let c = w.next_of("event:crowd").await;
        if c["black_online"] == false {
            break c;
        }
    };
    assert_eq!(crowd["abandoned"]["color"], "black");
    let wait = crowd["abandoned"]["claim_in_ms"].as_u64().unwrap();
    assert!(wait > 10_000 && wait <= 15_000, "{crowd}");
    // Black comes back in time: nothing to claim; gone again, and past the countdown.
    let (b, hello) = black.game_socket(&game).await;
    assert!(hello["game"]["abandoned"].is_null());
    drop(b);
    w.idle(Duration::from_millis(15_500)).await;
    w.send(json!({ "t": "claim_abandoned", "result": "win" })).await;
    let end = w.next_of("end").await;
    assert_eq!(
        (end["result"].as_str(), end["termination"].as_str()),
        (Some("1-0"), Some("abandoned"))
    );
    server.stop().await;
}

#[tokio::test]
async fn the_lobby_socket_shows_seeks_live_and_challenges_privately() {
    let server = TestServer::start().await;
    let alice = Client::new(&server).await;
    alice.signup("alice").await;
    let bob = Client::new(&server).await;
    bob.signup("bob").await;
    let carol = Client::new(&server).await;
    let mut alice_lobby = alice.socket("/api/v1/lobby/socket").await;
    assert_eq!(alice_lobby.next_of("seeks").await["seeks"], json!([]));
    let mut carol_lobby = carol.socket("/api/v1/lobby/socket").await;
    carol_lobby.next_of("seeks").await;

    // An open seek reaches everyone at once.
    let (_, s) = bob.post("/api/v1/seeks", seek("300+3", false, "casual", "random")).await;
    assert_eq!(carol_lobby.next_of("seek_added").await["seek"]["id"], s["id"]);
    // A challenge reaches only the challenged.
    let (status, ch) = bob.post("/api/v1/challenges", json!({ "to": "ALICE", "time_control": "600+0", "rated": true, "rules": "fide", "color": "black" })).await;
    assert_eq!(status, StatusCode::CREATED, "{ch}");
    let added = alice_lobby.next_of("seek_added").await;
    let added = if added["seek"]["id"] == s["id"] {
        alice_lobby.next_of("seek_added").await
    } else {
        added
    };
    assert_eq!(added["seek"]["to"], "alice");
    let (_, visible) = carol.get("/api/v1/seeks").await;
    assert_eq!(visible["seeks"].as_array().unwrap().len(), 1, "carol sees the open seek only");
    let (status, _) = carol
        .post(&format!("/api/v1/seeks/{}/accept", ch["id"].as_str().unwrap()), json!(null))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    let (status, game) = alice
        .post(&format!("/api/v1/seeks/{}/accept", ch["id"].as_str().unwrap()), json!(null))
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let started = alice_lobby.next_of("game_started").await;
    assert_eq!(started["game"], game["game"]);
    let (_, g) = alice.get(&format!("/api/v1/games/{}", game["game"].as_str().unwrap())).await;
    assert_eq!(
        (g["white"]["name"].as_str(), g["rules"].as_str(), g["rated"].as_bool()),
        (Some("alice"), Some("fide"), Some(true))
    );

    // A seek closes when its owner leaves the lobby.
    let (_, mine) = carol.post("/api/v1/seeks", seek("60+0", false, "casual", "white")).await;
    drop(carol_lobby);
    let removed = alice_lobby.next_of("seek_removed").await;
    assert_eq!(removed["id"], mine["id"]);
    server.stop().await;
}
