//! Finishing games: RULES.md §11 points, Glicko-2, history, and concurrent finishes.

use std::collections::HashMap;

use rookery_ladder::{award, Glicko2, PairResult, Points, Rating};
use rookery_store::{Finish, GameStatus, Store, StoreError, User, UserId};

use crate::harness::{anonymous, done, each_backend, engine, new_game, user};

fn finish(game_id: &str, result: &str, ended_at_ms: i64) -> Finish {
    Finish {
        game_id: game_id.to_owned(),
        result: result.parse().unwrap(),
        termination: "normal".to_owned(),
        pgn: format!("{result}\n"),
        ended_at_ms,
    }
}

fn pgn_result(result: PairResult) -> &'static str {
    match result {
        PairResult::AWins => "1-0",
        PairResult::BWins => "0-1",
        PairResult::Draw => "1/2-1/2",
    }
}

async fn fetch(store: &Store, id: UserId) -> User {
    store.user(id).await.unwrap().expect("user exists")
}

/// Plays one rated game to its end and returns the changes.
async fn play(store: &Store, id: &str, white: &User, black: &User, result: &str, at: i64) {
    store.create_game(&new_game(id, user(white), user(black), at)).await.unwrap();
    done(store.writer(None).finish_game(&finish(id, result, at)).await).expect("rated");
}

#[tokio::test]
async fn rated_finish_moves_points_and_ratings() {
    each_backend(|db| async move {
        let store = db.store;
        let glicko = Glicko2::default();
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();

        // A sequence of results, checked game by game against rookery-ladder directly, so the
        // points drift apart and later games fall in other §11 bands.
        let results = [
            ("1-0", PairResult::AWins),
            ("1-0", PairResult::AWins),
            ("1/2-1/2", PairResult::Draw),
            ("0-1", PairResult::BWins),
            ("1-0", PairResult::AWins),
        ];
        let (mut a_points, mut b_points) = (Points::ZERO, Points::ZERO);
        let (mut a_rating, mut b_rating) = (glicko.initial(), glicko.initial());
        for (i, (text, result)) in results.into_iter().enumerate() {
            let id = format!("g{i}");
            let at = 1_000 * (i as i64 + 1);
            store.create_game(&new_game(&id, user(&alice), user(&bob), at)).await.unwrap();
            let finished = store.writer(None).finish_game(&finish(&id, text, at + 500)).await;
            let changes = done(finished).unwrap();

            let (da, db) = award(a_points, b_points, result);
            let (ra, rb) = glicko.rate_game(a_rating, b_rating, result);
            assert_eq!(changes.white.user_id, alice.id);
            assert_eq!(changes.black.user_id, bob.id);
            assert_eq!(changes.white.points_before, a_points, "game {i}");
            assert_eq!(changes.black.points_before, b_points, "game {i}");
            assert_eq!(changes.white.rating_before, a_rating, "game {i}");
            a_points = a_points.checked_add(da).unwrap();
            b_points = b_points.checked_add(db).unwrap();
            (a_rating, b_rating) = (ra, rb);
            assert_eq!(changes.white.points_after, a_points, "game {i}");
            assert_eq!(changes.black.points_after, b_points, "game {i}");
            assert_eq!(changes.white.points_delta(), da, "game {i}");
            assert_eq!(changes.white.rating_after, ra, "game {i}");
            assert_eq!(changes.black.rating_after, rb, "game {i}");
            let game = store.game(&id).await.unwrap().unwrap();
            assert_eq!(game.status, GameStatus::Finished);
        }
        // The first win between equals is worth 10 (§11, diff < 10).
        assert_eq!(
            store.rating_history(alice.id, 1_000).await.unwrap()[0].points_delta,
            Points::from_whole(10)
        );

        let alice = fetch(&store, alice.id).await;
        let bob = fetch(&store, bob.id).await;
        assert_eq!((alice.points, bob.points), (a_points, b_points));
        assert_eq!(a_points.checked_add(b_points), Some(Points::ZERO), "zero-sum");
        assert_eq!(alice.rating, a_rating, "Glicko-2 survives the round trip exactly");
        assert_eq!(bob.rating, b_rating);
        assert_eq!((alice.wins, alice.draws, alice.losses), (3, 1, 1));
        assert_eq!((bob.wins, bob.draws, bob.losses), (1, 1, 3));

        let history = store.rating_history(alice.id, 100).await.unwrap();
        assert_eq!(history.len(), 5);
        assert_eq!(
            history.iter().map(|h| h.game_id.as_str()).collect::<Vec<_>>(),
            ["g0", "g1", "g2", "g3", "g4"]
        );
        assert_eq!(history[4].points, a_points);
        assert_eq!(history[4].rating, a_rating.rating);
        assert_eq!(history[0].at_ms, 1_500);
        let mut running = Points::ZERO;
        for point in &history {
            running = running.checked_add(point.points_delta).unwrap();
            assert_eq!(point.points, running, "history of {}", point.game_id);
        }
        let last_two = store.rating_history(bob.id, 2).await.unwrap();
        assert_eq!(last_two.iter().map(|h| h.game_id.as_str()).collect::<Vec<_>>(), ["g3", "g4"]);

        // Black as the winner: the award is computed with White as side A.
        let carol = store.create_user("carol", "h", 0).await.unwrap();
        store.create_game(&new_game("g9", user(&carol), user(&alice), 9_000)).await.unwrap();
        let changes =
            done(store.writer(None).finish_game(&finish("g9", "0-1", 9_500)).await).unwrap();
        let (dc, da) = award(Points::ZERO, a_points, PairResult::BWins);
        assert_eq!(changes.white.points_after, dc);
        assert_eq!(changes.black.points_after, a_points.checked_add(da).unwrap());
    })
    .await;
}

