//! What the load generator counts: move round trips in a log-linear histogram, moves, live
//! games and errors by kind. Shared by every game task, so everything is atomic or behind a
//! short lock.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// Values below this are their own bucket.
const LINEAR: u64 = 64;
/// Buckets per power of two above [`LINEAR`]: a relative error of at most 1/32.
const PER_OCTAVE: u64 = 32;
/// `LINEAR` buckets, then `PER_OCTAVE` for each power of two from 2^6 to 2^63.
const BUCKETS: usize = (LINEAR + (64 - 6) * PER_OCTAVE) as usize;

/// A histogram of durations in microseconds, log-linear like HdrHistogram: exact to 63 µs,
/// then 32 buckets per doubling (within 3 %). Lock-free, so every game task records into it.
pub struct Histogram {
    buckets: Box<[AtomicU64]>,
    count: AtomicU64,
    max: AtomicU64,
}

impl Default for Histogram {
    fn default() -> Histogram {
        Histogram {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            count: AtomicU64::new(0),
            max: AtomicU64::new(0),
        }
    }
}

fn bucket_of(us: u64) -> usize {
    if us < LINEAR {
        return us as usize;
    }
    let msb = 63 - u64::from(us.leading_zeros());
    let shift = msb - 5;
    let mantissa = us >> shift; // in [32, 64)
    (LINEAR + (msb - 6) * PER_OCTAVE + (mantissa - PER_OCTAVE)) as usize
}

/// The middle of bucket `i`, in µs.
fn bucket_value(i: usize) -> u64 {
    let i = i as u64;
    if i < LINEAR {
        return i;
    }
    let octave = (i - LINEAR) / PER_OCTAVE;
    let mantissa = (i - LINEAR) % PER_OCTAVE + PER_OCTAVE;
    let shift = octave + 1;
    (mantissa << shift) + (1 << shift) / 2
}

impl Histogram {
    /// Counts one duration.
    pub fn record(&self, d: Duration) {
        let us = u64::try_from(d.as_micros()).unwrap_or(u64::MAX);
        self.buckets[bucket_of(us)].fetch_add(1, Ordering::Relaxed);
        self.count.fetch_add(1, Ordering::Relaxed);
        self.max.fetch_max(us, Ordering::Relaxed);
    }

    /// How many durations were counted.
    pub fn count(&self) -> u64 {
        self.count.load(Ordering::Relaxed)
    }

    /// The longest, in µs.
    pub fn max_us(&self) -> u64 {
        self.max.load(Ordering::Relaxed)
    }

    /// The counts as `(bucket, count)` for the buckets that have any, and the longest: what
    /// a load generator process reports so that another can [`Histogram::add`] it.
    pub fn snapshot(&self) -> HistogramSnapshot {
        let buckets = self
            .buckets
            .iter()
            .enumerate()
            .filter_map(|(i, b)| Some((i, b.load(Ordering::Relaxed))).filter(|&(_, n)| n > 0))
            .collect();
        HistogramSnapshot { buckets, max_us: self.max_us() }
    }

    /// Adds another process's counts; a bucket out of range is refused.
    pub fn add(&self, other: &HistogramSnapshot) -> Result<(), String> {
        if let Some(&(i, _)) = other.buckets.iter().find(|&&(i, _)| i >= BUCKETS) {
            return Err(format!("histogram bucket {i} out of range (0..{BUCKETS})"));
        }
        for &(i, n) in &other.buckets {
            self.buckets[i].fetch_add(n, Ordering::Relaxed);
            self.count.fetch_add(n, Ordering::Relaxed);
        }
        self.max.fetch_max(other.max_us, Ordering::Relaxed);
        Ok(())
    }

