//! The one way to write a live game's log, its end, and a tournament's log: a [`Writer`],
//! fenced by the claim it was made for on a node of a cluster, unfenced on a single node.
//!
//! Each write is one statement (or one transaction) with its check: the row is still live and,
//! under a claim, its epoch is still the claim's. A write under an epoch that is no longer the
//! row's changes nothing and says so as [`Written::FencedOut`] (a fencing token: Kleppmann,
//! "How to do distributed locking", 2016), so a caller holds a writer and never asks which
//! kind of write to make, nor reads an epoch back out of an error.

use crate::{Action, Finish, LogEntry, RatingChanges, Store, StoreError};

/// What a write did, when the database did not fail.
#[must_use]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Written<T> {
    /// Written (under the writer's claim, if it has one); the write's answer.
    Done(T),
    /// Nothing written: another node has claimed the game (or tournament) since the writer's
    /// claim (see [`Store::claim_game`]). The writer's node no longer owns it, and must stop
    /// serving it.
    FencedOut,
}

impl<T> Written<T> {
    /// The answer of a write that was done; `None` if it was fenced out.
    pub fn done(self) -> Option<T> {
        match self {
            Written::Done(answer) => Some(answer),
            Written::FencedOut => None,
        }
    }
}

/// Writes the logs of games and tournaments, and the ends of games, under one claim (see
/// [`Store::writer`]). Cheap to clone: it shares its store's pool.
#[derive(Clone, Debug)]
pub struct Writer {
    store: Store,
    /// The epoch of the claim on a node of a cluster; `None` on a single node.
    epoch: Option<i64>,
}

impl Store {
    /// The writer for a game or a tournament this node serves: on a node of a cluster, under
    /// the `epoch` its claim set ([`Store::claim_game`], [`Store::claim_tournament`]), so that
    /// it writes nothing once another node has claimed it since; `None` on a single node,
    /// whose writes are not fenced.
    #[must_use]
    pub fn writer(&self, epoch: Option<i64>) -> Writer {
        Writer { store: self.clone(), epoch }
    }
}

impl Writer {
    /// The epoch of the claim this writer writes under; `None` on a single node.
    #[must_use]
    pub fn epoch(&self) -> Option<i64> {
        self.epoch
    }

    /// Appends one action to a live game's log. The action is committed (durable, see the
    /// crate docs) when this returns, so the server may then tell the players. The store
    /// commits the actions of many games together (group commit).
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the game already has an action with this `seq` or is no
    /// longer live, [`StoreError::NotFound`] if there is no such game.
    pub async fn append_action(
        &self,
        game_id: &str,
        action: &Action,
    ) -> Result<Written<()>, StoreError> {
        self.store.commit.append(game_id, self.epoch, action).await
    }

    /// Ends a live game, and for a rated game between two accounts moves their points
    /// (RULES.md §11, White as side A) and Glicko-2 ratings, in one transaction (see
    /// [`Finish`](crate::Finish) for what it records). The ladder changes made, if any, are the
    /// answer.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the game is not live (a game is finished once),
    /// [`StoreError::NotFound`] if there is no such game, [`StoreError::Database`] if the
    /// database fails.
    pub async fn finish_game(
        &self,
        finish: &Finish,
    ) -> Result<Written<Option<RatingChanges>>, StoreError> {
        self.store.finish(finish, self.epoch).await
    }

    /// Appends one entry to a tournament's log; durable when this returns.
    ///
    /// # Errors
    ///
    /// [`StoreError::Conflict`] if the log already has this `seq` (written once);
    /// [`StoreError::Database`].
    pub async fn append_tournament_log(
        &self,
        tournament_id: &str,
        entry: &LogEntry,
    ) -> Result<Written<()>, StoreError> {
        self.store.append_log(tournament_id, self.epoch, entry).await
    }
}
