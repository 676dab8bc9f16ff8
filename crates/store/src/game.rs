//! Games: creation, the append-only action log, reading games back.

use std::collections::HashMap;
use std::fmt;

use rookery_core::{CastlingMode, GameResult, ParseGameResultError};
use sqlx::any::AnyRow;
use sqlx::AnyPool;
use sqlx::Row;

use crate::error::decode_error;
use crate::{Store, StoreError, UserId, Written};

/// The columns of a game row, in the order [`GameRow::from_row`] reads them.
macro_rules! game_columns {
    () => {
        "games.id, games.white_kind, games.white_user_id, games.white_name, \
         games.white_engine_level, games.black_kind, games.black_user_id, games.black_name, \
         games.black_engine_level, games.rules, games.time_control, games.rated, \
         games.initial_fen, games.created_at_ms, games.status, games.result, games.termination, \
         games.pgn, games.ended_at_ms, games.start_policy, games.tournament_id, \
         games.tournament_round, games.tournament_board, \
         (SELECT tournaments.name FROM tournaments WHERE tournaments.id = games.tournament_id), \
         games.tournament_berserk, games.variant"
    };
}

/// Who sits on one side of the board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PlayerKind {
    /// A signed-up account; [`Player::user_id`] is set.
    User,
    /// A guest without an account.
    Anonymous,
    /// The built-in engine; [`Player::engine_level`] is usually set.
    Engine,
}

impl PlayerKind {
    /// The stored spelling: `user`, `anonymous` or `engine`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            PlayerKind::User => "user",
            PlayerKind::Anonymous => "anonymous",
            PlayerKind::Engine => "engine",
        }
    }

    fn from_db(text: &str) -> Result<PlayerKind, sqlx::Error> {
        match text {
            "user" => Ok(PlayerKind::User),
            "anonymous" => Ok(PlayerKind::Anonymous),
            "engine" => Ok(PlayerKind::Engine),
            _ => Err(decode_error(format!("unknown player kind {text:?}"))),
        }
    }
}

impl fmt::Display for PlayerKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// One side of a game.
///
/// The database checks that `user_id` is set exactly when `kind` is [`PlayerKind::User`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Player {
    /// Account, guest or engine.
    pub kind: PlayerKind,
    /// The account, for [`PlayerKind::User`] only.
    pub user_id: Option<UserId>,
    /// The name shown (the username, a guest name, or the engine's name).
    pub name: String,
    /// The engine's level, for [`PlayerKind::Engine`].
    pub engine_level: Option<u8>,
}

/// A game as it starts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct NewGame {
    /// The game id, chosen by the server; unique.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The arbiter's rule set: `seed`, `fide` or `casual`.
    pub rules: String,
    /// The time control in the arbiter's text syntax, such as `300+2`.
    pub time_control: String,
    /// Whether the result moves ladder points and ratings.
    pub rated: bool,
    /// The starting position, when it is not the standard one (a Chess960 game's start).
    pub initial_fen: Option<String>,
    /// The variant, as the castling mode its moves are read in: standard chess, or Chess960
    /// (RULES.md §13), stored as `standard` or `chess960`.
    pub variant: CastlingMode,
    /// When the game was created, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// How it starts, in the arbiter's text (`abort:30000`); `None`: its clock runs from the
    /// creation.
    pub start_policy: Option<String>,
}

/// One entry of a game's action log: a move, an offer, a clock event, as the server encodes
/// it. The store keeps `kind` and `data` as they are.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// The position in the log: 0, 1, 2, … per game, each used once.
    pub seq: i64,
    /// The server's clock reading for the action, in milliseconds.
    pub at_ms: i64,
    /// What the action is (opaque to the store).
    pub kind: String,
    /// Its details (opaque to the store).
    pub data: String,
}

/// Where a game is in its life.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum GameStatus {
    /// Being played; actions may be appended.
    Live,
    /// Ended with a result (`1-0`, `0-1`, `1/2-1/2`).
    Finished,
    /// Ended without a result (`*`).
    Aborted,
}

