//! Live games: one actor (a tokio task) owns each game and its arbiter [`Game`]; everyone
//! else holds a [`GameHandle`] and sends it messages (ARCHITECTURE.md, "the path of one
//! move").

mod actor;
mod engine_player;
mod events;
mod shared;
mod view;

use std::collections::HashMap;
use std::fmt;
use std::sync::{Arc, Mutex};

use rookery_arbiter::{
    Game, GameRecord, GameSpec, GameSpecError, ParseStartPolicyError, ParseTimeControlError,
    RecordError, RuleSet, StartPolicy, TimeControl,
};
use rookery_cluster::{Claim, Claimed, Ownership, Relay};
use rookery_core::{ByColor, Color, Move, Position};
use rookery_store::{NewGame, Player, Store, StoredGame, TournamentSeat};
use tokio::sync::{broadcast, mpsc, oneshot};

pub use events::{GameEvent, GameEvents};
pub(crate) use shared::{locate, Located};
pub use view::{finished_view, live_view, main_line, record_of, record_pgn, Crowd};

use crate::clock::now_ms;
use crate::protocol::{
    ClientMessage, DecodeError, GameAction, GameId, GameView, NewLiveGame, PlayerAction, Refusal,
    ServerMessage, Variant,
};

/// What a game is, apart from its moves.
#[derive(Clone, Debug)]
pub struct Meta {
    /// The game id.
    pub id: GameId,
    /// White.
    pub white: Player,
    /// Black.
    pub black: Player,
    /// The rule set.
    pub rules: RuleSet,
    /// The time control as the players chose it.
    pub time_control: TimeControl,
    /// Its speed category.
    pub speed: &'static str,
    /// Whether it counts for the ladder.
    pub rated: bool,
    /// Standard chess, or Chess960 from its start position.
    pub variant: Variant,
    /// A starting FEN other than the standard one: a Chess960 game's start.
    pub initial_fen: Option<String>,
    /// When it was created (Unix ms).
    pub created_at_ms: u64,
    /// How it starts: `None`, the clock runs from the creation (engine games, and games
    /// stored before start policies).
    pub start: Option<StartPolicy>,
    /// A tournament game's tournament, round and board.
    pub tournament: Option<TournamentSeat>,
}

impl Meta {
    /// The row that stores a new game of this meta.
    fn new_game(&self) -> NewGame {
        NewGame {
            id: self.id.to_string(),
            white: self.white.clone(),
            black: self.black.clone(),
            rules: self.rules.label().to_owned(),
            time_control: self.time_control.to_string(),
            rated: self.rated,
            initial_fen: self.initial_fen.clone(),
            variant: self.variant.castling_mode(),
            created_at_ms: self.created_at_ms as i64,
            start_policy: self.start.map(|p| p.to_string()),
        }
    }

    /// The player of `color`.
    pub fn player(&self, color: Color) -> &Player {
        match color {
            Color::White => &self.white,
            Color::Black => &self.black,
        }
    }

    /// The arbiter's description of the game.
    pub fn spec(&self) -> GameSpec {
        let date =
            rookery_pgn::date::UtcDateTime::from_unix_secs(self.created_at_ms / 1000).pgn_date();
        let (event, round) = match &self.tournament {
            Some(seat) => (
                format!("Rookery tournament {}", seat.tournament),
                seat.round.map_or_else(|| "-".to_owned(), |r| format!("{r}.{}", seat.board)),
            ),
            None => (
                if self.rated { "Rated game".into() } else { "Casual game".into() },
                "-".to_owned(),
            ),
        };
        let mut tags = vec![
            ("Event".into(), event),
            ("Site".into(), format!("Rookery, game {}", self.id)),
            ("Date".into(), date),
            ("Round".into(), round),
            ("GameId".into(), self.id.to_string()),
        ];
        if let Variant::Chess960(_) = self.variant {
            // Before the record's `[SetUp]` and `[FEN]` (the arbiter writes them after the
            // spec's tags): a reader knows the castling mode before it reads the start, as in
            // lichess's exports.
            tags.push(("Variant".into(), "Chess960".into()));
        }
        GameSpec {
            fen: self.initial_fen.clone(),
            castling_mode: self.variant.castling_mode(),
            rules: self.rules,
            time_control: Some(self.time_control.clone()),
            white: self.white.name.clone(),
            black: self.black.name.clone(),
            tags,
            start: self.start,
        }
    }

