//! Tournaments (issue 40): the settings row and the append-only log every tournament is
//! rebuilt from, and the link from a game to its tournament, round and board.

use std::fmt;

use sqlx::any::AnyRow;
use sqlx::Row;

use crate::error::decode_error;
use crate::{NewGame, Store, StoreError, UserId, Written};

/// Where a tournament is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum TournamentStatus {
    /// Taking entries, not started.
    Upcoming,
    /// Rounds are being played (or the arena is open).
    Running,
    /// Over.
    Finished,
    /// Called off by its arbiter.
    Cancelled,
}

impl TournamentStatus {
    /// The stored spelling.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            TournamentStatus::Upcoming => "upcoming",
            TournamentStatus::Running => "running",
            TournamentStatus::Finished => "finished",
            TournamentStatus::Cancelled => "cancelled",
        }
    }

    fn from_db(text: &str) -> Result<TournamentStatus, sqlx::Error> {
        match text {
            "upcoming" => Ok(TournamentStatus::Upcoming),
            "running" => Ok(TournamentStatus::Running),
            "finished" => Ok(TournamentStatus::Finished),
            "cancelled" => Ok(TournamentStatus::Cancelled),
            _ => Err(decode_error(format!("unknown tournament status {text:?}"))),
        }
    }
}

impl fmt::Display for TournamentStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// A tournament's row: what it is, without its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentRow {
    /// The id, chosen by the server.
    pub id: String,
    /// The name shown.
    pub name: String,
    /// `swiss`, `round_robin`, `double_round_robin` or `arena`.
    pub format: String,
    /// The settings as the server encodes them (JSON, opaque to the store).
    pub settings: String,
    /// Where it is in its life.
    pub status: TournamentStatus,
    /// Its arbiter.
    pub created_by: UserId,
    /// When it was created (Unix ms).
    pub created_at_ms: i64,
    /// When it starts (Unix ms), `None` when started by hand.
    pub starts_at_ms: Option<i64>,
}

/// One entry of a tournament's log: an action of the competition or an arbiter's decision.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEntry {
    /// Its place: 0, 1, 2 … per tournament, each used once.
    pub seq: i64,
    /// When (Unix ms).
    pub at_ms: i64,
    /// Who did it; `None` for the server.
    pub by: Option<UserId>,
    /// What (opaque to the store).
    pub kind: String,
    /// Its details (opaque to the store).
    pub data: String,
    /// The arbiter's reason, for decisions.
    pub reason: Option<String>,
}

/// A tournament with its whole log, in order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredTournament {
    /// The row.
    pub row: TournamentRow,
    /// The log, by `seq`.
    pub log: Vec<LogEntry>,
}

/// A game of a tournament as the tournament needs it back after a restart.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentGame {
    /// The game id.
    pub id: String,
    /// The round (`None` in an arena).
    pub round: Option<u32>,
    /// The board (an arena's game number).
    pub board: u32,
    /// Live, finished or aborted.
    pub status: crate::GameStatus,
    /// The result once ended.
    pub result: Option<rookery_core::GameResult>,
    /// How it ended.
    pub termination: Option<String>,
    /// The moves played so far.
    pub moves: i64,
}

/// A tournament as the list shows it: its row, its arbiter's name and its counts, without
/// its log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TournamentSummary {
    /// The row.
    pub row: TournamentRow,
    /// The arbiter's (creator's) name.
    pub created_by_name: String,
    /// Players entered (see [`Store::set_tournament_counts`]).
    pub players: u32,
    /// Rounds paired (an arena: games paired).
    pub rounds_paired: u32,
}

const ROW_COLUMNS: &str =
    "id, name, format, settings, status, created_by, created_at_ms, starts_at_ms";

fn row_of(row: &AnyRow) -> Result<TournamentRow, sqlx::Error> {
    let status: String = row.try_get(4)?;
    Ok(TournamentRow {
        id: row.try_get(0)?,
        name: row.try_get(1)?,
        format: row.try_get(2)?,
        settings: row.try_get(3)?,
        status: TournamentStatus::from_db(&status)?,
        created_by: UserId(row.try_get(5)?),
        created_at_ms: row.try_get(6)?,
        starts_at_ms: row.try_get(7)?,
    })
}

