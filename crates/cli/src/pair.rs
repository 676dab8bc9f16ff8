//! `rookery pair`: the pairing engines (Dutch, Burstein) on TRF files, with the command line
//! of JaVaFo and bbpPairings (`-p` to pair, `-c` to check, `-g` to generate), Berger
//! tables, knockout brackets, and team competitions (a team Swiss on a team file, team round
//! robins).

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Result;
use rookery_core::Color;
use rookery_tournament::acceleration::{self, Method};
use rookery_tournament::berger::{self, Cycles};
use rookery_tournament::dutch::{PairError, RoundCheck};
use rookery_tournament::generator::{self, GenerateError, GeneratorConfig};
use rookery_tournament::knockout::Bracket;
use rookery_tournament::team::round_robin::{self as team_round_robin, RoundRobinSettings};
use rookery_tournament::team::swiss::{self as team_swiss, TeamSwissError};
use rookery_tournament::team::text as team_text;
use rookery_tournament::{trf, PlayerId, RoundPairing, SwissPairError, SwissSystem, Tournament};

use crate::usage::UsageError;

/// Arguments of `rookery pair`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("system").required(true).args(["dutch", "burstein", "round_robin", "knockout", "team_swiss", "team_round_robin"])))]
pub struct Args {
    /// The Dutch system (implements FIDE Handbook C.04.3, 2026).
    #[arg(long)]
    dutch: bool,
    /// The Burstein system (implements FIDE Handbook C.04.4.2, 2026): Dutch seeding rounds,
    /// then brackets ranked by the Opposition Evaluation Index.
    #[arg(long)]
    burstein: bool,
    /// A round robin of N players by the Berger tables (FIDE C.05 Annex 1): prints every round.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "pair", "check", "generate"])]
    round_robin: Option<u32>,
    /// A knockout of N players in seed order: prints the bracket, round 1 with its byes (to
    /// the top seeds) and the later rounds by the matches that feed them.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "pair", "check", "generate"])]
    knockout: Option<u32>,
    /// The team Swiss system (FIDE C.04.6, 2026, as reconstructed: see the tournament
    /// crate's README) on a team file (the format of `rookery_tournament::team::text`).
    #[arg(long, conflicts_with_all = ["check", "generate", "baku", "initial_colour"])]
    team_swiss: bool,
    /// A team round robin of N teams by the Berger tables: prints every round, the team named
    /// first with White on board 1 and the odd boards.
    #[arg(long, value_name = "N", conflicts_with_all = ["file", "pair", "check", "generate"])]
    team_round_robin: Option<u32>,
    /// With --round-robin or --team-round-robin: a double round robin (the last two rounds of
    /// the first cycle swapped, the second cycle with colours reversed).
    #[arg(long)]
    double: bool,
    /// The tournament: a TRF file (TRF-2026, or JaVaFo's TRF(x), bbpPairings' TRF(bx)).
    #[arg(value_name = "FILE.trf")]
    file: Option<PathBuf>,
    /// Pair the next round and write the pairs to OUT (default: standard output): the number
    /// of pairs, then one pair a line, White first, in board order; the bye as `N 0`.
    #[arg(short = 'p', long = "pair", value_name = "OUT", num_args = 0..=1, requires = "file")]
    pair: Option<Option<PathBuf>>,
    /// Re-pair every round from the rounds before it and report each round whose pairs or
    /// colours differ from the file's (exit status 1 if any).
    #[arg(short = 'c', long, requires = "file", conflicts_with = "pair")]
    check: bool,
    /// Generate a random tournament from a configuration file of JaVaFo's RTG keys
    /// (PlayersNumber, RoundsNumber, DrawPercentage, ForfeitRate, RetiredRate,
    /// HalfPointByeRate, HighestRating, LowestRating, PointsFor…), paired by this engine.
    #[arg(short = 'g', long, value_name = "CONFIG", conflicts_with_all = ["file", "pair", "check"], requires = "output")]
    generate: Option<PathBuf>,
    /// With --generate: the TRF file to write.
    #[arg(short = 'o', long, value_name = "OUT.trf")]
    output: Option<PathBuf>,
    /// With --generate: the random seed (the same seed gives the same file; default 1).
    #[arg(short = 's', long, value_name = "N", requires = "generate")]
    seed: Option<u64>,
    /// The initial colour (C.04.3 5.1, C.04.4.2 5.1), when the file neither gives it (152,
    /// XXC) nor shows it in a round already paired.
    #[arg(long, value_name = "white|black", value_parser = parse_colour)]
    initial_colour: Option<Color>,
    /// Accelerated pairings by the Baku method (FIDE C.04.5.1): the program computes the
    /// virtual points of the first rounds (a file whose type, line 092, ends in `_BAKU` asks
    /// for them too). A file with accelerations of its own (250, XXA) keeps them. With
    /// --generate, the tournament written carries them as 250 lines.
    #[arg(long, conflicts_with_all = ["round_robin", "knockout"])]
    baku: bool,
    /// With --baku: the pairing number of the last player of group GA, when late entries moved
    /// him from where the split before round 1 put him (default: the first half of the
    /// players rounded up to an even number).
    #[arg(long, value_name = "N", requires = "baku")]
    baku_last_ga: Option<u32>,
}

