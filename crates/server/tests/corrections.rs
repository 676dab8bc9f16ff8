//! Issue 53: the desk's slips put right over the board. A board's record is the desk's entry,
//! not a game played on the site, so a result corrected (with its reason) or undone (the
//! desk's `undo`) corrects the record and the §11 points with it: the ladder ends as if the
//! right result had been typed at once (exactly so here, each game being its players' last).

mod common;

use common::tournament::{arbiter, setup, Setup};
use common::{Client, TestServer};
use reqwest::StatusCode;
use rookery_ladder::{award, PairResult, Points};
use serde_json::{json, Value};

/// A player's §11 points, wins, draws and losses, and their history's length.
async fn standing(c: &Client, name: &str) -> (Points, [i64; 3], usize) {
    let (_, v) = c.get(&format!("/api/v1/users/{name}")).await;
    let u = &v["user"];
    let points = u["points"].as_str().unwrap().parse().unwrap();
    let score = ["wins", "draws", "losses"].map(|k| u[k].as_i64().unwrap());
    (points, score, v["history"].as_array().unwrap().len())
}

/// The `Result` tags of a player's game records.
async fn recorded_results(c: &Client, name: &str) -> Vec<String> {
    let (_, pgn) = c.get_text(&format!("/api/v1/users/{name}/games.pgn")).await;
    pgn.lines()
        .filter_map(|l| l.strip_prefix("[Result \"").and_then(|r| r.strip_suffix("\"]")))
        .map(str::to_owned)
        .collect()
}

fn boards(v: &Value, round: usize) -> Vec<(String, String)> {
    v["rounds_list"][round - 1]["boards"]
        .as_array()
        .unwrap()
        .iter()
        .map(|b| (b["white"].as_str().unwrap().to_owned(), b["black"].as_str().unwrap().to_owned()))
        .collect()
}

#[tokio::test]
async fn a_corrected_or_undone_board_result_moves_the_ladder_as_the_right_result_would() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let names = ["ada", "ben", "cai", "dan"];
    let Setup { td, id, .. } = setup(
        &server,
        &names,
        json!({"name":"Hall slips","format":"swiss","rounds":2,"time_control":"5400+30","over_the_board":true,"rated":true}),
    )
    .await;
    let start = standing(&td, "ada").await.0;
    arbiter(&td, &id, json!({"action":"check_in","players":names,"present":true})).await;
    arbiter(&td, &id, json!({"action":"start"})).await;
    let v = arbiter(&td, &id, json!({"action":"publish","round":1})).await;
    let r1 = boards(&v, 1);
    let (w1, b1) = (&r1[0].0, &r1[0].1);
    let (w2, b2) = (&r1[1].0, &r1[1].1);
    let post = |body: Value| {
        let td = &td;
        let id = &id;
        async move {
            let (status, e) = td.post(&format!("/api/v1/tournaments/{id}/arbiter"), body).await;
            (status, e["error"]["code"].as_str().unwrap_or("").to_owned())
        }
    };

    // Board 1: `1-0` typed, Black had won; corrected with its reason.
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":1,"result":"1-0"})).await;
    assert_ne!(standing(&td, w1).await.0, start, "the slip moved the points");
    arbiter(
        &td,
        &id,
        json!({"action":"result","round":1,"board":1,"result":"0-1","reason":"Black won: a slip at the desk"}),
    )
    .await;
    let (dw, db) = award(start, start, PairResult::BWins);
    assert_eq!(standing(&td, w1).await, (start.checked_add(dw).unwrap(), [0, 0, 1], 1), "{w1}");
    assert_eq!(standing(&td, b1).await, (start.checked_add(db).unwrap(), [1, 0, 0], 1), "{b1}");
    assert_eq!(recorded_results(&td, w1).await, ["0-1"], "the record follows the correction");

    // Board 2: `=` typed for a White win: undone (naming what is taken back), then entered.
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1/2-1/2"})).await;
    let undo = |result: &str| json!({"action":"undo","round":1,"board":2,"result":result});
    assert_eq!(post(undo("1-0")).await, (StatusCode::CONFLICT, "other_result".to_owned()));
    let v = arbiter(&td, &id, undo("1/2-1/2")).await;
    assert_eq!(v["rounds_list"][0]["boards"][1]["result"], Value::Null);
    assert_eq!(v["rounds_list"][0]["state"], "published", "the round is open again");
    assert_eq!(standing(&td, w2).await, (start, [0, 0, 0], 0), "{w2}: as before the slip");
    assert!(recorded_results(&td, w2).await.is_empty(), "no record of an undone entry");
    let log = v["log"].as_array().unwrap();
    let last = log.last().unwrap();
    assert_eq!((&last["action"], &last["detail"]["result"]), (&json!("undo"), &json!("1/2-1/2")));
    assert_eq!(post(undo("1/2-1/2")).await, (StatusCode::CONFLICT, "no_result".to_owned()));
    arbiter(&td, &id, json!({"action":"enter","round":1,"board":2,"result":"1-0"})).await;
    let (dw, db) = award(start, start, PairResult::AWins);
    let right = [
        (w2.clone(), (start.checked_add(dw).unwrap(), [1, 0, 0], 1)),
        (b2.clone(), (start.checked_add(db).unwrap(), [0, 0, 1], 1)),
    ];
    for (name, want) in &right {
        assert_eq!(standing(&td, name).await, *want, "{name}");
    }

    // Once round 2 is paired from round 1, its results are corrected, never undone.
    arbiter(&td, &id, json!({"action":"pair"})).await;
    let undo1 = json!({"action":"undo","round":1,"board":2,"result":"1-0"});
    assert_eq!(post(undo1).await, (StatusCode::CONFLICT, "not_paired".to_owned()));
    server.stop().await;

    // After a restart: the same results, the same points.
    let server = TestServer::start_in(dir.path().to_path_buf()).await;
    let c = Client::new(&server).await;
    let (_, v) = c.get(&format!("/api/v1/tournaments/{id}")).await;
    let results: Vec<&Value> =
        v["rounds_list"][0]["boards"].as_array().unwrap().iter().map(|b| &b["result"]).collect();
    assert_eq!(results, [&json!("0-1"), &json!("1-0")]);
    for (name, want) in &right {
        assert_eq!(standing(&c, name).await, *want, "{name} after a restart");
    }
    server.stop().await;
}
