//! The actor that owns one live game. It alone touches the arbiter [`Game`]: it applies each
//! action at the server's clock reading, appends what changed to storage, and only then
//! broadcasts (ARCHITECTURE.md, "the path of one move").

use std::collections::VecDeque;
use std::sync::Arc;
use std::time::Duration;

use rookery_arbiter::{Event, Game, GameResult, MoveInput, Outcome, Speed, Termination};
use rookery_cluster::{Claim, Lapse, LeaseState};
use rookery_core::{ByColor, Color};
use rookery_store::{Finish, PlayerKind, RatingChanges, StoreError, Writer, Written};
use tokio::sync::{broadcast, mpsc, watch};
use tokio::time::Instant;

use super::engine_player::EngineSeat;
use super::view::{end_message, event_messages, live_view, Crowd};
use super::{rebuild, Command, GameEvent, GameHandle, Joined, LiveGames, Rebuilt, Seat};
use crate::clock::now_ms;
use crate::protocol::{GameAction, PlayerAction, Refusal, ServerMessage};

/// The most lag one move is credited with.
const MAX_LAG_PER_MOVE_MS: u64 = 500;
/// The lag quota of a player, and its refill per move.
const LAG_QUOTA_MS: u64 = 2_000;
const LAG_REFILL_MS: u64 = 100;
/// How long a finished game's actor stays for the sockets still watching it.
const LINGER_MS: u64 = 10 * 60 * 1000;

pub(super) fn spawn(
    live: Arc<LiveGames>,
    handle: GameHandle,
    rx: mpsc::Receiver<Command>,
    game: Game,
    seq: i64,
    last_stamp: u64,
    resumed: bool,
) {
    let meta = handle.meta.clone();
    let writer = live.services.ownership.writer(handle.claim);
    let wall = now_ms();
    let human = |c: Color| meta.player(c).kind != PlayerKind::Engine;
    let gone_since = ByColor::new_with(|c| human(c).then_some(wall));
    let engine = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| meta.player(c).kind == PlayerKind::Engine)
        .map(|c| EngineSeat::new(c, meta.player(c).engine_level.unwrap_or(1)));
    let (updates, _) = broadcast::channel(64);
    // On a cluster the actor serves only under this node's lease (issue 51).
    let lease = live.services.ownership.lease();
    let lapses_seen = lease.as_ref().map_or(0, |l| l.borrow().lapses);
    let actor = Actor {
        live,
        handle,
        game,
        seq,
        last_stamp,
        offset: wall as i64 - last_stamp as i64,
        updates,
        connections: ByColor { white: 0, black: 0 },
        spectators: 0,
        gone_since,
        lag_quota: ByColor { white: LAG_QUOTA_MS, black: LAG_QUOTA_MS },
        engine,
        finished_at: None,
        stopped: false,
        writer,
        started_ms: wall,
        lapses_seen,
        held: VecDeque::new(),
    };
    tokio::spawn(actor.run(rx, lease, resumed));
}

struct Actor {
    /// The registry it is in, and the handles it reaches: the store, the cluster's
    /// ownership, the games' events.
    live: Arc<LiveGames>,
    handle: GameHandle,
    game: Game,
    /// The next action's sequence number.
    seq: i64,
    /// The game time of the last stored action: game time never runs backwards.
    last_stamp: u64,
    /// Wall time minus game time: 0 for a game that never stopped; after a restart, the
    /// outage (charged to no one).
    offset: i64,
    updates: broadcast::Sender<Arc<str>>,
    connections: ByColor<u32>,
    spectators: usize,
    /// Since when (wall ms) each human player has had no connection.
    gone_since: ByColor<Option<u64>>,
    lag_quota: ByColor<u64>,
    engine: Option<EngineSeat>,
    /// Wall time the result was stored.
    finished_at: Option<u64>,
    stopped: bool,
    /// Every write of the game goes through it: on a node of a cluster it is fenced by the
    /// epoch under which this node owns the game (rookery-store, `claim_game`).
    writer: Writer,
    /// When the actor started (wall ms).
    started_ms: u64,
    /// The lapses of this node's lease the actor has dealt with ([`LeaseState`]).
    lapses_seen: u64,
    /// Commands that came while the lease had run out, handled once it runs again.
    held: VecDeque<Command>,
}

