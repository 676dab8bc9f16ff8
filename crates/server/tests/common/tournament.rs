//! A tournament's cast for the tests that run one: its players signed up and joined, its
//! arbiter, and the arbiter's actions.

use reqwest::StatusCode;
use serde_json::{json, Value};

use super::{Client, TestServer};

pub async fn players(server: &TestServer, names: &[&str]) -> Vec<Client> {
    let mut out = Vec::new();
    for name in names {
        let c = Client::new(server).await;
        c.signup(name).await;
        out.push(c);
    }
    out
}

/// A tournament's cast: its players (signed up, joined), its arbiter (`arbiter`), its id.
pub struct Setup {
    pub players: Vec<Client>,
    pub td: Client,
    pub id: String,
}

/// The arbiter (one per server: signed up for its first tournament, signed in for the next),
/// who creates the tournament `create`; and its id.
pub async fn create(server: &TestServer, create: Value) -> (Client, String) {
    let td = Client::new(server).await;
    let account = json!({"username":"arbiter","password":"correct horse battery"});
    if td.post("/api/v1/account/signup", account.clone()).await.0 != StatusCode::CREATED {
        let (status, v) = td.post("/api/v1/account/login", account).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    let (status, t) = td.post("/api/v1/tournaments", create).await;
    assert_eq!(status, StatusCode::CREATED, "{t}");
    let id = t["id"].as_str().unwrap().to_owned();
    (td, id)
}

/// The arbiter signed in again (after a restart: a new client).
pub async fn arbiter_again(server: &TestServer) -> Client {
    let td = Client::new(server).await;
    let account = json!({"username":"arbiter","password":"correct horse battery"});
    let (status, v) = td.post("/api/v1/account/login", account).await;
    assert_eq!(status, StatusCode::OK, "{v}");
    td
}

/// Signs up `names` and the arbiter, who creates the tournament `create`; the players join.
pub async fn setup(server: &TestServer, names: &[&str], create_body: Value) -> Setup {
    let players = players(server, names).await;
    let (td, id) = create(server, create_body).await;
    for c in &players {
        let (status, v) = c.post(&format!("/api/v1/tournaments/{id}/join"), json!({})).await;
        assert_eq!(status, StatusCode::OK, "{v}");
    }
    Setup { players, td, id }
}

pub async fn arbiter(c: &Client, id: &str, body: Value) -> Value {
    let (status, v) = c.post(&format!("/api/v1/tournaments/{id}/arbiter"), body.clone()).await;
    assert_eq!(status, StatusCode::OK, "{body} -> {v}");
    v
}
