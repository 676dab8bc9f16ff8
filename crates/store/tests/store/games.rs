//! Games and their action logs.

use rookery_core::CastlingMode;
use rookery_store::{Action, Finish, GameStatus, StoreError, Written};
use sqlx::{Connection, Executor};

use crate::harness::{anonymous, done, each_backend, engine, new_game, user};

fn action(seq: i64) -> Action {
    Action { seq, at_ms: 10_000 + seq * 1_000, kind: "move".to_owned(), data: format!("m{seq}") }
}

fn finish(game_id: &str, result: &str, ended_at_ms: i64) -> Finish {
    Finish {
        game_id: game_id.to_owned(),
        result: result.parse().unwrap(),
        termination: "normal".to_owned(),
        pgn: format!("[Result \"{result}\"]\n\n{result}\n"),
        ended_at_ms,
    }
}

#[tokio::test]
async fn actions_are_appended_once_and_read_in_order() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let mut game = new_game("g1", user(&alice), anonymous("guest"), 5);
        game.initial_fen = Some("4k3/8/8/8/8/8/8/4K2R w K - 0 1".to_owned());
        game.rules = "casual".to_owned();
        game.rated = false;
        store.create_game(&game).await.unwrap();
        match store.create_game(&game).await {
            Err(StoreError::Conflict(_)) => {}
            other => panic!("duplicate game id: expected Conflict, got {other:?}"),
        }

        // Appended out of order; read back by seq.
        for seq in [0, 1, 3, 2] {
            done(store.writer(None).append_action("g1", &action(seq)).await);
        }
        let mut other = action(1);
        other.data = "different".to_owned();
        match store.writer(None).append_action("g1", &other).await {
            Err(StoreError::Conflict(message)) => assert!(message.contains("g1"), "{message}"),
            other => panic!("duplicate seq: expected Conflict, got {other:?}"),
        }
        match store.writer(None).append_action("nope", &action(0)).await {
            Err(StoreError::NotFound(_)) => {}
            other => panic!("unknown game: expected NotFound, got {other:?}"),
        }

        let stored = store.game("g1").await.unwrap().expect("stored");
        assert_eq!(stored.id, game.id);
        assert_eq!(stored.white, game.white);
        assert_eq!(stored.black, game.black);
        assert_eq!(stored.rules, "casual");
        assert_eq!(stored.time_control, "300+2");
        assert!(!stored.rated);
        assert_eq!(stored.initial_fen, game.initial_fen);
        assert_eq!(stored.created_at_ms, 5);
        assert_eq!(stored.start_policy.as_deref(), Some("abort:30000"));
        assert_eq!(stored.status, GameStatus::Live);
        assert_eq!(
            (stored.result, stored.termination, stored.pgn, stored.ended_at_ms),
            (None, None, None, None)
        );
        assert_eq!(stored.actions, (0..4).map(action).collect::<Vec<_>>());
        assert_eq!(store.game("nope").await.unwrap(), None);

        // A finished game takes no more actions.
        assert_eq!(done(store.writer(None).finish_game(&finish("g1", "1-0", 20_000)).await), None);
        match store.writer(None).append_action("g1", &action(4)).await {
            Err(StoreError::Conflict(message)) => {
                assert!(message.contains("finished"), "{message}")
            }
            other => panic!("finished game: expected Conflict, got {other:?}"),
        }
        let stored = store.game("g1").await.unwrap().unwrap();
        assert_eq!(stored.status, GameStatus::Finished);
        assert_eq!(stored.result.map(|r| r.as_str()), Some("1-0"));
        assert_eq!(stored.termination.as_deref(), Some("normal"));
        assert_eq!(stored.pgn.as_deref(), Some("[Result \"1-0\"]\n\n1-0\n"));
        assert_eq!(stored.ended_at_ms, Some(20_000));
        assert_eq!(stored.actions.len(), 4);
        // Without its action log: what a finished game is served from.
        let summary = store.game_summary("g1").await.unwrap().unwrap();
        assert_eq!((summary.id.as_str(), summary.status), ("g1", GameStatus::Finished));
        assert_eq!((summary.result, summary.termination), (stored.result, stored.termination));
        assert_eq!((summary.pgn, summary.ended_at_ms), (stored.pgn, stored.ended_at_ms));
        assert_eq!(store.game_summary("nope").await.unwrap(), None);
    })
    .await;
}

