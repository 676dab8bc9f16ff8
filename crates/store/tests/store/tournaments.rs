//! Tournaments (issue 40): the row, the append-only log, and their games created once.

use rookery_store::{
    Finish, LogEntry, StoreError, TournamentRow, TournamentSeat, TournamentStatus,
};

use crate::harness::{done, each_backend, new_game, user};

fn entry(seq: i64, kind: &str) -> LogEntry {
    LogEntry {
        seq,
        at_ms: 1_000 + seq,
        by: None,
        kind: kind.to_owned(),
        data: format!("{{\"n\":{seq}}}"),
        reason: None,
    }
}

#[tokio::test]
async fn a_tournament_is_its_log_and_its_games_are_created_once() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        let row = TournamentRow {
            id: "t1".into(),
            name: "Club Swiss".into(),
            format: "swiss".into(),
            settings: "{}".into(),
            status: TournamentStatus::Upcoming,
            created_by: alice.id,
            created_at_ms: 5,
            starts_at_ms: None,
        };
        store.create_tournament(&row).await.unwrap();
        assert!(matches!(store.create_tournament(&row).await, Err(StoreError::Conflict(_))));

        for seq in [0, 1, 2] {
            done(store.writer(None).append_tournament_log("t1", &entry(seq, "join")).await);
        }
        let mut decision = entry(3, "result");
        decision.by = Some(alice.id);
        decision.reason = Some("entered wrongly".into());
        done(store.writer(None).append_tournament_log("t1", &decision).await);
        // Written once: a replay after a crash cannot append an entry twice.
        match store.writer(None).append_tournament_log("t1", &entry(1, "paired")).await {
            Err(StoreError::Conflict(_)) => {}
            other => panic!("duplicate seq: expected Conflict, got {other:?}"),
        }
        let stored = store.tournament("t1").await.unwrap().expect("stored");
        assert_eq!(stored.row, row);
        assert_eq!(stored.log.len(), 4);
        assert_eq!(stored.log[3], decision);
        assert_eq!(store.active_tournaments().await.unwrap().len(), 1);

        let game = new_game("t1r1b1", user(&alice), user(&bob), 7);
        let seat_at = |board| TournamentSeat {
            tournament: "t1".into(),
            name: String::new(),
            round: Some(1),
            board,
            berserk: false,
        };
        assert!(store.create_tournament_game(&game, &seat_at(1)).await.unwrap());
        assert!(!store.create_tournament_game(&game, &seat_at(1)).await.unwrap());
        let games = store.tournament_games("t1").await.unwrap();
        assert_eq!(
            (games.len(), games[0].round, games[0].board, games[0].moves),
            (1, Some(1), 1, 0)
        );
        let seat = store.game("t1r1b1").await.unwrap().unwrap().tournament.expect("a seat");
        assert_eq!((seat.tournament.as_str(), seat.round, seat.board), ("t1", Some(1), 1));

        // A forfeit (no first move) of a rated game changes no ladder points (RULES.md §12).
        let finish = Finish {
            game_id: "t1r1b1".into(),
            result: "1-0".parse().unwrap(),
            termination: "no_start".into(),
            pgn: "1-0".into(),
            ended_at_ms: 9,
        };
        assert_eq!(done(store.writer(None).finish_game(&finish).await), None);
        assert!(!store.delete_unstarted_game("t1r1b1").await.unwrap(), "a finished game stays");

        store.set_tournament_status("t1", TournamentStatus::Finished).await.unwrap();
        assert!(store.active_tournaments().await.unwrap().is_empty());
        let finished = store.tournaments_with_status(TournamentStatus::Finished, 10).await.unwrap();
        assert_eq!(finished.len(), 1);
        // Finished, its one game counted before its last entry: nothing to resume.
        assert!(store.tournaments_to_resume().await.unwrap().is_empty());
        // Ended by the arbiter with a game still live: resumed, so that the game counts.
        done(store.writer(None).append_tournament_log("t1", &entry(4, "end")).await);
        let late = new_game("t1r1b2", user(&bob), user(&alice), 8);
        assert!(store.create_tournament_game(&late, &seat_at(2)).await.unwrap());
        assert_eq!(store.tournaments_to_resume().await.unwrap().len(), 1, "a live game");
        let finish = Finish { game_id: "t1r1b2".into(), ended_at_ms: 2_000, ..finish };
        assert_eq!(done(store.writer(None).finish_game(&finish).await), None);
        assert_eq!(store.tournaments_to_resume().await.unwrap().len(), 1, "ended after the log");
        done(store.writer(None).append_tournament_log("t1", &entry(1_001, "result")).await);
        assert!(store.tournaments_to_resume().await.unwrap().is_empty(), "its result logged");
    })
    .await;
}
