//! Fixed-window counters: at most `limit` events per key per window (log-in attempts).

use std::collections::HashMap;
use std::sync::Mutex;

/// Counts events per key in windows of `window_ms`.
pub struct RateLimiter {
    limit: u32,
    window_ms: u64,
    counts: Mutex<HashMap<String, (u64, u32)>>,
}

impl RateLimiter {
    /// At most `limit` events per key per `window_ms`.
    pub fn new(limit: u32, window_ms: u64) -> RateLimiter {
        RateLimiter { limit, window_ms, counts: Mutex::new(HashMap::new()) }
    }

    /// `true` if `key` is still under its limit at `now` (does not count an event).
    pub fn allows(&self, key: &str, now: u64) -> bool {
        let counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        match counts.get(key) {
            Some(&(start, n)) if now < start + self.window_ms => n < self.limit,
            _ => true,
        }
    }

    /// Counts one event for `key` at `now`.
    pub fn record(&self, key: &str, now: u64) {
        let mut counts = self.counts.lock().unwrap_or_else(|e| e.into_inner());
        if counts.len() > 100_000 {
            let window = self.window_ms;
            counts.retain(|_, (start, _)| now < *start + window);
        }
        let entry = counts.entry(key.to_owned()).or_insert((now, 0));
        if now >= entry.0 + self.window_ms {
            *entry = (now, 0);
        }
        entry.1 += 1;
    }
}

/// A token bucket for one connection's messages: `burst` at once, `per_second` sustained.
pub struct TokenBucket {
    tokens: f64,
    burst: f64,
    per_ms: f64,
    last: u64,
}

impl TokenBucket {
    /// A full bucket.
    pub fn new(burst: u32, per_second: u32, now: u64) -> TokenBucket {
        TokenBucket {
            tokens: f64::from(burst),
            burst: f64::from(burst),
            per_ms: f64::from(per_second) / 1000.0,
            last: now,
        }
    }

    /// Takes a token at `now`; `false` when the bucket is empty.
    pub fn take(&mut self, now: u64) -> bool {
        let elapsed = now.saturating_sub(self.last) as f64;
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.per_ms).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn limiter_counts_per_window() {
        let l = RateLimiter::new(2, 1000);
        assert!(l.allows("a", 0));
        l.record("a", 0);
        l.record("a", 10);
        assert!(!l.allows("a", 20));
        assert!(l.allows("b", 20));
        assert!(l.allows("a", 1000));
    }

    #[test]
    fn bucket_refills() {
        let mut b = TokenBucket::new(2, 10, 0);
        assert!(b.take(0));
        assert!(b.take(0));
        assert!(!b.take(0));
        assert!(b.take(100));
    }
}
