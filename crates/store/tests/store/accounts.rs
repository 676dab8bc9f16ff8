//! Accounts and sessions.

use rookery_ladder::{Glicko2, Level, Points};
use rookery_store::{NewClassAccount, StoreError, UserId};

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

#[tokio::test]
async fn a_class_is_created_whole_and_each_account_claimed_once_with_its_code() {
    each_backend(|db| async move {
        let store = db.store;
        let teacher = store.create_user("teacher", "h", 0).await.unwrap();
        let level_25 = Level::new(25).unwrap().min_points();
        let class = |name: &str, points, code: &str| NewClassAccount {
            username: name.to_owned(),
            points,
            code_hash: code.to_owned(),
        };
        let made = store
            .create_class_accounts(
                teacher.id,
                &[class("Ann", level_25, "code-ann"), class("ben", Points::ZERO, "code-ben")],
                1_000,
                10_000,
            )
            .await
            .unwrap();
        assert_eq!(made.iter().map(|u| u.username.as_str()).collect::<Vec<_>>(), ["Ann", "ben"]);
        assert_eq!(made[0].level(), Level::new(25).unwrap(), "starts at the level given");
        assert_eq!(store.class_accounts_created_since(teacher.id, 0).await.unwrap(), 2);
        assert_eq!(store.class_accounts_created_since(teacher.id, 1_001).await.unwrap(), 0);

        // A taken name (in any case, or twice in one list) refuses the whole list.
        let refused = store
            .create_class_accounts(
                teacher.id,
                &[class("cat", Points::ZERO, "c"), class("BEN", Points::ZERO, "d")],
                2_000,
                10_000,
            )
            .await;
        assert!(
            matches!(refused, Err(StoreError::UsernameTaken(ref n)) if n == "BEN"),
            "{refused:?}"
        );
        assert_eq!(store.user_by_name("cat").await.unwrap(), None, "nothing half-created");

        // No password works before the claim; a wrong code, a late one, or another's fails.
        assert_eq!(store.password_hash("ann").await.unwrap(), Some((made[0].id, String::new())));
        assert_eq!(store.claim_class_account("ann", "code-ben", "pw", 2_000).await.unwrap(), None);
        assert_eq!(store.claim_class_account("ann", "code-ann", "pw", 10_000).await.unwrap(), None);
        let claimed = store.claim_class_account("ANN", "code-ann", "pw-hash", 9_999).await.unwrap();
        assert_eq!(claimed.map(|u| u.id), Some(made[0].id));
        assert_eq!(store.password_hash("ann").await.unwrap(), Some((made[0].id, "pw-hash".into())));
        assert_eq!(
            store.claim_class_account("ann", "code-ann", "again", 3_000).await.unwrap(),
            None,
            "a code is spent once"
        );
        let list = store.class_accounts(teacher.id).await.unwrap();
        assert_eq!(
            list.iter().map(|a| (a.user.username.as_str(), a.claimed)).collect::<Vec<_>>(),
            [("Ann", true), ("ben", false)]
        );

        // A new code ends the password and the sessions; only the organiser may give one.
        store.create_session("s-ann", made[0].id, 3_000, 50_000).await.unwrap();
        let other = store.create_user("other", "h", 0).await.unwrap();
        assert_eq!(store.renew_class_code(other.id, "ann", "x", 20_000).await.unwrap(), None);
        let renewed = store.renew_class_code(teacher.id, "ann", "code-2", 20_000).await.unwrap();
        assert_eq!(renewed.map(|u| u.id), Some(made[0].id));
        assert_eq!(store.session_user("s-ann", 4_000).await.unwrap(), None);
        assert_eq!(store.password_hash("ann").await.unwrap(), Some((made[0].id, String::new())));
        let again = store.claim_class_account("ann", "code-2", "pw-2", 15_000).await.unwrap();
        assert_eq!(again.map(|u| u.id), Some(made[0].id));
    })
    .await;
}
