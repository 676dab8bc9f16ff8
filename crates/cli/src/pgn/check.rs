//! `rookery pgn check`: every problem of a file, one per line, for people.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;

use super::game::Options;
use super::Input;

/// Arguments of `rookery pgn check`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
}

/// Runs `rookery pgn check`: syntax errors, illegal or ambiguous moves (variations included),
/// bad `[FEN]` tags and unsupported variants, each as `game G, line L, column C: reason`, then a
/// summary. Exit status 1 if there is any problem.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let (mut games, mut bad_games, mut problems) = (0u64, 0u64, 0u64);
    let options = Options { variations: true, export: false, results: true, terminations: false };
    args.input.for_each_game(options, |report| {
        games += 1;
        if !report.problems.is_empty() {
            bad_games += 1;
        }
        for problem in &report.problems {
            problems += 1;
            writeln!(out, "{problem}")?;
        }
        Ok(())
    })?;
    let s = |n: u64| if n == 1 { "" } else { "s" };
    writeln!(
        out,
        "{games} game{} checked: {problems} problem{} in {bad_games} game{}",
        s(games),
        s(problems),
        s(bad_games)
    )?;
    out.flush()?;
    Ok(if problems == 0 { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}
