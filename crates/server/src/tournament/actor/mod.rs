//! The actor that owns one tournament: the only writer of its log. Every change is checked on
//! a copy of the state, stored, and only then made and told (as a live game's actor does), so
//! the stored log is always a fold that gives the state, and a crash between storing a
//! pairing and creating its games is repaired by creating the missing games at the restart.
//!
//! Here: the requests and their answers, the log's writer and the views' cache. By concern:
//! `rounds` (a round's life and its games), `arbiter` (the arbiter's decisions), `arena`
//! (berserk and the pairing waves); the state itself is [`super::book`].

use std::collections::HashMap;
use std::sync::Arc;
use std::time::Duration;

use rookery_core::Color;
use rookery_store::{LogEntry, StoredTournament, TournamentStatus, UserId};
use rookery_tournament::competition::{Action, BoardResult, EntrantId};
use rookery_tournament::ByeKind;
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc};

use super::log::Entry;
use super::settings::{Format, Settings};
use super::{Command, Update, Who};
use crate::error::ApiError;
use crate::state::{now_ms, AppState};

pub use super::book::refused;
use super::book::{Book, Shown, Tour};

mod arbiter;
mod arena;
mod rounds;

/// What a request asks of the tournament.
#[derive(Clone, Debug)]
pub enum Op {
    /// The view.
    View,
    /// The `clock` socket message.
    Clock,
    /// Join (with the password if any).
    Join {
        /// The password given.
        password: Option<String>,
    },
    /// Withdraw oneself.
    Withdraw,
    /// Ask for a bye.
    Bye {
        /// The round.
        round: u32,
        /// Half or zero.
        kind: ByeKind,
    },
    /// Take a bye back.
    CancelBye {
        /// The round.
        round: u32,
    },
    /// Go berserk in an arena game.
    Berserk {
        /// The game.
        game: String,
    },
    /// An arbiter's action.
    Arbiter {
        /// What.
        action: ArbiterAction,
        /// Why.
        reason: Option<String>,
    },
    /// An export, as text.
    Export(Export),
}

/// The exports.
#[derive(Clone, Copy, Debug)]
pub enum Export {
    /// TRF-2026, CR or LF line ends.
    Trf {
        /// LF line ends.
        lf: bool,
    },
    /// Standings as CSV.
    Csv,
    /// A printable page.
    Html,
    /// The game ids, in round and board order (for the PGN).
    Games,
}

/// The arbiter's actions (docs/api.md).
#[derive(Clone, Debug)]
pub enum ArbiterAction {
    Start,
    Pair,
    Publish { round: u32 },
    Unpair { round: u32 },
    Withdraw { player: String, round: Option<u32> },
    Reinstate { player: String },
    Bye { player: String, round: u32, kind: ByeKind },
    CancelBye { player: String, round: u32 },
    ForbidPair { a: String, b: String },
    AllowPair { a: String, b: String },
    AddTime { round: u32, board: u32, color: Color, seconds: u64 },
    Result { round: u32, board: u32, result: BoardResult },
    SwapColours { round: u32, board: u32 },
    End,
    Cancel,
}

impl ArbiterAction {
    /// Whether RULES.md §12 wants a reason recorded.
    pub fn needs_reason(&self) -> bool {
        matches!(
            self,
            ArbiterAction::Withdraw { .. }
                | ArbiterAction::Reinstate { .. }
                | ArbiterAction::AddTime { .. }
                | ArbiterAction::Result { .. }
                | ArbiterAction::SwapColours { .. }
                | ArbiterAction::End
                | ArbiterAction::Cancel
        )
    }
}

pub struct Actor {
    state: Arc<AppState>,
    tour: Tour,
    seq: i64,
    updates: broadcast::Sender<Update>,
    /// A `tournament` message is owed (sent at most once a second).
    dirty: bool,
    /// The view as of the last change: built once per change, not per read (a 1,000-player
    /// Swiss's standings are not free).
    view: Option<Value>,
    /// The counts last written for the list (players, rounds paired).
    counts_written: (u32, u32),
    /// Every log entry is written through it: on a cluster, fenced by the epoch under which
    /// this node runs the tournament (issue 39).
    writer: rookery_store::Writer,
    /// Another node runs the tournament now: the actor ends.
    stopped: bool,
}

/// A test hook (docs/api.md, *Operations*): with `ROOKERY_CRASH_AFTER=<point>` in its
/// environment the server aborts at that point, as a `kill -9` would stop it there, so that a
/// process test can prove a restart repairs it. Points: `tournament-paired` (a round's
/// pairing and publication stored, none of its games created yet).
fn crash_point(point: &str) {
    if std::env::var("ROOKERY_CRASH_AFTER").is_ok_and(|p| p == point) {
        eprintln!("ROOKERY_CRASH_AFTER={point}: aborting (a test hook)");
        std::process::abort();
    }
}

