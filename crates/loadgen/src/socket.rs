//! The game socket as the load generators speak it (docs/protocol.md). Every message they
//! send is the typed [`ClientMessage`] that the server reads, written by its `to_json`, so a
//! change to the protocol breaks this crate's build rather than a run. The server's replies
//! have no reading side in `rookery-protocol` (`ServerMessage` is written, never read), so
//! the generators read the few fields they need from JSON values.

use rookery_arbiter::MoveInput;
use rookery_protocol::{ClientMessage, PlayerAction};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// A WebSocket to the server, on plain TCP.
pub type Ws = WebSocketStream<MaybeTlsStream<TcpStream>>;

/// `msg` as one text frame.
pub fn frame(msg: &ClientMessage) -> Message {
    Message::Text(msg.to_json().to_string().into())
}

/// A move, sent as the player who saw the game at `ply`, with no draw offer.
pub fn play(mv: MoveInput, ply: usize) -> ClientMessage {
    ClientMessage::Act { action: PlayerAction::Move { mv, offer_draw: false }, ply: Some(ply) }
}

/// An action that is not a move, sent as the player who saw the game at `ply` (`None` for
/// those that need no ply, as resigning).
pub fn act(action: PlayerAction, ply: Option<usize>) -> ClientMessage {
    ClientMessage::Act { action, ply }
}

#[cfg(test)]
mod tests {
    use rookery_core::Square;
    use serde_json::{json, Value};

    use super::*;

    fn sent(msg: &ClientMessage) -> Value {
        match frame(msg) {
            Message::Text(text) => serde_json::from_str(text.as_str()).expect("JSON"),
            other => panic!("not a text frame: {other:?}"),
        }
    }

    /// The frames are those the generators wrote by hand before (a move now also says
    /// `offer_draw: false`, the default), and the server reads them back as sent.
    #[test]
    fn frames_are_the_protocol() {
        let e4 = play(MoveInput::squares(Square::E2, Square::E4, None), 0);
        let cases = [
            (e4, json!({ "t": "move", "uci": "e2e4", "ply": 0, "offer_draw": false })),
            (act(PlayerAction::Takeback, Some(2)), json!({ "t": "takeback", "ply": 2 })),
            (act(PlayerAction::Resign, None), json!({ "t": "resign" })),
            (ClientMessage::Sync, json!({ "t": "sync" })),
            (ClientMessage::Ping, json!({ "t": "ping" })),
        ];
        for (msg, want) in cases {
            assert_eq!(sent(&msg), want, "{msg:?}");
            let Message::Text(text) = frame(&msg) else { unreachable!() };
            assert_eq!(ClientMessage::parse(text.as_str()), Ok(msg));
        }
    }
}
