//! The games spread over several load generator processes (`--client-processes N`): each
//! process has its own open-file limit, so that 9,000 games (18,000 sockets) and more fit
//! under a limit of 20,000 files a process. Each is this program again (`rookery bench server
//! --server URL --json`) with its share of the games; this one measures the server's CPU
//! over the same window and merges their reports, round trips by their histograms.

use std::io::{BufRead, BufReader, Read};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};

use super::stats::Histogram;
use super::{Args, JsonReport, Report};
use crate::process::{sample, Sample};
use crate::Host;

/// Runs `processes` load generators against `base` and merges what they measured; the
/// server's CPU is read from `server_pid` over their window.
pub(super) fn measure(
    args: &Args,
    base: &str,
    server_pid: Option<u32>,
    processes: usize,
    host: &Host,
) -> Result<Report> {
    let load = &args.load;
    let mut children = Vec::with_capacity(processes);
    for i in 0..processes {
        let games = load.games / processes + usize::from(i < load.games % processes);
        children.push(spawn(args, base, games, i, host)?);
    }
    // The children open their windows after the same ramp-up.
    let started = Instant::now();
    std::thread::sleep(Duration::from_secs(load.ramp_s));
    let window_start = Instant::now();
    let before = server_pid.and_then(|p| sample(Some(p)));
    std::thread::sleep(Duration::from_secs(load.duration_s));
    let after = server_pid.and_then(|p| sample(Some(p)));
    let window_s = window_start.elapsed().as_secs_f64();
    let server = before.zip(after).map(|(b, a)| (a, (a.cpu_s - b.cpu_s) / window_s));
    let mut reports = Vec::with_capacity(processes);
    for (i, child) in children.into_iter().enumerate() {
        reports.push(wait(child, i).with_context(|| {
            format!("load generator process {i} ({:.0} s in)", started.elapsed().as_secs_f64())
        })?);
    }
    merge(args, &reports, server)
}

/// One load generator process for `games` of the games; its progress goes to stderr with
/// its number in front.
fn spawn(args: &Args, base: &str, games: usize, i: usize, host: &Host) -> Result<Child> {
    let load = &args.load;
    let think = load.move_interval_ms;
    let mut command = Command::new(&host.rookery);
    command
        .args(["bench", "server", "--server", base, "--json", "--report-histogram"])
        .args(["--client-processes", "1", "--games", &games.to_string()])
        .args(["--move-interval-ms", &format!("{}..{}", think.lo_ms, think.hi_ms)])
        .args(["--duration-s", &load.duration_s.to_string()])
        .args(["--ramp-s", &load.ramp_s.to_string()])
        .args(["--time-control", &load.time_control])
        .args(["--threads", &load.threads.to_string()]);
    if let Some(url) = &args.target.black_sockets {
        command.args(["--black-sockets", url]);
    }
    let mut child = command
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot start {} bench server", host.rookery.display()))?;
    let stderr = child.stderr.take().context("no stderr pipe")?;
    std::thread::spawn(move || {
        for line in BufReader::new(stderr).lines().map_while(Result::ok) {
            eprintln!("client {i}: {line}");
        }
    });
    Ok(child)
}

/// Its report, once it has finished.
fn wait(mut child: Child, i: usize) -> Result<JsonReport> {
    let mut out = String::new();
    child.stdout.take().context("no stdout pipe")?.read_to_string(&mut out)?;
    let status = child.wait()?;
    // A process whose own run was invalid exits with 1 and still reports; merging says why.
    if !status.success() && out.trim().is_empty() {
        bail!("load generator process {i} failed ({status}) without a report");
    }
    serde_json::from_str(out.trim())
        .with_context(|| format!("load generator process {i}: unreadable report {out:?}"))
}

/// One report of all the processes: counts summed, round trips from the merged histograms,
/// the window their mean, the generator's CPU summed (and the busiest process's kept).
fn merge(args: &Args, reports: &[JsonReport], server: Option<(Sample, f64)>) -> Result<Report> {
    let histogram = Histogram::default();
    let mut errors = std::collections::BTreeMap::new();
    for (i, r) in reports.iter().enumerate() {
        let snapshot = r
            .round_trip_histogram
            .as_ref()
            .with_context(|| format!("load generator process {i}: no histogram in its report"))?;
        histogram.add(snapshot).map_err(|e| anyhow::anyhow!("process {i}: {e}"))?;
        for (kind, n) in &r.errors {
            *errors.entry(kind.clone()).or_insert(0) += n;
        }
    }
    let clients: Vec<_> = reports.iter().filter_map(|r| r.load_generator).collect();
    let client = (!clients.is_empty()).then(|| {
        let sum = |f: fn(&super::ProcessJson) -> u64| clients.iter().map(f).sum();
        let sample =
            Sample { rss_kib: sum(|p| p.rss_kib), hwm_kib: sum(|p| p.peak_rss_kib), cpu_s: 0.0 };
        (sample, clients.iter().map(|p| p.cpu_cores).sum())
    });
    let round_trip_us = (histogram.count() > 0).then(|| {
        let q = |x| histogram.quantile_us(x).unwrap_or(0);
        [q(0.50), q(0.90), q(0.99), histogram.max_us()]
    });
    Ok(Report {
        games: args.load.games,
        live_at_end: reports.iter().map(|r| r.games_live).sum(),
        started: reports.iter().map(|r| r.games_started).sum(),
        finished: reports.iter().map(|r| r.games_finished).sum(),
        window_s: reports.iter().map(|r| r.window_s).sum::<f64>() / reports.len().max(1) as f64,
        moves: reports.iter().map(|r| r.moves).sum(),
        round_trip_us,
        errors,
        idle: None,
        server,
        client,
        client_processes: reports.len(),
        busiest_client_cores: clients.iter().map(|p| p.cpu_cores).reduce(f64::max),
        histogram: None,
        invalid: Vec::new(),
    })
}