impl GameStatus {
    /// The stored spelling: `live`, `finished` or `aborted`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            GameStatus::Live => "live",
            GameStatus::Finished => "finished",
            GameStatus::Aborted => "aborted",
        }
    }

    pub(crate) fn from_db(text: &str) -> Result<GameStatus, sqlx::Error> {
        match text {
            "live" => Ok(GameStatus::Live),
            "finished" => Ok(GameStatus::Finished),
            "aborted" => Ok(GameStatus::Aborted),
            _ => Err(decode_error(format!("unknown game status {text:?}"))),
        }
    }
}

impl fmt::Display for GameStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

/// A game as stored, with its whole action log.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StoredGame {
    /// The game id.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The rule set.
    pub rules: String,
    /// The time control.
    pub time_control: String,
    /// Whether the game is rated.
    pub rated: bool,
    /// The starting position, when it is not the standard one.
    pub initial_fen: Option<String>,
    /// The variant (see [`NewGame::variant`]); standard for every game stored before
    /// variants existed.
    pub variant: CastlingMode,
    /// When the game was created, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// Live, finished or aborted.
    pub status: GameStatus,
    /// The result once the game has ended (`*` for an aborted game).
    pub result: Option<GameResult>,
    /// How the game ended, once it has.
    pub termination: Option<String>,
    /// The PGN of the game, once it has ended.
    pub pgn: Option<String>,
    /// When the game ended, in milliseconds since the Unix epoch.
    pub ended_at_ms: Option<i64>,
    /// How it starts (see [`NewGame::start_policy`]); `None` for every game stored before
    /// start policies existed.
    pub start_policy: Option<String>,
    /// The tournament game's seat, `None` for other games.
    pub tournament: Option<TournamentSeat>,
    /// The action log, ordered by [`Action::seq`].
    pub actions: Vec<Action>,
}

/// A game without its action log, for lists.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GameSummary {
    /// The game id.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The rule set.
    pub rules: String,
    /// The time control.
    pub time_control: String,
    /// Whether the game is rated.
    pub rated: bool,
    /// The starting position, when it is not the standard one.
    pub initial_fen: Option<String>,
    /// The variant (see [`NewGame::variant`]).
    pub variant: CastlingMode,
    /// Live, finished or aborted.
    pub status: GameStatus,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
    /// How the game ended, once it has.
    pub termination: Option<String>,
    /// When the game was created, in milliseconds since the Unix epoch.
    pub created_at_ms: i64,
    /// When the game ended, in milliseconds since the Unix epoch.
    pub ended_at_ms: Option<i64>,
    /// The PGN of the game, once it has ended.
    pub pgn: Option<String>,
    /// The tournament game's seat, `None` for other games.
    pub tournament: Option<TournamentSeat>,
}

/// Every column of a game row, decoded.
struct GameRow {
    id: String,
    white: Player,
    black: Player,
    rules: String,
    time_control: String,
    rated: bool,
    initial_fen: Option<String>,
    variant: CastlingMode,
    created_at_ms: i64,
    status: GameStatus,
    result: Option<GameResult>,
    termination: Option<String>,
    pgn: Option<String>,
    ended_at_ms: Option<i64>,
    start_policy: Option<String>,
    tournament: Option<TournamentSeat>,
}

/// Where a tournament game sits: its tournament, round (`None` in an arena) and board.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct TournamentSeat {
    /// The tournament id.
    pub tournament: String,
    /// The tournament's name (read with the game; ignored when a game is created).
    pub name: String,
    /// The round.
    pub round: Option<u32>,
    /// The board (an arena's game number).
    pub board: u32,
    /// Whether its players may go berserk (an arena with berserk on).
    pub berserk: bool,
}

/// The stored spelling of a variant: `standard` or `chess960`.
const fn variant_name(mode: CastlingMode) -> &'static str {
    match mode {
        CastlingMode::Standard => "standard",
        CastlingMode::Chess960 => "chess960",
    }
}

fn variant_from_db(text: &str) -> Result<CastlingMode, sqlx::Error> {
    match text {
        "standard" => Ok(CastlingMode::Standard),
        "chess960" => Ok(CastlingMode::Chess960),
        _ => Err(decode_error(format!("unknown variant {text:?}"))),
    }
}

/// A stored result (`1-0`, `0-1`, `1/2-1/2`, `*`), read back.
pub(crate) fn result_of(text: Option<String>) -> Result<Option<GameResult>, sqlx::Error> {
    text.map(|t| t.parse().map_err(|e: ParseGameResultError| decode_error(e.to_string())))
        .transpose()
}

