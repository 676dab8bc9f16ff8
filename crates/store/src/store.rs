//! Opening a database: the URL, the connection pool, the SQLite settings and the migrations.

use std::borrow::Cow;
use std::fmt;
use std::future::Future;
use std::pin::Pin;
use std::str::FromStr;

use sqlx::any::{AnyConnectOptions, AnyPoolOptions};
use sqlx::error::BoxDynError;
use sqlx::migrate::{Migration, MigrationSource, MigrationType, Migrator};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::{AnyConnection, AnyPool, ConnectOptions, Connection, Executor};

use crate::StoreError;

/// Connections in the pool. SQLite serialises writers whatever this is; readers run in
/// parallel with them under WAL.
const MAX_CONNECTIONS: u32 = 10;

/// Set on every SQLite connection (the sqlx Any driver reads only the file name and open mode
/// from the URL, so these cannot travel in the connect options).
///
/// - `synchronous = NORMAL`: under WAL a commit is durable against the process dying
///   (`kill -9`, a panic, an abort) once the call returns, because the commit is in the
///   operating system's hands; only a power loss or an operating-system crash may lose the
///   last commits, and never corrupts the file. `FULL` would add an fsync per commit.
/// - `foreign_keys = ON`: SQLite leaves them off by default.
/// - `busy_timeout = 10000`: a writer waits up to 10 s for another's write lock instead of
///   failing with "database is locked". Writes are short, so this is reached only under
///   overload.
const SQLITE_CONNECTION_PRAGMAS: &str =
    "PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON; PRAGMA busy_timeout = 10000;";

/// The database behind a [`Store`].
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Backend {
    /// A SQLite file (the default): one process, no server to run.
    Sqlite,
    /// A PostgreSQL server: several server processes may share it.
    Postgres,
}

impl Backend {
    /// The backend a database URL names, or `None`.
    ///
    /// `sqlite:PATH` and `sqlite://PATH` are SQLite; `postgres://…` and `postgresql://…` are
    /// PostgreSQL.
    #[must_use]
    pub fn of_url(url: &str) -> Option<Backend> {
        if url.starts_with("sqlite:") {
            Some(Backend::Sqlite)
        } else if url.starts_with("postgres://") || url.starts_with("postgresql://") {
            Some(Backend::Postgres)
        } else {
            None
        }
    }

    /// `sqlite` or `postgres`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Backend::Sqlite => "sqlite",
            Backend::Postgres => "postgres",
        }
    }

    /// The embedded migrations of this dialect: (version, description, SQL).
    const fn migrations(self) -> &'static [(i64, &'static str, &'static str)] {
        match self {
            Backend::Sqlite => &[
                (1, "initial", include_str!("../migrations/sqlite/0001_initial.sql")),
                (2, "start policy", include_str!("../migrations/sqlite/0002_start_policy.sql")),
                (3, "tournaments", include_str!("../migrations/sqlite/0003_tournaments.sql")),
                (
                    4,
                    "tournament counts",
                    include_str!("../migrations/sqlite/0004_tournament_counts.sql"),
                ),
                (5, "analyses", include_str!("../migrations/sqlite/0005_analyses.sql")),
                (6, "cluster", include_str!("../migrations/sqlite/0006_cluster.sql")),
                (
                    7,
                    "tournament berserk",
                    include_str!("../migrations/sqlite/0007_tournament_berserk.sql"),
                ),
                (
                    8,
                    "tournament owner",
                    include_str!("../migrations/sqlite/0008_tournament_owner.sql"),
                ),
                (9, "class accounts", include_str!("../migrations/sqlite/0009_class_accounts.sql")),
                (10, "variant", include_str!("../migrations/sqlite/0010_variant.sql")),
                (11, "knockout", include_str!("../migrations/sqlite/0011_knockout.sql")),
                (12, "teams", include_str!("../migrations/sqlite/0012_teams.sql")),
            ],
            Backend::Postgres => &[
                (1, "initial", include_str!("../migrations/postgres/0001_initial.sql")),
                (2, "start policy", include_str!("../migrations/postgres/0002_start_policy.sql")),
                (3, "tournaments", include_str!("../migrations/postgres/0003_tournaments.sql")),
                (
                    4,
                    "tournament counts",
                    include_str!("../migrations/postgres/0004_tournament_counts.sql"),
                ),
                (5, "analyses", include_str!("../migrations/postgres/0005_analyses.sql")),
                (6, "cluster", include_str!("../migrations/postgres/0006_cluster.sql")),
                (
                    7,
                    "tournament berserk",
                    include_str!("../migrations/postgres/0007_tournament_berserk.sql"),
                ),
                (
                    8,
                    "tournament owner",
                    include_str!("../migrations/postgres/0008_tournament_owner.sql"),
                ),
                (
                    9,
                    "class accounts",
                    include_str!("../migrations/postgres/0009_class_accounts.sql"),
                ),
                (10, "variant", include_str!("../migrations/postgres/0010_variant.sql")),
                (11, "knockout", include_str!("../migrations/postgres/0011_knockout.sql")),
                (12, "teams", include_str!("../migrations/postgres/0012_teams.sql")),
            ],
        }
    }
}