    /// The `q` quantile (0 < q ≤ 1) in µs, `None` when empty.
    pub fn quantile_us(&self, q: f64) -> Option<u64> {
        let total = self.count();
        if total == 0 {
            return None;
        }
        let rank = ((q * total as f64).ceil() as u64).clamp(1, total);
        let mut seen = 0;
        for (i, b) in self.buckets.iter().enumerate() {
            seen += b.load(Ordering::Relaxed);
            if seen >= rank {
                return Some(bucket_value(i).min(self.max_us()));
            }
        }
        Some(self.max_us())
    }
}

/// A [`Histogram`]'s counts in a report: `(bucket, count)` pairs, and the longest in µs.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct HistogramSnapshot {
    /// The buckets that counted anything.
    pub buckets: Vec<(usize, u64)>,
    /// The longest, in µs.
    pub max_us: u64,
}

/// Everything the game tasks count.
#[derive(Default)]
pub struct Stats {
    /// Move round trips that completed inside the measurement window.
    pub round_trip: Histogram,
    /// Whether the measurement window is open.
    pub measuring: AtomicBool,
    /// Moves whose round trip completed, since the start.
    pub moves: AtomicU64,
    /// Games being played now (both sockets open, not over).
    pub live: AtomicUsize,
    /// Games created for play since the start.
    pub started: AtomicU64,
    /// Games that ended on the board (mate, draw rules) and were replaced.
    pub finished: AtomicU64,
    errors: Mutex<BTreeMap<String, u64>>,
}

impl Stats {
    /// Counts a completed move and, inside the window, its round trip.
    pub fn record_move(&self, round_trip: Duration) {
        self.moves.fetch_add(1, Ordering::Relaxed);
        if self.measuring.load(Ordering::Relaxed) {
            self.round_trip.record(round_trip);
        }
    }

    /// Counts an error of `kind` (`rejected:stale_ply`, `http:POST /api/v1/seeks 429`, …).
    pub fn error(&self, kind: impl Into<String>) {
        let mut errors = self.errors.lock().unwrap_or_else(|e| e.into_inner());
        *errors.entry(kind.into()).or_insert(0) += 1;
    }

    /// The errors so far, by kind.
    pub fn errors(&self) -> BTreeMap<String, u64> {
        self.errors.lock().unwrap_or_else(|e| e.into_inner()).clone()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn buckets_are_monotonic_and_close() {
        let mut last = 0;
        for us in [0u64, 1, 63, 64, 65, 100, 1_000, 12_345, 1_000_000, 50_000_000] {
            let b = bucket_of(us);
            assert!(b >= last, "bucket of {us}");
            last = b;
            let v = bucket_value(b);
            assert!(v.abs_diff(us) * 32 <= us.max(32), "{us} µs read back as {v}");
        }
        assert!(bucket_of(u64::MAX) < BUCKETS);
    }

    #[test]
    fn quantiles() {
        let h = Histogram::default();
        for ms in 1..=100 {
            h.record(Duration::from_millis(ms));
        }
        let p50 = h.quantile_us(0.5).unwrap();
        let p99 = h.quantile_us(0.99).unwrap();
        assert!((48_500..=51_500).contains(&p50), "p50 {p50}");
        assert!((96_000..=100_000).contains(&p99), "p99 {p99}");
        assert_eq!(h.max_us(), 100_000);
    }

    #[test]
    fn snapshots_merge_to_the_histogram_of_both() {
        let (a, b, both) = (Histogram::default(), Histogram::default(), Histogram::default());
        for ms in 1..=100 {
            let h = if ms % 3 == 0 { &a } else { &b };
            h.record(Duration::from_millis(ms));
            both.record(Duration::from_millis(ms));
        }
        let merged = Histogram::default();
        merged.add(&a.snapshot()).unwrap();
        merged.add(&b.snapshot()).unwrap();
        assert_eq!(merged.snapshot(), both.snapshot());
        assert_eq!(merged.count(), 100);
        assert_eq!(merged.quantile_us(0.99), both.quantile_us(0.99));
        let bad = HistogramSnapshot { buckets: vec![(BUCKETS, 1)], max_us: 0 };
        assert!(merged.add(&bad).unwrap_err().contains("out of range"));
    }
}