impl GameRow {
    /// Reads the columns of [`game_columns!`].
    fn from_row(row: &AnyRow) -> Result<GameRow, sqlx::Error> {
        let player = |first: usize| -> Result<Player, sqlx::Error> {
            let kind: String = row.try_get(first)?;
            let level: Option<i64> = row.try_get(first + 3)?;
            Ok(Player {
                kind: PlayerKind::from_db(&kind)?,
                user_id: row.try_get::<Option<i64>, _>(first + 1)?.map(UserId),
                name: row.try_get(first + 2)?,
                engine_level: level
                    .map(|l| {
                        u8::try_from(l)
                            .map_err(|_| decode_error(format!("engine level out of range: {l}")))
                    })
                    .transpose()?,
            })
        };
        let status: String = row.try_get(14)?;
        Ok(GameRow {
            id: row.try_get(0)?,
            white: player(1)?,
            black: player(5)?,
            rules: row.try_get(9)?,
            time_control: row.try_get(10)?,
            rated: row.try_get::<i64, _>(11)? != 0,
            initial_fen: row.try_get(12)?,
            variant: variant_from_db(&row.try_get::<String, _>(25)?)?,
            created_at_ms: row.try_get(13)?,
            status: GameStatus::from_db(&status)?,
            result: result_of(row.try_get(15)?)?,
            termination: row.try_get(16)?,
            pgn: row.try_get(17)?,
            ended_at_ms: row.try_get(18)?,
            start_policy: row.try_get(19)?,
            tournament: match row.try_get::<Option<String>, _>(20)? {
                None => None,
                Some(tournament) => Some(TournamentSeat {
                    tournament,
                    name: row.try_get::<Option<String>, _>(23)?.unwrap_or_default(),
                    round: row.try_get::<Option<i64>, _>(21)?.map(|r| r as u32),
                    board: row.try_get::<Option<i64>, _>(22)?.unwrap_or(0) as u32,
                    berserk: row.try_get::<i64, _>(24)? != 0,
                }),
            },
        })
    }

    fn with_actions(self, actions: Vec<Action>) -> StoredGame {
        StoredGame {
            id: self.id,
            white: self.white,
            black: self.black,
            rules: self.rules,
            time_control: self.time_control,
            rated: self.rated,
            initial_fen: self.initial_fen,
            variant: self.variant,
            created_at_ms: self.created_at_ms,
            status: self.status,
            result: self.result,
            termination: self.termination,
            pgn: self.pgn,
            ended_at_ms: self.ended_at_ms,
            start_policy: self.start_policy,
            tournament: self.tournament,
            actions,
        }
    }

    fn summary(self) -> GameSummary {
        GameSummary {
            id: self.id,
            white: self.white,
            black: self.black,
            rules: self.rules,
            time_control: self.time_control,
            rated: self.rated,
            initial_fen: self.initial_fen,
            variant: self.variant,
            status: self.status,
            result: self.result,
            termination: self.termination,
            created_at_ms: self.created_at_ms,
            ended_at_ms: self.ended_at_ms,
            pgn: self.pgn,
            tournament: self.tournament,
        }
    }
}

fn action_from_row(row: &AnyRow) -> Result<Action, sqlx::Error> {
    Ok(Action {
        seq: row.try_get(0)?,
        at_ms: row.try_get(1)?,
        kind: row.try_get(2)?,
        data: row.try_get(3)?,
    })
}

/// Why a write of a live game changed nothing: there is no such game, it is no longer live
/// (both errors), or (for a write under `epoch`) another node has claimed it since.
pub(crate) async fn not_written<'e, E, T>(
    executor: E,
    game_id: &str,
    epoch: Option<i64>,
) -> Result<Written<T>, StoreError>
where
    E: sqlx::Executor<'e, Database = sqlx::Any>,
{
    let row = sqlx::query("SELECT status, epoch FROM games WHERE id = $1")
        .bind(game_id)
        .fetch_optional(executor)
        .await?
        .ok_or_else(|| StoreError::NotFound(format!("game {game_id:?}")))?;
    let status: String = row.try_get(0)?;
    let stored: i64 = row.try_get(1)?;
    match epoch {
        Some(epoch) if epoch != stored => Ok(Written::FencedOut),
        _ => Err(StoreError::Conflict(format!("game {game_id:?} is {status}, not live"))),
    }
}