#[tokio::test]
async fn a_game_is_finished_once() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        play(&store, "g", &alice, &bob, "1-0", 1).await;
        let before = (fetch(&store, alice.id).await, fetch(&store, bob.id).await);
        for again in ["0-1", "1-0", "*"] {
            match store.writer(None).finish_game(&finish("g", again, 2)).await {
                Err(StoreError::Conflict(message)) => {
                    assert!(message.contains("\"g\""), "{message}")
                }
                other => panic!("second finish {again}: expected Conflict, got {other:?}"),
            }
        }
        assert_eq!((fetch(&store, alice.id).await, fetch(&store, bob.id).await), before);
        assert_eq!(store.game("g").await.unwrap().unwrap().result.map(|r| r.as_str()), Some("1-0"));
        assert_eq!(store.rating_history(alice.id, 10).await.unwrap().len(), 1);
        match store.writer(None).finish_game(&finish("missing", "1-0", 2)).await {
            Err(StoreError::NotFound(_)) => {}
            other => panic!("unknown game: expected NotFound, got {other:?}"),
        }
        // A result outside the four PGN results cannot be written: `Finish::result` is a
        // `GameResult`, read from text at the edge.
        assert!("2-0".parse::<rookery_core::GameResult>().is_err());
    })
    .await;
}

#[tokio::test]
async fn unrated_aborted_and_guest_games_change_no_one() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        let mut unrated = new_game("unrated", user(&alice), user(&bob), 1);
        unrated.rated = false;
        let games = [
            (unrated, "1-0", GameStatus::Finished),
            (new_game("aborted", user(&alice), user(&bob), 2), "*", GameStatus::Aborted),
            (new_game("guest", user(&alice), anonymous("guest"), 3), "1-0", GameStatus::Finished),
            (new_game("engine", engine(5), user(&bob), 4), "0-1", GameStatus::Finished),
            (new_game("self", user(&alice), user(&alice), 5), "1/2-1/2", GameStatus::Finished),
        ];
        for (game, result, status) in games {
            store.create_game(&game).await.unwrap();
            let changes = done(store.writer(None).finish_game(&finish(&game.id, result, 10)).await);
            assert_eq!(changes, None, "{}", game.id);
            let stored = store.game(&game.id).await.unwrap().unwrap();
            assert_eq!(stored.status, status, "{}", game.id);
            assert_eq!(stored.result.map(|r| r.as_str()), Some(result), "{}", game.id);
        }
        for id in [alice.id, bob.id] {
            let now = fetch(&store, id).await;
            assert_eq!(now.points, Points::ZERO);
            assert_eq!(now.rating, Glicko2::default().initial());
            assert_eq!(now.games(), 0);
            assert!(store.rating_history(id, 10).await.unwrap().is_empty());
        }
    })
    .await;
}

