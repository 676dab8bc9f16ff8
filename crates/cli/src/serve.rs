//! `rookery serve`: the chess site.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context;
use clap::{Args as ClapArgs, ValueEnum};

/// Where and how to serve.
#[derive(ClapArgs)]
pub struct Args {
    #[command(flatten)]
    http: Http,
    #[command(flatten)]
    storage: Storage,
    #[command(flatten)]
    logging: Logging,
}

/// The HTTP listener.
#[derive(ClapArgs)]
struct Http {
    /// The address to listen on.
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
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
        data_dir: args.storage.data_dir,
        database: args.storage.database,
    };
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    runtime.block_on(async {
        let server = rookery_server::Server::bind(&config).await?;
        eprintln!("rookery: serving on http://{}", server.local_addr());
        server.run(shutdown_signal()).await?;
        Ok::<_, anyhow::Error>(())
    })?;
    Ok(ExitCode::SUCCESS)
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
