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

use rookery_store::{LogEntry, StoredTournament, TournamentStatus, UserId};
use rookery_tournament::competition::{Action, EntrantId};
use tokio::sync::{broadcast, mpsc};

use super::log::{self, Entry};
use super::refusal::{TournamentError, TournamentRefusal};
use super::settings::{Format, Settings};
use crate::handle::{Command, Update, Who};
use crate::now_ms;
use crate::ports::Host;
use crate::registry::Tournaments;
pub use crate::request::{ArbiterAction, Op};

use super::book::{Book, Tour};
use super::message::TournamentMessage;
use super::view::TournamentView;
use crate::handle::Answer;

mod arbiter;
mod arena;
mod entries;
mod incident;
mod knockout;
mod report;
mod rounds;
mod scoresheet;
mod team_games;
mod teams;

pub(crate) struct Actor<H> {
    /// The registry it belongs to: the store, the host's ports.
    tournaments: Tournaments<H>,
    tour: Tour,
    seq: i64,
    updates: broadcast::Sender<Update>,
    /// A `tournament` message is owed (sent at most once a second).
    dirty: bool,
    /// The view as of the last change: built once per change, not per read (a 1,000-player
    /// Swiss's standings are not free).
    view: Option<Arc<TournamentView>>,
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
/// pairing and publication stored, none of its games created yet), `board-game-created`
/// (over the board, a result's log entry and its board's game row stored, the game not yet
/// finished).
fn crash_point(point: &str) {
    if std::env::var("ROOKERY_CRASH_AFTER").is_ok_and(|p| p == point) {
        eprintln!("ROOKERY_CRASH_AFTER={point}: aborting (a test hook)");
        std::process::abort();
    }
}

/// Over the board in a rated event, what its games did to each account's §11 points (the
/// standings show them); nothing otherwise (online, a game's page shows its award).
async fn ladder_of(
    store: &rookery_store::Store,
    tour: &Tour,
) -> Result<HashMap<i64, rookery_store::LadderSpan>, TournamentError> {
    if !(tour.settings.over_the_board && tour.settings.rated) {
        return Ok(HashMap::new());
    }
    let spans = store.tournament_ladder(&tour.row.id).await?;
    Ok(spans.into_iter().map(|s| (s.user_id.0, s)).collect())
}

/// The level number a player's points give (1 best; unranked is 31).
fn level_number(points: rookery_ladder::Points) -> u8 {
    let level = rookery_ladder::Level::of(points);
    (1..=30).find(|&n| rookery_ladder::Level::new(n) == Some(level)).unwrap_or(31)
}

impl<H: Host> Actor<H> {
    /// On a cluster: the writer of this node's claim, which fences its writes.
    pub fn fenced_by(mut self, writer: rookery_store::Writer) -> Actor<H> {
        self.writer = writer;
        self
    }

