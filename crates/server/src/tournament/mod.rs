//! Tournaments (RULES.md §12, issue 40): one actor (a tokio task) per tournament that is not
//! over, like a live game's; its state is the fold of its stored log, so a restart rebuilds
//! it and creates whatever games a crash left uncreated, each once (their ids are derived
//! from the tournament, round and board).
//!
//! - [`settings`]: the creation request and the stored settings.
//! - [`log`]: the log's entries.
//! - `book`: the state, the fold of the log.
//! - `actor`: the actor: joins, pairings, games, results, the arbiter's decisions.
//! - `view`: the JSON views and the exports (TRF, PGN, CSV, HTML).
//! - `api`: the HTTP handlers and the socket.

mod actor;
pub mod api;
mod book;
pub mod log;
pub mod settings;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_arbiter::Outcome;
use rookery_store::UserId;
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::error::ApiError;
use crate::protocol::GameId;
use crate::state::AppState;

pub use actor::Op;

/// Who asks.
#[derive(Clone, Debug)]
pub struct Who {
    /// The account.
    pub user_id: UserId,
    /// Its name.
    pub name: String,
    /// Its points, for the entry conditions.
    pub points: rookery_ladder::Points,
    /// Its rating, for the ranking list.
    pub rating: u16,
}

/// Messages to a tournament's actor.
pub enum Command {
    /// A request; the answer is the tournament's view or a refusal.
    Request {
        /// Who asks (`None`: anyone).
        who: Option<Who>,
        /// What.
        op: Op,
        /// The answer.
        reply: oneshot::Sender<Result<Value, ApiError>>,
    },
    /// A game of the tournament ended.
    GameEnded {
        /// The game.
        game: GameId,
        /// How.
        outcome: Outcome,
        /// Its length.
        plies: u32,
    },
    /// A game of the tournament had its first move (a board has started).
    GameStarted {
        /// The game.
        game: GameId,
    },
    /// A socket subscribes: the view and the `clock` now, and the updates.
    Subscribe {
        /// The answer.
        reply: oneshot::Sender<(Value, Value, broadcast::Receiver<Update>)>,
    },
}

/// A message of the tournament socket and who it is for.
#[derive(Clone, Debug)]
pub struct Update {
    /// The player it is meant for (`your_game`), by account name; `None`: everyone.
    pub to: Option<String>,
    /// The JSON text.
    pub text: Arc<str>,
}

impl Update {
    /// Whether the visitor named `name` receives it.
    pub fn is_for(&self, name: &str) -> bool {
        self.to.as_deref().is_none_or(|to| to.eq_ignore_ascii_case(name))
    }
}

/// A stub for one tournament's actor.
#[derive(Clone)]
pub struct TournamentHandle {
    tx: mpsc::Sender<Command>,
}

impl TournamentHandle {
    /// Asks the actor.
    ///
    /// # Errors
    /// The actor's refusal, or `Internal` when it has ended.
    pub async fn request(&self, who: Option<Who>, op: Op) -> Result<Value, ApiError> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Command::Request { who, op, reply }).await.is_err() {
            return Err(ApiError::Internal("the tournament's actor has ended".into()));
        }
        rx.await.map_err(|_| ApiError::Internal("the tournament's actor has ended".into()))?
    }

    /// Subscribes to the updates.
    pub async fn subscribe(&self) -> Option<(Value, Value, broadcast::Receiver<Update>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Subscribe { reply }).await.ok()?;
        rx.await.ok()
    }
}

/// A tournament no actor runs (finished or cancelled), folded from the store once and kept:
/// reads are served from here, not rebuilt from the log each time.
pub struct Finished {
    /// The tournament.
    pub tour: book::Tour,
    /// Its view.
    pub view: Value,
}

/// How many finished tournaments are kept folded (the list shows the last 50).
const FINISHED_KEPT: usize = 256;

/// The finished tournaments kept, and their ids, the first read first.
#[derive(Default)]
struct FinishedKept {
    by_id: HashMap<String, Arc<Finished>>,
    order: std::collections::VecDeque<String>,
}

/// The running tournaments, and the finished ones read lately.
#[derive(Default)]
pub struct Tournaments {
    actors: Mutex<HashMap<String, TournamentHandle>>,
    finished: Mutex<FinishedKept>,
    /// Held while a finished tournament's actor is started again, so that it gets one.
    reviving: tokio::sync::Mutex<()>,
}

