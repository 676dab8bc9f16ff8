//! `rookery bench server`: the chess server's load test (issue 7). N pairs of simulated
//! players keep N casual games live over WebSockets on loopback, each player thinking a random
//! time per move; the report gives the moves per second sustained after ramp-up, the round
//! trip of a move (sent on the mover's socket until its `move` broadcast comes back on it),
//! errors, and the server's memory, including what one idle live game costs.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::ExitCode;
use std::str::FromStr;
use std::sync::atomic::Ordering;
use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::{bail, Context, Result};
use tokio::sync::{watch, Semaphore};

use crate::process::{sample, BusyLoad, Sample, ServerProcess};
use crate::{Error, Host};

mod game;
mod spread;
mod stats;

use game::{Failure, Shared};
use stats::HistogramSnapshot;

/// `rookery serve` flags that lift the limits per client address (one address plays all).
const UNLIMITED_ADDRESS: &[&str] = &[
    "--max-connections-per-address",
    "10000000",
    "--max-connections",
    "10000000",
    "--seeks-per-address",
    "10000000",
    "--seeks-per-address-per-minute",
    "10000000",
];

/// Arguments of `rookery bench server`.
#[derive(clap::Args)]
pub struct Args {
    #[command(flatten)]
    target: Target,
    #[command(flatten)]
    load: Load,
    #[command(flatten)]
    output: Output,
}

/// The server under test.
#[derive(clap::Args)]
struct Target {
    /// An already running server (`http://127.0.0.1:8080`). By default a fresh
    /// `rookery serve` is started on a free loopback port over a temporary SQLite database,
    /// with the limits per client address lifted (all players come from one address), and
    /// its memory and CPU time are measured. A server given here needs them lifted too.
    #[arg(long, value_name = "URL")]
    server: Option<String>,
    /// Start this program as the server (`PROGRAM serve …`) instead of this `rookery`: two
    /// builds of the server measured by one and the same load generator, so that a change in
    /// the generator cannot pass for one in the server (BENCHMARKS.md, "Issue 52").
    #[arg(long, value_name = "PROGRAM", conflicts_with = "server")]
    server_program: Option<PathBuf>,
    /// With --server: Black's game sockets connect here instead (`http://…`): another node of
    /// a cluster than the balancer picks, so that one side of most games is relayed between
    /// nodes (README, "Growing past one machine").
    #[arg(long, value_name = "URL", requires = "server")]
    black_sockets: Option<String>,
}

/// The load.
#[derive(clap::Args)]
struct Load {
    /// Concurrent live games (two players, two WebSockets each); a game that ends is replaced.
    #[arg(long, default_value_t = 100)]
    games: usize,
    /// Each player's think time per move in ms: uniform in `A..B`, or a fixed `A`.
    #[arg(long, value_name = "A..B", default_value = "2000..3000")]
    move_interval_ms: ThinkTime,
    /// The measurement window after ramp-up, in seconds.
    #[arg(long, default_value_t = 30)]
    duration_s: u64,
    /// The games start evenly over this many seconds (not measured).
    #[arg(long, default_value_t = 10)]
    ramp_s: u64,
    /// Games created first and left idle (both players connected, no move), to measure the
    /// server's memory per idle live game.
    #[arg(long, default_value_t = 0)]
    idle_games: usize,
    /// The games' time control (arbiter syntax).
    #[arg(long, default_value = "600+5")]
    time_control: String,
    /// Worker threads of the load generator (the server has its own).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..=64))]
    threads: u16,
    /// Load generator processes the games are spread over, each with its own open-file limit
    /// (two sockets a game). Default: as few as the limit allows (one up to ~9,800 games at
    /// 20,000 files).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=64))]
    client_processes: Option<u16>,
    /// Busy processes started beside the server for the run (endless shell loops), so that
    /// the server is measured with other work competing for the cores.
    #[arg(long, value_name = "N", default_value_t = 0)]
    competing_load: usize,
}