    /// From the store's row.
    ///
    /// # Errors
    /// What cannot be read (only for corrupt stored games: new games are checked before
    /// they are created).
    pub fn from_stored(g: &StoredGame) -> Result<Meta, StoredGameError> {
        let id = GameId::parse(&g.id).ok_or_else(|| StoredGameError::Id(g.id.clone()))?;
        let rules: RuleSet = g.rules.parse().map_err(StoredGameError::Rules)?;
        let tc: TimeControl = g.time_control.parse().map_err(StoredGameError::TimeControl)?;
        let start = match &g.start_policy {
            None => None,
            Some(text) => Some(text.parse::<StartPolicy>().map_err(StoredGameError::Start)?),
        };
        let variant = stored_variant(g.variant, g.initial_fen.as_deref())?;
        Ok(Meta {
            id,
            white: g.white.clone(),
            black: g.black.clone(),
            rules,
            speed: tc.speed().name(),
            time_control: tc,
            rated: g.rated,
            variant,
            initial_fen: g.initial_fen.clone(),
            created_at_ms: g.created_at_ms.max(0) as u64,
            start,
            tournament: g.tournament.clone(),
        })
    }
}

/// The variant of a stored game played in `mode` from `initial_fen` (the standard start when
/// `None`): a Chess960 game's start number is read from its start position.
///
/// # Errors
/// [`StoredGameError::Spec`] for a start that does not read, [`StoredGameError::Variant`]
/// for a Chess960 start that is none of the 960.
pub fn stored_variant(
    mode: rookery_core::CastlingMode,
    initial_fen: Option<&str>,
) -> Result<Variant, StoredGameError> {
    let start = match initial_fen {
        None => Position::new().with_castling_mode(mode).map_err(|e| e.into()),
        Some(fen) => Position::from_fen_in(fen, mode),
    }
    .map_err(|e| StoredGameError::Spec(GameSpecError::Fen(e)))?;
    Variant::of_start(mode, &start).map_err(StoredGameError::Variant)
}

/// Where a connection sits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// A player.
    Player(Color),
    /// A spectator.
    Spectator,
}

/// A connection's view of the game when it joins.
pub struct Joined {
    /// The `hello` message.
    pub hello: ServerMessage,
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
        action: PlayerAction,
        /// The ply the player saw (`None` when not sent).
        ply: Option<usize>,
        /// The connection's measured one-way lag, in ms.
        lag_ms: u64,
        /// When the server received it (Unix ms).
        received_ms: u64,
        /// `None` when done, or the `rejected` message for the sender.
        reply: oneshot::Sender<Option<ServerMessage>>,
    },
    /// A player claims the game because the opponent left.
    ClaimAbandoned {
        /// Who.
        by: Color,
        /// A draw rather than the win.
        draw: bool,
        /// `None` when done, or the `rejected` message for the sender.
        reply: oneshot::Sender<Option<ServerMessage>>,
    },
    /// The full state, as `GET /api/v1/games/{id}` shows it.
    Snapshot {
        /// The answer.
        reply: oneshot::Sender<GameView>,
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
        mv: Option<Move>,
        /// The engine, handed back.
        engine: Box<rookery_engine::Engine>,
    },
    /// A competition's arbiter or an arena player acts on the game: time added, a result
    /// declared, berserk. Stored and told like any action.
    Arbiter {
        /// What.
        action: GameAction,
        /// `None` when done, or the refusal.
        reply: oneshot::Sender<Option<Refusal>>,
    },
    /// Another node asks for the game, to serve it where its players' sockets are (issue 39):
    /// granted when no player is connected here but through the relay (`remote` counts those
    /// sockets): the clocks are stored, the game released, and the actor ends.
    HandOff {
        /// The players' sockets relayed from other nodes.
        remote: ByColor<u32>,
        /// Whether it was handed over.
        reply: oneshot::Sender<bool>,
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
    /// This node's claim on the game, under which its writes are made (fenced by its epoch on
    /// a node of a cluster).
    pub claim: Claim,
    tx: mpsc::Sender<Command>,
}

