//! Accounts and sessions.

use rookery_ladder::{Glicko2, Level, Points};
use rookery_store::{StoreError, UserId};

use crate::harness::each_backend;

#[tokio::test]
async fn users_are_unique_without_regard_to_case() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("Alice", "hash-a", 1_000).await.unwrap();
        assert_eq!(alice.username, "Alice");
        assert_eq!(alice.created_at_ms, 1_000);
        assert_eq!(alice.points, Points::ZERO);
        assert_eq!(alice.level(), Level::UNRANKED);
        assert_eq!(alice.rating, Glicko2::default().initial());
        assert_eq!((alice.wins, alice.draws, alice.losses, alice.games()), (0, 0, 0, 0));

        for taken in ["alice", "ALICE", "aLiCe", "Alice"] {
            match store.create_user(taken, "other", 2_000).await {
                Err(StoreError::UsernameTaken(name)) => assert_eq!(name, taken),
                other => panic!("{taken}: expected UsernameTaken, got {other:?}"),
            }
        }
        let bob = store.create_user("bob", "hash-b", 3_000).await.unwrap();
        assert_ne!(bob.id, alice.id);

        assert_eq!(store.user(alice.id).await.unwrap(), Some(alice.clone()));
        assert_eq!(store.user(UserId(alice.id.0 + 1_000)).await.unwrap(), None);
        assert_eq!(store.user_by_name("ALICE").await.unwrap(), Some(alice.clone()));
        assert_eq!(store.user_by_name("BoB").await.unwrap(), Some(bob.clone()));
        assert_eq!(store.user_by_name("carol").await.unwrap(), None);
        assert_eq!(
            store.password_hash("alice").await.unwrap(),
            Some((alice.id, "hash-a".to_owned()))
        );
        assert_eq!(store.password_hash("nobody").await.unwrap(), None);
    })
    .await;
}

#[tokio::test]
async fn sessions_expire() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        store.create_session("token-a", alice.id, 1_000, 2_000).await.unwrap();
        store.create_session("token-b", bob.id, 1_000, 5_000).await.unwrap();

        let user_at = |token: &'static str, now: i64| {
            let store = store.clone();
            async move { store.session_user(token, now).await.unwrap().map(|u| u.username) }
        };
        assert_eq!(user_at("token-a", 1_000).await.as_deref(), Some("alice"));
        assert_eq!(user_at("token-a", 1_999).await.as_deref(), Some("alice"));
        assert_eq!(user_at("token-a", 2_000).await, None, "expired at its expiry time");
        assert_eq!(user_at("token-b", 2_000).await.as_deref(), Some("bob"));
        assert_eq!(user_at("unknown", 1_000).await, None);

        match store.create_session("token-a", bob.id, 1_000, 9_000).await {
            Err(StoreError::Conflict(_)) => {}
            other => panic!("duplicate token: expected Conflict, got {other:?}"),
        }
        match store.create_session("token-x", UserId(alice.id.0 + 1_000), 1_000, 9_000).await {
            Err(StoreError::NotFound(_)) => {}
            other => panic!("unknown user: expected NotFound, got {other:?}"),
        }

        assert_eq!(store.delete_expired_sessions(2_000).await.unwrap(), 1);
        assert_eq!(store.delete_expired_sessions(2_000).await.unwrap(), 0);
        assert_eq!(user_at("token-a", 1_000).await, None, "deleted");
        store.delete_session("token-b").await.unwrap();
        store.delete_session("token-b").await.unwrap();
        assert_eq!(user_at("token-b", 2_000).await, None, "logged out");
    })
    .await;
}