/// The report.
#[derive(clap::Args)]
struct Output {
    /// One JSON object on stdout instead of the table.
    #[arg(long)]
    json: bool,
    /// With --json: the round trips' histogram too, for the process that spread the games
    /// (`spread.rs`) to merge.
    #[arg(long, hide = true, requires = "json")]
    report_histogram: bool,
}

/// A player's think time per move: uniform in `lo_ms..=hi_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ThinkTime {
    lo_ms: u64,
    hi_ms: u64,
}

impl FromStr for ThinkTime {
    type Err = String;

    fn from_str(text: &str) -> Result<ThinkTime, String> {
        let number = |t: &str| {
            t.trim()
                .parse::<u64>()
                .map_err(|_| format!("expected milliseconds as A..B or A, not {text:?}"))
        };
        let (lo, hi) = match text.split_once("..") {
            Some((a, b)) => (number(a)?, number(b)?),
            None => (number(text)?, number(text)?),
        };
        if lo > hi {
            return Err(format!("the range {text:?} is empty"));
        }
        Ok(ThinkTime { lo_ms: lo, hi_ms: hi })
    }
}

/// Idle games are created this many at a time.
const IDLE_CONCURRENCY: usize = 64;
/// Idle games created before the baseline is read, so that one-time costs (the database
/// pool, the first allocations of every worker thread) are not counted per game.
const WARM_UP_GAMES: usize = 32;
/// Time for the server to settle before its memory is read.
const SETTLE: Duration = Duration::from_secs(3);
/// A progress line on stderr this often.
const PROGRESS_EVERY: Duration = Duration::from_secs(10);

/// Runs `rookery bench server`: the table (or `--json`) on stdout, progress on stderr.
///
/// # Errors
/// [`Error::Usage`] for a `--server` that is not `http://…`; [`Error::Run`] when the server
/// cannot be started or reached.
pub fn run(args: Args, host: &Host) -> Result<ExitCode, Error> {
    if let Some(url) = &args.target.server {
        if !url.starts_with("http://") {
            return Err(Error::Usage(format!("--server: expected http://HOST:PORT, not {url:?}")));
        }
    }
    let processes = client_processes(&args, host.open_files)?;
    let server = match &args.target.server {
        Some(_) => None,
        // Every simulated player comes from 127.0.0.1: the limits per address (issue 37)
        // would stop the load at a few hundred connections and seeks.
        None => {
            let program = args.target.server_program.as_ref().unwrap_or(&host.rookery);
            Some(ServerProcess::spawn(program, UNLIMITED_ADDRESS)?)
        }
    };
    let base = match (&server, &args.target.server) {
        (Some(s), _) => s.base.clone(),
        (None, Some(url)) => url.trim_end_matches('/').to_owned(),
        (None, None) => unreachable!("a server is given or started"),
    };
    let competing = BusyLoad::start(args.load.competing_load)?;
    let pid = server.as_ref().map(ServerProcess::pid);
    let mut report = if processes > 1 {
        spread::measure(&args, &base, pid, processes, host)?
    } else {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(usize::from(args.load.threads))
            .enable_all()
            .build()
            .context("cannot start the async runtime")?;
        let report = runtime.block_on(measure(&args, &base, pid))?;
        // Thousands of sockets: leave them to the operating system rather than close each.
        runtime.shutdown_background();
        report
    };
    drop(competing);
    drop(server);
    report.invalid = report.invalid_because(&args);
    if args.output.json {
        let json = serde_json::to_string(&report.json(&args)).context("the report as JSON")?;
        println!("{json}");
    } else {
        report.print(&args, &base, &server_note(&args));
    }
    Ok(if report.invalid.is_empty() { ExitCode::SUCCESS } else { ExitCode::FAILURE })
}

/// Sockets need files: two a game, plus some for the process itself.
fn files_for(games: usize) -> u64 {
    2 * games as u64 + 256
}