impl GameHandle {
    /// Sends a command; `false` if the actor has ended.
    pub async fn send(&self, command: Command) -> bool {
        self.tx.send(command).await.is_ok()
    }

    /// The full state.
    pub async fn snapshot(&self) -> Option<GameView> {
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

    /// A connection as `seat` leaves.
    pub async fn leave(&self, seat: Seat) {
        self.send(Command::Leave { seat }).await;
    }

    /// Resolves once the actor has ended.
    pub async fn closed(&self) {
        self.tx.closed().await;
    }

    /// Asks the actor to hand the game over to another node (see [`Command::HandOff`]).
    pub async fn hand_off(&self, remote: ByColor<u32>) -> bool {
        let (reply, rx) = oneshot::channel();
        self.send(Command::HandOff { remote, reply }).await;
        rx.await.unwrap_or(false)
    }

    /// What a connection as `seat` sends the client after its message `msg`, received at
    /// `received_ms` over a link of one-way lag `lag_ms`: a `pong`, a `state`, a `rejected`,
    /// or nothing (the action was done: everyone is told by broadcast).
    pub async fn answer(
        &self,
        seat: Seat,
        msg: ClientMessage,
        lag_ms: u64,
        received_ms: u64,
    ) -> Option<ServerMessage> {
        let (reply, rx) = oneshot::channel();
        let command = match (msg, seat) {
            (ClientMessage::Ping, _) => return Some(ServerMessage::Pong { server_ms: now_ms() }),
            (ClientMessage::Sync, _) => {
                return Some(ServerMessage::State { game: Box::new(self.snapshot().await?) })
            }
            (ClientMessage::Act { ply, .. }, Seat::Spectator) => {
                return Some(ServerMessage::Rejected { refusal: Refusal::Spectator, ply })
            }
            (ClientMessage::ClaimAbandoned { .. }, Seat::Spectator) => {
                return Some(ServerMessage::Rejected { refusal: Refusal::Spectator, ply: None })
            }
            (ClientMessage::Act { action, ply }, Seat::Player(by)) => {
                Command::Act { by, action, ply, lag_ms, received_ms, reply }
            }
            (ClientMessage::ClaimAbandoned { draw }, Seat::Player(by)) => {
                Command::ClaimAbandoned { by, draw, reply }
            }
        };
        if !self.send(command).await {
            return Some(ServerMessage::Rejected { refusal: Refusal::GameOver, ply: None });
        }
        rx.await.ok().flatten()
    }
}

/// The registry of live games.
pub struct LiveGames {
    /// The handles the games reach beyond themselves.
    services: Services,
    games: Mutex<HashMap<GameId, GameHandle>>,
    /// Taken while this node takes a game over (issue 39): two sockets of one game arriving
    /// together start one actor, not two (the second claim would fence the first).
    taking_over: tokio::sync::Mutex<()>,
    /// The games' news: first moves and ends.
    pub events: GameEvents,
    /// On a cluster, the count of live games on every node, when it was read (Unix ms) and
    /// how many this node served then: the lobby shows it, read at most every few seconds
    /// whatever the lobby's size, and again at once when this node's own games change.
    counted: Mutex<(u64, usize, usize)>,
    /// Taken around game creation and results when the database is SQLite (see
    /// [`LiveGames::write_turn`]).
    sqlite_writer: tokio::sync::Mutex<()>,
}

/// What the live games reach beyond themselves: handles, no logic. The server's state holds
/// the same handles for its edges; no live game sees that state.
pub struct Services {
    /// The database.
    pub store: Store,
    /// Who serves what (issue 39): this node's lease and claims, or everything its own alone.
    pub ownership: Arc<dyn Ownership>,
    /// The other nodes, to serve a game's requests from them; nobody alone.
    pub relay: Arc<dyn Relay>,
}

impl LiveGames {
    /// No live game yet, over these handles.
    pub fn new(services: Services) -> Arc<LiveGames> {
        Arc::new(LiveGames {
            services,
            games: Mutex::default(),
            taking_over: tokio::sync::Mutex::new(()),
            events: GameEvents::default(),
            counted: Mutex::new((0, 0, 0)),
            sqlite_writer: tokio::sync::Mutex::new(()),
        })
    }