#[tokio::test]
async fn concurrent_finishes_serialise() {
    const GAMES: usize = 20;
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        let mut outcome = HashMap::new(); // game id -> (white, result from White's side)
        for i in 0..GAMES {
            let id = format!("c{i:02}");
            let (white, black) = if i % 2 == 0 { (&alice, &bob) } else { (&bob, &alice) };
            store.create_game(&new_game(&id, user(white), user(black), i as i64)).await.unwrap();
            let result = PairResult::ALL[i % 3];
            outcome.insert(id, (white.id, result));
        }
        let tasks: Vec<_> = outcome
            .iter()
            .map(|(id, &(_, result))| {
                let store = store.clone();
                let finish = finish(id, pgn_result(result), 1_000);
                tokio::spawn(async move { store.writer(None).finish_game(&finish).await })
            })
            .collect();
        for task in tasks {
            done(task.await.unwrap()).expect("rated");
        }

        // Replay the games in the order the store applied them (its history order) through
        // rookery-ladder: every award must start from the points the previous one left.
        let history = store.rating_history(alice.id, 100).await.unwrap();
        let bob_history = store.rating_history(bob.id, 100).await.unwrap();
        assert_eq!(history.len(), GAMES);
        let order: Vec<&str> = history.iter().map(|h| h.game_id.as_str()).collect();
        let bob_order: Vec<&str> = bob_history.iter().map(|h| h.game_id.as_str()).collect();
        assert_eq!(order, bob_order, "both players saw the games in one order");
        let glicko = Glicko2::default();
        let (mut a, mut b) = (Points::ZERO, Points::ZERO);
        let (mut ra, mut rb): (Rating, Rating) = (glicko.initial(), glicko.initial());
        for (step, id) in order.iter().enumerate() {
            let (white, result) = outcome[*id];
            let (da, db, new_ra, new_rb) = if white == alice.id {
                let (da, db) = award(a, b, result);
                let (x, y) = glicko.rate_game(ra, rb, result);
                (da, db, x, y)
            } else {
                let (db, da) = award(b, a, result);
                let (y, x) = glicko.rate_game(rb, ra, result);
                (da, db, x, y)
            };
            a = a.checked_add(da).unwrap();
            b = b.checked_add(db).unwrap();
            (ra, rb) = (new_ra, new_rb);
            assert_eq!(history[step].points, a, "alice after {id} (step {step})");
            assert_eq!(bob_history[step].points, b, "bob after {id} (step {step})");
            assert_eq!(history[step].points_delta, da, "{id}");
        }
        let alice = fetch(&store, alice.id).await;
        let bob = fetch(&store, bob.id).await;
        assert_eq!((alice.points, bob.points), (a, b), "equal to sequential application");
        assert_eq!(alice.points.checked_add(bob.points), Some(Points::ZERO), "zero-sum");
        assert_eq!((alice.rating, bob.rating), (ra, rb));
        assert_eq!(alice.games() as usize, GAMES);
        assert_eq!(bob.games() as usize, GAMES);
        assert_eq!(alice.wins, bob.losses);
        assert_eq!(alice.draws, bob.draws);
    })
    .await;
}

#[tokio::test]
async fn leaderboard_order() {
    each_backend(|db| async move {
        let store = db.store;
        let mut users = HashMap::new();
        for name in ["mia", "ned", "oli", "pia", "Zed", "abe"] {
            users.insert(name, store.create_user(name, "h", 0).await.unwrap());
        }
        let u = |name: &str| users[name].clone();
        // mia and oli beat ned and pia: 10 each at equal ratings (a tie broken by name);
        // then ned beats pia at equal points: ned 0 with a rating that is not 1500, pia -20.
        // abe and Zed never play: 0 points at 1500, a tie on points with ned.
        play(&store, "l1", &u("mia"), &u("ned"), "1-0", 1).await;
        play(&store, "l2", &u("oli"), &u("pia"), "1-0", 2).await;
        let ned = fetch(&store, u("ned").id).await;
        let pia = fetch(&store, u("pia").id).await;
        play(&store, "l3", &ned, &pia, "1-0", 3).await;

        let board = store.leaderboard(100, 0).await.unwrap();
        let names: Vec<&str> = board.iter().map(|u| u.username.as_str()).collect();
        let [mia, ned, oli, pia, abe] = ["mia", "ned", "oli", "pia", "abe"]
            .map(|n| board.iter().find(|u| u.username == n).unwrap().clone());
        assert_eq!((mia.points, mia.rating), (oli.points, oli.rating), "a full tie");
        assert_eq!(ned.points, abe.points, "a tie on points");
        assert!(ned.rating.rating != abe.rating.rating, "broken by rating");
        assert_eq!(pia.points, Points::from_whole(-20));
        let mut expected = board.clone();
        expected.sort_by(|x, y| {
            y.points
                .cmp(&x.points)
                .then(y.rating.rating.total_cmp(&x.rating.rating))
                .then(x.username.to_lowercase().cmp(&y.username.to_lowercase()))
        });
        assert_eq!(board, expected);
        assert_eq!(names[..2], ["mia", "oli"]);
        assert_eq!(names[names.len() - 1], "pia");
        let pos = |n: &str| names.iter().position(|&m| m == n).unwrap();
        assert!(pos("abe") < pos("Zed"), "names compare without case: {names:?}");
        assert_eq!(board.len(), 6);

        let page: Vec<String> =
            store.leaderboard(2, 1).await.unwrap().into_iter().map(|u| u.username).collect();
        assert_eq!(page, names[1..3]);
        assert!(store.leaderboard(10, 6).await.unwrap().is_empty());
    })
    .await;
}