#[tokio::test]
async fn players_must_match_their_kind() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let mut wrong = user(&alice);
        wrong.user_id = None;
        let result = store.create_game(&new_game("g", wrong, anonymous("x"), 0)).await;
        assert!(matches!(result, Err(StoreError::Database(_))), "{result:?}");
        let mut ghost = user(&alice);
        ghost.user_id = Some(rookery_store::UserId(alice.id.0 + 1_000));
        let result = store.create_game(&new_game("g", ghost, anonymous("x"), 0)).await;
        assert!(matches!(result, Err(StoreError::NotFound(_))), "{result:?}");
        assert_eq!(store.game("g").await.unwrap(), None);
    })
    .await;
}

#[tokio::test]
async fn live_games_come_back_with_their_actions() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        store.create_game(&new_game("b-live", user(&alice), engine(3), 2)).await.unwrap();
        store.create_game(&new_game("a-live", anonymous("x"), anonymous("y"), 1)).await.unwrap();
        store.create_game(&new_game("c-done", anonymous("x"), engine(8), 3)).await.unwrap();
        store.create_game(&new_game("d-empty", engine(1), engine(2), 4)).await.unwrap();
        for seq in 0..3 {
            done(store.writer(None).append_action("a-live", &action(seq)).await);
            done(store.writer(None).append_action("c-done", &action(seq)).await);
        }
        done(store.writer(None).append_action("b-live", &action(0)).await);
        done(store.writer(None).finish_game(&finish("c-done", "0-1", 9)).await);

        let live = store.live_games().await.unwrap();
        let ids: Vec<&str> = live.iter().map(|g| g.id.as_str()).collect();
        assert_eq!(ids, ["a-live", "b-live", "d-empty"], "oldest first, finished left out");
        assert_eq!(live[0].actions, (0..3).map(action).collect::<Vec<_>>());
        assert_eq!(live[1].actions, [action(0)]);
        assert_eq!(live[1].black.engine_level, Some(3));
        assert!(live[2].actions.is_empty());
        assert!(live.iter().all(|g| g.status == GameStatus::Live));
    })
    .await;
}

#[tokio::test]
async fn game_lists_are_newest_first() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        // (id, ends at, result); alice is in g1..g5, g6 is between guests.
        let games = [
            ("g1", Some(100), "1-0"),
            ("g2", Some(300), "0-1"),
            ("g3", Some(200), "1/2-1/2"),
            ("g4", Some(400), "*"),
            ("g5", None, ""),
            ("g6", Some(250), "1-0"),
        ];
        for (i, (id, ended, result)) in games.into_iter().enumerate() {
            let (white, black) = match id {
                "g6" => (anonymous("x"), anonymous("y")),
                _ if i % 2 == 0 => (user(&alice), user(&bob)),
                _ => (user(&bob), user(&alice)),
            };
            let mut game = new_game(id, white, black, i as i64);
            game.rated = false;
            store.create_game(&game).await.unwrap();
            if let Some(ended) = ended {
                done(store.writer(None).finish_game(&finish(id, result, ended)).await);
            }
        }
        let ids = |list: Vec<rookery_store::GameSummary>| {
            list.into_iter().map(|g| g.id).collect::<Vec<_>>()
        };
        assert_eq!(ids(store.user_games(alice.id, 10, None).await.unwrap()), ["g2", "g3", "g1"]);
        assert_eq!(ids(store.user_games(alice.id, 2, None).await.unwrap()), ["g2", "g3"]);
        assert_eq!(ids(store.user_games(alice.id, 10, Some(200)).await.unwrap()), ["g1"]);
        assert_eq!(ids(store.user_games(alice.id, 0, None).await.unwrap()), Vec::<String>::new());
        assert_eq!(ids(store.user_games(bob.id, 10, Some(301)).await.unwrap()), ["g2", "g3", "g1"]);
        assert_eq!(ids(store.recent_games(10).await.unwrap()), ["g2", "g6", "g3", "g1"]);
        assert_eq!(ids(store.recent_games(1).await.unwrap()), ["g2"]);

        let g2 = store.user_games(alice.id, 1, None).await.unwrap().remove(0);
        assert_eq!(g2.status, GameStatus::Finished);
        assert_eq!(g2.result.map(|r| r.as_str()), Some("0-1"));
        assert_eq!(g2.ended_at_ms, Some(300));
        assert_eq!(g2.white, user(&bob));
        assert_eq!(g2.black, user(&alice));
        assert!(g2.pgn.is_some());
        assert_eq!(store.game("g4").await.unwrap().unwrap().status, GameStatus::Aborted);
    })
    .await;
}

