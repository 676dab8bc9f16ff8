//! Accounts and login sessions.

use std::fmt;

use rookery_ladder::{Glicko2, Level, Points, Rating};
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::error::decode_error;
use crate::{Store, StoreError};

/// The columns of a [`User`], in the order [`User::from_row`] reads them. A macro, so that
/// every statement is one literal built by `concat!` at compile time.
macro_rules! user_columns {
    () => {
        "users.id, users.username, users.created_at_ms, users.points, users.rating, \
         users.deviation, users.volatility, users.wins, users.draws, users.losses"
    };
}
pub(crate) use user_columns;

/// The id of an account, assigned by the database at sign-up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct UserId(pub i64);

impl fmt::Display for UserId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&self.0, f)
    }
}

/// An account with its ladder standing.
#[derive(Clone, Debug, PartialEq)]
pub struct User {
    /// The account id.
    pub id: UserId,
    /// The name as typed at sign-up (names are unique without regard to case).
    pub username: String,
    /// When the account was created, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// RULES.md §11 points; an account starts at zero, a class account at the points of the
    /// level its organiser gave.
    pub points: Points,
    /// Glicko-2 rating, shown beside the points; starts at [`Glicko2::initial`].
    pub rating: Rating,
    /// Rated games won.
    pub wins: i64,
    /// Rated games drawn.
    pub draws: i64,
    /// Rated games lost.
    pub losses: i64,
}

impl User {
    /// The ladder level read from the points (RULES.md §11).
    #[must_use]
    pub fn level(&self) -> Level {
        Level::of(self.points)
    }

    /// Rated games played.
    #[must_use]
    pub fn games(&self) -> i64 {
        self.wins + self.draws + self.losses
    }

    /// Reads the columns of [`user_columns!`].
    pub(crate) fn from_row(row: &AnyRow) -> Result<User, sqlx::Error> {
        Ok(User {
            id: UserId(row.try_get(0)?),
            username: row.try_get(1)?,
            created_at_ms: row.try_get(2)?,
            points: points(row.try_get(3)?)?,
            rating: Rating::new(row.try_get(4)?, row.try_get(5)?, row.try_get(6)?),
            wins: row.try_get(7)?,
            draws: row.try_get(8)?,
            losses: row.try_get(9)?,
        })
    }
}

/// Points from a stored count of hundredths.
pub(crate) fn points(hundredths: i64) -> Result<Points, sqlx::Error> {
    Points::from_hundredths(hundredths)
        .ok_or_else(|| decode_error(format!("points out of range: {hundredths} hundredths")))
}

/// The key that makes usernames unique without regard to case.
pub(crate) fn username_key(username: &str) -> String {
    username.to_lowercase()
}

/// Inserts an account with `points` and the initial Glicko-2 rating, on `conn` (a pooled
/// connection, or a transaction's).
///
/// # Errors
///
/// [`StoreError::UsernameTaken`] if an account of that name exists in any case.
pub(crate) async fn insert_user(
    conn: &mut sqlx::AnyConnection,
    username: &str,
    password_hash: &str,
    now_ms: i64,
    points: Points,
) -> Result<User, StoreError> {
    let initial = Glicko2::default().initial();
    let row = sqlx::query(concat!(
        "INSERT INTO users (username, username_key, password_hash, created_at_ms, points, \
         rating, deviation, volatility, wins, draws, losses) \
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 0, 0, 0) RETURNING ",
        user_columns!()
    ))
    .bind(username)
    .bind(username_key(username))
    .bind(password_hash)
    .bind(now_ms)
    .bind(points.hundredths())
    .bind(initial.rating)
    .bind(initial.deviation)
    .bind(initial.volatility)
    .fetch_one(conn)
    .await
    .map_err(StoreError::from)
    .map_err(|e| {
        if e.is_unique_violation() {
            StoreError::UsernameTaken(username.to_owned())
        } else {
            e
        }
    })?;
    Ok(User::from_row(&row)?)
}

impl Store {
    /// Creates an account with zero points and the initial Glicko-2 rating.
    ///
    /// The server validates `username` (its length and characters) before; the store only
    /// keeps it unique without regard to case (Unicode lowercase).
    ///
    /// # Errors
    ///
    /// [`StoreError::UsernameTaken`] if an account of that name exists in any case.
    pub async fn create_user(
        &self,
        username: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> Result<User, StoreError> {
        let mut conn = self.pool.acquire().await?;
        insert_user(&mut conn, username, password_hash, now_ms, Points::ZERO).await
    }

    /// The account with this id.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn user(&self, id: UserId) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1"))
            .bind(id.0)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(User::from_row).transpose()?)
    }

    /// The account of this name, in any case.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn user_by_name(&self, username: &str) -> Result<Option<User>, StoreError> {
        let row =
            sqlx::query(concat!("SELECT ", user_columns!(), " FROM users WHERE username_key = $1"))
                .bind(username_key(username))
                .fetch_optional(&self.pool)
                .await?;
        Ok(row.as_ref().map(User::from_row).transpose()?)
    }

    /// The id and stored password hash of the account of this name (in any case), for login.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn password_hash(
        &self,
        username: &str,
    ) -> Result<Option<(UserId, String)>, StoreError> {
        let row = sqlx::query("SELECT id, password_hash FROM users WHERE username_key = $1")
            .bind(username_key(username))
            .fetch_optional(&self.pool)
            .await?;
        match row {
            Some(row) => Ok(Some((UserId(row.try_get(0)?), row.try_get(1)?))),
            None => Ok(None),
        }
    }

    /// Records a login session. The store keeps only a hash of the token, never the token.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if the user does not exist, [`StoreError::Conflict`] if a
    /// session with this token hash exists.
    pub async fn create_session(
        &self,
        token_hash: &str,
        user: UserId,
        now_ms: i64,
        expires_ms: i64,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO sessions (token_hash, user_id, created_at_ms, expires_at_ms) \
             VALUES ($1, $2, $3, $4)",
        )
        .bind(token_hash)
        .bind(user.0)
        .bind(now_ms)
        .bind(expires_ms)
        .execute(&self.pool)
        .await
        .map_err(StoreError::from)
        .map_err(|e| {
            if e.is_foreign_key_violation() {
                StoreError::NotFound(format!("user {user}"))
            } else if e.is_unique_violation() {
                StoreError::Conflict("a session with this token exists".to_owned())
            } else {
                e
            }
        })?;
        Ok(())
    }

    /// The user of a session that has not expired: `None` for an unknown token or when
    /// `now_ms` has reached the expiry time.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn session_user(
        &self,
        token_hash: &str,
        now_ms: i64,
    ) -> Result<Option<User>, StoreError> {
        let row = sqlx::query(concat!(
            "SELECT ",
            user_columns!(),
            " FROM sessions JOIN users ON users.id = sessions.user_id \
             WHERE sessions.token_hash = $1 AND sessions.expires_at_ms > $2"
        ))
        .bind(token_hash)
        .bind(now_ms)
        .fetch_optional(&self.pool)
        .await?;
        Ok(row.as_ref().map(User::from_row).transpose()?)
    }

    /// Ends a session (logout). Deleting an unknown session is not an error.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn delete_session(&self, token_hash: &str) -> Result<(), StoreError> {
        sqlx::query("DELETE FROM sessions WHERE token_hash = $1")
            .bind(token_hash)
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Deletes every session expired at `now_ms` and returns how many there were.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn delete_expired_sessions(&self, now_ms: i64) -> Result<u64, StoreError> {
        let done = sqlx::query("DELETE FROM sessions WHERE expires_at_ms <= $1")
            .bind(now_ms)
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }
}