/// Issue 53: an over-the-board guest linked to an account. The guest's side of each ended
/// game becomes the account's, once; a rated played game between two accounts then moves
/// both players' points as a finish would, from the points they have at the link; a forfeit,
/// a game against another guest, and a second link move nothing.
#[tokio::test]
async fn a_guest_side_linked_to_an_account_takes_the_game_and_its_award_once() {
    each_backend(|db| async move {
        let store = db.store;
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let zed = store.create_user("zed", "h", 0).await.unwrap();
        // alice beats a third account first, so that the two have different points.
        let carl = store.create_user("carl", "h", 0).await.unwrap();
        play(&store, "g0", &alice, &carl, "1-0", 1_000).await;
        let alice_before = fetch(&store, alice.id).await.points;

        // The guest (Black) beat alice: no account, no points moved.
        store
            .create_game(&new_game("g1", user(&alice), anonymous("Li, Wei"), 2_000))
            .await
            .unwrap();
        let none = done(store.writer(None).finish_game(&finish("g1", "0-1", 2_500)).await);
        assert_eq!(none, None, "a guest's game moves no points");
        // A forfeit of the guest's, and a game between two guests.
        store
            .create_game(&new_game("g2", anonymous("Li, Wei"), user(&alice), 3_000))
            .await
            .unwrap();
        let forfeit = Finish { termination: "no_start".into(), ..finish("g2", "1-0", 3_500) };
        done(store.writer(None).finish_game(&forfeit).await);
        store
            .create_game(&new_game("g3", anonymous("Li, Wei"), anonymous("Wang"), 4_000))
            .await
            .unwrap();
        done(store.writer(None).finish_game(&finish("g3", "1-0", 4_500)).await);

        let changes = store
            .link_game_player("g1", rookery_core::Color::Black, zed.id, 9_000)
            .await
            .unwrap()
            .expect("a rated game between two accounts now");
        let (da, dz) = award(alice_before, Points::ZERO, PairResult::BWins);
        assert_eq!((changes.white.user_id, changes.black.user_id), (alice.id, zed.id));
        assert_eq!(changes.white.points_before, alice_before);
        assert_eq!(fetch(&store, alice.id).await.points, alice_before.checked_add(da).unwrap());
        assert_eq!(fetch(&store, zed.id).await.points, dz);
        let game = store.game("g1").await.unwrap().unwrap();
        assert_eq!(
            (game.black.kind, game.black.user_id),
            (rookery_store::PlayerKind::User, Some(zed.id))
        );
        assert_eq!(game.black.name, "Li, Wei", "the name played under stays");
        let history = store.rating_history(zed.id, 10).await.unwrap();
        assert_eq!(
            history.iter().map(|h| (h.game_id.as_str(), h.at_ms)).collect::<Vec<_>>(),
            [("g1", 9_000)]
        );

        // Once: linked again, nothing moves.
        let again = store.link_game_player("g1", rookery_core::Color::Black, zed.id, 9_500).await;
        assert_eq!(again.unwrap(), None);
        assert_eq!(fetch(&store, zed.id).await.points, dz);
        // A forfeit and a game against a guest are the account's, with no award.
        for (game, color) in
            [("g2", rookery_core::Color::White), ("g3", rookery_core::Color::White)]
        {
            let linked = store.link_game_player(game, color, zed.id, 10_000).await.unwrap();
            assert_eq!(linked, None, "{game}");
            let g = store.game(game).await.unwrap().unwrap();
            assert_eq!(g.white.user_id, Some(zed.id), "{game}");
        }
        assert_eq!(fetch(&store, zed.id).await.points, dz);
        assert_eq!(fetch(&store, alice.id).await.points, alice_before.checked_add(da).unwrap());
        let missing = store.link_game_player("nope", rookery_core::Color::White, zed.id, 0).await;
        assert!(matches!(missing, Err(StoreError::NotFound(_))), "{missing:?}");
    })
    .await;
}