/// How many load generator processes the games need, each within `open_files`; a server
/// started here that cannot have the files it needs is refused before anything starts.
fn client_processes(args: &Args, open_files: u64) -> Result<usize, Error> {
    let load = &args.load;
    let total = load.games + load.idle_games;
    if args.target.server.is_none() && files_for(total) > open_files {
        let fit = (open_files.saturating_sub(256) / 2) as usize;
        return Err(Error::Usage(format!(
            "the server started here needs about {} open files for {total} games but the \
             limit is {open_files} (ulimit -n): at most {fit} games fit; a run past it \
             measures refused sockets, not the server",
            files_for(total)
        )));
    }
    let fits = |k: usize| files_for(load.games.div_ceil(k) + load.idle_games) <= open_files;
    match load.client_processes.map(usize::from) {
        Some(k) if k > 1 && load.idle_games > 0 => {
            Err(Error::Usage("--idle-games needs one client process (--client-processes 1)".into()))
        }
        Some(k) if !fits(k) => Err(Error::Usage(format!(
            "--client-processes {k}: {} games a process need about {} open files, above the \
             limit of {open_files} (ulimit -n); more processes are needed",
            load.games.div_ceil(k),
            files_for(load.games.div_ceil(k))
        ))),
        Some(k) => Ok(k),
        None if load.idle_games > 0 => Ok(1),
        None => (1..=64).find(|&k| fits(k)).ok_or_else(|| {
            Error::Usage(format!("{} games do not fit in 64 client processes", load.games))
        }),
    }
}

fn server_note(args: &Args) -> String {
    match (&args.target.server, &args.target.server_program) {
        (Some(_), _) => "given (--server)".to_owned(),
        (None, Some(program)) => {
            format!("started here: {} serve, SQLite in a temporary directory", program.display())
        }
        (None, None) => "started here: rookery serve, SQLite in a temporary directory".to_owned(),
    }
}

/// What the run measured.
struct Report {
    games: usize,
    live_at_end: usize,
    started: u64,
    finished: u64,
    window_s: f64,
    moves: u64,
    /// p50, p90, p99, max, in µs.
    round_trip_us: Option<[u64; 4]>,
    errors: std::collections::BTreeMap<String, u64>,
    idle: Option<IdleMemory>,
    /// The server at the end, and its CPU time over the window.
    server: Option<(Sample, f64)>,
    /// The load generator at the end, and its CPU time over the window (all its processes).
    client: Option<(Sample, f64)>,
    /// The load generator processes, and the CPU of the busiest over the window (cores).
    client_processes: usize,
    busiest_client_cores: Option<f64>,
    /// The round trips, when a process that spread the games asks for them.
    histogram: Option<HistogramSnapshot>,
    /// Why the figures do not measure the server under the load asked for (empty: they do).
    invalid: Vec<String>,
}

/// The server's memory with idle games.
struct IdleMemory {
    games: usize,
    /// RSS after the warm-up, KiB.
    before_kib: u64,
    /// RSS with the games created (actors, no socket), KiB.
    games_kib: u64,
    /// RSS with both players of every game connected, KiB.
    connected_kib: u64,
}

impl IdleMemory {
    fn per_game(&self, kib: u64) -> f64 {
        kib.saturating_sub(self.before_kib) as f64 / self.games as f64
    }
}

