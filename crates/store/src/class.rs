//! Class accounts (issue 51): accounts an organiser creates for a class or a club at once.
//!
//! Each starts at the §11 points the organiser gave and with no password (the empty hash,
//! which no log-in verifies). Its player claims it once with the printed first-log-in code,
//! choosing a password; the store keeps only a hash of the code. The organiser can list the
//! class and give a player a new code (a lost slip, a forgotten password), which ends the
//! player's sessions and password until the new code is used.

use rookery_ladder::Points;
use sqlx::Row;

use crate::account::{insert_user, user_columns, username_key, User};
use crate::{Store, StoreError, UserId};

/// One account of a class list, as [`Store::create_class_accounts`] takes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewClassAccount {
    /// The name (validated by the server).
    pub username: String,
    /// The §11 points it starts with.
    pub points: Points,
    /// The hash of its first-log-in code (the server's token hash), never the code.
    pub code_hash: String,
}

/// An account of an organiser's class.
#[derive(Clone, Debug, PartialEq)]
pub struct ClassAccount {
    /// The account.
    pub user: User,
    /// When the organiser created it (Unix ms).
    pub created_at_ms: i64,
    /// Whether its player has logged in with the code and chosen a password.
    pub claimed: bool,
    /// When its code stops working (Unix ms); meaningless once claimed.
    pub expires_at_ms: i64,
}

impl Store {
    /// Creates a class's accounts for `organiser`, all or none: one transaction.
    ///
    /// # Errors
    ///
    /// [`StoreError::UsernameTaken`] naming the first account whose name exists already (in
    /// any case, also twice in the list); nothing is created then.
    pub async fn create_class_accounts(
        &self,
        organiser: UserId,
        accounts: &[NewClassAccount],
        now_ms: i64,
        expires_at_ms: i64,
    ) -> Result<Vec<User>, StoreError> {
        let mut tx = self.begin_write().await?;
        let mut users = Vec::with_capacity(accounts.len());
        for account in accounts {
            let user = insert_user(&mut tx, &account.username, "", now_ms, account.points).await?;
            sqlx::query(
                "INSERT INTO class_accounts \
                 (user_id, organiser_id, created_at_ms, code_hash, expires_at_ms) \
                 VALUES ($1, $2, $3, $4, $5)",
            )
            .bind(user.id.0)
            .bind(organiser.0)
            .bind(now_ms)
            .bind(&account.code_hash)
            .bind(expires_at_ms)
            .execute(&mut *tx)
            .await
            .map_err(StoreError::from)
            .map_err(|e| {
                if e.is_foreign_key_violation() {
                    StoreError::NotFound(format!("user {organiser}"))
                } else {
                    e
                }
            })?;
            users.push(user);
        }
        tx.commit().await?;
        Ok(users)
    }

    /// How many class accounts `organiser` has created since `since_ms`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn class_accounts_created_since(
        &self,
        organiser: UserId,
        since_ms: i64,
    ) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar(
            "SELECT COUNT(*) FROM class_accounts WHERE organiser_id = $1 AND created_at_ms >= $2",
        )
        .bind(organiser.0)
        .bind(since_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(u64::try_from(n).unwrap_or(0))
    }

    /// The accounts `organiser` created, in the order created.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn class_accounts(&self, organiser: UserId) -> Result<Vec<ClassAccount>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            user_columns!(),
            ", class_accounts.created_at_ms, class_accounts.code_hash IS NULL, \
             class_accounts.expires_at_ms \
             FROM class_accounts JOIN users ON users.id = class_accounts.user_id \
             WHERE class_accounts.organiser_id = $1 \
             ORDER BY class_accounts.created_at_ms, users.id"
        ))
        .bind(organiser.0)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|row| {
                let claimed: bool = match row.try_get::<bool, _>(11) {
                    Ok(b) => b,
                    // SQLite answers the IS NULL as an integer.
                    Err(_) => row.try_get::<i64, _>(11)? != 0,
                };
                Ok(ClassAccount {
                    user: User::from_row(row)?,
                    created_at_ms: row.try_get(10)?,
                    claimed,
                    expires_at_ms: row.try_get(12)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Claims a class account: if `username` has the unexpired code whose hash is
    /// `code_hash`, sets its password hash and spends the code, in one transaction. `None`
    /// when the name, the code or its time does not match (the code is then unspent).
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn claim_class_account(
        &self,
        username: &str,
        code_hash: &str,
        password_hash: &str,
        now_ms: i64,
    ) -> Result<Option<User>, StoreError> {
        let mut tx = self.begin_write().await?;
        let id: Option<i64> = sqlx::query_scalar(
            "SELECT users.id FROM class_accounts JOIN users ON users.id = class_accounts.user_id \
             WHERE users.username_key = $1 AND class_accounts.code_hash = $2 \
             AND class_accounts.expires_at_ms > $3",
        )
        .bind(username_key(username))
        .bind(code_hash)
        .bind(now_ms)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(id) = id else { return Ok(None) };
        sqlx::query("UPDATE users SET password_hash = $1 WHERE id = $2")
            .bind(password_hash)
            .bind(id)
            .execute(&mut *tx)
            .await?;
        sqlx::query("UPDATE class_accounts SET code_hash = NULL WHERE user_id = $1")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        let row = sqlx::query(concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1"))
            .bind(id)
            .fetch_one(&mut *tx)
            .await?;
        let user = User::from_row(&row)?;
        tx.commit().await?;
        Ok(Some(user))
    }

    /// Gives an account of `organiser`'s class a new first-log-in code: its password and its
    /// sessions end, and the new code works until `expires_at_ms`. `None` when `username` is
    /// not an account of this organiser's class.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn renew_class_code(
        &self,
        organiser: UserId,
        username: &str,
        code_hash: &str,
        expires_at_ms: i64,
    ) -> Result<Option<User>, StoreError> {
        let mut tx = self.begin_write().await?;
        let row = sqlx::query(concat!(
            "SELECT ",
            user_columns!(),
            " FROM class_accounts JOIN users ON users.id = class_accounts.user_id \
             WHERE users.username_key = $1 AND class_accounts.organiser_id = $2"
        ))
        .bind(username_key(username))
        .bind(organiser.0)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(row) = row else { return Ok(None) };
        let user = User::from_row(&row)?;
        sqlx::query("UPDATE users SET password_hash = '' WHERE id = $1")
            .bind(user.id.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM sessions WHERE user_id = $1")
            .bind(user.id.0)
            .execute(&mut *tx)
            .await?;
        sqlx::query(
            "UPDATE class_accounts SET code_hash = $1, expires_at_ms = $2 WHERE user_id = $3",
        )
        .bind(code_hash)
        .bind(expires_at_ms)
        .bind(user.id.0)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        Ok(Some(user))
    }
}