    /// The tournament rebuilt from its stored log (no games created, nothing told).
    pub async fn rebuild(
        tournaments: Tournaments<H>,
        stored: StoredTournament,
    ) -> Result<Actor<H>, TournamentError> {
        let settings: Settings = serde_json::from_str(&stored.row.settings).map_err(|e| {
            TournamentError::Settings { tournament: stored.row.id.clone(), error: e.to_string() }
        })?;
        let mut book = Book::new(&settings);
        book.status = TournamentStatus::Upcoming;
        let mut log = Vec::with_capacity(stored.log.len());
        let mut names = HashMap::new();
        names.insert(stored.row.created_by.0, String::new());
        for e in &stored.log {
            let entry = Entry::decode(e).map_err(|error| TournamentError::Log {
                tournament: stored.row.id.clone(),
                error,
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
            if let Ok(Some(user)) = tournaments.store().user(UserId(u)).await {
                names.insert(u, user.username);
            }
        }
        let seq = stored.log.last().map_or(0, |e| e.seq + 1);
        // The boards whose game has a move (the view's `started`); from here on the games
        // tell their first moves.
        let started = if stored.log.iter().any(|e| e.kind == "publish" || e.kind == "arena_pair") {
            tournaments
                .store()
                .tournament_games(&stored.row.id)
                .await?
                .into_iter()
                .filter(|g| g.moves > 0)
                .map(|g| g.id)
                .collect()
        } else {
            Default::default()
        };
        let mut tour = Tour {
            row: stored.row,
            settings,
            book,
            log: Vec::new(),
            names,
            started,
            ladder: HashMap::new(),
        };
        tour.ladder = ladder_of(tournaments.store(), &tour).await?;
        let shown = log
            .into_iter()
            .map(|(e, entry)| {
                let by = e.by.and_then(|u| tour.names.get(&u.0).cloned());
                tour.shown(&e, entry, by)
            })
            .collect();
        tour.log = shown;
        Ok(Actor {
            writer: tournaments.store().writer(None),
            tournaments,
            tour,
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

    fn store(&self) -> &rookery_store::Store {
        self.tournaments.store()
    }

    fn host(&self) -> &H {
        self.tournaments.host()
    }

    /// The tournament, for a reader without an actor (a finished one).
    pub fn into_tour(self) -> Tour {
        self.tour
    }

    /// The view, built again only after a change.
    fn view(&mut self) -> Arc<TournamentView> {
        self.view.get_or_insert_with(|| Arc::new(self.tour.view())).clone()
    }

    /// Writes the list's counts when they changed (once a second at most, and at a change
    /// of status), so that the list reads them from the store.
    async fn write_counts(&mut self) {
        let counts = self.tour.counts();
        if counts == self.counts_written {
            return;
        }
        match self.store().set_tournament_counts(&self.tour.row.id, counts.0, counts.1).await {
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
                        let msg = TournamentMessage::Tournament { tournament: self.view() };
                        self.broadcast(&msg);
                    }
                }
            }
        }
        self.tournaments.remove(&id);
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
                let clock = self.tour.clock(now_ms());
                let _ = reply.send((view, clock, self.updates.subscribe()));
            }
        }
    }

    fn broadcast(&self, msg: &TournamentMessage) {
        let _ = self.updates.send(Update { to: None, text: Arc::from(msg.to_text()) });
    }

    /// Sends `msg` to the sockets of the player `name` only.
    fn tell(&self, name: &str, msg: &TournamentMessage) {
        let _ =
            self.updates.send(Update { to: Some(name.to_owned()), text: Arc::from(msg.to_text()) });
    }

    /// Checks `entry` on a copy of the state, stores it, then makes it the state and tells.
    async fn record(
        &mut self,
        entry: Entry,
        by: Option<&Who>,
        reason: Option<String>,
    ) -> Result<(), TournamentError> {
        let at = now_ms();
        let mut next = self.tour.book.clone();
        next.fold(&self.tour.settings, &entry, at)?;
        let (kind, data) = entry.encode();
        let stored = LogEntry {
            seq: self.seq,
            at_ms: at as i64,
            by: by.map(|w| w.user_id),
            kind,
            data,
            reason: reason.clone(),
        };
        let id = &self.tour.row.id;
        if let rookery_store::Written::FencedOut =
            self.writer.append_tournament_log(id, &stored).await?
        {
            tracing::warn!(tournament = %id, "fenced: another node runs the tournament now; its actor here stops");
            self.stopped = true;
            return Err(TournamentError::FencedOut(id.clone()));
        }
        self.seq += 1;
        let status_before = self.tour.book.status;
        self.tour.book = next;
        self.view = None;
        if let Some(w) = by {
            self.tour.names.insert(w.user_id.0, w.name.clone());
        }
        let shown = self.tour.shown(&stored, entry, by.map(|w| w.name.clone()));
        self.broadcast(&TournamentMessage::Log { entry: Box::new(shown.clone()) });
        self.tour.log.push(shown);
        if self.tour.book.status != status_before {
            self.store().set_tournament_status(&self.tour.row.id, self.tour.book.status).await?;
            self.tour.row.status = self.tour.book.status;
            self.broadcast(&TournamentMessage::Clock(self.tour.clock(now_ms())));
            self.write_counts().await;
        }
        self.dirty = true;
        Ok(())
    }

