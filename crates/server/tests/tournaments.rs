//! Tournaments on a real server over a real SQLite file (issue 40): scripted players and an
//! arbiter over HTTP and WebSocket.

mod common;

use std::collections::HashMap;

use common::tournament::{arbiter, arbiter_again, setup, Setup};
use common::{game_made, until, Client, TestServer};
use reqwest::StatusCode;
use serde_json::{json, Value};

fn round_of(v: &Value, round: u64) -> &Value {
    &v["rounds_list"][round as usize - 1]
}

/// The result the test gives a board, from its round and number (never two of a kind in a
/// row, so scores spread and the Dutch rules have work to do).
fn scripted(round: u64, board: u64) -> &'static str {
    ["1-0", "0-1", "1/2-1/2", "0-1", "1-0"][((round * 3 + board) % 5) as usize]
}

#[tokio::test]
async fn a_seven_round_swiss_of_twelve_is_played_to_the_end() {
    let server = TestServer::start().await;
    let names =
        ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon", "kim", "lea"];
    let Setup { players: clients, td, id } = setup(
        &server,
        &names,
        json!({"name":"Tuesday Swiss","format":"swiss","rounds":7,"time_control":"40/5400:1800+30",
               "rated":true,"max_byes":2,"tiebreaks":["BH-C1","BH","SB"]}),
    )
    .await;

    // Bad input names its field.
    let (status, err) = td
        .post("/api/v1/tournaments", json!({"name":"x","format":"swiss","time_control":"300+2"}))
        .await;
    assert_eq!((status, err["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("rounds")));
    let (status, err) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"x","format":"swiss","rounds":7,"time_control":"-"}),
        )
        .await;
    assert_eq!(
        (status, err["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("time_control"))
    );

    let (status, v) = clients[0].post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
    assert_eq!(
        (status, v["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_joined"))
    );
    // Only the arbiter pairs.
    let (status, _) = clients[0]
        .post(&format!("/api/v1/tournaments/{id}/arbiter"), json!({"action":"start"}))
        .await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    // Byes asked for: kim a half point in round 3, lea a zero in round 5.
    let (status, v) = clients[10]
        .post(&format!("/api/v1/tournaments/{id}/byes"), json!({"round":3,"kind":"half"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, v) = clients[11]
        .post(&format!("/api/v1/tournaments/{id}/byes"), json!({"round":5,"kind":"zero"}))
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");

    // The tournament socket tells who plays whom.
    let mut watch = clients[0].socket(&format!("/api/v1/tournaments/{id}/socket")).await;
    assert_eq!(watch.recv().await["t"], "tournament");
    let mut lobby = clients[0].socket("/api/v1/lobby/socket").await;

    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(v["status"], "running");
    assert_eq!(round_of(&v, 1)["state"], "paired", "a Swiss round is a preview until published");
    // Unpaired and paired again: the same pairing, nothing twice.
    let preview = round_of(&v, 1)["boards"].clone();
    arbiter(&td, &id, json!({"action":"unpair","round":1})).await;
    let v = arbiter(&td, &id, json!({"action":"pair"})).await;
    assert_eq!(round_of(&v, 1)["boards"], preview);

    let mut withdrawn = false;
    for round in 1..=7u64 {
        let v = if round == 1 {
            arbiter(&td, &id, json!({"action":"publish","round":1})).await
        } else {
            let v = arbiter(&td, &id, json!({"action":"pair"})).await;
            arbiter(&td, &id, json!({"action":"publish","round":round})).await;
            v
        };
        let boards = round_of(&v, round)["boards"].as_array().unwrap().clone();
        if round == 1 {
            // ann is told on the lobby socket and the tournament socket.
            let told = lobby.next_of("tournament_game").await;
            assert_eq!(told["tournament"], id.as_str());
            loop {
                let m = watch.recv().await;
                if m["t"] == "your_game" {
                    break;
                }
            }
        }
        for (i, b) in boards.iter().enumerate() {
            let board = i as u64 + 1;
            let game = format!("{id}r{round}b{board}");
            if board == 1 {
                // Played on the board: White moves, Black resigns; the result flows back.
                let white = names.iter().position(|n| *n == b["white"]).unwrap();
                let black = names.iter().position(|n| *n == b["black"]).unwrap();
                let (mut ws, hello) = clients[white].game_socket(&game).await;
                assert_eq!(hello["game"]["rated"], true);
                let seat = &hello["game"]["tournament"];
                assert_eq!(
                    (seat["id"].as_str(), seat["name"].as_str(), &seat["round"], &seat["board"]),
                    (Some(id.as_str()), Some("Tuesday Swiss"), &json!(round), &json!(1))
                );
                ws.play("e2e4", 0).await;
                let (mut bs, _) = clients[black].game_socket(&game).await;
                bs.send(json!({"t":"resign"})).await;
                bs.next_of("end").await;
                continue;
            }
            let result = if round == 2 && board == 2 {
                "+-" // a forfeit: the arbiter declares it
            } else {
                scripted(round, board)
            };
            arbiter(&td, &id, json!({"action":"result","round":round,"board":board,"result":result,"reason":"reported at the board"})).await;
        }
        if round == 3 {
            // A result entered wrongly, corrected with its reason.
            let v = arbiter(&td, &id, json!({"action":"result","round":3,"board":2,"result":"1/2-1/2","reason":"entered wrongly"})).await;
            assert_eq!(round_of(&v, 3)["boards"][1]["result"], "1/2-1/2");
        }
        let v =
            until(&td, &id, "round finished", |v| round_of(v, round)["state"] == "finished").await;
        if round == 4 && !withdrawn {
            withdrawn = true;
            let v = arbiter(
                &td,
                &id,
                json!({"action":"withdraw","player":"jon","reason":"left the event"}),
            )
            .await;
            assert!(v["players"]
                .as_array()
                .unwrap()
                .iter()
                .any(|p| p["name"] == "jon" && p["withdrawn"] == true));
        }
        let _ = v;
    }
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;
    assert_eq!(v["rounds_list"].as_array().unwrap().len(), 7);
    // jon is not paired after his withdrawal; byes as asked.
    for round in 5..=7 {
        let boards = round_of(&v, round)["boards"].as_array().unwrap();
        assert!(
            !boards.iter().any(|b| b["white"] == "jon" || b["black"] == "jon"),
            "round {round}"
        );
    }
    assert!(round_of(&v, 3)["absent"]
        .as_array()
        .unwrap()
        .iter()
        .any(|a| a["player"] == "kim" && a["kind"] == "half"));
    // The audit log keeps every decision with its reason.
    assert!(v["log"]
        .as_array()
        .unwrap()
        .iter()
        .any(|e| e["reason"] == "entered wrongly" && e["by"] == "arbiter"));

    // The TRF passes the Dutch checker.
    let (status, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf")).await;
    assert_eq!(status, StatusCode::OK);
    let t = rookery_tournament::trf::read(&trf).expect("the export reads");
    for check in rookery_tournament::dutch::check(&t) {
        assert!(
            check.agrees(),
            "round {} is not the Dutch pairing: {:?}",
            check.round,
            check.expected
        );
    }

    // Scores: the sum of the results entered, computed here (1, ½, 0; forfeit win 1, PAB 1,
    // half-point bye ½, absences 0).
    let mut score: HashMap<String, u32> = HashMap::new();
    for round in 1..=7 {
        let r = round_of(&v, round);
        for b in r["boards"].as_array().unwrap() {
            let (w, bl) = match b["result"].as_str().unwrap() {
                "1-0" | "+-" => (2, 0),
                "0-1" | "-+" => (0, 2),
                "1/2-1/2" => (1, 1),
                other => panic!("{other}"),
            };
            *score.entry(b["white"].as_str().unwrap().into()).or_default() += w;
            *score.entry(b["black"].as_str().unwrap().into()).or_default() += bl;
        }
        if let Some(bye) = r["bye"].as_str() {
            *score.entry(bye.into()).or_default() += 2;
        }
        for a in r["absent"].as_array().unwrap() {
            if a["kind"] == "half" {
                *score.entry(a["player"].as_str().unwrap().into()).or_default() += 1;
            }
        }
    }
    for row in v["standings"]["rows"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        let mine = score.get(name).copied().unwrap_or(0);
        assert_eq!(
            row["score"],
            format!("{}.{}", mine / 2, if mine % 2 == 1 { 5 } else { 0 }),
            "{name}"
        );
        assert_eq!(row["tiebreaks"].as_array().unwrap().len(), 3);
    }
    let ranks: Vec<u64> = v["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["rank"].as_u64().unwrap())
        .collect();
    assert!(ranks.windows(2).all(|w| w[0] <= w[1]));

    // Exports.
    let (status, csv) = td.get_text(&format!("/api/v1/tournaments/{id}/standings.csv")).await;
    assert_eq!((status, csv.lines().count()), (StatusCode::OK, 13));
    assert!(csv.starts_with("rank,name,tpn,rating,score,BH-C1,BH,SB"));
    let (_, html) = td.get_text(&format!("/api/v1/tournaments/{id}/standings.html")).await;
    assert!(html.contains("Crosstable"));
    let (_, pgn) = td.get_text(&format!("/api/v1/tournaments/{id}/pgn")).await;
    let boards: usize = (1..=7).map(|r| round_of(&v, r)["boards"].as_array().unwrap().len()).sum();
    assert_eq!(
        pgn.matches("[Event ").count(),
        boards,
        "every board's game, ended by play or by the arbiter"
    );
    let (_, list) = td.get("/api/v1/tournaments").await;
    let summary = &list["finished"][0];
    assert_eq!(summary["id"], id.as_str());
    assert_eq!(
        (&summary["players"], &summary["round"], &summary["rounds"], &summary["created_by"]),
        (&json!(12), &json!(7), &json!(7), &json!("arbiter")),
        "the list's row: {summary}"
    );
    server.stop().await;
}

#[tokio::test]
async fn a_double_round_robin_of_six_follows_the_berger_table() {
    let server = TestServer::start().await;
    let names = ["pam", "pat", "pia", "pip", "pol", "pru"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Club RR","format":"double_round_robin","time_control":"600+5"}),
    )
    .await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(v["rounds"], 10);
    let mut met: HashMap<(String, String), u32> = HashMap::new();
    for round in 1..=10u64 {
        // Each round after the first is paired by the server as the one before ends
        // (issue 40: the Berger table needs no arbiter).
        let v = if round == 1 {
            v.clone()
        } else {
            until(&td, &id, "next round paired", |v| {
                v["rounds_list"].as_array().is_some_and(|l| l.len() == round as usize)
            })
            .await
        };
        let r = round_of(&v, round);
        assert_eq!(r["state"], "published", "a round robin's round is published at once");
        let boards = r["boards"].as_array().unwrap().clone();
        assert_eq!(boards.len(), 3);
        // The Berger table of six by pairing number (C.05 Annex 1).
        let expected = rookery_tournament::berger::round_pairing(
            6,
            rookery_tournament::berger::Cycles::Double,
            round as u32,
        )
        .unwrap();
        let tpn = |name: &str| {
            v["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["tpn"]
                .as_u64()
                .unwrap()
        };
        let got: Vec<(u64, u64)> = boards
            .iter()
            .map(|b| (tpn(b["white"].as_str().unwrap()), tpn(b["black"].as_str().unwrap())))
            .collect();
        let want: Vec<(u64, u64)> = expected
            .pairs
            .iter()
            .map(|p| (u64::from(p.white.get()), u64::from(p.black.get())))
            .collect();
        assert_eq!(got, want, "round {round}");
        for (i, b) in boards.iter().enumerate() {
            let key =
                (b["white"].as_str().unwrap().to_owned(), b["black"].as_str().unwrap().to_owned());
            *met.entry(key).or_default() += 1;
            arbiter(&td, &id, json!({"action":"result","round":round,"board":i + 1,"result":scripted(round, i as u64),"reason":"reported"})).await;
        }
    }
    // Everyone met everyone twice, once with each colour.
    assert_eq!(met.len(), 30);
    assert!(met.values().all(|&n| n == 1));
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;
    assert_eq!(v["standings"]["rows"].as_array().unwrap().len(), 6);
    server.stop().await;
}

#[tokio::test]
async fn a_restart_between_pairing_and_games_loses_nothing_and_pairs_nothing_twice() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let Setup { players: clients, td, id } = setup(
        &server,
        &["ann", "bob", "cat", "dan"],
        json!({"name":"R","format":"swiss","rounds":3,"time_control":"300+0"}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let before = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    // One game played a move (during the round), then the server stops.
    let b1 = round_of(&before, 1)["boards"][0].clone();
    let white = ["ann", "bob", "cat", "dan"].iter().position(|n| *n == b1["white"]).unwrap();
    let (mut ws, _) = clients[white].game_socket(&format!("{id}r1b1")).await;
    ws.play("d2d4", 0).await;
    drop(ws);
    server.stop().await;

    // Simulate the crash between storing the publication and creating the games: delete the
    // second board's game, as if it had never been created.
    let url = format!("sqlite://{}", dir.path().join("rookery.sqlite3").display());
    let store = rookery_store::Store::open(&url).await.unwrap();
    assert!(store.delete_unstarted_game(&format!("{id}r1b2")).await.unwrap());
    store.close().await;

    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td2 = Client::new(&server).await;
    let (_, after) = td2.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["log"], before["log"], "the log survives the restart");
    // Nothing paired twice (board 1 has started since: its move was played).
    let mut rounds = before["rounds_list"].clone();
    rounds[0]["boards"][0]["started"] = json!(true);
    assert_eq!(after["rounds_list"], rounds, "nothing paired twice");
    // The missing game was created again, once; the played move is still there.
    let (status, g2) = td2.get(&format!("/api/v1/games/{id}r1b2")).await;
    assert_eq!(status, StatusCode::OK, "{g2}");
    let (_, g1) = td2.get(&format!("/api/v1/games/{id}r1b1")).await;
    assert_eq!(g1["moves"].as_array().unwrap().len(), 1);
    server.stop().await;
}

/// A game of 7 moves each (14 plies, the fewest for a berserk bonus), without repetition.
const FOURTEEN: [&str; 14] = [
    "e2e4", "e7e5", "g1f3", "b8c6", "f1c4", "f8c5", "c2c3", "g8f6", "d2d3", "d7d6", "e1g1", "e8g8",
    "a2a3", "a7a6",
];

#[tokio::test]
async fn an_arena_of_ten_with_berserk_and_streaks() {
    let server = TestServer::start().await;
    let names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jon"];
    // Three minutes, as issue 40 says; the arbiter ends it once the script is played, so the
    // test does not wait for the clock.
    let Setup { players: clients, td, id } = setup(
        &server,
        &names,
        json!({"name":"Blitz Arena","format":"arena","duration_s":180,"time_control":"180+2",
                   "berserk":true,"streaks":true}),
    )
    .await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(v["status"], "running");
    // The tournament socket: the view, then the clock (a countdown to the end).
    let mut watch = clients[1].socket(&format!("/api/v1/tournaments/{id}/socket")).await;
    assert_eq!(watch.recv().await["t"], "tournament");
    let clock = watch.recv().await;
    assert_eq!(clock["t"], "clock", "{clock}");
    assert!(clock["ends_at_ms"].as_u64().unwrap() > clock["starts_at_ms"].as_u64().unwrap());

    // ann goes berserk in every game and wins it in 7 moves each; in the other games Black
    // resigns after White's first move.
    let by_name = |n: &str| names.iter().position(|x| *x == n).unwrap();
    let mut played: Vec<String> = Vec::new();
    let mut ann_games = 0;
    for _ in 0..2000 {
        if ann_games == 3 {
            break;
        }
        let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
        let playing: Vec<Value> = v["arena"]["games"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|g| {
                g["result"].is_null() && !played.contains(&g["game"].as_str().unwrap().into())
            })
            .cloned()
            .collect();
        if playing.is_empty() {
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
            continue;
        }
        for g in playing {
            let game = g["game"].as_str().unwrap().to_owned();
            played.push(game.clone());
            let (w, b) = (g["white"].as_str().unwrap(), g["black"].as_str().unwrap());
            let (mut ws, hello) = clients[by_name(w)].game_socket(&game).await;
            let seat = &hello["game"]["tournament"];
            assert_eq!((seat["id"].as_str(), seat["round"].is_null()), (Some(id.as_str()), true));
            assert_eq!(seat["name"], "Blitz Arena");
            let (mut bs, _) = clients[by_name(b)].game_socket(&game).await;
            if w != "ann" && b != "ann" {
                ws.play("e2e4", 0).await;
                bs.send(json!({"t":"resign"})).await;
                bs.next_of("end").await;
                continue;
            }
            ann_games += 1;
            let ann_white = w == "ann";
            let (status, r) = clients[0]
                .post(&format!("/api/v1/tournaments/{id}/berserk"), json!({"game": game}))
                .await;
            assert_eq!((status, r["clock_ms"].as_u64()), (StatusCode::OK, Some(90_000)), "{r}");
            // Twice is refused.
            let (status, r) = clients[0]
                .post(&format!("/api/v1/tournaments/{id}/berserk"), json!({"game": game}))
                .await;
            assert_eq!(status, StatusCode::CONFLICT, "{r}");
            // The refusal names the player, not the arena's number for her (issue 51).
            let message = r["error"]["message"].as_str().unwrap();
            assert!(message.starts_with("ann is already berserk"), "{message}");
            for (ply, uci) in FOURTEEN.iter().enumerate() {
                let white_moves = ply % 2 == 0;
                let m = if white_moves { ws.play(uci, ply).await } else { bs.play(uci, ply).await };
                if white_moves == ann_white {
                    // Half the clock and no increment: ann's time never goes above half.
                    let key = if ann_white { "white_ms" } else { "black_ms" };
                    let left = m["clock"][key].as_u64().unwrap();
                    assert!(
                        left <= 90_000,
                        "ann has {left} ms after ply {}: no increment",
                        ply + 1
                    );
                }
            }
            let loser = if ann_white { &mut bs } else { &mut ws };
            loser.send(json!({"t":"resign"})).await;
            loser.next_of("end").await;
        }
    }
    assert_eq!(ann_games, 3, "ann played three games");
    until(&td, &id, "ann's third game counted", |v| {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "ann" && p["arena"]["games"] == 3)
    })
    .await;
    arbiter(&td, &id, json!({"action":"end","reason":"the script is played"})).await;
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;

    // The points by hand from the games the view lists, in the order each player played them:
    // 2 a win, 1 a draw; doubled after two wins running; +1 for a berserk win of 7 moves
    // (only ann's games are that long, and only ann goes berserk).
    let mut sheets: HashMap<String, Vec<(bool, u32)>> = HashMap::new(); // (won, points)
    for g in v["arena"]["games"].as_array().unwrap() {
        let Some(result) = g["result"].as_str() else { continue };
        for (me, colour) in [("white", "1-0"), ("black", "0-1")] {
            let name = g[me].as_str().unwrap().to_owned();
            let sheet = sheets.entry(name.clone()).or_default();
            let won = result == colour;
            let base = if won {
                2
            } else if result == "1/2-1/2" {
                1
            } else {
                0
            };
            let fire = sheet.len() >= 2 && sheet[sheet.len() - 2..].iter().all(|(w, _)| *w);
            let berserk = g["berserk"][me] == true;
            assert_eq!(berserk, name == "ann", "{g}");
            let bonus = u32::from(berserk && won);
            sheet.push((won, if fire { 2 * base } else { base } + bonus));
        }
    }
    assert_eq!(sheets["ann"].iter().map(|s| s.1).collect::<Vec<_>>(), [3, 3, 5]);
    for p in v["players"].as_array().unwrap() {
        let name = p["name"].as_str().unwrap();
        let sheet = sheets.get(name).cloned().unwrap_or_default();
        let total: u32 = sheet.iter().map(|s| s.1).sum();
        assert_eq!(p["score"], total.to_string(), "{name}: {p}");
        let card = &p["arena"];
        assert_eq!(card["score"], total.to_string(), "{name}");
        assert_eq!(card["games"], sheet.len(), "{name}");
        let streak = sheet.iter().rev().take_while(|s| s.0).count();
        assert_eq!(card["streak"], streak, "{name}");
        assert_eq!(card["on_fire"], streak >= 2, "{name}");
        assert_eq!(card["berserks"], if name == "ann" { 3 } else { 0 }, "{name}");
    }
    let ann =
        v["standings"]["rows"].as_array().unwrap().iter().find(|r| r["name"] == "ann").unwrap();
    assert_eq!((ann["sheet"].as_str(), ann["rank"].as_u64()), (Some("3+ 3+ 5*+"), Some(1)));
    server.stop().await;
}

/// FIDE B.02 table 8.1a (the `dp` of a fractional score `p`, rounded to two decimals), for the
/// scores three games can give: what C.07 10.2 adds to the ARO for `TPR`.
fn dp(points: u32, games: u32) -> i64 {
    match (
        points * 100 / (games * 2) + u32::from(points * 100 % (games * 2) * 2 >= games * 2),
        games,
    ) {
        (100, _) => 800,
        (83, 3) => 273,
        (67, 3) => 125,
        (50, _) => 0,
        (33, 3) => -125,
        (17, 3) => -273,
        (0, _) => -800,
        (p, g) => panic!("no table entry in this test for p = {p} over {g} games"),
    }
}

#[tokio::test]
async fn tiebreaks_and_performance_equal_a_hand_computation_and_the_trf_round_trips() {
    let server = TestServer::start().await;
    let names = ["ada", "ben", "cyd", "dil", "eda", "flo"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Hand Swiss","format":"swiss","rounds":3,"time_control":"600+5",
                   "tiebreaks":["BH-C1","BH","SB","WIN"]}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    for round in 1..=3u64 {
        if round > 1 {
            arbiter(&td, &id, json!({"action":"pair"})).await;
        }
        let v = arbiter(&td, &id, json!({"action":"publish","round":round})).await;
        // Six players: every game played, no bye, so the hand computation below needs none of
        // C.07 Article 16.
        for board in 1..=round_of(&v, round)["boards"].as_array().unwrap().len() as u64 {
            let result = scripted(round, board);
            arbiter(&td, &id, json!({"action":"result","round":round,"board":board,"result":result,"reason":"reported"})).await;
        }
        until(&td, &id, "round finished", |v| round_of(v, round)["state"] == "finished").await;
    }
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;

    // By hand, in half points: each player's games as (opponent, own half points).
    let mut games: HashMap<String, Vec<(String, u32)>> = HashMap::new();
    for round in 1..=3 {
        for b in round_of(&v, round)["boards"].as_array().unwrap() {
            let (w, bl) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
            let (wp, bp) = match b["result"].as_str().unwrap() {
                "1-0" => (2, 0),
                "0-1" => (0, 2),
                "1/2-1/2" => (1, 1),
                other => panic!("{other}"),
            };
            games.entry(w.into()).or_default().push((bl.into(), wp));
            games.entry(bl.into()).or_default().push((w.into(), bp));
        }
    }
    let score = |n: &str| games[n].iter().map(|g| g.1).sum::<u32>();
    let half = |h: u32| h as f64 / 2.0;
    for row in v["standings"]["rows"].as_array().unwrap() {
        let name = row["name"].as_str().unwrap();
        let mine = &games[name];
        assert_eq!(mine.len(), 3, "{name} played every round");
        let opp: Vec<u32> = mine.iter().map(|(o, _)| score(o)).collect();
        let bh: u32 = opp.iter().sum(); // Buchholz (C.07 8.1): the opponents' scores
        let bh_c1 = bh - opp.iter().min().unwrap(); // less the lowest (14.1.1)
                                                    // Sonneborn-Berger (9.1): the scores of those beaten, half of those drawn with.
        let sb: u32 = mine.iter().map(|(o, p)| score(o) * p).sum(); // in quarter points
        let wins = mine.iter().filter(|g| g.1 == 2).count();
        let tb: Vec<f64> = row["tiebreaks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t.as_str().unwrap().parse().unwrap())
            .collect();
        assert_eq!(
            row["score"].as_str().unwrap().parse::<f64>().unwrap(),
            half(score(name)),
            "{name}"
        );
        assert_eq!(tb, [half(bh_c1), half(bh), sb as f64 / 4.0, wins as f64], "{name}: {row}");
        // TPR (10.2): every opponent is rated as every player here (the same new account), so
        // the ARO is that rating and the TPR that plus dp of the fraction scored.
        let rating = v["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()
            ["rating"]
            .as_i64()
            .unwrap();
        assert_eq!(row["performance"].as_i64(), Some(rating + dp(score(name), 3)), "{name}");
    }
    // The order is by score, then the tie-breaks in their order; equal on all, equal rank.
    let rows = v["standings"]["rows"].as_array().unwrap();
    let key = |r: &Value| {
        let mut k = vec![r["score"].as_str().unwrap().parse::<f64>().unwrap()];
        k.extend(
            r["tiebreaks"]
                .as_array()
                .unwrap()
                .iter()
                .map(|t| t.as_str().unwrap().parse::<f64>().unwrap()),
        );
        k
    };
    for w in rows.windows(2) {
        assert!(key(&w[0]) >= key(&w[1]), "{} before {}", w[0], w[1]);
        assert_eq!(w[0]["rank"] == w[1]["rank"], key(&w[0]) == key(&w[1]), "{} {}", w[0], w[1]);
    }

    // TRF: exported, imported as a finished tournament, the same standings.
    let (status, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    assert_eq!(status, StatusCode::OK);
    let (status, imported) = td
        .post(
            "/api/v1/tournaments/import",
            json!({"trf": trf, "format":"swiss","name":"Hand Swiss, imported","time_control":"600+5",
                   "tiebreaks":["BH-C1","BH","SB","WIN"],"status":"finished"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["status"], "finished");
    assert_eq!(imported["standings"], v["standings"], "the imported standings are the same");
    assert_eq!(imported["crosstable"], v["crosstable"]);
    let (_, list) = td.get("/api/v1/tournaments").await;
    let row =
        list["finished"].as_array().unwrap().iter().find(|t| t["id"] == imported["id"]).unwrap();
    assert_eq!((&row["players"], &row["round"]), (&json!(6), &json!(3)), "{row}");
    // A bad file: the documented error, naming its line and column.
    let broken = trf.replacen("\n001 ", "\n001 x", 1);
    let (status, err) = td
        .post(
            "/api/v1/tournaments/import",
            json!({"trf": broken, "format":"swiss","name":"Broken","time_control":"600+5"}),
        )
        .await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
    assert_eq!(
        (err["error"]["code"].as_str(), err["error"]["field"].as_str()),
        (Some("bad_field"), Some("trf"))
    );
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("line ") && message.contains("column "), "{message}");
    server.stop().await;
}

#[tokio::test]
async fn a_missed_first_move_is_a_forfeit_that_changes_no_ladder_points() {
    let server = TestServer::start().await;
    let names = ["gil", "hob", "ina", "jem"];
    // The shortest default time the settings allow (RULES.md §12: the forfeit time).
    let Setup { players: clients, td, id } = setup(
        &server,
        &names,
        json!({"name":"Forfeit Swiss","format":"swiss","rounds":1,"time_control":"300+0",
                   "rated":true,"forfeit_s":10}),
    )
    .await;
    let points = |v: &Value| v["user"]["points"].as_str().unwrap().to_owned();
    let mut before = HashMap::new();
    for n in names {
        before.insert(n, points(&td.get(&format!("/api/v1/users/{n}")).await.1));
    }
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let boards = round_of(&v, 1)["boards"].as_array().unwrap().clone();
    let seat = |b: usize, c: &str| names.iter().position(|n| *n == boards[b][c]).unwrap();
    // Board 2 is played (and rated); on board 1 nobody moves.
    let game2 = format!("{id}r1b2");
    let (mut w, hello) = clients[seat(1, "white")].game_socket(&game2).await;
    assert_eq!(hello["game"]["first_move"]["color"], "white");
    w.play("e2e4", 0).await;
    let (mut b, _) = clients[seat(1, "black")].game_socket(&game2).await;
    b.play("e7e5", 1).await;
    b.send(json!({"t":"resign"})).await;
    b.next_of("end").await;
    // Board 1: White's default time passes (a bound on the wait, not a timing assertion).
    let (mut watch, _) = clients[seat(0, "black")].game_socket(&format!("{id}r1b1")).await;
    // Each message within 60 s (the other messages before it wait as long: a loaded machine).
    let mut end = watch.recv_within(std::time::Duration::from_secs(60)).await;
    while end["t"] != "end" {
        end = watch.recv_within(std::time::Duration::from_secs(60)).await;
    }
    assert_eq!(
        (end["termination"].as_str(), end["result"].as_str()),
        (Some("no_start"), Some("0-1")),
        "{end}"
    );
    let mut v = Value::Null;
    for _ in 0..500 {
        v = td.get(&format!("/api/v1/tournaments/{id}")).await.1;
        if v["status"] == "finished" {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    assert_eq!(v["status"], "finished", "{v}");
    let board1 = &round_of(&v, 1)["boards"][0];
    assert_eq!(
        (board1["result"].as_str(), &board1["forfeit"]),
        (Some("-+"), &json!(true)),
        "unplayed, as TRF -/+"
    );
    let forfeiter = boards[0]["white"].as_str().unwrap();
    let row = v["crosstable"].as_array().unwrap().iter().find(|r| r["name"] == forfeiter).unwrap();
    assert!(row["rounds"][0].as_str().unwrap().ends_with('-'), "{row}");
    // The forfeit counts in the tournament, not on the ladder; the played game does.
    for (i, n) in names.iter().enumerate() {
        let now = points(&td.get(&format!("/api/v1/users/{n}")).await.1);
        let on_board1 = i == seat(0, "white") || i == seat(0, "black");
        assert_eq!(now == before[n], on_board1, "{n}: {} -> {now}", before[n]);
    }
    server.stop().await;
}

/// The board a player sits at in `round`: (board from 1, White's and Black's client index).
fn seats(v: &Value, round: u64, names: &[&str]) -> Vec<(u64, usize, usize)> {
    round_of(v, round)["boards"]
        .as_array()
        .unwrap()
        .iter()
        .enumerate()
        .map(|(i, b)| {
            let at = |c: &str| names.iter().position(|n| *n == b[c]).unwrap();
            (i as u64 + 1, at("white"), at("black"))
        })
        .collect()
}

#[tokio::test]
async fn a_result_is_corrected_after_the_last_round_even_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ann", "bob", "cat", "dan"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Last Round","format":"swiss","rounds":1,"time_control":"600+0"}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    for board in [1, 2] {
        arbiter(
            &td,
            &id,
            json!({"action":"result","round":1,"board":board,"result":"1-0","reason":"reported"}),
        )
        .await;
    }
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;
    let white1 = round_of(&v, 1)["boards"][0]["white"].as_str().unwrap().to_owned();
    let score = |v: &Value, name: &str| {
        v["standings"]["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap()
            ["score"]
            .clone()
    };
    assert_eq!(score(&v, &white1), "1.0");

    // A correction needs its reason, then changes the standings, crosstable and TRF.
    let path = format!("/api/v1/tournaments/{id}/arbiter");
    let (status, err) =
        td.post(&path, json!({"action":"result","round":1,"board":1,"result":"0-1"})).await;
    assert_eq!((status, err["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("reason")));
    let v = arbiter(&td, &id, json!({"action":"result","round":1,"board":1,"result":"0-1","reason":"scoresheets swapped"})).await;
    assert_eq!(v["status"], "finished");
    assert_eq!(round_of(&v, 1)["boards"][0]["result"], "0-1");
    assert_eq!(score(&v, &white1), "0.0");
    let row = v["crosstable"].as_array().unwrap().iter().find(|r| r["name"] == *white1).unwrap();
    assert!(row["rounds"][0].as_str().unwrap().ends_with('0'), "{row}");
    let entry = v["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&entry["action"], &entry["reason"], &entry["detail"]["result"]),
        (&json!("result"), &json!("scoresheets swapped"), &json!("0-1"))
    );
    // Other actions stay refused once it is over.
    let (status, err) = td.post(&path, json!({"action":"pair"})).await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_running"))
    );
    server.stop().await;

    // After a restart the finished tournament has no actor until one is needed: the
    // correction still goes through, and the TRF says so.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = Client::new(&server).await;
    let (status, _) = td
        .post(
            "/api/v1/account/login",
            json!({"username":"arbiter","password":"correct horse battery"}),
        )
        .await;
    assert_eq!(status, StatusCode::OK);
    let v = arbiter(&td, &id, json!({"action":"result","round":1,"board":1,"result":"1/2-1/2","reason":"the players agreed a draw"})).await;
    assert_eq!(score(&v, &white1), "0.5");
    let (_, again) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(round_of(&again, 1)["boards"][0]["result"], "1/2-1/2");
    let (_, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    let t = rookery_tournament::trf::read(&trf).unwrap();
    let p = t.players.iter().find(|p| p.name == white1).unwrap();
    assert_eq!(p.points.to_string(), "0.5", "{trf}");
    server.stop().await;
}

#[tokio::test]
async fn a_game_still_played_when_the_tournament_ends_counts_after_a_restart() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ann", "bob", "cat", "dan"];
    let Setup { players, td, id } = setup(
        &server,
        &names,
        json!({"name":"Late Game","format":"swiss","rounds":2,"time_control":"600+0"}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let seats = seats(&v, 1, &names);
    arbiter(
        &td,
        &id,
        json!({"action":"result","round":1,"board":1,"result":"1-0","reason":"reported"}),
    )
    .await;
    // Board 2 is under way when the arbiter ends the tournament.
    let (_, w, b) = seats[1];
    let game = format!("{id}r1b2");
    let (mut ws, _) = players[w].game_socket(&game).await;
    ws.play("e2e4", 0).await;
    drop(ws);
    let v = arbiter(&td, &id, json!({"action":"end","reason":"the hall closes"})).await;
    assert_eq!(v["status"], "finished");
    server.stop().await;

    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let players = {
        let mut out = Vec::new();
        for n in names {
            let c = Client::new(&server).await;
            let (status, _) = c
                .post(
                    "/api/v1/account/login",
                    json!({"username": n, "password": "correct horse battery"}),
                )
                .await;
            assert_eq!(status, StatusCode::OK);
            out.push(c);
        }
        out
    };
    let (mut bs, hello) = players[b].game_socket(&game).await;
    assert_eq!(hello["game"]["status"], "live");
    bs.send(json!({"t":"resign"})).await;
    bs.next_of("end").await;
    let v = until(&players[0], &id, "the late result counted", |v| {
        round_of(v, 1)["boards"][1]["result"] == "1-0"
    })
    .await;
    assert_eq!(v["status"], "finished");
    assert!(v["log"].as_array().unwrap().last().unwrap()["by"].is_null(), "entered by the server");
    server.stop().await;
}

#[tokio::test]
async fn your_game_goes_to_its_player_only_and_boards_say_when_they_start() {
    let server = TestServer::start().await;
    let names = ["ann", "bob", "cat", "dan"];
    let Setup { players, td, id } = setup(
        &server,
        &names,
        json!({"name":"Quiet Swiss","format":"swiss","rounds":2,"time_control":"600+0"}),
    )
    .await;
    let watcher = Client::new(&server).await;
    watcher.signup("eve").await;
    let socket = format!("/api/v1/tournaments/{id}/socket");
    let mut spectator = watcher.socket(&socket).await;
    let mut ann = players[0].socket(&socket).await;
    assert_eq!(spectator.recv().await["t"], "tournament");
    assert_eq!(ann.recv().await["t"], "tournament");
    // ann's other pages hold the lobby socket for her notices only: no seek comes on it.
    let mut notices = players[0].socket("/api/v1/lobby/socket?notices").await;
    let (status, seek) = players[1]
        .post("/api/v1/seeks", json!({"time_control":"300+0","rated":false,"rules":"casual"}))
        .await;
    assert_eq!(status, StatusCode::CREATED, "{seek}");
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    for b in round_of(&v, 1)["boards"].as_array().unwrap() {
        assert_eq!(b["started"], false, "{b}");
    }
    // ann is told of her game, and only of hers.
    let mine = ann.next_of("your_game").await;
    let board = round_of(&v, 1)["boards"]
        .as_array()
        .unwrap()
        .iter()
        .find(|b| b["white"] == "ann" || b["black"] == "ann")
        .unwrap()
        .clone();
    assert_eq!(mine["game"], board["game"]);
    assert!(mine.get("player").is_none(), "{mine}");
    let notice = notices.recv().await;
    assert_eq!((notice["t"].as_str(), &notice["game"]), (Some("tournament_game"), &board["game"]));
    // The spectator sees the round published and then the view, and no `your_game` between.
    loop {
        let m = spectator.recv().await;
        assert_ne!(m["t"], "your_game", "a spectator got {m}");
        if m["t"] == "tournament" && round_of(&m["tournament"], 1)["state"] == "published" {
            break;
        }
    }

    // A move on board 1: that board has started, board 2 not; unpairing is refused.
    let (_, w, _) = seats(&v, 1, &names)[0];
    let (mut ws, _) = players[w].game_socket(&format!("{id}r1b1")).await;
    ws.play("e2e4", 0).await;
    let v = until(&td, &id, "board 1 started", |v| round_of(v, 1)["boards"][0]["started"] == true)
        .await;
    assert_eq!(round_of(&v, 1)["boards"][1]["started"], false);
    let (status, err) = td
        .post(&format!("/api/v1/tournaments/{id}/arbiter"), json!({"action":"unpair","round":1}))
        .await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("round_started"))
    );
    server.stop().await;
}

#[tokio::test]
async fn forbidden_pairs_are_listed_and_lifted_and_a_join_answers_with_the_entry() {
    let server = TestServer::start().await;
    let names = ["ann", "bob", "cat"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Family Swiss","format":"swiss","rounds":2,"time_control":"600+0"}),
    )
    .await;
    let late = Client::new(&server).await;
    late.signup("Dan").await;
    let (status, entry) = late.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
    assert_eq!(status, StatusCode::OK, "{entry}");
    assert_eq!((entry["name"].as_str(), entry["withdrawn"].as_bool()), (Some("Dan"), Some(false)));
    assert!(entry.get("rounds_list").is_none(), "the entry, not the view: {entry}");

    let v =
        arbiter(&td, &id, json!({"action":"forbid_pair","a":"ann","b":"bob","reason":"siblings"}))
            .await;
    assert_eq!(v["forbidden_pairs"], json!([["ann", "bob"]]));
    arbiter(&td, &id, json!({"action":"forbid_pair","a":"cat","b":"Dan"})).await;
    // Lifted by either order of the names, and logged.
    let v = arbiter(
        &td,
        &id,
        json!({"action":"allow_pair","a":"bob","b":"ann","reason":"cousins, not siblings"}),
    )
    .await;
    assert_eq!(v["forbidden_pairs"], json!([["cat", "Dan"]]));
    let entry = v["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&entry["action"], &entry["reason"]),
        (&json!("allow_pair"), &json!("cousins, not siblings"))
    );
    let (status, err) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"allow_pair","a":"ann","b":"bob"}),
        )
        .await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_forbidden"))
    );
    let (status, err) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"allow_pair","a":"ann","b":"zed"}),
        )
        .await;
    assert_eq!((status, err["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("b")));
    server.stop().await;
}

#[tokio::test]
async fn an_arena_game_says_whether_berserk_is_allowed_and_the_opponent_hears_of_it() {
    let server = TestServer::start().await;
    let mut games = Vec::new();
    for (berserk, names) in [(true, ["ann", "bob"]), (false, ["cyd", "dot"])] {
        let s = setup(
            &server,
            &names,
            json!({"name":"Arena","format":"arena","duration_s":600,"time_control":"180+2","berserk":berserk}),
        )
        .await;
        arbiter(&s.td, &s.id, json!({"action":"start"})).await;
        let v = until(&s.td, &s.id, "paired", |v| {
            v["arena"]["games"].as_array().is_some_and(|g| !g.is_empty())
        })
        .await;
        let g = v["arena"]["games"][0].clone();
        games.push((s, berserk, g, names));
    }
    for (s, berserk, g, names) in &games {
        let game = g["game"].as_str().unwrap();
        let white = names.iter().position(|n| *n == g["white"]).unwrap();
        let (mut ws, hello) = s.players[white].game_socket(game).await;
        assert_eq!(hello["game"]["tournament"]["berserk"], *berserk, "{hello}");
        let (mut bs, _) = s.players[1 - white].game_socket(game).await;
        let (status, r) = s.players[1 - white]
            .post(&format!("/api/v1/tournaments/{}/berserk", s.id), json!({"game": game}))
            .await;
        if !*berserk {
            assert_eq!(status, StatusCode::CONFLICT, "{r}");
            continue;
        }
        assert_eq!(status, StatusCode::OK, "{r}");
        // White hears of Black's berserk at once, with the clocks after it.
        let e = ws.next_of("event:berserk").await;
        assert_eq!(
            (e["color"].as_str(), e["clock"]["black_ms"].as_u64()),
            (Some("black"), Some(90_000))
        );
        bs.next_of("event:berserk").await;
    }
    // A Swiss game has no berserk.
    let s = setup(
        &server,
        &["eli", "fox"],
        json!({"name":"Swiss","format":"swiss","rounds":1,"time_control":"180+2"}),
    )
    .await;
    arbiter(&s.td, &s.id, json!({"action":"start"})).await;
    arbiter(&s.td, &s.id, json!({"action":"publish","round":1})).await;
    let (_, hello) = s.players[0].game_socket(&format!("{}r1b1", s.id)).await;
    assert_eq!(hello["game"]["tournament"]["berserk"], false);
    server.stop().await;
}

#[tokio::test]
async fn a_trf_import_takes_the_name_and_time_control_from_the_file() {
    let server = TestServer::start().await;
    let names = ["ann", "bob"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Exported Open","format":"swiss","rounds":2,"time_control":"5400+30"}),
    )
    .await;
    let (_, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    assert!(trf.lines().any(|l| l == "012 Exported Open"), "{trf}");
    assert!(trf.lines().any(|l| l.starts_with("122 5400+30")), "{trf}");
    let (status, v) =
        td.post("/api/v1/tournaments/import", json!({"trf": trf, "format":"swiss"})).await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!(
        (v["name"].as_str(), v["time_control"].as_str()),
        (Some("Exported Open"), Some("5400+30"))
    );
    // Given, they win over the file's.
    let (status, v) = td
        .post(
            "/api/v1/tournaments/import",
            json!({"trf": trf, "format":"swiss","name":"Mine","time_control":"600+0"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!((v["name"].as_str(), v["time_control"].as_str()), (Some("Mine"), Some("600")));
    // A file without a time control, or with one this server does not read: the field named.
    for (file, words) in [
        (trf.lines().filter(|l| !l.starts_with("122")).collect::<Vec<_>>().join("\n"), "none"),
        (trf.replace("122 5400+30", "122 90 minutes for the game"), "90 minutes"),
    ] {
        let (status, err) =
            td.post("/api/v1/tournaments/import", json!({"trf": file, "format":"swiss"})).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{err}");
        assert_eq!(err["error"]["field"], "time_control", "{err}");
        let message = err["error"]["message"].as_str().unwrap();
        assert!(message.contains("122") && message.contains(words), "{message}");
    }
    server.stop().await;
}

#[tokio::test]
async fn a_level_condition_refuses_a_player_in_words() {
    let server = TestServer::start().await;
    let Setup { td, id, .. } = setup(
        &server,
        &[],
        json!({"name":"Masters","format":"swiss","rounds":3,"time_control":"600+0","min_level":20}),
    )
    .await;
    let newcomer = Client::new(&server).await;
    newcomer.signup("newcomer").await;
    let (status, err) = newcomer.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
    assert_eq!(
        (status, err["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("level_outside"))
    );
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("unranked") && message.contains("level 20 or better"), "{message}");
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["players"], json!([]));
    server.stop().await;
}

/// Issue 51: a tournament's TRF export imports back, finished or between rounds, to the same
/// standings and crosstable, with every kind of record the export writes: a withdrawal, a
/// forfeit each way and a double forfeit, each bye (half and zero asked for, full given by the
/// arbiter, the PAB), a corrected result and a late entry. The tie-break text (2024 here) and
/// list travel in the file, so the import needs neither, and `rookery standings`' reading of
/// the file ranks as the site does. Refusals and the log name players.
#[tokio::test]
async fn a_trf_export_imports_back_with_withdrawals_forfeits_byes_corrections_and_late_entries() {
    use rookery_tournament::{trf, Regulations, Tiebreak};
    let server = TestServer::start().await;
    let names = ["ann", "bob", "cat", "dan", "eve", "fay", "gus"];
    let Setup { players: clients, td, id } = setup(
        &server,
        &names,
        json!({"name":"Round Trip Open","format":"swiss","rounds":5,"time_control":"600+5",
               "max_byes":1,"late_join_until":2,"regulations":"2024",
               "tiebreaks":["BH-C1","BH","SB","WIN"]}),
    )
    .await;
    let byes = format!("/api/v1/tournaments/{id}/byes");
    let (status, v) = clients[2].post(&byes, json!({"round":2,"kind":"half"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let (status, err) = clients[2].post(&byes, json!({"round":4,"kind":"zero"})).await;
    assert_eq!(
        (status, err["error"]["code"].as_str(), err["error"]["message"].as_str()),
        (StatusCode::CONFLICT, Some("too_many_byes"), Some("cat has asked for the 1 bye allowed"))
    );
    let (status, v) = clients[3].post(&byes, json!({"round":3,"kind":"zero"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    arbiter(
        &td,
        &id,
        json!({"action":"bye","player":"eve","round":4,"kind":"full","reason":"an arbiter's duty"}),
    )
    .await;

    arbiter(&td, &id, json!({"action":"start"})).await;
    let mut between = None;
    for round in 1..=5u64 {
        if round > 1 {
            arbiter(&td, &id, json!({"action":"pair"})).await;
        }
        let v = arbiter(&td, &id, json!({"action":"publish","round":round})).await;
        for board in 1..=round_of(&v, round)["boards"].as_array().unwrap().len() as u64 {
            let result = match (round, board) {
                (1, 2) => "+-",
                (3, 1) => "-+",
                (4, 2) => "--",
                _ => scripted(round, board),
            };
            arbiter(&td, &id, json!({"action":"result","round":round,"board":board,"result":result,"reason":"reported"})).await;
        }
        until(&td, &id, "round finished", |v| round_of(v, round)["state"] == "finished").await;
        if round == 1 {
            let late = Client::new(&server).await;
            late.signup("hal").await;
            let (status, v) = late.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
            assert_eq!(status, StatusCode::OK, "{v}");
            let v = arbiter(&td, &id, json!({"action":"result","round":1,"board":1,"result":"1/2-1/2","reason":"entered wrongly"})).await;
            assert_eq!(round_of(&v, 1)["boards"][0]["result"], "1/2-1/2");
        }
        if round == 2 {
            arbiter(
                &td,
                &id,
                json!({"action":"withdraw","player":"gus","reason":"left the event"}),
            )
            .await;
            let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
            let (_, file) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
            between = Some((v, file));
        }
    }
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;
    let withdraw = v["log"].as_array().unwrap().iter().find(|e| e["action"] == "withdraw").unwrap();
    assert_eq!(withdraw["detail"]["name"], "gus", "the log names the player: {withdraw}");

    let (status, file) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(file.lines().any(|l| l == "202 BH-C1,BH,SB,WIN"), "{file}");
    assert!(file.lines().any(|l| l == "C07 2024"), "{file}");
    // `rookery standings FILE` reads the list and the text from the file: the site's ranking.
    let t = trf::read(&file).unwrap();
    assert_eq!(t.tie_break_regulations, Some(Regulations::C07_2024));
    let list: Vec<Tiebreak> = t.tie_breaks.iter().map(|c| c.parse().unwrap()).collect();
    let table = rookery_tournament::standings(&t, 5, &list, Regulations::C07_2024);
    let from_file: Vec<Value> = table
        .rows
        .iter()
        .map(|r| {
            json!([
                r.rank,
                t.player(r.player).unwrap().name,
                r.score.to_string(),
                r.values.iter().map(|v| v.to_string()).collect::<Vec<_>>()
            ])
        })
        .collect();
    let on_site: Vec<Value> = v["standings"]["rows"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| json!([r["rank"], r["name"], r["score"], r["tiebreaks"]]))
        .collect();
    assert_eq!(from_file, on_site);

    // Finished: imported as published, with nothing but the file and the format.
    let (status, imported) = td
        .post(
            "/api/v1/tournaments/import",
            json!({"trf": file, "format":"swiss","status":"finished"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["settings"]["regulations"], "2024");
    assert_eq!(imported["settings"]["tiebreaks"], v["settings"]["tiebreaks"]);
    assert_eq!(imported["standings"], v["standings"]);
    assert_eq!(imported["crosstable"], v["crosstable"]);
    let withdrawn = |v: &Value| -> Vec<String> {
        v["players"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|p| p["withdrawn"] == true)
            .map(|p| p["name"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(withdrawn(&imported), ["gus"]);
    // Given, the list and the text win over the file's; a list in the file that is not C.07's
    // is refused, naming its line, when none is given.
    let (status, mine) = td
        .post(
            "/api/v1/tournaments/import",
            json!({"trf": file, "format":"swiss","status":"finished","tiebreaks":["SB"],"regulations":"2026"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{mine}");
    assert_eq!(
        (&mine["settings"]["tiebreaks"], &mine["settings"]["regulations"]),
        (&json!(["SB"]), &json!("2026"))
    );
    let odd = file.replace("202 BH-C1,BH,SB,WIN", "202 BH-C1,XY");
    let (status, err) =
        td.post("/api/v1/tournaments/import", json!({"trf": odd, "format":"swiss"})).await;
    assert_eq!(
        (status, err["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("tiebreaks")),
        "{err}"
    );
    let message = err["error"]["message"].as_str().unwrap();
    assert!(message.contains("202") && message.contains("XY"), "{message}");

    // Between rounds 2 and 3: the same so far, and round 3 is paired as the site paired it
    // (gus withdrawn, dan's zero-point bye, eve's full-point bye to come).
    let (before, file) = between.unwrap();
    let (status, imported) =
        td.post("/api/v1/tournaments/import", json!({"trf": file, "format":"swiss"})).await;
    assert_eq!(status, StatusCode::CREATED, "{imported}");
    assert_eq!(imported["status"], "running");
    assert_eq!(imported["standings"], before["standings"]);
    assert_eq!(imported["crosstable"], before["crosstable"]);
    assert_eq!(withdrawn(&imported), ["gus"]);
    let copy = imported["id"].as_str().unwrap();
    let paired = arbiter(&td, copy, json!({"action":"pair"})).await;
    let boards = |v: &Value| -> Vec<(String, String)> {
        round_of(v, 3)["boards"]
            .as_array()
            .unwrap()
            .iter()
            .map(|b| {
                (b["white"].as_str().unwrap().to_owned(), b["black"].as_str().unwrap().to_owned())
            })
            .collect()
    };
    assert_eq!(boards(&paired), boards(&v));
    assert_eq!(round_of(&paired, 3)["bye"], round_of(&v, 3)["bye"]);
    server.stop().await;
}

/// Issue 53's printed documents: a round's pairings by board and by name, scoresheets and
/// result slips, in English and Chinese, each listing the boards the view lists.
#[tokio::test]
async fn a_round_prints_its_pairings_scoresheets_and_slips_as_the_view_pairs_it() {
    let server = TestServer::start().await;
    let names = ["zoe", "amy", "kim", "bob", "lea"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Hall <Open>","format":"swiss","rounds":3,"time_control":"5400+30"}),
    )
    .await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    let boards = round_of(&v, 1)["boards"].as_array().unwrap().clone();
    assert_eq!(boards.len(), 2);
    let bye = round_of(&v, 1)["bye"].as_str().unwrap().to_owned();
    let print = |doc: &str, query: &str| {
        let (td, id) = (&td, &id);
        let path = format!("/api/v1/tournaments/{id}/print/{doc}{query}");
        async move { td.get_text(&path).await }
    };
    for (lang, white, bye_word) in [("en", "White", "bye"), ("zh", "白方", "轮空")] {
        let (status, page) = print("pairings", &format!("?round=1&lang={lang}")).await;
        assert_eq!(status, StatusCode::OK, "{page}");
        assert!(page.contains("Hall &lt;Open&gt;"), "the name is escaped");
        assert!(page.contains(white) && page.contains(bye_word), "{lang}: {page}");
        // Board by board, in the view's order: White then Black on each row.
        let mut at = 0;
        for b in &boards {
            for side in ["white", "black"] {
                let name = b[side].as_str().unwrap();
                at += page[at..].find(name).unwrap_or_else(|| panic!("{name} after {at}: {page}"));
            }
        }
        let (_, sheets) = print("scoresheets", &format!("?lang={lang}")).await;
        assert_eq!(sheets.matches("class=\"sheet\"").count(), 2, "a page per board");
        for b in &boards {
            assert!(sheets.contains(b["white"].as_str().unwrap()));
        }
        assert!(sheets.contains("<td class=\"n\">60</td>"), "60 moves to record");
        let (_, slips) = print("slips", &format!("?round=1&lang={lang}")).await;
        assert_eq!(slips.matches("class=\"slip\"").count(), 2);
        // The pairings carry a QR code of the tournament's page, at the address the request
        // came to; the event's documents list every player.
        let url = format!("/tournaments/{id}</a>");
        assert!(page.contains("<div class=\"qr\"><svg") && page.contains(&url), "{page}");
        let (status, standings) = print("standings", &format!("?lang={lang}")).await;
        assert_eq!(status, StatusCode::OK, "{standings}");
        let (status, wall) = print("wall-chart", &format!("?lang={lang}")).await;
        assert_eq!(status, StatusCode::OK, "{wall}");
        assert!(wall.contains("class=\"sheet wide\"") && wall.contains(&url), "{wall}");
        for name in names {
            assert!(standings.contains(name) && wall.contains(name), "{name}");
        }
        let titles = if lang == "en" {
            ["Standings", "Wall chart"]
        } else {
            ["成绩排名", "成绩总表"]
        };
        assert!(standings.contains(titles[0]) && wall.contains(titles[1]), "{lang}");
    }
    // By name: every player once, alphabetically, the bye among them.
    let (_, page) = print("pairings-by-name", "").await;
    let mut sorted = names.to_vec();
    sorted.sort_unstable();
    let found: Vec<usize> =
        sorted.iter().map(|n| page.find(&format!("<td>{n}</td>")).unwrap()).collect();
    assert!(found.windows(2).all(|w| w[0] < w[1]), "alphabetical: {page}");
    assert!(page.contains(&format!("<td>{bye}</td><td class=\"n\"></td><td></td><td>bye</td>")));
    // Refusals name what is wrong.
    let (status, v) = td.get(&format!("/api/v1/tournaments/{id}/print/pairings?round=2")).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{v}");
    let e = &v["error"];
    assert_eq!(
        (e["code"].as_str(), e["field"].as_str()),
        (Some("bad_field"), Some("round")),
        "{v}"
    );
    assert_eq!(e["message"], "field round: round 2 is not paired");
    let (status, v) = td.get(&format!("/api/v1/tournaments/{id}/print/pairings?lang=fr")).await;
    assert_eq!(
        (status, v["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("lang")),
        "{v}"
    );
    let (status, _) = td.get(&format!("/api/v1/tournaments/{id}/print/wallchart")).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    server.stop().await;
}

/// Issue 54: a Swiss created with the Burstein system and the Baku acceleration says so in its
/// views, is paired by them, and exports a report (type `FIDE_BURSTEIN_BAKU`, the virtual
/// points as `250` lines) that the Burstein pairings checker re-pairs without a discrepancy.
#[tokio::test]
async fn a_burstein_accelerated_swiss_is_paired_by_its_rules_and_its_trf_checks() {
    let server = TestServer::start().await;
    let names = ["ada", "ben", "cyd", "dil", "eda", "flo", "gus", "hal"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Fast Burstein","format":"swiss","rounds":4,"time_control":"600+5",
               "pairing_system":"burstein","acceleration":"baku"}),
    )
    .await;
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!((&v["pairing_system"], &v["acceleration"]), (&json!("burstein"), &json!("baku")));
    let (_, list) = td.get("/api/v1/tournaments").await;
    let row = list["upcoming"].as_array().unwrap().iter().find(|t| t["id"] == id.as_str());
    let row = row.unwrap_or_else(|| panic!("{list}"));
    assert_eq!(
        (&row["pairing_system"], &row["acceleration"]),
        (&json!("burstein"), &json!("baku"))
    );
    arbiter(&td, &id, json!({"action":"start"})).await;
    for round in 1..=4u64 {
        if round > 1 {
            arbiter(&td, &id, json!({"action":"pair"})).await;
        }
        let v = arbiter(&td, &id, json!({"action":"publish","round":round})).await;
        for board in 1..=round_of(&v, round)["boards"].as_array().unwrap().len() as u64 {
            let result = scripted(round, board);
            arbiter(&td, &id, json!({"action":"result","round":round,"board":board,"result":result,"reason":"reported"})).await;
        }
        until(&td, &id, "round finished", |v| round_of(v, round)["state"] == "finished").await;
    }
    until(&td, &id, "finished", |v| v["status"] == "finished").await;
    let (status, text) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    assert_eq!(status, StatusCode::OK);
    assert!(text.lines().any(|l| l.trim_end() == "092 FIDE_BURSTEIN_BAKU"), "{text}");
    let t = rookery_tournament::trf::read(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
    // Eight players: GA is the first four, a point in rounds 1 and half a point in round 2.
    let ga: Vec<u32> = t.accelerations.iter().map(|a| a.player.get()).collect();
    assert_eq!(ga, [1, 2, 3, 4], "{text}");
    let checks = rookery_tournament::burstein::check(&t);
    assert_eq!(checks.len(), 4);
    for check in &checks {
        assert!(check.agrees(), "round {}: {:?}\n{text}", check.round, check.expected);
    }
    // Round 1 was accelerated: GA met GA (1-3, 4-2 or the colours turned), not 1-5.
    let bare = rookery_tournament::Tournament { accelerations: Vec::new(), ..t.clone() };
    assert!(!rookery_tournament::burstein::check(&bare)[0].agrees(), "{text}");
    server.stop().await;
}

/// Issue 54: `pairing_system` and `acceleration` default to a Dutch Swiss without
/// acceleration; a value the server does not know, or either field on a tournament that is
/// not a Swiss, is a 400 `bad_field` naming the field.
#[tokio::test]
async fn pairing_system_and_acceleration_are_checked_by_name() {
    let server = TestServer::start().await;
    let Setup { td, id, .. } = setup(
        &server,
        &[],
        json!({"name":"Plain","format":"swiss","rounds":3,"time_control":"600+5"}),
    )
    .await;
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!((&v["pairing_system"], &v["acceleration"]), (&json!("dutch"), &json!("none")));
    let (status, v) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"RR","format":"round_robin","time_control":"600+5"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{v}");
    assert_eq!((&v["pairing_system"], &v["acceleration"]), (&Value::Null, &Value::Null));
    let swiss = json!({"name":"S","format":"swiss","rounds":5,"time_control":"600+5"});
    let round_robin = json!({"name":"R","format":"round_robin","time_control":"600+5"});
    let arena = json!({"name":"A","format":"arena","duration_s":600,"time_control":"180+2"});
    let with = |base: &Value, field: &str, value: Value| {
        let mut body = base.clone();
        body[field] = value;
        body
    };
    for (body, field, words) in [
        (
            with(&swiss, "pairing_system", json!("swiss")),
            "pairing_system",
            "dutch or burstein, not \"swiss\"",
        ),
        (with(&swiss, "pairing_system", json!("Burstein")), "pairing_system", "dutch or burstein"),
        (with(&swiss, "acceleration", json!("fast")), "acceleration", "none or baku, not \"fast\""),
        (with(&swiss, "acceleration", json!(true)), "acceleration", "none or baku, not true"),
        (with(&round_robin, "acceleration", json!("baku")), "acceleration", "only a Swiss"),
        (with(&arena, "acceleration", json!("baku")), "acceleration", "only a Swiss"),
        (with(&arena, "pairing_system", json!("burstein")), "pairing_system", "only a Swiss"),
    ] {
        let (status, err) = td.post("/api/v1/tournaments", body.clone()).await;
        assert_eq!(status, StatusCode::BAD_REQUEST, "{body} -> {err}");
        assert_eq!(err["error"]["code"], "bad_field", "{body} -> {err}");
        assert_eq!(err["error"]["field"], field, "{body} -> {err}");
        let message = err["error"]["message"].as_str().unwrap();
        assert!(message.contains(words), "{body} -> {message}");
    }
    server.stop().await;
}

/// Issue 53, the first step of the desk: a rated Swiss played over the board creates no live
/// game on the site; the arbiter enters each board's result (`enter`, no reason asked), which
/// records the game as played at the board and moves both players' §11 points as an online
/// rated game would (the points checked against the ladder's own award, game by game); twice
/// for one board is refused, a correction is a `result` with its reason, the rounds close and
/// pair on as online, and the exported TRF re-pairs by the Dutch checker.
#[tokio::test]
async fn an_over_the_board_swiss_takes_its_results_from_the_desk_and_records_each_board() {
    let server = TestServer::start().await;
    let names = ["ada", "ben", "cai", "dan", "eve", "fay", "gus"];
    let Setup { td, id, players } = setup(
        &server,
        &names,
        json!({"name":"Hall Swiss","format":"swiss","rounds":3,"time_control":"5400+30","over_the_board":true,"rated":true}),
    )
    .await;
    // Everyone's §11 points before, and the ladder's award applied game by game as the desk
    // enters them (RULES.md §11; a forfeit would change nothing).
    let mut points: HashMap<String, rookery_ladder::Points> = HashMap::new();
    for name in names {
        let (_, u) = td.get(&format!("/api/v1/users/{name}")).await;
        points.insert(name.to_owned(), u["user"]["points"].as_str().unwrap().parse().unwrap());
    }
    // Over the board only those checked in are paired (issue 53): here all of them.
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(v["over_the_board"], true);
    // Round 3's board 2, corrected below: its players and their points before it.
    let mut corrected = None;
    for round in 1..=3u64 {
        let v = if round == 1 {
            arbiter(&td, &id, json!({"action":"publish","round":1})).await
        } else {
            arbiter(&td, &id, json!({"action":"pair"})).await;
            arbiter(&td, &id, json!({"action":"publish","round":round})).await
        };
        let boards = round_of(&v, round)["boards"].as_array().unwrap().clone();
        assert_eq!(boards.len(), 3, "seven players: three boards and a bye");
        for (i, b) in boards.iter().enumerate() {
            assert!(b["game"].is_null(), "no game on the site while it is played: {b}");
            let board = i as u64 + 1;
            let result = scripted(round, board);
            let v = arbiter(
                &td,
                &id,
                json!({"action":"enter","round":round,"board":board,"result":result}),
            )
            .await;
            assert!(round_of(&v, round)["boards"][i]["game"].is_string(), "recorded once entered");
            let (white, black) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
            if (round, board) == (3, 2) {
                corrected =
                    Some((white.to_owned(), black.to_owned(), points[white], points[black]));
            }
            let pair = match result {
                "1-0" => rookery_ladder::PairResult::AWins,
                "0-1" => rookery_ladder::PairResult::BWins,
                _ => rookery_ladder::PairResult::Draw,
            };
            let (dw, db) = rookery_ladder::award(points[white], points[black], pair);
            *points.get_mut(white).unwrap() = points[white].checked_add(dw).unwrap();
            *points.get_mut(black).unwrap() = points[black].checked_add(db).unwrap();
        }
        if round == 3 {
            // The last result ended the tournament.
            break;
        }
        // Twice for one board: refused, the first stands.
        let (status, e) = td
            .post(
                &format!("/api/v1/tournaments/{id}/arbiter"),
                json!({"action":"enter","round":round,"board":1,"result":"1-0"}),
            )
            .await;
        assert_eq!(
            (status, e["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("has_result")),
            "{e}"
        );
        let (status, e) = td
            .post(
                &format!("/api/v1/tournaments/{id}/arbiter"),
                json!({"action":"enter","round":round,"board":9,"result":"1-0"}),
            )
            .await;
        assert_eq!(
            (status, e["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("no_board")),
            "{e}"
        );
        let v =
            until(&td, &id, "round closed", |v| round_of(v, round)["state"] == "finished").await;
        assert_eq!(round_of(&v, round)["boards"][0]["result"], scripted(round, 1));
    }
    // A result entered wrongly is corrected with its reason: over the board the record is
    // the desk's entry, so the game and its §11 award follow (both players' last game: as if
    // the draw had been typed at once).
    let v = arbiter(&td, &id, json!({"action":"result","round":3,"board":2,"result":"1/2-1/2","reason":"slip read wrongly"})).await;
    assert_eq!(round_of(&v, 3)["boards"][1]["result"], "1/2-1/2");
    let (white, black, w, b) = corrected.unwrap();
    let (dw, db) = rookery_ladder::award(w, b, rookery_ladder::PairResult::Draw);
    points.insert(white, w.checked_add(dw).unwrap());
    points.insert(black, b.checked_add(db).unwrap());
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;
    assert_eq!(v["standings"]["rows"].as_array().unwrap().len(), 7);
    // Each board is a game of the site, played at the board: nine in the tournament's PGN,
    // ada's among her games.
    let (_, pgn) = td.get_text(&format!("/api/v1/tournaments/{id}/pgn")).await;
    assert_eq!(pgn.matches("[Site \"over the board\"]").count(), 9, "{pgn}");
    let (status, mine) = players[0].get_text("/api/v1/users/ada/games.pgn").await;
    assert_eq!(status, StatusCode::OK, "{mine}");
    assert!(mine.contains("[Site \"over the board\"]"), "{mine}");
    // §11 points as the ladder awards them, the correction's included.
    for name in names {
        let (_, u) = td.get(&format!("/api/v1/users/{name}")).await;
        assert_eq!(u["user"]["points"], points[name].to_string(), "{name}");
    }
    // The TRF re-pairs as the Dutch system pairs.
    let (_, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf")).await;
    let t = rookery_tournament::trf::read(&trf).expect("the export reads");
    assert!(rookery_tournament::dutch::check(&t).iter().all(|c| c.agrees()), "{trf}");

    // On a tournament played on the site `enter` is refused; an arena cannot be over the board.
    let (status, online) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"Web","format":"swiss","rounds":3,"time_control":"300+2"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, e) = td
        .post(
            &format!("/api/v1/tournaments/{}/arbiter", online["id"].as_str().unwrap()),
            json!({"action":"enter","round":1,"board":1,"result":"1-0"}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("played_online")),
        "{e}"
    );
    let (status, e) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"A","format":"arena","duration_s":600,"time_control":"180+0","over_the_board":true}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("over_the_board")),
        "{e}"
    );
    server.stop().await;
}

/// Issue 53: an over-the-board event's player list. A CSV imported as guests (refused whole
/// on a bad row or a name entered already, naming the line), a guest added at the desk, a
/// check-in (only those present paired; the absent score nothing that round), a late entry
/// paired from round 2, a guest linked to an account with its rated games' §11 points
/// following; all of it read back from the log after a restart, and the TRF carrying the
/// list's federation, FIDE ID and birth year.
#[tokio::test]
async fn an_over_the_board_player_list_is_imported_checked_in_and_linked() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let Setup { td, id, players } = setup(
        &server,
        &["ada"],
        json!({"name":"Hall Open","format":"swiss","rounds":3,"time_control":"5400+30","over_the_board":true,"rated":true,"late_join_until":2}),
    )
    .await;
    let roster = format!("/api/v1/tournaments/{id}/roster");
    // A bad row refuses the list whole, naming the line and the column.
    let bad = "Name,Rating,FIDE ID\nLi Wei,2105,8600123\nWang Fang,18OO,\n";
    let (status, e) = td.post(&roster, json!({"text": bad})).await;
    assert_eq!(
        (status, e["error"]["field"].as_str(), e["error"]["message"].as_str()),
        (
            StatusCode::BAD_REQUEST,
            Some("text"),
            Some(
                "field text: line 3, column rating: \"18OO\" is not a rating (a whole number \
                 0-3500)"
            )
        ),
        "{e}"
    );
    let (status, e) = td.post(&roster, json!({"text": "name\nA\n", "format": "pdf"})).await;
    assert_eq!((status, e["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("format")));
    // A name entered already (ada joined with her account): refused naming the line.
    let (status, e) = td.post(&roster, json!({"text": "name\nZhang San\nADA\n"})).await;
    assert_eq!(
        (status, e["error"]["code"].as_str(), e["error"]["message"].as_str()),
        (StatusCode::CONFLICT, Some("duplicate_name"), Some("line 3: \"ADA\" is already entered")),
        "{e}"
    );
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["players"].as_array().unwrap().len(), 1, "nothing half-imported: {v}");
    // Only the arbiter imports.
    let (status, _) = players[0].post(&roster, json!({"text": "name\nX\n"})).await;
    assert_eq!(status, StatusCode::FORBIDDEN);

    let mut csv = String::from("Name,Rating,FIDE ID,Fed,Birth year,Club,Level\n");
    for i in 1..=9 {
        csv.push_str(&format!(
            "Player {i},{},{},CHN,{},Club {i},{}\n",
            2000 - 20 * i,
            8_600_000 + i,
            2000 + i,
            10 + i
        ));
    }
    // Padded past the 16 KiB of an ordinary body: a list is an upload (up to 1 MiB).
    csv.push_str(&format!("\n{}\n", ",".repeat(6).repeat(4000).replace(",,,,,,", ",,,,,,\n")));
    assert!(csv.len() > 20_000);
    let (status, v) = td.post(&roster, json!({"text": csv, "format": "csv"})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let listed = v["players"].as_array().unwrap();
    assert_eq!(listed.len(), 10);
    let p1 = listed.iter().find(|p| p["name"] == "Player 1").unwrap();
    assert_eq!(
        (&p1["rating"], &p1["guest"], &p1["present"]),
        (&json!(1980), &json!(true), &json!(false))
    );
    // Re-imported before round 1: the list adds (a TRF this time).
    let trf = "012 Hall Open\n\
001    1 m    Late, Lee                         1500 CHN     8600999 2010/00/00  0.0    1\n";
    let (status, v) = td.post(&roster, json!({"text": trf})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(v["players"].as_array().unwrap().len(), 11);
    // Each list is one log entry: entered whole or not at all.
    let lists: Vec<usize> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "roster")
        .map(|e| e["detail"]["players"].as_array().unwrap().len())
        .collect();
    assert_eq!(lists, [9, 1]);
    // A guest with an account's name: the account's join is refused (the desk links instead).
    arbiter(&td, &id, json!({"action":"guest","name":"Bob"})).await;
    let bob = Client::new(&server).await;
    bob.signup("bob").await;
    let (status, e) = bob.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
    assert_eq!(
        (status, e["error"]["message"].as_str()),
        (StatusCode::CONFLICT, Some("\"bob\" is already entered")),
        "{e}"
    );
    // One at the desk; a name twice is refused.
    arbiter(&td, &id, json!({"action":"guest","name":"Desk, Dora","rating":1700})).await;
    let (status, e) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"guest","name":"desk, dora"}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("duplicate_name"))
    );

    // Check-in: everyone but Player 9 and Desk, Dora; nobody else is paired.
    let mut present: Vec<String> = (1..=8).map(|i| format!("Player {i}")).collect();
    present.extend(["ada".to_owned(), "Late, Lee".to_owned()]);
    let v = arbiter(&td, &id, json!({"action":"check_in","players":present,"present":true})).await;
    let last = v["log"].as_array().unwrap().last().unwrap().clone();
    assert_eq!(
        (&last["action"], last["detail"]["entrant_names"].as_array().map(Vec::len)),
        (&json!("check_ins"), Some(10)),
        "the list checked in as one entry: {last}"
    );
    let (status, e) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"check_in","player":"Nobody","present":true}),
        )
        .await;
    assert_eq!((status, e["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("player")));
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let r1 = round_of(&v, 1);
    assert_eq!(r1["boards"].as_array().unwrap().len(), 5, "ten present: {r1}");
    let absent: Vec<&str> = r1["absent"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|a| a["kind"] == "absent")
        .map(|a| a["player"].as_str().unwrap())
        .collect();
    assert_eq!(absent, ["Player 9", "Bob", "Desk, Dora"]);
    // The printed list by name carries the list's clubs and says who is not paired.
    let (_, sheet) =
        td.get_text(&format!("/api/v1/tournaments/{id}/print/pairings-by-name?round=1")).await;
    assert!(sheet.contains("<th>Club</th>") && sheet.contains("<td>Club 3</td>"), "{sheet}");
    assert!(sheet.contains("<tr><td>Player 9</td><td>Club 9</td><td class=\"n\"></td><td></td><td>not paired</td></tr>"), "{sheet}");
    // After round 1 the list is closed; late entries one at a time.
    let (status, e) = td.post(&roster, json!({"text": "name\nToo Late\n"})).await;
    assert_eq!((status, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("round_paired")));
    let boards = r1["boards"].as_array().unwrap().clone();
    for (i, b) in boards.iter().enumerate() {
        // White wins everywhere but against ada: her guest opponent beats her.
        let result = if b["white"] == "ada" { "0-1" } else { "1-0" };
        arbiter(&td, &id, json!({"action":"enter","round":1,"board":i + 1,"result":result})).await;
    }
    // A late entry, and Dora arrives: both paired in round 2.
    arbiter(&td, &id, json!({"action":"guest","name":"Newcomer","rating":1600})).await;
    arbiter(
        &td,
        &id,
        json!({"action":"check_in","players":["Newcomer","Desk, Dora"],"present":true}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"pair"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":2})).await;
    let r2 = round_of(&v, 2);
    let paired: Vec<&str> = r2["boards"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|b| [b["white"].as_str().unwrap(), b["black"].as_str().unwrap()])
        .chain(r2["bye"].as_str())
        .collect();
    assert_eq!(paired.len(), 12, "{r2}");
    assert!(paired.contains(&"Newcomer") && paired.contains(&"Desk, Dora"), "{r2}");
    assert!(!paired.contains(&"Player 9"), "{r2}");
    let standings = |v: &Value, name: &str| {
        v["standings"]["rows"].as_array().unwrap().iter().find(|r| r["name"] == name).unwrap()
            ["score"]
            .clone()
    };
    assert_eq!(standings(&v, "Player 9"), "0.0", "absent: no bye points");

    // The guest who beat ada opens an account and is linked to it: the rated game moves
    // both accounts' points as the ladder awards it (a guest's game moved none).
    let (guest, guest_white) = boards
        .iter()
        .find_map(|b| {
            if b["white"] == "ada" {
                Some((b["black"].as_str().unwrap().to_owned(), false))
            } else if b["black"] == "ada" {
                Some((b["white"].as_str().unwrap().to_owned(), true))
            } else {
                None
            }
        })
        .unwrap();
    let points = |u: &Value| -> rookery_ladder::Points {
        u["user"]["points"].as_str().unwrap().parse().unwrap()
    };
    let zed = Client::new(&server).await;
    zed.signup("zed").await;
    let (_, ada_before) = td.get("/api/v1/users/ada").await;
    let (_, zed_before) = td.get("/api/v1/users/zed").await;
    let (ada_p, zed_p) = (points(&ada_before), points(&zed_before));
    let (status, e) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"link","player":guest,"account":"nobody"}),
        )
        .await;
    assert_eq!((status, e["error"]["field"].as_str()), (StatusCode::BAD_REQUEST, Some("account")));
    let (status, e) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"link","player":"ada","account":"zed"}),
        )
        .await;
    assert_eq!((status, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("not_guest")));
    let v = arbiter(&td, &id, json!({"action":"link","player":guest,"account":"zed"})).await;
    let row = v["players"].as_array().unwrap().iter().find(|p| p["name"] == *guest).unwrap();
    assert!(row.get("guest").is_none(), "linked: {row}");
    let (zed_award, ada_award) = if guest_white {
        rookery_ladder::award(zed_p, ada_p, rookery_ladder::PairResult::AWins)
    } else {
        let (a, z) = rookery_ladder::award(ada_p, zed_p, rookery_ladder::PairResult::BWins);
        (z, a)
    };
    assert_ne!(zed_award, rookery_ladder::Points::ZERO, "a win moves points");
    let (_, ada_after) = td.get("/api/v1/users/ada").await;
    let (_, zed_after) = td.get("/api/v1/users/zed").await;
    assert_eq!(points(&zed_after), zed_p.checked_add(zed_award).unwrap());
    assert_eq!(points(&ada_after), ada_p.checked_add(ada_award).unwrap());
    let (status, games) = zed.get_text("/api/v1/users/zed/games.pgn").await;
    assert_eq!(status, StatusCode::OK);
    assert!(games.contains("[Site \"over the board\"]"), "the guest's game is zed's: {games}");
    // Linked twice: refused; another guest to zed: zed is an entrant already.
    let (status, e) = td
        .post(
            &format!("/api/v1/tournaments/{id}/arbiter"),
            json!({"action":"link","player":"Player 9","account":"zed"}),
        )
        .await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("already_joined")),
        "{e}"
    );

    // The TRF carries the list's particulars.
    let (_, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    let t = rookery_tournament::trf::read(&trf).unwrap();
    let p3 = t.players.iter().find(|p| p.name == "Player 3").unwrap();
    assert_eq!(
        (p3.federation.as_deref(), p3.fide_id, p3.birth_date.as_deref()),
        (Some("CHN"), Some(8_600_003), Some("2003/00/00")),
        "{trf}"
    );
    let (_, before) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    server.stop().await;

    // After a restart the log replays: the guests, the check-in, the link.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = Client::new(&server).await;
    let (_, after) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["players"], before["players"]);
    assert_eq!(after["rounds_list"], before["rounds_list"]);
    assert_eq!(after["standings"], before["standings"]);
    let (_, zed_again) = td.get("/api/v1/users/zed").await;
    assert_eq!(points(&zed_again), points(&zed_after), "the link's award made once");
    server.stop().await;
}

/// Guests, lists and the check-in are an over-the-board event's: a tournament played on the
/// site refuses them, and pairs everyone who joined, as before.
#[tokio::test]
async fn an_online_tournament_takes_no_guests_and_no_check_in() {
    let server = TestServer::start().await;
    let Setup { td, id, .. } = setup(
        &server,
        &["ann", "bob"],
        json!({"name":"Web","format":"swiss","rounds":1,"time_control":"300+2"}),
    )
    .await;
    let path = format!("/api/v1/tournaments/{id}/arbiter");
    for body in [
        json!({"action":"guest","name":"Li"}),
        json!({"action":"check_in","player":"ann","present":false}),
        json!({"action":"link","player":"ann","account":"bob"}),
        json!({"action":"fix_board","player":"ann","board":1}),
    ] {
        let (status, e) = td.post(&path, body.clone()).await;
        assert_eq!(
            (status, e["error"]["code"].as_str()),
            (StatusCode::CONFLICT, Some("played_online")),
            "{body}"
        );
    }
    let (status, e) =
        td.post(&format!("/api/v1/tournaments/{id}/roster"), json!({"text":"name\nLi\n"})).await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("played_online"))
    );
    let report = json!({"round":1,"board":1,"result":"1-0"});
    let (status, e) = td.post(&format!("/api/v1/tournaments/{id}/report"), report).await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("played_online"))
    );
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(round_of(&v, 1)["boards"].as_array().unwrap().len(), 1);
    assert!(v["players"][0].get("present").is_none());
    server.stop().await;
}

/// Issue 53: fixed boards, as Swiss-Manager keeps them — a player who must sit at a given
/// table (a wheelchair place) plays there every round; who meets whom and the colours are
/// the pairing's, only the boards are numbered again. A board past the round's last is its
/// last board; the fixed boards are read back from the log after a restart, and a round
/// paired after it keeps them.
#[tokio::test]
async fn over_the_board_a_fixed_player_keeps_their_board_every_round() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let Setup { td, id, .. } = setup(
        &server,
        &[],
        json!({"name":"Hall Fixed","format":"swiss","rounds":3,"time_control":"5400+30","over_the_board":true}),
    )
    .await;
    let list: String = (1..=10).map(|i| format!("P{i:02},{}\n", 2300 - 50 * i)).collect();
    let (status, v) = td
        .post(
            &format!("/api/v1/tournaments/{id}/roster"),
            json!({"text": format!("name,rating\n{list}")}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let names: Vec<String> = (1..=10).map(|i| format!("P{i:02}")).collect();
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    // The lowest rated (paired on the last board) at board 1; the highest at board 40, past
    // the last: board 5.
    arbiter(&td, &id, json!({"action":"fix_board","player":"p10","board":1})).await;
    let v = arbiter(&td, &id, json!({"action":"fix_board","player":"P01","board":40})).await;
    let fixed = |v: &Value, name: &str| {
        v["players"].as_array().unwrap().iter().find(|p| p["name"] == name).unwrap()["fixed_board"]
            .clone()
    };
    assert_eq!(
        (fixed(&v, "P10"), fixed(&v, "P01"), fixed(&v, "P02")),
        (json!(1), json!(40), Value::Null)
    );
    for (body, field) in [
        (json!({"action":"fix_board","player":"P03","board":0}), "board"),
        (json!({"action":"fix_board","player":"P03","board":"one"}), "board"),
        (json!({"action":"fix_board","player":"Nobody","board":2}), "player"),
    ] {
        let (status, _, f) = refused(&td, &id, body.clone()).await;
        assert_eq!((status, f.as_str()), (StatusCode::BAD_REQUEST, Some(field)), "{body}");
    }
    let on_board = |v: &Value, round: u64, name: &str| {
        round_of(v, round)["boards"]
            .as_array()
            .unwrap()
            .iter()
            .find(|b| b["white"] == name || b["black"] == name)
            .map(|b| b["board"].as_u64().unwrap())
    };
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    assert_eq!((on_board(&v, 1, "P10"), on_board(&v, 1, "P01")), (Some(1), Some(5)), "{v}");
    // Who meets whom is the pairing's: P01 against P06, P05 against P10 (the Dutch's halves).
    let opponents = |v: &Value, board: u64| {
        let b = &round_of(v, 1)["boards"][board as usize - 1];
        let mut pair =
            [b["white"].as_str().unwrap().to_owned(), b["black"].as_str().unwrap().to_owned()];
        pair.sort();
        pair
    };
    assert_eq!(
        (opponents(&v, 1), opponents(&v, 5)),
        (["P05".into(), "P10".into()], ["P01".into(), "P06".into()])
    );
    for b in 1..=5 {
        arbiter(&td, &id, json!({"action":"enter","round":1,"board":b,"result":"1/2-1/2"})).await;
    }
    server.stop().await;

    // After a restart the fixed boards are read back, and round 2 keeps them; P01 freed.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = arbiter_again(&server).await;
    let v = arbiter(&td, &id, json!({"action":"fix_board","player":"P01","board":null})).await;
    assert_eq!((fixed(&v, "P10"), fixed(&v, "P01")), (json!(1), Value::Null));
    arbiter(&td, &id, json!({"action":"pair"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":2})).await;
    assert_eq!(on_board(&v, 2, "P10"), Some(1), "{v}");
    let last = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["action"] == "fix_board")
        .unwrap()
        .clone();
    assert_eq!((&last["detail"]["name"], &last["detail"]["board"]), (&json!("P01"), &Value::Null));
    server.stop().await;
}

/// Issue 53: the rating officer's figures over the board — each FIDE-rated player's change
/// (FIDE Rating Regulations 8.3: K 40 for a junior under 2300, 20, 10 from 2400; a difference
/// over 400 counted as 400), worked by hand below, and the TRF's start, end and round dates.
#[tokio::test]
async fn over_the_board_standings_show_each_fide_rated_players_rating_change() {
    let server = TestServer::start().await;
    let Setup { td, id, .. } = setup(
        &server,
        &[],
        json!({"name":"Hall Rated","format":"swiss","rounds":1,"time_control":"5400+30","over_the_board":true}),
    )
    .await;
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    let year = 1970 + now.as_secs() / 31_556_952;
    // Dee 2450 (K 10), Ann 2150 (K 20), Cai with a national rating only (not FIDE-rated),
    // Bo 1750 and 14 this year (a junior under 2300: K 40).
    let list = format!(
        "name,rating,national_rating,birth_year\nDee,2450,,1980\nAnn,2150,,1990\nCai,,1900,1995\nBo,1750,,{}\n",
        year - 14
    );
    let (status, v) =
        td.post(&format!("/api/v1/tournaments/{id}/roster"), json!({"text": list})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    arbiter(
        &td,
        &id,
        json!({"action":"check_in","players":["Dee","Ann","Cai","Bo"],"present":true}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    // The Dutch: Dee against Cai, Ann against Bo. Dee wins; Bo beats Ann.
    for b in round_of(&v, 1)["boards"].as_array().unwrap() {
        let (white, board) = (b["white"].as_str().unwrap(), b["board"].clone());
        let result = match white {
            "Dee" => "1-0",
            "Cai" => "0-1",
            "Bo" => "1-0",
            _ => "0-1",
        };
        arbiter(&td, &id, json!({"action":"enter","round":1,"board":board,"result":result})).await;
    }
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    let change = |name: &str| {
        let rows = v["standings"]["rows"].as_array().unwrap();
        rows.iter().find(|r| r["name"] == name).unwrap()["fide_rating_change"].clone()
    };
    // Ann 2150 lost to 1750 (D 400, PD .92): 20 × (0 − .92). Bo won (D −400, PD .08):
    // 40 × (1 − .08). Dee's one game was against Cai, unrated here: no rated game.
    assert_eq!(change("Ann"), json!({"k":20,"games":1,"change":"-18.40"}));
    assert_eq!(change("Bo"), json!({"k":40,"games":1,"change":"+36.80"}));
    assert_eq!((change("Dee"), change("Cai")), (Value::Null, Value::Null));

    // The TRF carries the dates: start, end, and round 1's date above its column.
    let (status, trf) = td.get_text(&format!("/api/v1/tournaments/{id}/trf?lines=lf")).await;
    assert_eq!(status, StatusCode::OK);
    let line =
        |code: &str| trf.lines().find(|l| l.starts_with(code)).unwrap_or_default().to_owned();
    let start = line("042 ");
    assert!(
        start.starts_with(&format!("042 {year}/"))
            || start.starts_with(&format!("042 {}/", year + 1)),
        "{trf}"
    );
    assert_eq!(line("052 "), start.replace("042", "052"), "ended the day it started");
    let dates = line("132 ");
    let first = line("001 ");
    assert_eq!(dates.len(), 99, "{dates:?}");
    assert_eq!(&dates[91..99], &format!("{}/{}", &start[6..8], &start[9..14]));
    assert!(
        first.len() >= 99 && first[91..95].trim().parse::<u32>().is_ok(),
        "round 1 at column 92: {first:?}"
    );
    rookery_tournament::trf::read(&trf).expect("the export reads");
    server.stop().await;
}

/// Issue 53: results from the players' phones. Both players of a board report the same
/// result: it is entered (by the server, "reported by both players") as the desk enters one;
/// they disagree: the board shows both reports, disputed, until the arbiter enters the
/// result. A player may change a report until the result is in; a player reports only their
/// own board, only a played result, only over the board. Read back after a restart.
#[tokio::test]
async fn over_the_board_both_players_report_a_result_and_a_disagreement_goes_to_the_arbiter() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ada", "ben", "cai", "dan"];
    let Setup { td, id, players } = setup(
        &server,
        &names,
        json!({"name":"Hall Phones","format":"swiss","rounds":2,"time_control":"5400+30","over_the_board":true}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let boards = round_of(&v, 1)["boards"].as_array().unwrap().clone();
    let client = |name: &str| &players[names.iter().position(|n| *n == name).unwrap()];
    let side = |b: usize, s: &str| boards[b][s].as_str().unwrap().to_owned();
    let report = format!("/api/v1/tournaments/{id}/report");
    let say = |who: String, board: usize, result: &str| {
        let (report, c) = (report.clone(), client(&who));
        let body = json!({"round":1,"board":board + 1,"result":result});
        async move { c.post(&report, body).await }
    };

    // Board 1: White says 0-1, thinks again, says 1-0; Black says 1-0: entered.
    let (status, v) = say(side(0, "white"), 0, "0-1").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    assert_eq!(
        round_of(&v, 1)["boards"][0]["reports"],
        json!({"white":"0-1","black":null,"disputed":false})
    );
    say(side(0, "white"), 0, "1-0").await;
    let (status, v) = say(side(0, "black"), 0, "1-0").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let b1 = &round_of(&v, 1)["boards"][0];
    assert_eq!((&b1["result"], b1.get("reports")), (&json!("1-0"), None), "{b1}");
    let entered = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .rev()
        .find(|e| e["action"] == "result")
        .unwrap()
        .clone();
    assert_eq!(
        (&entered["by"], &entered["reason"]),
        (&Value::Null, &json!("reported by both players"))
    );
    // Once in, the board takes no report.
    let (status, e) = say(side(0, "black"), 0, "0-1").await;
    assert_eq!((status, e["error"]["code"].as_str()), (StatusCode::CONFLICT, Some("has_result")));

    // Board 2: they disagree. A player of board 1 cannot report board 2; a forfeit is refused.
    say(side(1, "white"), 1, "1-0").await;
    let (status, v) = say(side(1, "black"), 1, "1/2-1/2").await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let b2 = &round_of(&v, 1)["boards"][1];
    assert_eq!(b2["result"], Value::Null);
    assert_eq!(b2["reports"], json!({"white":"1-0","black":"1/2-1/2","disputed":true}));
    let (status, e) = say(side(0, "white"), 1, "1-0").await;
    assert_eq!(
        (status, e["error"]["code"].as_str()),
        (StatusCode::CONFLICT, Some("not_on_board")),
        "{e}"
    );
    let (status, e) = say(side(1, "white"), 1, "+-").await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("result")),
        "{e}"
    );
    let (status, e) = say(side(1, "white"), 1, "2-0").await;
    assert_eq!(
        (status, e["error"]["field"].as_str()),
        (StatusCode::BAD_REQUEST, Some("result")),
        "{e}"
    );
    let stranger = Client::new(&server).await;
    let (status, _) = stranger.post(&report, json!({"round":1,"board":2,"result":"1-0"})).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    server.stop().await;

    // After a restart the reports are read back; the arbiter decides the dispute.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = arbiter_again(&server).await;
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(round_of(&v, 1)["boards"][1]["reports"]["disputed"], json!(true));
    let v = arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1-0"})).await;
    let b2 = &round_of(&v, 1)["boards"][1];
    assert_eq!((&b2["result"], b2.get("reports")), (&json!("1-0"), None));
    server.stop().await;
}

/// Issue 53: §11 from the hall — in a rated event played at the board, the standings show
/// each account's points and level before the event's first game and after its last, as the
/// ladder awarded them (the profile's figures), also after a restart.
#[tokio::test]
async fn over_the_board_standings_show_each_accounts_points_and_level_before_and_after() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ada", "ben", "cai", "dan"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Hall Rated §11","format":"swiss","rounds":2,"time_control":"5400+30","over_the_board":true,"rated":true}),
    )
    .await;
    let points = |name: &'static str| {
        let td = &td;
        async move { td.get(&format!("/api/v1/users/{name}")).await.1["user"]["points"].clone() }
    };
    let mut before = Vec::new();
    for n in names {
        before.push(points(n).await);
    }
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":1,"result":"1-0"})).await;
    let v = arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"+-"})).await;
    let rows = v["standings"]["rows"].as_array().unwrap().clone();
    let ladder = |name: &str| rows.iter().find(|r| r["name"] == name).unwrap()["ladder"].clone();
    let board = &round_of(&v, 1)["boards"][0];
    for (i, n) in names.iter().enumerate() {
        let l = ladder(n);
        let played = board["white"] == *n || board["black"] == *n;
        if !played {
            assert_eq!(l, Value::Null, "{n}: a forfeit changes no points");
            continue;
        }
        assert_eq!(
            (&l["points_before"], &l["points_after"], &l["games"]),
            (&before[i], &points(n).await, &json!(1)),
            "{n}"
        );
        assert!(l["level_after"]["zh"].is_string(), "{l}");
    }
    let winner = board["white"].as_str().unwrap().to_owned();
    let w = ladder(&winner);
    assert_ne!(w["points_before"], w["points_after"], "the winner's points moved: {w}");
    // The printed standings carry the same column.
    let (_, page) = td.get_text(&format!("/api/v1/tournaments/{id}/print/standings?lang=zh")).await;
    let span = format!(
        "{} → {}",
        w["points_before"].as_str().unwrap(),
        w["points_after"].as_str().unwrap()
    );
    assert!(page.contains("§11 积分（级别）") && page.contains(&span), "{page}");

    // Round 2, then the whole event computed again from its game list alone with the ladder
    // crate's award, game by game in the order the desk entered them (RULES.md §11).
    arbiter(&td, &id, json!({"action":"pair"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":2})).await;
    arbiter(&td, &id, json!({"action":"enter","round":2,"board":1,"result":"1/2-1/2"})).await;
    let v2 = arbiter(&td, &id, json!({"action":"enter","round":2,"board":2,"result":"0-1"})).await;
    let rows = v2["standings"]["rows"].as_array().unwrap().clone();
    let mut expected: HashMap<String, rookery_ladder::Points> = names
        .iter()
        .zip(&before)
        .map(|(n, p)| (n.to_string(), p.as_str().unwrap().parse().unwrap()))
        .collect();
    let start = expected.clone();
    let mut games: HashMap<String, u32> = HashMap::new();
    for (r, results) in [(1, ["1-0", "+-"]), (2, ["1/2-1/2", "0-1"])] {
        let boards = if r == 1 { board_list(&v2, 1) } else { board_list(&v, 2) };
        for (b, result) in boards.iter().zip(results) {
            let (w, k) = (b["white"].as_str().unwrap(), b["black"].as_str().unwrap());
            let outcome = match result {
                "1-0" => rookery_ladder::PairResult::AWins,
                "0-1" => rookery_ladder::PairResult::BWins,
                "1/2-1/2" => rookery_ladder::PairResult::Draw,
                _ => continue, // a forfeit: never counted
            };
            let (dw, dk) = rookery_ladder::award(expected[w], expected[k], outcome);
            *expected.get_mut(w).unwrap() = expected[w].checked_add(dw).unwrap();
            *expected.get_mut(k).unwrap() = expected[k].checked_add(dk).unwrap();
            *games.entry(w.to_owned()).or_default() += 1;
            *games.entry(k.to_owned()).or_default() += 1;
        }
    }
    for n in names {
        let l = rows.iter().find(|r| r["name"] == n).unwrap()["ladder"].clone();
        assert_eq!(
            (l["points_before"].as_str(), l["points_after"].as_str(), l["games"].as_u64()),
            (
                Some(start[n].to_string().as_str()),
                Some(expected[n].to_string().as_str()),
                Some(u64::from(games[n]))
            ),
            "{n}: {l}"
        );
        assert_eq!(points(n).await, json!(expected[n].to_string()), "{n}: the profile");
    }
    server.stop().await;

    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = Client::new(&server).await;
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    let again = v["standings"]["rows"].as_array().unwrap().clone();
    assert_eq!(again, rows, "the same spans after a restart");
    server.stop().await;
}

/// A round's boards as the view lists them.
fn board_list(v: &Value, round: u64) -> Vec<Value> {
    round_of(v, round)["boards"].as_array().unwrap().clone()
}

/// A refused arbiter request's status, code and field.
async fn refused(c: &Client, id: &str, body: Value) -> (StatusCode, Value, Value) {
    let (status, e) = c.post(&format!("/api/v1/tournaments/{id}/arbiter"), body).await;
    (status, e["error"]["code"].clone(), e["error"]["field"].clone())
}

fn score_of(v: &Value, name: &str) -> String {
    let rows = v["standings"]["rows"].as_array().unwrap();
    let row = rows.iter().find(|r| r["name"] == name).unwrap_or_else(|| panic!("{name}: {v}"));
    row["score"].as_str().unwrap().to_owned()
}

/// Issue 53: the source's incidents, recorded per board with the arbiter's decision and
/// reason (RULES.md §12, *Over the board*). Under `seed` the third illegal move of a player
/// in a game loses it (§8.4), the result entered as the desk enters one; under `fide` the
/// first gives the opponent 2 minutes (standard play, FIDE Appendix A.4.2 for the others)
/// and the second loses. All of it read back from the log after a restart.
#[tokio::test]
async fn over_the_board_incidents_are_recorded_per_board_and_an_illegal_move_penalty_follows_the_rule_set(
) {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ada", "ben", "cai", "dan"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Hall Seed","format":"swiss","rounds":2,"time_control":"5400+30","over_the_board":true}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let boards = round_of(&v, 1)["boards"].as_array().unwrap().clone();
    let name = |b: usize, side: &str| boards[b][side].as_str().unwrap().to_owned();
    let (w1, b1, w2, b2) = (name(0, "white"), name(0, "black"), name(1, "white"), name(1, "black"));

    // Board 1: White's first two illegal moves are counted; the third loses (seed).
    for count in 1..=3u64 {
        let v = arbiter(
            &td,
            &id,
            json!({"action":"incident","round":1,"board":1,"kind":"illegal_move","player":w1,
                   "decision":format!("illegal move {count} counted"),"reason":"king moved into check"}),
        )
        .await;
        let board = &round_of(&v, 1)["boards"][0];
        let last = &board["incidents"][count as usize - 1];
        assert_eq!(last["kind"], "illegal_move", "{board}");
        assert_eq!(last["player"], w1.as_str());
        assert_eq!(last["color"], "white");
        assert_eq!(last["count"], count);
        assert_eq!(last["reason"], "king moved into check");
        if count < 3 {
            assert_eq!(last["penalty"], "none");
            assert!(board["result"].is_null(), "{board}");
        } else {
            assert_eq!(last["penalty"], "loss");
            assert_eq!(board["result"], "0-1", "the third loses: {board}");
        }
    }
    // Black's count is Black's own.
    let v = arbiter(
        &td,
        &id,
        json!({"action":"incident","round":1,"board":1,"kind":"illegal_move","player":b1,"decision":"noted after the game"}),
    )
    .await;
    let board = &round_of(&v, 1)["boards"][0];
    assert_eq!(board["incidents"][3]["count"], 1);
    assert_eq!(board["result"], "0-1", "the result stands");

    // Board 2: each other kind, in order.
    let bodies = [
        json!({"kind":"time_added","player":w2,"seconds":120,"decision":"two minutes to White","reason":"clock set wrong"}),
        json!({"kind":"colour_mixup","before_quarter":true,"decision":"replayed with the right colours"}),
        json!({"kind":"misconduct","player":b2,"what":"repeated_draw_offers","sanction":"warning","decision":"warned"}),
    ];
    for (i, body) in bodies.iter().enumerate() {
        let mut body = body.clone();
        body["action"] = json!("incident");
        body["round"] = json!(1);
        body["board"] = json!(2);
        let v = arbiter(&td, &id, body.clone()).await;
        let shown = &round_of(&v, 1)["boards"][1]["incidents"][i];
        assert_eq!(shown["kind"], body["kind"], "{shown}");
        assert_eq!(shown["decision"], body["decision"]);
    }
    let v = arbiter(
        &td,
        &id,
        json!({"action":"incident","round":1,"board":2,"kind":"misconduct","player":b2,
               "what":"outside_help","sanction":"loss","decision":"game lost","reason":"phone in use"}),
    )
    .await;
    let board = &round_of(&v, 1)["boards"][1];
    assert_eq!(board["result"], "1-0", "a loss sanction enters the result: {board}");
    assert_eq!(board["incidents"][0]["seconds"], 120);
    assert_eq!(board["incidents"][0]["player"], w2.as_str());
    assert_eq!(board["incidents"][1]["before_quarter"], true);
    assert_eq!(board["incidents"][2]["what"], "repeated_draw_offers");
    assert_eq!(board["incidents"][3]["sanction"], "loss");
    // Both results in, the round closes and the standings count them.
    let v = until(&td, &id, "round 1 closed", |v| round_of(v, 1)["state"] == "finished").await;
    let scores: Vec<String> = [&w1, &b1, &w2, &b2].iter().map(|n| score_of(&v, n)).collect();
    assert_eq!(scores, ["0.0", "1.0", "1.0", "0.0"], "{}", v["standings"]);
    let v = arbiter(
        &td,
        &id,
        json!({"action":"incident","round":1,"board":2,"kind":"irregularity_after","decision":"the result stands","reason":"a scoresheet short of two moves"}),
    )
    .await;
    let shown = &round_of(&v, 1)["boards"][1]["incidents"][4];
    assert_eq!(shown["kind"], "irregularity_after");
    assert!(shown.get("player").is_none(), "{shown}");
    assert_eq!(round_of(&v, 1)["boards"][1]["result"], "1-0");
    assert_eq!(
        v["log"].as_array().unwrap().iter().filter(|e| e["action"] == "incident").count(),
        9
    );

    // Refusals, each naming what is wrong.
    let base = |extra: Value| {
        let mut body = json!({"action":"incident","round":1,"board":1,"decision":"x"});
        for (k, v) in extra.as_object().unwrap() {
            body[k] = v.clone();
        }
        body
    };
    let cases = [
        (
            base(json!({"board":9,"kind":"irregularity_after"})),
            StatusCode::CONFLICT,
            "no_board",
            Value::Null,
        ),
        (
            base(json!({"kind":"illegal_move","player":w2})),
            StatusCode::CONFLICT,
            "not_on_board",
            Value::Null,
        ),
        (
            base(json!({"kind":"illegal_move","player":"nobody"})),
            StatusCode::CONFLICT,
            "not_on_board",
            Value::Null,
        ),
        (
            base(json!({"kind":"illegal_move"})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("player"),
        ),
        (
            base(json!({"kind":"time_added","player":w1})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("seconds"),
        ),
        (
            base(json!({"kind":"colour_mixup"})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("before_quarter"),
        ),
        (
            base(json!({"kind":"misconduct","player":w1,"what":"notes"})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("sanction"),
        ),
        (
            base(json!({"kind":"misconduct","player":w1,"sanction":"warning"})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("what"),
        ),
        (
            base(json!({"kind":"misconduct","player":w1,"what":"shouting","sanction":"warning"})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("what"),
        ),
        (base(json!({"kind":"fell_asleep"})), StatusCode::BAD_REQUEST, "bad_field", json!("kind")),
        (
            base(json!({"kind":"irregularity_after","decision":" "})),
            StatusCode::BAD_REQUEST,
            "bad_field",
            json!("decision"),
        ),
    ];
    for (body, status, code, field) in cases {
        let (s, c, f) = refused(&td, &id, body.clone()).await;
        assert_eq!((s, c.as_str(), &f), (status, Some(code), &field), "{body}");
    }
    // The printable standings: each player's round 1 marked with its board's note, the notes
    // under the crosstable.
    let (_, page) = td.get_text(&format!("/api/v1/tournaments/{id}/standings.html")).await;
    assert_eq!(page.matches("<sup>1</sup>").count(), 2, "{page}");
    assert_eq!(page.matches("<sup>2</sup>").count(), 2, "{page}");
    assert!(
        page.contains(&format!(
            "<li>Round 1, board 1 ({w1} – {b1}): {w1}: illegal move 1, counted. Decision: illegal move 1 counted (king moved into check);"
        )),
        "{page}"
    );
    assert!(page.contains("colours mixed up, replayed with the right colours"), "{page}");
    assert!(
        page.contains("misconduct (outside help), game lost. Decision: game lost (phone in use)"),
        "{page}"
    );
    let (_, before) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    server.stop().await;

    // After a restart the log replays: the incidents, their reasons, the results they entered.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td = Client::new(&server).await;
    let (_, after) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["rounds_list"][0], before["rounds_list"][0]);
    assert_eq!(after["standings"], before["standings"]);
    assert_eq!(round_of(&after, 1)["boards"][0]["incidents"].as_array().unwrap().len(), 4);

    // Under `fide`: the first adds 2 minutes to the opponent (standard play), the second loses.
    let Setup { td, id, .. } = setup(
        &server,
        &["eve", "fay"],
        json!({"name":"Hall FIDE","format":"swiss","rounds":1,"time_control":"5400+30","over_the_board":true,"rules":"fide"}),
    )
    .await;
    arbiter(&td, &id, json!({"action":"check_in","players":["eve","fay"],"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    // An incident of a round unpaired goes with its boards: the count starts again.
    let white = round_of(&v, 1)["boards"][0]["white"].as_str().unwrap().to_owned();
    let v = arbiter(
        &td,
        &id,
        json!({"action":"incident","round":1,"board":1,"kind":"illegal_move","player":white,"decision":"2 minutes to Black"}),
    )
    .await;
    assert_eq!(round_of(&v, 1)["boards"][0]["incidents"].as_array().unwrap().len(), 1);
    arbiter(&td, &id, json!({"action":"unpair","round":1,"reason":"wrong players seated"})).await;
    arbiter(&td, &id, json!({"action":"pair"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    assert!(round_of(&v, 1)["boards"][0].get("incidents").is_none(), "{v}");
    let black = round_of(&v, 1)["boards"][0]["black"].as_str().unwrap().to_owned();
    let body = json!({"action":"incident","round":1,"board":1,"kind":"illegal_move","player":black,"decision":"FIDE 7.5.5"});
    let v = arbiter(&td, &id, body.clone()).await;
    let board = &round_of(&v, 1)["boards"][0];
    assert_eq!(board["incidents"][0]["penalty"], "time_added", "{board}");
    assert_eq!(board["incidents"][0]["added_ms"], 120_000);
    assert!(board["result"].is_null());
    let v = arbiter(&td, &id, body).await;
    let board = &round_of(&v, 1)["boards"][0];
    assert_eq!(board["incidents"][1]["penalty"], "loss", "{board}");
    assert_eq!(board["result"], "1-0", "the second loses: {board}");

    // A tournament played on the site has no desk for incidents.
    let (status, online) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"Web","format":"swiss","rounds":3,"time_control":"300+2"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, code, _) = refused(
        &td,
        online["id"].as_str().unwrap(),
        json!({"action":"incident","round":1,"board":1,"kind":"irregularity_after","decision":"x"}),
    )
    .await;
    assert_eq!((status, code.as_str()), (StatusCode::CONFLICT, Some("played_online")));
    server.stop().await;
}

/// The match `id` (`1.3`) of a knockout's view.
fn match_of<'a>(v: &'a Value, id: &str) -> &'a Value {
    let rounds = v["bracket"]["rounds"].as_array().unwrap_or_else(|| panic!("no bracket: {v}"));
    rounds
        .iter()
        .flat_map(|r| r["matches"].as_array().unwrap())
        .find(|m| m["id"] == id)
        .unwrap_or_else(|| panic!("no match {id}: {v}"))
}

/// Issue 54: a knockout of six over the board, seeded by rating (the guests entered out of
/// order), the two top seeds with byes. Each match game is entered at the desk; the match's
/// state machine gives the next game (colours alternating, the tie-break stages' clocks, the
/// Armageddon colours); one match goes through rapid and blitz to Armageddon, where Black's
/// draw wins it; the semi-finals wait for the whole first round; the final's winner ends the
/// tournament; the bracket reads the same after a restart.
#[tokio::test]
async fn a_knockout_of_six_over_the_board_is_played_to_the_final_through_armageddon() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let Setup { td, id, .. } = setup(
        &server,
        &[],
        json!({"name":"Hall Cup","format":"knockout","time_control":"5400+30",
            "over_the_board":true,"match":2,
            "tiebreak_stages":[{"name":"rapid","games":2,"time_control":"600+10"},
                               {"name":"blitz","games":2,"time_control":"180+2"}],
            "armageddon":{"white":"300+2","black":"240+2"}}),
    )
    .await;
    // Ratings give the seeds: Sam 2400 (1), Tia 2300 (2), Uma 2200 (3), Vic 2100 (4),
    // Wen 2000 (5), Xu 1900 (6).
    let entered =
        [("Wen", 2000), ("Uma", 2200), ("Sam", 2400), ("Xu", 1900), ("Tia", 2300), ("Vic", 2100)];
    for (name, rating) in entered {
        arbiter(&td, &id, json!({"action":"guest","name":name,"rating":rating})).await;
    }
    let names: Vec<&str> = entered.iter().map(|(n, _)| *n).collect();
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!((v["format"].as_str(), v["rounds"].as_u64()), (Some("knockout"), Some(3)));
    assert_eq!((v["bracket"]["size"].as_u64(), v["bracket"]["byes"].as_u64()), (Some(8), Some(2)));
    let side = |m: &Value, i: usize| m["sides"][i]["name"].as_str().map(str::to_owned);
    let r1: Vec<(Option<String>, Option<String>, String)> = v["bracket"]["rounds"][0]["matches"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| (side(m, 0), side(m, 1), m["state"].as_str().unwrap().to_owned()))
        .collect();
    let s = |n: &str| Some(n.to_owned());
    assert_eq!(
        r1,
        [
            (s("Sam"), None, "bye".to_owned()),
            (s("Vic"), s("Wen"), "playing".to_owned()),
            (s("Uma"), s("Xu"), "playing".to_owned()),
            (s("Tia"), None, "bye".to_owned()),
        ],
        "1 v 8 (a bye), 4 v 5, 3 v 6, 2 v 7 (a bye)"
    );
    assert_eq!(match_of(&v, "2.1")["sides"][0]["name"], "Sam", "a bye goes through");

    // Enters the next game of `m`, checking who has White and the clock first.
    let enter = |m: &'static str, white: &'static str, tc: &'static str, result: &'static str| {
        let (td, id) = (&td, &id);
        async move {
            let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
            let next = &match_of(&v, m)["next"];
            assert_eq!(
                (next["white"].as_str(), next["time_control"].as_str()),
                (Some(white), Some(tc)),
                "{m}: {next}"
            );
            let (round, number) = m.split_once('.').unwrap();
            let body = json!({"action":"enter","round":round.parse::<u32>().unwrap(),
                "board":number.parse::<u32>().unwrap(),"game":next["game"],"result":result});
            arbiter(td, id, body).await
        }
    };
    // 4 v 5: decided in the classical games, the colours alternating.
    enter("1.2", "Vic", "5400+30", "1-0").await;
    let v = enter("1.2", "Wen", "5400+30", "1/2-1/2").await;
    let m = match_of(&v, "1.2");
    assert_eq!(
        (m["state"].as_str(), m["winner"].as_str(), m["how"].as_str()),
        (Some("decided"), Some("Vic"), Some("classical"))
    );
    assert_eq!(m["score"], json!(["1.5", "0.5"]));
    // Sam v Vic is known but waits for the whole round: refused.
    let (status, code, _) =
        refused(&td, &id, json!({"action":"enter","round":2,"board":1,"result":"1-0"})).await;
    assert_eq!((status, code.as_str()), (StatusCode::CONFLICT, Some("round_not_finished")));
    // 3 v 6: level after the classical games, the rapid and the blitz.
    enter("1.3", "Uma", "5400+30", "0-1").await;
    enter("1.3", "Xu", "5400+30", "0-1").await;
    // A slip entered twice (game 2 again) is refused, not taken for game 3.
    let (status, code, _) =
        refused(&td, &id, json!({"action":"enter","round":1,"board":3,"game":2,"result":"0-1"}))
            .await;
    assert_eq!((status, code.as_str()), (StatusCode::CONFLICT, Some("has_result")));
    enter("1.3", "Uma", "600+10", "1/2-1/2").await;
    enter("1.3", "Xu", "600+10", "1/2-1/2").await;
    enter("1.3", "Uma", "180+2", "1-0").await;
    enter("1.3", "Xu", "180+2", "1-0").await;
    // Armageddon: the alternation gives Uma White (more time); a draw wins it for Xu.
    let v = enter("1.3", "Uma", "White 300+2, Black 240+2", "1/2-1/2").await;
    let m = match_of(&v, "1.3");
    assert_eq!((m["winner"].as_str(), m["how"].as_str()), (Some("Xu"), Some("armageddon")));
    let stages: Vec<&str> =
        m["games"].as_array().unwrap().iter().map(|g| g["stage"].as_str().unwrap()).collect();
    assert_eq!(
        stages,
        ["classical", "classical", "rapid", "rapid", "blitz", "blitz", "armageddon"]
    );
    assert_eq!(m["score"], json!(["3.5", "3.5"]), "an Armageddon draw counts half each");
    assert_eq!(match_of(&v, "2.2")["sides"][0]["name"], "Xu");
    // The semi-finals: the higher seed has White in game 1.
    enter("2.1", "Sam", "5400+30", "1-0").await;
    enter("2.1", "Vic", "5400+30", "1/2-1/2").await;
    enter("2.2", "Tia", "5400+30", "1-0").await;
    let v = enter("2.2", "Xu", "5400+30", "0-1").await;
    assert_eq!(match_of(&v, "2.2")["winner"], "Tia");
    // The final, decided in the rapid stage.
    enter("3.1", "Sam", "5400+30", "1/2-1/2").await;
    enter("3.1", "Tia", "5400+30", "1/2-1/2").await;
    enter("3.1", "Sam", "600+10", "1-0").await;
    let v = enter("3.1", "Tia", "600+10", "1/2-1/2").await;
    assert_eq!(
        (match_of(&v, "3.1")["how"].as_str(), v["bracket"]["champion"].as_str()),
        (Some("tiebreak"), Some("Sam"))
    );
    let v = until(&td, &id, "finished", |v| v["status"] == "finished").await;
    // The log names the entries it replays.
    let kinds: Vec<&str> =
        v["log"].as_array().unwrap().iter().map(|e| e["action"].as_str().unwrap()).collect();
    assert_eq!(kinds.iter().filter(|k| **k == "knockout_result").count(), 17, "{kinds:?}");
    assert!(kinds.contains(&"knockout_seeded") && kinds.last() == Some(&"end"), "{kinds:?}");
    server.stop().await;

    // After a restart the log replays to the same bracket.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let td2 = Client::new(&server).await;
    let (_, after) = td2.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["bracket"], v["bracket"]);
    assert_eq!(after["status"], "finished");
    server.stop().await;
}

/// Issue 54: a knockout's settings are checked field by field, and the actions of rounds are
/// refused in it.
#[tokio::test]
async fn knockout_settings_and_actions_are_refused_naming_the_field() {
    let server = TestServer::start().await;
    let Setup { td, id, .. } = setup(
        &server,
        &[],
        json!({"name":"Cup","format":"knockout","time_control":"600+5","over_the_board":true}),
    )
    .await;
    let base =
        json!({"name":"Cup","format":"knockout","time_control":"600+5","over_the_board":true});
    let with = |extra: Value| {
        let mut b = base.clone();
        b.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        b
    };
    let cases = [
        (with(json!({"match":0})), "match"),
        (with(json!({"match":101})), "match"),
        (
            with(json!({"tiebreak_stages":[{"name":"rapid","games":0,"time_control":"600+10"}]})),
            "tiebreak_stages",
        ),
        (
            with(json!({"tiebreak_stages":[{"name":"rapid","games":2,"time_control":"soon"}]})),
            "tiebreak_stages",
        ),
        (with(json!({"tiebreak_stages":[{"games":2,"time_control":"600+10"}]})), "tiebreak_stages"),
        (with(json!({"armageddon":{"white":"240+2","black":"300+2"}})), "armageddon"),
        (with(json!({"armageddon":{"white":"300+2"}})), "armageddon"),
        // Online: one clock for both players, so no Armageddon (its unequal times).
        (
            with(json!({"over_the_board":false,"armageddon":{"white":"300+2","black":"240+2"}})),
            "armageddon",
        ),
        (with(json!({"rated":true})), "rated"),
        (with(json!({"tiebreaks":["BH"]})), "tiebreaks"),
        (json!({"name":"S","format":"swiss","rounds":3,"time_control":"600+5","match":2}), "match"),
    ];
    for (body, field) in cases {
        let (status, e) = td.post("/api/v1/tournaments", body.clone()).await;
        assert_eq!(
            (status, e["error"]["field"].as_str()),
            (StatusCode::BAD_REQUEST, Some(field)),
            "{body} -> {e}"
        );
    }
    // The default match: two classical games, no tie-breaks, shown with the settings.
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(
        v["settings"]["knockout"],
        json!({"match":2,"tiebreak_stages":[],"armageddon":null})
    );
    for name in ["Ann", "Bob", "Cat"] {
        arbiter(&td, &id, json!({"action":"guest","name":name})).await;
    }
    arbiter(&td, &id, json!({"action":"check_in","players":["Ann","Bob","Cat"],"present":true}))
        .await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    for body in [
        json!({"action":"pair"}),
        json!({"action":"publish","round":1}),
        json!({"action":"result","round":1,"board":2,"result":"1-0","reason":"r"}),
        json!({"action":"withdraw","player":"Bob","reason":"ill"}),
    ] {
        let (status, code, _) = refused(&td, &id, body.clone()).await;
        assert_eq!((status, code.as_str()), (StatusCode::CONFLICT, Some("wrong_format")), "{body}");
    }
    // Ann, Bob and Cat have no rating: seeds by entry order, Ann a bye.
    let bad = [
        (
            json!({"action":"enter","round":1,"board":1,"result":"1-0"}),
            StatusCode::CONFLICT,
            "no_board",
        ),
        (
            json!({"action":"enter","round":1,"board":3,"result":"1-0"}),
            StatusCode::CONFLICT,
            "no_board",
        ),
        (
            json!({"action":"enter","round":1,"board":2,"game":2,"result":"1-0"}),
            StatusCode::CONFLICT,
            "not_next",
        ),
        (
            json!({"action":"enter","round":1,"board":2,"result":"--"}),
            StatusCode::BAD_REQUEST,
            "bad_field",
        ),
        (
            json!({"action":"lots","round":1,"board":2,"winner":"Bob","reason":"lots"}),
            StatusCode::CONFLICT,
            "not_level",
        ),
    ];
    for (body, status, code) in bad {
        let (s, c, _) = refused(&td, &id, body.clone()).await;
        assert_eq!((s, c.as_str()), (status, Some(code)), "{body}");
    }
    // Level after two games with no tie-break: the arbiter decides, and the final is on.
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1-0"})).await;
    let v = arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1-0"})).await;
    assert_eq!(match_of(&v, "1.2")["state"], "level");
    let (s, c, _) =
        refused(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1-0"})).await;
    assert_eq!((s, c.as_str()), (StatusCode::CONFLICT, Some("match_level")));
    let (s, _, field) = refused(
        &td,
        &id,
        json!({"action":"lots","round":1,"board":2,"winner":"Ann","reason":"lots"}),
    )
    .await;
    assert_eq!((s, field.as_str()), (StatusCode::BAD_REQUEST, Some("winner")));
    let v = arbiter(
        &td,
        &id,
        json!({"action":"lots","round":1,"board":2,"winner":"Cat","reason":"drawing of lots"}),
    )
    .await;
    assert_eq!(
        (match_of(&v, "1.2")["winner"].as_str(), match_of(&v, "1.2")["how"].as_str()),
        (Some("Cat"), Some("lots"))
    );
    assert_eq!(match_of(&v, "2.1")["next"]["white"], "Ann");
    let last = v["log"].as_array().unwrap().last().unwrap();
    assert_eq!(
        (last["action"].as_str(), last["detail"]["name"].as_str(), last["reason"].as_str()),
        (Some("knockout_lots"), Some("Cat"), Some("drawing of lots"))
    );
    // A Swiss has no matches to decide.
    let (status, swiss) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"S","format":"swiss","rounds":3,"time_control":"600+5"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED);
    let (s, c, _) = refused(
        &td,
        swiss["id"].as_str().unwrap(),
        json!({"action":"lots","round":1,"board":1,"winner":"x","reason":"r"}),
    )
    .await;
    assert_eq!((s, c.as_str()), (StatusCode::CONFLICT, Some("wrong_format")));
    server.stop().await;
}

/// Issue 54: a knockout of four played on the site. Each match game is a live game created at
/// its stage's time control, colours alternating; the players play it (White moves, the loser
/// resigns) and the match advances as the game ends; a level match goes to the rapid stage;
/// after a restart the final's game is there and the bracket the same.
#[tokio::test]
async fn an_online_knockout_creates_each_match_game_at_its_stages_clock() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ann", "bob", "cat", "dan"];
    let Setup { players, td, id } = setup(
        &server,
        &names,
        json!({"name":"Web Cup","format":"knockout","time_control":"900+10","match":2,
            "tiebreak_stages":[{"name":"rapid","games":2,"time_control":"600+5"}]}),
    )
    .await;
    let v = arbiter(&td, &id, json!({"action":"start"})).await;
    assert!(v.get("over_the_board").is_none(), "played on the site");
    // Plays the next game of match `m`: checks its clock and colours, White moves, then the
    // loser resigns. Returns the view once the result is in.
    let play = |m: &'static str, white: &'static str, tc: &'static str, white_wins: bool| {
        let (td, id, players) = (&td, &id, &players);
        async move {
            let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
            let next = match_of(&v, m)["next"].clone();
            assert_eq!(
                (next["white"].as_str(), next["time_control"].as_str()),
                (Some(white), Some(tc)),
                "{m}: {next}"
            );
            let (round, number) = m.split_once('.').unwrap();
            let game = format!("{id}k{round}m{number}g{}", next["game"]);
            assert_eq!(next["id"], game.as_str(), "the view names the game of the site");
            let g = game_made(td, &game).await;
            assert_eq!(
                (g["time_control"].as_str(), g["white"]["name"].as_str()),
                (Some(tc), Some(white)),
                "{g}"
            );
            let seat = |name: &str| &players[names.iter().position(|n| *n == name).unwrap()];
            let black = next["black"].as_str().unwrap();
            let (mut ws, hello) = seat(white).game_socket(&game).await;
            assert_eq!(hello["game"]["tournament"]["round"], json!(round.parse::<u32>().unwrap()));
            ws.play("e2e4", 0).await;
            let loser = if white_wins { black } else { white };
            let (mut ls, _) = seat(loser).game_socket(&game).await;
            ls.send(json!({"t":"resign"})).await;
            ls.next_of("end").await;
            let played = next["game"].as_u64().unwrap() as usize;
            until(td, id, "result in", |v| {
                match_of(v, m)["games"].as_array().unwrap().len() == played
            })
            .await
        }
    };
    // Round 1: 1 v 4 and 2 v 3 (seeds by entry order: every account has the same rating).
    let v = until(&td, &id, "bracket", |v| v["bracket"].is_object()).await;
    let find = |v: &Value, name: &str| -> &'static str {
        let m = ["1.1", "1.2"].into_iter().find(|m| {
            match_of(v, m)["sides"].as_array().unwrap().iter().any(|s| s["name"] == name)
        });
        m.unwrap()
    };
    let (a, b) = (find(&v, "ann"), find(&v, "bob"));
    play(a, "ann", "900+10", true).await;
    let v = play(a, "dan", "900+10", false).await;
    assert_eq!(
        (match_of(&v, a)["winner"].as_str(), match_of(&v, a)["how"].as_str()),
        (Some("ann"), Some("classical"))
    );
    play(b, "bob", "900+10", true).await;
    play(b, "cat", "900+10", true).await;
    // Level: the rapid games, at the rapid clock.
    play(b, "bob", "600+5", true).await;
    let v = play(b, "cat", "600+5", false).await;
    assert_eq!(
        (match_of(&v, b)["winner"].as_str(), match_of(&v, b)["how"].as_str()),
        (Some("bob"), Some("tiebreak"))
    );
    // The final's first game is created; the server restarts before it is played.
    let first = format!("{id}k2m1g1");
    game_made(&td, &first).await;
    let (_, before) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    server.stop().await;
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let mut players = Vec::new();
    for name in names {
        let c = Client::new(&server).await;
        let (status, v) = c
            .post(
                "/api/v1/account/login",
                json!({"username":name,"password":"correct horse battery"}),
            )
            .await;
        assert_eq!(status, StatusCode::OK, "{v}");
        players.push(c);
    }
    let td = Client::new(&server).await;
    let (_, after) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(after["bracket"], before["bracket"]);
    let (status, g) = td.get(&format!("/api/v1/games/{first}")).await;
    assert_eq!((status, g["status"].as_str()), (StatusCode::OK, Some("live")), "{g}");
    // Played on: the final, ann White in game 1.
    let (mut ws, _) = players[0].game_socket(&first).await;
    ws.play("e2e4", 0).await;
    let (mut bs, _) = players[1].game_socket(&first).await;
    bs.send(json!({"t":"resign"})).await;
    bs.next_of("end").await;
    // Game 2 is decided by the arbiter (bob, White, left the hall): the live game ends with
    // the decision, and the match with it.
    let second = format!("{id}k2m1g2");
    game_made(&td, &second).await;
    let (mut ws, _) = players[1].game_socket(&second).await;
    ws.play("e2e4", 0).await;
    let login = json!({"username":"arbiter","password":"correct horse battery"});
    assert_eq!(td.post("/api/v1/account/login", login).await.0, StatusCode::OK);
    let v = arbiter(&td, &id, json!({"action":"result","round":2,"board":1,"result":"0-1","reason":"White left the hall"})).await;
    assert_eq!(v["bracket"]["champion"], "ann");
    assert_eq!(v["status"], "finished");
    let (_, g) = td.get(&format!("/api/v1/games/{second}")).await;
    assert_eq!(
        (g["result"].as_str(), g["termination"].as_str()),
        (Some("0-1"), Some("arbiter_decision")),
        "{g}"
    );
    server.stop().await;
}
