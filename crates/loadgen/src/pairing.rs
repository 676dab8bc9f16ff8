//! `rookery bench pairing`: the Dutch engine's speed as a user meets it, whole processes of
//! `rookery pair`, against a reference engine with the same command line (bbpPairings or
//! JaVaFo) run on the same files: a round of an N-player Swiss paired early, mid-way and
//! last, a whole tournament checked, and one round of a large Swiss.

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use rookery_tournament::generator::{generate, GeneratorConfig};
use rookery_tournament::{dutch, trf, Tournament};

use crate::{Error, Host};

/// Arguments of `rookery bench pairing`.
#[derive(clap::Args)]
pub struct Args {
    /// A reference engine with JaVaFo's command line (`--dutch FILE -p OUT`, `-c`), such as
    /// bbpPairings built from its source, run on the same files; the ratios are its times
    /// over Rookery's.
    #[arg(long, value_name = "PATH")]
    reference: Option<PathBuf>,
    /// Players of the Swiss whose rounds 2, the middle one and the last are paired.
    #[arg(long, default_value_t = 1000)]
    players: u32,
    /// Rounds of the Swiss tournaments.
    #[arg(long, default_value_t = 11)]
    rounds: u32,
    /// Players of the Swiss checked whole (`-c`).
    #[arg(long, default_value_t = 400)]
    check_players: u32,
    /// Players of the large Swiss whose middle round is paired (0: none); the target is a
    /// round in under a minute on one core.
    #[arg(long, default_value_t = 2000)]
    large_players: u32,
    /// Runs of each command; the fastest counts.
    #[arg(long, default_value_t = 1)]
    runs: u32,
    /// The seed of the generated tournaments.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Keep the generated files here (default: a temporary directory).
    #[arg(long, value_name = "DIR")]
    keep: Option<PathBuf>,
}

/// A command's fastest run: wall time, and processor time from the kernel's accounting of
/// waited-for children (`/proc/self/stat`).
#[derive(Clone, Copy)]
struct Timing {
    wall: Duration,
    cpu: Duration,
}

/// Runs `rookery bench pairing`: the table on stdout, progress on stderr; exits with failure
/// when the reference pairs differently.
///
/// # Errors
/// [`Error::Usage`] for too small a tournament, a `--reference` that is not a file or a
/// `--keep` directory that cannot be made; [`Error::Run`] when an engine fails.
pub fn run(args: Args, host: &Host) -> Result<ExitCode, Error> {
    if args.rounds < 3 || args.players < 4 || args.check_players < 4 {
        return Err(Error::Usage(
            "--rounds must be 3 or more and the tournaments 4 players or more".into(),
        ));
    }
    if let Some(reference) = &args.reference {
        if !reference.is_file() {
            return Err(Error::Usage(format!(
                "--reference {}: no such program",
                reference.display()
            )));
        }
    }
    let temp;
    let dir = match &args.keep {
        Some(dir) => {
            std::fs::create_dir_all(dir)
                .map_err(|e| Error::Usage(format!("--keep {}: {e}", dir.display())))?;
            dir.clone()
        }
        None => {
            temp = tempfile::tempdir().map_err(anyhow::Error::from)?;
            temp.path().to_owned()
        }
    };
    Ok(compare(&args, &host.rookery, &dir)?)
}