/// A `LIMIT` or `OFFSET`: PostgreSQL rejects negative values and SQLite reads them as "no
/// limit", so both read them as zero.
pub(crate) fn non_negative(n: i64) -> i64 {
    n.max(0)
}

impl Store {
    /// Stores a new live game with an empty action log.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if a game with this id exists, [`StoreError::NotFound`] if a
    /// player's account does not exist, [`StoreError::Database`] if a player's `user_id` does
    /// not match its kind.
    pub async fn create_game(&self, game: &NewGame) -> Result<(), StoreError> {
        self.insert_game(game, None).await
    }

    /// Inserts a new live game's row, with its tournament seat if it has one: the one place
    /// that writes a game's columns ([`Store::create_game`], [`Store::create_tournament_game`]).
    pub(crate) async fn insert_game(
        &self,
        game: &NewGame,
        seat: Option<&TournamentSeat>,
    ) -> Result<(), StoreError> {
        sqlx::query(
            "INSERT INTO games (id, white_kind, white_user_id, white_name, white_engine_level, \
             black_kind, black_user_id, black_name, black_engine_level, rules, time_control, \
             rated, initial_fen, created_at_ms, status, start_policy, tournament_id, \
             tournament_round, tournament_board, tournament_berserk, variant) \
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, 'live', $15, \
             $16, $17, $18, $19, $20)",
        )
        .bind(&game.id)
        .bind(game.white.kind.as_str())
        .bind(game.white.user_id.map(|u| u.0))
        .bind(&game.white.name)
        .bind(game.white.engine_level.map(i64::from))
        .bind(game.black.kind.as_str())
        .bind(game.black.user_id.map(|u| u.0))
        .bind(&game.black.name)
        .bind(game.black.engine_level.map(i64::from))
        .bind(&game.rules)
        .bind(&game.time_control)
        .bind(i64::from(game.rated))
        .bind(game.initial_fen.as_deref())
        .bind(game.created_at_ms)
        .bind(game.start_policy.as_deref())
        .bind(seat.map(|s| s.tournament.as_str()))
        .bind(seat.and_then(|s| s.round).map(i64::from))
        .bind(seat.map(|s| i64::from(s.board)))
        .bind(i64::from(seat.is_some_and(|s| s.berserk)))
        .bind(variant_name(game.variant))
        .execute(&self.pool)
        .await
        .map_err(StoreError::from)
        .map_err(|e| {
            if e.is_unique_violation() {
                StoreError::Conflict(format!("game {:?} exists", game.id))
            } else if e.is_foreign_key_violation() {
                StoreError::NotFound(format!("a player of game {:?}", game.id))
            } else {
                e
            }
        })?;
        Ok(())
    }
}

/// Appends one action in its own statement (see [`crate::Writer::append_action`]), only
/// under `epoch` if that is given.
pub(crate) async fn append_one(
    pool: &AnyPool,
    game_id: &str,
    epoch: Option<i64>,
    action: &Action,
) -> Result<Written<()>, StoreError> {
    // One statement: the insert happens only if the game is live (and still under the
    // writer's epoch) at that moment.
    let done = sqlx::query(
        "INSERT INTO actions (game_id, seq, at_ms, kind, data) \
         SELECT id, $2, $3, $4, $5 FROM games \
         WHERE id = $1 AND status = 'live' AND ($6 IS NULL OR epoch = $6)",
    )
    .bind(game_id)
    .bind(action.seq)
    .bind(action.at_ms)
    .bind(&action.kind)
    .bind(&action.data)
    .bind(epoch)
    .execute(pool)
    .await
    .map_err(StoreError::from)
    .map_err(|e| {
        if e.is_unique_violation() {
            StoreError::Conflict(format!("game {game_id:?} already has action {}", action.seq))
        } else {
            e
        }
    })?;
    if done.rows_affected() == 0 {
        return not_written(pool, game_id, epoch).await;
    }
    Ok(Written::Done(()))
}

