//! Several server nodes on one database (issue 39): node leases, game ownership, and the
//! epochs that fence a stale owner's writes.
//!
//! The database holds the truth and its clock is the only one compared: a node renews its
//! lease with [`Store::heartbeat`]; a node that needs a game [`claims`](Store::claim_game) it,
//! which succeeds if nobody owns it or its owner's lease has run out, and raises the game's
//! epoch by one; every later write of that game goes through the [`Store::writer`] of that
//! epoch and changes nothing once another node has claimed it since (a fencing token:
//! Kleppmann, "How to do distributed locking", 2016). No lock is held between statements, so a node that pauses or loses the
//! network cannot block anyone, and cannot write after it has been replaced.
//!
//! A single node never calls any of this: its games keep no owner and epoch 0.

use sqlx::Row;

use crate::{Backend, Store, StoreError};

/// What a heartbeat found.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Heartbeat {
    /// The database's clock at the heartbeat, in milliseconds since the Unix epoch.
    pub now_ms: i64,
    /// The lease now runs until then (the database's clock).
    pub lease_until_ms: i64,
    /// Whether the node's previous lease had run out before this heartbeat (or the node was
    /// unknown, having [left](Store::leave_cluster)): other nodes may have claimed its games,
    /// so it must claim each again before writing (its old epochs are
    /// [fenced out](crate::Written::FencedOut) anyway).
    pub lapsed: bool,
}

/// The node that owned a game before a claim took it over.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PreviousOwner {
    /// Its node id.
    pub node: String,
    /// Its last heartbeat (the database's clock, milliseconds), if the node is still listed:
    /// the game had no owner alive from then on, at the latest, which is what a clock
    /// should credit the side to move.
    pub last_heartbeat_ms: Option<i64>,
}

/// The answer to [`Store::claim_game`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The game is the claiming node's: write under this epoch.
    Claimed {
        /// The game's new epoch.
        epoch: i64,
        /// Who owned it before, if another node did (its lease had run out).
        previous: Option<PreviousOwner>,
        /// The database's clock at the claim, in milliseconds.
        now_ms: i64,
    },
    /// Another node owns the game under a lease that has not run out.
    Owned {
        /// That node's id.
        owner: String,
    },
}

/// What a node claims.
#[derive(Clone, Copy)]
enum Owned {
    Game,
    Tournament,
}

impl Owned {
    /// Its table, its name in errors, and the statuses in which it may be claimed.
    fn sql(self) -> (&'static str, &'static str, &'static [&'static str]) {
        match self {
            Owned::Game => ("games", "game", &["live"]),
            Owned::Tournament => {
                ("tournaments", "tournament", &["upcoming", "running", "finished"])
            }
        }
    }
}

impl Backend {
    /// The database's clock, in milliseconds since the Unix epoch, as an SQL expression.
    /// PostgreSQL's `clock_timestamp()` (not `now()`, fixed for a whole transaction).
    const fn clock_ms(self) -> &'static str {
        match self {
            Backend::Sqlite => "CAST((julianday('now') - 2440587.5) * 86400000.0 AS INTEGER)",
            Backend::Postgres => "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000 AS BIGINT)",
        }
    }
}

