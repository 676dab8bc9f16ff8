//! WebSockets per visitor (issue 37): how many one visitor may hold, in all and on one game,
//! and one message budget per visitor and game shared by all of their sockets to it — ten
//! sockets no longer buy ten budgets.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::limits::Limit;
use crate::limits::SocketLimits;
use crate::ratelimit::TokenBucket;

/// What a socket is open on.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Scope {
    /// The lobby socket.
    Lobby,
    /// The lobby socket for a player's own notices only (`?notices`), open on every page.
    Notices,
    /// A game's socket, by game id.
    Game(String),
    /// A tournament's socket, by tournament id.
    Tournament(String),
}

/// A visitor's open sockets.
#[derive(Default)]
struct VisitorSockets {
    open: usize,
    scopes: HashMap<Scope, ScopeSockets>,
}

/// A visitor's sockets on one scope, and their shared budget.
struct ScopeSockets {
    open: usize,
    bucket: Arc<Mutex<TokenBucket>>,
}

/// The open sockets of every visitor.
pub struct SocketLimiter {
    limits: SocketLimits,
    visitors: Arc<Mutex<HashMap<String, VisitorSockets>>>,
}

impl SocketLimiter {
    /// No sockets yet.
    pub fn new(limits: SocketLimits) -> SocketLimiter {
        SocketLimiter { limits, visitors: Arc::default() }
    }

    /// Opens a socket of `visitor` (the identity's name) on `scope` at `now` (Unix ms).
    ///
    /// # Errors
    /// The [`Limit`] reached (`too_many_sockets`) when the visitor holds its cap in all or on
    /// this scope.
    pub fn open(&self, visitor: &str, scope: Scope, now: u64) -> Result<SocketPermit, Limit> {
        let mut visitors = self.visitors.lock().unwrap_or_else(|e| e.into_inner());
        if visitors.len() > 10_000 {
            prune(&mut visitors, now);
        }
        let mine = visitors.entry(visitor.to_owned()).or_default();
        let on_scope = mine.scopes.get(&scope).map_or(0, |s| s.open);
        if mine.open >= self.limits.per_visitor {
            return Err(Limit::SocketsPerVisitor(self.limits.per_visitor));
        }
        if on_scope >= self.limits.per_visitor_and_game {
            let max = self.limits.per_visitor_and_game;
            return Err(Limit::SocketsPerGame(max));
        }
        let limits = &self.limits;
        let entry = mine.scopes.entry(scope.clone()).or_insert_with(|| ScopeSockets {
            open: 0,
            bucket: Arc::new(Mutex::new(TokenBucket::new(
                limits.message_burst,
                limits.messages_per_second,
                now,
            ))),
        });
        entry.open += 1;
        mine.open += 1;
        Ok(SocketPermit {
            visitors: self.visitors.clone(),
            visitor: visitor.to_owned(),
            scope,
            bucket: entry.bucket.clone(),
        })
    }
}

/// Forgets visitors with no open socket whose budgets have refilled (a fresh budget is then
/// the same as the old one).
fn prune(visitors: &mut HashMap<String, VisitorSockets>, now: u64) {
    visitors.retain(|_, v| {
        v.scopes.retain(|_, s| {
            s.open > 0 || !s.bucket.lock().unwrap_or_else(|e| e.into_inner()).is_full(now)
        });
        !v.scopes.is_empty()
    });
}

/// One open socket's place and its share of the visitor's message budget on its scope;
/// dropped when the socket closes.
pub struct SocketPermit {
    visitors: Arc<Mutex<HashMap<String, VisitorSockets>>>,
    visitor: String,
    scope: Scope,
    bucket: Arc<Mutex<TokenBucket>>,
}

impl SocketPermit {
    /// Takes one message from the shared budget at `now`; `false` when it is spent.
    pub fn take_message(&self, now: u64) -> bool {
        self.bucket.lock().unwrap_or_else(|e| e.into_inner()).take(now)
    }
}

impl Drop for SocketPermit {
    fn drop(&mut self) {
        let mut visitors = self.visitors.lock().unwrap_or_else(|e| e.into_inner());
        let Some(v) = visitors.get_mut(&self.visitor) else { return };
        v.open = v.open.saturating_sub(1);
        if let Some(s) = v.scopes.get_mut(&self.scope) {
            // A spent budget stays until pruned (closing and reopening a socket does not refill
            // it); an untouched one goes at once, so refused or unused sockets (a 404's) leave
            // nothing behind.
            s.open = s.open.saturating_sub(1);
            if s.open == 0 && s.bucket.lock().unwrap_or_else(|e| e.into_inner()).was_full() {
                v.scopes.remove(&self.scope);
            }
        }
        if v.open == 0 && v.scopes.is_empty() {
            visitors.remove(&self.visitor);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn limiter() -> SocketLimiter {
        SocketLimiter::new(SocketLimits {
            per_visitor: 3,
            per_visitor_and_game: 2,
            messages_per_second: 10,
            message_burst: 4,
        })
    }

    #[test]
    fn caps_per_visitor_and_per_game() {
        let l = limiter();
        let g = || Scope::Game("abc".into());
        let a = l.open("v", g(), 0).unwrap();
        let _b = l.open("v", g(), 0).unwrap();
        assert!(l.open("v", g(), 0).is_err(), "two on one game");
        let _c = l.open("v", Scope::Lobby, 0).unwrap();
        assert!(l.open("v", Scope::Game("xyz".into()), 0).is_err(), "three in all");
        assert!(l.open("w", g(), 0).is_ok(), "others are not affected");
        drop(a);
        assert!(l.open("v", g(), 0).is_ok());
    }

    #[test]
    fn sockets_of_a_game_share_one_budget_that_reopening_does_not_refill() {
        let l = limiter();
        let a = l.open("v", Scope::Lobby, 0).unwrap();
        let b = l.open("v", Scope::Lobby, 0).unwrap();
        let taken =
            (0..10).filter(|i| if i % 2 == 0 { a.take_message(0) } else { b.take_message(0) });
        assert_eq!(taken.count(), 4);
        drop((a, b));
        let c = l.open("v", Scope::Lobby, 0).unwrap();
        assert!(!c.take_message(0));
        assert!(c.take_message(100), "10 a second: one more after 100 ms");
    }

    #[test]
    fn unused_sockets_leave_nothing_behind() {
        let l = limiter();
        for i in 0..100 {
            drop(l.open("v", Scope::Game(format!("g{i}")), 0).unwrap());
        }
        assert!(l.visitors.lock().unwrap().is_empty());
        let used = l.open("v", Scope::Lobby, 0).unwrap();
        assert!(used.take_message(0));
        drop(used);
        assert_eq!(l.visitors.lock().unwrap().len(), 1, "a spent budget is kept");
    }
}
