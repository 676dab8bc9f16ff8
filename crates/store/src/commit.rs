//! Group commit of game actions: one task writes every action waiting at that moment in one
//! statement and one transaction, then answers each caller. An action is still durable when
//! its caller hears back (the guarantee of [`Writer::append_action`]), but under load a few
//! hundred moves share one commit instead of queueing for the database's single writer one
//! by one (SQLite has one writer; every statement also crosses to sqlx's worker thread and
//! back).
//!
//! A batch that cannot be written whole (an action for a game no longer live, a duplicate
//! sequence number) is rolled back and its actions are written one by one, so each caller
//! gets its own answer.

use sqlx::AnyPool;
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
    while let Some(first) = rx.recv().await {
        batch.push(first);
        while batch.len() < MAX_BATCH {
            match rx.try_recv() {
                Ok(job) => batch.push(job),
                Err(_) => break,
            }
        }
        if batch.len() > 1 && append_many(&pool, &batch).await {
            for job in batch.drain(..) {
                let _ = job.reply.send(Ok(Written::Done(())));
            }
            continue;
        }
        for job in batch.drain(..) {
            let result = append_one(&pool, &job.game_id, job.epoch, &job.action).await;
            let _ = job.reply.send(result);
        }
    }
}

/// Writes the whole batch in one transaction, or nothing: `true` if every action was written.
async fn append_many(pool: &AnyPool, batch: &[Job]) -> bool {
    // Only placeholders are spliced into the statement; the values are bound. VALUES columns
    // are named column1… in both SQLite and PostgreSQL. A fenced action (column6 not NULL)
    // is written only under its epoch.
    let mut sql = String::from(
        "INSERT INTO actions (game_id, seq, at_ms, kind, data) \
         SELECT v.column1, v.column2, v.column3, v.column4, v.column5 FROM (VALUES ",
    );
    for i in 0..batch.len() {
        let p = PARAMETERS * i;
        if i > 0 {
            sql.push(',');
        }
        let row: Vec<String> = (1..=PARAMETERS).map(|k| format!("${}", p + k)).collect();
        sql.push_str(&format!("({})", row.join(", ")));
    }
    sql.push_str(
        ") AS v JOIN games g ON g.id = v.column1 AND g.status = 'live' \
         AND (v.column6 IS NULL OR g.epoch = v.column6)",
    );
    let Ok(mut tx) = pool.begin().await else { return false };
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
    match query.execute(&mut *tx).await {
        Ok(done) if done.rows_affected() == batch.len() as u64 => tx.commit().await.is_ok(),
        _ => {
            let _ = tx.rollback().await;
            false
        }
    }
}
