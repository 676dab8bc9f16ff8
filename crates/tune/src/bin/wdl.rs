//! `rookery-wdl`: fits the model behind `UCI_ShowWDL` on positions that `rookery-selfplay
//! --positions` wrote (`FEN | centipawns for White | result for White`). See
//! crates/uci/README.md for the run that set `WdlModel::CALIBRATED`.

use std::io::{BufRead, BufReader};
use std::path::PathBuf;

use anyhow::{bail, Context, Result};
use clap::Parser;
use rookery_tune::wdl::Tally;

/// Fit the win/draw/loss model of `UCI_ShowWDL` on self-play positions.
#[derive(Debug, Parser)]
#[command(version)]
struct Args {
    /// Position files of `rookery-selfplay --positions`.
    #[arg(required = true)]
    files: Vec<PathBuf>,
}

fn main() -> Result<()> {
    let args = Args::parse();
    let mut tally = Tally::default();
    for path in &args.files {
        let file = std::fs::File::open(path).with_context(|| path.display().to_string())?;
        for (n, line) in BufReader::new(file).lines().enumerate() {
            let line = line.with_context(|| path.display().to_string())?;
            let mut fields = line.split('|').map(str::trim);
            let (Some(_fen), Some(cp), Some(result)) =
                (fields.next(), fields.next(), fields.next())
            else {
                bail!("{}, line {}: expected FEN | cp | result", path.display(), n + 1);
            };
            let cp: i32 =
                cp.parse().with_context(|| format!("{}, line {}", path.display(), n + 1))?;
            let result: f64 =
                result.parse().with_context(|| format!("{}, line {}", path.display(), n + 1))?;
            tally.add(cp, result);
        }
    }
    let model = tally.fit();
    println!("positions: {}", tally.len());
    println!("a = {:.1}, b = {:.1}", model.a, model.b);
    println!("mean negative log-likelihood: {:.5}", tally.loss(&model));
    for cp in [0, 50, 100, 200, 300, 500] {
        let [w, d, l] = model.per_mille(rookery_uci::ScoreValue::Centipawns(cp));
        println!("cp {cp:>4}: wdl {w} {d} {l}");
    }
    Ok(())
}