impl fmt::Display for Backend {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// Persistence for the chess server: accounts, sessions, games with their actions, and
/// ladder changes, in SQLite or PostgreSQL.
///
/// Cheap to clone: clones share one connection pool. Every method is one statement or one
/// transaction, and a write is committed when the method returns.
#[derive(Clone, Debug)]
pub struct Store {
    pub(crate) pool: AnyPool,
    backend: Backend,
    /// Group commit of game actions.
    pub(crate) commit: crate::commit::GroupCommit,
}

impl Store {
    /// Opens the database at `url`, creating a SQLite file if it is missing, and brings its
    /// schema up to date.
    ///
    /// `url` is `sqlite:PATH` or `sqlite://PATH` (relative paths are relative to the working
    /// directory; the directory must exist), or a PostgreSQL URL `postgres://USER:PASSWORD@HOST:PORT/DB`
    /// (the database must exist). SQLite files are put in WAL mode.
    ///
    /// # Errors
    ///
    /// [`StoreError::InvalidUrl`] for another scheme or an unreadable SQLite URL,
    /// [`StoreError::Database`] if the database cannot be reached or created, and
    /// [`StoreError::Migrate`] if the schema cannot be brought up to date.
    pub async fn open(url: &str) -> Result<Store, StoreError> {
        sqlx::any::install_default_drivers();
        let invalid = || StoreError::InvalidUrl(redact(url));
        let backend = Backend::of_url(url).ok_or_else(invalid)?;
        let options = match backend {
            Backend::Sqlite => {
                let sqlite = SqliteConnectOptions::from_str(url)
                    .map_err(|_| invalid())?
                    .create_if_missing(true);
                let options = AnyConnectOptions::from_url(&sqlite.to_url_lossy())?;
                // The journal mode belongs to the file, not the connection: set it once, before
                // the pool opens several connections that would race to change it.
                let mut conn = AnyConnection::connect_with(&options).await?;
                conn.execute("PRAGMA journal_mode = WAL").await?;
                conn.close().await?;
                options
            }
            Backend::Postgres => {
                let options = AnyConnectOptions::from_str(url).map_err(|_| invalid())?;
                check_reachable(url, &options).await?;
                options
            }
        };
        let pool = AnyPoolOptions::new()
            .max_connections(MAX_CONNECTIONS)
            // A SQLite connection is a file handle in this process: it cannot have gone stale
            // like a server's, and checking it cost a hand-over to its thread and back on
            // every use of the pool (issue 56).
            .test_before_acquire(backend == Backend::Postgres)
            .after_connect(move |conn, _meta| {
                Box::pin(async move {
                    if backend == Backend::Sqlite {
                        conn.execute(SQLITE_CONNECTION_PRAGMAS).await?;
                    }
                    Ok(())
                })
            })
            .connect_with(options)
            .await?;
        let migrator = Migrator::new(Embedded(backend)).await?;
        migrator.run(&pool).await?;
        let commit = crate::commit::GroupCommit::start(pool.clone());
        Ok(Store { pool, backend, commit })
    }

    /// A transaction that will write: on SQLite it takes the write lock before its first
    /// read (a deferred transaction that read first could not upgrade if another writer
    /// committed in between).
    pub(crate) async fn begin_write(
        &self,
    ) -> Result<sqlx::Transaction<'static, sqlx::Any>, StoreError> {
        Ok(match self.backend {
            Backend::Sqlite => self.pool.begin_with("BEGIN IMMEDIATE").await?,
            Backend::Postgres => self.pool.begin().await?,
        })
    }

    /// Which database this store uses.
    #[must_use]
    pub fn backend(&self) -> Backend {
        self.backend
    }

    /// Closes every connection, waiting for those in use to be returned. Every clone of this
    /// store is closed too; later calls fail with [`StoreError::Database`].
    pub async fn close(&self) {
        self.pool.close().await;
    }
}

/// How long the first connection to a PostgreSQL server may take before the server is
/// called unreachable.
const CONNECT_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(5);

