//! `rookery bench`: the engine's fixed search of fixed positions; its node count is the
//! engine's signature, which changes only when the search does (as Stockfish's `bench`).

use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use rookery_engine::bench::{bench, BENCH_DEPTH};

/// Arguments of `rookery bench`.
#[derive(clap::Args)]
pub struct Args {
    /// Search depth in plies (the signature is defined at the default).
    #[arg(long, default_value_t = BENCH_DEPTH, value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
}

/// Runs `rookery bench`: one line per position on stderr, the totals on stdout.
pub fn run(args: Args) -> Result<ExitCode> {
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
