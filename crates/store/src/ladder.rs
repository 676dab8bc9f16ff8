//! Ending games and what they do to the ladder (RULES.md §11 points, Glicko-2 ratings).

use rookery_core::GameResult;
use rookery_ladder::{award, Glicko2, PairResult, Points, Rating};
use sqlx::{Any, AnyConnection, Row};

use crate::account::{points, user_columns};
use crate::game::{non_negative, not_written};
use crate::{Backend, GameStatus, Store, StoreError, User, UserId, Written};

/// How a game ended, as [`crate::Writer::finish_game`] records it.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Finish {
    /// The game.
    pub game_id: String,
    /// The result: [`GameResult::NoResult`] (`*`) for an aborted game.
    pub result: GameResult,
    /// How it ended (the arbiter's termination, such as `checkmate`).
    pub termination: String,
    /// The PGN of the whole game.
    pub pgn: String,
    /// When it ended, in milliseconds since the Unix epoch.
    pub ended_at_ms: i64,
}

/// What one rated game did to one player.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingChange {
    /// The player.
    pub user_id: UserId,
    /// RULES.md §11 points before the game.
    pub points_before: Points,
    /// RULES.md §11 points after the game.
    pub points_after: Points,
    /// Glicko-2 rating before the game.
    pub rating_before: Rating,
    /// Glicko-2 rating after the game.
    pub rating_after: Rating,
}

impl RatingChange {
    /// The points won (positive) or lost (negative): the §11 award.
    #[must_use]
    pub fn points_delta(&self) -> Points {
        // Both values come from the database range, so their difference is in range.
        self.points_after.checked_sub(self.points_before).unwrap_or(Points::ZERO)
    }
}

/// What one rated game did to both players. The points deltas sum to zero.
#[derive(Copy, Clone, Debug, PartialEq)]
pub struct RatingChanges {
    /// White's change.
    pub white: RatingChange,
    /// Black's change.
    pub black: RatingChange,
}

/// One point of a player's ladder history: the standing right after one rated game.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPoint {
    /// The game.
    pub game_id: String,
    /// When the game ended, in milliseconds since the Unix epoch.
    pub at_ms: i64,
    /// Points after the game.
    pub points: Points,
    /// Points won (positive) or lost (negative) in the game.
    pub points_delta: Points,
    /// Glicko-2 rating after the game.
    pub rating: f64,
}

/// What one tournament's rated games did to one account's §11 points: before its first game
/// of the tournament, after its last.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct LadderSpan {
    /// The account.
    pub user_id: UserId,
    /// Points before the first of these games.
    pub points_before: Points,
    /// Points after the last.
    pub points_after: Points,
    /// Rated games of the tournament that changed them (played, not forfeits).
    pub games: u32,
}

/// Reads a user and, on PostgreSQL, locks the row until the transaction ends. On SQLite the
/// transaction holds the database's write lock already (`BEGIN IMMEDIATE`), and SQLite has no
/// row locks (nor `FOR UPDATE`), so the plain read is serialised the same way.
const SELECT_USER_SQLITE: &str = concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1");
const SELECT_USER_POSTGRES: &str =
    concat!("SELECT ", user_columns!(), " FROM users WHERE id = $1 FOR UPDATE OF users");