    /// The handles the games reach.
    pub fn services(&self) -> &Services {
        &self.services
    }

    /// How many games are live: this node's actors, or on a cluster every node's (read from
    /// the store at most every 5 s, and at once when this node has started, ended or handed
    /// over a game since: a lobby on the node where a game was just made never shows the
    /// count from before it, which its list of games, read fresh, contradicts).
    pub async fn count_everywhere(&self) -> usize {
        let here = self.len();
        if self.services.ownership.node().is_none() {
            return here;
        }
        let now = now_ms();
        let (at, count, served) = *self.counted.lock().unwrap_or_else(|e| e.into_inner());
        if now < at + 5_000 && served == here {
            return count;
        }
        match self.services.store.count_live_games().await {
            Ok(n) => {
                let n = n as usize;
                *self.counted.lock().unwrap_or_else(|e| e.into_inner()) = (now, n, here);
                n
            }
            Err(e) => {
                tracing::warn!(error = %e, "cannot count the live games");
                count
            }
        }
    }

    /// Waits for this task's turn to create or finish a game, when the database is SQLite.
    ///
    /// SQLite has one writer at a time; pool connections that race for its lock sleep in its
    /// busy handler (1, 2, 5, 10 … ms), which made creating 5,000 games in the load benchmark
    /// (BENCHMARKS.md, "Server load") take 44 s instead of 19 s. Queued here, in order, these
    /// writes rarely meet the lock taken. (Moves need no turn: the store commits them in
    /// groups from one task.) PostgreSQL needs no turn.
    pub async fn write_turn(&self) -> Option<tokio::sync::MutexGuard<'_, ()>> {
        match self.services.store.backend() {
            rookery_store::Backend::Sqlite => Some(self.sqlite_writer.lock().await),
            rookery_store::Backend::Postgres => None,
        }
    }

