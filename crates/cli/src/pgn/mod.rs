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
use std::path::Path;
use std::process::ExitCode;
use std::thread;

use anyhow::Result;
use rookery_pgn::parallel::{self, Parallel};
use rookery_pgn::Reader;

use crate::usage::UsageError;
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

/// Why reading by parts stopped: the file could not be read, or a game's report could not be
/// handed on (its command's error, such as a closed output).
enum Failure {
    Read(io::Error),
    Each(anyhow::Error),
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Failure {
        Failure::Read(e)
    }
}

/// The file to read: a path, or `-` for standard input.
#[derive(clap::Args)]
pub struct Input {
    /// The PGN file, or - for standard input.
    #[arg(value_name = "FILE")]
    file: String,
    /// Threads reading a file of a few MB or more, parts of it each (the output is the same
    /// as with one), 1 to 256; standard input is read by one. Default: one a core.
    #[arg(long, value_name = "N", allow_negative_numbers = true,
        value_parser = clap::value_parser!(u16).range(1..=256))]
    threads: Option<u16>,
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

    /// Reads and replays every game, handing each report to `each` in the file's order, with a
    /// progress bar on a terminal. Returns the number of bytes read.
    fn for_each_game(
        &self,
        options: Options,
        mut each: impl FnMut(GameReport) -> Result<()>,
    ) -> Result<u64> {
        let (read, size) = self.open()?;
        let threads = self
            .threads
            .map_or_else(|| thread::available_parallelism().map_or(1, |n| n.get()), usize::from);
        // A file of a few parts is read by parts on every core: a thread a part and the
        // games handed on in order (rookery_pgn::parallel; issue 41).
        if let Some(size) = size.filter(|&size| threads > 1 && size >= 4 * Parallel::PART) {
            drop(read);
            let mut progress = Progress::new(Some(size));
            let parallel = Parallel { threads, part: Parallel::PART };
            let make = || Replayer::new(options);
            let bytes = parallel::read_file(
                Path::new(&self.file),
                parallel,
                make,
                |mut report: GameReport, origin, done| {
                    report.renumber(origin);
                    each(report).map_err(Failure::Each)?;
                    progress.update(done);
                    Ok(())
                },
            )
            .map_err(|failure| match failure {
                Failure::Read(e) => anyhow::anyhow!("reading {}: {e}", self.file),
                Failure::Each(e) => e,
            })?;
            progress.finish();
            return Ok(bytes);
        }
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
