//! How an engine is named on the command line:
//! `CMD [ARG…] [option.NAME=VALUE…] [nodes=N] [name=NAME]`.
//!
//! The text is split into words at white space; single or double quotes keep white space
//! inside a word (`'option.Move Overhead=100'`), and a backslash takes the next character
//! literally. The first word is the program; a word `option.NAME=VALUE` sets a UCI option
//! after the handshake (`setoption name NAME value VALUE`; a button is `option.NAME` with no
//! `=`); `nodes=N` limits each of its searches to N nodes (`go … nodes N`, as cutechess-cli's
//! `nodes=`: the clock still runs, and a deterministic engine, such as Rookery on one thread,
//! plays the same moves at fixed nodes however loaded the machine is); `name=NAME` names the
//! engine in the results and the PGN (default: its `id name`); every other word is an argument
//! to the program, in order.
//!
//! ```
//! use rookery_match::EngineSpec;
//!
//! let spec: EngineSpec =
//!     "stockfish option.UCI_LimitStrength=true 'option.UCI_Elo=2000' name=sf2000".parse()?;
//! assert_eq!(spec.command, "stockfish");
//! assert_eq!(spec.options[1], ("UCI_Elo".to_owned(), Some("2000".to_owned())));
//! assert_eq!(spec.name.as_deref(), Some("sf2000"));
//!
//! let spec: EngineSpec = "target/release/rookery uci 'option.Move Overhead=20'".parse()?;
//! assert_eq!(spec.args, ["uci"]);
//! assert_eq!(spec.options, [("Move Overhead".to_owned(), Some("20".to_owned()))]);
//!
//! let spec: EngineSpec = "target/release/rookery uci nodes=20000".parse()?;
//! assert_eq!(spec.nodes, Some(20_000));
//! # Ok::<(), rookery_match::SpecError>(())
//! ```

use core::fmt;
use core::str::FromStr;

/// An engine to run: the program, its arguments, the UCI options to set and its name.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct EngineSpec {
    /// The program to run (found on `PATH` unless it contains a `/`).
    pub command: String,
    /// Its command-line arguments.
    pub args: Vec<String>,
    /// UCI options to set after the handshake, in order: name and value (`None` for a button).
    pub options: Vec<(String, Option<String>)>,
    /// Search at most this many nodes a move (sent with every `go`).
    pub nodes: Option<u64>,
    /// The name for results and PGN; `None`: the engine's `id name`.
    pub name: Option<String>,
}

/// Why an engine description does not parse.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// No program is named.
    Empty,
    /// A quote is not closed.
    UnclosedQuote(String),
    /// `option.` with no option name, or `name=` with no name.
    Missing(String),
    /// `nodes=` with no positive whole number.
    Nodes(String),
}

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecError::Empty => f.write_str("no engine command given"),
            SpecError::UnclosedQuote(text) => write!(f, "unclosed quote in {text:?}"),
            SpecError::Missing(word) => write!(f, "{word:?} names nothing"),
            SpecError::Nodes(word) => write!(f, "{word:?}: nodes must be a whole number from 1"),
        }
    }
}

impl std::error::Error for SpecError {}

/// Splits at white space outside quotes; a backslash escapes the next character.
fn words(text: &str) -> Result<Vec<String>, SpecError> {
    let mut words = Vec::new();
    let mut word: Option<String> = None;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (None, '\'' | '"') => {
                quote = Some(c);
                word.get_or_insert_with(String::new);
            }
            (q, '\\') if q != Some('\'') => {
                if let Some(next) = chars.next() {
                    word.get_or_insert_with(String::new).push(next);
                }
            }
            (None, c) if c.is_whitespace() => words.extend(word.take()),
            (_, c) => word.get_or_insert_with(String::new).push(c),
        }
    }
    if quote.is_some() {
        return Err(SpecError::UnclosedQuote(text.to_owned()));
    }
    words.extend(word);
    Ok(words)
}

impl FromStr for EngineSpec {
    type Err = SpecError;

    fn from_str(text: &str) -> Result<EngineSpec, SpecError> {
        let mut words = words(text)?.into_iter();
        let command = words.next().ok_or(SpecError::Empty)?;
        let mut spec = EngineSpec { command, ..EngineSpec::default() };
        for word in words {
            if let Some(option) = word.strip_prefix("option.") {
                let (name, value) = match option.split_once('=') {
                    Some((name, value)) => (name, Some(value.to_owned())),
                    None => (option, None),
                };
                if name.trim().is_empty() {
                    return Err(SpecError::Missing(word));
                }
                spec.options.push((name.trim().to_owned(), value));
            } else if let Some(name) = word.strip_prefix("name=") {
                if name.is_empty() {
                    return Err(SpecError::Missing(word));
                }
                spec.name = Some(name.to_owned());
            } else if let Some(nodes) = word.strip_prefix("nodes=") {
                let nodes = nodes.parse().ok().filter(|&n: &u64| n > 0);
                spec.nodes = Some(nodes.ok_or_else(|| SpecError::Nodes(word.clone()))?);
            } else {
                spec.args.push(word);
            }
        }
        Ok(spec)
    }
}

impl fmt::Display for EngineSpec {
    /// The spec as it would be written, quoting words with white space or quotes.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let quote = |word: &str| {
            if word.is_empty() || word.contains(|c: char| c.is_whitespace() || "'\"\\".contains(c))
            {
                format!("'{}'", word.replace('\'', "'\\''"))
            } else {
                word.to_owned()
            }
        };
        f.write_str(&quote(&self.command))?;
        for arg in &self.args {
            write!(f, " {}", quote(arg))?;
        }
        for (name, value) in &self.options {
            let word = match value {
                Some(value) => format!("option.{name}={value}"),
                None => format!("option.{name}"),
            };
            write!(f, " {}", quote(&word))?;
        }
        if let Some(nodes) = self.nodes {
            write!(f, " nodes={nodes}")?;
        }
        if let Some(name) = &self.name {
            write!(f, " {}", quote(&format!("name={name}")))?;
        }
        Ok(())
    }
}
