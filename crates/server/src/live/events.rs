//! What happens to live games, published for whoever listens (ARCHITECTURE.md, "Games and
//! competitions talk by events"): a game's first move and its end. The live games know
//! nothing of their listeners; a tournament learns its games' news here.
//!
//! No event is lost while its subscriber lives: each subscriber has its own unbounded queue,
//! so a game's actor never waits on a listener and never drops news for one that is slow. A
//! subscriber that ends (the server stopping) loses what it had not read; a tournament then
//! reads its games' results from the store when it is rebuilt (`reconcile`).

use std::sync::Mutex;

use rookery_arbiter::Outcome;
use rookery_store::TournamentSeat;
use tokio::sync::mpsc;

use crate::protocol::GameId;

/// News of a live game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameEvent {
    /// The first move was played.
    Started {
        /// The game.
        game: GameId,
        /// Its tournament seat, for a tournament's game.
        seat: Option<TournamentSeat>,
    },
    /// The game ended; its result is stored.
    Ended {
        /// The game.
        game: GameId,
        /// Its tournament seat, for a tournament's game.
        seat: Option<TournamentSeat>,
        /// How.
        outcome: Outcome,
        /// Its length.
        plies: u32,
    },
}

/// The publisher: every subscriber gets every event, in the order published.
#[derive(Default)]
pub struct GameEvents {
    subscribers: Mutex<Vec<mpsc::UnboundedSender<GameEvent>>>,
}

impl GameEvents {
    /// A new subscriber's queue: the events published from now on.
    pub fn subscribe(&self) -> mpsc::UnboundedReceiver<GameEvent> {
        let (tx, rx) = mpsc::unbounded_channel();
        self.subscribers.lock().unwrap_or_else(|e| e.into_inner()).push(tx);
        rx
    }

    /// Tells every subscriber (never waits); a subscriber that has ended is forgotten.
    pub fn publish(&self, event: GameEvent) {
        let mut subscribers = self.subscribers.lock().unwrap_or_else(|e| e.into_inner());
        subscribers.retain(|s| s.send(event.clone()).is_ok());
    }
}

#[cfg(test)]
mod tests {
    use rookery_arbiter::{GameResult, Termination};

    use super::*;

    #[test]
    fn every_subscriber_gets_every_event_in_order_and_a_gone_one_is_forgotten() {
        let events = GameEvents::default();
        let mut a = events.subscribe();
        let b = events.subscribe();
        drop(b);
        let game = GameId::parse("abcd1234").unwrap();
        let started = GameEvent::Started { game: game.clone(), seat: None };
        let outcome = Outcome { result: GameResult::Draw, termination: Termination::Agreement };
        let ended = GameEvent::Ended { game, seat: None, outcome, plies: 40 };
        // More than any bounded queue would hold before a slow reader gets to it.
        for _ in 0..10_000 {
            events.publish(started.clone());
        }
        events.publish(ended.clone());
        assert_eq!(events.subscribers.lock().unwrap().len(), 1);
        for _ in 0..10_000 {
            assert_eq!(a.try_recv().unwrap(), started);
        }
        assert_eq!(a.try_recv().unwrap(), ended);
    }
}
