//! Live games: one actor (a tokio task) owns each game and its arbiter [`Game`]; everyone
//! else holds a [`GameHandle`] and sends it messages (ARCHITECTURE.md, "the path of one
//! move").

mod action;
mod actor;
mod engine_player;
mod view;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use rookery_arbiter::{Game, GameSpec, RuleSet, TimeControl};
use rookery_core::{Color, Square};
use rookery_store::{NewGame, Player, StoredGame};
use serde_json::Value;
use tokio::sync::{broadcast, mpsc, oneshot};

pub use action::{parse_claim, Action};
pub use view::{game_json, level_json, player_json, Crowd};

use crate::error::ApiError;
use crate::state::{now_ms, random_id, AppState};

/// What a game is, apart from its moves.
#[derive(Clone, Debug)]
pub struct Meta {
    /// The game id.
    pub id: String,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The rule set.
    pub rules: RuleSet,
    /// The time control as the players chose it (arbiter syntax).
    pub time_control: String,
    /// Its speed category.
    pub speed: &'static str,
    /// Whether it counts for the ladder.
    pub rated: bool,
    /// A starting FEN other than the standard one.
    pub initial_fen: Option<String>,
    /// When it was created (Unix ms).
    pub created_at_ms: u64,
}

impl Meta {
    /// The player of `color`.
    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The arbiter's description of the game.
    ///
    /// # Errors
    /// The time control or the FEN cannot be read (only for corrupt stored games: new
    /// games are checked before they are created).
    pub fn spec(&self) -> Result<GameSpec, String> {
        let tc: TimeControl = self.time_control.parse().map_err(|e| format!("{e}"))?;
        let date =
            rookery_pgn::date::UtcDateTime::from_unix_secs(self.created_at_ms / 1000).pgn_date();
        Ok(GameSpec {
            fen: self.initial_fen.clone(),
            rules: self.rules,
            time_control: Some(tc),
            white: self.white.name.clone(),
            black: self.black.name.clone(),
            tags: vec![
                (
                    "Event".into(),
                    if self.rated { "Rated game".into() } else { "Casual game".into() },
                ),
                ("Site".into(), format!("Rookery, game {}", self.id)),
                ("Date".into(), date),
                ("Round".into(), "-".into()),
                ("GameId".into(), self.id.clone()),
            ],
        })
    }

    /// From the store's row.
    pub fn from_stored(g: &StoredGame) -> Result<Meta, String> {
        let rules: RuleSet = g.rules.parse().map_err(|e| format!("{e}"))?;
        let tc: TimeControl = g.time_control.parse().map_err(|e| format!("{e}"))?;
        Ok(Meta {
            id: g.id.clone(),
            white: g.white.clone(),
            black: g.black.clone(),
            rules,
            time_control: g.time_control.clone(),
            speed: tc.speed().name(),
            rated: g.rated,
            initial_fen: g.initial_fen.clone(),
            created_at_ms: g.created_at_ms.max(0) as u64,
        })
    }
}

/// Where a connection sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A player.
    Player(Color),
    /// A spectator.
    Spectator,
}

/// What a player asks of the game (parsed from the socket).
#[derive(Clone, Debug)]
pub enum Request {
    /// A move (UCI or SAN).
    Move {
        /// UCI text.
        uci: Option<String>,
        /// SAN text.
        san: Option<String>,
        /// With a draw offer.
        offer_draw: bool,
    },
    /// A touch.
    Touch(Square),
    /// Accept the offer.
    AcceptDraw,
    /// Decline the offer.
    DeclineDraw,
    /// Claim a draw.
    ClaimDraw {
        /// `threefold` or `fifty`.
        claim: String,
        /// The written move.
        uci: Option<String>,
    },
    /// Resign.
    Resign,
    /// Abort.
    Abort,
    /// Ask for a takeback.
    Takeback,
    /// Grant a takeback.
    AcceptTakeback,
    /// Claim the win (or a draw) because the opponent left.
    ClaimAbandoned {
        /// A draw rather than the win.
        draw: bool,
    },
}

impl Request {
    /// Whether the request must carry the current ply.
    pub fn needs_ply(&self) -> bool {
        !matches!(self, Request::Resign | Request::Abort | Request::ClaimAbandoned { .. })
    }
}

/// A connection's view of the game when it joins.
pub struct Joined {
    /// The `hello` message.
    pub hello: Value,
    /// Everything broadcast from now on.
    pub updates: broadcast::Receiver<Arc<str>>,
}

/// Messages to a game's actor.
pub enum Command {
    /// A connection joins.
    Join {
        /// As what.
        seat: Seat,
        /// The answer.
        reply: oneshot::Sender<Joined>,
    },
    /// A connection left.
    Leave {
        /// As what.
        seat: Seat,
    },
    /// A player acts.
    Act {
        /// Who.
        by: Color,
        /// What.
        request: Request,
        /// The ply the player saw (`None` when not needed).
        ply: Option<usize>,
        /// The connection's measured one-way lag, in ms.
        lag_ms: u64,
        /// When the server received it (Unix ms).
        received_ms: u64,
        /// `None` when done, or the `rejected` message for the sender.
        reply: oneshot::Sender<Option<Value>>,
    },
    /// The full state, as `GET /api/v1/games/{id}` shows it.
    Snapshot {
        /// The answer.
        reply: oneshot::Sender<Value>,
    },
    /// The PGN so far.
    Pgn {
        /// The answer.
        reply: oneshot::Sender<String>,
    },
    /// The engine found its move.
    EngineMove {
        /// The Zobrist key of the position it was asked about.
        key: u64,
        /// Its move, `None` if it had none.
        uci: Option<String>,
        /// The engine, handed back.
        engine: Box<rookery_engine::Engine>,
    },
    /// The server stops: store the clocks and end.
    Shutdown {
        /// Done.
        reply: oneshot::Sender<()>,
    },
}

