//! Several nodes on one database (issue 39): leases, claims, and writes fenced by epoch.

use std::time::Duration;

use rookery_store::{Action, Claim, Finish, GameStatus, PreviousOwner, Store, StoreError, Written};

use crate::harness::{anonymous, done, each_backend, new_game};

/// A lease long enough never to run out during a test.
const LONG: i64 = 600_000;

fn action(seq: i64) -> Action {
    Action { seq, at_ms: 1_000 + seq, kind: "move".to_owned(), data: format!("m{seq}") }
}

fn finish(game_id: &str) -> Finish {
    Finish {
        game_id: game_id.to_owned(),
        result: "1-0".parse().unwrap(),
        termination: "checkmate".to_owned(),
        pgn: "1-0".to_owned(),
        ended_at_ms: 9,
    }
}

async fn live_game(store: &Store, id: &str) {
    store.create_game(&new_game(id, anonymous("w"), anonymous("b"), 1)).await.unwrap();
}

/// A running tournament `id`, created by a new user.
async fn running_tournament(store: &Store, id: &str) {
    let alice = store.create_user("alice", "h", 0).await.unwrap();
    let row = rookery_store::TournamentRow {
        id: id.into(),
        name: "Club Swiss".into(),
        format: "swiss".into(),
        settings: "{}".into(),
        status: rookery_store::TournamentStatus::Running,
        created_by: alice.id,
        created_at_ms: 5,
        starts_at_ms: None,
    };
    store.create_tournament(&row).await.unwrap();
}

/// The tournament log entry `seq` (a round).
fn entry(seq: i64) -> rookery_store::LogEntry {
    rookery_store::LogEntry {
        seq,
        at_ms: 10 + seq,
        by: None,
        kind: "round".into(),
        data: "{}".into(),
        reason: None,
    }
}

fn epoch(claim: &Claim) -> i64 {
    match claim {
        Claim::Claimed { epoch, .. } => *epoch,
        Claim::Owned { owner } => panic!("expected a grant, the game is {owner}'s"),
    }
}

fn seqs(actions: &[Action]) -> Vec<i64> {
    actions.iter().map(|a| a.seq).collect()
}

#[tokio::test]
async fn a_heartbeat_renews_a_lease_and_says_when_it_had_lapsed() {
    each_backend(|db| async move {
        let store = db.store;
        let first = store.heartbeat("a", 200).await.unwrap();
        assert!(first.lapsed, "a new node had no lease");
        assert_eq!(first.lease_until_ms, first.now_ms + 200);
        let second = store.heartbeat("a", 200).await.unwrap();
        assert!(!second.lapsed, "renewed within its lease");
        assert!(second.now_ms >= first.now_ms);
        tokio::time::sleep(Duration::from_millis(300)).await;
        let late = store.heartbeat("a", 200).await.unwrap();
        assert!(late.lapsed, "300 ms after a 200 ms lease");
        assert!(late.now_ms >= second.now_ms + 300);
    })
    .await;
}

#[tokio::test]
async fn a_game_is_claimed_once_until_its_owners_lease_runs_out() {
    each_backend(|db| async move {
        let store = db.store;
        live_game(&store, "g").await;
        assert_eq!(store.game_owner("g").await.unwrap(), (None, 0), "a new game has no owner");
        store.heartbeat("a", 300).await.unwrap();
        store.heartbeat("b", LONG).await.unwrap();

        let a = store.claim_game("g", "a").await.unwrap();
        assert!(matches!(a, Claim::Claimed { epoch: 1, previous: None, .. }), "{a:?}");
        assert_eq!(store.game_owner("g").await.unwrap(), (Some("a".to_owned()), 1));
        assert_eq!(store.claim_game("g", "b").await.unwrap(), Claim::Owned { owner: "a".into() });
        // The owner claims again (after a lapse of its own, say): a new epoch, no takeover.
        let again = store.claim_game("g", "a").await.unwrap();
        assert!(matches!(again, Claim::Claimed { epoch: 2, previous: None, .. }), "{again:?}");

        let beat = store.heartbeat("a", 300).await.unwrap();
        tokio::time::sleep(Duration::from_millis(400)).await;
        let b = store.claim_game("g", "b").await.unwrap();
        let Claim::Claimed { epoch: 3, previous: Some(previous), now_ms } = b else {
            panic!("b takes the game over once a's lease has run out: {b:?}");
        };
        assert_eq!(
            previous,
            PreviousOwner { node: "a".into(), last_heartbeat_ms: Some(beat.now_ms) }
        );
        assert!(now_ms >= beat.now_ms + 400, "the outage is measurable from the last heartbeat");
        // a comes back: the game is b's now.
        store.heartbeat("a", LONG).await.unwrap();
        assert_eq!(store.claim_game("g", "a").await.unwrap(), Claim::Owned { owner: "b".into() });
    })
    .await;
}

