//! `rookery pgn stats`: what a file holds, and how fast it reads and replays.

use std::io::Write;
use std::process::ExitCode;
use std::time::Instant;

use anyhow::Result;
use rookery_pgn::GameResult;

use super::game::{Options, Termination};
use super::Input;

/// Arguments of `rookery pgn stats`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
}

/// Runs `rookery pgn stats`: games, main-line plies, results, terminations of the final
/// positions, games with errors, and throughput (games/s, MB/s of parse and replay).
pub fn run(args: Args) -> Result<ExitCode> {
    let start = Instant::now();
    let (mut games, mut plies, mut errors) = (0u64, 0u64, 0u64);
    // Counts in arrays in the order of `ALL`: a map looked up by name each game was a cost of
    // its own (issue 41).
    let mut results = [0u64; GameResult::ALL.len()];
    let mut terminations = [0u64; Termination::ALL.len()];
    let mut unterminated = 0u64;
    let options = Options { terminations: true, ..Options::default() };
    let bytes = args.input.for_each_game(options, |report| {
        games += 1;
        plies += report.plies;
        if let Some(i) = GameResult::ALL.iter().position(|&r| r == report.result) {
            results[i] += 1;
        }
        match report.termination.and_then(|t| Termination::ALL.iter().position(|&x| x == t)) {
            Some(i) => terminations[i] += 1,
            None => unterminated += 1,
        }
        if !report.problems.is_empty() {
            errors += 1;
        }
        Ok(())
    })?;
    let seconds = start.elapsed().as_secs_f64().max(1e-9);
    // Written, not printed: a reader that went away (`| head`) ends the command quietly
    // (main.rs), where `println!` would panic.
    let mut out = std::io::stdout().lock();
    writeln!(out, "games: {games}")?;
    writeln!(out, "plies: {plies}")?;
    let results: Vec<String> =
        GameResult::ALL.iter().zip(results).map(|(r, n)| format!("{r} {n}")).collect();
    writeln!(out, "results: {}", results.join(", "))?;
    let mut ends: Vec<String> = Termination::ALL
        .iter()
        .zip(terminations)
        .map(|(t, n)| format!("{} {n}", t.as_str()))
        .collect();
    ends.push(format!("none {unterminated}"));
    writeln!(out, "terminations: {}", ends.join(", "))?;
    writeln!(out, "errors: {errors}")?;
    let mb = bytes as f64 / 1e6;
    writeln!(
        out,
        "throughput: {:.0} games/s, {:.2} MB/s ({mb:.3} MB in {seconds:.3} s)",
        games as f64 / seconds,
        mb / seconds
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