impl Actor {
    async fn run(
        mut self,
        mut rx: mpsc::Receiver<Command>,
        mut lease: Option<watch::Receiver<LeaseState>>,
        resumed: bool,
    ) {
        let id = self.handle.meta.id.clone();
        if resumed {
            let at = self.game_now();
            let resume = GameAction::Resume { wall_ms: Some(self.to_wall(at)) };
            self.store_mark(&resume, at).await;
        }
        // A game that ended before a crash, but whose result was not stored yet.
        if self.game.is_over() {
            self.finalize().await;
        }
        self.engine_turn();
        while !self.stopped {
            let serving = lease.as_ref().is_none_or(|l| self.serves(&l.borrow()));
            if serving {
                if let Some(command) = self.held.pop_front() {
                    self.handle_command(command).await;
                    if self.should_exit() {
                        break;
                    }
                    continue;
                }
            }
            // While the lease has run out, no deadline is acted on; the lease is looked at
            // again every so often besides its news.
            let wake = if serving { self.next_wake() } else { Some(now_ms() + 100) };
            let lease_news = async {
                match lease.as_mut() {
                    Some(l) => l.changed().await.is_ok(),
                    None => std::future::pending().await,
                }
            };
            let command = tokio::select! {
                c = rx.recv() => c,
                () = sleep_until(wake) => {
                    if lease.as_ref().is_none_or(|l| self.serves(&l.borrow())) {
                        self.on_timer().await;
                    }
                    continue;
                }
                alive = lease_news => {
                    match lease.as_mut() {
                        Some(l) if alive => {
                            let news = l.borrow_and_update().clone();
                            self.on_lease(&news).await;
                        }
                        _ => lease = None,
                    }
                    continue;
                }
            };
            let Some(command) = command else { break };
            let holds = !matches!(command, Command::Shutdown { .. })
                && lease.as_ref().is_some_and(|l| !self.serves(&l.borrow()));
            if holds {
                self.held.push_back(command);
                continue;
            }
            self.handle_command(command).await;
            if self.should_exit() {
                break;
            }
        }
        self.live.remove(&self.handle);
        tracing::debug!(game = %id, "actor ended");
    }

    /// Whether the actor may serve the game under the node's lease `lease` (issue 51): the
    /// lease runs by this node's clock, and every lapse of it has been dealt with. Read under
    /// the lease's lock, so that a renewal after this reading wakes the actor.
    fn serves(&self, lease: &LeaseState) -> bool {
        lease.runs() && lease.lapses == self.lapses_seen
    }

    /// News of the node's lease: after a lapse, the game is stopped here if another node has
    /// claimed it meanwhile, and otherwise credited the lapse.
    async fn on_lease(&mut self, lease: &LeaseState) {
        if lease.lapses == self.lapses_seen {
            return;
        }
        self.lapses_seen = lease.lapses;
        let Some(lapse) = &lease.lapse else { return };
        let id = &self.handle.meta.id;
        if !self.live.services.ownership.holds(id.as_str(), self.handle.claim).await {
            tracing::warn!(game = %id, "another node owns this game now: its actor here stops");
            self.stopped = true;
            return;
        }
        self.credit_lapse(lapse).await;
    }