#[tokio::test]
async fn a_stale_owner_writes_nothing() {
    each_backend(|db| async move {
        let store = db.store;
        live_game(&store, "g").await;
        store.heartbeat("a", 100).await.unwrap();
        store.heartbeat("b", LONG).await.unwrap();
        let old = epoch(&store.claim_game("g", "a").await.unwrap());
        let a = store.writer(Some(old));
        assert_eq!(a.epoch(), Some(old));
        done(a.append_action("g", &action(0)).await);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let new = epoch(&store.claim_game("g", "b").await.unwrap());
        assert_eq!(new, old + 1);

        // a, paused across the takeover, wakes up and writes its next move and the end.
        let stale = a.append_action("g", &action(1)).await;
        assert!(matches!(stale, Ok(Written::FencedOut)), "{stale:?}");
        let stale = a.finish_game(&finish("g")).await;
        assert!(matches!(stale, Ok(Written::FencedOut)), "{stale:?}");
        let game = store.game("g").await.unwrap().unwrap();
        assert_eq!((seqs(&game.actions), game.status), (vec![0], GameStatus::Live), "unwritten");

        let b = store.writer(Some(new));
        done(b.append_action("g", &action(1)).await);
        let game = store.game("g").await.unwrap().unwrap();
        assert_eq!(seqs(&game.actions), [0, 1]);
        assert_eq!(game.actions[1], action(1));
        done(b.finish_game(&finish("g")).await);
        let again = b.finish_game(&finish("g")).await;
        assert!(matches!(again, Err(StoreError::Conflict(_))), "finished once: {again:?}");
        let claim = store.claim_game("g", "a").await;
        assert!(matches!(claim, Err(StoreError::Conflict(_))), "a finished game: {claim:?}");
        let claim = store.claim_game("nowhere", "a").await;
        assert!(matches!(claim, Err(StoreError::NotFound(_))), "{claim:?}");
    })
    .await;
}

/// The group commit writes many games' actions in one statement: a stale one among them is
/// refused alone, and the others are written.
#[tokio::test]
async fn a_stale_write_in_a_batch_refuses_only_itself() {
    each_backend(|db| async move {
        let store = db.store;
        store.heartbeat("a", LONG).await.unwrap();
        let mut epochs = Vec::new();
        for i in 0..40 {
            let id = format!("g{i}");
            live_game(&store, &id).await;
            epochs.push(epoch(&store.claim_game(&id, "a").await.unwrap()));
        }
        // Game 7 is claimed again: its epoch moves on, a's write under the first is stale.
        let newer = epoch(&store.claim_game("g7", "a").await.unwrap());
        let writes = (0..40).map(|i| {
            let store = store.clone();
            let writer = store.writer(Some(epochs[i]));
            async move { writer.append_action(&format!("g{i}"), &action(0)).await }
        });
        let results = futures_join_all(writes).await;
        for (i, result) in results.iter().enumerate() {
            if i == 7 {
                assert!(matches!(result, Ok(Written::FencedOut)), "{result:?}");
            } else {
                assert!(matches!(result, Ok(Written::Done(()))), "game {i}: {result:?}");
            }
        }
        done(store.writer(Some(newer)).append_action("g7", &action(0)).await);
        for i in 0..40 {
            let game = store.game(&format!("g{i}")).await.unwrap().unwrap();
            assert_eq!(seqs(&game.actions), [0], "game {i}");
        }
    })
    .await;
}

#[tokio::test]
async fn of_nodes_claiming_at_once_one_wins() {
    each_backend(|db| async move {
        let store = db.store;
        live_game(&store, "g").await;
        let nodes: Vec<String> = (0..8).map(|i| format!("n{i}")).collect();
        for node in &nodes {
            store.heartbeat(node, LONG).await.unwrap();
        }
        let claims = nodes.iter().map(|node| {
            let store = store.clone();
            let node = node.clone();
            async move { (node.clone(), store.claim_game("g", &node).await.unwrap()) }
        });
        let claims = futures_join_all(claims).await;
        let winners: Vec<&String> = claims
            .iter()
            .filter(|(_, c)| matches!(c, Claim::Claimed { .. }))
            .map(|(node, _)| node)
            .collect();
        assert_eq!(winners.len(), 1, "{claims:?}");
        let (owner, epoch) = store.game_owner("g").await.unwrap();
        assert_eq!(owner.as_ref(), Some(winners[0]));
        assert_eq!(epoch, 1);
        for (node, claim) in &claims {
            if node != winners[0] {
                assert_eq!(claim, &Claim::Owned { owner: winners[0].clone() });
            }
        }
    })
    .await;
}

