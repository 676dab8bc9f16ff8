//! `rookery pgn replay`: one line per game, as JSON with `--json`.

use std::fmt::Write as _;
use std::io::{BufWriter, Write};
use std::process::ExitCode;

use anyhow::Result;
use rookery_core::fen::push_decimal;
use rookery_core::Fen;

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
    // Each game's final FEN, and its text line, written into the memory of the last one's.
    let (mut fen, mut line) = (String::new(), String::new());
    let options = Options { terminations: true, ..Options::default() };
    args.input.for_each_game(options, |report| {
        fen.clear();
        Fen::from_position(&report.final_position).append_to(&mut fen);
        if args.json {
            json_line(&mut out, &report, &fen)?;
        } else {
            text_line(&mut line, &report, &fen);
            out.write_all(line.as_bytes())?;
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

// Both lines are written to the buffered output without a string of their own: a string built
// per game, and the FEN's, were a tenth of the command's time beyond `rookery pgn stats`; then
// the text line is put together without the formatter, whose machinery for its five fields
// cost as much as the FEN (issue 41).

fn json_line(out: &mut impl Write, r: &GameReport, fen: &str) -> std::io::Result<()> {
    write!(
        out,
        "{{\"game\": {}, \"plies\": {}, \"final_fen\": {}, \"result\": {}, \"termination\": ",
        r.game,
        r.plies,
        json_string(fen),
        json_string(r.result.as_str()),
    )?;
    match r.termination {
        Some(t) => out.write_all(json_string(t.as_str()).as_bytes())?,
        None => out.write_all(b"null")?,
    }
    out.write_all(b", \"error\": ")?;
    match r.problems.first() {
        Some(problem) => out.write_all(json_string(&problem.to_string()).as_bytes())?,
        None => out.write_all(b"null")?,
    }
    out.write_all(b"}\n")
}

/// The text line of a game, into `line`: `game G: P plies, RESULT, TERMINATION, FEN[; problem]`.
fn text_line(line: &mut String, r: &GameReport, fen: &str) {
    line.clear();
    line.push_str("game ");
    push_decimal(line, r.game);
    line.push_str(": ");
    push_decimal(line, r.plies);
    line.push_str(" plies, ");
    line.push_str(r.result.as_str());
    line.push_str(", ");
    line.push_str(r.termination.map_or("-", |t| t.as_str()));
    line.push_str(", ");
    line.push_str(fen);
    if let Some(problem) = r.problems.first() {
        line.push_str("; ");
        let _ = write!(line, "{problem}"); // writing to a string cannot fail
    }
    line.push('\n');
}