impl Store {
    /// The game with this id and its whole action log.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn game(&self, id: &str) -> Result<Option<StoredGame>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let row = sqlx::query(concat!("SELECT ", game_columns!(), " FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&mut *tx)
            .await?;
        let Some(row) = row else {
            return Ok(None);
        };
        let game = GameRow::from_row(&row)?;
        let actions = sqlx::query(
            "SELECT seq, at_ms, kind, data FROM actions WHERE game_id = $1 ORDER BY seq",
        )
        .bind(id)
        .fetch_all(&mut *tx)
        .await?
        .iter()
        .map(action_from_row)
        .collect::<Result<Vec<_>, _>>()?;
        tx.commit().await?;
        Ok(Some(game.with_actions(actions)))
    }

    /// The game with this id without its action log: its row, with the result and the PGN
    /// record of a game that has ended (what a finished game is served from).
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn game_summary(&self, id: &str) -> Result<Option<GameSummary>, StoreError> {
        let row = sqlx::query(concat!("SELECT ", game_columns!(), " FROM games WHERE id = $1"))
            .bind(id)
            .fetch_optional(&self.pool)
            .await?;
        Ok(row.map(|row| GameRow::from_row(&row).map(GameRow::summary)).transpose()?)
    }

    /// Every live game with its action log, oldest game first: what a restarted server
    /// rebuilds its game actors from.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn live_games(&self) -> Result<Vec<StoredGame>, StoreError> {
        let mut tx = self.pool.begin().await?;
        let games = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE status = 'live' ORDER BY created_at_ms, id"
        ))
        .fetch_all(&mut *tx)
        .await?;
        let action_rows = sqlx::query(
            "SELECT actions.seq, actions.at_ms, actions.kind, actions.data, actions.game_id \
             FROM actions JOIN games ON games.id = actions.game_id \
             WHERE games.status = 'live' ORDER BY actions.game_id, actions.seq",
        )
        .fetch_all(&mut *tx)
        .await?;
        tx.commit().await?;

        let mut actions: HashMap<String, Vec<Action>> = HashMap::new();
        for row in &action_rows {
            let game_id: String = row.try_get(4)?;
            actions.entry(game_id).or_default().push(action_from_row(row)?);
        }
        games
            .iter()
            .map(|row| {
                let game = GameRow::from_row(row)?;
                let log = actions.remove(&game.id).unwrap_or_default();
                Ok(game.with_actions(log))
            })
            .collect()
    }

    /// A user's finished games (not aborted ones), newest first by end time: at most `limit`,
    /// and only those that ended before `before_ms` when given (to page through the list,
    /// pass the last `ended_at_ms` seen).
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn user_games(
        &self,
        user: UserId,
        limit: i64,
        before_ms: Option<i64>,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            game_columns!(),
            " FROM games WHERE status = 'finished' \
             AND (white_user_id = $1 OR black_user_id = $1) AND ended_at_ms < $2 \
             ORDER BY ended_at_ms DESC, id DESC LIMIT $3"
        ))
        .bind(user.0)
        .bind(before_ms.unwrap_or(i64::MAX))
        .bind(non_negative(limit))
        .fetch_all(&self.pool)
        .await?;
        Ok(summaries(&rows)?)
    }

    /// The most recently finished games on the server (not aborted ones), newest first.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn recent_games(&self, limit: i64) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries_of("status = 'finished' ORDER BY ended_at_ms DESC, id DESC", limit).await
    }

    /// The live games, newest first: on a cluster, the games every node serves (each node's
    /// actors hold only its own).
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn live_game_summaries(&self, limit: i64) -> Result<Vec<GameSummary>, StoreError> {
        self.summaries_of("status = 'live' ORDER BY created_at_ms DESC, id DESC", limit).await
    }

    /// How many games are live: on a cluster, on every node.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn count_live_games(&self) -> Result<u64, StoreError> {
        let n: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM games WHERE status = 'live'")
            .fetch_one(&self.pool)
            .await?;
        Ok(n.max(0) as u64)
    }

    async fn summaries_of(
        &self,
        condition_and_order: &'static str,
        limit: i64,
    ) -> Result<Vec<GameSummary>, StoreError> {
        let sql =
            format!("SELECT {} FROM games WHERE {condition_and_order} LIMIT $1", game_columns!());
        let rows = sqlx::query(&sql).bind(non_negative(limit)).fetch_all(&self.pool).await?;
        Ok(summaries(&rows)?)
    }
}

fn summaries(rows: &[AnyRow]) -> Result<Vec<GameSummary>, sqlx::Error> {
    rows.iter().map(|row| GameRow::from_row(row).map(GameRow::summary)).collect()
}
