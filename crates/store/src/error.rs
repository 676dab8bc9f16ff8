//! The one error type of the store.

/// Why a [`Store`](crate::Store) operation failed.
///
/// The variants before [`StoreError::Database`] are outcomes the caller can act on (HTTP 409
/// or 404, a configuration error, a server out of reach); [`StoreError::Database`] and
/// [`StoreError::Migrate`] mean the database itself failed or holds something this version
/// cannot read, and are server errors. (A write under a stale claim is no error: it is
/// [`Written::FencedOut`](crate::Written::FencedOut).)
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// Sign-up with a name that exists already, compared without regard to case.
    #[error("username {0:?} is taken")]
    UsernameTaken(String),
    /// The named thing (a game, a user) does not exist.
    #[error("not found: {0}")]
    NotFound(String),
    /// The write contradicts what is stored: a duplicate action sequence number, an action for
    /// or a second finish of a game that is no longer live, a game id that exists already.
    #[error("conflict: {0}")]
    Conflict(String),
    /// The database URL is neither `sqlite:PATH`, `sqlite://PATH` nor `postgres://…`. The
    /// text is the URL with any password removed.
    #[error("invalid database url {0:?}: expected sqlite:PATH, sqlite://PATH or postgres://…")]
    InvalidUrl(String),
    /// The database server could not be reached: it refused the connection, or did not
    /// answer in time.
    #[error("cannot connect to the database: {reason} at {at}")]
    Unreachable {
        /// `host:port`.
        at: String,
        /// Why: `connection refused`, `no answer within 5 s` …
        reason: String,
    },
    /// The database failed, refused a value (a `CHECK` constraint), or returned a row that
    /// does not decode (such as points out of range).
    #[error("database error: {0}")]
    Database(#[from] sqlx::Error),
    /// Bringing the schema up to date failed, for instance because the database holds a
    /// migration this version does not know.
    #[error("database migration failed: {0}")]
    Migrate(#[from] sqlx::migrate::MigrateError),
}

impl StoreError {
    /// Whether the database reported a violated `UNIQUE` or primary key constraint.
    pub(crate) fn is_unique_violation(&self) -> bool {
        matches!(self, StoreError::Database(sqlx::Error::Database(e)) if e.is_unique_violation())
    }

    /// Whether the database reported a violated foreign key.
    pub(crate) fn is_foreign_key_violation(&self) -> bool {
        matches!(self, StoreError::Database(sqlx::Error::Database(e)) if e.is_foreign_key_violation())
    }
}

/// A row value that does not decode into its domain type, as sqlx reports its own.
pub(crate) fn decode_error(message: String) -> sqlx::Error {
    sqlx::Error::Decode(message.into())
}