/// Generates the files in `dir`, times `rookery pair` (and the reference) on each and prints
/// the table.
fn compare(args: &Args, rookery: &Path, dir: &Path) -> Result<ExitCode> {
    let mid = args.rounds.div_ceil(2);

    eprintln!("generating a {}-player Swiss of {} rounds …", args.players, args.rounds);
    let main = tournament(args.players, args.rounds, args.seed)?;
    eprintln!("generating a {}-player Swiss of {} rounds …", args.check_players, args.rounds);
    let checked = tournament(args.check_players, args.rounds, args.seed + 1)?;
    let check_file = dir.join(format!("swiss-{}.trf", args.check_players));
    write(&check_file, &checked)?;

    let mut rows = Vec::new();
    for round in [2, mid, args.rounds] {
        let file = dir.join(format!("swiss-{}-before-round-{round}.trf", args.players));
        write(&file, &main.before_round(round))?;
        rows.push((format!("pair round {round} of {} players", args.players), file, false));
    }
    rows.push((
        format!("check {} players, {} rounds", args.check_players, args.rounds),
        check_file,
        true,
    ));
    if args.large_players > 0 {
        eprintln!("generating a {}-player Swiss of {mid} rounds …", args.large_players);
        let large = tournament(args.large_players, mid - 1, args.seed + 2)?;
        let mut before = large.before_round(mid);
        before.rounds = Some(args.rounds);
        let file = dir.join(format!("swiss-{}-before-round-{mid}.trf", args.large_players));
        write(&file, &before)?;
        rows.push((format!("pair round {mid} of {} players", args.large_players), file, false));
    }

    println!("{:<40} {:>18} {:>18} {:>7}", "", "rookery", "reference", "ratio");
    let mut same = true;
    let mut large_time = None;
    for (label, file, check) in &rows {
        let ours_out = file.with_extension("rookery.pairs");
        let ours =
            time(args.runs, || engine(rookery, &["pair", "--dutch"], file, *check, &ours_out))?;
        let reference = match &args.reference {
            Some(program) => {
                let out = file.with_extension("reference.pairs");
                let t = time(args.runs, || engine(program, &["--dutch"], file, *check, &out))?;
                if !check {
                    same &= std::fs::read(&out)? == std::fs::read(&ours_out)?;
                }
                Some(t)
            }
            None => None,
        };
        let shown =
            |t: Timing| format!("{:.2} s ({:.2} cpu)", t.wall.as_secs_f64(), t.cpu.as_secs_f64());
        let ratio = reference.map_or(String::new(), |r| {
            format!("{:.1}", r.cpu.as_secs_f64() / ours.cpu.as_secs_f64().max(0.01))
        });
        println!(
            "{label:<40} {:>18} {:>18} {ratio:>7}",
            shown(ours),
            reference.map_or(String::new(), shown)
        );
        if label.contains(&format!("of {} players", args.large_players)) && args.large_players > 0 {
            large_time = Some(ours);
        }
    }
    if let Some(t) = large_time {
        let verdict = if t.cpu < Duration::from_secs(60) { "met" } else { "missed" };
        println!("{}-player round under 60 s on one core: {verdict}", args.large_players);
    }
    if args.reference.is_some() {
        println!("the same pairings as the reference: {}", if same { "yes" } else { "NO" });
    }
    println!("files: {}", dir.display());
    Ok(if same { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// A Swiss of `players` and `rounds`, results drawn as bbpPairings' generator draws them.
fn tournament(players: u32, rounds: u32, seed: u64) -> Result<Tournament> {
    let config: GeneratorConfig = format!(
        "PlayersNumber={players}\nRoundsNumber={rounds}\nDrawPercentage=30\nForfeitRate=20\n\
         RetiredRate=100\nHalfPointByeRate=50\nHighestRating=2800\nLowestRating=1000\n"
    )
    .parse()?;
    Ok(generate(&config, seed, dutch::pair)?)
}

fn write(path: &Path, tournament: &Tournament) -> Result<()> {
    std::fs::write(path, trf::write(tournament)?)
        .with_context(|| format!("writing {}", path.display()))
}

/// Runs a pairing engine on `file`: pairs (`-p OUT`) or checks (`-c`, output discarded).
fn engine(program: &Path, system: &[&str], file: &Path, check: bool, out: &Path) -> Result<()> {
    let mut command = Command::new(program);
    command.args(system).arg(file);
    if check {
        command.arg("-c");
    } else {
        command.arg("-p").arg(out);
    }
    let status = command.stdout(Stdio::null()).stderr(Stdio::inherit()).status()?;
    if !status.success() {
        bail!("{} on {} exited with {status}", program.display(), file.display());
    }
    Ok(())
}

/// The fastest of `runs` runs of `f`.
fn time(runs: u32, mut f: impl FnMut() -> Result<()>) -> Result<Timing> {
    let mut best: Option<Timing> = None;
    for _ in 0..runs.max(1) {
        let cpu_before = children_cpu()?;
        let start = Instant::now();
        f()?;
        let timing =
            Timing { wall: start.elapsed(), cpu: children_cpu()?.saturating_sub(cpu_before) };
        if best.is_none_or(|b| timing.cpu < b.cpu) {
            best = Some(timing);
        }
    }
    Ok(best.expect("at least one run"))
}

/// User and system time of this process's waited-for children (fields 16 and 17 of
/// `/proc/self/stat`, in clock ticks).
fn children_cpu() -> Result<Duration> {
    let stat = std::fs::read_to_string("/proc/self/stat").context("/proc/self/stat (Linux)")?;
    let after_name =
        stat.rsplit_once(')').map(|(_, rest)| rest).context("the format of /proc/self/stat")?;
    // After the name: state is field 3, so cutime (16) and cstime (17) are at 13 and 14.
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields.get(13).context("cutime")?.parse::<u64>()?
        + fields.get(14).context("cstime")?.parse::<u64>()?;
    let per_second = rustix::param::clock_ticks_per_second();
    Ok(Duration::from_secs_f64(ticks as f64 / per_second as f64))
}
