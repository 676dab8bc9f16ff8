//! Engine analyses of finished games (issue 38): asked for once, queued, computed once by the
//! server's background worker, kept.

use std::fmt;

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::error::decode_error;
use crate::{Store, StoreError};

/// Where an analysis is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum AnalysisStatus {
    /// Asked for; waiting for the worker.
    Queued,
    /// The worker is searching its positions.
    Running,
    /// Computed: [`StoredAnalysis::result`] holds it.
    Done,
    /// The worker could not compute it: [`StoredAnalysis::error`] says why.
    Failed,
}

impl AnalysisStatus {
    /// The stored spelling: `queued`, `running`, `done` or `failed`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            AnalysisStatus::Queued => "queued",
            AnalysisStatus::Running => "running",
            AnalysisStatus::Done => "done",
            AnalysisStatus::Failed => "failed",
        }
    }

    fn from_db(text: &str) -> Result<AnalysisStatus, sqlx::Error> {
        match text {
            "queued" => Ok(AnalysisStatus::Queued),
            "running" => Ok(AnalysisStatus::Running),
            "done" => Ok(AnalysisStatus::Done),
            "failed" => Ok(AnalysisStatus::Failed),
            _ => Err(decode_error(format!("unknown analysis status {text:?}"))),
        }
    }
}

impl fmt::Display for AnalysisStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// One game's analysis as stored.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StoredAnalysis {
    /// The game.
    pub game_id: String,
    /// Queued, running, done or failed.
    pub status: AnalysisStatus,
    /// The search budget of each position, in nodes.
    pub nodes: i64,
    /// When it was asked for, in milliseconds since the Unix epoch.
    pub requested_at_ms: i64,
    /// When it was done or failed.
    pub finished_at_ms: Option<i64>,
    /// The analysis, in the server's encoding (opaque to the store), once done.
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
}

const COLUMNS: &str =
    "game_id, status, nodes, requested_at_ms, finished_at_ms, result, error FROM analyses";

fn from_row(row: &AnyRow) -> Result<StoredAnalysis, sqlx::Error> {
    let status: String = row.try_get(1)?;
    Ok(StoredAnalysis {
        game_id: row.try_get(0)?,
        status: AnalysisStatus::from_db(&status)?,
        nodes: row.try_get(2)?,
        requested_at_ms: row.try_get(3)?,
        finished_at_ms: row.try_get(4)?,
        result: row.try_get(5)?,
        error: row.try_get(6)?,
    })
}

impl Store {
    /// Asks for the analysis of a finished game, searching `nodes` nodes per position: queues
    /// it unless it is queued, running or done already (then nothing changes), and queues a
    /// failed one again. Returns the analysis as it now stands.
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if there is no such game, [`StoreError::Conflict`] if it is
    /// live or aborted (RULES.md §8.5: never during play; an aborted game was not played).
    pub async fn request_analysis(
        &self,
        game_id: &str,
        nodes: i64,
        at_ms: i64,
    ) -> Result<StoredAnalysis, StoreError> {
        // One statement each: only a finished game gets a row, and only one.
        sqlx::query(
            "INSERT INTO analyses (game_id, status, nodes, requested_at_ms) \
             SELECT id, 'queued', $2, $3 FROM games WHERE id = $1 AND status = 'finished' \
             ON CONFLICT (game_id) DO NOTHING",
        )
        .bind(game_id)
        .bind(nodes)
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        sqlx::query(
            "UPDATE analyses SET status = 'queued', nodes = $2, requested_at_ms = $3, \
             finished_at_ms = NULL, error = NULL WHERE game_id = $1 AND status = 'failed'",
        )
        .bind(game_id)
        .bind(nodes)
        .bind(at_ms)
        .execute(&self.pool)
        .await?;
        if let Some(analysis) = self.analysis(game_id).await? {
            return Ok(analysis);
        }
        let status = sqlx::query("SELECT status FROM games WHERE id = $1")
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Err(match status {
            None => StoreError::NotFound(format!("game {game_id:?}")),
            Some(row) => {
                let status: String = row.try_get(0)?;
                StoreError::Conflict(format!("game {game_id:?} is {status}, not finished"))
            }
        })
    }

    /// The analysis of a game, if one was asked for.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn analysis(&self, game_id: &str) -> Result<Option<StoredAnalysis>, StoreError> {
        let row = sqlx::query(&format!("SELECT {COLUMNS} WHERE game_id = $1"))
            .bind(game_id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.as_ref().map(from_row).transpose()?)
    }

    /// The analysis asked for longest ago among those queued, marked running: the worker's
    /// next job. `None` when none is queued.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn take_queued_analysis(&self) -> Result<Option<StoredAnalysis>, StoreError> {
        let row = sqlx::query(&format!(
            "SELECT {COLUMNS} WHERE status = 'queued' ORDER BY requested_at_ms, game_id LIMIT 1"
        ))
        .fetch_optional(&self.pool)
        .await?;
        let Some(mut analysis) = row.as_ref().map(from_row).transpose()? else {
            return Ok(None);
        };
        // One worker takes jobs, so nobody else moves this row between the two statements.
        sqlx::query("UPDATE analyses SET status = 'running' WHERE game_id = $1")
            .bind(&analysis.game_id)
            .execute(&self.pool)
            .await?;
        analysis.status = AnalysisStatus::Running;
        Ok(Some(analysis))
    }

    /// Stores a running analysis's result.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the analysis is not running.
    pub async fn finish_analysis(
        &self,
        game_id: &str,
        result: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.end_analysis(game_id, "done", "result", result, at_ms).await
    }

    /// Marks a running analysis failed, with the reason.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the analysis is not running.
    pub async fn fail_analysis(
        &self,
        game_id: &str,
        error: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        self.end_analysis(game_id, "failed", "error", error, at_ms).await
    }

    /// Ends a running analysis as `status`, with `text` in `column` (`result` or `error`:
    /// names from the two callers above, never from input).
    async fn end_analysis(
        &self,
        game_id: &str,
        status: &str,
        column: &str,
        text: &str,
        at_ms: i64,
    ) -> Result<(), StoreError> {
        let sql = format!(
            "UPDATE analyses SET status = $4, {column} = $2, finished_at_ms = $3 \
             WHERE game_id = $1 AND status = 'running'"
        );
        let done = sqlx::query(&sql)
            .bind(game_id)
            .bind(text)
            .bind(at_ms)
            .bind(status)
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::Conflict(format!("analysis of {game_id:?} is not running")));
        }
        Ok(())
    }

    /// Puts every running analysis back in the queue, returning how many: what a starting
    /// server does with the jobs a stopped one left half done.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn requeue_running_analyses(&self) -> Result<u64, StoreError> {
        let done = sqlx::query("UPDATE analyses SET status = 'queued' WHERE status = 'running'")
            .execute(&self.pool)
            .await?;
        Ok(done.rows_affected())
    }

    /// How many queued analyses were asked for before `requested_at_ms` (a place in the queue).
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn analyses_queued_before(&self, requested_at_ms: i64) -> Result<i64, StoreError> {
        let row = sqlx::query(
            "SELECT COUNT(*) FROM analyses WHERE status = 'queued' AND requested_at_ms < $1",
        )
        .bind(requested_at_ms)
        .fetch_one(&self.pool)
        .await?;
        Ok(row.try_get(0)?)
    }
}
