//! Issue 51, a class behind one address: a school's or a club's players share one public
//! address. An organiser creates the class's accounts from a list, each player logs in once
//! with a printed code, and they all seek and play together under the default limits, which
//! still stop anonymous abuse; `--trusted-networks` lifts every limit per address for a
//! network the operator trusts. Against a real server on an ephemeral port; other client
//! addresses are other loopback addresses.

mod common;

use std::time::Duration;

use common::{closed_by_server, connect_from, Client, TestServer};
use reqwest::StatusCode;
use rookery_server::Limits;
use serde_json::{json, Value};
use tokio::io::AsyncWriteExt;

const PASSWORD: &str = "my own password";

/// Forty players, levels 30 down to 21 and unranked, as a teacher's spreadsheet saves them.
fn class_list() -> String {
    let mut csv = String::from("Name;Level\r\n");
    for i in 0..40 {
        let level = if i % 4 == 3 { String::new() } else { format!("{}", 30 - i % 10) };
        csv.push_str(&format!("pupil{i:02};{level}\r\n"));
    }
    csv
}

async fn first_login(c: &Client, name: &str, code: &str) -> (StatusCode, Value) {
    c.post(
        "/api/v1/account/first-login",
        json!({ "username": name, "code": code, "password": PASSWORD }),
    )
    .await
}