/// Makes one connection with a short timeout before the pool opens (issue 41): the pool
/// retries a refused connection until its acquire timeout (30 s) and then says only "pool
/// timed out", where the user needs "connection refused at host:port" at once.
async fn check_reachable(url: &str, options: &AnyConnectOptions) -> Result<(), StoreError> {
    let unreachable = |reason: String| StoreError::Unreachable { at: host_port(url), reason };
    match tokio::time::timeout(CONNECT_TIMEOUT, AnyConnection::connect_with(options)).await {
        Err(_) => Err(unreachable(format!("no answer within {} s", CONNECT_TIMEOUT.as_secs()))),
        Ok(Err(sqlx::Error::Io(e))) if e.kind() == std::io::ErrorKind::ConnectionRefused => {
            Err(unreachable("connection refused".to_owned()))
        }
        Ok(Err(sqlx::Error::Io(e))) => Err(unreachable(e.to_string())),
        Ok(Err(e)) => Err(e.into()),
        Ok(Ok(conn)) => Ok(conn.close().await?),
    }
}

/// The `host:port` of a PostgreSQL URL (port 5432 when not given), for messages.
fn host_port(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, host)| host);
    if host.rsplit_once(':').is_some_and(|(_, port)| port.parse::<u16>().is_ok()) {
        host.to_owned()
    } else {
        format!("{host}:5432")
    }
}

/// The migrations of one dialect, compiled into the binary from `migrations/<dialect>/`.
#[derive(Debug)]
struct Embedded(Backend);