/// The level number a player's points give (1 best; unranked is 31).
fn level_number(points: rookery_ladder::Points) -> u8 {
    let level = rookery_ladder::Level::of(points);
    (1..=30).find(|&n| rookery_ladder::Level::new(n) == Some(level)).unwrap_or(31)
}

impl Actor {
    /// On a cluster: the writer of this node's claim, which fences its writes.
    pub fn fenced_by(mut self, writer: rookery_store::Writer) -> Actor {
        self.writer = writer;
        self
    }

    /// The tournament rebuilt from its stored log (no games created, nothing told).
    pub async fn rebuild(
        state: Arc<AppState>,
        stored: StoredTournament,
    ) -> Result<Actor, ApiError> {
        let settings: Settings = serde_json::from_str(&stored.row.settings)
            .map_err(|e| ApiError::Internal(format!("tournament settings: {e}")))?;
        let mut book = Book::new(&settings);
        book.status = TournamentStatus::Upcoming;
        let mut log = Vec::with_capacity(stored.log.len());
        let mut names = HashMap::new();
        names.insert(stored.row.created_by.0, String::new());
        for e in &stored.log {
            let entry = Entry::decode(&e.kind, &e.data).ok_or_else(|| {
                ApiError::Internal(format!(
                    "tournament {} log entry {} does not read",
                    stored.row.id, e.seq
                ))
            })?;
            book.fold(&settings, &entry, e.at_ms.max(0) as u64)?;
            log.push((e.clone(), entry));
        }
        // A status set by hand in the row (an import published as finished) stands.
        if matches!(stored.row.status, TournamentStatus::Finished | TournamentStatus::Cancelled) {
            book.status = stored.row.status;
        }
        let mut users: Vec<i64> = log.iter().filter_map(|(e, _)| e.by.map(|u| u.0)).collect();
        users.push(stored.row.created_by.0);
        users.sort_unstable();
        users.dedup();
        for u in users {
            if let Ok(Some(user)) = state.store.user(UserId(u)).await {
                names.insert(u, user.username);
            }
        }
        let shown = log
            .into_iter()
            .map(|(e, entry)| Shown {
                seq: e.seq,
                at_ms: e.at_ms,
                by: e.by.and_then(|u| names.get(&u.0).cloned()),
                kind: entry.encode().0,
                data: super::view::with_names(
                    &book,
                    &e.kind,
                    serde_json::from_str(&e.data).unwrap_or(Value::Null),
                ),
                reason: e.reason.clone(),
            })
            .collect::<Vec<_>>();
        let seq = stored.log.last().map_or(0, |e| e.seq + 1);
        // The boards whose game has a move (the view's `started`); from here on the games
        // tell their first moves.
        let started = if stored.log.iter().any(|e| e.kind == "publish" || e.kind == "arena_pair") {
            state
                .store
                .tournament_games(&stored.row.id)
                .await?
                .into_iter()
                .filter(|g| g.moves > 0)
                .map(|g| g.id)
                .collect()
        } else {
            Default::default()
        };
        Ok(Actor {
            writer: state.store.writer(None),
            state,
            tour: Tour { row: stored.row, settings, book, log: shown, names, started },
            seq,
            // Room for a 1,000-player round's `your_game`s (two per board) and more before a
            // socket lags (issue 40).
            updates: broadcast::channel(4096).0,
            dirty: false,
            view: None,
            counts_written: (u32::MAX, u32::MAX),
            stopped: false,
        })
    }

    /// The tournament, for a reader without an actor (a finished one).
    pub fn into_tour(self) -> Tour {
        self.tour
    }

    /// The view, built again only after a change.
    fn view(&mut self) -> Value {
        if let Some(v) = &self.view {
            return v.clone();
        }
        let v = self.tour.view();
        self.view = Some(v.clone());
        v
    }

    /// Writes the list's counts when they changed (once a second at most, and at a change
    /// of status), so that the list reads them from the store.
    async fn write_counts(&mut self) {
        let counts = self.tour.counts();
        if counts == self.counts_written {
            return;
        }
        match self.state.store.set_tournament_counts(&self.tour.row.id, counts.0, counts.1).await {
            Ok(()) => self.counts_written = counts,
            Err(e) => {
                tracing::warn!(tournament = %self.tour.row.id, error = %e, "counts not written")
            }
        }
    }

