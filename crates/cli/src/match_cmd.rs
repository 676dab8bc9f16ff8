//! `rookery match`: two UCI engines play a series of games through the arbiter; progress on
//! stderr, the PGN to a file, the final table on stdout.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use rookery_arbiter::TimeControl;
use rookery_core::CastlingMode;
use rookery_match::{
    opening, pgn_date, DrawRule, EngineSpec, GameSettings, MatchConfig, MonotonicTimer, Opening,
    ResignRule, Sprt,
};

use crate::usage::UsageError;

/// Arguments of `rookery match`.
#[derive(clap::Args)]
#[command(after_long_help = ENGINE_HELP)]
pub struct Args {
    #[command(flatten)]
    engines: EngineArgs,
    #[command(flatten)]
    games: GameArgs,
    #[command(flatten)]
    adjudication: AdjudicationArgs,
    #[command(flatten)]
    output: OutputArgs,
}

const ENGINE_HELP: &str = "\
Engine specs: \"CMD [ARG...] [option.NAME=VALUE...] [nodes=N] [name=NAME]\", split at spaces
and quoted like a shell ('option.Move Overhead=20'). option.NAME=VALUE sets a UCI option after
the handshake (option.NAME alone presses a button); nodes=N limits each search to N nodes
(`go ... nodes N`; the clock still runs: give a time control it cannot run out of, and a
deterministic engine plays the same games however busy the machine is); name=NAME names the
engine in the results and the PGN (default: its `id name`); other words are arguments to CMD.

Examples:
  rookery match --engine \"target/release/rookery uci option.Level=4 name=level4\" \\
                --engine \"target/release/rookery uci option.Level=5 name=level5\" \\
                --tc 10+0.1 --games 200 --concurrency 2 --openings scripts/data/openings.epd
  rookery match --engine \"target/release/rookery uci option.Threads=1 name=rookery\" \\
                --engine \"stockfish option.Threads=1 option.UCI_LimitStrength=true option.UCI_Elo=2000\" \\
                --tc 10+0.1 --games 100 --sprt 0,10 --pgn games.pgn
  rookery match --engine \"target/release/rookery uci nodes=20000 name=new\" \\
                --engine \"old/rookery uci nodes=20000 name=old\" \\
                --tc 600+1 --games 708 --concurrency 2 --openings scripts/data/openings.epd
  rookery match --engine \"target/release/rookery uci\" --engine stockfish \\
                --tc 10+0.1 --games 100 --960 --seed 7 --pgn chess960.pgn";

/// The engines.
#[derive(clap::Args)]
#[command(next_help_heading = "Engines")]
struct EngineArgs {
    /// An engine, given twice: "CMD [ARG...] [option.NAME=VALUE...] [nodes=N] [name=NAME]"
    /// (see below).
    /// Results are from the first engine's side.
    #[arg(long = "engine", value_name = "SPEC", required = true)]
    engine: Vec<EngineSpec>,
    /// How long an engine may take to start and to answer `isready`, in ms.
    #[arg(long, value_name = "MS", default_value_t = 10_000)]
    start_timeout: u64,
    /// How long past its flag an engine may stay silent before it counts as hung, in ms.
    #[arg(long, value_name = "MS", default_value_t = 1_000)]
    timeout_margin: u64,
}

