//! Issue 53, game records: a board played over the board gets its moves typed from the paper
//! scoresheet (`PUT /api/v1/tournaments/{id}/boards/{round}/{board}/moves`), by the arbiter or
//! one of its players, re-checked by the server, and then shows on the site like an online
//! game: its page, its PGN and the tournament's, with the opening named, after a restart too.

mod common;

use common::tournament::{arbiter, setup, Setup};
use common::{Client, TestServer};
use reqwest::StatusCode;
use serde_json::{json, Value};

/// `setup`, then every player checked in, the start, round 1 published: the arbiter, the
/// players, the id.
async fn hall(server: &TestServer, names: &[&str], create: Value) -> (Client, Vec<Client>, String) {
    let Setup { td, players, id } = setup(server, names, create).await;
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    (td, players, id)
}

/// Signs `name` in on a new client (after a restart).
async fn login(server: &TestServer, name: &str) -> Client {
    let c = Client::new(server).await;
    let account = json!({"username":name,"password":"correct horse battery"});
    assert_eq!(c.post("/api/v1/account/login", account).await.0, StatusCode::OK);
    c
}

/// Types `moves` for round 1's `board`: the status and the answer.
async fn type_moves(c: &Client, id: &str, board: u32, moves: &str) -> (StatusCode, Value) {
    c.put(&format!("/api/v1/tournaments/{id}/boards/1/{board}/moves"), json!({ "moves": moves }))
        .await
}

/// The refusal's status, code and words.
fn refusal(answer: (StatusCode, Value)) -> (StatusCode, String, String) {
    let (status, v) = answer;
    let e = &v["error"];
    (status, e["code"].as_str().unwrap_or("").into(), e["message"].as_str().unwrap_or("").into())
}

async fn points(c: &Client, name: &str) -> Value {
    c.get(&format!("/api/v1/users/{name}")).await.1["user"]["points"].clone()
}

/// The names of round 1's board `n` (1-based): White, Black.
fn seats(v: &Value, board: usize) -> (String, String) {
    let b = &v["rounds_list"][0]["boards"][board - 1];
    (b["white"].as_str().unwrap().to_owned(), b["black"].as_str().unwrap().to_owned())
}