#[tokio::test]
async fn issue51_a_class_of_40_behind_one_address_gets_its_accounts_and_all_play() {
    let server = TestServer::start().await;
    let teacher = Client::new(&server).await;
    teacher.signup("teacher").await;

    // A guest may not create accounts.
    let guest = Client::new(&server).await;
    let (status, body) = guest.post("/api/v1/class/accounts", json!({ "csv": "ann,25" })).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("not_signed_in"))
    );

    // A bad line refuses the whole list, naming the line and the field; nothing is created.
    let bad = class_list().replace("pupil07;", "pupil07;level 31");
    let (status, body) = teacher.post("/api/v1/class/accounts", json!({ "csv": bad })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert_eq!(body["error"]["field"], "csv", "{body}");
    let message = body["error"]["message"].as_str().unwrap();
    assert!(
        message.starts_with("field csv: line 9, level: \"level 31\" is not a level"),
        "{message}"
    );
    let (_, listed) = teacher.get("/api/v1/class/accounts").await;
    assert_eq!(listed["accounts"], json!([]), "nothing half-created");

    let (status, made) =
        teacher.post("/api/v1/class/accounts", json!({ "csv": class_list() })).await;
    assert_eq!(status, StatusCode::CREATED, "{made}");
    let accounts = made["accounts"].as_array().unwrap();
    assert_eq!(accounts.len(), 40);
    assert_eq!(accounts[0]["name"], "pupil00");
    assert_eq!(accounts[0]["level"]["label"], "level-30");
    assert_eq!(accounts[0]["points"], "100.00");
    assert_eq!(accounts[3]["level"]["label"], "unranked");

    // A name taken since refuses the next list whole, naming its line.
    let (status, body) =
        teacher.post("/api/v1/class/accounts", json!({ "csv": "newcomer,30\nPUPIL05,30\n" })).await;
    assert_eq!(status, StatusCode::BAD_REQUEST, "{body}");
    assert!(
        body["error"]["message"]
            .as_str()
            .unwrap()
            .starts_with("field csv: line 2, name: \"PUPIL05\" is taken"),
        "{body}"
    );

    // Before the first log-in no password works; a wrong code is a failed log-in.
    let pupils: Vec<Client> = {
        let mut v = Vec::new();
        for _ in 0..40 {
            v.push(Client::new(&server).await);
        }
        v
    };
    let (status, _) = pupils[0]
        .post("/api/v1/account/login", json!({ "username": "pupil00", "password": PASSWORD }))
        .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let code_of = |i: usize| accounts[i]["code"].as_str().unwrap().to_owned();
    let (status, body) = first_login(&pupils[0], "pupil00", &code_of(1)).await;
    assert_eq!(
        (status, body["error"]["code"].as_str()),
        (StatusCode::UNAUTHORIZED, Some("bad_credentials"))
    );

    // Every pupil logs in with the code as printed (or typed in capitals, without the dash).
    for (i, pupil) in pupils.iter().enumerate() {
        let code = if i % 2 == 0 { code_of(i) } else { code_of(i).to_uppercase().replace('-', "") };
        let (status, body) = first_login(pupil, &format!("pupil{i:02}"), &code).await;
        assert_eq!(status, StatusCode::OK, "pupil{i:02}: {body}");
        assert_eq!(body["name"], format!("pupil{i:02}"));
    }
    let (status, _) = first_login(&pupils[2], "pupil02", &code_of(2)).await;
    assert_eq!(status, StatusCode::UNAUTHORIZED, "a code is spent once");
    let (_, listed) = teacher.get("/api/v1/class/accounts").await;
    assert!(
        listed["accounts"].as_array().unwrap().iter().all(|a| a["claimed"] == true),
        "{listed}"
    );

    // All forty, in the lobby, seek at once from the one address: more than the 20 open
    // seeks a guest's address may hold.
    let mut lobbies = Vec::new();
    for pupil in &pupils {
        let mut lobby = pupil.socket("/api/v1/lobby/socket").await;
        lobby.next_of("seeks").await;
        lobbies.push(lobby);
    }
    let mut seeks = Vec::new();
    for (i, pupil) in pupils.iter().enumerate() {
        let (status, seek) = pupil
            .post(
                "/api/v1/seeks",
                json!({ "time_control": "300+3", "rules": "seed", "rated": true }),
            )
            .await;
        assert_eq!(status, StatusCode::CREATED, "pupil{i:02}'s seek: {seek}");
        seeks.push(seek["id"].as_str().unwrap().to_owned());
    }
    // The second half accept the first half's seeks (and withdraw their own): 20 games.
    let mut games = Vec::new();
    for i in 20..40 {
        let r = pupils[i]
            .http
            .delete(format!("{}/api/v1/seeks/{}", pupils[i].base, seeks[i]))
            .header("x-csrf-token", &pupils[i].csrf)
            .send()
            .await
            .unwrap();
        assert_eq!(r.status(), StatusCode::NO_CONTENT);
        let (status, game) =
            pupils[i].post(&format!("/api/v1/seeks/{}/accept", seeks[i - 20]), json!(null)).await;
        assert_eq!(status, StatusCode::CREATED, "pupil{i:02} accepting: {game}");
        games.push((i - 20, i, game["game"].as_str().unwrap().to_owned()));
    }
    // And every game is played: both players move.
    for (a, b, game) in &games {
        let (mut ws_a, hello) = pupils[*a].game_socket(game).await;
        let (mut ws_b, _) = pupils[*b].game_socket(game).await;
        let white_is_a = hello["you"] == "white";
        let (white, black) =
            if white_is_a { (&mut ws_a, &mut ws_b) } else { (&mut ws_b, &mut ws_a) };
        let moved = white.play("e2e4", 0).await;
        assert_eq!(moved["t"], "move", "{game}: {moved}");
        let moved = black.play("e7e5", 1).await;
        assert_eq!(moved["t"], "move", "{game}: {moved}");
    }
    drop(lobbies);
    server.stop().await;
}

