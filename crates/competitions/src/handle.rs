//! A tournament actor's stub, the messages it takes and the answers it gives.

use std::sync::Arc;

use rookery_arbiter::Outcome;
use rookery_protocol::GameId;
use rookery_store::UserId;
use serde::Serialize;
use tokio::sync::{broadcast, mpsc, oneshot};

use crate::message::Clock;
use crate::refusal::TournamentError;
use crate::request::Op;
use crate::view::{PlayerEntry, TournamentView};

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
pub(crate) enum Command {
    /// A request; the answer is the tournament's view or a refusal.
    Request {
        /// Who asks (`None`: anyone).
        who: Option<Who>,
        /// What.
        op: Op,
        /// The answer.
        reply: oneshot::Sender<Result<Answer, TournamentError>>,
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
        reply: oneshot::Sender<(Arc<TournamentView>, Clock, broadcast::Receiver<Update>)>,
    },
}

/// The answer to a request.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum Answer {
    /// The tournament's view (most requests).
    View(Arc<TournamentView>),
    /// A join's: the player's entry.
    Entry(Option<PlayerEntry>),
    /// Berserk's: the clock the player now has.
    Berserk {
        /// The time left, ms.
        clock_ms: u64,
    },
    /// The `clock` message.
    Clock(Clock),
    /// An export.
    Text(String),
    /// A board's record with the moves typed from its scoresheet.
    Record(crate::board_record::SavedRecord),
}

impl Answer {
    /// The view, if that is the answer.
    pub fn into_view(self) -> Option<Arc<TournamentView>> {
        match self {
            Answer::View(v) => Some(v),
            _ => None,
        }
    }

    /// The clock, if that is the answer.
    pub fn into_clock(self) -> Option<Clock> {
        match self {
            Answer::Clock(c) => Some(c),
            _ => None,
        }
    }

    /// The text, if that is the answer.
    pub fn into_text(self) -> Option<String> {
        match self {
            Answer::Text(t) => Some(t),
            _ => None,
        }
    }
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
    pub(crate) tx: mpsc::Sender<Command>,
}

impl TournamentHandle {
    /// Asks the actor.
    ///
    /// # Errors
    /// The actor's refusal, or [`TournamentError::Ended`].
    pub async fn request(&self, who: Option<Who>, op: Op) -> Result<Answer, TournamentError> {
        let (reply, rx) = oneshot::channel();
        if self.tx.send(Command::Request { who, op, reply }).await.is_err() {
            return Err(TournamentError::Ended);
        }
        rx.await.map_err(|_| TournamentError::Ended)?
    }

    /// Subscribes to the updates.
    pub async fn subscribe(
        &self,
    ) -> Option<(Arc<TournamentView>, Clock, broadcast::Receiver<Update>)> {
        let (reply, rx) = oneshot::channel();
        self.tx.send(Command::Subscribe { reply }).await.ok()?;
        rx.await.ok()
    }

    /// Tells the actor that one of its games ended (waits for room: a result is never
    /// dropped); `false` once the actor has ended.
    pub async fn game_ended(&self, game: GameId, outcome: Outcome, plies: u32) -> bool {
        self.tx.send(Command::GameEnded { game, outcome, plies }).await.is_ok()
    }

    /// Tells the actor that one of its games had its first move. Never waits: a notice lost
    /// to a full queue only leaves the view's `started` behind (the unpairing checks the
    /// store). `false` once the actor has ended.
    pub fn game_started(&self, game: GameId) -> bool {
        !matches!(
            self.tx.try_send(Command::GameStarted { game }),
            Err(mpsc::error::TrySendError::Closed(_))
        )
    }

    /// Resolves once the actor has ended.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }
}
