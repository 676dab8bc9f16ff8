//! `rookery moves`: the legal moves of a position, one per line.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::fen_arg::PositionArgs;

/// Arguments of `rookery moves`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    position: PositionArgs,
    /// Write the moves in SAN instead of UCI.
    #[arg(long)]
    san: bool,
}

/// Runs `rookery moves`.
pub fn run(args: Args) -> Result<ExitCode> {
    let pos = args.position.position()?;
    let mut out = std::io::stdout().lock();
    for &m in pos.legal_moves().iter() {
        if args.san {
            writeln!(out, "{}", pos.san(m))?;
        } else {
            writeln!(out, "{m}")?;
        }
    }
    Ok(ExitCode::SUCCESS)
}