impl Store {
    /// Stores a new tournament.
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the id is taken; [`StoreError::Database`].
    pub async fn create_tournament(&self, t: &TournamentRow) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO tournaments (id, name, format, settings, status, created_by, \
             created_at_ms, starts_at_ms) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
        )
        .bind(&t.id)
        .bind(&t.name)
        .bind(&t.format)
        .bind(&t.settings)
        .bind(t.status.as_str())
        .bind(t.created_by.0)
        .bind(t.created_at_ms)
        .bind(t.starts_at_ms)
        .execute(&self.pool)
        .await
        .map_err(StoreError::from)
        .map_err(|e| {
            if e.is_unique_violation() {
                StoreError::Conflict(format!("tournament {:?} exists", t.id))
            } else {
                e
            }
        })?;
        Ok(())
    }

    /// Sets a tournament's status.
    ///
    /// # Errors
    /// [`StoreError::NotFound`]; [`StoreError::Database`].
    pub async fn set_tournament_status(
        &self,
        id: &str,
        status: TournamentStatus,
    ) -> Result<(), StoreError> {
        let done = sqlx::query("UPDATE tournaments SET status = $2 WHERE id = $1")
            .bind(id)
            .bind(status.as_str())
            .execute(&self.pool)
            .await?;
        if done.rows_affected() == 0 {
            return Err(StoreError::NotFound(format!("tournament {id:?}")));
        }
        Ok(())
    }

    /// Appends one entry to a tournament's log ([`crate::Writer::append_tournament_log`]),
    /// only while the tournament's epoch is still `epoch` if that is given (issue 39: written
    /// by the node that claimed it, in one statement with the check; see
    /// [`Store::claim_tournament`]).
    ///
    /// # Errors
    /// [`StoreError::Conflict`] if the log already has this `seq` (written once);
    /// [`StoreError::Database`].
    pub(crate) async fn append_log(
        &self,
        id: &str,
        epoch: Option<i64>,
        e: &LogEntry,
    ) -> Result<Written<()>, StoreError> {
        let insert =
            "INSERT INTO tournament_log (tournament_id, seq, at_ms, by_user, kind, data, reason)";
        let sql = match epoch {
            None => format!("{insert} VALUES ($1, $2, $3, $4, $5, $6, $7)"),
            Some(_) => format!(
                "{insert} SELECT $1, $2, $3, $4, $5, $6, $7 \
                 WHERE EXISTS (SELECT 1 FROM tournaments WHERE id = $1 AND epoch = $8)"
            ),
        };
        let mut query = sqlx::query(&sql)
            .bind(id)
            .bind(e.seq)
            .bind(e.at_ms)
            .bind(e.by.map(|u| u.0))
            .bind(&e.kind)
            .bind(&e.data)
            .bind(e.reason.as_deref());
        if let Some(epoch) = epoch {
            query = query.bind(epoch);
        }
        let done = query.execute(&self.pool).await.map_err(StoreError::from).map_err(|err| {
            if err.is_unique_violation() {
                StoreError::Conflict(format!("tournament {id:?} has a log entry {}", e.seq))
            } else {
                err
            }
        })?;
        match epoch {
            Some(_) if done.rows_affected() == 0 => Ok(Written::FencedOut),
            _ => Ok(Written::Done(())),
        }
    }

    /// A tournament with its log.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn tournament(&self, id: &str) -> Result<Option<StoredTournament>, StoreError> {
        let sql = format!("SELECT {ROW_COLUMNS} FROM tournaments WHERE id = $1");
        let Some(row) = sqlx::query(&sql).bind(id).fetch_optional(&self.pool).await? else {
            return Ok(None);
        };
        let row = row_of(&row)?;
        let log = self.tournament_log(id).await?;
        Ok(Some(StoredTournament { row, log }))
    }

    async fn tournament_log(&self, id: &str) -> Result<Vec<LogEntry>, StoreError> {
        let rows = sqlx::query(
            "SELECT seq, at_ms, by_user, kind, data, reason FROM tournament_log \
             WHERE tournament_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                Ok(LogEntry {
                    seq: r.try_get(0)?,
                    at_ms: r.try_get(1)?,
                    by: r.try_get::<Option<i64>, _>(2)?.map(UserId),
                    kind: r.try_get(3)?,
                    data: r.try_get(4)?,
                    reason: r.try_get(5)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// The tournaments not over (upcoming or running), with their logs: those the server
    /// runs actors for.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn active_tournaments(&self) -> Result<Vec<StoredTournament>, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM tournaments WHERE status IN ('upcoming', 'running') \
             ORDER BY created_at_ms"
        );
        self.tournaments_of(&sql).await
    }

    /// The tournaments a server runs actors for after a restart: those not over, and the
    /// finished ones with a game still to count (one still live, or one that ended after the
    /// tournament's last log entry, so whose result the log may lack), with their logs.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn tournaments_to_resume(&self) -> Result<Vec<StoredTournament>, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM tournaments t WHERE status IN ('upcoming', 'running') \
             OR (status = 'finished' AND EXISTS (SELECT 1 FROM games g \
               WHERE g.tournament_id = t.id AND (g.status = 'live' OR g.ended_at_ms >= \
                 (SELECT MAX(l.at_ms) FROM tournament_log l WHERE l.tournament_id = t.id)))) \
             ORDER BY created_at_ms"
        );
        self.tournaments_of(&sql).await
    }

    async fn tournaments_of(&self, sql: &str) -> Result<Vec<StoredTournament>, StoreError> {
        let rows = sqlx::query(sql).fetch_all(&self.pool).await?;
        let mut out = Vec::with_capacity(rows.len());
        for r in &rows {
            let row = row_of(r)?;
            let log = self.tournament_log(&row.id).await?;
            out.push(StoredTournament { row, log });
        }
        Ok(out)
    }

    /// The last `limit` tournaments with this status, newest first (by start, then creation).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn tournaments_with_status(
        &self,
        status: TournamentStatus,
        limit: i64,
    ) -> Result<Vec<TournamentRow>, StoreError> {
        let sql = format!(
            "SELECT {ROW_COLUMNS} FROM tournaments WHERE status = $1 \
             ORDER BY created_at_ms DESC LIMIT $2"
        );
        let rows =
            sqlx::query(&sql).bind(status.as_str()).bind(limit).fetch_all(&self.pool).await?;
        rows.iter().map(row_of).collect::<Result<_, sqlx::Error>>().map_err(StoreError::from)
    }

    /// The last `limit` tournaments with one of these statuses, newest first, as the list
    /// shows them: no log is read.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn tournament_summaries(
        &self,
        statuses: &[TournamentStatus],
        limit: i64,
    ) -> Result<Vec<TournamentSummary>, StoreError> {
        let columns = ROW_COLUMNS.split(", ").map(|c| format!("t.{c}")).collect::<Vec<_>>();
        let wanted = statuses.iter().map(|s| format!("'{}'", s.as_str())).collect::<Vec<_>>();
        let sql = format!(
            "SELECT {}, u.username, t.players, t.rounds_paired FROM tournaments t \
             JOIN users u ON u.id = t.created_by WHERE t.status IN ({}) \
             ORDER BY t.created_at_ms DESC LIMIT $1",
            columns.join(", "),
            wanted.join(", ")
        );
        let rows = sqlx::query(&sql).bind(limit).fetch_all(&self.pool).await?;
        rows.iter()
            .map(|r| {
                Ok(TournamentSummary {
                    row: row_of(r)?,
                    created_by_name: r.try_get(8)?,
                    players: r.try_get::<i64, _>(9)?.max(0) as u32,
                    rounds_paired: r.try_get::<i64, _>(10)?.max(0) as u32,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Sets the counts the list shows (players entered, rounds or arena games paired).
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn set_tournament_counts(
        &self,
        id: &str,
        players: u32,
        rounds_paired: u32,
    ) -> Result<(), StoreError> {
        sqlx::query("UPDATE tournaments SET players = $2, rounds_paired = $3 WHERE id = $1")
            .bind(id)
            .bind(i64::from(players))
            .bind(i64::from(rounds_paired))
            .execute(&self.pool)
            .await?;
        Ok(())
    }

    /// Creates a tournament's game unless a game with its id exists already (the server
    /// derives the id from the tournament, round and board, so that creating the games of a
    /// round again after a crash creates each once). `true` when this call created it.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn create_tournament_game(
        &self,
        game: &NewGame,
        seat: &crate::TournamentSeat,
    ) -> Result<bool, StoreError> {
        match self.insert_game(game, Some(seat)).await {
            Ok(()) => Ok(true),
            Err(StoreError::Conflict(_)) => Ok(false),
            Err(e) => Err(e),
        }
    }

    /// Every game of a tournament, with the number of moves each has.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn tournament_games(&self, id: &str) -> Result<Vec<TournamentGame>, StoreError> {
        let rows = sqlx::query(
            "SELECT g.id, g.tournament_round, g.tournament_board, g.status, g.result, \
             g.termination, (SELECT COUNT(*) FROM actions a WHERE a.game_id = g.id \
             AND a.kind = 'move') FROM games g WHERE g.tournament_id = $1 \
             ORDER BY g.tournament_round, g.tournament_board, g.created_at_ms",
        )
        .bind(id)
        .fetch_all(&self.pool)
        .await?;
        rows.iter()
            .map(|r| {
                let status: String = r.try_get(3)?;
                Ok(TournamentGame {
                    id: r.try_get(0)?,
                    round: r.try_get::<Option<i64>, _>(1)?.map(|x| x as u32),
                    board: r.try_get::<Option<i64>, _>(2)?.unwrap_or(0) as u32,
                    status: crate::GameStatus::from_db(&status)?,
                    result: crate::game::result_of(r.try_get(4)?)?,
                    termination: r.try_get(5)?,
                    moves: r.try_get(6)?,
                })
            })
            .collect::<Result<_, sqlx::Error>>()
            .map_err(StoreError::from)
    }

    /// Replaces the PGN record of a tournament game that is over: an over-the-board board's
    /// moves typed from its scoresheet, or their correction (issue 53). Its engine analysis,
    /// of the moves it replaces, is dropped in the same transaction. Nothing else changes: the
    /// result, the termination and the §11 points are the desk's. Unfenced, as the game's
    /// finish is (a board's game is served by no node; the tournament's actor, the only
    /// writer of its boards, decides). `false` if there is no such game that is over.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn replace_record(&self, game_id: &str, pgn: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let done = sqlx::query(
            "UPDATE games SET pgn = $2 WHERE id = $1 AND status <> 'live' \
             AND tournament_id IS NOT NULL",
        )
        .bind(game_id)
        .bind(pgn)
        .execute(&mut *tx)
        .await?;
        if done.rows_affected() != 1 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM analyses WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Deletes a live game in which no move was made (a round unpaired before it started).
    /// `true` if deleted.
    ///
    /// # Errors
    /// [`StoreError::Database`].
    pub async fn delete_unstarted_game(&self, id: &str) -> Result<bool, StoreError> {
        let mut tx = self.pool.begin().await?;
        let moves: i64 =
            sqlx::query_scalar("SELECT COUNT(*) FROM actions WHERE game_id = $1 AND kind = 'move'")
                .bind(id)
                .fetch_one(&mut *tx)
                .await?;
        if moves > 0 {
            return Ok(false);
        }
        sqlx::query("DELETE FROM actions WHERE game_id = $1").bind(id).execute(&mut *tx).await?;
        let done = sqlx::query("DELETE FROM games WHERE id = $1 AND status = 'live'")
            .bind(id)
            .execute(&mut *tx)
            .await?;
        tx.commit().await?;
        Ok(done.rows_affected() == 1)
    }
}
