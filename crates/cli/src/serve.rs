//! `rookery serve`: the chess site.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};
use rookery_server::ServeError;
use rookery_store::StoreError;

use crate::usage::UsageError;

/// Where and how to serve.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    http: Http,
    #[command(flatten)]
    connections: Connections,
    #[command(flatten)]
    seeks: Seeks,
    #[command(flatten)]
    accounts: Accounts,
    #[command(flatten)]
    analysis: Analysis,
    #[command(flatten)]
    storage: Storage,
    #[command(flatten)]
    logging: Logging,
}

/// What one client may hold (docs/api.md, "Limits"). The open-file limit is raised to its
/// hard limit at start; the connection cap stays below it.
#[derive(ClapArgs)]
struct Connections {
    /// Seconds a client has to send a request's headers (after connecting, or after the
    /// previous response); silent and slow-header connections are closed.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=3600))]
    header_timeout_s: u64,
    /// Seconds a connection may stay without reading or writing anything before it is closed
    /// (not WebSockets, which have their own pings).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=86400))]
    idle_timeout_s: u64,
    /// Open connections at most (WebSockets included); lowered to stay below the open-file
    /// limit.
    #[arg(long, default_value_t = 10_000, value_parser = clap::value_parser!(u64).range(1..))]
    max_connections: u64,
    /// Open connections at most from one client address (IPv6: one /64).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    max_connections_per_address: u64,
    /// Trusted balancers, as addresses or CIDR blocks, comma-separated (127.0.0.1/32,
    /// 10.0.0.0/8): their connections must begin with a PROXY protocol header, v2 or v1
    /// (HAProxy's `send-proxy-v2`, `send-proxy`), and the client address it names is the one
    /// the limits per address count and the logs show. From them, a connection without a
    /// valid header within --header-timeout-s is closed; anyone else is served as their own
    /// address, and no header is read.
    #[arg(long, value_name = "FROM")]
    proxy_protocol: Option<rookery_server::AddressBlocks>,
    /// Trusted networks, as addresses or CIDR blocks, comma-separated (a school's or a club's
    /// public address, 203.0.113.7 or 198.51.100.0/24): no limit per address applies to them
    /// (connections, sign-ups, failed log-ins, guests' seeks), so a class behind one address
    /// can sign up and play together; the limits per account and per visitor still do. Give
    /// only networks whose people you trust: anyone there can open as many connections as
    /// the server's own cap allows.
    #[arg(long, value_name = "NETWORKS")]
    trusted_networks: Option<rookery_server::AddressBlocks>,
    /// Open WebSockets at most per visitor (all games and the lobby).
    #[arg(long, default_value_t = 32, value_parser = clap::value_parser!(u64).range(1..))]
    sockets_per_visitor: u64,
}

/// The lobby's seeks.
#[derive(ClapArgs)]
struct Seeks {
    /// Seconds a new seek waits for its owner's lobby socket before it is removed.
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(1..=3600))]
    seek_owner_grace_s: u64,
    /// Open seeks at most from the guests of one client address (a signed-in player's count
    /// per account: at most 5 each).
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..))]
    seeks_per_address: u64,
    /// Seeks created at most per minute by the guests of one client address, and by each
    /// signed-in player.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
    seeks_per_address_per_minute: u32,
}

/// Accounts.
#[derive(ClapArgs)]
struct Accounts {
    /// Sign-ups at most from one client address per 10 minutes.
    #[arg(long, default_value_t = 30, value_parser = clap::value_parser!(u32).range(1..))]
    signups_per_address: u32,
    /// Class accounts one organiser may create per day (`/class`: a class's accounts from a
    /// list, each with a printed first-log-in code).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u32).range(1..=100_000))]
    class_accounts_per_day: u32,
}

/// Engine analysis of finished games (one game at a time, in the background).
#[derive(ClapArgs)]
struct Analysis {
    /// Nodes the engine searches per position when it analyses a finished game.
    #[arg(long, default_value_t = 250_000, value_parser = clap::value_parser!(u64).range(1..=1_000_000_000))]
    analysis_nodes: u64,
}

