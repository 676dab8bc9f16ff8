//! `rookery standings FILE.trf`: the standings of a tournament report file, ranked by score and
//! then by FIDE C.07 tie-breaks, as a table or JSON.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use rookery_tournament::fide_rating::{self, KHistory, RatingChange, K};
use rookery_tournament::standings::{Options, Row, Ties};
use rookery_tournament::tiebreak::ParseTiebreakError;
use rookery_tournament::trf::year_of;
use rookery_tournament::{trf, Regulations, Standings, Tiebreak, Tournament};

use crate::json::json_string;
use crate::usage::UsageError;

/// The tie-breaks used when neither `--tiebreaks` nor the file (record `202`) gives any: a
/// list for individual Swiss tournaments from C.07's Article 5 — the strength of the
/// opposition less its least significant value (BH-C1, 8.1 and 14.1), then in full (BH), the
/// quality of the results (SB, 9.1), the games among the tied players (DE, 6) and the
/// number of wins (WIN, 7.1).
pub const DEFAULT_TIEBREAKS: &str = "BH-C1,BH,SB,DE,WIN";

/// Arguments of `rookery standings`.
#[derive(clap::Args)]
pub struct Args {
    /// The tournament: a TRF file (TRF-2026, TRF-16, JaVaFo's TRF(x), bbpPairings' TRF(bx)).
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// The tie-breaks, in order: C.07 codes separated by commas (BH, BH-C1, BH-C2, BH-M1,
    /// BH-M2, SB, SB-C1, DE, WIN, WON, BPG, BWG, REP, PS, PS-C1, ARO, ARO-C1, TPR, PTP).
    /// Default: the file's list (record 202) if it has one, else BH-C1,BH,SB,DE,WIN.
    #[arg(long, value_name = "CODES")]
    tiebreaks: Option<String>,
    /// The text of FIDE C.07 to apply: 2024 (in force 1 August 2024 – 28 February 2026) or
    /// 2026 (from 1 March 2026; it caps the dummy opponent of unplayed rounds). Default: the
    /// file's (Rookery's record `C07`, which the site's TRF export writes) if it says, else
    /// 2026.
    #[arg(long, value_name = "YEAR", value_parser = parse_regulations)]
    regulations: Option<Regulations>,
    /// The standings after this round. Default: the last round played.
    #[arg(long, value_name = "N")]
    round: Option<u32>,
    /// Rank the players the tie-breaks leave tied by pairing number instead of giving them a
    /// shared rank.
    #[arg(long)]
    by_pairing_number: bool,
    /// Add each rated player's FIDE rating change over the event (FIDE Rating Regulations,
    /// 1 March 2024, 8.3: `K × Σ(W − PD)` over the rated games against rated opponents). `N`:
    /// the same K for everyone (1–40); `auto`: K of 8.3.3 from what the file tells (40 for a
    /// junior under 2300 by the birth year against the event's year, 10 from 2400, else 20),
    /// taking every player as established (30 rated games or more) and never rated above
    /// their rating now. Either way K is lowered so that K times the games stays within 700.
    #[arg(long, value_name = "auto|N", value_parser = parse_k)]
    fide_k: Option<KChoice>,
    /// Print the standings as JSON (one object) instead of a table.
    #[arg(long)]
    json: bool,
}

/// How `--fide-k` gives each player's K.
#[derive(Clone, Copy, Debug)]
enum KChoice {
    Auto,
    Fixed(K),
}

fn parse_k(text: &str) -> Result<KChoice, String> {
    if text == "auto" {
        return Ok(KChoice::Auto);
    }
    text.parse::<u8>()
        .ok()
        .and_then(K::new)
        .map(KChoice::Fixed)
        .ok_or_else(|| format!("expected auto or a K of 1 to 40, not {text:?}"))
}

