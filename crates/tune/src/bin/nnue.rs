//! `rookery-nnue`: trains the engine's network on the scored positions `rookery-selfplay
//! --positions` writes, and writes it where the engine compiles it in. See the crate README.

use std::path::{Path, PathBuf};
use std::time::Instant;

use anyhow::{ensure, Context, Result};
use clap::Parser;
use rookery_core::Position;
use rookery_engine::tuning::{evaluate_with_params, ACTIVE};
use rookery_tune::nnue::{self, Network, Sample, Training};

/// Train the engine's network on scored positions.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Data files: lines `FEN | centipawns for White | result for White`.
    #[arg(required = true)]
    data: Vec<PathBuf>,
    /// Where the network goes.
    #[arg(long, default_value = "crates/engine/nets/default.nnue")]
    out: PathBuf,
    /// Full passes over the data.
    #[arg(long, default_value_t = 10)]
    epochs: u32,
    /// Positions per optimiser step.
    #[arg(long, default_value_t = 8_192)]
    batch: usize,
    /// Adam's step size at the start (it falls along a cosine to a hundredth).
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// The weight of the game's result in the target, against the search's score.
    #[arg(long, default_value_t = 0.1)]
    result_weight: f32,
    /// Positions from other games, not trained on: each epoch's loss on them is printed, and
    /// the hand-written evaluation's, to compare.
    #[arg(long)]
    validation: Option<PathBuf>,
    /// Also train on each position without castling rights with its files reversed.
    #[arg(long)]
    mirror: bool,
    /// Seeds the starting weights and the order of the positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Go on training this network (a file the engine reads) instead of random weights.
    #[arg(long)]
    start: Option<PathBuf>,
    /// Threads each batch is split across.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
}

/// Positions whose evaluations say whether a network has learnt the basics.
const PROBES: [(&str, &str); 6] = [
    ("the start", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("a pawn up", "rnbqkbnr/ppp1pppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("a knight up", "r1bqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("a rook up", "1nbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQk - 0 1"),
    ("a queen up", "rnb1kbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
    ("a queen down", "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNB1KBNR w KQkq - 0 1"),
];

/// The lines of a data file with their samples. A file still being written ends in part of
/// a line: that is left for the next run.
fn read(path: &Path) -> Result<Vec<(String, Sample)>> {
    let mut text =
        std::fs::read_to_string(path).with_context(|| format!("reading {}", path.display()))?;
    if let Some(end) = text.rfind('\n').filter(|&end| end + 1 < text.len()) {
        eprintln!("{}: leaving out its unfinished last line", path.display());
        text.truncate(end + 1);
    }
    let samples = nnue::parse(&text).with_context(|| format!("{}", path.display()))?;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).map(str::to_owned);
    eprintln!("{}: {} positions", path.display(), samples.len());
    Ok(lines.zip(samples).collect())
}

fn main() -> Result<()> {
    let args = Args::parse();
    ensure!(args.batch > 0 && args.threads > 0, "--batch and --threads must be at least 1");
    ensure!((0.0..=1.0).contains(&args.result_weight), "--result-weight must be in 0..=1");
    let started = Instant::now();
    let mut data = Vec::new();
    for path in &args.data {
        data.extend(read(path)?);
    }
    ensure!(!data.is_empty(), "no positions to train on");
    // The order of the lines does not matter: games played on several threads come in any
    // order, and the same games train the same network.
    data.sort_unstable_by(|a, b| a.0.cmp(&b.0));
    let mut train = Vec::with_capacity(data.len() * 2);
    for (_, sample) in data {
        train.extend(sample.mirrored().filter(|_| args.mirror));
        train.push(sample);
    }
    let held = match &args.validation {
        Some(path) => {
            let mut held = Vec::new();
            let mut hand_written = Vec::new();
            for (line, sample) in read(path)? {
                // Parsed once already: the FEN is good.
                let pos: Position = line.split('|').next().unwrap_or_default().trim().parse()?;
                hand_written.push(evaluate_with_params(&pos, &ACTIVE));
                held.push(sample);
            }
            eprintln!(
                "validation: the hand-written evaluation's loss {:.6}",
                nnue::eval_loss(&held, &hand_written, args.result_weight)
            );
            held
        }
        None => Vec::new(),
    };
    eprintln!("training on {} positions [{:.0}s]", train.len(), started.elapsed().as_secs_f64());
    let settings = Training {
        epochs: args.epochs,
        batch: args.batch,
        rate: args.rate,
        result_weight: args.result_weight,
        threads: args.threads,
        seed: args.seed,
    };
    let start = match &args.start {
        Some(path) => {
            let bytes =
                std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
            let weights = rookery_engine::nnue::Weights::from_bytes(&bytes)
                .with_context(|| format!("{}: not a network the engine reads", path.display()))?;
            let net = Network::from_weights(&weights);
            if !held.is_empty() {
                let loss = net.loss(&held, args.result_weight);
                eprintln!("validation: {}'s loss {loss:.6}", path.display());
            }
            net
        }
        None => Network::random(args.seed),
    };
    let net = nnue::train(start, &train, &settings, |epoch, loss, net| {
        let validation = if held.is_empty() {
            String::new()
        } else {
            format!(", validation {:.6}", net.loss(&held, args.result_weight))
        };
        eprintln!(
            "epoch {:>3}: loss {loss:.6}{validation} [{:.0}s]",
            epoch + 1,
            started.elapsed().as_secs_f64()
        );
    });
    let weights = net.quantise();
    std::fs::write(&args.out, weights.to_bytes())
        .with_context(|| format!("writing {}", args.out.display()))?;
    eprintln!("wrote {}; it evaluates, for the side to move:", args.out.display());
    for (what, fen) in PROBES {
        let pos: Position = fen.parse()?;
        eprintln!("  {:>5} cp  {what}", weights.evaluate(&pos));
    }
    Ok(())
}