impl Args {
    fn limits(&self, open_files: Option<u64>) -> rookery_server::Limits {
        let mut limits = rookery_server::Limits::default();
        let c = &self.connections;
        let size = |n: u64| usize::try_from(n).unwrap_or(usize::MAX);
        limits.connections.header_timeout = Duration::from_secs(c.header_timeout_s);
        limits.connections.idle_timeout = Duration::from_secs(c.idle_timeout_s);
        limits.connections.max_connections = size(c.max_connections);
        limits.connections.max_per_address = size(c.max_connections_per_address);
        limits.connections.open_files = open_files;
        limits.connections.proxy_protocol = c.proxy_protocol.clone();
        limits.connections.trusted_networks = c.trusted_networks.clone();
        limits.sockets.per_visitor = size(c.sockets_per_visitor);
        limits.seeks.owner_grace = Duration::from_secs(self.seeks.seek_owner_grace_s);
        limits.seeks.open_per_address = size(self.seeks.seeks_per_address);
        limits.seeks.created_per_address_per_minute = self.seeks.seeks_per_address_per_minute;
        limits.accounts.signups_per_address = self.accounts.signups_per_address;
        limits.accounts.class_accounts_per_day = self.accounts.class_accounts_per_day;
        limits.analysis.nodes_per_position = self.analysis.analysis_nodes;
        limits
    }
}

/// Raises the soft open-file limit to the hard limit (each connection is a descriptor) and
/// returns the soft limit in force, `None` if unlimited or unknown.
pub fn raise_open_files() -> Option<u64> {
    use rustix::process::{getrlimit, setrlimit, Resource};
    let mut limit = getrlimit(Resource::Nofile);
    if limit.current != limit.maximum {
        limit.current = limit.maximum;
        if let Err(e) = setrlimit(Resource::Nofile, limit) {
            tracing::warn!(error = %e, "cannot raise the open-file limit");
        }
    }
    getrlimit(Resource::Nofile).current
}

/// The HTTP listener.
#[derive(ClapArgs)]
struct Http {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// The address players reach the site at (`http://192.168.1.5:8080`): the QR code on
    /// the printed pairings opens the tournament there. Without it, the address the printing
    /// browser used (so print from a phone-reachable address, not `localhost`).
    #[arg(long, value_name = "URL", value_parser = public_url)]
    public_url: Option<String>,
}

/// `--public-url`: an `http://` or `https://` address, without a path's trailing `/`.
fn public_url(text: &str) -> Result<String, String> {
    let rest = text.strip_prefix("http://").or_else(|| text.strip_prefix("https://"));
    match rest {
        Some(host) if !host.is_empty() && !host.contains(char::is_whitespace) => {
            Ok(text.trim_end_matches('/').to_owned())
        }
        _ => Err(format!("expected an http:// or https:// address, not {text:?}")),
    }
}

/// Where the data lives.
#[derive(ClapArgs)]
struct Storage {
    /// The directory of the SQLite database (`rookery.sqlite3`), created if missing.
    #[arg(long, default_value = "data")]
    data_dir: PathBuf,
    /// A database URL instead: `postgres://user:pass@host/db` or `sqlite:///path/file.sqlite3`.
    #[arg(long)]
    database: Option<String>,
    /// Run as one node of several sharing the `--database` (PostgreSQL), under this name,
    /// unique among them (README, "Growing past one machine"). Each live game is served by
    /// one node; another takes it over when that node's lease runs out. With --nats and no
    /// name, the host's name and a random suffix.
    #[arg(long, value_name = "NAME", value_parser = node_id, requires = "database")]
    node_id: Option<String>,
    /// With --node-id or --nats: how long a node's games stay its own without a heartbeat,
    /// in milliseconds (renewed every quarter of it).
    #[arg(long, default_value_t = 3_000, value_parser = clap::value_parser!(u64).range(200..=600_000))]
    lease_ms: u64,
    /// The NATS server through which the nodes relay each other's games (`nats://host:4222`):
    /// a player's socket on any node plays a game served by another. Needs --database.
    #[arg(long, value_name = "URL", requires = "database")]
    nats: Option<String>,
}