/// Each player's change (pairing-number order), when asked for.
fn rating_changes(
    tournament: &Tournament,
    choice: Option<KChoice>,
) -> Option<Vec<Option<RatingChange>>> {
    let choice = choice?;
    let year =
        tournament.end_date.as_deref().or(tournament.start_date.as_deref()).and_then(year_of);
    Some(fide_rating::event_changes(tournament, |id| {
        let player = tournament.player(id)?;
        match choice {
            KChoice::Fixed(k) => Some(k),
            KChoice::Auto => {
                let rating = player.rating?;
                let born = player.birth_date.as_deref().and_then(year_of);
                Some(K::of(&KHistory {
                    rating,
                    games_before: u32::MAX,
                    age_this_year: year.zip(born).and_then(|(y, b)| y.checked_sub(b)),
                    reached_2400: false,
                }))
            }
        }
    }))
}

fn parse_regulations(text: &str) -> Result<Regulations, String> {
    text.parse().map_err(|e: rookery_tournament::tiebreak::ParseRegulationsError| e.to_string())
}

fn parse_tiebreaks(list: &str) -> Result<Vec<Tiebreak>, ParseTiebreakError> {
    list.split(',').map(str::trim).filter(|code| !code.is_empty()).map(str::parse).collect()
}

/// Runs `rookery standings`.
pub fn run(args: Args) -> Result<ExitCode> {
    let path = args.file.display().to_string();
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| UsageError(format!("cannot read {path}: {e}")))?;
    let tournament = trf::read(&text).map_err(|e| UsageError(format!("{path}: {e}")))?;
    let tiebreaks = match &args.tiebreaks {
        Some(list) => parse_tiebreaks(list).map_err(|e| UsageError(e.to_string()))?,
        None => from_file(&tournament, &path)?,
    };
    let played = tournament.rounds_played();
    let after_round = args.round.unwrap_or(played);
    if after_round > played {
        return Err(UsageError(format!(
            "{path}: --round {after_round}: only {played} rounds have been played"
        ))
        .into());
    }
    let options = Options {
        after_round,
        tiebreaks,
        regulations: args.regulations.or(tournament.tie_break_regulations).unwrap_or_default(),
        unrated_rating: None,
        ties: if args.by_pairing_number { Ties::ByPairingNumber } else { Ties::Shared },
    };
    let standings = Standings::new(&tournament, &options);
    let changes = rating_changes(&tournament, args.fide_k);
    let mut out = std::io::stdout().lock();
    if args.json {
        write_json(&mut out, &tournament, &standings, changes.as_deref())?;
    } else {
        write_table(&mut out, &tournament, &standings, changes.as_deref())?;
    }
    Ok(ExitCode::SUCCESS)
}

/// The file's own tie-break list (record `202`), or the default when it has none.
fn from_file(tournament: &Tournament, path: &str) -> Result<Vec<Tiebreak>, UsageError> {
    if tournament.tie_breaks.is_empty() {
        return Ok(parse_tiebreaks(DEFAULT_TIEBREAKS).expect("the default list parses"));
    }
    tournament
        .tie_breaks
        .iter()
        .map(|code| code.parse())
        .collect::<Result<_, ParseTiebreakError>>()
        .map_err(|e| UsageError(format!("{path}: record 202: {e}; choose others with --tiebreaks")))
}

