//! `rookery-tune`: fits the engine's evaluation weights to game results (Texel's method) and
//! writes them as `crates/engine/src/params/tuned.rs`. See the crate README.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::{ensure, Context, Result};
use clap::Parser;
use rookery_engine::tuning::{Params, Term, ACTIVE, HAND_SET};
use rookery_tune::model::default_mask;
use rookery_tune::{
    codegen, error, fit_k, optimise, sample, Dataset, Labelled, Sampling, Schedule, Weights,
};

/// Fit the evaluation's weights to the results of the games in a PGN file (Texel's tuning
/// method) and write them as Rust source.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// The games: a PGN file (`scripts/fetch-pgn-corpus.sh` makes the default).
    #[arg(default_value = "target/corpus/corpus.pgn")]
    pgn: PathBuf,
    /// Where to write the tuned weights; `-` for standard output.
    #[arg(long, default_value = "crates/engine/src/params/tuned.rs")]
    out: PathBuf,
    #[command(flatten)]
    sampling: SamplingArgs,
    #[command(flatten)]
    schedule: ScheduleArgs,
    /// The command that made the games, for the generated file's header.
    #[arg(long, default_value = "scripts/fetch-pgn-corpus.sh")]
    data_command: String,
    /// Threads (the result does not depend on it).
    #[arg(long, default_value_t = default_threads())]
    threads: usize,
}

/// Which positions are used.
#[derive(Debug, clap::Args)]
struct SamplingArgs {
    /// Plies skipped at the start of each game.
    #[arg(long, default_value_t = 8)]
    skip_plies: u32,
    /// Keep about one position in N past the opening and not in check.
    #[arg(long, default_value_t = 6)]
    every: u64,
    /// The sampling seed.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Read only the first N games.
    #[arg(long)]
    games: Option<u64>,
    /// Hold out every Nth game to measure the error on positions not tuned on (0: none).
    #[arg(long, default_value_t = 0)]
    holdout: u64,
}

/// How the weights are optimised.
#[derive(Debug, clap::Args)]
struct ScheduleArgs {
    /// Full-batch Adam steps.
    #[arg(long, default_value_t = 2000)]
    epochs: u32,
    /// Adam's step size, in centipawns.
    #[arg(long, default_value_t = 1.0)]
    rate: f64,
    /// L2 regularisation toward the hand-set weights (per squared centipawn).
    #[arg(long, default_value_t = 0.0)]
    l2: f64,
    /// Keep these fields of the weights at their hand-set values (`material`, `psqt`,
    /// `mobility`, `king_attack`, `passed`, `bishop_pair`, …; comma-separated).
    #[arg(long, value_delimiter = ',')]
    freeze: Vec<String>,
}

fn default_threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The error of `params` on `positions` traced with `params` themselves: what the engine
/// playing with them would evaluate, where the terms the trace linearises around the traced
/// weights (the king attack's scale, the endgame scale) are exact and each position is
/// resolved to the quiet leaf those weights see. The figure to compare weight sets by.
fn own_error(positions: &[Labelled], params: &Params, k: f64, threads: usize) -> f64 {
    let traced = Dataset::build(positions, params, threads);
    error(&traced, &Weights::from_params(params), k, threads)
}

/// FNV-1a, 64 bits: names the exact input in the generated file's header.
fn fnv1a(bytes: &[u8]) -> u64 {
    bytes
        .iter()
        .fold(0xcbf2_9ce4_8422_2325, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3))
}