    /// Credits the game the time since this node's last good heartbeat before its lease
    /// lapsed (issue 51), as a game taken over from a dead node is credited the time after
    /// its owner's last heartbeat: game time stands from then (or from the last stored
    /// action, if later) until now. Stored as a `resume` at that game time, so that a replay
    /// gives the same clocks; everyone is sent the corrected clocks.
    async fn credit_lapse(&mut self, lapse: &Lapse) {
        // A game this node began serving once awake was served all along.
        if self.finished_at.is_some() || self.game.is_over() || self.started_ms >= lapse.ran_out_ms
        {
            return;
        }
        let served_until = lapse.served_until_ms.max(self.started_ms);
        let from = ((served_until as i64 - self.offset).max(0) as u64).max(self.last_stamp);
        let wall = now_ms();
        let now = self.game_now();
        if now <= from {
            return;
        }
        let before = self.offset;
        self.offset = wall as i64 - from as i64;
        let resume = GameAction::Resume { wall_ms: Some(wall) };
        match self.store(&resume, from).await {
            Ok(Written::Done(())) => {}
            // Uncredited rather than credited differently from what a replay would give.
            Ok(Written::FencedOut) => {
                self.offset = before;
                self.fenced_out();
                return;
            }
            Err(e) => {
                self.offset = before;
                tracing::error!(game = %self.handle.meta.id, error = %e, "cannot store the credit of a lapsed lease: not credited");
                return;
            }
        }
        tracing::info!(game = %self.handle.meta.id, credited_ms = now - from, "this node's lease had lapsed: the time since its last good heartbeat credited");
        let game = Box::new(live_view(&self.handle.meta, &self.game, from, &self.crowd()));
        self.broadcast(&self.stamped(ServerMessage::State { game }, from));
    }

    /// Game time now: wall time less the outage, never before the last stored stamp.
    fn game_now(&self) -> u64 {
        ((now_ms() as i64 - self.offset).max(0) as u64).max(self.last_stamp)
    }

    /// `msg` with the wall time of game time `at` on its clocks (protocol.md `server_ms`).
    fn stamped(&self, mut msg: ServerMessage, at: u64) -> ServerMessage {
        if let Some(clock) = msg.clock_mut() {
            clock.server_ms = Some(self.to_wall(at));
        }
        msg
    }

    fn to_wall(&self, game_ms: u64) -> u64 {
        (game_ms as i64 + self.offset).max(0) as u64
    }

    fn should_exit(&self) -> bool {
        match self.finished_at {
            None => false,
            Some(at) => {
                let nobody = self.spectators == 0
                    && self.connections[Color::White] == 0
                    && self.connections[Color::Black] == 0;
                nobody || now_ms() > at + LINGER_MS
            }
        }
    }

    /// When to wake without a message: the running side's flag, a first-move deadline, or
    /// the linger's end.
    fn next_wake(&self) -> Option<u64> {
        if let Some(at) = self.finished_at {
            return Some(at + LINGER_MS + 1);
        }
        let clock = self.game.clock();
        let flag = clock.running().and_then(|c| clock.flag_deadline(c));
        let first_move = self.game.first_move_deadline().map(|(_, d)| d);
        let deadline = match (flag, first_move) {
            (Some(a), Some(b)) => a.min(b),
            (a, b) => a.or(b)?,
        };
        Some(self.to_wall(deadline.saturating_add(1)))
    }

    async fn on_timer(&mut self) {
        if self.finished_at.is_some() {
            self.stopped = self.should_exit();
            return;
        }
        let now = self.game_now();
        // The clock says whether a deadline has passed; only then is anything stored.
        if self.game.is_expired(now) {
            let _ = self.apply(GameAction::Flag, now).await;
        }
    }

