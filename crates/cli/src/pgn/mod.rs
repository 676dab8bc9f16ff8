//! `rookery pgn`: PGN files (RULES.md §10) read with rookery-pgn and replayed with
//! rookery-core. Every command streams: memory stays constant whatever the file's size.

mod check;
mod export;
mod game;
mod progress;
mod replay;
mod stats;

use std::fs::File;
use std::io::{self, Read};
use std::process::ExitCode;

use anyhow::Result;
use rookery_pgn::Reader;

use crate::UsageError;
use game::{GameReport, Options, Replayer};
use progress::Progress;

/// The `rookery pgn` subcommands.
#[derive(clap::Subcommand)]
pub enum Command {
    /// Replay each game's main line: plies, final FEN, result, how the final position stands,
    /// and the first problem if any.
    Replay(replay::Args),
    /// Report every problem (game, line, column, reason); exit status 1 if there is any.
    Check(check::Args),
    /// Re-write the games in PGN export format: normalised SAN, wrapped lines.
    Export(export::Args),
    /// Count games, plies, results, terminations and errors, and measure the throughput.
    Stats(stats::Args),
}

/// Runs a `rookery pgn` subcommand.
pub fn run(command: Command) -> Result<ExitCode> {
    match command {
        Command::Replay(args) => replay::run(args),
        Command::Check(args) => check::run(args),
        Command::Export(args) => export::run(args),
        Command::Stats(args) => stats::run(args),
    }
}

/// The file to read: a path, or `-` for standard input.
#[derive(clap::Args)]
pub struct Input {
    /// The PGN file, or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
}

impl Input {
    /// The file as given (`-`: standard input).
    pub(crate) fn name(&self) -> &str {
        &self.file
    }

    /// The opened input and its size in bytes when known.
    pub(crate) fn open(&self) -> Result<(Box<dyn Read>, Option<u64>), UsageError> {
        if self.file == "-" {
            return Ok((Box::new(io::stdin().lock()), None));
        }
        let file = File::open(&self.file)
            .map_err(|e| UsageError(format!("cannot read {}: {e}", self.file)))?;
        // A directory opens on Unix and fails only at the first read, with no name.
        if file.metadata().is_ok_and(|m| m.is_dir()) {
            return Err(UsageError(format!("{}: is a directory, not a PGN file", self.file)));
        }
        let size = file.metadata().ok().filter(|m| m.is_file()).map(|m| m.len());
        Ok((Box::new(file), size))
    }

    /// Reads and replays every game, handing each report to `each`, with a progress bar on a
    /// terminal. Returns the number of bytes read.
    fn for_each_game(
        &self,
        options: Options,
        mut each: impl FnMut(GameReport) -> Result<()>,
    ) -> Result<u64> {
        let (read, size) = self.open()?;
        let mut reader = Reader::new(read);
        let mut replayer = Replayer::new(options);
        let mut progress = Progress::new(size);
        loop {
            let report = reader
                .read_game(&mut replayer)
                .map_err(|e| anyhow::anyhow!("reading {}: {e}", self.file))?;
            let Some(report) = report else { break };
            each(report)?;
            progress.update(reader.bytes_read());
        }
        progress.finish();
        Ok(reader.bytes_read())
    }
}
