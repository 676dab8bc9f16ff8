//! Tournaments across real crashes (issue 40): `rookery serve` as a process on a real SQLite
//! file, stopped hard (a) between storing a round's pairing and creating its games, by the
//! `ROOKERY_CRASH_AFTER=tournament-paired` test hook (docs/api.md, *Operations*), and (b) by
//! SIGKILL during a round with games in play; started again on the same database each time,
//! it has lost nothing, paired nothing twice and created every game once.

#[path = "../../server/tests/common/mod.rs"]
mod common;
mod serving;

use std::net::SocketAddr;
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::Child;
use std::time::Duration;

use common::Client;
use reqwest::StatusCode;
use serde_json::{json, Value};
use serving::{free_addr, serve_command, start};

/// Starts `rookery serve` (with the crash hook `crash` if given) and waits until it listens.
fn serve(addr: SocketAddr, data_dir: &Path, crash: Option<&str>) -> Child {
    let mut command = serve_command(addr);
    command.arg("--data-dir").arg(data_dir).env_remove("ROOKERY_CRASH_AFTER");
    if let Some(point) = crash {
        command.env("ROOKERY_CRASH_AFTER", point);
    }
    start(command, Duration::from_secs(30), false)
}

async fn client(addr: SocketAddr, name: &str) -> Client {
    let c = Client::new(&common::TestServer::remote(addr)).await;
    c.signup(name).await;
    c
}

async fn arbiter(c: &Client, id: &str, body: Value) -> Value {
    let (status, v) = c.post(&format!("/api/v1/tournaments/{id}/arbiter"), body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body} -> {v}");
    v
}