async fn measure(args: &Args, base: &str, pid: Option<u32>) -> Result<Report> {
    let load = &args.load;
    let http = reqwest::Client::builder()
        .pool_max_idle_per_host(IDLE_CONCURRENCY * 2)
        .tcp_nodelay(true)
        .timeout(Duration::from_secs(30))
        // Below the server's 10 s idle timeout, so no request goes out on a closing connection.
        .pool_idle_timeout(Duration::from_secs(5))
        .build()
        .context("cannot build the HTTP client")?;
    let health = http
        .get(format!("{base}/health"))
        .send()
        .await
        .with_context(|| format!("no server at {base}"))?;
    if !health.status().is_success() {
        bail!("{base}/health answers {}", health.status());
    }
    let shared = Arc::new(Shared {
        http,
        base: base.to_owned(),
        ws_base: base.replacen("http://", "ws://", 1),
        black_ws_base: args
            .target
            .black_sockets
            .as_deref()
            .unwrap_or(base)
            .trim_end_matches('/')
            .replacen("http://", "ws://", 1),
        time_control: load.time_control.clone(),
        think: load.move_interval_ms,
        resign_on_stop: args.target.server.is_some(),
        stats: stats::Stats::default(),
    });
    let idle = match load.idle_games {
        0 => None,
        n => Some(idle_phase(&shared, n, pid).await?),
    };
    let (stop, stopped) = watch::channel(false);
    let mut slots = tokio::task::JoinSet::new();
    for i in 0..load.games {
        let start_after = Duration::from_secs(load.ramp_s).mul_f64(i as f64 / load.games as f64);
        slots.spawn(game::run_slot(shared.clone(), start_after, stopped.clone()));
    }
    let stats = &shared.stats;
    let started = Instant::now();
    let mut last = (Instant::now(), 0);
    let progress = |last: &mut (Instant, u64), phase: &str| {
        let moves = stats.moves.load(Ordering::Relaxed);
        let rate = (moves - last.1) as f64 / last.0.elapsed().as_secs_f64();
        let errors: u64 = stats.errors().values().sum();
        let live = stats.live.load(Ordering::Relaxed);
        eprintln!(
            "{phase} {:>4.0} s: {live} games live, {rate:.0} moves/s, {errors} errors",
            started.elapsed().as_secs_f64()
        );
        *last = (Instant::now(), moves);
    };
    let ramp_end = started + Duration::from_secs(load.ramp_s);
    if load.games > 0 {
        while Instant::now() + PROGRESS_EVERY < ramp_end {
            tokio::time::sleep(PROGRESS_EVERY).await;
            progress(&mut last, "ramp   ");
        }
        tokio::time::sleep_until(ramp_end.into()).await;
    }
    let window_start = Instant::now();
    let moves_before = stats.moves.load(Ordering::Relaxed);
    let server_before = pid.and_then(|p| sample(Some(p)));
    let client_before = sample(None);
    stats.measuring.store(true, Ordering::Relaxed);
    let window_end =
        window_start + Duration::from_secs(if load.games > 0 { load.duration_s } else { 0 });
    last = (Instant::now(), moves_before);
    while Instant::now() + PROGRESS_EVERY < window_end {
        tokio::time::sleep(PROGRESS_EVERY).await;
        progress(&mut last, "measure");
    }
    tokio::time::sleep_until(window_end.into()).await;
    stats.measuring.store(false, Ordering::Relaxed);
    let window_s = window_start.elapsed().as_secs_f64();
    let moves = stats.moves.load(Ordering::Relaxed) - moves_before;
    let live_at_end = stats.live.load(Ordering::Relaxed);
    let server_after = pid.and_then(|p| sample(Some(p)));
    let client_after = sample(None);
    let cpu = |before: Option<Sample>, after: Option<Sample>| {
        let (b, a) = (before?, after?);
        Some((a, (a.cpu_s - b.cpu_s) / window_s))
    };
    let _ = stop.send(true);
    // Games resign when the server is not ours; give them a moment, not forever.
    let _ = tokio::time::timeout(Duration::from_secs(10), async {
        while slots.join_next().await.is_some() {}
    })
    .await;
    let h = &stats.round_trip;
    let round_trip_us = (h.count() > 0).then(|| {
        let q = |x| h.quantile_us(x).unwrap_or(0);
        [q(0.50), q(0.90), q(0.99), h.max_us()]
    });
    Ok(Report {
        games: load.games,
        live_at_end,
        started: stats.started.load(Ordering::Relaxed),
        finished: stats.finished.load(Ordering::Relaxed),
        window_s,
        moves,
        round_trip_us,
        errors: stats.errors(),
        idle,
        server: cpu(server_before, server_after),
        client: cpu(client_before, client_after),
        client_processes: 1,
        busiest_client_cores: cpu(client_before, client_after).map(|(_, cores)| cores),
        histogram: args.output.report_histogram.then(|| h.snapshot()),
        invalid: Vec::new(),
    })
}

