//! `rookery play`: a full-screen terminal game against the engine or between two people at
//! one keyboard, with clocks, on the arbiter's rules.
//!
//! The parts, from the inside out, each importing only those before it: [`screen`] is the
//! shared vocabulary (the [`screen::Look`], where the board sits); [`setup`] turns the
//! arguments into the starting game; [`worker`] runs the engine's search on its own thread;
//! [`app`] holds the game and everything the screen shows and changes it by
//! [`app::Action`]s at a time passed in (no terminal, no system clock); [`input`] turns key
//! and mouse events into actions; [`render`] draws the state with ratatui widgets;
//! [`terminal`] owns the real terminal and the only `Instant::now()`.

mod app;
mod input;
mod render;
mod screen;
mod setup;
mod terminal;
mod worker;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod tests_960;

use std::io::IsTerminal;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use rookery_arbiter::{RuleSet, TimeControl};

use crate::usage::UsageError;

/// Which side you take against the engine.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum ColorChoice {
    /// You play White.
    White,
    /// You play Black.
    Black,
    /// Drawn by lot.
    Random,
}

/// Arguments of `rookery play`.
#[derive(clap::Args, Debug)]
pub struct Args {
    /// Play against the engine at this level, 1 (beginner) to 8 (expert). Without it, two people
    /// take turns at one keyboard (hot-seat).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u8).range(1..=8))]
    level: Option<u8>,
    /// Your colour against the engine.
    #[arg(long, value_enum, default_value = "random", requires = "level")]
    color: ColorChoice,
    /// Start from this position (FEN) instead of the standard one. Read as Chess960 when its
    /// castling field only makes sense there (a rook's file, or a right off e1 or the corners).
    #[arg(long, value_name = "FEN", conflicts_with = "pgn")]
    fen: Option<String>,
    /// Chess960: from start position N (0–959; 518 is the standard start), or a random one
    /// when N is left out (its number is printed and shown); with --fen, read the FEN as
    /// Chess960. Castle with O-O/O-O-O, the king onto its rook (e1h1) or its two-square move.
    #[arg(long = "960", value_name = "N", num_args = 0..=1, allow_negative_numbers = true,
        value_parser = crate::fen_arg::parse_start_number, conflicts_with = "pgn")]
    chess960: Option<Option<u16>>,
    /// Continue the first game of this PGN file after its last main-line move.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Time control in the arbiter's syntax: `300+2`, `40/5400:1800+30`, `300d5`, `-` for none.
    #[arg(long, value_name = "TC", default_value = "-")]
    tc: TimeControl,
    /// Rule set: `seed` (third illegal move loses, touch-move), `fide` or `casual` (takebacks
    /// against the engine, illegal moves only refused).
    #[arg(long, value_name = "RULES", default_value = "seed")]
    rules: RuleSet,
    /// Draw the board with ASCII letters and no colour (also chosen when the terminal shows no
    /// colour).
    #[arg(long)]
    ascii: bool,
    /// Start with Black at the bottom of the board.
    #[arg(long)]
    flip: bool,
    /// Write the game as PGN to this file when it ends and on quitting; Ctrl-S writes it at any
    /// time (without `--save`, to rookery-<time>.pgn in the current directory).
    #[arg(long, value_name = "FILE")]
    save: Option<PathBuf>,
    /// Seed for the engine's choices and `--color random` (default: from the system clock).
    #[arg(long, value_name = "N")]
    seed: Option<u64>,
}

/// Runs `rookery play` until the player quits.
pub fn run(args: Args) -> Result<ExitCode> {
    let wall = setup::WallClock::now();
    let config = setup::config(args, &wall)?;
    // A full-screen game reads keys and draws on a terminal; without one, crossterm fails
    // with "No such device or address (os error 6)", which names nothing.
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(UsageError(
            "play needs a terminal: its standard input and output must be one".into(),
        )
        .into());
    }
    if let Some(n) = config.chess960 {
        // Printed before the screen is taken over, so that it stays above the game's output.
        println!("Chess960 start position {n}");
    }
    let app = app::App::new(config, 0)?;
    let app = terminal::run(app)?;
    if let Some(path) = &app.saved {
        println!("the game is saved in {}", path.display());
    }
    Ok(ExitCode::SUCCESS)
}