/// The games.
#[derive(clap::Args)]
#[command(next_help_heading = "Games")]
struct GameArgs {
    /// Time control, as in a PGN TimeControl tag: 10+0.1 (10 s, 0.1 s a move), 60, 40/60, ...
    #[arg(long, value_name = "TC", default_value = "10+0.1")]
    tc: TimeControl,
    /// Games to play (each opening twice, colours swapped).
    #[arg(long, value_name = "N", default_value_t = 2)]
    games: usize,
    /// Games played at the same time (two engine processes each).
    #[arg(long, value_name = "N", default_value_t = 1)]
    concurrency: usize,
    /// Openings: an EPD file (FEN fields, optional `moves ...;`) or a PGN file (main lines);
    /// used in order, from the first again when they run out. Default: the standard start.
    #[arg(long, value_name = "FILE")]
    openings: Option<PathBuf>,
    /// Use only the first N plies of each opening.
    #[arg(long, value_name = "N")]
    opening_plies: Option<usize>,
    /// Play Chess960 (Fischer random): each pair of games starts from one of the 960 start
    /// positions, drawn at random from --seed (none twice before all have come), or from the
    /// --openings file read as Chess960 (X-FEN or Shredder-FEN castling). Both engines are
    /// started with UCI_Chess960 on; the PGN says [Variant "Chess960"].
    #[arg(long = "960")]
    chess960: bool,
    /// Play Chess960 from these start positions (0 to 959, 518 the standard one), in order,
    /// each twice with colours swapped, from the first again when they run out.
    #[arg(
        long = "960-positions",
        value_name = "N,M,...",
        value_delimiter = ',',
        conflicts_with = "openings",
        value_parser = clap::value_parser!(u16).range(0..960)
    )]
    chess960_positions: Vec<u16>,
    /// The seed of --960's random start positions: the same seed, the same positions.
    #[arg(long, value_name = "N", default_value_t = 0, requires = "chess960")]
    seed: u64,
    /// Stop early by a sequential probability ratio test of elo0 against elo1, such as 0,10.
    #[arg(long, value_name = "ELO0,ELO1")]
    sprt: Option<String>,
    /// The SPRT's false positive rate.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    sprt_alpha: f64,
    /// The SPRT's false negative rate.
    #[arg(long, value_name = "P", default_value_t = 0.05)]
    sprt_beta: f64,
}

/// Ending games on the engines' scores (both engines must agree).
#[derive(clap::Args)]
#[command(next_help_heading = "Adjudication")]
struct AdjudicationArgs {
    /// A side loses once, for MOVES consecutive moves each, its score was at most -CP and its
    /// opponent's at least CP.
    #[arg(long, value_name = "MOVES,CP")]
    resign_adjudication: Option<ResignRule>,
    /// A game is drawn once, from full move MOVENUMBER on, both engines' scores lay within CP
    /// of zero for MOVES consecutive moves each.
    #[arg(long, value_name = "MOVENUMBER,MOVES,CP")]
    draw_adjudication: Option<DrawRule>,
}

/// The record.
#[derive(clap::Args)]
#[command(next_help_heading = "Output")]
struct OutputArgs {
    /// Write every game to this PGN file (in the order the games finish).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// The PGN Event tag.
    #[arg(long, default_value = "Rookery match")]
    event: String,
    /// The PGN Site tag.
    #[arg(long, default_value = "?")]
    site: String,
    /// No progress lines on stderr.
    #[arg(long, short)]
    quiet: bool,
}

