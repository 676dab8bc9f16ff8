//! Issue 55: Chess960 on the site (RULES.md §13). Seeks, challenges and engine games in
//! Chess960, their start drawn or chosen; castling by the king taking its rook (`e1f1`) or by
//! its two-square move (`e8c8`), both written back king-takes-rook; a game that survives a
//! restart and replays its castlings; its PGN, its finished view and its analysis; the errors
//! of the two new fields.
//!
//! Most games start from position 291, `BQNRKRNB`: after 1. Nf3 Nd6 each side may castle at
//! once, White short (king e1 to g1, its rook staying on f1) and Black long (king e8 to c8,
//! its rook staying on d8).

mod common;

use std::time::Duration;

use common::{Client, TestServer, Ws};
use reqwest::StatusCode;
use rookery_core::chess960;
use serde_json::{json, Value};

const START_291: &str = "bqnrkrnb/pppppppp/8/8/8/8/PPPPPPPP/BQNRKRNB w KQkq - 0 1";

fn seek960(position: Option<u16>) -> Value {
    let mut body = json!({ "time_control": "600+0", "rated": false, "rules": "casual",
        "color": "white", "variant": "chess960" });
    if let Some(n) = position {
        body["position"] = json!(n);
    }
    body
}

/// The game's sockets, White's and Black's, after their `hello`s, which are returned too.
async fn seat(white: &Client, black: &Client, game: &str) -> (Ws, Ws, Value, Value) {
    let (w, wh) = white.game_socket(game).await;
    let (b, bh) = black.game_socket(game).await;
    (w, b, wh, bh)
}

/// Plays `moves` from ply `from` on, alternating from White; the last `move` message.
async fn play(w: &mut Ws, b: &mut Ws, from: usize, moves: &[&str]) -> Value {
    let mut last = Value::Null;
    for (i, uci) in moves.iter().enumerate() {
        let ply = from + i;
        let mover = if ply.is_multiple_of(2) { &mut *w } else { &mut *b };
        last = mover.play(uci, ply).await;
    }
    last
}

