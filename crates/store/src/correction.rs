//! A recorded result corrected (over the board, issue 53): an ended game's §11 award taken
//! back, then made again for the right result, or the game removed when the desk undoes its
//! entry. A desk that typed `12 1-0` for a game Black won must not leave White the points.
//!
//! Taking back is exact when the game is each player's last ladder change (a typo fixed at
//! once, the usual case): the points lose the game's delta, and the Glicko-2 rating returns to
//! what it was before the game. When either player has played rated games since, the points
//! still lose exactly the game's delta (§11 awards are zero-sum, so the ladder stays
//! balanced), but the games in between keep the awards they were given from the wrong
//! standing, and the rating moves back by the game's change rather than to a stored value
//! (Glicko-2 has no exact inverse once other games followed).

use rookery_core::GameResult;
use rookery_ladder::{Glicko2, PairResult};
use sqlx::{Any, Row};

use crate::ladder::{counts, Finish, RatingChanges};
use crate::{GameStatus, Store, StoreError, UserId};

/// A game's row as a correction reads it.
struct Ended {
    rated: bool,
    white: Option<i64>,
    black: Option<i64>,
    result: Option<GameResult>,
    termination: Option<String>,
}

impl Store {
    /// Gives the ended game `finish.game_id` the result, termination, PGN and end time of
    /// `finish`: its old §11 award taken back, the new result's made (only when it counts, as
    /// at [`crate::Writer::finish_game`]). Nothing changes, and `None` is returned, when the
    /// game has that result and termination already (a restart repeats the correction).
    ///
    /// # Errors
    ///
    /// [`StoreError::NotFound`] if there is no such game, [`StoreError::Conflict`] if it is
    /// live (it has no result to correct), [`StoreError::Database`].
    pub async fn correct_game(&self, finish: &Finish) -> Result<Option<RatingChanges>, StoreError> {
        let mut tx = self.begin_write().await?;
        let ended = ended(&mut tx, &finish.game_id).await?;
        if ended.result == Some(finish.result)
            && ended.termination.as_deref() == Some(finish.termination.as_str())
        {
            tx.commit().await?;
            return Ok(None);
        }
        self.take_back(&mut tx, &finish.game_id, &ended).await?;
        let status =
            if finish.result.is_decided() { GameStatus::Finished } else { GameStatus::Aborted };
        sqlx::query(
            "UPDATE games SET status = $2, result = $3, termination = $4, pgn = $5, \
             ended_at_ms = $6 WHERE id = $1",
        )
        .bind(&finish.game_id)
        .bind(status.as_str())
        .bind(finish.result.as_str())
        .bind(&finish.termination)
        .bind(&finish.pgn)
        .bind(finish.ended_at_ms)
        .execute(&mut *tx)
        .await?;
        let changes = self.award(&mut tx, ended.rated, ended.white, ended.black, finish).await?;
        tx.commit().await?;
        Ok(changes)
    }

    /// Removes the ended game `game_id` (a board's result the desk undid), its §11 award taken
    /// back first. `false` if there was no such game.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the game is live, [`StoreError::Database`].
    pub async fn remove_ended_game(&self, game_id: &str) -> Result<bool, StoreError> {
        let mut tx = self.begin_write().await?;
        let ended = match ended(&mut tx, game_id).await {
            Ok(ended) => ended,
            Err(StoreError::NotFound(_)) => return Ok(false),
            Err(e) => return Err(e),
        };
        self.take_back(&mut tx, game_id, &ended).await?;
        // Its history, actions and analysis go with it (ON DELETE CASCADE).
        sqlx::query("DELETE FROM games WHERE id = $1").bind(game_id).execute(&mut *tx).await?;
        tx.commit().await?;
        Ok(true)
    }

