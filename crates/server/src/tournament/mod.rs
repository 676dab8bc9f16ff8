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
use rookery_cluster::Claimed;
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
            // On a cluster another node may run the tournament: it is told over NATS.
            Ok(None) | Err(ApiError::Elsewhere(_)) => {
                let news = News::Ended {
                    game: game.to_string(),
                    result: outcome.result.as_str().to_owned(),
                    termination: outcome.termination.label().to_owned(),
                    plies,
                };
                state.relay.tell_tournament(tournament, news.encode()).await;
            }
            Err(e) => {
                tracing::warn!(tournament, game = %game, error = %e, "result not passed on")
            }
        }
    }

    /// Tells a tournament that one of its games had its first move. Never waits: a game's
    /// actor must not block on a tournament's that may be waiting on it; a notice lost to a
    /// full queue only leaves the view's `started` behind (the unpairing checks the store).
    pub fn game_started(&self, state: &Arc<AppState>, tournament: &str, game: GameId) {
        if let Some(h) = self.get(tournament) {
            let _ = h.tx.try_send(Command::GameStarted { game });
        } else if state.ownership.node().is_some() {
            let relay = state.relay.clone();
            let (tournament, news) =
                (tournament.to_owned(), News::Started { game: game.to_string() });
            tokio::spawn(async move { relay.tell_tournament(&tournament, news.encode()).await });
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
        self.revive(state, id, true).await
    }

    /// On a cluster, the actor of a tournament not over, started here if no node runs it (its
    /// node died); `None` for a finished, cancelled or unknown one, and on a single node when
    /// it has no actor.
    ///
    /// # Errors
    /// [`ApiError::Elsewhere`] while another node runs it; a store failure, or a log that does
    /// not fold.
    pub async fn running(
        &self,
        state: &Arc<AppState>,
        id: &str,
    ) -> Result<Option<TournamentHandle>, ApiError> {
        self.revive(state, id, false).await
    }

    async fn revive(
        &self,
        state: &Arc<AppState>,
        id: &str,
        finished_too: bool,
    ) -> Result<Option<TournamentHandle>, ApiError> {
        if let Some(h) = self.get(id) {
            return Ok(Some(h));
        }
        let _one = self.reviving.lock().await;
        if let Some(h) = self.get(id) {
            return Ok(Some(h));
        }
        let Some(stored) = state.store.tournament(id).await? else { return Ok(None) };
        // On one node a tournament not over always has its actor; on a cluster it may be run
        // by no node (its owner died): then it is taken over here.
        let revived = match stored.row.status {
            rookery_store::TournamentStatus::Finished => finished_too,
            rookery_store::TournamentStatus::Cancelled => false,
            _ => state.ownership.node().is_some(),
        };
        if !revived {
            return Ok(None);
        }
        let h = self.spawn(state, stored).await?;
        tracing::info!(tournament = %id, "tournament's actor started again");
        Ok(Some(h))
    }

    /// Starts the actor of a stored tournament.
    pub async fn spawn(
        &self,
        state: &Arc<AppState>,
        stored: rookery_store::StoredTournament,
    ) -> Result<TournamentHandle, ApiError> {
        let id = stored.row.id.clone();
        // One node runs a tournament at a time (issue 39), its writes fenced by the claim.
        let claim = match state.ownership.claim_tournament(&id).await? {
            Claimed::Here { claim, .. } => claim,
            Claimed::Elsewhere(owner) => return Err(ApiError::Elsewhere(owner)),
            Claimed::Over => return Err(ApiError::Internal(format!("tournament {id:?} is over"))),
        };
        let (tx, rx) = mpsc::channel(256);
        let handle = TournamentHandle { tx };
        let writer = state.ownership.writer(claim);
        let actor = actor::Actor::rebuild(state.clone(), stored).await?.fenced_by(writer);
        // Its actor serves it from now on: the folded copy kept would fall behind.
        {
            let mut cache = self.finished.lock().unwrap_or_else(|e| e.into_inner());
            if cache.by_id.remove(&id).is_some() {
                cache.order.retain(|x| *x != id);
            }
        }
        self.insert(id.clone(), handle.clone());
        tokio::spawn(actor.run(rx));
        follow_games_elsewhere(&*state.relay, id, handle.clone()).await;
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
                Err(ApiError::Elsewhere(node)) => {
                    tracing::debug!(tournament = %id, node, "tournament run by another node")
                }
                Err(e) => {
                    tracing::error!(tournament = %id, error = %e, "cannot resume a tournament")
                }
            }
        }
    }
}

/// News of a tournament's game from the node that serves it, for the node that runs the
/// tournament (issue 39): JSON over NATS.
#[derive(Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum News {
    /// The game's first move was played.
    Started { game: String },
    /// The game ended.
    Ended { game: String, result: String, termination: String, plies: u32 },
}

impl News {
    fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).unwrap_or_default()
    }

    /// The command for the tournament's actor; `None` (logged) for news that does not read.
    fn command(bytes: &[u8]) -> Option<Command> {
        let news: News = serde_json::from_slice(bytes)
            .map_err(|e| tracing::error!(error = %e, "a tournament's news does not read"))
            .ok()?;
        let game = |id: &str| GameId::parse(id);
        match news {
            News::Started { game: id } => Some(Command::GameStarted { game: game(&id)? }),
            News::Ended { game: id, result, termination, plies } => {
                let result = result.parse().ok()?;
                let termination = rookery_arbiter::Termination::from_label(&termination)?;
                let outcome = Outcome { result, termination };
                Some(Command::GameEnded { game: game(&id)?, outcome, plies })
            }
        }
    }
}

/// Passes the news of the tournament's games served by other nodes to its actor, until the
/// actor ends.
async fn follow_games_elsewhere(
    relay: &dyn rookery_cluster::Relay,
    id: String,
    handle: TournamentHandle,
) {
    use futures_util::StreamExt;
    let Some(mut news) = relay.tournament_news(&id).await else { return };
    tokio::spawn(async move {
        loop {
            tokio::select! {
                bytes = news.next() => {
                    let Some(bytes) = bytes else { break };
                    if let Some(command) = News::command(&bytes) {
                        if handle.tx.send(command).await.is_err() {
                            break;
                        }
                    }
                }
                () = handle.tx.closed() => break,
            }
        }
    });
}

#[cfg(test)]
mod news_tests {
    use super::*;

    #[test]
    fn a_game_end_crosses_nodes_unchanged() {
        let outcome = Outcome {
            result: rookery_arbiter::GameResult::Win(rookery_core::Color::Black),
            termination: rookery_arbiter::Termination::Checkmate,
        };
        let news = News::Ended {
            game: "abcdEFGH".into(),
            result: outcome.result.as_str().into(),
            termination: outcome.termination.label().into(),
            plies: 4,
        };
        match News::command(&news.encode()) {
            Some(Command::GameEnded { game, outcome: read, plies }) => {
                assert_eq!((game.as_str(), read, plies), ("abcdEFGH", outcome, 4));
            }
            _ => panic!("a game end reads back"),
        }
        assert!(News::command(b"{\"op\":\"ended\"}").is_none());
    }
}
