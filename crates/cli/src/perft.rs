//! `rookery perft`: count the leaf nodes of the legal move tree, optionally per root move and
//! on several threads.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use rookery_core::perft::perft;
use rookery_core::{Move, Position};

use crate::fen_arg::PositionArgs;

/// Arguments of `rookery perft`.
#[derive(clap::Args)]
pub struct Args {
    /// Depth in plies (1 or more).
    #[arg(value_parser = clap::value_parser!(u32).range(1..=20))]
    depth: u32,
    #[command(flatten)]
    position: PositionArgs,
    /// Print each root move (UCI) with its count, then the total, like Stockfish.
    #[arg(long)]
    divide: bool,
    /// Threads to split the root moves over.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

/// Runs `rookery perft`.
pub fn run(args: Args) -> Result<ExitCode> {
    let pos = args.position.position()?;
    let start = Instant::now();
    let (per_move, total) = count(&pos, args.depth, args.threads as usize);
    let elapsed = start.elapsed();
    // Written, not printed: a reader that went away (`| head`) ends the command quietly.
    let mut out = std::io::stdout().lock();
    if args.divide {
        for (m, n) in &per_move {
            writeln!(out, "{m}: {n}")?;
        }
        writeln!(out)?;
    }
    writeln!(out, "Nodes searched: {total}")?;
    out.flush()?;
    let secs = elapsed.as_secs_f64();
    eprintln!(
        "time {:.3} s, {:.1} Mnps",
        secs,
        if secs > 0.0 { total as f64 / secs / 1e6 } else { 0.0 }
    );
    Ok(ExitCode::SUCCESS)
}

/// Counts per root move, splitting the root moves over `threads` threads.
fn count(pos: &Position, depth: u32, threads: usize) -> (Vec<(Move, u64)>, u64) {
    let moves: Vec<Move> = pos.legal_moves().to_vec();
    let mut per_move: Vec<(Move, u64)> = moves.iter().map(|&m| (m, 0)).collect();
    let next = std::sync::atomic::AtomicUsize::new(0);
    std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.min(moves.len()).max(1))
            .map(|_| {
                s.spawn(|| {
                    let mut done = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(&m) = moves.get(i) else { break };
                        let mut child = *pos;
                        child.play_unchecked(m);
                        done.push((i, perft(&child, depth - 1)));
                    }
                    done
                })
            })
            .collect();
        for worker in workers {
            for (i, n) in worker.join().expect("perft workers do not panic") {
                per_move[i].1 = n;
            }
        }
    });
    let total = per_move.iter().map(|(_, n)| n).sum();
    (per_move, total)
}
