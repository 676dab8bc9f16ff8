//! The error a user causes with bad input, apart from the others: `main` exits with status 2
//! and one line on stderr for it, 1 for anything else.

/// An error the user caused: bad input. Exits with status 2 and one line on stderr.
#[derive(Debug)]
pub struct UsageError(pub String);

impl std::fmt::Display for UsageError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UsageError {}