#[tokio::test]
async fn concurrent_appends_share_commits_and_each_gets_its_own_answer() {
    each_backend(|db| async move {
        let store = db.store;
        for g in 0..40 {
            store
                .create_game(&new_game(&format!("c{g}"), anonymous("a"), anonymous("b"), 5))
                .await
                .unwrap();
        }
        done(store.writer(None).append_action("c0", &action(0)).await);
        // A burst from 40 games at once, among them a duplicate and a game that is not there:
        // the group commit must still answer each one on its own.
        let mut tasks = Vec::new();
        for round in 0..5i64 {
            for g in 0..40 {
                let store = store.clone();
                tasks.push(tokio::spawn(async move {
                    let seq = if g == 0 { round + 1 } else { round };
                    store.writer(None).append_action(&format!("c{g}"), &action(seq)).await
                }));
            }
            let (w1, w2) = (store.writer(None), store.writer(None));
            tasks.push(tokio::spawn(async move { w1.append_action("c0", &action(0)).await }));
            tasks.push(tokio::spawn(async move { w2.append_action("nope", &action(round)).await }));
            // Rounds in order: a game's actions come from one actor, one after the other.
            for t in tasks.drain(..) {
                match t.await.unwrap() {
                    Ok(Written::Done(()))
                    | Err(StoreError::Conflict(_) | StoreError::NotFound(_)) => {}
                    other => panic!("unexpected answer: {other:?}"),
                }
            }
        }
        for g in 0..40 {
            let game = store.game(&format!("c{g}")).await.unwrap().unwrap();
            let seqs: Vec<i64> = game.actions.iter().map(|a| a.seq).collect();
            let expected: Vec<i64> = if g == 0 { (0..=5).collect() } else { (0..5).collect() };
            assert_eq!(seqs, expected, "game c{g}");
        }
        assert!(matches!(
            store.writer(None).append_action("c0", &action(3)).await,
            Err(StoreError::Conflict(_))
        ));
        assert!(matches!(
            store.writer(None).append_action("nope", &action(0)).await,
            Err(StoreError::NotFound(_))
        ));
    })
    .await;
}

/// A game keeps its variant and start (issue 55): a Chess960 game reads back as one wherever
/// it is read, so that a restarted server replays its moves (`e1h1`) in Chess960's castling
/// mode; a row written before variants existed, without the column, reads as standard.
#[tokio::test]
async fn a_games_variant_is_kept_and_older_rows_read_as_standard() {
    each_backend(|db| async move {
        let store = db.store;
        let fen = "bbqnnrkr/pppppppp/8/8/8/8/PPPPPPPP/BBQNNRKR w KQkq - 0 1";
        let mut game = new_game("c960", anonymous("ann"), anonymous("bob"), 5);
        game.initial_fen = Some(fen.to_owned());
        game.variant = CastlingMode::Chess960;
        store.create_game(&game).await.unwrap();
        let stored = store.game("c960").await.unwrap().unwrap();
        assert_eq!(
            (stored.variant, stored.initial_fen.as_deref()),
            (CastlingMode::Chess960, Some(fen))
        );
        let summary = store.game_summary("c960").await.unwrap().unwrap();
        assert_eq!(
            (summary.variant, summary.initial_fen.as_deref()),
            (CastlingMode::Chess960, Some(fen))
        );
        let live = store.live_games().await.unwrap();
        assert_eq!(
            live.iter().map(|g| (g.id.as_str(), g.variant)).collect::<Vec<_>>(),
            [("c960", CastlingMode::Chess960)]
        );

        // As an earlier version wrote a game: no variant column named.
        let mut conn = sqlx::AnyConnection::connect(&db.url).await.unwrap();
        conn.execute(
            "INSERT INTO games (id, white_kind, white_name, black_kind, black_name, rules, \
             time_control, rated, created_at_ms, status) \
             VALUES ('old', 'anonymous', 'cy', 'anonymous', 'di', 'seed', '300+0', 0, 1, 'live')",
        )
        .await
        .unwrap();
        conn.close().await.unwrap();
        let old = store.game("old").await.unwrap().unwrap();
        assert_eq!((old.variant, old.initial_fen), (CastlingMode::Standard, None));
        assert_eq!(
            store.game_summary("old").await.unwrap().unwrap().variant,
            CastlingMode::Standard
        );
    })
    .await;
}
