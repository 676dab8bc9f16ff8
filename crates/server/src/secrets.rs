//! Secrets made from the operating system's randomness: session tokens, CSRF tokens,
//! first-log-in codes, as lowercase hex.

/// `bytes` random bytes from the operating system, as lowercase hex.
pub fn random_hex(bytes: usize) -> String {
    let mut buf = vec![0u8; bytes];
    // The OS generator failing is not recoverable in a server that must issue secrets.
    getrandom::fill(&mut buf).expect("the operating system's random generator failed");
    hex(&buf)
}

/// Lowercase hex of `bytes`.
pub fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    let mut s = String::with_capacity(bytes.len() * 2);
    for b in bytes {
        let _ = write!(s, "{b:02x}");
    }
    s
}
