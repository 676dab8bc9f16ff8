//! `rookery moves`: the legal moves of a position, one per line.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;

use crate::fen_arg::parse_position;

/// Arguments of `rookery moves`.
#[derive(clap::Args)]
pub struct Args {
    /// The position (default: the standard starting position).
    #[arg(long)]
    fen: Option<String>,
    /// Write the moves in SAN instead of UCI.
    #[arg(long)]
    san: bool,
}

/// Runs `rookery moves`.
pub fn run(args: Args) -> Result<ExitCode> {
    let pos = parse_position(args.fen.as_deref())?;
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