    /// The live game `id`, if its actor runs.
    pub fn get(&self, id: &GameId) -> Option<GameHandle> {
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

    /// Takes the game of `handle` out of the list, unless another actor holds it already
    /// (a node that took its own game over again, issue 39, runs the new actor alone).
    pub(crate) fn remove(&self, handle: &GameHandle) {
        let mut games = self.games.lock().unwrap_or_else(|e| e.into_inner());
        if games.get(&handle.meta.id).is_some_and(|h| h.tx.same_channel(&handle.tx)) {
            games.remove(&handle.meta.id);
        }
    }

    /// Creates a game, stores it, and starts its actor: every game, whatever made it (a seek
    /// accepted, a challenge, the engine, a tournament's pairing). A game whose id is given
    /// and is live here is handed back; one that exists but is not live here (it ended, or is
    /// being resumed) is [`CreateError::Exists`].
    ///
    /// # Errors
    /// [`CreateError`]: a position the arbiter refuses, the store failing.
    pub async fn create(self: &Arc<Self>, new: NewLiveGame) -> Result<GameHandle, CreateError> {
        if let Some(handle) = new.id.as_ref().and_then(|id| self.get(id)) {
            return Ok(handle);
        }
        let now = now_ms();
        let meta = Meta {
            id: new.id.unwrap_or_else(GameId::random),
            white: new.white,
            black: new.black,
            rules: new.rules,
            speed: new.time_control.speed().name(),
            time_control: new.time_control,
            rated: new.rated,
            variant: new.variant,
            initial_fen: new.variant.start_fen(),
            created_at_ms: now,
            start: new.start,
            tournament: new.tournament,
        };
        let game = Game::new(meta.spec(), now).map_err(CreateError::Position)?;
        let store = &self.services.store;
        let turn = self.write_turn().await;
        let created = match &meta.tournament {
            Some(seat) => store.create_tournament_game(&meta.new_game(), seat).await?,
            None => store.create_game(&meta.new_game()).await.map(|()| true)?,
        };
        drop(turn);
        if !created {
            return self.get(&meta.id).ok_or(CreateError::Exists(meta.id));
        }
        match &meta.tournament {
            Some(seat) => {
                tracing::info!(game = %meta.id, tournament = %seat.tournament, round = ?seat.round, board = seat.board, "tournament game created")
            }
            None => {
                tracing::info!(game = %meta.id, white = %meta.white.name, black = %meta.black.name, tc = %meta.time_control, rules = meta.rules.label(), rated = meta.rated, variant = meta.variant.name(), position = ?meta.variant.number(), "game created")
            }
        }
        let claim = match self.services.ownership.claim_game(meta.id.as_str()).await? {
            Claimed::Here { claim, .. } => claim,
            other => {
                return Err(CreateError::Claim(format!("a new game {:?} is {other:?}", meta.id)))
            }
        };
        let new = Rebuilt { meta, game, seq: 0, last_stamp: now, owner_offset: Some(0) };
        Ok(self.spawn(new, false, claim).await)
    }

    async fn spawn(
        self: &Arc<Self>,
        Rebuilt { meta, game, seq, last_stamp, .. }: Rebuilt,
        resumed: bool,
        claim: Claim,
    ) -> GameHandle {
        let (tx, rx) = mpsc::channel(64);
        let handle = GameHandle { meta: Arc::new(meta), claim, tx };
        // Other nodes' requests are answered from the moment this node owns the game: a node
        // that finds it owned here relays to it at once.
        self.services.relay.serve(Arc::new(handle.clone())).await;
        self.insert(handle.clone());
        actor::spawn(self.clone(), handle.clone(), rx, game, seq, last_stamp, resumed);
        handle
    }

    /// Rebuilds every live game in the store (after a restart) and starts its actor.
    pub async fn resume_all(self: &Arc<Self>) {
        let stored = match self.services.store.live_games().await {
            Ok(games) => games,
            Err(e) => {
                tracing::error!(error = %e, "cannot read the live games to resume");
                return;
            }
        };
        for g in stored {
            // On a cluster, only the games no live node owns (or this node's, from before a
            // restart under the same id).
            let (claim, heartbeat) = match self.services.ownership.claim_game(&g.id).await {
                Ok(Claimed::Here { claim, dead_owner_heartbeat }) => (claim, dead_owner_heartbeat),
                Ok(Claimed::Elsewhere(_) | Claimed::Over) => continue,
                Err(e) => {
                    tracing::error!(game = %g.id, error = %e, "cannot claim a live game to resume it");
                    continue;
                }
            };
            self.resume(&g, claim, heartbeat).await;
        }
    }

    /// Starts the actor of a stored live game, rebuilt from its actions, under `claim`; a
    /// game taken from a dead node is charged up to its last heartbeat
    /// ([`Rebuilt::charge_until`]). `None` (logged) if the stored game cannot be rebuilt.
    async fn resume(
        self: &Arc<Self>,
        g: &StoredGame,
        claim: Claim,
        dead_owner_heartbeat: Option<i64>,
    ) -> Option<GameHandle> {
        match rebuild(g) {
            Ok(mut rebuilt) => {
                if let Some(heartbeat) = dead_owner_heartbeat {
                    let before = rebuilt.last_stamp;
                    let resumed_at = rebuilt.charge_until(heartbeat);
                    tracing::info!(game = %rebuilt.meta.id, charged_ms = resumed_at - before, "charged the clock up to the dead owner's last heartbeat");
                }
                let plies = rebuilt.game.plies().len();
                tracing::info!(game = %rebuilt.meta.id, plies, epoch = ?claim.epoch(), "resumed");
                Some(self.spawn(rebuilt, true, claim).await)
            }
            Err(e) => {
                tracing::error!(game = %g.id, error = %e, "cannot rebuild a live game; left as it is");
                None
            }
        }
    }

    /// On a node of a cluster, the live game `id` that no live node serves, taken over by
    /// this one (its actor rebuilt from the store and resumed; the outage charged to no
    /// one). `Ok(None)` on a single node, for a game that is not live, and for one another
    /// node owns (then [`LocateError::Elsewhere`]).
    ///
    /// # Errors
    /// [`LocateError::Elsewhere`] naming the owner; the store failing.
    pub async fn take_over(
        self: &Arc<Self>,
        id: &GameId,
    ) -> Result<Option<GameHandle>, LocateError> {
        let _turn = self.taking_over.lock().await;
        if let Some(handle) = self.get(id) {
            return Ok(Some(handle));
        }
        let (claim, heartbeat) = match self.services.ownership.claim_game(id.as_str()).await? {
            // A single node's live games all have their actors.
            Claimed::Here { claim: Claim::Single, .. } | Claimed::Over => return Ok(None),
            Claimed::Here { claim, dead_owner_heartbeat } => (claim, dead_owner_heartbeat),
            Claimed::Elsewhere(node) => return Err(LocateError::Elsewhere(node)),
        };
        let Some(stored) = self.services.store.game(id.as_str()).await? else { return Ok(None) };
        Ok(self.resume(&stored, claim, heartbeat).await)
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

/// Why the node serving a game could not be found, nor the game taken over.
#[derive(Debug, thiserror::Error)]
pub enum LocateError {
    /// Another node serves it (or, without a relay, holds it): the client connects again.
    #[error("this game is served by node {0:?}: connect again")]
    Elsewhere(String),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] rookery_store::StoreError),
}

/// Why a game was not created.
#[derive(Debug, thiserror::Error)]
pub enum CreateError {
    /// The arbiter refuses the starting position.
    #[error("{0}")]
    Position(GameSpecError),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] rookery_store::StoreError),
    /// On a cluster, the new game could not be claimed.
    #[error("{0}")]
    Claim(String),
    /// A game of that id exists, and is not live here (it ended, or is being resumed).
    #[error("game {0:?} exists and is not live here")]
    Exists(GameId),
}