fn sans(game: &Value) -> Vec<(String, String)> {
    game["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (m["uci"].as_str().unwrap().to_owned(), m["san"].as_str().unwrap().to_owned()))
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter().map(|(u, s)| ((*u).to_owned(), (*s).to_owned())).collect()
}

#[tokio::test]
async fn a_chess960_seek_pairs_and_both_players_get_the_same_drawn_start() {
    let server = TestServer::start().await;
    let (ann, bob) = (Client::new(&server).await, Client::new(&server).await);
    let mut lobby = bob.socket("/api/v1/lobby/socket").await;
    lobby.next_of("seeks").await;

    let (status, seek) = ann.post("/api/v1/seeks", seek960(None)).await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    assert_eq!((seek["variant"].as_str(), &seek["position"]), (Some("chess960"), &Value::Null));
    let added = lobby.next_of("seek_added").await;
    assert_eq!(
        (added["seek"]["variant"].as_str(), &added["seek"]["position"]),
        (Some("chess960"), &Value::Null)
    );
    // A client that says nothing of variants makes and sees a standard seek, as before.
    let plain = json!({ "time_control": "300+0", "rules": "casual" });
    let (_, standard) = bob.post("/api/v1/seeks", plain).await;
    assert_eq!(
        (standard["variant"].as_str(), &standard["position"]),
        (Some("standard"), &Value::Null)
    );

    let id = seek["id"].as_str().unwrap();
    let (status, game) = bob.post(&format!("/api/v1/seeks/{id}/accept"), json!(null)).await;
    assert_eq!(status, StatusCode::CREATED, "{game}");
    let game = game["game"].as_str().unwrap();
    let (_w, _b, white, black) = seat(&ann, &bob, game).await;
    let n = white["game"]["position"].as_u64().expect("the start drawn with the game") as u16;
    let fen = chess960::position(n).unwrap().to_fen();
    for hello in [&white, &black] {
        let g = &hello["game"];
        assert_eq!(
            (g["variant"].as_str(), g["position"].as_u64(), g["initial_fen"].as_str()),
            (Some("chess960"), Some(u64::from(n)), Some(fen.as_str())),
            "both players see the one start: {g}"
        );
        assert_eq!(g["fen"].as_str(), Some(fen.as_str()));
    }
    // The lobby's live list says it too.
    let (_, live) = ann.get("/api/v1/games/live").await;
    let row = live["games"].as_array().unwrap().iter().find(|g| g["id"] == game).unwrap().clone();
    assert_eq!(
        (row["variant"].as_str(), row["position"].as_u64()),
        (Some("chess960"), Some(u64::from(n)))
    );
    server.stop().await;
}

#[tokio::test]
async fn a_challenge_from_a_chosen_start_castles_both_ways() {
    let server = TestServer::start().await;
    let ann = Client::new(&server).await;
    ann.signup("ann").await;
    let bob = Client::new(&server).await;
    bob.signup("bob").await;
    let mut body = seek960(Some(291));
    body["to"] = json!("bob");
    let (status, challenge) = ann.post("/api/v1/challenges", body).await;
    assert_eq!(status, StatusCode::CREATED, "{challenge}");
    assert_eq!(
        (challenge["variant"].as_str(), challenge["position"].as_u64()),
        (Some("chess960"), Some(291))
    );
    let id = challenge["id"].as_str().unwrap();
    let (_, game) = bob.post(&format!("/api/v1/seeks/{id}/accept"), json!(null)).await;
    let game = game["game"].as_str().unwrap();
    let (mut w, mut b, hello, _) = seat(&ann, &bob, game).await;
    assert_eq!(hello["game"]["initial_fen"], START_291);
    assert_eq!(hello["game"]["position"], 291);

    let nd6 = play(&mut w, &mut b, 0, &["g1f3", "c8d6"]).await;
    // Both ways to castle are destinations: the king onto its rook, and (two files away)
    // onto its castling square.
    assert_eq!(nd6["dests"]["e1"], json!(["f1", "g1"]), "{nd6}");
    // White drops the king on its rook; Black moves the king two squares. The server writes
    // both as the king taking its rook.
    let short = w.play("e1f1", 2).await;
    assert_eq!((short["uci"].as_str(), short["san"].as_str()), (Some("e1f1"), Some("O-O")));
    assert_eq!(short["dests"]["e8"], json!(["d8", "c8"]), "{short}");
    let long = b.play("e8c8", 3).await;
    assert_eq!((long["uci"].as_str(), long["san"].as_str()), (Some("e8d8"), Some("O-O-O")));
    assert_eq!(
        long["fen"].as_str(),
        Some("bqkr1rnb/pppppppp/3n4/8/8/5N2/PPPPPPPP/BQNR1RKB w - - 4 3"),
        "the kings on g1 and c8, the rooks on f1 and d8"
    );
    server.stop().await;
}

#[tokio::test]
async fn an_engine_game_in_chess960_is_answered() {
    let server = TestServer::start().await;
    let me = Client::new(&server).await;
    let body = json!({ "level": 1, "color": "white", "time_control": "300+2",
        "variant": "chess960", "position": 291 });
    let (status, body) = me.post("/api/v1/engine-games", body).await;
    assert_eq!(status, StatusCode::CREATED, "{body}");
    let game = body["game"].as_str().unwrap().to_owned();
    let (mut ws, hello) = me.game_socket(&game).await;
    assert_eq!(
        (hello["game"]["variant"].as_str(), hello["game"]["position"].as_u64()),
        (Some("chess960"), Some(291))
    );
    assert_eq!(hello["game"]["black"]["kind"], "engine");
    let mut ply = 0;
    for uci in ["g1f3", "e1f1"] {
        let mine = ws.play(uci, ply).await;
        if uci == "e1f1" {
            assert_eq!(mine["san"], "O-O", "{mine}");
        }
        let reply = ws.next_of("move").await;
        assert_eq!(reply["ply"], ply + 2, "the engine answers: {reply}");
        ply += 2;
    }
    server.stop().await;
}

/// A game reloaded after a restart replays its stored moves (`e1g1` as the player sent it,
/// `e8d8` the king taking its rook) in Chess960's castling mode, and goes on.
#[tokio::test]
async fn a_chess960_game_survives_a_restart_and_replays_its_castling() {
    let server = TestServer::start().await;
    let (ann, bob) = (Client::new(&server).await, Client::new(&server).await);
    let game = ann.seek_accepted_by(&bob, seek960(Some(291))).await;
    let (mut w, mut b, _, _) = seat(&ann, &bob, &game).await;
    play(&mut w, &mut b, 0, &["g1f3", "c8d6", "e1g1", "e8d8"]).await;
    let (_, before) = ann.get(&format!("/api/v1/games/{game}")).await;
    drop((w, b));

    let (data_dir, addr) = (server.data_dir.clone(), server.addr);
    let dir = server.stop().await;
    let server = TestServer::start_at(data_dir, addr).await;
    let (_, after) = ann.get(&format!("/api/v1/games/{game}")).await;
    let castled = pairs(&[("g1f3", "Nf3"), ("c8d6", "Nd6"), ("e1f1", "O-O"), ("e8d8", "O-O-O")]);
    assert_eq!(sans(&after), castled, "{after}");
    assert_eq!(after["fen"], before["fen"]);
    assert_eq!(after["fen"], "bqkr1rnb/pppppppp/3n4/8/8/5N2/PPPPPPPP/BQNR1RKB w - - 4 3");
    assert_eq!(
        (after["variant"].as_str(), after["position"].as_u64()),
        (Some("chess960"), Some(291))
    );
    let (mut w, hello) = ann.game_socket(&game).await;
    assert_eq!(hello["you"], "white");
    w.play("d2d4", 4).await;
    server.stop().await;
    drop(dir);
}

/// The PGN carries the variant and the start; a finished game is shown and analysed in its
/// own castling mode.
#[tokio::test]
async fn a_finished_chess960_game_its_pgn_view_and_analysis() {
    let dir = tempfile::tempdir().unwrap();
    let mut limits = rookery_server::Limits::default();
    limits.analysis.nodes_per_position = 5_000;
    let server = TestServer::start_full(
        dir.path().to_path_buf(),
        "127.0.0.1:0".parse().unwrap(),
        None,
        limits,
    )
    .await;
    let (ann, bob) = (Client::new(&server).await, Client::new(&server).await);
    let game = ann.seek_accepted_by(&bob, seek960(Some(291))).await;
    let (mut w, mut b, _, _) = seat(&ann, &bob, &game).await;
    play(&mut w, &mut b, 0, &["g1f3", "c8d6", "e1f1", "e8c8"]).await;

    let (status, pgn) = ann.get_text(&format!("/api/v1/games/{game}/pgn")).await;
    assert_eq!(status, StatusCode::OK);
    let tags = ["[Variant \"Chess960\"]", "[SetUp \"1\"]", &format!("[FEN \"{START_291}\"]")];
    for tag in tags {
        assert!(pgn.contains(tag), "{tag} in {pgn}");
    }
    let at = |tag: &str| pgn.find(tag).unwrap();
    assert!(at("[Variant") < at("[FEN"), "the variant before the start: {pgn}");
    for san in ["1. Nf3 ", "1... Nd6 ", "2. O-O ", "2... O-O-O "] {
        assert!(pgn.contains(san), "{san} in {pgn}");
    }

    b.send(json!({ "t": "resign" })).await;
    w.next_of("end").await;
    let (_, pgn) = ann.get_text(&format!("/api/v1/games/{game}/pgn")).await;
    for tag in tags {
        assert!(pgn.contains(tag), "the stored record: {tag} in {pgn}");
    }
    // The finished game's view (what the review page reads) and its socket.
    let (_, g) = ann.get(&format!("/api/v1/games/{game}")).await;
    assert_eq!((g["status"].as_str(), g["result"].as_str()), (Some("finished"), Some("1-0")));
    assert_eq!((g["variant"].as_str(), g["position"].as_u64()), (Some("chess960"), Some(291)));
    assert_eq!(g["initial_fen"], START_291);
    let castled = pairs(&[("g1f3", "Nf3"), ("c8d6", "Nd6"), ("e1f1", "O-O"), ("e8d8", "O-O-O")]);
    assert_eq!(sans(&g), castled);
    let (_, hello) = Client::new(&server).await.game_socket(&game).await;
    assert_eq!(sans(&hello["game"]), castled);

    // One position at once: after 2. O-O, Black may still castle, king-takes-rook.
    let (status, a) = ann.get(&format!("/api/v1/games/{game}/analysis?ply=3")).await;
    assert_eq!(status, StatusCode::OK, "{a}");
    assert_eq!(a["fen"], "bq1rkrnb/pppppppp/3n4/8/8/5N2/PPPPPPPP/BQNR1RKB b kq - 3 2");
    // The whole game, in the background.
    let path = format!("/api/v1/games/{game}/analysis");
    let (status, body) = ann.post(&path, json!(null)).await;
    assert!(status == StatusCode::ACCEPTED || status == StatusCode::OK, "{status} {body}");
    let mut report = Value::Null;
    for _ in 0..1200 {
        let (_, body) = ann.get(&path).await;
        match body["status"].as_str() {
            Some("done") => {
                report = body["analysis"].clone();
                break;
            }
            Some("queued" | "running") => tokio::time::sleep(Duration::from_millis(100)).await,
            _ => panic!("the analysis of a Chess960 game: {body}"),
        }
    }
    let moves = report["moves"].as_array().expect("the analysis finished");
    let sans: Vec<&str> = moves.iter().map(|m| m["san"].as_str().unwrap()).collect();
    assert_eq!(sans, ["Nf3", "Nd6", "O-O", "O-O-O"], "{report}");
    assert_eq!(report["evals"].as_array().unwrap().len(), 5);
    server.stop().await;
}

#[tokio::test]
async fn a_bad_variant_or_start_is_refused_naming_its_field() {
    let server = TestServer::start().await;
    let ann = Client::new(&server).await;
    ann.signup("ann").await;
    let bob = Client::new(&server).await;
    bob.signup("bob").await;
    let base = json!({ "time_control": "300+0", "rules": "casual" });
    let with = |extra: Value| {
        let mut body = base.clone();
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let cases = [
        (
            "/api/v1/seeks",
            with(json!({ "variant": "crazyhouse" })),
            "variant",
            "standard or chess960, not \"crazyhouse\"",
        ),
        (
            "/api/v1/seeks",
            with(json!({ "variant": "chess960", "position": 960 })),
            "position",
            "a Chess960 start position from 0 to 959, not 960",
        ),
        (
            "/api/v1/seeks",
            with(json!({ "variant": "chess960", "position": "first" })),
            "position",
            "a Chess960 start position from 0 to 959, not \"first\"",
        ),
        (
            "/api/v1/seeks",
            with(json!({ "position": 12 })),
            "position",
            "a start position is chosen only with \"variant\": \"chess960\"",
        ),
        (
            "/api/v1/challenges",
            with(json!({ "to": "bob", "variant": "chess960", "position": -3 })),
            "position",
            "a Chess960 start position from 0 to 959, not -3",
        ),
        (
            "/api/v1/engine-games",
            json!({ "level": 1, "time_control": "300+0", "variant": "960" }),
            "variant",
            "standard or chess960, not \"960\"",
        ),
        (
            "/api/v1/engine-games",
            json!({ "level": 1, "time_control": "300+0", "variant": "standard", "position": 518 }),
            "position",
            "a start position is chosen only with \"variant\": \"chess960\"",
        ),
    ];
    for (path, body, field, message) in cases {
        let (status, answer) = ann.post(path, body.clone()).await;
        let e = &answer["error"];
        assert_eq!(
            (status, e["code"].as_str(), e["field"].as_str(), e["message"].as_str()),
            (
                StatusCode::BAD_REQUEST,
                Some("bad_field"),
                Some(field),
                Some(format!("field {field}: {message}").as_str())
            ),
            "{path} {body}"
        );
    }
    let (_, seeks) = ann.get("/api/v1/seeks").await;
    assert_eq!(seeks["seeks"], json!([]), "nothing was opened");
    server.stop().await;
}

/// A Chess960 round robin (RULES.md §13, as FIDE's Freestyle events play it): each round's
/// start is drawn when the round is published, the same on every board, shown in the round's
/// view and the games' own; the tournament's PGN carries each game's start; a start chosen
/// beforehand is refused, naming the field.
#[tokio::test]
async fn a_chess960_round_robin_plays_each_round_from_one_start() {
    let server = TestServer::start().await;
    let td = Client::new(&server).await;
    td.signup("arbiter960").await;
    let create = json!({"name":"Freestyle club","format":"round_robin","time_control":"600+5",
                        "variant":"chess960"});
    let mut chosen = create.clone();
    chosen["position"] = json!(7);
    let (status, err) = td.post("/api/v1/tournaments", chosen).await;
    assert_eq!(
        (status, err["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("position")),
        "{err}"
    );
    let (status, t) = td.post("/api/v1/tournaments", create).await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().unwrap().to_owned();
    for name in ["ann", "bob", "cat", "dan"] {
        let c = Client::new(&server).await;
        c.signup(name).await;
        let (status, v) = c.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, v) =
        td.post(&format!("/api/v1/tournaments/{id}/arbiter"), json!({"action":"start"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    for round in 1..=2u64 {
        let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
        let r = &v["rounds_list"][round as usize - 1];
        let start = r["chess960"].as_u64().unwrap_or_else(|| panic!("round {round}: {r}"));
        assert!(start < 960, "{r}");
        let fen = chess960::position(start as u16).unwrap().to_fen();
        for (i, board) in r["boards"].as_array().unwrap().iter().enumerate() {
            let game = board["game"].as_str().unwrap();
            let (_, g) = td.get(&format!("/api/v1/games/{game}")).await;
            assert_eq!(
                (g["variant"].as_str(), g["position"].as_u64(), g["initial_fen"].as_str()),
                (Some("chess960"), Some(start), Some(fen.as_str())),
                "round {round}, board {}: {g}",
                i + 1
            );
            let body = json!({"action":"result","round":round,"board":i + 1,"result":"1/2-1/2",
                              "reason":"agreed at the board"});
            let (status, v) = td.post(&format!("/api/v1/tournaments/{id}/arbiter"), body).await;
            assert_eq!(status, StatusCode::OK, "{v}");
        }
    }
    let (_, pgn) = td.get_text(&format!("/api/v1/tournaments/{id}/pgn")).await;
    assert!(pgn.matches("[Variant \"Chess960\"]").count() >= 4, "{pgn}");
    assert!(pgn.matches("[SetUp \"1\"]").count() >= 4, "{pgn}");
    let (_, list) = td.get("/api/v1/tournaments").await;
    let all = list.to_string();
    assert!(all.contains("\"chess960\":true"), "{all}");
    server.stop().await;
}