#[tokio::test]
async fn issue51_guests_stay_capped_per_address_and_a_teacher_per_day() {
    let mut limits = Limits::default();
    limits.seeks.owner_grace = Duration::from_secs(30);
    limits.accounts.class_accounts_per_day = 5;
    let server = TestServer::start_limited(limits).await;
    // Anonymous identities from one address: still 20 open seeks in all.
    let mut accepted = 0;
    for _ in 0..25 {
        let c = Client::new(&server).await;
        let (status, _) =
            c.post("/api/v1/seeks", json!({ "time_control": "300+0", "rules": "casual" })).await;
        if status == StatusCode::CREATED {
            accepted += 1;
        }
    }
    assert_eq!(accepted, 20);
    // A teacher's accounts are limited per day, with the count left in words.
    let teacher = Client::new(&server).await;
    teacher.signup("teacher").await;
    let (status, _) =
        teacher.post("/api/v1/class/accounts", json!({ "csv": "a1x\na2x\na3x" })).await;
    assert_eq!(status, StatusCode::CREATED);
    let (status, body) =
        teacher.post("/api/v1/class/accounts", json!({ "csv": "b1x\nb2x\nb3x" })).await;
    assert_eq!(status, StatusCode::TOO_MANY_REQUESTS, "{body}");
    assert_eq!(body["error"]["message"], "at most 5 class accounts a day; 2 more today");
    // A lost slip: the teacher prints a new code; the old one no longer works.
    let (status, renewed) = teacher.post("/api/v1/class/accounts/A2X/code", json!(null)).await;
    assert_eq!(status, StatusCode::OK, "{renewed}");
    let pupil = Client::new(&server).await;
    let (status, body) = first_login(&pupil, "a2x", renewed["code"].as_str().unwrap()).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let stranger = Client::new(&server).await;
    stranger.signup("stranger").await;
    let (status, _) = stranger.post("/api/v1/class/accounts/a2x/code", json!(null)).await;
    assert_eq!(status, StatusCode::NOT_FOUND, "only the class's organiser");
    server.stop().await;
}

#[tokio::test]
async fn issue51_a_trusted_network_has_no_limit_per_address() {
    let mut limits = Limits::default();
    limits.connections.max_per_address = 4;
    limits.connections.trusted_networks = Some("127.0.0.2/32".parse().unwrap());
    limits.accounts.signups_per_address = 3;
    limits.seeks.open_per_address = 2;
    let server = TestServer::start_limited(limits).await;

    // Sign-ups: the trusted address signs up ten, another is stopped after three.
    for i in 0..10 {
        Client::new_at(&server, "127.0.0.2").await.signup(&format!("school{i}")).await;
    }
    let mut refused = None;
    for i in 0..4 {
        let (status, body) = Client::new_at(&server, "127.0.0.3")
            .await
            .post(
                "/api/v1/account/signup",
                json!({ "username": format!("home{i}"), "password": PASSWORD }),
            )
            .await;
        if status != StatusCode::CREATED {
            refused = Some((i, status, body["error"]["code"].clone()));
            break;
        }
    }
    assert_eq!(refused, Some((3, StatusCode::TOO_MANY_REQUESTS, json!("rate_limited"))));

    // Guests' seeks: five from the trusted address, two from another.
    for _ in 0..5 {
        let (status, body) = Client::new_at(&server, "127.0.0.2")
            .await
            .post("/api/v1/seeks", json!({ "time_control": "300+0", "rules": "casual" }))
            .await;
        assert_eq!(status, StatusCode::CREATED, "{body}");
    }
    let mut statuses = Vec::new();
    for _ in 0..3 {
        let (status, _) = Client::new_at(&server, "127.0.0.3")
            .await
            .post("/api/v1/seeks", json!({ "time_control": "300+0", "rules": "casual" }))
            .await;
        statuses.push(status);
    }
    assert_eq!(statuses, [StatusCode::CREATED, StatusCode::CREATED, StatusCode::TOO_MANY_REQUESTS]);

    // Connections: eight held open from the trusted address, and a ninth is served.
    let from = Some("127.0.0.2".parse().unwrap());
    let mut held = Vec::new();
    for _ in 0..8 {
        held.push(connect_from(from, server.addr).await);
    }
    let mut ninth = connect_from(from, server.addr).await;
    ninth.write_all(b"GET /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n").await.unwrap();
    let answer = closed_by_server(&mut ninth).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    drop(held);
    server.stop().await;
}