/// A live game rebuilt from storage: its meta, the arbiter game after every stored action,
/// the next sequence number and the last game-time stamp.
pub struct Rebuilt {
    /// Who plays what.
    pub meta: Meta,
    /// The game.
    pub game: Game,
    /// The next action's sequence number.
    pub seq: i64,
    /// The game time of the last stored action.
    pub last_stamp: u64,
    /// Wall time less game time for the node that served the game last (the outage credited
    /// to the game so far), when the log says it: 0 for a game served since its creation,
    /// else from its last `resume`; `None` for logs of earlier versions.
    pub owner_offset: Option<i64>,
}

impl Rebuilt {
    /// A game taken over from a node that died (or stopped) after its last heartbeat at
    /// `heartbeat_ms` (the database's clock): the time from the last stored action up to that
    /// heartbeat was played, and is charged to the clock running then; the outage after it is
    /// charged to no one (issue 39). Returns the game time the new owner resumes from.
    pub fn charge_until(&mut self, heartbeat_ms: i64) -> u64 {
        if let Some(offset) = self.owner_offset {
            let at_heartbeat = (heartbeat_ms - offset).max(0) as u64;
            self.last_stamp = self.last_stamp.max(at_heartbeat);
        }
        self.last_stamp
    }
}

/// Why a stored game cannot be shown or rebuilt: only for corrupt rows, since new games are
/// checked before they are created. A server fault, logged and answered as `internal`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum StoredGameError {
    /// The id is no game id.
    Id(String),
    /// The rule set does not read.
    Rules(rookery_arbiter::rules::ParseRuleSetError),
    /// The time control does not read.
    TimeControl(ParseTimeControlError),
    /// The start policy does not read.
    Start(ParseStartPolicyError),
    /// The starting position is refused.
    Spec(GameSpecError),
    /// A Chess960 game whose start is none of the 960 start positions.
    Variant(String),
    /// An action of the log does not read.
    Action {
        /// Its sequence number.
        seq: i64,
        /// Why.
        error: DecodeError,
    },
    /// An ended game without its PGN, result or termination.
    NoRecord,
    /// The PGN record does not read.
    Record(RecordError),
    /// An unknown termination label.
    Termination(String),
}

