//! `rookery uci`: the engine speaking UCI on standard input and output, for chess GUIs and
//! match runners.

use std::process::ExitCode;

use anyhow::Result;

/// Arguments of `rookery uci` (none: everything is set through UCI `setoption`).
#[derive(clap::Args)]
pub struct Args {}

/// Runs `rookery uci` until `quit` or the end of the input.
pub fn run(_args: Args) -> Result<ExitCode> {
    let stdin = std::io::stdin();
    rookery_uci::run(stdin.lock(), std::io::stdout())?;
    Ok(ExitCode::SUCCESS)
}
