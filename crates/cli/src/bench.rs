//! `rookery bench`: the engine's fixed search of fixed positions; its node count is the
//! engine's signature, which changes only when the search does (as Stockfish's `bench`).
//! `rookery bench server` is the chess server's load test, `rookery bench abuse` measures its
//! limits, `rookery bench pairing` times the Dutch engine, `rookery bench tournament` a large
//! Swiss round start and arena: the load generators of `rookery-loadgen`, run from here.

use std::process::ExitCode;
use std::time::Instant;

use anyhow::{Context, Result};
use rookery_engine::bench::{bench, BENCH_DEPTH};
use rookery_loadgen::{abuse, pairing, server, tournament, Host};

use crate::usage::UsageError;

/// Arguments of `rookery bench`: the engine bench, or a subcommand.
#[derive(clap::Args)]
#[command(args_conflicts_with_subcommands = true)]
pub struct Args {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    engine: EngineArgs,
}

#[derive(clap::Subcommand)]
enum Command {
    /// Load-test the chess server: N concurrent games over WebSockets on loopback; moves/s,
    /// move round trip p50/p99 and the server's memory per idle game.
    Server(server::Args),
    /// Measure issue 37's abuses against the server's limits: silent and slow-header
    /// connections, a takeback flood over many sockets, seek spam (Linux loopback).
    Abuse(abuse::Args),
    /// Time `rookery pair` (Dutch system) on generated Swiss tournaments, against a reference
    /// engine with the same command line run on the same files.
    Pairing(pairing::Args),
    /// Issue 40's scale: a 1,000-player Swiss round start (pair, publish, every player told)
    /// and a 500-player arena's pairing waves, on a `rookery serve` started here.
    Tournament(tournament::Args),
}

/// Arguments of the engine bench (`rookery bench` without a subcommand).
#[derive(clap::Args)]
struct EngineArgs {
    /// Search depth in plies (the signature is defined at the default).
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

/// Runs `rookery bench` or its subcommand.
pub fn run(args: Args) -> Result<ExitCode> {
    let Some(command) = args.command else { return run_engine(&args.engine) };
    let host = Host {
        rookery: std::env::current_exe().context("cannot find this program's path")?,
        // Children inherit it: the servers started for the load need thousands of files.
        open_files: crate::serve::raise_open_files().unwrap_or(u64::MAX),
    };
    let run = match command {
        Command::Server(server) => server::run(server, &host),
        Command::Abuse(abuse) => abuse::run(abuse, &host),
        Command::Pairing(pairing) => pairing::run(pairing, &host),
        Command::Tournament(t) => tournament::run(t, &host),
    };
    run.map_err(|e| match e {
        rookery_loadgen::Error::Usage(why) => UsageError(why).into(),
        rookery_loadgen::Error::Run(e) => e,
    })
}

/// The engine bench: one line per position on stderr, the totals on stdout.
fn run_engine(args: &EngineArgs) -> Result<ExitCode> {
    let report = bench(args.depth, &Instant::now());
    for (i, (fen, nodes, best)) in report.positions.iter().enumerate() {
        let best = best.map_or_else(|| "0000".to_owned(), |m| m.to_uci());
        eprintln!("position {:>2}: {nodes:>10} nodes  {best:<5}  {fen}", i + 1);
    }
    println!("Total time (ms) : {}", report.time.as_millis());
    println!("Nodes searched  : {}", report.nodes);
    println!("Nodes/second    : {}", report.nps());
    Ok(ExitCode::SUCCESS)
}