impl Store {
    /// Ends a live game in one transaction, only while its epoch is `epoch` if that is given
    /// ([`crate::Writer::finish_game`]), and for a rated game between two accounts moves
    /// their points (RULES.md §11, White as side A of [`award`]) and Glicko-2 ratings.
    ///
    /// The game becomes [`GameStatus::Aborted`] when `result` is `*` (no result), else
    /// [`GameStatus::Finished`]. Ladder changes are made only when the game is rated, the
    /// result is not `*` and both sides are different accounts; each player's points, rating,
    /// and wins, draws or losses are updated, one [`HistoryPoint`] is recorded per player, and
    /// the changes are returned. Any other game changes no account and returns `None`.
    ///
    /// Concurrent finishes of games that share a player are serialised: both players are read
    /// under a lock (PostgreSQL row locks taken in id order; SQLite's write lock taken at
    /// `BEGIN IMMEDIATE`), so every award starts from the points the previous one left.
    ///
    /// [`Written::FencedOut`] (and nothing written) if another node has claimed the game
    /// since the claim of `epoch`.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the game is not live (a game is finished once),
    /// [`StoreError::NotFound`] if there is no such game, [`StoreError::Database`] if the
    /// database fails.
    pub(crate) async fn finish(
        &self,
        finish: &Finish,
        epoch: Option<i64>,
    ) -> Result<Written<Option<RatingChanges>>, StoreError> {
        let mut tx = self.begin_write().await?;
        let status =
            if finish.result.is_decided() { GameStatus::Finished } else { GameStatus::Aborted };
        // The game row first: on PostgreSQL this locks it, so a second finish of the same game
        // waits here and then finds it no longer live.
        let ended = sqlx::query(
            "UPDATE games SET status = $2, result = $3, termination = $4, pgn = $5, \
             ended_at_ms = $6 WHERE id = $1 AND status = 'live' AND ($7 IS NULL OR epoch = $7) \
             RETURNING rated, white_user_id, black_user_id",
        )
        .bind(&finish.game_id)
        .bind(status.as_str())
        .bind(finish.result.as_str())
        .bind(&finish.termination)
        .bind(&finish.pgn)
        .bind(finish.ended_at_ms)
        .bind(epoch)
        .fetch_optional(&mut *tx)
        .await?;
        let Some(ended) = ended else {
            return not_written(&mut *tx, &finish.game_id, epoch).await;
        };
        let rated = ended.try_get::<i64, _>(0)? != 0;
        let white: Option<i64> = ended.try_get(1)?;
        let black: Option<i64> = ended.try_get(2)?;
        let changes = self.award(&mut tx, rated, white, black, finish).await?;
        tx.commit().await?;
        Ok(Written::Done(changes))
    }

    /// Moves both players' points and ratings for one ended game, inside `tx`, when it counts
    /// on the ladder: rated, played (`finish`'s termination), decided, between two different
    /// accounts. The history rows are stamped `finish.ended_at_ms`.
    pub(crate) async fn award(
        &self,
        tx: &mut sqlx::Transaction<'static, Any>,
        rated: bool,
        white: Option<i64>,
        black: Option<i64>,
        finish: &Finish,
    ) -> Result<Option<RatingChanges>, StoreError> {
        let result = PairResult::of_white(finish.result);
        // A game lost for a missed first move (a tournament's forfeit, RULES.md §12) was not
        // played, and one ended by a competition arbiter's declaration was not finished on
        // the board: they count in the tournament, never on the ladder.
        let played = !matches!(finish.termination.as_str(), "no_start" | "arbiter_decision");
        let (Some(white), Some(black), Some(result), true) =
            (white, black, result, rated && played)
        else {
            return Ok(None);
        };
        if white == black {
            return Ok(None);
        }

        // Lock both players in id order, so that two finishes never wait on each other.
        let (first, second) = (white.min(black), white.max(black));
        let first = self.locked_user(tx, UserId(first)).await?;
        let second = self.locked_user(tx, UserId(second)).await?;
        let (white, black) = if first.id.0 == white { (first, second) } else { (second, first) };

        let (white_delta, black_delta) = award(white.points, black.points, result);
        let (white_rating, black_rating) =
            Glicko2::default().rate_game(white.rating, black.rating, result);
        let changes = RatingChanges {
            white: change(&white, white_delta, white_rating)?,
            black: change(&black, black_delta, black_rating)?,
        };
        let (white_score, black_score) = counts(result);
        for (change, delta, [wins, draws, losses]) in
            [(&changes.white, white_delta, white_score), (&changes.black, black_delta, black_score)]
        {
            record(tx, finish, change, delta, wins, draws, losses).await?;
        }
        Ok(Some(changes))
    }