    /// Takes back what the game `game_id` did to its players' standings, inside `tx`: each
    /// history row of the game undone on its player (points, rating, the win, draw or loss)
    /// and deleted. The players are locked in id order first, as an award locks them.
    async fn take_back(
        &self,
        tx: &mut sqlx::Transaction<'static, Any>,
        game_id: &str,
        game: &Ended,
    ) -> Result<(), StoreError> {
        let rows = sqlx::query(
            "SELECT id, user_id, points_delta, rating, deviation, volatility \
             FROM rating_history WHERE game_id = $1 ORDER BY id",
        )
        .bind(game_id)
        .fetch_all(&mut **tx)
        .await?;
        if rows.is_empty() {
            return Ok(());
        }
        let mut users: Vec<i64> =
            rows.iter().map(|r| r.try_get::<i64, _>(1)).collect::<Result<_, _>>()?;
        users.sort_unstable();
        users.dedup();
        for &user in &users {
            self.locked_user(tx, UserId(user)).await?;
        }
        for row in &rows {
            let id: i64 = row.try_get(0)?;
            let user: i64 = row.try_get(1)?;
            let delta: i64 = row.try_get(2)?;
            let after: f64 = row.try_get(3)?;
            let before = sqlx::query(
                "SELECT rating, deviation, volatility FROM rating_history \
                 WHERE user_id = $1 AND id < $2 ORDER BY id DESC LIMIT 1",
            )
            .bind(user)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
            let before = match before {
                Some(r) => (r.try_get::<f64, _>(0)?, r.try_get::<f64, _>(1)?, r.try_get(2)?),
                None => {
                    let initial = Glicko2::default().initial();
                    (initial.rating, initial.deviation, initial.volatility)
                }
            };
            let later: Option<i64> = sqlx::query_scalar(
                "SELECT id FROM rating_history WHERE user_id = $1 AND id > $2 LIMIT 1",
            )
            .bind(user)
            .bind(id)
            .fetch_optional(&mut **tx)
            .await?;
            let [wins, draws, losses] = score_of(game, user);
            let sql = if later.is_none() {
                // Its last change: the rating before the game, exactly.
                "UPDATE users SET points = points - $2, rating = $3, deviation = $4, \
                 volatility = $5, wins = wins - $6, draws = draws - $7, losses = losses - $8 \
                 WHERE id = $1"
            } else {
                // Games since: the rating moves back by the game's change.
                "UPDATE users SET points = points - $2, rating = rating - ($9 - $3), \
                 wins = wins - $6, draws = draws - $7, losses = losses - $8 WHERE id = $1"
            };
            sqlx::query(sql)
                .bind(user)
                .bind(delta)
                .bind(before.0)
                .bind(before.1)
                .bind(before.2)
                .bind(wins)
                .bind(draws)
                .bind(losses)
                .bind(after)
                .execute(&mut **tx)
                .await?;
        }
        sqlx::query("DELETE FROM rating_history WHERE game_id = $1")
            .bind(game_id)
            .execute(&mut **tx)
            .await?;
        Ok(())
    }
}

/// The game's row, for a correction: it must exist and have ended.
async fn ended(
    tx: &mut sqlx::Transaction<'static, Any>,
    game_id: &str,
) -> Result<Ended, StoreError> {
    let row = sqlx::query(
        "SELECT status, rated, white_user_id, black_user_id, result, termination \
         FROM games WHERE id = $1",
    )
    .bind(game_id)
    .fetch_optional(&mut **tx)
    .await?
    .ok_or_else(|| StoreError::NotFound(format!("game {game_id:?}")))?;
    let status: String = row.try_get(0)?;
    if status == GameStatus::Live.as_str() {
        return Err(StoreError::Conflict(format!(
            "game {game_id:?} is live: no result to correct"
        )));
    }
    Ok(Ended {
        rated: row.try_get::<i64, _>(1)? != 0,
        white: row.try_get(2)?,
        black: row.try_get(3)?,
        result: crate::game::result_of(row.try_get(4)?)?,
        termination: row.try_get(5)?,
    })
}

/// The win, draw or loss the game counted for `user` (`[wins, draws, losses]`), as
/// [`Store::award`] counted it ([`counts`]).
fn score_of(game: &Ended, user: i64) -> [i64; 3] {
    let Some((white, black)) = game.result.and_then(PairResult::of_white).map(counts) else {
        return [0, 0, 0];
    };
    if game.white == Some(user) {
        white
    } else {
        black
    }
}
