//! Analyses of finished games: asked for once, queued, taken, done or failed, kept.

use rookery_store::{AnalysisStatus, Finish, StoreError};

use crate::harness::{anonymous, done, each_backend, new_game};

fn finish(game_id: &str, result: &str) -> Finish {
    Finish {
        game_id: game_id.to_owned(),
        result: result.parse().unwrap(),
        termination: "normal".to_owned(),
        pgn: format!("[Result \"{result}\"]\n\n{result}\n"),
        ended_at_ms: 20_000,
    }
}

#[tokio::test]
async fn an_analysis_is_queued_once_and_kept() {
    each_backend(|db| async move {
        let store = db.store.clone();
        for id in ["live", "over", "aborted", "second"] {
            store.create_game(&new_game(id, anonymous("a"), anonymous("b"), 5)).await.unwrap();
        }
        let writer = store.writer(None);
        done(writer.finish_game(&finish("over", "1-0")).await);
        done(writer.finish_game(&finish("second", "0-1")).await);
        done(writer.finish_game(&finish("aborted", "*")).await);

        // Never during play (§8.5), nor for a game that was not played.
        for (id, status) in [("live", "live"), ("aborted", "aborted")] {
            match store.request_analysis(id, 1000, 30_000).await {
                Err(StoreError::Conflict(m)) => assert!(m.contains(status), "{id}: {m}"),
                other => panic!("{id}: expected Conflict, got {other:?}"),
            }
            assert_eq!(store.analysis(id).await.unwrap(), None, "{id}");
        }
        match store.request_analysis("nope", 1000, 30_000).await {
            Err(StoreError::NotFound(_)) => {}
            other => panic!("unknown game: expected NotFound, got {other:?}"),
        }

        // Asked twice: one job, as first asked.
        let first = store.request_analysis("over", 1000, 30_000).await.unwrap();
        assert_eq!(
            (first.status, first.nodes, first.requested_at_ms),
            (AnalysisStatus::Queued, 1000, 30_000)
        );
        let again = store.request_analysis("over", 5000, 31_000).await.unwrap();
        assert_eq!(again, first);
        store.request_analysis("second", 1000, 32_000).await.unwrap();
        assert_eq!(store.analyses_queued_before(32_000).await.unwrap(), 1);

        // Taken oldest first; a stopped server's running job goes back to the queue.
        let job = store.take_queued_analysis().await.unwrap().expect("a job");
        assert_eq!((job.game_id.as_str(), job.status), ("over", AnalysisStatus::Running));
        assert_eq!(store.requeue_running_analyses().await.unwrap(), 1);
        let job = store.take_queued_analysis().await.unwrap().expect("the same job");
        assert_eq!(job.game_id, "over");
        store.finish_analysis("over", "{\"evals\":[]}", 40_000).await.unwrap();
        match store.finish_analysis("over", "{}", 41_000).await {
            Err(StoreError::Conflict(_)) => {}
            other => panic!("second finish: expected Conflict, got {other:?}"),
        }
        let done = store.analysis("over").await.unwrap().unwrap();
        assert_eq!(done.status, AnalysisStatus::Done);
        assert_eq!(done.result.as_deref(), Some("{\"evals\":[]}"));
        assert_eq!(done.finished_at_ms, Some(40_000));
        // Asking for a done analysis changes nothing.
        assert_eq!(store.request_analysis("over", 9, 50_000).await.unwrap(), done);

        // A failed one says why, and is queued again when asked for again.
        let job = store.take_queued_analysis().await.unwrap().expect("the second job");
        assert_eq!(job.game_id, "second");
        assert_eq!(store.take_queued_analysis().await.unwrap(), None);
        store.fail_analysis("second", "unreadable record", 42_000).await.unwrap();
        let failed = store.analysis("second").await.unwrap().unwrap();
        assert_eq!(
            (failed.status, failed.error.as_deref()),
            (AnalysisStatus::Failed, Some("unreadable record"))
        );
        let retried = store.request_analysis("second", 2000, 43_000).await.unwrap();
        assert_eq!(
            (retried.status, retried.nodes, retried.error, retried.finished_at_ms),
            (AnalysisStatus::Queued, 2000, None, None)
        );

        // Kept across a reopening.
        let reopened = db.reopen().await;
        assert_eq!(reopened.analysis("over").await.unwrap(), Some(done));
        reopened.close().await;
    })
    .await;
}
