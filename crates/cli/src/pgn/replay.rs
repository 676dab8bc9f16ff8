//! `rookery pgn replay`: one line per game, as JSON with `--json`.

use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;

use super::game::{GameReport, Options};
use super::Input;
use crate::json::json_string;

/// Arguments of `rookery pgn replay`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// One JSON object per game: {"game", "plies", "final_fen", "result", "termination",
    /// "error"}.
    #[arg(long)]
    json: bool,
}

/// Runs `rookery pgn replay`. Games with problems are reported, not fatal: the exit status is 0
/// once the whole input has been read.
pub fn run(args: Args) -> Result<ExitCode> {
    let mut out = BufWriter::new(std::io::stdout().lock());
    let options = Options::default();
    args.input.for_each_game(options, |report| {
        let line = if args.json { json_line(&report) } else { text_line(&report) };
        out.write_all(line.as_bytes())?;
        Ok(())
    })?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

fn json_line(r: &GameReport) -> String {
    let mut line = format!(
        "{{\"game\": {}, \"plies\": {}, \"final_fen\": {}, \"result\": {}, \"termination\": ",
        r.game,
        r.plies,
        json_string(&r.final_position.to_fen()),
        json_string(r.result.as_str()),
    );
    match r.termination {
        Some(t) => line.push_str(&json_string(t.as_str())),
        None => line.push_str("null"),
    }
    line.push_str(", \"error\": ");
    match r.problems.first() {
        Some(problem) => line.push_str(&json_string(problem)),
        None => line.push_str("null"),
    }
    line.push_str("}\n");
    line
}

fn text_line(r: &GameReport) -> String {
    let termination = r.termination.map_or("-", |t| t.as_str());
    let mut line = format!(
        "game {}: {} plies, {}, {termination}, {}",
        r.game,
        r.plies,
        r.result,
        r.final_position.to_fen()
    );
    if let Some(problem) = r.problems.first() {
        line.push_str("; ");
        line.push_str(problem);
    }
    line.push('\n');
    line
}