    async fn handle_command(&mut self, command: Command) {
        match command {
            Command::Join { seat, reply } => {
                match seat {
                    Seat::Player(c) => {
                        self.connections[c] += 1;
                        self.gone_since[c] = None;
                    }
                    Seat::Spectator => self.spectators += 1,
                }
                let now = self.game_now();
                let you = match seat {
                    Seat::Player(c) => Some(c),
                    Seat::Spectator => None,
                };
                let game = Box::new(live_view(&self.handle.meta, &self.game, now, &self.crowd()));
                let hello = self.stamped(ServerMessage::Hello { you, game }, now);
                let _ = reply.send(Joined { hello, updates: self.updates.subscribe() });
                self.broadcast_crowd();
            }
            Command::Leave { seat } => {
                match seat {
                    Seat::Player(c) => {
                        self.connections[c] = self.connections[c].saturating_sub(1);
                        if self.connections[c] == 0
                            && self.handle.meta.player(c).kind != PlayerKind::Engine
                        {
                            self.gone_since[c] = Some(now_ms());
                        }
                    }
                    Seat::Spectator => self.spectators = self.spectators.saturating_sub(1),
                }
                self.broadcast_crowd();
            }
            Command::Act { by, action, ply, lag_ms, received_ms, reply } => {
                let answer = self.act(by, action, ply, lag_ms, received_ms).await;
                let _ = reply.send(answer.err().map(|refusal| self.rejected(refusal)));
            }
            Command::ClaimAbandoned { by, draw, reply } => {
                let answer = self.claim_abandoned(by, draw).await;
                let _ = reply.send(answer.err().map(|refusal| self.rejected(refusal)));
            }
            Command::Snapshot { reply } => {
                let now = self.game_now();
                let mut view = live_view(&self.handle.meta, &self.game, now, &self.crowd());
                view.clock.server_ms = Some(self.to_wall(now));
                let _ = reply.send(view);
            }
            Command::Pgn { reply } => {
                let _ = reply.send(super::record_pgn(&self.game));
            }
            Command::EngineMove { key, mv, engine } => {
                if let Some(seat) = &mut self.engine {
                    seat.engine = Some(engine);
                    seat.thinking = false;
                }
                if let (Some(m), Some(seat)) = (mv, &self.engine) {
                    let color = seat.color;
                    // The position may have changed while it thought (a takeback): then the move
                    // is for another position and is dropped.
                    if key == self.game.position().zobrist()
                        && !self.game.is_over()
                        && self.game.position().turn() == color
                    {
                        let now = self.game_now();
                        let action = GameAction::Player {
                            by: color,
                            action: PlayerAction::Move {
                                mv: MoveInput::from(m),
                                offer_draw: false,
                            },
                            lag_ms: 0,
                        };
                        if let Err(r) = self.apply(action, now).await {
                            tracing::error!(game = %self.handle.meta.id, reason = %r, "the engine's move was refused");
                        }
                    }
                }
                self.engine_turn();
            }
            Command::Arbiter { action, reply } => {
                let answer = if self.finished_at.is_some() || self.game.is_over() {
                    Err(Refusal::GameOver)
                } else {
                    let now = self.game_now();
                    self.apply(action, now).await
                };
                let _ = reply.send(answer.err());
            }
            Command::HandOff { remote, reply } => {
                let handed = self.hand_off(remote).await;
                let _ = reply.send(handed);
            }
            Command::Shutdown { reply } => {
                if self.finished_at.is_none() && !self.game.is_over() {
                    let at = self.game_now();
                    self.store_mark(&GameAction::Pause, at).await;
                }
                self.stopped = true;
                let _ = reply.send(());
            }
        }
    }

