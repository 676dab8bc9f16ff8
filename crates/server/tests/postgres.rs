//! The server over PostgreSQL (`--database postgres://…`): a rated game to mate, an orderly
//! restart in the middle of another, the ladder read back. Runs when `ROOKERY_TEST_POSTGRES`
//! names an admin URL (`.ci/run` starts a throwaway server); required under CI.

mod common;

#[allow(dead_code, unreachable_pub)]
#[path = "../../store/tests/store/harness.rs"]
mod harness;

use common::{Client, TestServer};
use serde_json::json;

#[tokio::test]
async fn the_server_runs_on_postgres() {
    let admin = match std::env::var(harness::POSTGRES_VAR) {
        Ok(url) if !url.is_empty() => url,
        _ if std::env::var_os("CI").is_some() => {
            panic!("{} must be set under CI", harness::POSTGRES_VAR)
        }
        _ => {
            eprintln!(
                "note: {} is not set; the server's PostgreSQL test is skipped",
                harness::POSTGRES_VAR
            );
            return;
        }
    };
    let db = harness::PostgresDb::create(&admin).await;
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_with(
        dir.path().to_path_buf(),
        "127.0.0.1:0".parse().unwrap(),
        Some(db.url.clone()),
    )
    .await;
    let addr = server.addr;
    let white = Client::new(&server).await;
    white.signup("pgwhite").await;
    let black = Client::new(&server).await;
    black.signup("pgblack").await;
    let rated =
        json!({ "time_control": "300+0", "rated": true, "rules": "seed", "color": "white" });
    let game = white.seek_accepted_by(&black, rated.clone()).await;
    let (mut w, _) = white.game_socket(&game).await;
    let (mut b, _) = black.game_socket(&game).await;
    for (ply, uci) in ["f2f3", "e7e5", "g2g4", "d8h4"].iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut w } else { &mut b };
        mover.play(uci, ply).await;
    }
    assert_eq!(w.next_of("end").await["termination"], "checkmate");

    let second = white.seek_accepted_by(&black, rated).await;
    let (mut w, _) = white.game_socket(&second).await;
    w.play("d2d4", 0).await;
    drop(w);
    drop(b);
    server.stop().await;
    let server = TestServer::start_with(dir.path().to_path_buf(), addr, Some(db.url.clone())).await;
    let (_, g) = white.get(&format!("/api/v1/games/{second}")).await;
    assert_eq!((g["status"].as_str(), g["ply"].as_u64()), (Some("live"), Some(1)));
    let (_, profile) = white.get("/api/v1/users/pgblack").await;
    assert_eq!(profile["user"]["wins"], 1);
    let (_, health) = white.get("/health").await;
    assert_eq!(health["database"], "postgres");
    server.stop().await;
    db.drop().await;
}