/// A stub for one live game's actor.
#[derive(Clone)]
pub struct GameHandle {
    /// Who plays what.
    pub meta: Arc<Meta>,
    tx: mpsc::Sender<Command>,
}

impl GameHandle {
    /// Sends a command; `false` if the actor has ended.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(command).await.is_ok()
    }

    /// The full state.
    pub async fn snapshot(&self) -> Option<Value> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Snapshot { reply }).await;
        rx.await.ok()
    }

    /// The PGN so far.
    pub async fn pgn(&self) -> Option<String> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Pgn { reply }).await;
        rx.await.ok()
    }

    /// Joins as `seat`.
    pub async fn join(&self, seat: Seat) -> Option<Joined> {
        let (reply, rx) = oneshot::channel();
        self.send(Command::Join { seat, reply }).await;
        rx.await.ok()
    }
}

/// The registry of live games.
#[derive(Default)]
pub struct LiveGames {
    games: Mutex<HashMap<String, GameHandle>>,
}

impl LiveGames {
    /// The live game `id`, if its actor runs.
    pub fn get(&self, id: &str) -> Option<GameHandle> {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).get(id).cloned()
    }

    /// Every live game.
    pub fn list(&self) -> Vec<GameHandle> {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).values().cloned().collect()
    }

    /// How many games have actors.
    pub fn len(&self) -> usize {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).len()
    }

    fn insert(&self, handle: GameHandle) {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).insert(handle.meta.id.clone(), handle);
    }

    pub(crate) fn remove(&self, id: &str) {
        self.games.lock().unwrap_or_else(|e| e.into_inner()).remove(id);
    }

    /// Creates a game between `white` and `black`, stores it, and starts its actor.
    ///
    /// # Errors
    /// A bad time control, rule set or FEN ([`ApiError::BadField`]), or the store failing.
    pub async fn create(
        &self,
        state: &Arc<AppState>,
        white: Player,
        black: Player,
        rules: RuleSet,
        time_control: &str,
        rated: bool,
    ) -> Result<GameHandle, ApiError> {
        let tc: TimeControl =
            time_control.parse().map_err(|e| ApiError::field("time_control", format!("{e}")))?;
        let now = now_ms();
        let meta = Meta {
            id: random_id(8),
            white,
            black,
            rules,
            time_control: time_control.to_owned(),
            speed: tc.speed().name(),
            rated,
            initial_fen: None,
            created_at_ms: now,
        };
        let spec = meta.spec().map_err(|e| ApiError::field("time_control", e))?;
        let game = Game::new(spec, now).map_err(|e| ApiError::field("fen", e.to_string()))?;
        let turn = state.write_turn().await;
        state
            .store
            .create_game(&NewGame {
                id: meta.id.clone(),
                white: meta.white.clone(),
                black: meta.black.clone(),
                rules: rules.label().to_owned(),
                time_control: meta.time_control.clone(),
                rated,
                initial_fen: None,
                created_at_ms: now as i64,
            })
            .await?;
        drop(turn);
        tracing::info!(game = %meta.id, white = %meta.white.name, black = %meta.black.name, tc = %meta.time_control, rules = rules.label(), rated, "game created");
        Ok(self.spawn(state, meta, game, 0, now, false))
    }

    fn spawn(
        &self,
        state: &Arc<AppState>,
        meta: Meta,
        game: Game,
        seq: i64,
        last_stamp: u64,
        resumed: bool,
    ) -> GameHandle {
        let (tx, rx) = mpsc::channel(64);
        let handle = GameHandle { meta: Arc::new(meta), tx };
        self.insert(handle.clone());
        actor::spawn(state.clone(), handle.clone(), rx, game, seq, last_stamp, resumed);
        handle
    }

    /// Rebuilds every live game in the store (after a restart) and starts its actor.
    pub async fn resume_all(&self, state: &Arc<AppState>) {
        let stored = match state.store.live_games().await {
            Ok(games) => games,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the live games to resume");
                return;
            }
        };
        for g in stored {
            match rebuild(&g) {
                Ok((meta, game, last_stamp)) => {
                    let seq = g.actions.last().map_or(0, |a| a.seq + 1);
                    tracing::info!(game = %meta.id, plies = game.plies().len(), "resumed");
                    self.spawn(state, meta, game, seq, last_stamp, true);
                }
                Err(e) => {
                    tracing::error!(game = %g.id, error = %e, "cannot rebuild a live game; left as it is")
                }
            }
        }
    }

    /// Stops every actor, each storing its clocks first.
    pub async fn shutdown(&self) {
        for handle in self.list() {
            let (reply, rx) = oneshot::channel();
            if handle.send(Command::Shutdown { reply }).await {
                let _ = rx.await;
            }
        }
    }
}

/// Replays a stored game: its meta, the arbiter game after every stored action, and the last
/// game-time stamp.
///
/// # Errors
/// A description of what cannot be read.
pub fn rebuild(g: &StoredGame) -> Result<(Meta, Game, u64), String> {
    let meta = Meta::from_stored(g)?;
    let mut game = Game::new(meta.spec()?, meta.created_at_ms).map_err(|e| e.to_string())?;
    let mut last = meta.created_at_ms;
    for stored in &g.actions {
        let action = Action::decode(&stored.kind, &stored.data)
            .map_err(|e| format!("action {} ({}): {e}", stored.seq, stored.kind))?;
        let at = (stored.at_ms.max(0) as u64).max(last);
        let _ = action.apply(&mut game, at);
        last = at;
    }
    Ok((meta, game, last))
}
