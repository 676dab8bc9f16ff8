//! Group commit of game actions: one task writes every action waiting at that moment in one
//! statement and one transaction, then answers each caller. An action is still durable when
//! its caller hears back (the guarantee of [`Writer::append_action`]), but under load a few
//! hundred moves share one commit instead of queueing for the database's single writer one
//! by one (SQLite has one writer; every statement also crosses to sqlx's worker thread and
//! back).
//!
//! The batch is one statement, so one hand-over to the database's thread and one commit (a
//! statement outside a transaction is its own). It writes the actions of live games and
//! returns which it wrote; an action it did not write (its game no longer live, or the whole
//! statement refused for one duplicate sequence number) is written one by one, so that each
//! caller gets its own answer.

use std::collections::HashMap;

use sqlx::pool::PoolConnection;
use sqlx::{Any, AnyPool, Row};
use tokio::sync::{mpsc, oneshot};

use crate::game::{append_one, Action};
#[cfg(doc)]
use crate::Writer;
use crate::{StoreError, Written};

/// The most actions in one statement: [`PARAMETERS`] each, well under SQLite's 32,766.
const MAX_BATCH: usize = 512;

/// The parameters of one action in the batch statement: game, seq, time, kind, data, epoch.
const PARAMETERS: usize = 6;

struct Job {
    game_id: String,
    /// The writer's epoch for a fenced write (see `cluster.rs`), `None` for a single node.
    epoch: Option<i64>,
    action: Action,
    reply: oneshot::Sender<Result<Written<()>, StoreError>>,
}

/// The handle of the group commit task.
#[derive(Clone, Debug)]
pub(crate) struct GroupCommit {
    jobs: mpsc::Sender<Job>,
}

impl GroupCommit {
    /// Starts the group commit task on the current tokio runtime.
    pub(crate) fn start(pool: AnyPool) -> GroupCommit {
        let (jobs, rx) = mpsc::channel(4 * MAX_BATCH);
        tokio::spawn(run(pool, rx));
        GroupCommit { jobs }
    }

    /// Appends `action` to `game_id`'s log, only while the game's epoch is `epoch` if that
    /// is given; returns once it is committed.
    pub(crate) async fn append(
        &self,
        game_id: &str,
        epoch: Option<i64>,
        action: &Action,
    ) -> Result<Written<()>, StoreError> {
        let (reply, answer) = oneshot::channel();
        let job = Job { game_id: game_id.to_owned(), epoch, action: action.clone(), reply };
        let closed = || StoreError::Database(sqlx::Error::PoolClosed);
        self.jobs.send(job).await.map_err(|_| closed())?;
        answer.await.map_err(|_| closed())?
    }
}

async fn run(pool: AnyPool, mut rx: mpsc::Receiver<Job>) {
    let mut batch: Vec<Job> = Vec::with_capacity(MAX_BATCH);
    // The task's own connection, kept between batches: taking one from the pool for every
    // batch cost a hand-over to SQLite's thread and back (the pool's liveness check) besides
    // the write's own. Given back on a failure, so that a broken one is not kept.
    let mut conn: Option<PoolConnection<Any>> = None;
    // `Store::close` waits for every connection to come back: the kept one is given back when
    // the pool starts closing (it waited forever, now and then, in the store's tests).
    let closing = pool.close_event();
    tokio::pin!(closing);
    loop {
        let first = tokio::select! {
            job = rx.recv() => match job {
                Some(job) => job,
                None => break,
            },
            () = &mut closing => break,
        };
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        let written = match conn.as_mut() {
            Some(c) => append_many(c, &batch).await,
            None => match pool.acquire().await {
                Ok(mut c) => {
                    let written = append_many(&mut c, &batch).await;
                    conn = Some(c);
                    written
                }
                Err(_) => None,
            },
        };
        if written.is_none() {
            conn = None;
        }
        let written = written.unwrap_or_default();
        for (i, job) in batch.drain(..).enumerate() {
            let result = if written.get(i).copied().unwrap_or(false) {
                Ok(Written::Done(()))
            } else {
                // Not written by the batch: the one-by-one write finds out why, or writes
                // it (the batch was refused whole for another action's duplicate).
                append_one(&pool, &job.game_id, job.epoch, &job.action).await
            };
            let _ = job.reply.send(result);
        }
    }
}

/// The number of rows of the batch statement for `n` actions: the next power of two, so that
/// at most ten statements are ever prepared (and kept in the connection's statement cache);
/// the rows past `n` are empty and match no game.
fn rows_for(n: usize) -> usize {
    n.next_power_of_two().min(MAX_BATCH)
}

/// The statement that writes `rows` actions, each only to a live game (under the writer's
/// epoch, for a fenced action), and returns the `(game_id, seq)` of each action written.
fn batch_statement(rows: usize) -> String {
    // Only placeholders are spliced into the statement; the values are bound. VALUES columns
    // are named column1… in both SQLite and PostgreSQL. A fenced action (column6 not NULL)
    // is written only under its epoch.
    let mut sql = String::from(
        "INSERT INTO actions (game_id, seq, at_ms, kind, data) \
         SELECT v.column1, v.column2, v.column3, v.column4, v.column5 FROM (VALUES ",
    );
    for i in 0..rows {
        let p = PARAMETERS * i;
        if i > 0 {
            sql.push(',');
        }
        let row: Vec<String> = (1..=PARAMETERS).map(|k| format!("${}", p + k)).collect();
        sql.push_str(&format!("({})", row.join(", ")));
    }
    sql.push_str(
        ") AS v JOIN games g ON g.id = v.column1 AND g.status = 'live' \
         AND (v.column6 IS NULL OR g.epoch = v.column6) \
         RETURNING game_id, seq",
    );
    sql
}

/// Writes the batch in one statement, which is its own transaction: whether each action was
/// written, or `None` if the statement failed (then nothing was written: a duplicate
/// sequence number refuses the whole statement).
async fn append_many(conn: &mut PoolConnection<Any>, batch: &[Job]) -> Option<Vec<bool>> {
    let rows = rows_for(batch.len());
    let sql = batch_statement(rows);
    let mut query = sqlx::query(&sql);
    for job in batch {
        query = query
            .bind(job.game_id.as_str())
            .bind(job.action.seq)
            .bind(job.action.at_ms)
            .bind(job.action.kind.as_str())
            .bind(job.action.data.as_str())
            .bind(job.epoch);
    }
    for _ in batch.len()..rows {
        query = query
            .bind(None::<&str>)
            .bind(None::<i64>)
            .bind(None::<i64>)
            .bind(None::<&str>)
            .bind(None::<&str>)
            .bind(None::<i64>);
    }
    let returned = query.fetch_all(&mut **conn).await.ok()?;
    let index: HashMap<(&str, i64), usize> =
        batch.iter().enumerate().map(|(i, j)| ((j.game_id.as_str(), j.action.seq), i)).collect();
    let mut written = vec![false; batch.len()];
    for row in &returned {
        let game: String = row.try_get(0).ok()?;
        let seq: i64 = row.try_get(1).ok()?;
        if let Some(&i) = index.get(&(game.as_str(), seq)) {
            written[i] = true;
        }
    }
    Some(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_batch_is_written_by_one_of_ten_statements() {
        let sizes: std::collections::HashSet<usize> = (1..=MAX_BATCH).map(rows_for).collect();
        assert_eq!(sizes.len(), 10);
        assert!((1..=MAX_BATCH).all(|n| rows_for(n) >= n));
        assert!(batch_statement(2).contains("($7, $8, $9, $10, $11, $12)"));
    }
}
