//! `rookery rate`: the RULES.md §11 points one game moves, and both players' new totals and
//! levels, as one JSON object.

use std::io::Write;
use std::process::ExitCode;

use anyhow::Result;
use rookery_ladder::{award, Level, PairResult, Points};

use crate::usage::UsageError;

/// Arguments of `rookery rate`.
#[derive(clap::Args)]
pub struct Args {
    /// Player A's points before the game: a decimal with at most two decimals, may be negative.
    #[arg(long, value_name = "POINTS", allow_negative_numbers = true)]
    a: Points,
    /// Player B's points before the game: a decimal with at most two decimals, may be negative.
    #[arg(long, value_name = "POINTS", allow_negative_numbers = true)]
    b: Points,
    /// Who won: a, b or draw.
    #[arg(long, value_name = "a|b|draw")]
    result: PairResult,
}

/// Runs `rookery rate`: prints
/// `{"a_delta": …, "b_delta": …, "a_points": …, "b_points": …, "a_level": "…", "b_level": "…"}`
/// with points as JSON numbers of two decimals and levels as `unranked` or `level-30` … `level-1`.
pub fn run(args: Args) -> Result<ExitCode> {
    let (a_delta, b_delta) = award(args.a, args.b, args.result);
    let total = |name: &str, points: Points, delta: Points| {
        points.checked_add(delta).ok_or_else(|| {
            UsageError(format!(
                "--{name} {points}: the new points would leave the range of ±{}",
                Points::MAX
            ))
        })
    };
    let a_points = total("a", args.a, a_delta)?;
    let b_points = total("b", args.b, b_delta)?;
    // Points display with two decimals, which is a JSON number; labels need no escaping.
    // Written, not printed: a reader that went away (`| head`) ends the command quietly.
    let mut out = std::io::stdout().lock();
    writeln!(
        out,
        "{{\"a_delta\": {a_delta}, \"b_delta\": {b_delta}, \"a_points\": {a_points}, \
         \"b_points\": {b_points}, \"a_level\": \"{}\", \"b_level\": \"{}\"}}",
        Level::of(a_points).label(),
        Level::of(b_points).label(),
    )?;
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}