    pub async fn run(mut self, mut rx: mpsc::Receiver<Command>) {
        let id = self.tour.row.id.clone();
        if let Err(e) = self.reconcile().await {
            tracing::error!(tournament = %id, error = %e, "cannot reconcile the tournament's games");
        }
        let mut tick = tokio::time::interval(Duration::from_millis(1000));
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tokio::select! {
                command = rx.recv() => {
                    let Some(command) = command else { break };
                    self.handle(command).await;
                    if self.stopped {
                        break;
                    }
                }
                _ = tick.tick() => {
                    if let Err(e) = self.on_tick().await {
                        tracing::warn!(tournament = %id, error = %e, "tournament tick");
                    }
                    if self.stopped {
                        break;
                    }
                    self.write_counts().await;
                    // Nobody watching: no view to build for nobody.
                    if self.dirty && self.updates.receiver_count() > 0 {
                        self.dirty = false;
                        let msg = json!({"t": "tournament", "tournament": self.view()});
                        self.broadcast(msg);
                    }
                }
            }
        }
        self.state.tournaments.remove(&id);
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Request { who, op, reply } => {
                let answer = self.request(who, op).await;
                let _ = reply.send(answer);
            }
            Command::GameEnded { game, outcome, plies } => {
                if let Err(e) = self.game_ended(game.as_str(), outcome, plies).await {
                    tracing::warn!(tournament = %self.tour.row.id, game = %game, error = %e, "result not entered");
                }
            }
            Command::GameStarted { game } => {
                if self.tour.started.insert(game.as_str().to_owned()) {
                    self.view = None;
                    self.dirty = true;
                }
            }
            Command::Subscribe { reply } => {
                let view = self.view();
                let _ = reply.send((view, self.tour.clock_message(), self.updates.subscribe()));
            }
        }
    }

    fn broadcast(&self, msg: Value) {
        let _ = self.updates.send(Update { to: None, text: Arc::from(msg.to_string()) });
    }

    /// Sends `msg` to the sockets of the player `name` only.
    fn tell(&self, name: &str, msg: Value) {
        let _ = self
            .updates
            .send(Update { to: Some(name.to_owned()), text: Arc::from(msg.to_string()) });
    }

    /// Checks `entry` on a copy of the state, stores it, then makes it the state and tells.
    async fn record(
        &mut self,
        entry: Entry,
        by: Option<&Who>,
        reason: Option<String>,
    ) -> Result<(), ApiError> {
        let at = now_ms();
        let mut next = self.tour.book.clone();
        next.fold(&self.tour.settings, &entry, at)?;
        let (kind, data) = entry.encode();
        let stored = LogEntry {
            seq: self.seq,
            at_ms: at as i64,
            by: by.map(|w| w.user_id),
            kind: kind.to_owned(),
            data: data.to_string(),
            reason: reason.clone(),
        };
        let id = &self.tour.row.id;
        if let rookery_store::Written::FencedOut =
            self.writer.append_tournament_log(id, &stored).await?
        {
            tracing::warn!(tournament = %id, "fenced: another node runs the tournament now; its actor here stops");
            self.stopped = true;
            return Err(ApiError::Internal(format!(
                "tournament {id:?} was claimed by another node: this node's claim is stale"
            )));
        }
        self.seq += 1;
        let status_before = self.tour.book.status;
        self.tour.book = next;
        self.view = None;
        if let Some(w) = by {
            self.tour.names.insert(w.user_id.0, w.name.clone());
        }
        let shown = Shown {
            seq: stored.seq,
            at_ms: stored.at_ms,
            by: by.map(|w| w.name.clone()),
            kind,
            data: super::view::with_names(&self.tour.book, kind, data),
            reason,
        };
        self.broadcast(json!({"t": "log", "entry": super::view::log_json(&shown)}));
        self.tour.log.push(shown);
        if self.tour.book.status != status_before {
            self.state
                .store
                .set_tournament_status(&self.tour.row.id, self.tour.book.status)
                .await?;
            self.tour.row.status = self.tour.book.status;
            self.broadcast(self.tour.clock_message());
            self.write_counts().await;
        }
        self.dirty = true;
        Ok(())
    }

    async fn request(&mut self, who: Option<Who>, op: Op) -> Result<Value, ApiError> {
        match op {
            Op::View => return Ok(self.view()),
            Op::Clock => return Ok(self.tour.clock_message()),
            Op::Export(export) => return Ok(Value::String(self.tour.export(export))),
            _ => {}
        }
        let who = who.ok_or(ApiError::NotSignedIn)?;
        let open =
            matches!(self.tour.book.status, TournamentStatus::Upcoming | TournamentStatus::Running);
        // After the last round the arbiter may still declare or correct a result (a wrong
        // result found once the tournament is over, as chess-results shows them corrected).
        let correction = self.tour.book.status == TournamentStatus::Finished
            && matches!(op, Op::Arbiter { action: ArbiterAction::Result { .. }, .. });
        if !open && !correction {
            return Err(refused("not_running", "the tournament is over"));
        }
        match op {
            Op::View | Op::Clock | Op::Export(_) => unreachable!("answered above"),
            // The entry, not the whole view: a view per join made 1,000 joins quadratic
            // (BENCHMARKS.md, "Tournaments at scale"); the sockets get the view, throttled.
            Op::Join { password } => {
                self.join(&who, password).await?;
                return Ok(self.tour.entry_json(&who.name));
            }
            Op::Withdraw => self.withdraw_self(&who).await?,
            Op::Bye { round, kind } => {
                let entrant = self.entrant(&who.name)?;
                self.record(
                    Entry::Competition(Action::Bye { entrant, round, kind, requested: true }, None),
                    Some(&who),
                    None,
                )
                .await?;
            }
            Op::CancelBye { round } => {
                let entrant = self.entrant(&who.name)?;
                self.record(
                    Entry::Competition(Action::CancelBye { entrant, round }, None),
                    Some(&who),
                    None,
                )
                .await?;
            }
            Op::Berserk { game } => return self.berserk(&who, &game).await,
            Op::Arbiter { action, reason } => {
                if who.user_id != self.tour.row.created_by {
                    return Err(ApiError::Forbidden(
                        "only the tournament's arbiter (its creator) may".into(),
                    ));
                }
                self.arbiter(&who, action, reason).await?;
            }
        }
        Ok(self.view())
    }

    fn entrant(&self, name: &str) -> Result<EntrantId, ApiError> {
        self.tour
            .book
            .comp
            .find(&name.to_lowercase())
            .ok_or_else(|| ApiError::field("player", format!("{name:?} has not joined")))
    }

    async fn join(&mut self, who: &Who, password: Option<String>) -> Result<(), ApiError> {
        let s = &self.tour.settings;
        if let Some(p) = &s.password {
            if password.as_deref() != Some(p.as_str()) {
                return Err(ApiError::Forbidden("wrong or missing password".into()));
            }
        }
        let level = level_number(who.points);
        if s.min_level.is_some_and(|best| level > best)
            || s.max_level.is_some_and(|worst| level < worst)
        {
            let yours = if level > 30 { "unranked".to_owned() } else { format!("level {level}") };
            let wanted = [
                s.min_level.map(|l| format!("level {l} or better")),
                s.max_level.map(|l| format!("level {l} or worse")),
            ]
            .into_iter()
            .flatten()
            .collect::<Vec<_>>()
            .join(" and ");
            return Err(refused(
                "level_outside",
                format!("your level ({yours}) is outside the entry conditions: {wanted}"),
            ));
        }
        let key = who.name.to_lowercase();
        if s.format == Format::Arena {
            let book = &self.tour.book;
            if book.status == TournamentStatus::Running
                && book.arena.as_ref().is_some_and(|a| a.ended(now_ms()))
            {
                return Err(refused("entries_closed", "the arena is over"));
            }
            let existing = book.arena_players.iter().position(|p| p.key == key);
            let player = existing.map_or(book.arena_players.len() + 1, |i| i + 1) as u32;
            let entry = Entry::ArenaJoin {
                player,
                key,
                name: who.name.clone(),
                user_id: who.user_id.0,
                rating: who.rating,
            };
            return self.record(entry, Some(who), None).await;
        }
        let action =
            Action::Join { key, name: who.name.clone(), rating: Some(who.rating), title: None };
        self.record(Entry::Competition(action, Some(who.user_id.0)), Some(who), None).await
    }

    async fn withdraw_self(&mut self, who: &Who) -> Result<(), ApiError> {
        if self.tour.settings.format == Format::Arena {
            let key = who.name.to_lowercase();
            let index = self.tour.book.arena_players.iter().position(|p| p.key == key && p.active);
            let index = index.ok_or_else(|| refused("not_joined", "you are not in the arena"))?;
            return self
                .record(Entry::ArenaLeave { player: index as u32 + 1 }, Some(who), None)
                .await;
        }
        let entrant = self.entrant(&who.name)?;
        let from_round = self.tour.book.comp.next_round();
        self.record(
            Entry::Competition(Action::Withdraw { entrant, from_round }, None),
            Some(who),
            None,
        )
        .await
    }

    fn board(
        &self,
        round: u32,
        board: u32,
    ) -> Result<rookery_tournament::competition::Board, ApiError> {
        self.tour
            .book
            .comp
            .rounds()
            .get((round as usize).wrapping_sub(1))
            .and_then(|r| r.boards.get((board as usize).wrapping_sub(1)))
            .copied()
            .ok_or_else(|| refused("no_board", format!("round {round} has no board {board}")))
    }
}
