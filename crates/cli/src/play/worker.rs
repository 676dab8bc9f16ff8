//! The engine on its own thread, so that the screen and the clocks keep going while it
//! thinks. One request at a time; a request can be cancelled, and a stale answer (to a request
//! that was cancelled) is dropped, so the game never sees a move for a position it has left.

use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::Arc;
use std::time::Instant;

use rookery_core::{Move, Position};
use rookery_engine::{Engine, Level, Limits, Options, Score, Signals};

/// One search to run.
struct Request {
    id: u64,
    pos: Position,
    history: Vec<u64>,
    limits: Limits,
    signals: Arc<Signals>,
}

/// The engine's answer to a request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reply {
    /// The move to play; `None` only when the position has no legal move.
    pub best: Option<Move>,
    /// The score of that move from the engine's point of view, if a search iteration
    /// completed.
    pub score: Option<Score>,
}

/// The handle to the engine thread. Dropping it stops the search and ends the thread.
pub struct Worker {
    requests: Option<Sender<Request>>,
    replies: Receiver<(u64, Reply)>,
    /// The request being searched: its id and its stop signal.
    pending: Option<(u64, Arc<Signals>)>,
    next_id: u64,
}

impl Worker {
    /// Starts an engine thread playing at `level`, its choices seeded by `seed`.
    ///
    /// # Errors
    /// When the engine's hash table cannot be had or the thread cannot start.
    pub fn spawn(level: Level, seed: u64) -> anyhow::Result<Worker> {
        let options = Options { level: Some(level), seed, ..Options::default() };
        let mut engine = Engine::with_options(options)?;
        let (requests, inbox) = mpsc::channel::<Request>();
        let (outbox, replies) = mpsc::channel();
        std::thread::Builder::new().name("rookery-engine".into()).spawn(move || {
            for request in inbox {
                // The search reads the time from the moment it was asked (timeman.rs).
                let started = Instant::now();
                let outcome = engine.search(
                    &request.pos,
                    &request.history,
                    &request.limits,
                    &request.signals,
                    &started,
                    &mut (),
                );
                let reply = Reply { best: outcome.best, score: outcome.score };
                if outbox.send((request.id, reply)).is_err() {
                    break;
                }
            }
        })?;
        Ok(Worker { requests: Some(requests), replies, pending: None, next_id: 0 })
    }

    /// Asks for a move in `pos`, reached after the positions with the repetition keys
    /// `history`; cancels any search still running.
    pub fn start(&mut self, pos: Position, history: Vec<u64>, limits: Limits) {
        self.cancel();
        self.next_id += 1;
        let signals = Arc::new(Signals::new());
        let request =
            Request { id: self.next_id, pos, history, limits, signals: Arc::clone(&signals) };
        if let Some(requests) = &self.requests {
            if requests.send(request).is_ok() {
                self.pending = Some((self.next_id, signals));
            }
        }
    }

    /// Stops the running search, if any; its answer will be dropped.
    pub fn cancel(&mut self) {
        if let Some((_, signals)) = self.pending.take() {
            signals.stop();
        }
    }

    /// `true` while a search is running for the current request.
    pub fn is_thinking(&self) -> bool {
        self.pending.is_some()
    }

    /// The answer to the current request, if it has come.
    pub fn try_reply(&mut self) -> Option<Reply> {
        while let Ok((id, reply)) = self.replies.try_recv() {
            if let Some(reply) = self.accept(id, reply) {
                return Some(reply);
            }
        }
        None
    }

    /// Waits up to `timeout` for the answer to the current request.
    #[cfg(test)]
    pub fn wait_reply(&mut self, timeout: std::time::Duration) -> Option<Reply> {
        use std::sync::mpsc::RecvTimeoutError;
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.replies.recv_timeout(left) {
                Ok((id, reply)) => {
                    if let Some(reply) = self.accept(id, reply) {
                        return Some(reply);
                    }
                }
                Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => return None,
            }
        }
    }

    fn accept(&mut self, id: u64, reply: Reply) -> Option<Reply> {
        match self.pending {
            Some((pending, _)) if pending == id => {
                self.pending = None;
                Some(reply)
            }
            _ => None,
        }
    }
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.cancel();
        // Closing the channel ends the thread's loop once its search has stopped.
        self.requests = None;
    }
}