fn parse_colour(text: &str) -> Result<Color, String> {
    match text.to_ascii_lowercase().as_str() {
        "white" | "w" => Ok(Color::White),
        "black" | "b" => Ok(Color::Black),
        _ => Err(format!("{text:?} is not a colour: white or black")),
    }
}

/// The flag that chooses a Swiss system.
fn flag(system: SwissSystem) -> &'static str {
    match system {
        SwissSystem::Dutch => "--dutch",
        SwissSystem::Burstein => "--burstein",
    }
}

/// Runs `rookery pair`.
pub fn run(args: Args) -> Result<ExitCode> {
    let cycles = if args.double { Cycles::Double } else { Cycles::Single };
    if args.double && args.round_robin.is_none() && args.team_round_robin.is_none() {
        return Err(
            UsageError("--double goes with --round-robin or --team-round-robin".into()).into()
        );
    }
    if let Some(teams) = args.team_round_robin {
        let settings = RoundRobinSettings { cycles, ..Default::default() };
        let schedule = team_round_robin::schedule(teams, settings)
            .map_err(|e| UsageError(format!("--team-round-robin {teams}: {e}")))?;
        let mut out = std::io::stdout().lock();
        for (index, round) in schedule.iter().enumerate() {
            writeln!(out, "Round {}: {round}", index + 1)?;
        }
        return Ok(ExitCode::SUCCESS);
    }
    if args.team_swiss {
        let Some(path) = &args.file else {
            return Err(UsageError("--team-swiss needs a team file".into()).into());
        };
        let Some(out) = &args.pair else {
            return Err(UsageError(format!(
                "{}: say what to do: -p (pair the next round)",
                path.display()
            ))
            .into());
        };
        return pair_team_swiss(path, out.as_deref());
    }
    if let Some(players) = args.round_robin {
        let schedule = berger::schedule(players, cycles)
            .map_err(|e| UsageError(format!("--round-robin {players}: {e}")))?;
        let mut out = std::io::stdout().lock();
        write!(out, "{schedule}")?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(players) = args.knockout {
        let bracket =
            Bracket::new(players).map_err(|e| UsageError(format!("--knockout {players}: {e}")))?;
        write!(std::io::stdout().lock(), "{bracket}")?;
        return Ok(ExitCode::SUCCESS);
    }
    let last_ga = match args.baku_last_ga {
        Some(n) => Some(
            PlayerId::new(n)
                .ok_or_else(|| UsageError("--baku-last-ga: pairing numbers start at 1".into()))?,
        ),
        None => None,
    };
    let system = if args.burstein { SwissSystem::Burstein } else { SwissSystem::Dutch };
    if let Some(config_path) = &args.generate {
        let baku = args.baku.then_some(Method::Baku { last_ga });
        let output = args.output.as_deref().expect("clap requires --output");
        return generate(system, config_path, output, args.seed.unwrap_or(1), baku);
    }
    let Some(path) = &args.file else {
        return Err(UsageError(format!(
            "{} needs a tournament file (or --generate CONFIG)",
            flag(system)
        ))
        .into());
    };
    let mut tournament = read(path)?;
    if args.initial_colour.is_some() {
        tournament.initial_colour = args.initial_colour;
    }
    if args.baku || acceleration::declared(&tournament) {
        // The file's own accelerations (250, XXA), if any, are kept.
        acceleration::accelerate(&mut tournament, Method::Baku { last_ga })
            .map_err(|e| UsageError(format!("{}: --baku: {e}", path.display())))?;
    }
    if args.check {
        return check(system, path, &tournament);
    }
    match &args.pair {
        Some(out) => pair_next(system, path, &tournament, out.as_deref()),
        None => Err(UsageError(format!(
            "{}: say what to do: -p (pair the next round) or -c (check)",
            path.display()
        ))
        .into()),
    }
}

fn read(path: &Path) -> Result<Tournament, UsageError> {
    let shown = path.display();
    if path.is_dir() {
        return Err(UsageError(format!("{shown}: is a directory, not a TRF file")));
    }
    let bytes = std::fs::read(path).map_err(|e| UsageError(format!("cannot read {shown}: {e}")))?;
    trf::read_bytes(&bytes).map_err(|e| UsageError(format!("{shown}: {e}")))
}

/// `-p`: pairs the round after the last one paired.
fn pair_next(
    system: SwissSystem,
    path: &Path,
    tournament: &Tournament,
    out: Option<&Path>,
) -> Result<ExitCode> {
    let round = tournament.rounds_played() + 1;
    let pairing = match system.pair(tournament, round) {
        Ok(pairing) => pairing,
        Err(e @ PairError::NoPairing(_)) => {
            eprintln!("rookery: {}: round {round}: {e}", path.display());
            return Ok(ExitCode::from(NO_PAIRING));
        }
        Err(e) => return Err(UsageError(format!("{}: round {round}: {e}", path.display())).into()),
    };
    let text = pairing.to_javafo();
    match out {
        Some(file) => std::fs::write(file, text)
            .map_err(|e| UsageError(format!("cannot write {}: {e}", file.display())))?,
        None => std::io::stdout().lock().write_all(text.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `--team-swiss FILE -p`: pairs the round after the file's last, printed as `-p` prints a
/// round (the team with White on board 1 first, the bye as `N 0`).
fn pair_team_swiss(path: &Path, out: Option<&Path>) -> Result<ExitCode> {
    let shown = path.display();
    if path.is_dir() {
        return Err(UsageError(format!("{shown}: is a directory, not a team file")).into());
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| UsageError(format!("cannot read {shown}: {e}")))?;
    let file = team_text::read(&text).map_err(|e| UsageError(format!("{shown}: {e}")))?;
    let round = file.competition.rounds().len() + 1;
    let pairing = match team_swiss::pair(&file.competition, &file.settings) {
        Ok(pairing) => pairing,
        Err(e @ TeamSwissError::NoPairing { .. }) => {
            eprintln!("rookery: {shown}: {e}");
            return Ok(ExitCode::from(NO_PAIRING));
        }
        Err(e) => return Err(UsageError(format!("{shown}: round {round}: {e}")).into()),
    };
    let mut printed = format!("{}\n", pairing.matches.len() + usize::from(pairing.bye.is_some()));
    for (white, black) in &pairing.matches {
        printed.push_str(&format!("{white} {black}\n"));
    }
    if let Some(bye) = pairing.bye {
        printed.push_str(&format!("{bye} 0\n"));
    }
    match out {
        Some(file) => std::fs::write(file, printed)
            .map_err(|e| UsageError(format!("cannot write {}: {e}", file.display())))?,
        None => std::io::stdout().lock().write_all(printed.as_bytes())?,
    }
    Ok(ExitCode::SUCCESS)
}

/// `-c`: re-pairs every round, reports the rounds that differ.
fn check(system: SwissSystem, path: &Path, tournament: &Tournament) -> Result<ExitCode> {
    let checks = system.check(tournament);
    let differing: Vec<&RoundCheck> = checks.iter().filter(|c| !c.agrees()).collect();
    let mut out = std::io::stdout().lock();
    let name = path.display();
    for check in &differing {
        writeln!(out, "{name}: round {}:", check.round)?;
        match &check.expected {
            Ok(expected) => {
                writeln!(out, "  rules: {}", one_line(expected))?;
                writeln!(out, "  file:  {}", one_line(&check.actual))?;
            }
            Err(e) => writeln!(out, "  rules: {e}\n  file:  {}", one_line(&check.actual))?,
        }
    }
    if differing.is_empty() {
        writeln!(
            out,
            "{name}: {} rounds checked, every round as the rules give it ({})",
            checks.len(),
            system.article()
        )?;
        Ok(ExitCode::SUCCESS)
    } else {
        writeln!(out, "{name}: {} rounds checked, {} differ", checks.len(), differing.len())?;
        Ok(ExitCode::FAILURE)
    }
}

/// A pairing on one line, games sorted by White's pairing number: `1-12 13-2 … bye 21`.
fn one_line(pairing: &RoundPairing) -> String {
    let mut pairs = pairing.pairs.clone();
    pairs.sort_by_key(|p| (p.white.min(p.black), p.white));
    let mut text: Vec<String> = pairs.iter().map(|p| format!("{}-{}", p.white, p.black)).collect();
    if let Some(bye) = pairing.bye {
        text.push(format!("bye {bye}"));
    }
    text.join(" ")
}

/// `-g`: a random tournament paired by the system's engine; with `baku`, accelerated by the
/// Baku method (GA ending at the player given, or drawn from the players).
fn generate(
    system: SwissSystem,
    config_path: &Path,
    output: &Path,
    seed: u64,
    baku: Option<Method>,
) -> Result<ExitCode> {
    let shown = config_path.display();
    if config_path.is_dir() {
        return Err(UsageError(format!("{shown}: is a directory, not a configuration file")).into());
    }
    let text = std::fs::read_to_string(config_path)
        .map_err(|e| UsageError(format!("cannot read {shown}: {e}")))?;
    let config: GeneratorConfig = text.parse().map_err(|e| UsageError(format!("{shown}: {e}")))?;
    let failed = |e: &dyn std::fmt::Display| anyhow::anyhow!("{shown}: {e}");
    let generated = generator::generate(&config, seed, |t: &Tournament, round| {
        system.pair_accelerated(t, round, baku)
    });
    let (mut tournament, unpairable) = match generated {
        Ok(tournament) => (tournament, None),
        // A round no pairing satisfies (frequent forfeits make them): the tournament up to it
        // is written all the same, for a checker to confirm, with its own exit status.
        Err(GenerateError::Pairing {
            round,
            error: SwissPairError::Pair(e @ PairError::NoPairing(_)),
            before,
        }) => (*before, Some((round, e))),
        Err(e) => return Err(failed(&e)),
    };
    if let Some(method) = baku {
        acceleration::accelerate(&mut tournament, method).map_err(|e| failed(&e))?;
        tournament.kind = Some(system.trf_kind(true).into());
    }
    let text = trf::write(&tournament).map_err(|e| anyhow::anyhow!("{}: {e}", output.display()))?;
    std::fs::write(output, text)
        .map_err(|e| UsageError(format!("cannot write {}: {e}", output.display())))?;
    match unpairable {
        None => Ok(ExitCode::SUCCESS),
        Some((round, e)) => {
            eprintln!(
                "rookery: {shown}: seed {seed}: round {round}: {e}; {} holds the tournament up to that round",
                output.display()
            );
            Ok(ExitCode::from(NO_PAIRING))
        }
    }
}

/// The exit status when no pairing satisfies the rules: `-p` on such a round, and `-g` when
/// its tournament reaches one (the file is written up to that round). bbpPairings uses 1 for
/// it; here 1 already says that `-c` found rounds that differ.
const NO_PAIRING: u8 = 3;