/// Creates `n` idle games after a warm-up, first without sockets then with both players
/// connected, reading the server's RSS at each step. The games stay until the run ends.
async fn idle_phase(shared: &Arc<Shared>, n: usize, pid: Option<u32>) -> Result<IdleMemory> {
    let rss = || pid.and_then(|p| sample(Some(p))).map_or(0, |s| s.rss_kib);
    let started = Instant::now();
    create_idle(shared, WARM_UP_GAMES).await?;
    tokio::time::sleep(SETTLE).await;
    let before_kib = rss();
    let pairs = create_idle_games(shared, n).await?;
    tokio::time::sleep(SETTLE).await;
    let games_kib = rss();
    let sem = Arc::new(Semaphore::new(IDLE_CONCURRENCY));
    let mut tasks = tokio::task::JoinSet::new();
    for (white, black, id) in pairs {
        let (shared, sem) = (shared.clone(), sem.clone());
        tasks.spawn(async move {
            let _permit = sem.acquire_owned().await;
            let (w, b) = game::connect_pair(&shared, &white, &black, &id).await?;
            tokio::spawn(game::drain(w));
            tokio::spawn(game::drain(b));
            Ok::<_, Failure>(())
        });
    }
    while let Some(done) = tasks.join_next().await {
        if let Ok(Err(Failure(kind))) = done {
            shared.stats.error(kind);
        }
    }
    tokio::time::sleep(SETTLE).await;
    let connected_kib = rss();
    eprintln!(
        "idle    {:>4.0} s: {n} idle games created and connected",
        started.elapsed().as_secs_f64()
    );
    Ok(IdleMemory { games: n, before_kib, games_kib, connected_kib })
}

/// Creates `n` games with their sockets open and read (the warm-up).
async fn create_idle(shared: &Arc<Shared>, n: usize) -> Result<()> {
    for (white, black, id) in create_idle_games(shared, n).await? {
        let (w, b) = game::connect_pair(shared, &white, &black, &id)
            .await
            .map_err(|Failure(k)| anyhow::anyhow!("warm-up game: {k}"))?;
        tokio::spawn(game::drain(w));
        tokio::spawn(game::drain(b));
    }
    Ok(())
}

/// Creates `n` games between fresh visitors, `IDLE_CONCURRENCY` at a time, no socket opened.
async fn create_idle_games(
    shared: &Arc<Shared>,
    n: usize,
) -> Result<Vec<(game::Visitor, game::Visitor, String)>> {
    let sem = Arc::new(Semaphore::new(IDLE_CONCURRENCY));
    let mut tasks = tokio::task::JoinSet::new();
    for _ in 0..n {
        let (shared, sem) = (shared.clone(), sem.clone());
        tasks.spawn(async move {
            let _permit = sem.acquire_owned().await;
            game::idle_game(&shared).await
        });
    }
    let mut pairs = Vec::with_capacity(n);
    while let Some(done) = tasks.join_next().await {
        match done {
            Ok(Ok(pair)) => pairs.push(pair),
            Ok(Err(Failure(kind))) => shared.stats.error(kind),
            Err(e) => bail!("an idle game's task failed: {e}"),
        }
    }
    if pairs.len() < n {
        eprintln!("rookery: warning: {} of {n} idle games could not be created", n - pairs.len());
    }
    Ok(pairs)
}

