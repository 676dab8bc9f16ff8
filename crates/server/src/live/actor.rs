//! The actor that owns one live game. It alone touches the arbiter [`Game`]: it applies each
//! action at the server's clock reading, appends what changed to storage, and only then
//! broadcasts (ARCHITECTURE.md, "the path of one move").

use std::sync::Arc;
use std::time::Duration;

use rookery_arbiter::{Event, Game, Rejected, Rejection, Speed};
use rookery_core::{ByColor, Color};
use rookery_store::{Finish, PlayerKind, RatingChanges};
use serde_json::{json, Value};
use tokio::sync::{broadcast, mpsc};
use tokio::time::Instant;

use super::action::{color_name, Action, Side};
use super::engine_player::EngineSeat;
use super::view::{crowd_json, end_json, event_messages, game_json, Crowd};
use super::{Command, GameHandle, Joined, Request, Seat};
use crate::state::{now_ms, AppState};

/// The most lag one move is credited with.
const MAX_LAG_PER_MOVE_MS: u64 = 500;
/// The lag quota of a player, and its refill per move.
const LAG_QUOTA_MS: u64 = 2_000;
const LAG_REFILL_MS: u64 = 100;
/// How long a finished game's actor stays for the sockets still watching it.
const LINGER_MS: u64 = 10 * 60 * 1000;

pub(super) fn spawn(
    state: Arc<AppState>,
    handle: GameHandle,
    rx: mpsc::Receiver<Command>,
    game: Game,
    seq: i64,
    last_stamp: u64,
    resumed: bool,
) {
    let meta = handle.meta.clone();
    let wall = now_ms();
    let human = |c: Color| meta.player(c).kind != PlayerKind::Engine;
    let gone_since = ByColor::new_with(|c| human(c).then_some(wall));
    let engine = [Color::White, Color::Black]
        .into_iter()
        .find(|&c| meta.player(c).kind == PlayerKind::Engine)
        .map(|c| EngineSeat::new(c, meta.player(c).engine_level.unwrap_or(1)));
    let (updates, _) = broadcast::channel(64);
    let actor = Actor {
        state,
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
    };
    tokio::spawn(actor.run(rx, resumed));
}

struct Actor {
    state: Arc<AppState>,
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
}

impl Actor {
    async fn run(mut self, mut rx: mpsc::Receiver<Command>, resumed: bool) {
        let id = self.handle.meta.id.clone();
        if resumed {
            let at = self.game_now();
            if let Err(e) = self.store(&Action::Resume, at).await {
                tracing::warn!(game = %id, error = %e, "cannot store the resume mark");
            }
        }
        // A game that ended before a crash, but whose result was not stored yet.
        if self.game.is_over() {
            self.finalize().await;
        }
        self.engine_turn();
        loop {
            let wake = self.next_wake();
            let command = tokio::select! {
                c = rx.recv() => c,
                () = sleep_until(wake) => { self.on_timer().await; continue; }
            };
            let Some(command) = command else { break };
            self.handle_command(command).await;
            if self.stopped || self.should_exit() {
                break;
            }
        }
        self.state.live.remove(&id);
        tracing::debug!(game = %id, "actor ended");
    }

    /// Game time now: wall time less the outage, never before the last stored stamp.
    fn game_now(&self) -> u64 {
        ((now_ms() as i64 - self.offset).max(0) as u64).max(self.last_stamp)
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

    /// When to wake without a message: the running side's flag, or the linger's end.
    fn next_wake(&self) -> Option<u64> {
        if let Some(at) = self.finished_at {
            return Some(at + LINGER_MS + 1);
        }
        let clock = self.game.clock();
        let running = clock.running()?;
        clock.flag_deadline(running).map(|d| self.to_wall(d.saturating_add(1)))
    }

    async fn on_timer(&mut self) {
        if self.finished_at.is_some() {
            self.stopped = self.should_exit();
            return;
        }
        let now = self.game_now();
        let mut probe = self.game.clone();
        if probe.poll(now).is_empty() {
            return;
        }
        let _ = self.apply(Action::Flag, now).await;
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
                let mut hello = json!({ "t": "hello", "you": match seat { Seat::Player(c) => Value::from(color_name(c)), Seat::Spectator => Value::Null } });
                hello["game"] = game_json(&self.handle.meta, &self.game, now, &self.crowd());
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
            Command::Act { by, request, ply, lag_ms, received_ms, reply } => {
                let answer = self.act(by, request, ply, lag_ms, received_ms).await;
                let _ = reply.send(answer);
            }
            Command::Snapshot { reply } => {
                let now = self.game_now();
                let _ = reply.send(game_json(&self.handle.meta, &self.game, now, &self.crowd()));
            }
            Command::Pgn { reply } => {
                let _ = reply.send(self.game.to_pgn());
            }
            Command::EngineMove { key, uci, engine } => {
                if let Some(seat) = &mut self.engine {
                    seat.engine = Some(engine);
                    seat.thinking = false;
                }
                if let (Some(uci), Some(seat)) = (uci, &self.engine) {
                    let color = seat.color;
                    // The position may have changed while it thought (a takeback): then the move
                    // is for another position and is dropped.
                    if key == self.game.position().zobrist()
                        && !self.game.is_over()
                        && self.game.position().turn() == color
                    {
                        let now = self.game_now();
                        let action = Action::Move {
                            by: color.into(),
                            uci: Some(uci),
                            san: None,
                            offer_draw: false,
                        };
                        if let Err(r) = self.apply(action, now).await {
                            tracing::error!(game = %self.handle.meta.id, reason = %r.reason, "the engine's move was refused");
                        }
                    }
                }
                self.engine_turn();
            }
            Command::Shutdown { reply } => {
                if self.finished_at.is_none() && !self.game.is_over() {
                    let at = self.game_now();
                    if let Err(e) = self.store(&Action::Pause, at).await {
                        tracing::warn!(game = %self.handle.meta.id, error = %e, "cannot store the pause");
                    }
                }
                self.stopped = true;
                let _ = reply.send(());
            }
        }
    }

