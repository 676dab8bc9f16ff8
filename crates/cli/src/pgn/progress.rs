//! A progress bar on standard error, drawn only when standard error is a terminal and the input
//! is large enough to wait for. Written by hand: `\r` and a line of `#`.

use std::io::{IsTerminal, Write};

/// Inputs smaller than this finish before a bar would help.
const MIN_SIZE: u64 = 16 << 20;
const WIDTH: u64 = 40;

pub struct Progress {
    /// The input's size, when a bar is drawn.
    total: Option<u64>,
    /// The last per-mille drawn.
    shown: Option<u64>,
}

impl Progress {
    pub fn new(size: Option<u64>) -> Progress {
        let total = size.filter(|&s| s >= MIN_SIZE && std::io::stderr().is_terminal());
        Progress { total, shown: None }
    }

    /// Redraws the bar when the share done has moved by a tenth of a percent.
    pub fn update(&mut self, done: u64) {
        let Some(total) = self.total else { return };
        let per_mille = done.min(total) * 1000 / total;
        if self.shown == Some(per_mille) {
            return;
        }
        self.shown = Some(per_mille);
        let filled = (per_mille * WIDTH / 1000) as usize;
        let bar = format!("{}{}", "#".repeat(filled), " ".repeat(WIDTH as usize - filled));
        let mut err = std::io::stderr().lock();
        let _ = write!(
            err,
            "\r[{bar}] {:>3}.{}% {} / {} MB",
            per_mille / 10,
            per_mille % 10,
            done >> 20,
            total >> 20
        );
        let _ = err.flush();
    }

    /// Clears the bar.
    pub fn finish(&mut self) {
        if self.total.is_some() && self.shown.is_some() {
            let mut err = std::io::stderr().lock();
            let _ = write!(err, "\r{}\r", " ".repeat(WIDTH as usize + 30));
            let _ = err.flush();
        }
    }
}