fn ms(us: u64) -> f64 {
    us as f64 / 1000.0
}

impl Report {
    fn moves_per_s(&self) -> f64 {
        if self.window_s > 0.0 {
            self.moves as f64 / self.window_s
        } else {
            0.0
        }
    }

    fn print(&self, args: &Args, base: &str, note: &str) {
        let load = &args.load;
        let think = load.move_interval_ms;
        println!("server            {base} ({note})");
        if self.games > 0 {
            println!(
                "load              {} games, think {}..{} ms per move, {} ramp-up {} s, window {:.1} s, {} client thread(s)",
                self.games, think.lo_ms, think.hi_ms, load.time_control, load.ramp_s, self.window_s, load.threads
            );
            println!(
                "games live        {} at the end of the window ({} started, {} ended on the board and were replaced)",
                self.live_at_end, self.started, self.finished
            );
            println!("moves/s           {:.1} ({} moves)", self.moves_per_s(), self.moves);
            match self.round_trip_us {
                Some([p50, p90, p99, max]) => println!(
                    "round trip (ms)   p50 {:.2}  p90 {:.2}  p99 {:.2}  max {:.2}",
                    ms(p50),
                    ms(p90),
                    ms(p99),
                    ms(max)
                ),
                None => println!("round trip (ms)   no move completed"),
            }
        }
        let total: u64 = self.errors.values().sum();
        println!("errors            {total}");
        for (kind, n) in &self.errors {
            println!("  {n:>8}  {kind}");
        }
        if let Some(idle) = &self.idle {
            println!(
                "idle games        {}: RSS {} KiB before, {} KiB with the games, {} KiB connected",
                idle.games, idle.before_kib, idle.games_kib, idle.connected_kib
            );
            println!(
                "per idle game     {:.1} KiB ({:.1} KiB the game, {:.1} KiB its two sockets)",
                idle.per_game(idle.connected_kib),
                idle.per_game(idle.games_kib),
                idle.per_game(idle.connected_kib) - idle.per_game(idle.games_kib)
            );
        }
        if let Some((s, cpu)) = self.server {
            println!(
                "server process    RSS {} KiB, peak {} KiB, CPU {:.0} % of a core in the window",
                s.rss_kib,
                s.hwm_kib,
                cpu * 100.0
            );
        }
        if let Some((s, cpu)) = self.client {
            println!(
                "load generator    RSS {} KiB, CPU {:.0} % of a core in the window (same machine, {} process(es))",
                s.rss_kib,
                cpu * 100.0,
                self.client_processes
            );
        }
        if args.load.competing_load > 0 {
            println!(
                "competing load    {} busy processes beside the server",
                args.load.competing_load
            );
        }
        if self.invalid.is_empty() {
            println!("valid             yes");
        } else {
            println!(
                "INVALID RUN       the figures do not measure the server under the load asked for:"
            );
            for why in &self.invalid {
                println!("                  - {why}");
            }
        }
    }

    fn json(&self, args: &Args) -> JsonReport {
        let load = &args.load;
        let process = |p: Option<(Sample, f64)>| {
            p.map(|(s, cpu)| ProcessJson {
                rss_kib: s.rss_kib,
                peak_rss_kib: s.hwm_kib,
                cpu_cores: cpu,
            })
        };
        JsonReport {
            games: self.games,
            move_interval_ms: [load.move_interval_ms.lo_ms, load.move_interval_ms.hi_ms],
            time_control: load.time_control.clone(),
            ramp_s: load.ramp_s,
            window_s: self.window_s,
            client_threads: load.threads,
            client_processes: self.client_processes,
            competing_load: load.competing_load,
            games_live: self.live_at_end,
            games_started: self.started,
            games_finished: self.finished,
            moves: self.moves,
            moves_per_s: self.moves_per_s(),
            round_trip: self.round_trip_us.map(|[p50, p90, p99, max]| RoundTripJson {
                p50_ms: ms(p50),
                p90_ms: ms(p90),
                p99_ms: ms(p99),
                max_ms: ms(max),
            }),
            errors: self.errors.clone(),
            idle: self.idle.as_ref().map(|i| IdleJson {
                games: i.games,
                rss_before_kib: i.before_kib,
                rss_games_kib: i.games_kib,
                rss_connected_kib: i.connected_kib,
                kib_per_game: i.per_game(i.connected_kib),
                kib_per_game_without_sockets: i.per_game(i.games_kib),
            }),
            server: process(self.server),
            server_program: args.target.server_program.clone(),
            load_generator: process(self.client),
            valid: self.invalid.is_empty(),
            invalid_because: self.invalid.clone(),
            round_trip_histogram: self.histogram.clone(),
        }
    }

