//! `rookery pgn export`: the games re-written in PGN export format.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;

use super::game::Options;
use super::Input;

/// Arguments of `rookery pgn export`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
}

/// Runs `rookery pgn export`: each game with the Seven Tag Roster first, its moves (variations
/// included) in canonical SAN, comments and NAGs kept, lines wrapped below 80 columns. A game
/// with a problem is left out and its problems go to standard error; the exit status is then 1.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut skipped = 0u64;
    let options = Options { variations: true, export: true, results: false, terminations: false };
    args.input.for_each_game(options, |report| {
        match &report.export {
            Some(text) => out.write_all(text)?,
            None => {
                skipped += 1;
                for problem in &report.problems {
                    eprintln!("rookery: left out: {problem}");
                }
            }
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(if skipped == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