    /// Hands the game to another node (see [`Command::HandOff`]): `true` once its clocks
    /// are stored and it is released; then the actor ends, and its sockets close.
    async fn hand_off(&mut self, remote: ByColor<u32>) -> bool {
        // A single node has nobody to hand a game to.
        if self.handle.claim == Claim::Single {
            return false;
        }
        let players_here =
            [Color::White, Color::Black].into_iter().any(|c| self.connections[c] > remote[c]);
        // A tournament's games stay with the node that runs the tournament, which acts on
        // them (time added, results declared, berserk) through their actors; their sockets
        // elsewhere are relayed.
        let tournament = self.handle.meta.tournament.is_some();
        if players_here || tournament || self.finished_at.is_some() || self.game.is_over() {
            return false;
        }
        let id = self.handle.meta.id.clone();
        let at = self.game_now();
        match self.store(&GameAction::Pause, at).await {
            Ok(Written::Done(())) => {}
            Ok(Written::FencedOut) => {
                self.fenced_out();
                return false;
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "cannot store the pause to hand the game over");
                return false;
            }
        }
        match self.live.services.ownership.release_game(id.as_str(), self.handle.claim).await {
            Ok(true) => {
                tracing::info!(game = %id, "handed over to the node its players are on");
                self.stopped = true;
                true
            }
            Ok(false) => {
                // Claimed by another node meanwhile: not this node's any more.
                self.stopped = true;
                false
            }
            Err(e) => {
                tracing::warn!(game = %id, error = %e, "cannot release the game: kept");
                let at = self.game_now();
                let resume = GameAction::Resume { wall_ms: Some(self.to_wall(at)) };
                self.store_mark(&resume, at).await;
                false
            }
        }
    }

    fn crowd(&self) -> Crowd {
        let wall = now_ms();
        let timeout = abandon_timeout_ms(self.game.clock().time_control().speed());
        // Before both sides have moved an absent player means the first-move deadline, not a
        // claim.
        let started = self.game.start_policy().is_none() || !self.game.awaiting_first_moves();
        let abandoned = [Color::White, Color::Black].into_iter().find_map(|c| {
            let since = self.gone_since[c]?;
            (started && !self.game.is_over()).then(|| (c, (since + timeout).saturating_sub(wall)))
        });
        Crowd {
            spectators: self.spectators,
            online: ByColor::new_with(|c| {
                self.connections[c] > 0 || self.handle.meta.player(c).kind == PlayerKind::Engine
            }),
            abandoned,
        }
    }

    fn broadcast_crowd(&self) {
        self.broadcast(&self.crowd().event());
    }

    /// Sends `msg` to every connection, written once.
    fn broadcast(&self, msg: &ServerMessage) {
        let _ = self.updates.send(Arc::from(msg.to_text()));
    }

    /// The `rejected` message for a refusal, logged at the refusal's level.
    fn rejected(&self, refusal: Refusal) -> ServerMessage {
        let id = &self.handle.meta.id;
        match refusal.level() {
            tracing::Level::ERROR => {
                tracing::error!(game = %id, code = refusal.code(), "action refused")
            }
            _ => tracing::debug!(game = %id, code = refusal.code(), "action refused"),
        }
        ServerMessage::Rejected { refusal, ply: Some(self.game.plies().len()) }
    }

    /// A player's action: checks the ply, stamps it at its arrival (a move with its lag
    /// allowance), applies it.
    async fn act(
        &mut self,
        by: Color,
        action: PlayerAction,
        ply: Option<usize>,
        lag_ms: u64,
        received_ms: u64,
    ) -> Result<(), Refusal> {
        let current = self.game.plies().len();
        if self.finished_at.is_some() || self.game.is_over() {
            return Err(Refusal::GameOver);
        }
        if action.needs_ply() && ply != Some(current) {
            return Err(Refusal::StalePly { current, sent: ply });
        }
        // A tournament game is the arbiter's to end before it starts (RULES.md §12: the
        // default time), never the players'.
        if self.handle.meta.tournament.is_some() && action == PlayerAction::Abort {
            return Err(Refusal::Arbiter(rookery_arbiter::Rejection::TooLateToAbort));
        }
        let at = ((received_ms as i64 - self.offset).max(0) as u64).max(self.last_stamp);
        let mut credit = 0;
        if let PlayerAction::Move { .. } = action {
            // Lag allowance (docs/protocol.md): half the measured round trip, bounded per move,
            // by the player's quota and by the time since the last action. The mover's clock
            // stops that much before `at`; the opponent's starts at `at`.
            credit =
                lag_ms.min(MAX_LAG_PER_MOVE_MS).min(self.lag_quota[by]).min(at - self.last_stamp);
            self.lag_quota[by] = (self.lag_quota[by] - credit + LAG_REFILL_MS).min(LAG_QUOTA_MS);
        }
        let takeback = action == PlayerAction::Takeback;
        self.apply(GameAction::Player { by, action, lag_ms: credit }, at).await?;
        // The engine grants a takeback at once (only casual games allow them).
        if let (true, Some(seat)) = (takeback, &self.engine) {
            let grant = GameAction::Player {
                by: seat.color,
                action: PlayerAction::AcceptTakeback,
                lag_ms: 0,
            };
            let _ = self.apply(grant, at).await;
        }
        self.engine_turn();
        Ok(())
    }

    /// The claim of a player whose opponent has gone (lichess-like): only after both sides
    /// have moved (before, the first-move deadline aborts the game), and only when the
    /// opponent has been gone for the whole countdown.
    async fn claim_abandoned(&mut self, by: Color, draw: bool) -> Result<(), Refusal> {
        if self.finished_at.is_some() || self.game.is_over() {
            return Err(Refusal::GameOver);
        }
        if self.game.start_policy().is_some() && self.game.awaiting_first_moves() {
            return Err(Refusal::NotStarted);
        }
        let opponent = !by;
        let timeout = abandon_timeout_ms(self.game.clock().time_control().speed());
        let gone_long = self.gone_since[opponent].is_some_and(|since| now_ms() >= since + timeout);
        if !gone_long || self.connections[opponent] > 0 {
            return Err(Refusal::NotAbandoned);
        }
        let result = if draw { GameResult::Draw } else { GameResult::Win(by) };
        let outcome = Outcome { result, termination: Termination::Abandoned };
        let at = self.game_now();
        self.apply(GameAction::Adjudicate(outcome), at).await
    }

    /// Applies an action at game time `at`: stores it if it changed anything, then tells
    /// everyone. An action that changes nothing is neither stored nor told. On a storage
    /// failure (rare) the game is rebuilt from what the store holds, and the action refused.
    async fn apply(&mut self, action: GameAction, at: u64) -> Result<(), Refusal> {
        let (events, refusal) = match action.apply(&mut self.game, at) {
            Ok(events) => (events, None),
            Err(rejected) => (rejected.events, Some(Refusal::Arbiter(rejected.reason))),
        };
        let outcome = refusal.map_or(Ok(()), Err);
        if events.is_empty() {
            return outcome;
        }
        match self.store(&action, at).await {
            Ok(Written::Done(())) => {}
            Ok(Written::FencedOut) => {
                // It wrote nothing: stop, and the sockets close and reconnect.
                self.fenced_out();
                return Err(Refusal::Storage);
            }
            Err(e) => {
                tracing::error!(game = %self.handle.meta.id, error = %e, "cannot store an action; refused");
                self.reload().await;
                return Err(Refusal::Storage);
            }
        }
        if events.iter().any(|e| matches!(e, Event::TakenBack { .. })) {
            let now = self.game_now();
            let game = Box::new(live_view(&self.handle.meta, &self.game, now, &self.crowd()));
            self.broadcast(&self.stamped(ServerMessage::State { game }, now));
        }
        for msg in event_messages(&self.game, &events, at) {
            self.broadcast(&self.stamped(msg, at));
        }
        // A tournament's round may be unpaired only while none of its games has a move
        // (api.md, `unpair`): the tournament is told of each game's first.
        let first_move = self.game.plies().len() == 1
            && events.iter().any(|e| matches!(e, Event::MovePlayed { .. }));
        if first_move {
            let seat = self.handle.meta.tournament.clone();
            self.live
                .events
                .publish(GameEvent::Started { game: self.handle.meta.id.clone(), seat });
        }
        if self.game.is_over() {
            self.finalize().await;
        }
        outcome
    }

    /// Puts the game back as the store holds it, after an action was applied but could not be
    /// stored. Waits for the store to answer: until then no action can be stored anyway.
    async fn reload(&mut self) {
        let id = self.handle.meta.id.to_string();
        for attempt in 0u32.. {
            let stored = self.live.services.store.game(&id).await;
            let rebuilt = match &stored {
                Ok(Some(g)) => rebuild(g).map_err(|e| e.to_string()),
                Ok(None) => Err("the game is gone".to_owned()),
                Err(e) => Err(e.to_string()),
            };
            match rebuilt {
                Ok(Rebuilt { game, seq, last_stamp, .. }) => {
                    self.game = game;
                    self.seq = seq;
                    self.last_stamp = last_stamp;
                    return;
                }
                Err(e) => {
                    tracing::error!(game = %id, error = %e, attempt, "cannot reload the game from the store; retrying");
                    tokio::time::sleep(Duration::from_millis(200 << attempt.min(5))).await;
                }
            }
        }
    }

    /// Appends `action` at game time `at` to storage.
    async fn store(&mut self, action: &GameAction, at: u64) -> Result<Written<()>, StoreError> {
        let (kind, data) = action.encode();
        let stored =
            rookery_store::Action { seq: self.seq, at_ms: at as i64, kind: kind.to_owned(), data };
        let written = self.writer.append_action(self.handle.meta.id.as_str(), &stored).await?;
        if let Written::Done(()) = written {
            self.seq += 1;
            self.last_stamp = self.last_stamp.max(at);
        }
        Ok(written)
    }

    /// Stores a mark of the clocks (a pause, a resume), which nothing waits on: a failure is
    /// logged, and a stale claim is found again by the next action.
    async fn store_mark(&mut self, mark: &GameAction, at: u64) {
        match self.store(mark, at).await {
            Ok(Written::Done(())) => {}
            Ok(Written::FencedOut) => {
                tracing::warn!(game = %self.handle.meta.id, mark = mark.encode().0, "cannot store a mark: another node owns the game now")
            }
            Err(e) => {
                tracing::warn!(game = %self.handle.meta.id, mark = mark.encode().0, error = %e, "cannot store a mark")
            }
        }
    }

    /// Another node claimed the game (this one was paused or cut off past its lease): this
    /// node wrote nothing, and its actor stops.
    fn fenced_out(&mut self) {
        tracing::warn!(game = %self.handle.meta.id, "fenced: this node no longer owns the game; its actor stops");
        self.stopped = true;
    }

    /// Stores the result, the PGN and the ladder changes (one transaction), then sends `end`.
    async fn finalize(&mut self) {
        let Some(outcome) = self.game.outcome() else { return };
        let finish = Finish {
            game_id: self.handle.meta.id.to_string(),
            result: outcome.result,
            termination: outcome.termination.label().to_owned(),
            pgn: super::record_pgn(&self.game),
            ended_at_ms: now_ms() as i64,
        };
        let mut ladder: Option<RatingChanges> = None;
        for attempt in 0..5u64 {
            let turn = self.live.write_turn().await;
            let finished = self.writer.finish_game(&finish).await;
            drop(turn);
            match finished {
                Ok(Written::Done(changes)) => {
                    ladder = changes;
                    break;
                }
                Err(StoreError::Conflict(_)) => break,
                Ok(Written::FencedOut) => {
                    // The result is the new owner's to store.
                    self.fenced_out();
                    return;
                }
                Err(e) => {
                    tracing::error!(game = %finish.game_id, error = %e, attempt, "cannot store the result; retrying");
                    tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
                }
            }
        }
        tracing::info!(game = %finish.game_id, result = %finish.result, termination = %finish.termination, "game over");
        self.finished_at = Some(now_ms());
        // Out of the live list at once; sockets already joined keep this actor until they go.
        self.live.remove(&self.handle);
        let now = self.game_now();
        self.broadcast(&self.stamped(end_message(&self.game, now, ladder.as_ref()), now));
        self.live.events.publish(GameEvent::Ended {
            game: self.handle.meta.id.clone(),
            seat: self.handle.meta.tournament.clone(),
            outcome,
            plies: self.game.plies().len() as u32,
        });
    }

    /// Starts the engine thinking if it is on move.
    fn engine_turn(&mut self) {
        let Some(seat) = &mut self.engine else { return };
        if self.game.is_over() || self.game.position().turn() != seat.color || seat.thinking {
            return;
        }
        let now = self.last_stamp.max(((now_ms() as i64 - self.offset).max(0)) as u64);
        seat.think(&self.game, now, self.handle.clone());
    }
}

async fn sleep_until(wall_ms: Option<u64>) {
    match wall_ms {
        None => std::future::pending().await,
        Some(at) => {
            let wait = at.saturating_sub(now_ms());
            tokio::time::sleep_until(Instant::now() + Duration::from_millis(wait)).await;
        }
    }
}

/// How long a player may be gone before the opponent may claim (lichess-like: shorter in
/// fast games).
pub fn abandon_timeout_ms(speed: Speed) -> u64 {
    match speed {
        Speed::Bullet => 15_000,
        Speed::Blitz | Speed::Rapid => 30_000,
        Speed::Classical => 60_000,
        Speed::Correspondence | Speed::Untimed => 24 * 3600 * 1000,
    }
}