impl<'s> MigrationSource<'s> for Embedded {
    fn resolve(
        self,
    ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>> {
        let migrations = self
            .0
            .migrations()
            .iter()
            .map(|&(version, description, sql)| {
                Migration::new(
                    version,
                    Cow::Borrowed(description),
                    MigrationType::Simple,
                    Cow::Borrowed(sql),
                    false,
                )
            })
            .collect();
        Box::pin(async move { Ok(migrations) })
    }
}

/// The URL with the password, if any, replaced by `***`, for error messages and logs.
fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else {
        return url.to_owned();
    };
    let authority_end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
    let (authority, path) = rest.split_at(authority_end);
    match authority
        .rsplit_once('@')
        .and_then(|(userinfo, host)| userinfo.split_once(':').map(|(user, _password)| (user, host)))
    {
        Some((user, host)) => format!("{scheme}://{user}:***@{host}{path}"),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The migrations of a dialect up to a version: a database as an older server left it.
    #[derive(Debug)]
    struct Upto(Backend, i64);

    impl<'s> MigrationSource<'s> for Upto {
        fn resolve(
            self,
        ) -> Pin<Box<dyn Future<Output = Result<Vec<Migration>, BoxDynError>> + Send + 's>>
        {
            let Upto(backend, last) = self;
            Box::pin(async move {
                let all = Embedded(backend).resolve().await?;
                Ok(all.into_iter().filter(|m| m.version <= last).collect())
            })
        }
    }

    /// Issue 54: migration 11 rebuilds SQLite's `tournaments` (a CHECK cannot change in place)
    /// inside its transaction, with foreign keys on. A database with a tournament, its log and
    /// its games comes through whole: the drop cascades to no log entry, the games still name
    /// their tournament, the keys still hold, and a knockout can be stored.
    #[tokio::test]
    async fn the_knockout_migration_keeps_every_tournament_with_its_log_and_games() {
        sqlx::any::install_default_drivers();
        let dir = tempfile::tempdir().unwrap();
        let url = format!("sqlite://{}", dir.path().join("old.db").display());
        {
            let sqlite = SqliteConnectOptions::from_str(&url).unwrap().create_if_missing(true);
            let options = AnyConnectOptions::from_url(&sqlite.to_url_lossy()).unwrap();
            let pool = AnyPoolOptions::new()
                .max_connections(1)
                .after_connect(|conn, _| {
                    Box::pin(async move {
                        conn.execute(SQLITE_CONNECTION_PRAGMAS).await?;
                        Ok(())
                    })
                })
                .connect_with(options)
                .await
                .unwrap();
            Migrator::new(Upto(Backend::Sqlite, 10)).await.unwrap().run(&pool).await.unwrap();
            pool.execute(
                "INSERT INTO users (username, username_key, password_hash, created_at_ms, rating, \
                 deviation, volatility) VALUES ('a', 'a', 'x', 0, 1500, 350, 0.06); \
                 INSERT INTO tournaments (id, name, format, settings, status, created_by, \
                 created_at_ms, players, rounds_paired, owner, epoch) \
                 VALUES ('t1', 'T', 'swiss', '{}', 'running', 1, 0, 3, 1, 'n1', 4); \
                 INSERT INTO tournament_log VALUES ('t1', 0, 0, 1, 'start', '{}', NULL), \
                 ('t1', 1, 5, NULL, 'end', '{}', 'over'); \
                 INSERT INTO games (id, white_kind, white_name, black_kind, black_name, rules, \
                 time_control, rated, created_at_ms, status, tournament_id, tournament_round, \
                 tournament_board) VALUES \
                 ('g1', 'anonymous', 'w', 'anonymous', 'b', 'seed', '60+0', 0, 0, 'live', 't1', 1, 1), \
                 ('g2', 'anonymous', 'w', 'anonymous', 'b', 'seed', '60+0', 0, 0, 'live', NULL, NULL, NULL);",
            )
            .await
            .unwrap();
            let knockout =
                "INSERT INTO tournaments (id, name, format, settings, status, created_by, \
                 created_at_ms) VALUES ('t2', 'K', 'knockout', '{}', 'upcoming', 1, 0)";
            assert!(pool.execute(knockout).await.is_err(), "version 10 has no knockout");
            pool.close().await;
        }
        let store = Store::open(&url).await.unwrap();
        let count = |sql: &'static str| {
            let pool = store.pool.clone();
            async move { sqlx::query_scalar::<_, i64>(sql).fetch_one(&pool).await.unwrap() }
        };
        assert_eq!(
            count("SELECT count(*) FROM tournament_log WHERE tournament_id = 't1'").await,
            2
        );
        assert_eq!(count("SELECT count(*) FROM games WHERE tournament_id = 't1'").await, 1);
        assert_eq!(count("SELECT count(*) FROM games WHERE tournament_id IS NULL").await, 1);
        assert_eq!(count("SELECT epoch FROM tournaments WHERE id = 't1'").await, 4);
        assert_eq!(count("SELECT count(*) FROM pragma_foreign_key_check").await, 0);
        store
            .pool
            .execute(
                "INSERT INTO tournaments (id, name, format, settings, status, created_by, \
                 created_at_ms) VALUES ('t2', 'K', 'knockout', '{}', 'upcoming', 1, 0)",
            )
            .await
            .unwrap();
        // Migration 12 (team events) rebuilds the table the same way and takes both team
        // formats.
        store
            .pool
            .execute(
                "INSERT INTO tournaments (id, name, format, settings, status, created_by, \
                 created_at_ms) VALUES ('t3', 'L', 'team_swiss', '{}', 'upcoming', 1, 0), \
                 ('t4', 'R', 'team_round_robin', '{}', 'upcoming', 1, 0)",
            )
            .await
            .unwrap();
        assert_eq!(
            count("SELECT count(*) FROM tournament_log WHERE tournament_id = 't1'").await,
            2
        );
        // The keys hold still: a game cannot name a tournament that does not exist, and a
        // tournament deleted takes its log with it.
        let orphan = "INSERT INTO games (id, white_kind, white_name, black_kind, black_name, \
             rules, time_control, rated, created_at_ms, status, tournament_id) VALUES \
             ('g3', 'anonymous', 'w', 'anonymous', 'b', 'seed', '60+0', 0, 0, 'live', 'nope')";
        assert!(store.pool.execute(orphan).await.is_err());
        store
            .pool
            .execute("DELETE FROM games WHERE id = 'g1'; DELETE FROM tournaments WHERE id = 't1'")
            .await
            .unwrap();
        assert_eq!(count("SELECT count(*) FROM tournament_log").await, 0);
    }

    #[test]
    fn backends_by_url() {
        assert_eq!(Backend::of_url("sqlite:rookery.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::of_url("sqlite:///var/lib/rookery.db"), Some(Backend::Sqlite));
        assert_eq!(Backend::of_url("postgres://u@h/db"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("postgresql://u@h/db"), Some(Backend::Postgres));
        assert_eq!(Backend::of_url("mysql://u@h/db"), None);
        assert_eq!(Backend::of_url("rookery.db"), None);
    }

    #[test]
    fn host_and_port_of_a_url() {
        assert_eq!(host_port("postgres://u:p@db.example:6543/rookery"), "db.example:6543");
        assert_eq!(host_port("postgres://u@127.0.0.1/rookery?sslmode=disable"), "127.0.0.1:5432");
        assert_eq!(host_port("postgresql://localhost"), "localhost:5432");
    }

    #[test]
    fn redacts_passwords() {
        assert_eq!(redact("postgres://u:secret@h:5432/db?x=1"), "postgres://u:***@h:5432/db?x=1");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
        assert_eq!(redact("postgres://h/db"), "postgres://h/db");
        assert_eq!(redact("sqlite:a.db"), "sqlite:a.db");
    }
}
