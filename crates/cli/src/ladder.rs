//! `rookery ladder FILE.pgn`: replay the results of a PGN collection, in order, through the
//! RULES.md §11 ladder (and Glicko-2) and print the standings.

use std::io::Write;
use std::ops::ControlFlow;
use std::process::ExitCode;

use anyhow::Result;
use rookery_core::GameResult;
use rookery_ladder::{Ladder, PairResult};
use rookery_pgn::{Location, RawTag, Reader, Visitor};

use crate::json::json_string;
use crate::pgn::Input;

/// Arguments of `rookery ladder`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    input: Input,
    /// Print the standings as JSON (one object) instead of a table.
    #[arg(long)]
    json: bool,
}

/// The tags the ladder needs from one game.
#[derive(Default)]
struct Tags {
    white: Option<String>,
    black: Option<String>,
    result: Option<String>,
}

impl Visitor for Tags {
    type Output = Tags;

    fn begin_game(&mut self) {
        *self = Tags::default();
    }

    fn tag(&mut self, name: &[u8], value: RawTag<'_>, _at: Location) {
        let slot = match name {
            b"White" => &mut self.white,
            b"Black" => &mut self.black,
            b"Result" => &mut self.result,
            _ => return,
        };
        *slot = Some(value.decode_utf8().trim().to_owned());
    }

    fn end_tags(&mut self) -> ControlFlow<()> {
        ControlFlow::Break(()) // Only the tags matter: skip the movetext.
    }

    fn end_game(&mut self) -> Tags {
        std::mem::take(self)
    }
}

/// What happened to the games of the file.
#[derive(Default)]
struct Counts {
    games: u64,
    rated: u64,
    unfinished: u64,
    skipped: u64,
}

/// Runs `rookery ladder`.
pub fn run(args: Args) -> Result<ExitCode> {
    let (read, _) = args.input.open()?;
    let mut reader = Reader::new(read);
    let mut ladder = Ladder::new();
    let mut counts = Counts::default();
    let mut visitor = Tags::default();
    let name = args.input.name();
    while let Some(tags) =
        reader.read_game(&mut visitor).map_err(|e| anyhow::anyhow!("reading {name}: {e}"))?
    {
        counts.games += 1;
        let game = counts.games;
        let result = tags.result.as_deref().unwrap_or("*");
        let Some(result) = result.parse::<GameResult>().ok().and_then(PairResult::of_white) else {
            if result == "*" {
                counts.unfinished += 1;
            } else {
                counts.skipped += 1;
                eprintln!("rookery: game {game}: skipped: unknown result {result:?}");
            }
            continue;
        };
        let (Some(white), Some(black)) = (tags.white.as_deref(), tags.black.as_deref()) else {
            counts.skipped += 1;
            eprintln!("rookery: game {game}: skipped: no White or Black tag");
            continue;
        };
        // An empty name is no one: rating it would put a nameless player in the standings.
        if let Some(colour) = [("White", white), ("Black", black)]
            .into_iter()
            .find_map(|(colour, name)| name.is_empty().then_some(colour))
        {
            counts.skipped += 1;
            eprintln!("rookery: game {game}: skipped: empty {colour} tag");
            continue;
        }
        match ladder.record(white, black, result) {
            Ok(_) => counts.rated += 1,
            Err(e) => {
                counts.skipped += 1;
                eprintln!("rookery: game {game}: skipped: {e}");
            }
        }
    }
    let mut out = std::io::stdout().lock();
    if args.json {
        write_json(&mut out, &ladder, &counts)?;
    } else {
        write_table(&mut out, &ladder, &counts)?;
    }
    Ok(ExitCode::SUCCESS)
}

fn write_table(out: &mut impl Write, ladder: &Ladder, counts: &Counts) -> std::io::Result<()> {
    let rows = ladder.standings();
    let width = rows.iter().map(|r| r.player.name().chars().count()).max().unwrap_or(6).max(6);
    writeln!(
        out,
        "{:>4}  {:<width$}  {:>10}  {:<9}  {:>5}  {:>13}  {:>12}",
        "rank", "player", "points", "level", "games", "W/D/L", "Glicko-2"
    )?;
    for row in &rows {
        let p = row.player;
        let pad = width - p.name().chars().count();
        writeln!(
            out,
            "{:>4}  {}{:pad$}  {:>10}  {:<9}  {:>5}  {:>13}  {:>12}",
            row.rank,
            p.name(),
            "",
            p.points().to_string(),
            p.level().label(),
            p.games(),
            format!("{}/{}/{}", p.wins(), p.draws(), p.losses()),
            p.rating().to_string(),
        )?;
    }
    writeln!(
        out,
        "\n{} games: {} rated, {} unfinished (*), {} skipped",
        counts.games, counts.rated, counts.unfinished, counts.skipped
    )
}

fn write_json(out: &mut impl Write, ladder: &Ladder, counts: &Counts) -> std::io::Result<()> {
    write!(
        out,
        "{{\"games\": {}, \"rated\": {}, \"unfinished\": {}, \"skipped\": {}, \"standings\": [",
        counts.games, counts.rated, counts.unfinished, counts.skipped
    )?;
    for (i, row) in ladder.standings().iter().enumerate() {
        let p = row.player;
        let r = p.rating();
        write!(
            out,
            "{}{{\"rank\": {}, \"player\": {}, \"points\": {}, \"level\": \"{}\", \"games\": {}, \
             \"wins\": {}, \"draws\": {}, \"losses\": {}, \"rating\": {:.1}, \"deviation\": {:.1}, \
             \"volatility\": {:.6}}}",
            if i == 0 { "" } else { ", " },
            row.rank,
            json_string(p.name()),
            p.points(),
            p.level().label(),
            p.games(),
            p.wins(),
            p.draws(),
            p.losses(),
            r.rating,
            r.deviation,
            r.volatility,
        )?;
    }
    writeln!(out, "]}}")
}
