//! `rookery`: the one binary of the Rookery chess platform. Thin glue: each subcommand lives in
//! its own module and calls into the library crates.

use std::process::ExitCode;

use clap::{Parser, Subcommand};

mod bench;
mod fen_arg;
mod json;
mod ladder;
mod match_cmd;
mod moves;
mod pair;
mod perft;
mod pgn;
mod play;
mod rate;
mod serve;
mod standings;
mod uci;
mod usage;

use usage::UsageError;

/// Rookery: exact chess rules, a fast core and the tools around them.
#[derive(Parser)]
#[command(
    name = "rookery",
    version,
    about,
    propagate_version = true,
    arg_required_else_help = true
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the chess site: accounts, lobby, live games, the web UI (http://127.0.0.1:8080).
    Serve(serve::Args),
    /// Count the leaf nodes of the move tree to a depth (the standard move-generator test).
    Perft(perft::Args),
    /// List the legal moves of a position.
    Moves(moves::Args),
    /// Show the ladder points (RULES.md §11) one game moves, with both new totals and levels.
    Rate(rate::Args),
    /// Replay the results of a PGN collection through the §11 ladder and print the standings.
    Ladder(ladder::Args),
    /// Read PGN files (RULES.md §10): replay, check, export or count their games.
    Pgn {
        #[command(subcommand)]
        command: pgn::Command,
    },
    /// Play a game in the terminal, against the engine or a friend at the same keyboard.
    Play(play::Args),
    /// Run the engine as a UCI engine on standard input and output (for GUIs and matches).
    Uci(uci::Args),
    /// Search the engine's fixed bench positions; the node count is the engine's signature.
    Bench(bench::Args),
    /// Play UCI engines against each other through the arbiter: W/D/L, Elo, SPRT, PGN.
    Match(match_cmd::Args),
    /// Rank a tournament (a TRF file) by score and FIDE C.07 tie-breaks: BH, SB, DE, TPR …
    Standings(standings::Args),
    /// Pair a round of a TRF tournament (Dutch system, FIDE C.04.3 2026), check every round
    /// of one, generate random ones, or print a Berger round-robin schedule or a knockout
    /// bracket.
    Pair(pair::Args),
}

/// clap's error as one line that names the bad argument (`--help` has the rest): its first
/// line, and when that ends in a colon (`the following required arguments were not
/// provided:`) the names listed under it; `rookery:` in front, like every other error.
fn one_line(text: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("invalid arguments").trim_end();
    let mut line = format!("rookery: {}", first.strip_prefix("error: ").unwrap_or(first));
    if line.ends_with(':') {
        let listed: Vec<&str> = lines.take_while(|l| l.starts_with(' ')).map(str::trim).collect();
        line = format!("{line} {}", listed.join(", "));
    }
    line
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e)
            if e.use_stderr()
                && e.kind() != clap::error::ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand =>
        {
            eprintln!("{}", one_line(&e.render().to_string()));
            return ExitCode::from(2);
        }
        Err(e) => {
            // --help, --version, and the help shown when no subcommand is given.
            let _ = e.print();
            return ExitCode::from(if e.use_stderr() { 2 } else { 0 });
        }
    };
    let result = match cli.command {
        Command::Perft(args) => perft::run(args),
        Command::Moves(args) => moves::run(args),
        Command::Serve(args) => serve::run(args),
        Command::Rate(args) => rate::run(args),
        Command::Ladder(args) => ladder::run(args),
        Command::Pgn { command } => pgn::run(command),
        Command::Play(args) => play::run(args),
        Command::Uci(args) => uci::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Match(args) => match_cmd::run(args),
        Command::Standings(args) => standings::run(args),
        Command::Pair(args) => pair::run(args),
    };
    match result {
        Ok(code) => code,
        Err(e)
            if e.downcast_ref::<std::io::Error>()
                .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe) =>
        {
            // The reader went away (`rookery … | head`): not an error worth a message.
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("rookery: {e:#}");
            if e.downcast_ref::<UsageError>().is_some() {
                ExitCode::from(2)
            } else {
                ExitCode::FAILURE
            }
        }
    }
}