    /// A guest's side of an ended game given to an account (an over-the-board entrant linked
    /// to it; issue 53), and, if the game counts on the ladder now that both sides are
    /// accounts, the §11 award made then, from the points both have at `at_ms` (RULES.md §11:
    /// every game zero-sum, awarded in the order the links are made). Once: a side that has an
    /// account already is left as it is, and nothing is awarded (`None`).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if there is no such game; [`StoreError::Database`].
    pub async fn link_game_player(
        &self,
        game_id: &str,
        color: rookery_core::Color,
        user: UserId,
        at_ms: i64,
    ) -> Result<Option<RatingChanges>, StoreError> {
        let mut tx = self.begin_write().await?;
        let sql = match color {
            rookery_core::Color::White => {
                "UPDATE games SET white_kind = 'user', white_user_id = $2 \
                 WHERE id = $1 AND white_user_id IS NULL \
                 RETURNING rated, white_user_id, black_user_id, status, result, termination"
            }
            rookery_core::Color::Black => {
                "UPDATE games SET black_kind = 'user', black_user_id = $2 \
                 WHERE id = $1 AND black_user_id IS NULL \
                 RETURNING rated, white_user_id, black_user_id, status, result, termination"
            }
        };
        let row = sqlx::query(sql).bind(game_id).bind(user.0).fetch_optional(&mut *tx).await?;
        let Some(row) = row else {
            let exists: Option<i64> = sqlx::query_scalar("SELECT 1 FROM games WHERE id = $1")
                .bind(game_id)
                .fetch_optional(&mut *tx)
                .await?;
            tx.commit().await?;
            return match exists {
                Some(_) => Ok(None),
                None => Err(StoreError::NotFound(format!("game {game_id}"))),
            };
        };
        let rated = row.try_get::<i64, _>(0)? != 0;
        let white: Option<i64> = row.try_get(1)?;
        let black: Option<i64> = row.try_get(2)?;
        let status: String = row.try_get(3)?;
        let result = crate::game::result_of(row.try_get(4)?)?;
        let termination: Option<String> = row.try_get(5)?;
        let changes = match (status.as_str(), result, termination) {
            ("finished", Some(result), Some(termination)) => {
                let finish = Finish {
                    game_id: game_id.to_owned(),
                    result,
                    termination,
                    pgn: String::new(),
                    ended_at_ms: at_ms,
                };
                self.award(&mut tx, rated, white, black, &finish).await?
            }
            _ => None,
        };
        tx.commit().await?;
        Ok(changes)
    }

    pub(crate) async fn locked_user(
        &self,
        conn: &mut AnyConnection,
        id: UserId,
    ) -> Result<User, StoreError> {
        let sql = match self.backend() {
            Backend::Sqlite => SELECT_USER_SQLITE,
            Backend::Postgres => SELECT_USER_POSTGRES,
        };
        let row = sqlx::query(sql).bind(id.0).fetch_optional(conn).await?;
        match row {
            Some(row) => Ok(User::from_row(&row)?),
            // The foreign keys make this unreachable while accounts are never deleted.
            None => Err(StoreError::NotFound(format!("user {id}"))),
        }
    }