/// The tournament's games as stored: (id, moves), in round and board order.
async fn stored_games(dir: &Path, id: &str) -> Vec<(String, i64)> {
    let url = format!("sqlite://{}", dir.join("rookery.sqlite3").display());
    let store = rookery_store::Store::open(&url).await.unwrap();
    let games = store.tournament_games(id).await.unwrap();
    store.close().await;
    games.into_iter().map(|g| (g.id, g.moves)).collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_between_pairing_and_games_and_during_a_round_loses_nothing() {
    let dir = tempfile::tempdir().unwrap();
    let addr = free_addr();
    let mut server = serve(addr, dir.path(), Some("tournament-paired"));
    let names = ["ann", "bob", "cat", "dan"];
    let mut players = Vec::new();
    for n in names {
        players.push(client(addr, n).await);
    }
    let td = client(addr, "arbiter").await;
    let (status, t) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"Crash Swiss","format":"swiss","rounds":3,"time_control":"600+0"}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().unwrap().to_owned();
    for p in &players {
        let (status, v) = p.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let preview = arbiter(&td, &id, json!({"action":"start"})).await;
    assert_eq!(preview["rounds_list"][0]["state"], "paired");

    // (a) Publishing stores the publication, then the hook aborts the process before any
    // game exists.
    let answer = td
        .http
        .post(format!("{}/api/v1/tournaments/{id}/arbiter", td.base))
        .header("x-csrf-token", &td.csrf)
        .json(&json!({"action":"publish","round":1}))
        .send()
        .await;
    assert!(answer.is_err(), "the server died answering: {answer:?}");
    let status = server.wait().unwrap();
    assert_eq!(status.signal(), Some(6), "aborted by the hook: {status:?}");
    assert_eq!(stored_games(dir.path(), &id).await, [], "no game was created before the crash");

    let mut server = serve(addr, dir.path(), None);
    let (_, after) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    let (before_log, after_log) =
        (preview["log"].as_array().unwrap(), after["log"].as_array().unwrap());
    assert_eq!(after_log.len(), before_log.len() + 1, "{after_log:?}");
    assert_eq!(after_log[..before_log.len()], before_log[..], "the log survives");
    assert_eq!(after_log[before_log.len()]["action"], "publish");
    assert_eq!(
        after_log.iter().filter(|e| e["action"] == "paired").count(),
        1,
        "round 1 paired once"
    );
    let round = &after["rounds_list"][0];
    assert_eq!(round["state"], "published");
    assert_eq!(round["boards"].as_array().unwrap().len(), 2);
    for (i, (b, p)) in round["boards"]
        .as_array()
        .unwrap()
        .iter()
        .zip(preview["rounds_list"][0]["boards"].as_array().unwrap())
        .enumerate()
    {
        assert_eq!((&b["white"], &b["black"]), (&p["white"], &p["black"]), "board {}", i + 1);
    }
    // The restart created both games.
    let game = |board: u64| format!("{id}r1b{board}");
    for board in [1, 2] {
        let (status, g) = td.get(&format!("/api/v1/games/{}", game(board))).await;
        assert_eq!(status, StatusCode::OK, "{g}");
        assert_eq!(
            (g["status"].as_str(), g["tournament"]["board"].as_u64()),
            (Some("live"), Some(board))
        );
    }

    // (b) Moves on both boards, then SIGKILL in the middle of the round.
    let seat = |board: usize, colour: &str| {
        let name = round["boards"][board - 1][colour].as_str().unwrap().to_owned();
        names.iter().position(|n| *n == name).unwrap()
    };
    let (mut w1, _) = players[seat(1, "white")].game_socket(&game(1)).await;
    let (mut b1, _) = players[seat(1, "black")].game_socket(&game(1)).await;
    w1.play("e2e4", 0).await;
    b1.play("e7e5", 1).await;
    let (mut w2, _) = players[seat(2, "white")].game_socket(&game(2)).await;
    w2.play("d2d4", 0).await;
    let (_, mid) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    drop((w1, b1, w2));
    server.kill().unwrap();
    assert_eq!(server.wait().unwrap().signal(), Some(9));

    let mut server = serve(addr, dir.path(), None);
    let (_, again) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(again["log"], mid["log"], "the log survives the kill");
    assert_eq!(again["rounds_list"], mid["rounds_list"], "nothing paired twice");
    assert_eq!(
        stored_games(dir.path(), &id).await,
        [(game(1), 2), (game(2), 1)],
        "each game once, with its moves"
    );

    // The round goes on to its end, and the next is paired as if nothing had happened.
    let (mut b1, _) = players[seat(1, "black")].game_socket(&game(1)).await;
    b1.send(json!({"t":"resign"})).await;
    b1.next_of("end").await;
    let (mut b2, hello) = players[seat(2, "black")].game_socket(&game(2)).await;
    assert_eq!(hello["game"]["moves"].as_array().unwrap().len(), 1);
    b2.send(json!({"t":"resign"})).await;
    b2.next_of("end").await;
    let mut finished = false;
    for _ in 0..500 {
        let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
        if v["rounds_list"][0]["state"] == "finished" {
            finished = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(finished, "round 1 finished");
    arbiter(&td, &id, json!({"action":"pair"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":2})).await;
    assert_eq!(v["rounds_list"].as_array().unwrap().len(), 2);
    server.kill().unwrap();
    server.wait().unwrap();
    let games = stored_games(dir.path(), &id).await;
    assert_eq!(
        games.iter().map(|g| g.0.clone()).collect::<Vec<_>>(),
        [game(1), game(2), format!("{id}r2b1"), format!("{id}r2b2")],
        "four games, each once"
    );
}

/// Issue 53: two desks of one over-the-board event typing a round's results at once — some
/// boards by both — and the server killed (SIGKILL) in the middle. Every result a desk saw
/// acknowledged is there after the restart, once, with its board's game record; a board both
/// desks typed took one entry and refused the other; the round then closes as usual.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_desks_typing_results_at_once_and_a_kill_9_lose_no_acknowledged_entry() {
    use std::sync::atomic::{AtomicUsize, Ordering};

    let dir = tempfile::tempdir().unwrap();
    let addr = free_addr();
    let mut server = serve(addr, dir.path(), None);
    let desk_a = client(addr, "arbiter").await;
    let (status, t) = desk_a
        .post(
            "/api/v1/tournaments",
            json!({"name":"Two desks","format":"swiss","rounds":2,"time_control":"5400+30",
                   "over_the_board":true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().unwrap().to_owned();
    let list: String = (1..=40).map(|i| format!("Player {i:02},{}\n", 2400 - 10 * i)).collect();
    let (status, v) = desk_a
        .post(
            &format!("/api/v1/tournaments/{id}/roster"),
            json!({"text": format!("name,rating\n{list}")}),
        )
        .await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let names: Vec<String> = (1..=40).map(|i| format!("Player {i:02}")).collect();
    arbiter(&desk_a, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&desk_a, &id, json!({"action":"start"})).await;
    arbiter(&desk_a, &id, json!({"action":"publish","round":1})).await;
    // The second desk: the same arbiter signed in on another machine.
    let desk_b = Client::new(&common::TestServer::remote(addr)).await;
    let login = json!({"username":"arbiter","password":"correct horse battery"});
    assert_eq!(desk_b.post("/api/v1/account/login", login).await.0, StatusCode::OK);

    // Desk A types boards 1-12, desk B 9-20 (9-12 by both), every one 1-0; the server is
    // killed once twelve entries are acknowledged.
    let acknowledged = AtomicUsize::new(0);
    async fn type_boards(
        desk: &Client,
        id: &str,
        boards: std::ops::RangeInclusive<u32>,
        acknowledged: &AtomicUsize,
    ) -> Vec<(u32, Option<StatusCode>)> {
        let mut seen = Vec::new();
        for board in boards {
            let body = json!({"action":"enter","round":1,"board":board,"result":"1-0"});
            let answer = desk
                .http
                .post(format!("{}/api/v1/tournaments/{id}/arbiter", desk.base))
                .header("x-csrf-token", &desk.csrf)
                .json(&body)
                .send()
                .await;
            // No answer: in flight when the server died.
            let status = answer.ok().map(|r| r.status());
            if status == Some(StatusCode::OK) {
                acknowledged.fetch_add(1, Ordering::SeqCst);
            }
            seen.push((board, status));
            if status.is_none() {
                break;
            }
        }
        seen
    }
    let killer = async {
        while acknowledged.load(Ordering::SeqCst) < 12 {
            tokio::time::sleep(Duration::from_millis(2)).await;
        }
        server.kill().unwrap();
        assert_eq!(server.wait().unwrap().signal(), Some(9));
    };
    let (a, b, ()) = tokio::join!(
        type_boards(&desk_a, &id, 1..=12, &acknowledged),
        type_boards(&desk_b, &id, 9..=20, &acknowledged),
        killer
    );
    let acked: Vec<u32> =
        a.iter().chain(&b).filter(|(_, s)| *s == Some(StatusCode::OK)).map(|(n, _)| *n).collect();
    assert!(acked.len() >= 12, "{a:?} {b:?}");
    // A board typed by both: never acknowledged twice.
    for board in 9..=12 {
        assert!(acked.iter().filter(|&&n| n == board).count() <= 1, "board {board}: {a:?} {b:?}");
    }
    let refused = a.iter().chain(&b).filter(|(_, s)| *s == Some(StatusCode::CONFLICT)).count();
    let overlap_typed_twice = (9..=12)
        .filter(|n| {
            a.iter().any(|(m, s)| m == n && s.is_some())
                && b.iter().any(|(m, s)| m == n && s.is_some())
        })
        .count();
    assert_eq!(refused, overlap_typed_twice, "the second entry of a board is refused: {a:?} {b:?}");

    // After the restart: every acknowledged result there, once, with its game record.
    let mut server = serve(addr, dir.path(), None);
    let (_, v) = desk_a.get(&format!("/api/v1/tournaments/{id}")).await;
    let boards = v["rounds_list"][0]["boards"].as_array().unwrap().clone();
    for &board in &acked {
        assert_eq!(boards[board as usize - 1]["result"], "1-0", "board {board} lost: {v}");
    }
    let results: Vec<u64> = v["log"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["action"] == "result")
        .map(|e| e["detail"]["board"].as_u64().unwrap())
        .collect();
    let mut once = results.clone();
    once.sort_unstable();
    once.dedup();
    assert_eq!(once.len(), results.len(), "a board entered twice: {results:?}");
    let with_result: Vec<u64> = boards
        .iter()
        .filter(|b| !b["result"].is_null())
        .map(|b| b["board"].as_u64().unwrap())
        .collect();
    let games = stored_games(dir.path(), &id).await;
    for board in &with_result {
        let game = format!("{id}r1b{board}");
        assert!(
            games.iter().any(|(g, _)| *g == game),
            "board {board} has no game record: {games:?}"
        );
        let (_, g) = desk_a.get(&format!("/api/v1/games/{game}")).await;
        assert_eq!(
            (g["status"].as_str(), g["result"].as_str()),
            (Some("finished"), Some("1-0")),
            "{g}"
        );
    }
    // The rest typed after the restart: the round closes.
    for board in 1..=20u64 {
        if !with_result.contains(&board) {
            arbiter(
                &desk_b,
                &id,
                json!({"action":"enter","round":1,"board":board,"result":"1/2-1/2"}),
            )
            .await;
        }
    }
    let (_, v) = desk_a.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["rounds_list"][0]["state"], "finished", "{v}");
    server.kill().unwrap();
    server.wait().unwrap();
}

/// Issue 53: the process dies (the `board-game-created` hook) between storing a board's game
/// row and finishing it, right after the desk's result. The restart finishes that game with the
/// result — before the fix it stayed a live game with a running clock, which the kill -9 test
/// above found once in a few runs.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_crash_between_a_board_games_two_writes_is_finished_by_the_restart() {
    let dir = tempfile::tempdir().unwrap();
    let addr = free_addr();
    let mut server = serve(addr, dir.path(), Some("board-game-created"));
    let td = client(addr, "arbiter").await;
    let (status, t) = td
        .post(
            "/api/v1/tournaments",
            json!({"name":"Crash desk","format":"swiss","rounds":1,"time_control":"5400+30",
                   "over_the_board":true}),
        )
        .await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().unwrap().to_owned();
    let list = "name\nAnn\nBob\nCat\nDan\n";
    let (status, v) =
        td.post(&format!("/api/v1/tournaments/{id}/roster"), json!({"text": list})).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    let names = ["Ann", "Bob", "Cat", "Dan"];
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let answer = td
        .http
        .post(format!("{}/api/v1/tournaments/{id}/arbiter", td.base))
        .header("x-csrf-token", &td.csrf)
        .json(&json!({"action":"enter","round":1,"board":1,"result":"0-1"}))
        .send()
        .await;
    assert!(answer.is_err(), "the server died answering: {answer:?}");
    assert_eq!(server.wait().unwrap().signal(), Some(6), "aborted by the hook");
    let games = stored_games(dir.path(), &id).await;
    assert_eq!(games, [(format!("{id}r1b1"), 0)], "the row written, the game not finished");

    let mut server = serve(addr, dir.path(), None);
    let (_, v) = td.get(&format!("/api/v1/tournaments/{id}")).await;
    assert_eq!(v["rounds_list"][0]["boards"][0]["result"], "0-1", "{v}");
    let (_, g) = td.get(&format!("/api/v1/games/{id}r1b1")).await;
    assert_eq!(
        (g["status"].as_str(), g["result"].as_str(), g["termination"].as_str()),
        (Some("finished"), Some("0-1"), Some("over_the_board")),
        "{g}"
    );
    server.kill().unwrap();
    server.wait().unwrap();
}
