//! Runs one test body against each database: a fresh SQLite file in a temporary directory,
//! then a fresh PostgreSQL database when `ROOKERY_TEST_POSTGRES` holds an admin URL (a role
//! that may create databases). Each test creates and drops its own database, so tests run in
//! parallel. Without the variable the PostgreSQL half is skipped with a note, except under CI
//! (`CI` set), where it fails: CI must run both.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

use rookery_store::{Backend, NewGame, Player, PlayerKind, Store, StoreError, User, Written};
use sqlx::{Connection, Executor, PgConnection};

/// The variable that names the PostgreSQL admin URL.
pub const POSTGRES_VAR: &str = "ROOKERY_TEST_POSTGRES";

/// One database prepared for one test body.
pub struct TestDb {
    /// The store, migrated and empty.
    pub store: Store,
    /// Its URL, to open it again.
    pub url: String,
}

impl TestDb {
    /// A second, independent store on the same database.
    pub async fn reopen(&self) -> Store {
        Store::open(&self.url).await.expect("reopen the store")
    }
}

/// Runs `body` once per configured backend, each time on a fresh database.
///
/// A panic in the body fails the test after the database is dropped; the message names the
/// backend.
pub async fn each_backend<F, Fut>(body: F)
where
    F: Fn(TestDb) -> Fut,
    Fut: Future<Output = ()> + Send + 'static,
{
    let dir = tempfile::tempdir().expect("temporary directory");
    let url = format!("sqlite://{}", dir.path().join("rookery.db").display());
    let store = Store::open(&url).await.expect("open a fresh SQLite store");
    assert_eq!(store.backend(), Backend::Sqlite);
    assert!(dir.path().join("rookery.db-wal").exists(), "the SQLite file is in WAL mode");
    run(Backend::Sqlite, body(TestDb { store: store.clone(), url }), store).await;

    match std::env::var(POSTGRES_VAR) {
        Ok(admin) if !admin.is_empty() => {
            let db = PostgresDb::create(&admin).await;
            let store = Store::open(&db.url).await.expect("open a fresh PostgreSQL store");
            assert_eq!(store.backend(), Backend::Postgres);
            let test = body(TestDb { store: store.clone(), url: db.url.clone() });
            let outcome = tokio::spawn(test).await;
            store.close().await;
            db.drop().await;
            rethrow(Backend::Postgres, outcome);
        }
        _ if std::env::var_os("CI").is_some() => {
            panic!("{POSTGRES_VAR} is not set: CI must run the PostgreSQL half of the tests (scripts/postgres-test-server.sh)")
        }
        _ => eprintln!("note: {POSTGRES_VAR} is not set; PostgreSQL skipped, SQLite only"),
    }
}

async fn run(backend: Backend, test: impl Future<Output = ()> + Send + 'static, store: Store) {
    let outcome = tokio::spawn(test).await;
    store.close().await;
    rethrow(backend, outcome);
}

fn rethrow(backend: Backend, outcome: Result<(), tokio::task::JoinError>) {
    if let Err(e) = outcome {
        eprintln!("test failed on {backend}");
        match e.try_into_panic() {
            Ok(panic) => std::panic::resume_unwind(panic),
            Err(e) => panic!("test task on {backend} did not finish: {e}"),
        }
    }
}

/// A database created for one test through the admin URL, dropped by [`PostgresDb::drop`].
pub struct PostgresDb {
    admin: String,
    name: String,
    /// The URL of the new database.
    pub url: String,
}

impl PostgresDb {
    /// Creates a fresh database through the admin URL.
    pub async fn create(admin: &str) -> PostgresDb {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        let nanos = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.subsec_nanos());
        // Unique within this process (counter) and across runs and processes (pid, time), so
        // a database left by a killed run never collides. Only digits and underscores: the
        // name is spliced into CREATE DATABASE, which takes no bind parameters.
        let name = format!(
            "rookery_test_{}_{}_{nanos}",
            std::process::id(),
            NEXT.fetch_add(1, Ordering::Relaxed)
        );
        let mut conn = PgConnection::connect(admin).await.expect("connect to the admin URL");
        conn.execute(format!("CREATE DATABASE {name}").as_str()).await.expect("create database");
        conn.close().await.expect("close the admin connection");
        let url = with_database(admin, &name);
        PostgresDb { admin: admin.to_owned(), name, url }
    }

    /// Drops the database.
    pub async fn drop(self) {
        let mut conn = PgConnection::connect(&self.admin).await.expect("connect to the admin URL");
        conn.execute(format!("DROP DATABASE IF EXISTS {} WITH (FORCE)", self.name).as_str())
            .await
            .expect("drop the test database");
        conn.close().await.expect("close the admin connection");
    }
}

/// `url` with its database (the path) replaced by `name`, keeping user, host and parameters.
fn with_database(url: &str, name: &str) -> String {
    let (scheme, rest) = url.split_once("://").expect("a postgres:// URL");
    let (before_query, query) = match rest.split_once('?') {
        Some((before, query)) => (before, Some(query)),
        None => (rest, None),
    };
    let authority = before_query.split_once('/').map_or(before_query, |(authority, _)| authority);
    match query {
        Some(query) => format!("{scheme}://{authority}/{name}?{query}"),
        None => format!("{scheme}://{authority}/{name}"),
    }
}

#[test]
fn database_urls() {
    assert_eq!(with_database("postgres://u:p@h:5/admin", "t1"), "postgres://u:p@h:5/t1");
    assert_eq!(with_database("postgres://u@h", "t1"), "postgres://u@h/t1");
    assert_eq!(
        with_database("postgres://u@h/x?sslmode=disable", "t1"),
        "postgres://u@h/t1?sslmode=disable"
    );
}

/// The answer of a write that must have been done: a single node's (whose writer is not
/// fenced), or one under a claim that still holds.
pub fn done<T: std::fmt::Debug>(written: Result<Written<T>, StoreError>) -> T {
    match written {
        Ok(Written::Done(answer)) => answer,
        other => panic!("expected the write done, got {other:?}"),
    }
}

/// A signed-up player.
pub fn user(u: &User) -> Player {
    Player {
        kind: PlayerKind::User,
        user_id: Some(u.id),
        name: u.username.clone(),
        engine_level: None,
    }
}

/// A guest.
pub fn anonymous(name: &str) -> Player {
    Player { kind: PlayerKind::Anonymous, user_id: None, name: name.to_owned(), engine_level: None }
}

/// The engine at a level.
pub fn engine(level: u8) -> Player {
    Player {
        kind: PlayerKind::Engine,
        user_id: None,
        name: format!("Rookery level {level}"),
        engine_level: Some(level),
    }
}

/// A rated 300+2 FIDE game created at `created_at_ms`.
pub fn new_game(id: &str, white: Player, black: Player, created_at_ms: i64) -> NewGame {
    NewGame {
        id: id.to_owned(),
        white,
        black,
        rules: "fide".to_owned(),
        time_control: "300+2".to_owned(),
        rated: true,
        initial_fen: None,
        variant: rookery_core::CastlingMode::Standard,
        created_at_ms,
        start_policy: Some("abort:30000".to_owned()),
    }
}
