//! What survives closing the store, and the process being killed.

use std::io::{BufRead, BufReader};
use std::process::{Command, Stdio};

use rookery_store::{Action, Finish, GameStatus, Store};

use crate::harness::{done, each_backend, new_game, user};

#[tokio::test]
async fn a_reopened_store_sees_everything() {
    each_backend(|db| async move {
        let store = db.store.clone();
        let alice = store.create_user("Alice", "hash", 1).await.unwrap();
        let bob = store.create_user("bob", "hash", 2).await.unwrap();
        store.create_session("token", alice.id, 3, 1_000).await.unwrap();
        store.create_game(&new_game("done", user(&alice), user(&bob), 4)).await.unwrap();
        store.create_game(&new_game("live", user(&bob), user(&alice), 5)).await.unwrap();
        for seq in 0..3 {
            let action =
                Action { seq, at_ms: 10 + seq, kind: "move".into(), data: format!("{seq}") };
            done(store.writer(None).append_action("live", &action).await);
        }
        let finish = Finish {
            game_id: "done".into(),
            result: "1-0".parse().unwrap(),
            termination: "checkmate".into(),
            pgn: "1-0".into(),
            ended_at_ms: 6,
        };
        done(store.writer(None).finish_game(&finish).await).unwrap();
        let users = store.leaderboard(10, 0).await.unwrap();
        let done = store.game("done").await.unwrap();
        store.close().await;

        let store = db.reopen().await;
        assert_eq!(store.leaderboard(10, 0).await.unwrap(), users);
        assert_eq!(store.session_user("token", 10).await.unwrap().unwrap().id, alice.id);
        assert_eq!(store.user_by_name("alice").await.unwrap().unwrap().wins, 1);
        assert_eq!(store.game("done").await.unwrap(), done);
        let live = store.live_games().await.unwrap();
        assert_eq!(live.len(), 1);
        assert_eq!(live[0].id, "live");
        assert_eq!(live[0].status, GameStatus::Live);
        assert_eq!(live[0].actions.iter().map(|a| a.seq).collect::<Vec<_>>(), [0, 1, 2]);
        assert_eq!(store.rating_history(bob.id, 10).await.unwrap().len(), 1);
        store.close().await;
    })
    .await;
}

/// Set in the child process of [`sqlite_commits_survive_kill_9`] to the database URL.
const CHILD_VAR: &str = "ROOKERY_STORE_KILL_CHILD";

/// A child process appends actions and prints each seq once its append has returned;
/// the parent kills it with SIGKILL mid-stream, reopens the file, and finds every printed
/// action (`synchronous = NORMAL` under WAL: durable against the process dying).
#[test]
fn sqlite_commits_survive_kill_9() {
    let runtime = tokio::runtime::Runtime::new().unwrap();
    if let Ok(url) = std::env::var(CHILD_VAR) {
        runtime.block_on(append_forever(&url));
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}", dir.path().join("kill.db").display());
    runtime.block_on(async {
        let store = Store::open(&url).await.unwrap();
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        store.create_game(&new_game("g", user(&alice), user(&bob), 0)).await.unwrap();
        store.close().await;
    });

    let mut child = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "durability::sqlite_commits_survive_kill_9", "--nocapture"])
        .env(CHILD_VAR, &url)
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut last = None;
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        if let Some(seq) = line.unwrap().strip_prefix("appended ") {
            last = Some(seq.parse::<i64>().unwrap());
            if last == Some(200) {
                break;
            }
        }
    }
    child.kill().unwrap(); // SIGKILL
    child.wait().unwrap();
    let last = last.expect("the child appended actions");

    runtime.block_on(async {
        let store = Store::open(&url).await.unwrap();
        let game = store.game("g").await.unwrap().unwrap();
        let seqs: Vec<i64> = game.actions.iter().map(|a| a.seq).collect();
        assert!(
            seqs.len() as i64 > last,
            "lost acknowledged actions: have {}, acknowledged 0..={last}",
            seqs.len()
        );
        assert_eq!(seqs, (0..seqs.len() as i64).collect::<Vec<_>>());
        store.close().await;
    });
}

async fn append_forever(url: &str) {
    use std::io::Write;
    let store = Store::open(url).await.unwrap();
    let mut out = std::io::stdout();
    // Bounded, so that a child whose parent died stops by itself.
    for seq in 0..20_000 {
        let action = Action { seq, at_ms: seq, kind: "move".into(), data: "e2e4".into() };
        done(store.writer(None).append_action("g", &action).await);
        writeln!(out, "appended {seq}").unwrap();
        out.flush().unwrap();
    }
}