impl Store {
    /// Renews `node`'s lease for `lease_ms` from now (the database's clock), registering the
    /// node if it is new.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn heartbeat(&self, node: &str, lease_ms: i64) -> Result<Heartbeat, StoreError> {
        let mut tx = self.begin_write().await?;
        let clock = self.backend().clock_ms();
        let now: i64 =
            sqlx::query(&format!("SELECT {clock}")).fetch_one(&mut *tx).await?.try_get(0)?;
        let previous: Option<i64> = sqlx::query("SELECT lease_until_ms FROM nodes WHERE id = $1")
            .bind(node)
            .fetch_optional(&mut *tx)
            .await?
            .map(|row| row.try_get(0))
            .transpose()?;
        let lease_until_ms = now.saturating_add(lease_ms.max(0));
        sqlx::query(
            "INSERT INTO nodes (id, started_at_ms, heartbeat_ms, lease_until_ms) \
             VALUES ($1, $2, $2, $3) \
             ON CONFLICT (id) DO UPDATE SET heartbeat_ms = $2, lease_until_ms = $3",
        )
        .bind(node)
        .bind(now)
        .bind(lease_until_ms)
        .execute(&mut *tx)
        .await?;
        tx.commit().await?;
        let lapsed = previous.is_none_or(|until| until <= now);
        Ok(Heartbeat { now_ms: now, lease_until_ms, lapsed })
    }

    /// Takes `node` out of the cluster: its lease ends and its games have no owner, so that
    /// other nodes may claim them at once (a clean shutdown; a node that dies is replaced
    /// when its lease runs out). Returns how many games it released.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn leave_cluster(&self, node: &str) -> Result<u64, StoreError> {
        let mut tx = self.begin_write().await?;
        let released = sqlx::query("UPDATE games SET owner = NULL WHERE owner = $1")
            .bind(node)
            .execute(&mut *tx)
            .await?
            .rows_affected();
        sqlx::query("UPDATE tournaments SET owner = NULL WHERE owner = $1")
            .bind(node)
            .execute(&mut *tx)
            .await?;
        sqlx::query("DELETE FROM nodes WHERE id = $1").bind(node).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(released)
    }

    /// Claims the live game `game_id` for `node`: granted if the game has no owner, is
    /// `node`'s already (a node claims again after its lease lapsed, or after a restart
    /// under the same id), or its owner's lease has run out. A grant raises the game's epoch
    /// by one, which fences every write of the previous owner.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if there is no such game, [`StoreError::Conflict`] if it is
    /// not live, [`StoreError::Database`] if the database fails.
    pub async fn claim_game(&self, game_id: &str, node: &str) -> Result<Claim, StoreError> {
        self.claim(Owned::Game, game_id, node).await
    }

    /// Claims the tournament `tournament_id` for `node`, as [`Store::claim_game`] claims a
    /// game: one node runs a tournament at a time (its pairings, its clock).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if there is no such tournament, [`StoreError::Conflict`] if it
    /// was cancelled, [`StoreError::Database`] if the database fails.
    pub async fn claim_tournament(
        &self,
        tournament_id: &str,
        node: &str,
    ) -> Result<Claim, StoreError> {
        self.claim(Owned::Tournament, tournament_id, node).await
    }

    async fn claim(&self, what: Owned, id: &str, node: &str) -> Result<Claim, StoreError> {
        let clock = self.backend().clock_ms();
        let (table, noun, claimable) = what.sql();
        loop {
            let mut tx = self.begin_write().await?;
            let row = sqlx::query(&format!(
                "SELECT g.status, g.owner, g.epoch, n.heartbeat_ms, n.lease_until_ms, {clock} \
                 FROM {table} g LEFT JOIN nodes n ON n.id = g.owner WHERE g.id = $1"
            ))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
            let Some(row) = row else {
                return Err(StoreError::NotFound(format!("{noun} {id:?}")));
            };
            let status: String = row.try_get(0)?;
            if !claimable.contains(&status.as_str()) {
                return Err(StoreError::Conflict(format!("{noun} {id:?} is {status}")));
            }
            let owner: Option<String> = row.try_get(1)?;
            let epoch: i64 = row.try_get(2)?;
            let heartbeat_ms: Option<i64> = row.try_get(3)?;
            let lease_until_ms: Option<i64> = row.try_get(4)?;
            let now_ms: i64 = row.try_get(5)?;
            let previous = match owner {
                Some(owner) if owner != node => {
                    if lease_until_ms.is_some_and(|until| until > now_ms) {
                        return Ok(Claim::Owned { owner });
                    }
                    Some(PreviousOwner { node: owner, last_heartbeat_ms: heartbeat_ms })
                }
                _ => None,
            };
            // Compare and set on the epoch: of two nodes claiming at once, one wins, and the
            // other reads the row again and finds it owned.
            let claimed = sqlx::query(&format!(
                "UPDATE {table} SET owner = $2, epoch = epoch + 1 \
                 WHERE id = $1 AND epoch = $3 AND status = $4 RETURNING epoch"
            ))
            .bind(id)
            .bind(node)
            .bind(epoch)
            .bind(&status)
            .fetch_optional(&mut *tx)
            .await?;
            tx.commit().await?;
            if let Some(row) = claimed {
                return Ok(Claim::Claimed { epoch: row.try_get(0)?, previous, now_ms });
            }
        }
    }

    /// Gives up `node`'s claim on `game_id` if it still holds it under `epoch` (a node that
    /// hands a game over, or stops serving it). Returns whether it did.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn release_game(
        &self,
        game_id: &str,
        node: &str,
        epoch: i64,
    ) -> Result<bool, StoreError> {
        let done = sqlx::query(
            "UPDATE games SET owner = NULL WHERE id = $1 AND owner = $2 AND epoch = $3",
        )
        .bind(game_id)
        .bind(node)
        .bind(epoch)
        .execute(&self.pool)
        .await?;
        Ok(done.rows_affected() == 1)
    }

    /// The owner of a game and its epoch, as stored (`None` for no owner).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if there is no such game, [`StoreError::Database`] if the
    /// database fails.
    pub async fn game_owner(&self, game_id: &str) -> Result<(Option<String>, i64), StoreError> {
        let row = sqlx::query("SELECT owner, epoch FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?
            .ok_or_else(|| StoreError::NotFound(format!("game {game_id:?}")))?;
        Ok((row.try_get(0)?, row.try_get(1)?))
    }
}