/// A result corrected (over the board, issue 53): its award taken back, the right one made.
/// Each player's last game: points and rating exactly as if the right result had been
/// recorded. A game with games since: the points lose exactly its delta (the ladder stays
/// zero-sum), the rating moves back by its change. Removed (an undone entry): taken back, gone.
#[tokio::test]
async fn a_corrected_result_takes_back_its_award_and_makes_the_right_one() {
    each_backend(|db| async move {
        let store = db.store;
        let glicko = Glicko2::default();
        let alice = store.create_user("alice", "h", 0).await.unwrap();
        let bob = store.create_user("bob", "h", 0).await.unwrap();
        let cleo = store.create_user("cleo", "h", 0).await.unwrap();
        play(&store, "g1", &alice, &bob, "1-0", 1_000).await;
        let changes = store.correct_game(&finish("g1", "0-1", 2_000)).await.unwrap().unwrap();
        let (da, db_) = award(Points::ZERO, Points::ZERO, PairResult::BWins);
        let (ra, rb) = glicko.rate_game(glicko.initial(), glicko.initial(), PairResult::BWins);
        assert_eq!(
            (changes.white.points_before, changes.white.rating_before),
            (Points::ZERO, glicko.initial())
        );
        let (a, b) = (fetch(&store, alice.id).await, fetch(&store, bob.id).await);
        assert_eq!((a.points, a.rating, a.wins, a.losses), (da, ra, 0, 1));
        assert_eq!((b.points, b.rating, b.wins, b.losses), (db_, rb, 1, 0));
        assert_eq!(
            store.rating_history(alice.id, 100).await.unwrap().len(),
            1,
            "one history row, the right one"
        );
        let game = store.game("g1").await.unwrap().unwrap();
        assert_eq!(game.result.map(|r| r.as_str()), Some("0-1"));
        // The same correction again (a restart repeats it): nothing changes.
        assert!(store.correct_game(&finish("g1", "0-1", 3_000)).await.unwrap().is_none());
        assert_eq!(fetch(&store, alice.id).await.points, da);

        // Alice plays Cleo after g1; then g1 is corrected back to 1-0.
        play(&store, "g2", &alice, &cleo, "1/2-1/2", 4_000).await;
        let before = (fetch(&store, alice.id).await, fetch(&store, bob.id).await);
        store.correct_game(&finish("g1", "1-0", 5_000)).await.unwrap().unwrap();
        let (a, b) = (fetch(&store, alice.id).await, fetch(&store, bob.id).await);
        let back_a = before.0.points.checked_sub(da).unwrap();
        let back_b = before.1.points.checked_sub(db_).unwrap();
        let (da2, db2) = award(back_a, back_b, PairResult::AWins);
        assert_eq!(a.points, back_a.checked_add(da2).unwrap(), "alice: g1's delta out, 1-0's in");
        assert_eq!(b.points, back_b.checked_add(db2).unwrap(), "bob");
        let total = [a.points, b.points, fetch(&store, cleo.id).await.points]
            .into_iter()
            .try_fold(Points::ZERO, |s, p| s.checked_add(p))
            .unwrap();
        assert_eq!(total, Points::ZERO, "the ladder stays zero-sum");
        assert_eq!((a.wins, a.draws, a.losses), (1, 1, 0));
        assert_eq!((b.wins, b.draws, b.losses), (0, 0, 1));

        // Removed: its award taken back, the row and its history gone.
        assert!(store.remove_ended_game("g1").await.unwrap());
        let (a, b) = (fetch(&store, alice.id).await, fetch(&store, bob.id).await);
        assert_eq!((a.points, a.wins, a.draws, a.losses), (back_a, 0, 1, 0));
        assert_eq!((b.points, b.rating, b.wins, b.losses), (Points::ZERO, glicko.initial(), 0, 0));
        assert!(store.game("g1").await.unwrap().is_none());
        assert!(store.rating_history(bob.id, 100).await.unwrap().is_empty());
        assert!(!store.remove_ended_game("g1").await.unwrap(), "gone already");
        // A live game has no result to correct.
        store.create_game(&new_game("g3", user(&alice), user(&bob), 6_000)).await.unwrap();
        let live = store.correct_game(&finish("g3", "1-0", 7_000)).await;
        assert!(matches!(live, Err(StoreError::Conflict(_))), "{live:?}");
    })
    .await;
}