fn write_table(
    out: &mut impl Write,
    tournament: &Tournament,
    standings: &Standings,
    changes: Option<&[Option<RatingChange>]>,
) -> std::io::Result<()> {
    let name = |row: &Row| tournament.player(row.player).map_or("", |p| p.name.as_str());
    let name_width =
        standings.rows.iter().map(|r| name(r).chars().count()).max().unwrap_or(0).max(4);
    let widths: Vec<usize> = standings
        .tiebreaks
        .iter()
        .enumerate()
        .map(|(k, t)| {
            let values = standings.rows.iter().map(|r| r.values[k].to_string().len());
            values.max().unwrap_or(0).max(t.code().len())
        })
        .collect();
    write!(
        out,
        "{:>4}  {:>3}  {:<name_width$}  {:>6}  {:>6}",
        "rank", "no", "name", "rating", "points"
    )?;
    for (t, width) in standings.tiebreaks.iter().zip(&widths) {
        write!(out, "  {:>width$}", t.code())?;
    }
    if changes.is_some() {
        write!(out, "  {:>2}  {:>8}", "K", "change")?;
    }
    writeln!(out)?;
    for row in &standings.rows {
        let rating = tournament
            .player(row.player)
            .and_then(|p| p.rating)
            .map_or(String::new(), |r| r.to_string());
        let pad = name_width - name(row).chars().count();
        write!(
            out,
            "{:>4}  {:>3}  {}{:pad$}  {:>6}  {:>6}",
            row.rank,
            row.player,
            name(row),
            "",
            rating,
            row.score.to_string()
        )?;
        for (value, width) in row.values.iter().zip(&widths) {
            write!(out, "  {:>width$}", value.to_string())?;
        }
        if let Some(changes) = changes {
            match changes.get(row.player.index()).copied().flatten() {
                Some(c) => write!(out, "  {:>2}  {:>8}", c.k, c.to_string())?,
                None => write!(out, "  {:>2}  {:>8}", "", "")?,
            }
        }
        writeln!(out)?;
    }
    Ok(())
}

fn write_json(
    out: &mut impl Write,
    tournament: &Tournament,
    standings: &Standings,
    changes: Option<&[Option<RatingChange>]>,
) -> std::io::Result<()> {
    write!(
        out,
        "{{\"regulations\": {}, \"after_round\": {}, \"tiebreaks\": [",
        json_string(&standings.regulations.to_string()),
        standings.after_round
    )?;
    for (k, t) in standings.tiebreaks.iter().enumerate() {
        write!(out, "{}{}", if k == 0 { "" } else { ", " }, json_string(t.code()))?;
    }
    write!(out, "], \"standings\": [")?;
    for (i, row) in standings.rows.iter().enumerate() {
        let player = tournament.player(row.player);
        let rating = player.and_then(|p| p.rating).map_or("null".to_owned(), |r| r.to_string());
        write!(
            out,
            "{}{{\"rank\": {}, \"pairing_number\": {}, \"name\": {}, \"rating\": {}, \"points\": {}, \
             \"tiebreaks\": {{",
            if i == 0 { "" } else { ", " },
            row.rank,
            row.player,
            json_string(player.map_or("", |p| p.name.as_str())),
            rating,
            row.score,
        )?;
        for (k, (t, value)) in standings.tiebreaks.iter().zip(&row.values).enumerate() {
            let number = match value {
                rookery_tournament::tiebreak::Value::Undefined => "null".to_owned(),
                value => value.to_string(),
            };
            write!(out, "{}{}: {}", if k == 0 { "" } else { ", " }, json_string(t.code()), number)?;
        }
        write!(out, "}}")?;
        if let Some(changes) = changes {
            match changes.get(row.player.index()).copied().flatten() {
                Some(c) => write!(
                    out,
                    ", \"fide_rating_change\": {{\"k\": {}, \"games\": {}, \"change\": {}}}",
                    c.k,
                    c.games,
                    format_args!("{:.2}", f64::from(c.hundredths()) / 100.0)
                )?,
                None => write!(out, ", \"fide_rating_change\": null")?,
            }
        }
        write!(out, "}}")?;
    }
    writeln!(out, "]}}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_list_parses() {
        let list = parse_tiebreaks(DEFAULT_TIEBREAKS).unwrap();
        assert_eq!(list.len(), 5);
        assert_eq!(parse_tiebreaks("bh-c1, sb").unwrap().len(), 2);
        assert_eq!(parse_tiebreaks("BH,XX").unwrap_err().code, "XX");
    }
}