impl fmt::Display for StoredGameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StoredGameError::Id(id) => write!(f, "bad game id {id:?}"),
            StoredGameError::Rules(e) => write!(f, "rules: {e}"),
            StoredGameError::TimeControl(e) => write!(f, "time control: {e}"),
            StoredGameError::Start(e) => write!(f, "start policy: {e}"),
            StoredGameError::Spec(e) => write!(f, "game: {e}"),
            StoredGameError::Variant(e) => write!(f, "variant: {e}"),
            StoredGameError::Action { seq, error } => write!(f, "action {seq}: {error}"),
            StoredGameError::NoRecord => f.write_str("an ended game without its PGN or result"),
            StoredGameError::Record(e) => write!(f, "PGN record: {e}"),
            StoredGameError::Termination(t) => write!(f, "unknown termination {t:?}"),
        }
    }
}

impl std::error::Error for StoredGameError {}

/// The record of a game that has ended, read from its PGN.
///
/// # Errors
/// [`StoredGameError::NoRecord`] without one, [`StoredGameError::Record`] for one that does
/// not read.
pub fn pgn_record(pgn: Option<&str>) -> Result<GameRecord, StoredGameError> {
    GameRecord::from_pgn(pgn.ok_or(StoredGameError::NoRecord)?).map_err(StoredGameError::Record)
}

/// The record of a game that has ended, as its view and its engine analysis read it: from
/// its PGN, or for a Chess960 game played on the site from the replay of its action log (the
/// same arbiter calls, so the same moves, and its clocks to the millisecond). A Chess960 game
/// with no action at all was played at a board (issue 53): its record is its PGN, with the
/// moves typed from the scoresheet, which the PGN reader (crates/pgn, `main_line`) reads in
/// Chess960 from its `[Variant]` and `[FEN]`.
///
/// # Errors
/// As [`pgn_record`] and [`rebuild`].
pub fn stored_record(g: &StoredGame) -> Result<GameRecord, StoredGameError> {
    match g.variant {
        rookery_core::CastlingMode::Chess960 if !g.actions.is_empty() => {
            Ok(record_of(&rebuild(g)?.game))
        }
        _ => pgn_record(g.pgn.as_deref()),
    }
}

/// Replays a live game's stored actions through the arbiter: after a restart, after a
/// storage failure, and for a live game whose actor is gone.
///
/// # Errors
/// [`StoredGameError`] naming what cannot be read.
pub fn rebuild(g: &StoredGame) -> Result<Rebuilt, StoredGameError> {
    let meta = Meta::from_stored(g)?;
    let mut game = Game::new(meta.spec(), meta.created_at_ms).map_err(StoredGameError::Spec)?;
    let mut last = meta.created_at_ms;
    let mut owner_offset = Some(0);
    for stored in &g.actions {
        let action = GameAction::decode(&stored.kind, &stored.data)
            .map_err(|error| StoredGameError::Action { seq: stored.seq, error })?;
        let at = (stored.at_ms.max(0) as u64).max(last);
        if let GameAction::Resume { wall_ms } = action {
            owner_offset = wall_ms.map(|wall| wall as i64 - at as i64);
        }
        let _ = action.apply(&mut game, at);
        last = at;
    }
    let seq = g.actions.last().map_or(0, |a| a.seq + 1);
    Ok(Rebuilt { meta, game, seq, last_stamp: last, owner_offset })
}

#[cfg(test)]
mod tests;