/// The moves of a game as its page shows them, in SAN.
async fn sans(c: &Client, game: &str) -> Vec<String> {
    let (status, g) = c.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!(status, StatusCode::OK, "{g}");
    g["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap().to_owned()).collect()
}

#[tokio::test]
async fn a_boards_moves_are_typed_by_the_arbiter_or_a_player_checked_and_kept() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ada", "ben", "cai", "dan"];
    let create = json!({"name":"Hall Sheets","format":"swiss","rounds":1,"time_control":"5400+30","over_the_board":true,"rated":true});
    let (td, players, id) = hall(&server, &names, create).await;
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    let by_name = |name: &str| &players[names.iter().position(|n| *n == name).unwrap()];

    // Before its result a board has no record to type into.
    assert_eq!(
        refusal(type_moves(&td, &id, 1, "e4").await).1,
        "no_result",
        "the moves come after the result"
    );
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":1,"result":"0-1"})).await;
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1-0"})).await;
    let before: Vec<Value> =
        futures_util::future::join_all(names.iter().map(|n| points(&td, n))).await;

    // The arbiter types board 1 with slips (small letters, a missing `#`): Black's mate.
    let (status, saved) = type_moves(&td, &id, 1, "1. f3 e5 2. g4 qh4").await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(saved["plies"], 4);
    let game1 = saved["game"].as_str().unwrap().to_owned();
    assert!(saved["pgn"].as_str().unwrap().contains("1. f3 e5 2. g4 Qh4# 0-1"), "{saved}");
    assert_eq!(sans(&td, &game1).await, ["f3", "e5", "g4", "Qh4#"]);

    // An illegal move is named by its number and text; nothing is saved.
    let (status, code, words) =
        refusal(type_moves(&td, &id, 1, "1. e4 e5 2. Nf3 Nc6 3. Bb5 Ke6").await);
    assert_eq!((status, code.as_str()), (StatusCode::BAD_REQUEST, "bad_field"), "{words}");
    assert!(words.contains("move 3... \"Ke6\" is not legal here"), "{words}");
    let (status, code, words) =
        refusal(type_moves(&td, &id, 1, "1. d4 d5 2. Nf3 Nf6 3. Nd2").await);
    assert_eq!((status, code.as_str()), (StatusCode::BAD_REQUEST, "bad_field"), "{words}");
    assert!(words.contains("move 3. \"Nd2\" is ambiguous: Nbd2 or Nfd2"), "{words}");
    assert_eq!(sans(&td, &game1).await.len(), 4, "a refused list changes nothing");

    // Board 2 was won by White: a list ending in Black's mate contradicts it.
    let (status, code, words) = refusal(type_moves(&td, &id, 2, "f3 e5 g4 Qh4#").await);
    assert_eq!((status, code.as_str()), (StatusCode::CONFLICT, "contradicts_result"));
    assert_eq!(words, "the moves end in checkmate, Black winning, but the board's result is 1-0");

    // A stranger and a player of the other board may not type board 2; its White may.
    let stranger = Client::new(&server).await;
    stranger.signup("eve").await;
    assert_eq!(refusal(type_moves(&stranger, &id, 2, "e4").await).1, "forbidden");
    let (white1, _) = seats(&v, 1);
    assert_eq!(refusal(type_moves(by_name(&white1), &id, 2, "e4").await).1, "forbidden");
    let (white2, black2) = seats(&v, 2);
    let (status, saved) = type_moves(by_name(&white2), &id, 2, "e2e4 e5 ng1f3 nc6 bb5 a6").await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let game2 = saved["game"].as_str().unwrap().to_owned();
    assert_eq!(sans(&td, &game2).await, ["e4", "e5", "Nf3", "Nc6", "Bb5", "a6"]);

    // The result and the §11 points are the desk's: typing changed neither.
    let after: Vec<Value> =
        futures_util::future::join_all(names.iter().map(|n| points(&td, n))).await;
    assert_eq!(before, after);
    let (_, g) = td.get(&format!("/api/v1/games/{game2}")).await;
    assert_eq!((g["result"].as_str(), g["opening"]["eco"].as_str()), (Some("1-0"), Some("C70")));

    // The game's PGN and the tournament's carry the moves and the opening's name.
    let (_, pgn) = td.get_text(&format!("/api/v1/tournaments/{id}/pgn")).await;
    assert!(pgn.contains("1. f3 e5 2. g4 Qh4# 0-1"), "{pgn}");
    assert!(pgn.contains("1. e4 e5 2. Nf3 Nc6 3. Bb5 a6 1-0"), "{pgn}");
    assert!(pgn.contains("[ECO \"C70\"]\n[Opening \"Ruy Lopez"), "{pgn}");
    // The analysis takes the game: it is over.
    let (status, job) = td.post(&format!("/api/v1/games/{game2}/analysis"), json!({})).await;
    assert!(status.is_success(), "{status} {job}");
    server.stop().await;

    // After a restart the moves are there, and the event over, Black corrects them: the
    // record's moves are replaced, a forfeit board is refused.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = login(&server, "arbiter").await;
    let (_, t) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(t["status"], "finished");
    assert_eq!(sans(&td, &game1).await, ["f3", "e5", "g4", "Qh4#"]);
    let black = login(&server, &black2).await;
    let (status, saved) = type_moves(&black, &id, 2, "1.e4 e5 2.Nf3 Nc6 3.Bc4 1-0").await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    assert_eq!(sans(&td, &game2).await, ["e4", "e5", "Nf3", "Nc6", "Bc4"]);
    let (_, pgn) = td.get_text(&format!("/api/v1/games/{game2}/pgn")).await;
    assert!(pgn.contains("[Opening \"Italian Game") && !pgn.contains("Bb5"), "{pgn}");
    arbiter(
        &td,
        &id,
        json!({"action":"result","round":1,"board":1,"result":"+-","reason":"Black never came"}),
    )
    .await;
    assert_eq!(refusal(type_moves(&td, &id, 1, "e4").await).1, "forfeit");
    server.stop().await;
}

#[tokio::test]
async fn a_chess960_boards_moves_start_from_the_rounds_start() {
    let server = TestServer::start().await;
    let create = json!({"name":"Hall 960","format":"swiss","rounds":1,"time_control":"5400+30","over_the_board":true,"variant":"chess960"});
    let (td, _, id) = hall(&server, &["fay", "gus"], create).await;
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    let start = v["rounds_list"][0]["chess960"].as_u64().expect("the round's start");
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":1,"result":"1/2-1/2"})).await;
    // Pawn moves are legal from every start; `h2h3` as UCI.
    let (status, saved) = type_moves(&td, &id, 1, "1. a3 a6 2. h2h3 h6").await;
    assert_eq!(status, StatusCode::OK, "{saved}");
    let game = saved["game"].as_str().unwrap();
    let (_, g) = td.get(&format!("/api/v1/games/{game}")).await;
    let played: Vec<&str> =
        g["moves"].as_array().unwrap().iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(played, ["a3", "a6", "h3", "h6"], "{g}");
    assert_eq!(g["position"].as_u64(), Some(start), "{g}");
    let (_, pgn) = td.get_text(&format!("/api/v1/tournaments/{id}/pgn")).await;
    assert!(pgn.contains("[Variant \"Chess960\"]") && pgn.contains("1. a3 a6 2. h3 h6"), "{pgn}");
    server.stop().await;
}