impl Tournaments {
    /// The actor of `id`, if it runs.
    pub fn get(&self, id: &str) -> Option<TournamentHandle> {
        self.actors.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    fn insert(&self, id: String, handle: TournamentHandle) {
        self.actors.lock().unwrap_or_else(|e| e.into_inner()).insert(id, handle);
    }

    pub(crate) fn remove(&self, id: &str) {
        self.actors.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// A tournament without an actor, folded from the store at the first read and kept
    /// (the oldest read first forgotten beyond [`FINISHED_KEPT`]). `None` if it does not exist.
    ///
    /// # Errors
    /// A store failure, or a log that does not fold.
    pub async fn finished(
        &self,
        state: &Arc<AppState>,
        id: &str,
    ) -> Result<Option<Arc<Finished>>, ApiError> {
        if let Some(f) = self.finished.lock().unwrap_or_else(|e| e.into_inner()).by_id.get(id) {
            return Ok(Some(f.clone()));
        }
        let Some(stored) = state.store.tournament(id).await? else { return Ok(None) };
        let tour = actor::Actor::rebuild(state.clone(), stored).await?.into_tour();
        let view = tour.view();
        let f = Arc::new(Finished { tour, view });
        let mut cache = self.finished.lock().unwrap_or_else(|e| e.into_inner());
        if cache.by_id.insert(id.to_owned(), f.clone()).is_none() {
            cache.order.push_back(id.to_owned());
        }
        while cache.order.len() > FINISHED_KEPT {
            if let Some(old) = cache.order.pop_front() {
                cache.by_id.remove(&old);
            }
        }
        Ok(Some(f))
    }

    /// Tells a tournament that one of its games ended. A finished tournament whose actor is
    /// gone (a restart) gets one again: a game still played when it ended counts when it
    /// ends (api.md, `end`). If that fails the result is picked up from the store when the
    /// tournament is next rebuilt.
    pub async fn game_ended(
        &self,
        state: &Arc<AppState>,
        tournament: &str,
        game: GameId,
        outcome: Outcome,
        plies: u32,
    ) {
        match self.handle(state, tournament).await {
            Ok(Some(h)) => {
                let _ = h.tx.send(Command::GameEnded { game, outcome, plies }).await;
            }
            Ok(None) => {}
            Err(e) => {
                tracing::warn!(tournament, game = %game, error = %e, "result not passed on")
            }
        }
    }

    /// Tells a tournament that one of its games had its first move. Never waits: a game's
    /// actor must not block on a tournament's that may be waiting on it; a notice lost to a
    /// full queue only leaves the view's `started` behind (the unpairing checks the store).
    pub fn game_started(&self, tournament: &str, game: GameId) {
        if let Some(h) = self.get(tournament) {
            let _ = h.tx.try_send(Command::GameStarted { game });
        }
    }

    /// The actor of a tournament that may still act: a running one's, or a finished one's,
    /// started again from the store if it has none (after a restart), so that a late game's
    /// result and the arbiter's corrections still reach it. `None` for an unknown or
    /// cancelled tournament.
    ///
    /// # Errors
    /// A store failure, or a log that does not fold.
    pub async fn handle(
        &self,
        state: &Arc<AppState>,
        id: &str,
    ) -> Result<Option<TournamentHandle>, ApiError> {
        if let Some(h) = self.get(id) {
            return Ok(Some(h));
        }
        let _one = self.reviving.lock().await;
        if let Some(h) = self.get(id) {
            return Ok(Some(h));
        }
        let Some(stored) = state.store.tournament(id).await? else { return Ok(None) };
        if stored.row.status != rookery_store::TournamentStatus::Finished {
            return Ok(None);
        }
        let h = self.spawn(state, stored).await?;
        tracing::info!(tournament = %id, "finished tournament's actor started again");
        Ok(Some(h))
    }

    /// Starts the actor of a stored tournament.
    pub async fn spawn(
        &self,
        state: &Arc<AppState>,
        stored: rookery_store::StoredTournament,
    ) -> Result<TournamentHandle, ApiError> {
        let (tx, rx) = mpsc::channel(256);
        let handle = TournamentHandle { tx };
        let id = stored.row.id.clone();
        let actor = actor::Actor::rebuild(state.clone(), stored).await?;
        // Its actor serves it from now on: the folded copy kept would fall behind.
        {
            let mut cache = self.finished.lock().unwrap_or_else(|e| e.into_inner());
            if cache.by_id.remove(&id).is_some() {
                cache.order.retain(|x| *x != id);
            }
        }
        self.insert(id, handle.clone());
        tokio::spawn(actor.run(rx));
        Ok(handle)
    }

    /// Rebuilds every tournament not over (after a restart), and every finished one with a
    /// game still to count, and starts its actor.
    pub async fn resume_all(&self, state: &Arc<AppState>) {
        let stored = match state.store.tournaments_to_resume().await {
            Ok(t) => t,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the tournaments to resume");
                return;
            }
        };
        for t in stored {
            let id = t.row.id.clone();
            match self.spawn(state, t).await {
                Ok(_) => tracing::info!(tournament = %id, "tournament resumed"),
                Err(e) => {
                    tracing::error!(tournament = %id, error = %e, "cannot resume a tournament")
                }
            }
        }
    }
}