/// Runs `rookery match`.
pub fn run(args: Args) -> Result<ExitCode> {
    let Args { engines, games, adjudication, output } = args;
    let [first, second]: [EngineSpec; 2] = engines.engine.try_into().map_err(|given: Vec<_>| {
        let given = match given.len() {
            0 => "not at all".to_owned(),
            1 => "once".to_owned(),
            n => format!("{n} times"),
        };
        UsageError(format!(
            "--engine must be given twice, once for each engine; it was given {given}"
        ))
    })?;
    for spec in [&first, &second] {
        if !is_program(&spec.command) {
            return Err(UsageError(format!("--engine {}: no such program", spec.command)).into());
        }
    }
    if !games.tc.is_timed() {
        return Err(UsageError(format!("--tc {} has no clock; engines need one", games.tc)).into());
    }
    if games.concurrency == 0 {
        return Err(UsageError("--concurrency must be at least 1".to_owned()).into());
    }
    let sprt = match &games.sprt {
        None => None,
        Some(text) => Some(
            Sprt::parse(text)
                .and_then(|s| Sprt::new(s.elo0, s.elo1, games.sprt_alpha, games.sprt_beta))
                .map_err(|e| UsageError(format!("--sprt {text}: {e}")))?,
        ),
    };
    let chess960 = games.chess960 || !games.chess960_positions.is_empty();
    let mode = if chess960 { CastlingMode::Chess960 } else { CastlingMode::Standard };
    let (openings, described) = match &games.openings {
        Some(path) => {
            let openings = opening::load_in(path, games.opening_plies, mode)
                .map_err(|e| UsageError(format!("--openings: {e}")))?;
            let kind = if chess960 { "Chess960 opening(s)" } else { "opening(s)" };
            let described = format!("{} {kind}", openings.len());
            (openings, described)
        }
        None if !games.chess960_positions.is_empty() => {
            let numbers = &games.chess960_positions;
            let openings = numbers.iter().map(|&n| Opening::chess960(n).expect("0 to 959"));
            let list: Vec<String> = numbers.iter().map(u16::to_string).collect();
            (openings.collect(), format!("Chess960 start positions {}", list.join(",")))
        }
        None if chess960 => {
            let openings = opening::random_chess960(games.games.div_ceil(2), games.seed);
            let described =
                format!("{} random Chess960 start positions (seed {})", openings.len(), games.seed);
            (openings, described)
        }
        None => (Vec::new(), "1 opening(s)".to_owned()),
    };
    let mut pgn =
        match &output.pgn {
            None => None,
            Some(path) if path.is_dir() => {
                return Err(UsageError(format!("--pgn {}: is a directory", path.display())).into())
            }
            Some(path) => Some(BufWriter::new(File::create(path).map_err(|e| {
                UsageError(format!("--pgn {}: cannot create: {e}", path.display()))
            })?)),
        };
    let timer = MonotonicTimer::new();
    let config = MatchConfig {
        engines: [first, second],
        games: games.games,
        concurrency: games.concurrency,
        openings,
        settings: GameSettings {
            time_control: games.tc,
            margin_ms: engines.timeout_margin,
            ready_timeout_ms: engines.start_timeout,
            resign: adjudication.resign_adjudication,
            draw: adjudication.draw_adjudication,
        },
        sprt,
        event: output.event,
        site: output.site,
        date: pgn_date(std::time::SystemTime::now()),
        start_timeout_ms: engines.start_timeout,
    };
    if !output.quiet {
        eprintln!(
            "match: {} games at {}, concurrency {}, {described}{}",
            config.games,
            config.settings.time_control,
            config.concurrency,
            config.sprt.map_or_else(String::new, |s| format!(", SPRT {s}"))
        );
    }
    let report = rookery_match::run(&config, &timer, |game, report| {
        if let Some(out) = pgn.as_mut() {
            out.write_all(game.pgn.as_bytes())?;
            out.flush()?;
        }
        if !output.quiet {
            let white = &report.names[game.white];
            let black = &report.names[1 - game.white];
            let how = if game.adjudicated { ", adjudicated" } else { "" };
            let mut line = format!(
                "game {:>4}: {white} - {black} {} ({}{how}, {} plies) | {}",
                game.number,
                game.outcome.result,
                game.outcome.termination,
                game.plies,
                report.progress()
            );
            if let Some(sprt) = &report.sprt {
                line.push_str(&format!(" llr {:.2}", sprt.llr));
            }
            eprintln!("{line}");
        }
        Ok(())
    })?;
    print!("{report}");
    Ok(ExitCode::SUCCESS)
}

/// Whether `command` names a program that can be started: a file, found on `PATH` unless it
/// contains a `/` (as the operating system looks it up). Checked before the match starts, so
/// that a misspelt engine is a one-line usage error and not a failed game.
fn is_program(command: &str) -> bool {
    let is_file = |path: &std::path::Path| path.is_file();
    if command.contains('/') {
        return is_file(std::path::Path::new(command));
    }
    std::env::var_os("PATH")
        .is_some_and(|paths| std::env::split_paths(&paths).any(|dir| is_file(&dir.join(command))))
}
