//! Issue 51, close codes: a socket the server closes gets the close frame that says why, also
//! when the client was still sending and the server closed right after its frame. Closing the
//! connection with the client's bytes unread resets it, and a client that had not read the
//! close frame yet loses it (Python's websockets and browsers then report 1006).

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use futures_util::{SinkExt, StreamExt};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::MaybeTlsStream;

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

/// The close handshake after a message over 64 KiB on every kind of socket, read byte by byte:
/// the server sends 1009,
/// then keeps the connection open for the client's answer (RFC 6455 §7.1.1), and closes it
/// once the answer comes. tungstenite used to refuse the message itself, which ended its
/// stream: the answer could not be read, the connection was dropped with the close frame, and
/// the client's answer met a closed socket (a reset: Chromium, loaded, reported 1006).
#[tokio::test]
async fn a_refused_message_gets_a_whole_close_handshake() {
    let server = TestServer::start().await;
    let white = Client::new(&server).await;
    let black = Client::new(&server).await;
    let body = serde_json::json!({ "time_control": "600+0", "rated": false, "rules": "casual" });
    let game = white.seek_accepted_by(&black, body).await;
    let (_, tournament) = common::tournament::create(
        &server,
        serde_json::json!({"name":"Close","format":"swiss","rounds":3,"time_control":"300+2"}),
    )
    .await;
    let paths = [
        ("lobby", "/api/v1/lobby/socket".to_owned(), "seeks"),
        ("notices", "/api/v1/lobby/socket?notices".to_owned(), ""),
        ("game", format!("/api/v1/games/{game}/socket"), "hello"),
        ("tournament", format!("/api/v1/tournaments/{tournament}/socket"), "clock"),
    ];
    for (socket, path, first) in paths {
        let mut ws = white.socket(&path).await;
        if !first.is_empty() {
            ws.next_of(first).await;
        }
        refused_then_answered(ws, socket).await;
    }
    server.stop().await;
}

/// Sends `ws` a message of 70 KiB in one frame, written byte by byte, and reads the close
/// handshake that follows (see above).
async fn refused_then_answered(ws: common::Ws, socket: &str) {
    let MaybeTlsStream::Plain(mut tcp) = ws.stream.into_inner() else { unreachable!() };
    // One masked text frame of 70 KiB (a zero mask leaves the payload as it is).
    let payload = vec![b'x'; 70 * 1024];
    let mut frame = vec![0x81, 0x80 | 127];
    frame.extend_from_slice(&(payload.len() as u64).to_be_bytes());
    frame.extend_from_slice(&[0; 4]);
    frame.extend_from_slice(&payload);
    tcp.write_all(&frame).await.unwrap();
    // The close frame, after whatever the server was sending: 0x88, its length (a reason
    // under 126 bytes), the code.
    let mut got = Vec::new();
    let mut buf = [0u8; 4096];
    let close = tokio::time::timeout(common::DEADLINE, async {
        loop {
            if let Some(at) = close_frame_at(&got) {
                if got.len() >= at + 4 {
                    return u16::from_be_bytes([got[at + 2], got[at + 3]]);
                }
            }
            let n = tcp.read(&mut buf).await.unwrap();
            assert!(n > 0, "{socket}: the connection ended before a close frame");
            got.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("a close frame");
    assert_eq!(close, 1009, "{socket} socket, 70 KiB");
    // Not answered yet: the connection stays open for the answer.
    let early = tokio::time::timeout(Duration::from_millis(500), tcp.read(&mut buf)).await;
    assert!(early.is_err(), "{socket}: the connection ended before the client's answer: {early:?}");
    // The answer (masked, a zero mask): then the server closes the connection.
    tcp.write_all(&[0x88, 0x82, 0, 0, 0, 0, 0x03, 0xf1]).await.unwrap();
    let end = tokio::time::timeout(Duration::from_secs(1), tcp.read(&mut buf)).await;
    assert!(matches!(end, Ok(Ok(0))), "{socket}: closed once answered: {end:?}");
}

/// Where the close frame starts in what the server sent: its frames walked by their headers
/// (unmasked, as a server's are).
fn close_frame_at(bytes: &[u8]) -> Option<usize> {
    let mut at = 0;
    while at + 2 <= bytes.len() {
        if bytes[at] & 0x0f == 0x8 {
            return Some(at);
        }
        let (len, header) = match bytes[at + 1] & 0x7f {
            126 if at + 4 <= bytes.len() => {
                (usize::from(u16::from_be_bytes([bytes[at + 2], bytes[at + 3]])), 4)
            }
            127 if at + 10 <= bytes.len() => {
                (u64::from_be_bytes(bytes[at + 2..at + 10].try_into().unwrap()) as usize, 10)
            }
            126 | 127 => return None,
            n => (usize::from(n), 2),
        };
        at += header + len;
    }
    None
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