fn main() -> Result<()> {
    let args = Args::parse();
    ensure!(args.sampling.every > 0, "--every must be at least 1");
    let started = Instant::now();
    let pgn =
        std::fs::read(&args.pgn).with_context(|| format!("reading {}", args.pgn.display()))?;
    let sampling = Sampling {
        skip_plies: args.sampling.skip_plies,
        every: args.sampling.every,
        seed: args.sampling.seed,
        max_games: args.sampling.games,
    };
    let (positions, stats) =
        sample(&pgn, &sampling).with_context(|| format!("reading {}", args.pgn.display()))?;
    eprintln!(
        "{}: {} games ({} used, {} skipped), {} candidate positions, {} sampled [{:.1}s]",
        args.pgn.display(),
        stats.games,
        stats.used,
        stats.skipped,
        stats.candidates,
        stats.kept,
        started.elapsed().as_secs_f64()
    );
    ensure!(!positions.is_empty(), "{}: no positions to tune on", args.pgn.display());

    let start: Params = HAND_SET;
    let holdout = args.sampling.holdout;
    let (held, positions): (Vec<_>, Vec<_>) =
        positions.into_iter().partition(|p| holdout > 0 && p.game.is_multiple_of(holdout));
    let data = Dataset::build(&positions, &start, args.threads);
    let validation = Dataset::build(&held, &start, args.threads);
    drop(positions);
    eprintln!(
        "resolved to quiet positions and traced: {} positions, {} coefficients; {} held out [{:.1}s]",
        data.len(),
        data.entries(),
        validation.len(),
        started.elapsed().as_secs_f64()
    );

    let initial = Weights::from_params(&start);
    let k = fit_k(&data, &initial, args.threads);
    let before = error(&data, &initial, k, args.threads);
    eprintln!(
        "K = {k:.6}; error of the hand-set weights {before:.6} [{:.1}s]",
        started.elapsed().as_secs_f64()
    );

    // The weights the engine plays with now, measured at the same K on the same positions:
    // what a new set has to beat. On the held-out games also traced with those weights
    // themselves (see `own_error`). Printed only: the file written must not depend on them.
    let active = Weights::from_params(&ACTIVE);
    let active_error = error(&data, &active, k, args.threads);
    let active_held = if validation.is_empty() {
        String::new()
    } else {
        format!(
            ", held out {:.6} ({:.6} traced with them)",
            error(&validation, &active, k, args.threads),
            own_error(&held, &ACTIVE, k, args.threads)
        )
    };
    eprintln!("error of the weights the engine plays with {active_error:.6}{active_held}");

    let schedule =
        Schedule { epochs: args.schedule.epochs, rate: args.schedule.rate, l2: args.schedule.l2 };
    let mut mask = default_mask();
    for name in &args.schedule.freeze {
        let mut found = false;
        for term in Term::all() {
            if term.to_string().split('[').next() == Some(name.as_str()) {
                mask[2 * term.index()] = false;
                mask[2 * term.index() + 1] = false;
                found = true;
            }
        }
        ensure!(found, "--freeze {name}: no such field of the weights");
    }
    let tuned = optimise(&data, &initial, &mask, k, &schedule, args.threads, |epoch, e, w| {
        if epoch % 100 == 0 {
            let held = if validation.is_empty() {
                String::new()
            } else {
                format!(", held out {:.6}", error(&validation, w, k, args.threads))
            };
            eprintln!(
                "epoch {epoch:5}: error {e:.6}{held} [{:.1}s]",
                started.elapsed().as_secs_f64()
            );
        }
    });
    let params = tuned.to_params(&start);
    let after = error(&data, &Weights::from_params(&params), k, args.threads);
    eprintln!(
        "error before {before:.6}, after {after:.6} (rounded weights) [{:.1}s]",
        started.elapsed().as_secs_f64()
    );
    let held = if validation.is_empty() {
        String::new()
    } else {
        let held_before = error(&validation, &initial, k, args.threads);
        let held_after = error(&validation, &Weights::from_params(&params), k, args.threads);
        let held_own = own_error(&held, &params, k, args.threads);
        eprintln!(
            "held-out games: error before {held_before:.6}, after {held_after:.6} \
             ({held_own:.6} traced with them)"
        );
        format!(
            " On the {} positions of the held-out games (every {holdout}th) it was \
             {held_before:.6} before, {held_after:.6} after.",
            validation.len()
        )
    };

    let command: Vec<String> = std::env::args()
        .skip(1)
        .map(|arg| if arg.contains(char::is_whitespace) { format!("'{arg}'") } else { arg })
        .collect();
    let file_name = args
        .pgn
        .file_name()
        .map_or_else(|| args.pgn.display().to_string(), |n| n.to_string_lossy().into_owned());
    let kept = if args.schedule.freeze.is_empty() {
        String::new()
    } else {
        format!(" ({} kept as they were)", args.schedule.freeze.join(", "))
    };
    let notes = format!(
        "Data: `{file_name}`, {} bytes, FNV-1a {:016x}: {} games, {} of them used. {} \
         positions sampled (one in {} past ply {}, not in check, seed {}) and resolved to \
         their quiet leaves; {} tuned on. From the hand-set weights{kept}: K = {k:.6}, {} \
         Adam epochs at rate {}, L2 {}. Mean squared error {before:.6} before, {after:.6} \
         after.{held}",
        pgn.len(),
        fnv1a(&pgn),
        stats.games,
        stats.used,
        stats.kept,
        sampling.every,
        sampling.skip_plies,
        sampling.seed,
        data.len(),
        schedule.epochs,
        schedule.rate,
        schedule.l2,
    );
    let command = format!("cargo run --release -p rookery-tune -- {}", command.join(" "));
    let source = codegen::tuned_rs(&params, &[&args.data_command, &command], &notes);
    if args.out.as_os_str() == "-" {
        print!("{source}");
    } else {
        std::fs::write(&args.out, source)
            .with_context(|| format!("writing {}", args.out.display()))?;
        eprintln!("wrote {}", args.out.display());
    }
    Ok(())
}