    /// Accounts by standing: points (descending), then rating (descending), then username
    /// (ignoring case). Every account is listed, played or not.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn leaderboard(&self, limit: i64, offset: i64) -> Result<Vec<User>, StoreError> {
        let rows = sqlx::query(concat!(
            "SELECT ",
            user_columns!(),
            " FROM users ORDER BY points DESC, rating DESC, username_key, id LIMIT $1 OFFSET $2"
        ))
        .bind(non_negative(limit))
        .bind(non_negative(offset))
        .fetch_all(&self.pool)
        .await?;
        Ok(rows.iter().map(User::from_row).collect::<Result<_, _>>()?)
    }

    /// What the tournament `tournament`'s rated games did to each account's §11 points (RULES.md
    /// §11), from the ladder's history of those games in the order they were applied: one
    /// span per account that has such a game, in account order.
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn tournament_ladder(&self, tournament: &str) -> Result<Vec<LadderSpan>, StoreError> {
        let rows = sqlx::query(
            "SELECT h.user_id, h.points, h.points_delta FROM rating_history h \
             JOIN games g ON g.id = h.game_id WHERE g.tournament_id = $1 ORDER BY h.user_id, h.id",
        )
        .bind(tournament)
        .fetch_all(&self.pool)
        .await?;
        let mut spans: Vec<LadderSpan> = Vec::new();
        for row in &rows {
            let user = UserId(row.try_get(0)?);
            let after = points(row.try_get(1)?)?;
            let delta = points(row.try_get(2)?)?;
            match spans.last_mut() {
                Some(span) if span.user_id == user => {
                    span.points_after = after;
                    span.games += 1;
                }
                _ => {
                    let before = after.checked_sub(delta).unwrap_or(after);
                    spans.push(LadderSpan {
                        user_id: user,
                        points_before: before,
                        points_after: after,
                        games: 1,
                    });
                }
            }
        }
        Ok(spans)
    }

    /// A user's last `limit` rated games as ladder history, oldest first (in the order they
    /// were applied).
    ///
    /// # Errors
    ///
    /// [`StoreError::Database`] if the database fails.
    pub async fn rating_history(
        &self,
        user: UserId,
        limit: i64,
    ) -> Result<Vec<HistoryPoint>, StoreError> {
        let rows = sqlx::query(
            "SELECT game_id, at_ms, points, points_delta, rating FROM rating_history \
             WHERE user_id = $1 ORDER BY id DESC LIMIT $2",
        )
        .bind(user.0)
        .bind(non_negative(limit))
        .fetch_all(&self.pool)
        .await?;
        let mut history = rows
            .iter()
            .map(|row| {
                Ok(HistoryPoint {
                    game_id: row.try_get(0)?,
                    at_ms: row.try_get(1)?,
                    points: points(row.try_get(2)?)?,
                    points_delta: points(row.try_get(3)?)?,
                    rating: row.try_get(4)?,
                })
            })
            .collect::<Result<Vec<_>, sqlx::Error>>()?;
        history.reverse();
        Ok(history)
    }
}

fn change(user: &User, delta: Points, rating_after: Rating) -> Result<RatingChange, StoreError> {
    let points_after = user.points.checked_add(delta).ok_or_else(|| {
        StoreError::Conflict(format!("user {} would leave the points range", user.id))
    })?;
    Ok(RatingChange {
        user_id: user.id,
        points_before: user.points,
        points_after,
        rating_before: user.rating,
        rating_after,
    })
}

/// Writes one player's new standing and its history row.
/// What a game counts in each side's wins, draws and losses: `[wins, draws, losses]` for
/// White, then for Black.
pub(crate) fn counts(result: PairResult) -> ([i64; 3], [i64; 3]) {
    match result {
        PairResult::AWins => ([1, 0, 0], [0, 0, 1]),
        PairResult::BWins => ([0, 0, 1], [1, 0, 0]),
        PairResult::Draw => ([0, 1, 0], [0, 1, 0]),
    }
}

async fn record(
    tx: &mut sqlx::Transaction<'static, Any>,
    finish: &Finish,
    change: &RatingChange,
    delta: Points,
    wins: i64,
    draws: i64,
    losses: i64,
) -> Result<(), StoreError> {
    let rating = change.rating_after;
    sqlx::query(
        "UPDATE users SET points = $2, rating = $3, deviation = $4, volatility = $5, \
         wins = wins + $6, draws = draws + $7, losses = losses + $8 WHERE id = $1",
    )
    .bind(change.user_id.0)
    .bind(change.points_after.hundredths())
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .bind(wins)
    .bind(draws)
    .bind(losses)
    .execute(&mut **tx)
    .await?;
    sqlx::query(
        "INSERT INTO rating_history (user_id, game_id, at_ms, points, points_delta, rating, \
         deviation, volatility) VALUES ($1, $2, $3, $4, $5, $6, $7, $8)",
    )
    .bind(change.user_id.0)
    .bind(&finish.game_id)
    .bind(finish.ended_at_ms)
    .bind(change.points_after.hundredths())
    .bind(delta.hundredths())
    .bind(rating.rating)
    .bind(rating.deviation)
    .bind(rating.volatility)
    .execute(&mut **tx)
    .await?;
    Ok(())
}