    async fn request(&mut self, who: Option<Who>, op: Op) -> Result<Answer, TournamentError> {
        match op {
            Op::View => return Ok(Answer::View(self.view())),
            Op::Clock => return Ok(Answer::Clock(self.tour.clock(now_ms()))),
            Op::Export(export) => return Ok(Answer::Text(self.tour.export(export)?)),
            Op::Pgn(records) => return Ok(Answer::Text(self.tour.pgn(&records))),
            Op::Print(request) => return Ok(Answer::Text(self.tour.print(&request)?)),
            _ => {}
        }
        let who = who.ok_or(TournamentRefusal::NotSignedIn)?;
        let open =
            matches!(self.tour.book.status, TournamentStatus::Upcoming | TournamentStatus::Running);
        // After the last round the arbiter may still declare or correct a result (a wrong
        // result found once the tournament is over, as chess-results shows them corrected),
        // and link a guest to the account the player opens later.
        // A board's moves are typed from its scoresheet after the game, the event's end too.
        let correction = self.tour.book.status == TournamentStatus::Finished
            && matches!(
                op,
                Op::Arbiter {
                    action: ArbiterAction::Result { .. } | ArbiterAction::Link { .. },
                    ..
                } | Op::Moves { .. }
            );
        if !open && !correction {
            return Err(TournamentRefusal::Closed.into());
        }
        match op {
            Op::View | Op::Clock | Op::Export(_) | Op::Pgn(_) | Op::Print(_) => {
                unreachable!("answered above")
            }
            Op::Join { .. }
            | Op::Withdraw
            | Op::Bye { .. }
            | Op::CancelBye { .. }
            | Op::Report { .. }
                if self.tour.settings.format.is_team() =>
            {
                self.not_for_teams()?;
            }
            Op::LineUp { round, team, players } => {
                self.captain_line_up(&who, round, &team, &players).await?
            }
            Op::Arbiter { action, reason } if self.tour.settings.format.is_team() => {
                if who.user_id != self.tour.row.created_by {
                    return Err(TournamentRefusal::NotArbiter.into());
                }
                self.team_arbiter(&who, action, reason).await?;
            }
            // The entry, not the whole view: a view per join made 1,000 joins quadratic
            // (BENCHMARKS.md, "Tournaments at scale"); the sockets get the view, throttled.
            Op::Join { password } => {
                self.join(&who, password).await?;
                return Ok(Answer::Entry(self.tour.entry(&who.name)));
            }
            Op::Bye { .. } | Op::CancelBye { .. }
                if self.tour.settings.format == Format::Knockout =>
            {
                return Err(knockout::NO_ROUNDS.into());
            }
            Op::Withdraw if self.knockout_started() => return Err(knockout::NO_WITHDRAWAL.into()),
            Op::Withdraw => self.withdraw_self(&who).await?,
            Op::Bye { round, kind } => {
                let entrant = self.entrant(&who.name)?;
                self.record(
                    Entry::of_action(Action::Bye { entrant, round, kind, requested: true }, None),
                    Some(&who),
                    None,
                )
                .await?;
            }
            Op::CancelBye { round } => {
                let entrant = self.entrant(&who.name)?;
                self.record(
                    Entry::of_action(Action::CancelBye { entrant, round }, None),
                    Some(&who),
                    None,
                )
                .await?;
            }
            Op::Berserk { game } => return self.berserk(&who, &game).await,
            Op::Report { round, board, result } => {
                self.report(&who, (round, board), result).await?
            }
            Op::Moves { round, board, moves } => {
                return Ok(Answer::Record(self.type_moves(&who, (round, board), &moves).await?));
            }
            Op::Arbiter { action, reason } => {
                if who.user_id != self.tour.row.created_by {
                    return Err(TournamentRefusal::NotArbiter.into());
                }
                self.arbiter(&who, action, reason).await?;
            }
        }
        Ok(Answer::View(self.view()))
    }