impl Storage {
    /// This node's place in a cluster: `None` for a single node (no --node-id, no --nats).
    fn node(&self) -> Option<rookery_server::NodeConfig> {
        let id = match (&self.node_id, &self.nats) {
            (Some(id), _) => id.clone(),
            (None, Some(_)) => unique_node_id(),
            (None, None) => return None,
        };
        Some(rookery_server::NodeConfig {
            id,
            lease: std::time::Duration::from_millis(self.lease_ms),
            nats: self.nats.clone(),
        })
    }
}

/// The host's name (as a node id allows it) and a suffix from the clock and the process id.
fn unique_node_id() -> String {
    let host = std::fs::read_to_string("/etc/hostname").unwrap_or_default();
    let host: String = host
        .trim()
        .chars()
        .filter(|c| c.is_ascii_alphanumeric() || "-_.".contains(*c))
        .take(40)
        .collect();
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.subsec_nanos());
    let suffix = nanos ^ std::process::id().rotate_left(16);
    let host = if host.is_empty() { "node".to_owned() } else { host };
    format!("{host}-{suffix:08x}")
}

/// A node id: 1 to 64 letters, digits, `-`, `_` or `.`.
fn node_id(text: &str) -> Result<String, String> {
    let ok = (1..=64).contains(&text.len())
        && text.bytes().all(|b| b.is_ascii_alphanumeric() || b"-_.".contains(&b));
    if ok {
        Ok(text.to_owned())
    } else {
        Err("1 to 64 letters, digits, '-', '_' or '.'".to_owned())
    }
}

/// Logs, on stderr.
#[derive(ClapArgs)]
struct Logging {
    /// The least important messages shown.
    #[arg(long, value_enum, default_value_t = LogLevel::Info)]
    log_level: LogLevel,
}

#[derive(Clone, Copy, ValueEnum)]
enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
    Trace,
}

/// Runs the server until Ctrl-C or SIGTERM, then stops in order (live games store their
/// clocks).
pub fn run(args: Args) -> anyhow::Result<ExitCode> {
    let level = match args.logging.log_level {
        LogLevel::Error => tracing::Level::ERROR,
        LogLevel::Warn => tracing::Level::WARN,
        LogLevel::Info => tracing::Level::INFO,
        LogLevel::Debug => tracing::Level::DEBUG,
        LogLevel::Trace => tracing::Level::TRACE,
    };
    tracing_subscriber::fmt().with_max_level(level).with_writer(std::io::stderr).init();
    let config = rookery_server::Config {
        addr: args.http.addr,
        data_dir: args.storage.data_dir.clone(),
        database: args.storage.database.clone(),
        limits: args.limits(raise_open_files()),
        node: args.storage.node(),
        public_url: args.http.public_url.clone(),
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    if config.database.is_none() && config.data_dir.exists() && !config.data_dir.is_dir() {
        let shown = config.data_dir.display();
        return Err(UsageError(format!("--data-dir {shown}: is a file, not a directory")).into());
    }
    runtime.block_on(async {
        let server = rookery_server::Server::bind(&config).await.map_err(start_error)?;
        eprintln!("rookery: serving on http://{}", server.local_addr());
        server.run(shutdown_signal()).await?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
}

/// Why the server did not start, as one line: what the user gave (the data directory, the
/// database URL, the address) is a usage error, exit status 2. The error's text already
/// holds its cause, so the chain is not repeated after it.
fn start_error(e: ServeError) -> anyhow::Error {
    match e {
        // These name the database already; "database: " before them would say it twice.
        ServeError::Store(e @ (StoreError::InvalidUrl(_) | StoreError::Unreachable { .. })) => {
            UsageError(e.to_string()).into()
        }
        ServeError::DataDir { .. } | ServeError::Bind { .. } | ServeError::Relay(_) => {
            UsageError(e.to_string()).into()
        }
        e => anyhow::Error::msg(e.to_string()),
    }
}

async fn shutdown_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut term) => {
                tokio::select! {
                    _ = tokio::signal::ctrl_c() => {}
                    _ = term.recv() => {}
                }
            }
            Err(_) => {
                let _ = tokio::signal::ctrl_c().await;
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}