#[tokio::test]
async fn a_node_that_leaves_hands_its_games_over_at_once() {
    each_backend(|db| async move {
        let store = db.store;
        live_game(&store, "g").await;
        live_game(&store, "h").await;
        store.heartbeat("a", LONG).await.unwrap();
        store.heartbeat("b", LONG).await.unwrap();
        let g = epoch(&store.claim_game("g", "a").await.unwrap());
        epoch(&store.claim_game("h", "a").await.unwrap());
        assert!(store.release_game("g", "a", g).await.unwrap());
        assert!(!store.release_game("g", "a", g).await.unwrap(), "released once");
        assert_eq!(store.game_owner("g").await.unwrap(), (None, g));
        assert_eq!(store.leave_cluster("a").await.unwrap(), 1, "h was a's");
        for id in ["g", "h"] {
            let claim = store.claim_game(id, "b").await.unwrap();
            assert!(matches!(claim, Claim::Claimed { previous: None, .. }), "{claim:?}");
        }
        assert!(store.heartbeat("a", LONG).await.unwrap().lapsed, "a left: it is new again");
    })
    .await;
}

/// Runs the futures concurrently on the test's runtime and returns their outputs in order.
async fn futures_join_all<F>(futures: impl IntoIterator<Item = F>) -> Vec<F::Output>
where
    F: std::future::Future + Send + 'static,
    F::Output: Send + 'static,
{
    let handles: Vec<_> = futures.into_iter().map(tokio::spawn).collect();
    let mut out = Vec::with_capacity(handles.len());
    for handle in handles {
        out.push(handle.await.expect("a task of the test"));
    }
    out
}

#[tokio::test]
async fn a_tournament_is_run_by_one_node_until_its_lease_runs_out() {
    each_backend(|db| async move {
        let store = db.store;
        running_tournament(&store, "t1").await;
        store.heartbeat("a", 300).await.unwrap();
        store.heartbeat("b", LONG).await.unwrap();
        assert!(matches!(
            store.claim_tournament("t1", "a").await.unwrap(),
            Claim::Claimed { epoch: 1, .. }
        ));
        let owned = store.claim_tournament("t1", "b").await.unwrap();
        assert_eq!(owned, Claim::Owned { owner: "a".into() });
        // Games and tournaments are claimed apart: no game of that id.
        assert!(matches!(store.claim_game("t1", "b").await, Err(StoreError::NotFound(_))));

        tokio::time::sleep(Duration::from_millis(400)).await;
        let b = store.claim_tournament("t1", "b").await.unwrap();
        assert!(matches!(b, Claim::Claimed { epoch: 2, previous: Some(_), .. }), "{b:?}");
        // A node that leaves hands its tournaments over at once.
        store.leave_cluster("b").await.unwrap();
        store.heartbeat("a", LONG).await.unwrap();
        assert!(matches!(
            store.claim_tournament("t1", "a").await.unwrap(),
            Claim::Claimed { epoch: 3, previous: None, .. }
        ));
        // A cancelled tournament is run by no one.
        store
            .set_tournament_status("t1", rookery_store::TournamentStatus::Cancelled)
            .await
            .unwrap();
        assert!(matches!(store.claim_tournament("t1", "a").await, Err(StoreError::Conflict(_))));
        assert!(matches!(store.claim_tournament("t2", "a").await, Err(StoreError::NotFound(_))));
    })
    .await;
}

#[tokio::test]
async fn a_stale_tournament_owner_writes_nothing_to_its_log() {
    each_backend(|db| async move {
        let store = db.store;
        running_tournament(&store, "t1").await;
        store.heartbeat("a", 100).await.unwrap();
        store.heartbeat("b", LONG).await.unwrap();
        let a = store.writer(Some(epoch(&store.claim_tournament("t1", "a").await.unwrap())));
        done(a.append_tournament_log("t1", &entry(0)).await);
        tokio::time::sleep(Duration::from_millis(200)).await;
        let b = store.writer(Some(epoch(&store.claim_tournament("t1", "b").await.unwrap())));
        // a, woken after its lease ran out, would pair a round b has not: refused, unwritten.
        let stale = a.append_tournament_log("t1", &entry(1)).await;
        assert!(matches!(stale, Ok(Written::FencedOut)), "{stale:?}");
        done(b.append_tournament_log("t1", &entry(1)).await);
        let log = store.tournament("t1").await.unwrap().unwrap().log;
        assert_eq!(log.iter().map(|e| e.seq).collect::<Vec<_>>(), vec![0, 1]);
    })
    .await;
}

/// A single node's writer (no claim) is never fenced: its games keep no owner and epoch 0.
#[tokio::test]
async fn a_single_nodes_writer_is_not_fenced() {
    each_backend(|db| async move {
        let store = db.store;
        live_game(&store, "g").await;
        running_tournament(&store, "t1").await;
        let writer = store.writer(None);
        assert_eq!(writer.epoch(), None);
        assert_eq!(writer.append_action("g", &action(0)).await.unwrap(), Written::Done(()));
        let logged = writer.append_tournament_log("t1", &entry(0)).await;
        assert_eq!(logged.unwrap(), Written::Done(()));
        assert_eq!(writer.finish_game(&finish("g")).await.unwrap(), Written::Done(None));
        let game = store.game("g").await.unwrap().unwrap();
        assert_eq!((seqs(&game.actions), game.status), (vec![0], GameStatus::Finished));
        assert_eq!(store.game_owner("g").await.unwrap(), (None, 0), "never claimed");
    })
    .await;
}
