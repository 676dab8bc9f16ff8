//! Issue 51, close codes: a socket the server closes gets the close frame that says why, also
//! when the client was still sending and the server closed right after its frame. Closing the
//! connection with the client's bytes unread resets it, and a client that had not read the
//! close frame yet loses it (Python's websockets and browsers then report 1006).

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use futures_util::{SinkExt, StreamExt};
use tokio_tungstenite::tungstenite::Message;

/// The close code the server ends with, read after `wait` (a client busy elsewhere).
async fn close_code_after(ws: &mut common::Ws, wait: Duration) -> Result<u16, String> {
    tokio::time::sleep(wait).await;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), ws.stream.next())
            .await
            .map_err(|_| "no answer within 10 s".to_owned())?
            .ok_or("the connection ended without a close frame")?
            .map_err(|e| format!("the connection failed without a close frame: {e}"))?;
        if let Message::Close(frame) = msg {
            return Ok(frame.map_or(1005, |f| u16::from(f.code)));
        }
    }
}

/// A guard more than a reproduction: on loopback the 1009 arrived before too (the issue's
/// raw-socket test saw it); the closes that reached clients as 1006 were those sent with no
/// close frame at all (the silence rule, below; an owner lost, crates/cli/tests/cluster.rs).
#[tokio::test]
async fn a_close_frame_reaches_a_client_that_was_still_sending() {
    let server = TestServer::start().await;
    let c = Client::new(&server).await;
    for round in 0..5 {
        let mut lobby = c.socket("/api/v1/lobby/socket").await;
        lobby.next_of("seeks").await;
        // A frame over the limit, and more behind it that the server will never read.
        lobby.send_raw(&"x".repeat(300 * 1024)).await;
        for _ in 0..20 {
            let _ = lobby.stream.send(Message::Text("{\"t\":\"ping\"}".into())).await;
        }
        let code = close_code_after(&mut lobby, Duration::from_millis(300)).await;
        assert_eq!(code, Ok(1009), "round {round}: a frame over 64 KiB");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_silent_game_socket_is_closed_with_a_close_frame() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let body = serde_json::json!({ "time_control": "600+0", "rated": false, "rules": "casual" });
    let game = white.seek_accepted_by(&black, body).await;
    let (mut ws, _) = white.game_socket(&game).await;
    // Nothing sent for 8 s (protocol.md, "Silence"): closed with 1008, not dropped.
    let code = close_code_after(&mut ws, Duration::from_millis(0)).await;
    assert_eq!(code, Ok(1008), "a game socket silent for 8 s");
    server.stop().await;
}
