#![doc = include_str!("../README.md")]
#![forbid(unsafe_code)]

mod accounts;
mod analysis_api;
mod api;
mod assets;
mod class;
mod client;
mod clock;
mod competitions;
mod error;
mod identity;
mod limits;
mod live;
mod lobby;
pub use rookery_protocol as protocol;
mod ratelimit;
mod routes;
mod secrets;
mod sockets;
mod state;
mod tournament_api;
mod ws;

use std::future::Future;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;

use tokio::net::TcpListener;

pub use clock::now_ms;
pub use error::ApiError;
pub use limits::{
    AccountLimits, AnalysisLimits, ConnectionLimits, Limits, SeekLimits, SocketLimits,
    OPEN_FILES_RESERVE,
};
pub use rookery_cluster::NodeConfig;
pub use rookery_listener::{AddressBlocks, AddressBlocksError};

use crate::state::AppState;

/// How to run the server.
#[derive(Clone, Debug)]
pub struct Config {
    /// Where to listen.
    pub addr: SocketAddr,
    /// The directory for the SQLite database (created if missing).
    pub data_dir: PathBuf,
    /// A database URL (`sqlite:…` or `postgres://…`); `None` for `DATA_DIR/rookery.sqlite3`.
    pub database: Option<String>,
    /// What one client may hold or do.
    pub limits: Limits,
    /// This node's identity when several nodes share one (PostgreSQL) database; `None` for
    /// a single node.
    pub node: Option<NodeConfig>,
    /// The address players reach the site at (`http://192.168.1.5:8080`), for what is
    /// printed (the QR code of a tournament's page); `None`: the address each request came
    /// to (its `Host`).
    pub public_url: Option<String>,
}

impl Config {
    /// The database URL this configuration uses.
    pub fn database_url(&self) -> String {
        match &self.database {
            Some(url) => url.clone(),
            None => format!("sqlite://{}", self.data_dir.join("rookery.sqlite3").display()),
        }
    }
}