    /// Why these figures do not measure the server under the load asked for: sockets refused
    /// for lack of files, games missing at the end, a load generator that may be the bound.
    fn invalid_because(&self, args: &Args) -> Vec<String> {
        let mut why = Vec::new();
        let no_files: u64 = self
            .errors
            .iter()
            .filter(|(kind, _)| {
                kind.contains("Too many open files") || kind.contains("os error 24")
            })
            .map(|(_, n)| n)
            .sum();
        if no_files > 0 {
            why.push(format!(
                "{no_files} sockets or requests failed for lack of open files (ulimit -n)"
            ));
        }
        if self.games > 0 && self.live_at_end < self.games {
            why.push(format!(
                "only {} of the {} games asked for were live at the end of the window",
                self.live_at_end, self.games
            ));
        }
        let threads = f64::from(args.load.threads);
        if let Some(cores) = self.busiest_client_cores.filter(|&c| c >= 0.9 * threads) {
            why.push(format!(
                "a load generator process used {cores:.2} of its {threads} thread(s)' cores: it \
                 may be what bounds the run (--threads, --client-processes)"
            ));
        }
        why
    }
}

/// `--json`'s report: written by every run, read back by [`spread`] from its processes.
#[derive(serde::Serialize, serde::Deserialize)]
struct JsonReport {
    games: usize,
    move_interval_ms: [u64; 2],
    time_control: String,
    ramp_s: u64,
    window_s: f64,
    client_threads: u16,
    client_processes: usize,
    competing_load: usize,
    games_live: usize,
    games_started: u64,
    games_finished: u64,
    moves: u64,
    moves_per_s: f64,
    round_trip: Option<RoundTripJson>,
    errors: BTreeMap<String, u64>,
    idle: Option<IdleJson>,
    server: Option<ProcessJson>,
    server_program: Option<PathBuf>,
    load_generator: Option<ProcessJson>,
    valid: bool,
    invalid_because: Vec<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    round_trip_histogram: Option<HistogramSnapshot>,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct RoundTripJson {
    p50_ms: f64,
    p90_ms: f64,
    p99_ms: f64,
    max_ms: f64,
}

#[derive(serde::Serialize, serde::Deserialize)]
struct IdleJson {
    games: usize,
    rss_before_kib: u64,
    rss_games_kib: u64,
    rss_connected_kib: u64,
    kib_per_game: f64,
    kib_per_game_without_sockets: f64,
}

#[derive(Clone, Copy, serde::Serialize, serde::Deserialize)]
struct ProcessJson {
    rss_kib: u64,
    peak_rss_kib: u64,
    cpu_cores: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn think_times() {
        assert_eq!("2000..3000".parse(), Ok(ThinkTime { lo_ms: 2000, hi_ms: 3000 }));
        assert_eq!("500".parse(), Ok(ThinkTime { lo_ms: 500, hi_ms: 500 }));
        assert!("3000..2000".parse::<ThinkTime>().is_err());
        assert!("fast".parse::<ThinkTime>().is_err());
    }
}