    /// A knockout whose bracket is seeded: its field is fixed.
    fn knockout_started(&self) -> bool {
        self.tour.book.knockout.is_some()
    }

    /// The entrant an account name names, or else a guest's name (any case).
    fn entrant(&self, name: &str) -> Result<EntrantId, TournamentError> {
        let comp = &self.tour.book.comp;
        comp.find(&name.to_lowercase())
            .or_else(|| {
                let guest = self.tour.book.guests.keys().copied().find(|&n| {
                    comp.entrants()[n as usize].name.to_lowercase() == name.to_lowercase()
                });
                guest.map(EntrantId)
            })
            .ok_or_else(|| TournamentRefusal::UnknownPlayer(name.to_owned()).into())
    }

    async fn join(&mut self, who: &Who, password: Option<String>) -> Result<(), TournamentError> {
        let s = &self.tour.settings;
        if let Some(p) = &s.password {
            if password.as_deref() != Some(p.as_str()) {
                return Err(TournamentRefusal::WrongPassword.into());
            }
        }
        let level = level_number(who.points);
        if s.min_level.is_some_and(|best| level > best)
            || s.max_level.is_some_and(|worst| level < worst)
        {
            let refusal =
                TournamentRefusal::LevelOutside { level, min: s.min_level, max: s.max_level };
            return Err(refusal.into());
        }
        let key = who.name.to_lowercase();
        if s.format == Format::Arena {
            let book = &self.tour.book;
            if book.status == TournamentStatus::Running
                && book.arena.as_ref().is_some_and(|a| a.ended(now_ms()))
            {
                return Err(TournamentRefusal::ArenaOver.into());
            }
            let existing = book.arena_players.iter().position(|p| p.key == key);
            let player = existing.map_or(book.arena_players.len() + 1, |i| i + 1) as u32;
            let entry = Entry::ArenaJoin(log::ArenaJoin {
                player,
                key,
                name: who.name.clone(),
                user_id: who.user_id.0,
                rating: who.rating,
            });
            return self.record(entry, Some(who), None).await;
        }
        // Over the board a guest may carry the account's name: the arbiter links the guest to
        // the account rather than have the player twice.
        if s.over_the_board
            && self.tour.book.comp.find(&key).is_none()
            && self.names_taken().contains(&key)
        {
            return Err(
                TournamentRefusal::DuplicateName { name: who.name.clone(), line: None }.into()
            );
        }
        let action =
            Action::Join { key, name: who.name.clone(), rating: Some(who.rating), title: None };
        self.record(Entry::of_action(action, Some(who.user_id.0)), Some(who), None).await
    }

    async fn withdraw_self(&mut self, who: &Who) -> Result<(), TournamentError> {
        if self.tour.settings.format == Format::Arena {
            let key = who.name.to_lowercase();
            let index = self.tour.book.arena_players.iter().position(|p| p.key == key && p.active);
            let index = index.ok_or(TournamentRefusal::NotInArena)?;
            return self
                .record(
                    Entry::ArenaLeave(log::ArenaPlayer { player: index as u32 + 1 }),
                    Some(who),
                    None,
                )
                .await;
        }
        let entrant = self.entrant(&who.name)?;
        let from_round = self.tour.book.comp.next_round();
        self.record(
            Entry::of_action(Action::Withdraw { entrant, from_round }, None),
            Some(who),
            None,
        )
        .await
    }

    fn board(
        &self,
        round: u32,
        board: u32,
    ) -> Result<rookery_tournament::competition::Board, TournamentError> {
        self.tour
            .book
            .comp
            .rounds()
            .get((round as usize).wrapping_sub(1))
            .and_then(|r| r.boards.get((board as usize).wrapping_sub(1)))
            .copied()
            .ok_or_else(|| TournamentRefusal::NoBoard { round, board }.into())
    }
}