    fn crowd(&self) -> Crowd {
        let wall = now_ms();
        let timeout = abandon_timeout_ms(self.game.clock().time_control().speed());
        let abandoned = [Color::White, Color::Black].into_iter().find_map(|c| {
            let since = self.gone_since[c]?;
            (!self.game.is_over()).then(|| (c, (since + timeout).saturating_sub(wall)))
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
        self.broadcast(&crowd_json(&self.crowd()));
    }

    fn broadcast(&self, msg: &Value) {
        let _ = self.updates.send(Arc::from(msg.to_string()));
    }

    /// A player's request: checks the ply, maps it to an action at the lag-corrected time,
    /// applies it. Returns the `rejected` message for the sender, if refused.
    async fn act(
        &mut self,
        by: Color,
        request: Request,
        ply: Option<usize>,
        lag_ms: u64,
        received_ms: u64,
    ) -> Option<Value> {
        let current = self.game.plies().len();
        let rejected = |code: &str, message: String| {
            Some(json!({ "t": "rejected", "code": code, "message": message, "ply": current }))
        };
        if self.finished_at.is_some() || self.game.is_over() {
            return rejected("game_over", "the game is over".into());
        }
        if request.needs_ply() && ply != Some(current) {
            return rejected(
                "stale_ply",
                format!(
                    "the game is at ply {current}, not {}",
                    ply.map_or("(missing)".into(), |p| p.to_string())
                ),
            );
        }
        let side: Side = by.into();
        let is_takeback = matches!(request, Request::Takeback);
        let received_game = ((received_ms as i64 - self.offset).max(0) as u64).max(self.last_stamp);
        let mut at = received_game;
        let action = match request {
            Request::Move { uci, san, offer_draw } => {
                // Lag allowance (docs/protocol.md): half the measured round trip, bounded per
                // move and by the player's quota.
                let credit = lag_ms.min(MAX_LAG_PER_MOVE_MS).min(self.lag_quota[by]);
                at = received_game.saturating_sub(credit).max(self.last_stamp);
                self.lag_quota[by] =
                    (self.lag_quota[by] - credit + LAG_REFILL_MS).min(LAG_QUOTA_MS);
                Action::Move { by: side, uci, san, offer_draw }
            }
            Request::Touch(square) => Action::Touch { by: side, square: square.to_string() },
            Request::AcceptDraw => Action::AcceptDraw { by: side },
            Request::DeclineDraw => Action::DeclineDraw { by: side },
            Request::ClaimDraw { claim, uci } => Action::ClaimDraw { by: side, claim, uci },
            Request::Resign => Action::Resign { by: side },
            Request::Abort => Action::Abort { by: side },
            Request::Takeback => Action::Takeback { by: side },
            Request::AcceptTakeback => Action::AcceptTakeback { by: side },
            Request::ClaimAbandoned { draw } => {
                let opponent = !by;
                let timeout = abandon_timeout_ms(self.game.clock().time_control().speed());
                let gone_long =
                    self.gone_since[opponent].is_some_and(|since| now_ms() >= since + timeout);
                if !gone_long || self.connections[opponent] > 0 {
                    return rejected(
                        "not_abandoned",
                        "your opponent is here, or has not been gone long enough".into(),
                    );
                }
                let result = if draw {
                    "1/2-1/2"
                } else if by == Color::White {
                    "1-0"
                } else {
                    "0-1"
                };
                Action::Adjudicate { result: result.into(), termination: "abandoned".into() }
            }
        };
        match self.apply(action, at).await {
            Ok(()) => {
                // The engine grants a takeback at once (only casual games allow them).
                if let (true, Some(seat)) = (is_takeback, &self.engine) {
                    let engine_side: Side = seat.color.into();
                    let _ = self.apply(Action::AcceptTakeback { by: engine_side }, at).await;
                }
                self.engine_turn();
                None
            }
            Err(r) => {
                let code = rejection_code(&r.reason);
                Some(
                    json!({ "t": "rejected", "code": code, "message": r.reason.to_string(), "ply": self.game.plies().len() }),
                )
            }
        }
    }

    /// Applies an action at game time `at`: stores it if it changed anything, then tells
    /// everyone. On a storage failure the game is put back as it was.
    async fn apply(&mut self, action: Action, at: u64) -> Result<(), Rejected> {
        let before = self.game.clone();
        let result = action.apply(&mut self.game, at);
        let events = match &result {
            Ok(events) => events.clone(),
            Err(r) => r.events.clone(),
        };
        if events.is_empty() {
            return result.map(|_| ());
        }
        if let Err(e) = self.store(&action, at).await {
            tracing::error!(game = %self.handle.meta.id, error = %e, "cannot store an action; refused");
            self.game = before;
            return Err(Rejected {
                reason: Rejection::Unreadable("storage unavailable, try again".into()),
                events: Vec::new(),
            });
        }
        if events.iter().any(|e| matches!(e, Event::TakenBack { .. })) {
            let now = self.game_now();
            let mut state = json!({ "t": "state" });
            state["game"] = game_json(&self.handle.meta, &self.game, now, &self.crowd());
            self.broadcast(&state);
        }
        for msg in event_messages(&self.game, &events, at) {
            self.broadcast(&msg);
        }
        if self.game.is_over() {
            self.finalize().await;
        }
        result.map(|_| ())
    }

    /// Appends `action` at game time `at` to storage.
    async fn store(&mut self, action: &Action, at: u64) -> Result<(), rookery_store::StoreError> {
        let (kind, data) = action.encode();
        let stored = rookery_store::Action { seq: self.seq, at_ms: at as i64, kind, data };
        // The store commits the actions of many games together (group commit).
        self.state.store.append_action(&self.handle.meta.id, &stored).await?;
        self.seq += 1;
        self.last_stamp = self.last_stamp.max(at);
        Ok(())
    }

    /// Stores the result, the PGN and the ladder changes (one transaction), then sends `end`.
    async fn finalize(&mut self) {
        let Some(outcome) = self.game.outcome() else { return };
        let finish = Finish {
            game_id: self.handle.meta.id.clone(),
            result: outcome.result.pgn().to_owned(),
            termination: outcome.termination.label().to_owned(),
            pgn: self.game.to_pgn(),
            ended_at_ms: now_ms() as i64,
        };
        let mut ladder: Option<RatingChanges> = None;
        for attempt in 0..5u64 {
            let turn = self.state.write_turn().await;
            let finished = self.state.store.finish_game(&finish).await;
            drop(turn);
            match finished {
                Ok(changes) => {
                    ladder = changes;
                    break;
                }
                Err(rookery_store::StoreError::Conflict(_)) => break,
                Err(e) => {
                    tracing::error!(game = %finish.game_id, error = %e, attempt, "cannot store the result; retrying");
                    tokio::time::sleep(Duration::from_millis(200 << attempt)).await;
                }
            }
        }
        tracing::info!(game = %finish.game_id, result = %finish.result, termination = %finish.termination, "game over");
        self.finished_at = Some(now_ms());
        // Out of the live list at once; sockets already joined keep this actor until they go.
        self.state.live.remove(&self.handle.meta.id);
        let now = self.game_now();
        self.broadcast(&end_json(&self.game, now, ladder.as_ref()));
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

/// The protocol code of an arbiter rejection.
pub fn rejection_code(r: &Rejection) -> &'static str {
    match r {
        Rejection::GameOver => "game_over",
        Rejection::NotYourTurn => "not_your_turn",
        Rejection::Unreadable(text) if text.starts_with("storage") => "storage",
        Rejection::Unreadable(_) => "unreadable",
        Rejection::NotAMove(_) => "not_a_move",
        Rejection::Ambiguous(_) => "ambiguous",
        Rejection::Illegal(_) => "illegal",
        Rejection::TouchMove(_) => "touch_move",
        Rejection::OfferNotAllowed(_) => "offer_not_allowed",
        Rejection::NoOfferPending => "no_offer_pending",
        Rejection::ClaimsNotUsed => "claims_not_used",
        Rejection::ClaimIncorrect(_) => "claim_incorrect",
        Rejection::TooLateToAbort => "too_late_to_abort",
        Rejection::TakebacksNotAllowed => "takebacks_not_allowed",
        Rejection::NoTakeback => "no_takeback",
    }
}
