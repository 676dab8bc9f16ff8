//! `rookery-selfplay`: plays the engine against itself at a fixed number of nodes a move and
//! writes the games as PGN, the training data `rookery-tune` reads. See the crate README.

use std::fs::{File, OpenOptions};
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc;
use std::time::Instant;

use anyhow::{ensure, Context, Result};
use clap::Parser;
use rookery_arbiter::{Game, GameResult};
use rookery_core::Color;
use rookery_tune::data::splitmix;
use rookery_tune::selfplay::{self, Settings};

/// Play the engine against itself at a fixed node count and write the games as PGN.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Games to play.
    #[arg(long, default_value_t = 1000)]
    games: u64,
    /// Where the games go (appended to, so a stopped run can be continued with another
    /// `--first`).
    #[arg(long, default_value = "target/selfplay/games.pgn")]
    out: PathBuf,
    /// The openings, EPD or PGN (`rookery match --openings` reads the same files).
    #[arg(long, default_value = "scripts/data/openings.epd")]
    openings: PathBuf,
    /// Nodes searched for each move.
    #[arg(long, default_value_t = Settings::default().nodes)]
    nodes: u64,
    /// Random legal moves after each opening.
    #[arg(long, default_value_t = Settings::default().random_plies)]
    random_plies: u32,
    /// The number of the first game (games are numbered from here; game n is always the
    /// same game for the same settings and seed).
    #[arg(long, default_value_t = 1)]
    first: u64,
    /// Seeds the random plies.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write each game's quiet positions with the engine's score, one a line:
    /// `FEN | centipawns for White | result for White (1, 0.5, 0)`, the training data of
    /// `rookery-nnue` (appended to, like `--out`).
    #[arg(long)]
    positions: Option<PathBuf>,
    /// Games played at once, one thread each.
    #[arg(long, default_value_t = std::thread::available_parallelism().map_or(1, |n| n.get()))]
    threads: usize,
}

/// Opens `path` to append to, creating it if need be.
fn append(path: &Path) -> Result<BufWriter<File>> {
    let file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .with_context(|| format!("opening {}", path.display()))?;
    Ok(BufWriter::new(file))
}

/// How a finished game went for White: 0 won, 1 drawn (or unfinished), 2 lost.
fn white_result(game: &Game) -> usize {
    match game.outcome().map(|o| o.result) {
        Some(GameResult::Win(Color::White)) => 0,
        Some(GameResult::Win(Color::Black)) => 2,
        _ => 1,
    }
}

fn main() -> Result<()> {
    let args = Args::parse();
    ensure!(args.threads > 0, "--threads must be at least 1");
    ensure!(args.nodes > 0, "--nodes must be at least 1");
    let openings =
        rookery_match::opening::load(&args.openings, None).map_err(|e| anyhow::anyhow!("{e}"))?;
    ensure!(!openings.is_empty(), "{}: no openings", args.openings.display());
    let openings: Vec<_> = openings.iter().map(|o| o.position()).collect();
    let settings =
        Settings { nodes: args.nodes, random_plies: args.random_plies, ..Settings::default() };
    if let Some(dir) = args.out.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    }
    let mut out = append(&args.out)?;
    let mut positions = args.positions.as_deref().map(append).transpose()?;

    let next = AtomicU64::new(args.first);
    let end = args.first + args.games;
    let started = Instant::now();
    let (tx, rx) = mpsc::channel();
    std::thread::scope(|scope| -> Result<()> {
        for _ in 0..args.threads {
            let tx = tx.clone();
            let (next, openings, settings) = (&next, &openings, &settings);
            scope.spawn(move || {
                let mut engine = match selfplay::engine(settings) {
                    Ok(engine) => engine,
                    Err(e) => {
                        let _ = tx.send(Err(anyhow::anyhow!("{e}")));
                        return;
                    }
                };
                loop {
                    let round = next.fetch_add(1, Ordering::Relaxed);
                    if round >= end {
                        break;
                    }
                    let key = splitmix(args.seed ^ splitmix(round));
                    let opening = &openings[(round % openings.len() as u64) as usize];
                    let game = selfplay::play(&mut engine, opening, settings, key, round);
                    if tx.send(Ok((round, game))).is_err() {
                        break;
                    }
                }
            });
        }
        drop(tx);
        let (mut games, mut plies, mut skipped) = (0u64, 0usize, 0u64);
        let mut wdl = [0u64; 3];
        for message in rx {
            let (round, game) = message?;
            games += 1;
            let played = match game {
                Ok(played) => played,
                Err(e) => {
                    // The opening and its random plies ended the game before it began.
                    eprintln!("game {round} skipped: {e}");
                    skipped += 1;
                    continue;
                }
            };
            let game = &played.game;
            selfplay::write_pgn(&mut out, game)
                .and_then(|()| out.flush())
                .with_context(|| format!("writing {}", args.out.display()))?;
            if let (Some(file), Some(path)) = (&mut positions, &args.positions) {
                let result = ["1", "0.5", "0"][white_result(game)];
                played
                    .quiet_positions()
                    .iter()
                    .try_for_each(|(pos, cp)| writeln!(file, "{pos} | {cp} | {result}"))
                    .and_then(|()| file.flush())
                    .with_context(|| format!("writing {}", path.display()))?;
            }
            plies += game.plies().len();
            wdl[white_result(game)] += 1;
            if games.is_multiple_of(100) || games == args.games {
                let secs = started.elapsed().as_secs_f64();
                eprintln!(
                    "{games}/{} games (1-0 {}, draws {}, 0-1 {}, skipped {skipped}), {plies} plies, {:.1} games/s [{secs:.0}s]",
                    args.games,
                    wdl[0],
                    wdl[1],
                    wdl[2],
                    games as f64 / secs
                );
            }
        }
        Ok(())
    })?;
    eprintln!("wrote {}", args.out.display());
    Ok(())
}
