//! Recorded-transcript tests of both sockets (issue 37), as the uci crate has for UCI: each
//! file in `tests/transcripts/` is a conversation of client and server frames, replayed
//! against a real server. See `transcripts/game-seed.txt` for the format.

mod common;

use std::collections::HashMap;
use std::path::Path;

use common::{Client, TestServer, Ws};
use serde_json::Value;

/// `expected` is found in `actual`: every field written is there with the same value
/// (objects compared the same way, field by field; anything else exactly).
fn fits(expected: &Value, actual: &Value) -> bool {
    match (expected, actual) {
        (Value::Object(e), Value::Object(a)) => {
            e.iter().all(|(k, v)| a.get(k).is_some_and(|got| fits(v, got)))
        }
        _ => expected == actual,
    }
}

async fn replay(path: &Path) {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path).unwrap();
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let mut game = None;
    let mut sockets: HashMap<String, Ws> = HashMap::new();
    for (i, line) in text.lines().enumerate() {
        let at = format!("{name}:{}", i + 1);
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (head, rest) = line.split_once(' ').unwrap_or((line, ""));
        if head == "seek" {
            let body: Value = serde_json::from_str(rest).unwrap();
            game = Some(white.seek_accepted_by(&black, body).await);
            continue;
        }
        let (who, payload) = rest.split_once(' ').unwrap_or_else(|| panic!("{at}: no socket"));
        if !sockets.contains_key(who) {
            let client = if who.starts_with("white") { &white } else { &black };
            let path = if who.ends_with("-lobby") {
                "/api/v1/lobby/socket".to_owned()
            } else {
                format!("/api/v1/games/{}/socket", game.as_ref().expect("a seek line first"))
            };
            sockets.insert(who.to_owned(), client.socket(&path).await);
        }
        let ws = sockets.get_mut(who).unwrap();
        match head {
            ">" => ws.send_raw(payload).await,
            "<" => {
                let expected: Value = serde_json::from_str(payload)
                    .unwrap_or_else(|e| panic!("{at}: bad expectation: {e}"));
                let got = loop {
                    let v = ws.recv().await;
                    // Who is here and how many games are live come when they change or on a
                    // timer, not in answer to anything: not part of a transcript.
                    let periodic = v["t"] == "live" || (v["t"] == "event" && v["kind"] == "crowd");
                    if periodic {
                        continue;
                    }
                    break v;
                };
                assert!(fits(&expected, &got), "{at}: expected {expected}\n got {got}");
            }
            other => panic!("{at}: a line starts with >, < or seek, not {other:?}"),
        }
    }
    server.stop().await;
}

#[tokio::test]
async fn the_game_socket_transcript() {
    replay(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts/game-seed.txt")).await;
}

#[tokio::test]
async fn the_lobby_socket_transcript() {
    replay(&Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/transcripts/lobby.txt")).await;
}

#[test]
fn fields_are_compared_as_written() {
    let actual: Value =
        serde_json::from_str(r#"{"t":"move","clock":{"a":1,"b":2},"x":[1]}"#).unwrap();
    assert!(fits(&serde_json::json!({ "t": "move", "clock": { "a": 1 } }), &actual));
    assert!(!fits(&serde_json::json!({ "clock": { "a": 2 } }), &actual));
    assert!(!fits(&serde_json::json!({ "y": null }), &actual));
}
