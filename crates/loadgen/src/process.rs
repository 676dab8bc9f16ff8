//! The server under test when none is given: `rookery serve` on a free loopback port over a
//! temporary SQLite database, and what Linux tells about a process (`/proc/PID/status`
//! memory, `/proc/PID/stat` CPU time).

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command, Stdio};

use anyhow::{bail, Context, Result};

/// A `rookery serve` child process; killed when dropped.
pub struct ServerProcess {
    child: Child,
    /// `http://127.0.0.1:PORT`.
    pub base: String,
    _data: tempfile::TempDir,
}

impl ServerProcess {
    /// Starts `rookery serve --addr 127.0.0.1:0 EXTRA…` (`rookery` the program at that path)
    /// over a fresh temporary directory and waits for the line that names its address. Its
    /// later stderr (warnings) is passed through.
    ///
    /// # Errors
    /// The binary cannot be started, or it exits before it serves.
    pub fn spawn(rookery: &Path, extra: &[&str]) -> Result<ServerProcess> {
        let data = tempfile::Builder::new()
            .prefix("rookery-bench-")
            .tempdir()
            .context("cannot create a temporary data directory")?;
        let mut child = Command::new(rookery)
            .args(["serve", "--addr", "127.0.0.1:0", "--log-level", "warn", "--data-dir"])
            .arg(data.path())
            .args(extra)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {} serve", rookery.display()))?;
        let stderr = child.stderr.take().context("no stderr pipe")?;
        let mut lines = BufReader::new(stderr).lines();
        let base = loop {
            let Some(line) = lines.next() else {
                let status = child.wait()?;
                bail!("the server exited before serving ({status})");
            };
            let line = line?;
            if let Some(url) = line.strip_prefix("rookery: serving on ") {
                break url.trim().to_owned();
            }
            eprintln!("server: {line}");
        };
        std::thread::spawn(move || {
            for line in lines.map_while(Result::ok) {
                eprintln!("server: {line}");
            }
        });
        Ok(ServerProcess { child, base, _data: data })
    }

    /// Its data directory (`rookery.sqlite3` inside).
    pub fn data_dir(&self) -> &Path {
        self._data.path()
    }

    /// The process id.
    pub fn pid(&self) -> u32 {
        self.child.id()
    }
}

impl Drop for ServerProcess {
    fn drop(&mut self) {
        // The database is thrown away with the directory: no need for an orderly stop.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// What `/proc` says about one process.
#[derive(Clone, Copy, Debug, Default)]
pub struct Sample {
    /// Resident set size, KiB (`VmRSS`).
    pub rss_kib: u64,
    /// Peak resident set size, KiB (`VmHWM`).
    pub hwm_kib: u64,
    /// User + system CPU time, seconds.
    pub cpu_s: f64,
}

/// Reads `/proc/PID/status` and `/proc/PID/stat` (`pid` `None`: this process).
pub fn sample(pid: Option<u32>) -> Option<Sample> {
    let dir = pid.map_or_else(|| "/proc/self".to_owned(), |p| format!("/proc/{p}"));
    let status = std::fs::read_to_string(format!("{dir}/status")).ok()?;
    let kib = |key: &str| {
        status.lines().find_map(|l| {
            l.strip_prefix(key)?.trim().strip_suffix("kB")?.trim().parse::<u64>().ok()
        })
    };
    let stat = std::fs::read_to_string(format!("{dir}/stat")).ok()?;
    // After the command name in parentheses: state is field 3, utime and stime 14 and 15.
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    Some(Sample {
        rss_kib: kib("VmRSS:")?,
        hwm_kib: kib("VmHWM:")?,
        cpu_s: ticks as f64 / rustix::param::clock_ticks_per_second() as f64,
    })
}

/// Busy processes that compete with the server for the cores (`--competing-load N`): each an
/// endless shell loop, as a build or a test suite beside the server would; killed when dropped.
pub struct BusyLoad {
    children: Vec<Child>,
}

impl BusyLoad {
    /// Starts `n` of them.
    ///
    /// # Errors
    /// `sh` cannot be started.
    pub fn start(n: usize) -> Result<BusyLoad> {
        let mut load = BusyLoad { children: Vec::with_capacity(n) };
        for _ in 0..n {
            let child = Command::new("sh")
                .args(["-c", "while :; do :; done"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .context("cannot start a competing busy process (sh)")?;
            load.children.push(child);
        }
        Ok(load)
    }
}

impl Drop for BusyLoad {
    fn drop(&mut self) {
        for child in &mut self.children {
            let _ = child.kill();
            let _ = child.wait();
        }
    }
}
