//! Fixed-window counters (at most `limit` events per key per window), token buckets, and the
//! log-in throttle built on them.

use std::collections::HashMap;
use std::sync::Mutex;

use crate::client::ClientAddr;
use crate::limits::AccountLimits;
use crate::limits::Limit;

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

    /// The number of events allowed per window.
    pub fn limit(&self) -> u32 {
        self.limit
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
        self.refill(now);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }

    /// Whether the bucket has refilled by `now` (a new one would be the same).
    pub fn is_full(&mut self, now: u64) -> bool {
        self.refill(now);
        self.tokens >= self.burst
    }

    /// Whether the bucket was full when it was last read (nothing taken since it refilled).
    pub fn was_full(&self) -> bool {
        self.tokens >= self.burst
    }

    fn refill(&mut self, now: u64) {
        let elapsed = now.saturating_sub(self.last) as f64;
        self.last = now.max(self.last);
        self.tokens = (self.tokens + elapsed * self.per_ms).min(self.burst);
    }
}

/// Browsers remembered per name, at most.
const KNOWN_BROWSERS: usize = 16;
/// A browser is remembered this long after its last log-in.
const KNOWN_FOR_MS: u64 = 90 * 24 * 3600 * 1000;

/// Failed log-ins counted three ways (issue 37), so that guessing from one address stops
/// that address, guessing from many stops the guessing, and neither locks the name's owner
/// out: per name and address; per address; and per name from everywhere, which, once
/// exceeded, lets in only browsers that have logged in to the name before.
pub struct LoginThrottle {
    limits: AccountLimits,
    by_name_and_addr: RateLimiter,
    by_addr: RateLimiter,
    by_name: RateLimiter,
    /// Per name (lowercase): browsers (hashes of their visitor cookie) that logged in to it,
    /// with when they last did.
    known: Mutex<HashMap<String, Vec<(String, u64)>>>,
}

impl LoginThrottle {
    /// Nothing counted yet.
    pub fn new(limits: AccountLimits) -> LoginThrottle {
        LoginThrottle {
            by_name_and_addr: RateLimiter::new(limits.failures_per_name_and_address, 60_000),
            by_addr: RateLimiter::new(limits.failures_per_address, 60_000),
            by_name: RateLimiter::new(limits.failures_per_name, 3_600_000),
            limits,
            known: Mutex::new(HashMap::new()),
        }
    }

    /// Whether `name` may be tried from `addr` by the browser `browser` at `now`.
    ///
    /// # Errors
    /// The [`Limit`] that holds (`rate_limited`).
    pub fn check(
        &self,
        name: &str,
        addr: ClientAddr,
        browser: Option<&str>,
        now: u64,
    ) -> Result<(), Limit> {
        let name = name.to_ascii_lowercase();
        let refuse = Err;
        if !self.by_name_and_addr.allows(&pair(&name, addr), now) {
            let max = self.limits.failures_per_name_and_address;
            return refuse(Limit::LogInsToName { name, max });
        }
        // A trusted network (a class behind one address) is not counted as one guesser.
        if !addr.is_trusted() && !self.by_addr.allows(&addr.to_string(), now) {
            return refuse(Limit::LogIns(self.limits.failures_per_address));
        }
        if !self.by_name.allows(&name, now) && !self.is_known(&name, browser, now) {
            return refuse(Limit::NameGuessed(name));
        }
        Ok(())
    }

    /// Counts a failed log-in to `name` from `addr`.
    pub fn failed(&self, name: &str, addr: ClientAddr, now: u64) {
        let name = name.to_ascii_lowercase();
        self.by_name_and_addr.record(&pair(&name, addr), now);
        self.by_addr.record(&addr.to_string(), now);
        self.by_name.record(&name, now);
    }

    /// Remembers that `browser` got into `name` (a log-in or a sign-up).
    pub fn succeeded(&self, name: &str, browser: Option<&str>, now: u64) {
        let Some(browser) = browser else { return };
        let mut known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        if known.len() > 100_000 {
            known.retain(|_, list| list.iter().any(|(_, at)| now < at + KNOWN_FOR_MS));
        }
        let list = known.entry(name.to_ascii_lowercase()).or_default();
        list.retain(|(b, at)| b != browser && now < at + KNOWN_FOR_MS);
        list.push((browser.to_owned(), now));
        if list.len() > KNOWN_BROWSERS {
            list.remove(0);
        }
    }

    fn is_known(&self, name: &str, browser: Option<&str>, now: u64) -> bool {
        let Some(browser) = browser else { return false };
        let known = self.known.lock().unwrap_or_else(|e| e.into_inner());
        known
            .get(name)
            .is_some_and(|list| list.iter().any(|(b, at)| b == browser && now < at + KNOWN_FOR_MS))
    }
}

fn pair(name: &str, addr: ClientAddr) -> String {
    format!("{name} {addr}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn log_in_failures_lock_out_the_guesser_not_the_owner() {
        let limits = AccountLimits {
            signups_per_address: 10,
            failures_per_name_and_address: 2,
            failures_per_address: 3,
            failures_per_name: 4,
            class_accounts_per_day: 1,
        };
        let t = LoginThrottle::new(limits);
        let ip = |s: &str| ClientAddr::from_ip(s.parse().unwrap());
        t.succeeded("Alice", Some("home"), 0);
        t.failed("alice", ip("10.0.0.1"), 1);
        t.failed("ALICE", ip("10.0.0.1"), 2);
        assert!(t.check("alice", ip("10.0.0.1"), None, 3).is_err(), "per name and address");
        assert!(t.check("alice", ip("10.0.0.2"), None, 3).is_ok(), "another address");
        t.failed("bob", ip("10.0.0.1"), 4);
        assert!(t.check("carol", ip("10.0.0.1"), None, 5).is_err(), "per address");
        t.failed("alice", ip("10.0.0.3"), 6);
        t.failed("alice", ip("10.0.0.4"), 7);
        assert!(t.check("alice", ip("10.0.0.5"), Some("new"), 8).is_err(), "per name");
        assert!(t.check("alice", ip("10.0.0.5"), Some("home"), 8).is_ok(), "a known browser");
        assert!(t.check("alice", ip("10.0.0.5"), None, 3_600_007).is_ok(), "an hour later");
        assert!(t.check("alice", ip("10.0.0.1"), Some("home"), 60_002).is_ok(), "a minute later");
    }

    #[test]
    fn a_trusted_network_is_not_one_guesser_but_each_name_still_is() {
        let limits = AccountLimits {
            failures_per_name_and_address: 2,
            failures_per_address: 3,
            failures_per_name: 100,
            ..AccountLimits::default()
        };
        let t = LoginThrottle::new(limits);
        let trusted: rookery_listener::AddressBlocks = "192.0.2.0/24".parse().unwrap();
        let school = rookery_listener::client_of("192.0.2.9:1".parse().unwrap(), Some(&trusted));
        // A class of children mistyping: ten names, one slip each.
        for (i, name) in ["ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal", "ivy", "jo"]
            .into_iter()
            .enumerate()
        {
            t.failed(name, school, i as u64);
        }
        assert!(t.check("kim", school, None, 20).is_ok(), "no cap per trusted address");
        t.failed("ann", school, 21);
        assert!(t.check("ann", school, None, 22).is_err(), "still per name and address");
    }

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