/// Why the server could not start or stopped with an error.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// The data directory cannot be created.
    #[error("cannot create the data directory {path}: {source}")]
    DataDir {
        /// The directory.
        path: PathBuf,
        /// Why.
        source: std::io::Error,
    },
    /// The database cannot be opened or migrated.
    #[error("database: {0}")]
    Store(#[from] rookery_store::StoreError),
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// The address.
        addr: SocketAddr,
        /// Why.
        source: std::io::Error,
    },
    /// The NATS server (`--nats`) cannot be reached.
    #[error("{0}")]
    Relay(#[from] rookery_cluster::ConnectError),
    /// The HTTP server failed.
    #[error("server: {0}")]
    Io(#[from] std::io::Error),
}

impl From<rookery_cluster::JoinError> for ServeError {
    fn from(e: rookery_cluster::JoinError) -> ServeError {
        match e {
            rookery_cluster::JoinError::Relay(e) => ServeError::Relay(e),
            rookery_cluster::JoinError::Store(e) => ServeError::Store(e),
        }
    }
}

/// A server that is listening: its address, and the future that runs it.
pub struct Server {
    addr: SocketAddr,
    listener: TcpListener,
    state: Arc<AppState>,
    limits: Limits,
}

impl Server {
    /// Opens the database (creating and migrating it), rebuilds the live games it holds, and
    /// binds the address.
    ///
    /// # Errors
    /// [`ServeError`] naming what failed.
    pub async fn bind(config: &Config) -> Result<Server, ServeError> {
        if config.database.is_none() {
            std::fs::create_dir_all(&config.data_dir)
                .map_err(|source| ServeError::DataDir { path: config.data_dir.clone(), source })?;
        }
        let store = rookery_store::Store::open(&config.database_url()).await?;
        let requeued = store.requeue_running_analyses().await?;
        if requeued > 0 {
            tracing::info!(analyses = requeued, "analyses left running are queued again");
        }
        // On a cluster the lease first: the games this node resumes are claimed under it.
        let cluster = match &config.node {
            Some(node) => rookery_cluster::join(store.clone(), node.clone()).await?,
            None => rookery_cluster::alone(store.clone()),
        };
        let state = AppState::new(store, &config.limits, cluster, config.public_url.clone());
        competitions::route_game_events(&state.live, state.tournaments.clone());
        state.live.resume_all().await;
        state.tournaments.resume_all().await;
        let listener = TcpListener::bind(config.addr)
            .await
            .map_err(|source| ServeError::Bind { addr: config.addr, source })?;
        let addr = listener.local_addr()?;
        Ok(Server { addr, listener, state, limits: config.limits.clone() })
    }

    /// The address it listens on (with the real port when port 0 was asked for).
    pub fn local_addr(&self) -> SocketAddr {
        self.addr
    }

    /// Serves until `shutdown` completes, then stops accepting, stores the clocks of the
    /// live games and closes the database.
    ///
    /// # Errors
    /// I/O errors of the listener.
    pub async fn run(
        self,
        shutdown: impl Future<Output = ()> + Send + 'static,
    ) -> Result<(), ServeError> {
        let app = routes::router(self.state.clone());
        tracing::info!(addr = %self.addr, "listening");
        let sweeper = tokio::spawn(sweep_sessions(self.state.clone()));
        let seek_sweeper = tokio::spawn(sweep_absent_seeks(self.state.clone()));
        let analyst = tokio::spawn(rookery_analysis::run(
            self.state.store.clone(),
            self.state.analyst.clone(),
            |stored| Ok(live::main_line(&live::stored_record(stored).map_err(|e| e.to_string())?)),
        ));
        let heartbeats = tokio::spawn(self.state.ownership.heartbeats());
        let stalls = tokio::spawn(clock::watch_stalls());
        let lobby = self.state.relay.lobby_link().map(|link| {
            let shared = Arc::new(lobby::Shared {
                lobby: self.state.lobby.clone(),
                live: self.state.live.clone(),
            });
            tokio::spawn(rookery_cluster::lobby::share(shared, link))
        });
        let state = self.state.clone();
        // Open WebSockets would hold a graceful shutdown forever: first stop the live games
        // (their clocks are stored), then tell every socket to close.
        let stop = async move {
            shutdown.await;
            tracing::info!("shutting down: storing the clocks of live games");
            state.live.shutdown().await;
            state.analyst.stop();
            state.closing.send_replace(true);
        };
        rookery_listener::serve(self.listener, app, &self.limits.connections, stop).await;
        sweeper.abort();
        seek_sweeper.abort();
        analyst.abort();
        heartbeats.abort();
        stalls.abort();
        if let Some(lobby) = lobby {
            lobby.abort();
        }
        // The games' clocks are stored: on a cluster, hand them to the other nodes at once.
        self.state.ownership.leave().await;
        self.state.store.close().await;
        Ok(())
    }
}

/// Removes the seeks whose owners never came to the lobby (issue 37).
async fn sweep_absent_seeks(state: Arc<AppState>) {
    let mut every = tokio::time::interval(state.lobby.sweep_every());
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        every.tick().await;
        let n = state.lobby.expire_absent(now_ms());
        if n > 0 {
            tracing::debug!(seeks = n, "seeks of owners not in the lobby removed");
        }
    }
}

/// Deletes expired sessions once an hour.
async fn sweep_sessions(state: Arc<AppState>) {
    let mut every = tokio::time::interval(std::time::Duration::from_secs(3600));
    loop {
        every.tick().await;
        match state.store.delete_expired_sessions(now_ms() as i64).await {
            Ok(n) if n > 0 => tracing::info!(sessions = n, "expired sessions deleted"),
            Ok(_) => {}
            Err(e) => tracing::warn!(error = %e, "cannot delete expired sessions"),
        }
    }
}
